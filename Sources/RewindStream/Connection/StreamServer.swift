/// How to reach a NATS server with JetStream: its URL and what a deployment needs to
/// connect (user and password, a credentials file, TLS with a CA file, a connection name).
public struct StreamServer: Sendable, Equatable {
  /// `nats://HOST:PORT` (or `tls://…`); several, separated by commas, for a cluster.
  public var url: String
  /// The user and password the server expects, if any.
  public var user: String?
  public var password: String?
  /// A NATS credentials file (`.creds`: a user JWT and its NKey seed), if any.
  public var credentialsFile: String?
  /// A PEM file of the certificate authorities trusted for TLS; giving one turns TLS on.
  public var certificateAuthorityFile: String?
  /// The connection's name, as the server's monitoring shows it.
  public var connectionName: String
  /// How long connecting and each request may take, in milliseconds.
  public var timeoutMilliseconds: Int64
  /// The number of copies of the stream and buckets this connection creates (1 on one
  /// server, 3 on a cluster of three).
  public var replicas: Int

  /// A server at `url` with no credentials, a 5 s timeout and one replica.
  public init(
    url: String, user: String? = nil, password: String? = nil, credentialsFile: String? = nil,
    certificateAuthorityFile: String? = nil, connectionName: String = "rewind",
    timeoutMilliseconds: Int64 = 5000, replicas: Int = 1
  ) {
    self.url = url
    self.user = user
    self.password = password
    self.credentialsFile = credentialsFile
    self.certificateAuthorityFile = certificateAuthorityFile
    self.connectionName = connectionName
    self.timeoutMilliseconds = timeoutMilliseconds
    self.replicas = replicas
  }
}
