/// What went wrong talking to a stream server: which server, which session, what.
public struct StreamError: Error, Sendable, CustomStringConvertible {
  /// The kinds of failure a command tells apart.
  public enum Kind: String, Sendable {
    /// The URL is not a server's address (``StreamServer/addressProblem``): nothing was
    /// tried.
    case invalidAddress
    /// No server answers at the URL (connection refused, unreachable, timed out, a host
    /// name that does not resolve).
    case noServer
    /// The server refused the credentials, or TLS failed.
    case authorization
    /// The server has no JetStream, or no stream or bucket of Rewind's yet.
    case streamMissing
    /// The session is not on the server.
    case sessionMissing
    /// A message is larger than the server accepts.
    case tooLarge
    /// The server holds something else than this journal under the session's name, or
    /// another writer appended to the session meanwhile.
    case conflict
    /// Another writer of the session changed its summary or a value of its index between
    /// this push's reading and writing it (a push of the same journal, a shipper's round):
    /// nothing was written over; a push that reads them again goes on.
    case changedMeanwhile
    /// The server did not answer in time.
    case timeout
    /// What the server holds is not a valid session (damaged or foreign messages).
    case invalidData
    /// Anything else the client library reported.
    case other
  }

  public var kind: Kind
  /// The server's URL, any password in it written `***` (``StreamServer/displayURL``).
  public var server: String
  /// The session concerned, if any.
  public var session: String?
  /// What went wrong, as a sentence.
  public var message: String

  /// Whether the server said that the stream had no leader: a cluster electing one
  /// (JetStream answers, the stream does not). A `timeout`, which a later try may
  /// overcome; the last try's error says it if it is only a timeout.
  var noLeader = false

  public init(_ kind: Kind, _ message: String, server: String, session: String? = nil) {
    self.kind = kind
    self.message = message
    self.server = server
    self.session = session
  }

  /// `nats://host:4222: session 6f…: message`.
  public var description: String {
    var text = server + ": "
    if let session, !session.isEmpty { text += "session \(session): " }
    return text + message
  }

  func about(_ session: String) -> StreamError {
    var copy = self
    if copy.session == nil { copy.session = session }
    return copy
  }
}
