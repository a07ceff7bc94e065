#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension StreamServer {
  /// The environment variable naming a NATS credentials file, as the `nats` command line
  /// tool reads it (its `--creds`).
  public static let credentialsVariable = "NATS_CREDS"
  /// The environment variable naming a PEM file of certificate authorities to trust, as
  /// the `nats` command line tool reads it (its `--tlsca`).
  public static let authoritiesVariable = "NATS_CA"

  /// This server with the credentials file and the certificate authorities the
  /// environment names (``credentialsVariable``, ``authoritiesVariable``) where it has
  /// none of its own; a variable that is empty names none.
  ///
  /// What the command line gives wins over the environment: a credentials file, or a user
  /// (``user``, or one in ``url``), leaves `NATS_CREDS` unread (a CI host that exports it
  /// for another tool would otherwise send its credentials in place of the user given, the
  /// server refusing them or taking the connection into another account); an authorities'
  /// file leaves `NATS_CA` unread.
  ///
  /// A session's URL (`nats://HOST:PORT/SESSION`, read by every command that reads a
  /// journal) has no room for files: a server with TLS from a private authority, or one
  /// that takes credentials files, is reached through these.
  /// - Throws: ``StreamError`` `authorization` naming the variable when the file it names
  ///   cannot be used (``fileProblem(_:)``: missing, unreadable, a directory, a device,
  ///   empty), checked before connecting, as the options' files are.
  public func takingEnvironment(_ environment: [String: String]) throws(StreamError)
    -> StreamServer
  {
    var server = self
    // Read by name, as `ProcessCalls.variablesRead` lists them (a test checks the list).
    if server.credentialsFile == nil, server.user == nil, !server.urlGivesUser,
      let path = environment["NATS_CREDS"], !path.isEmpty
    {
      server.credentialsFile = path
      server.credentialsFromEnvironment = true
    }
    if server.certificateAuthorityFile == nil, let path = environment["NATS_CA"], !path.isEmpty {
      server.certificateAuthorityFile = path
      server.authoritiesFromEnvironment = true
    }
    if let problem = server.filesProblem(fromEnvironmentOnly: true) {
      throw StreamError(.authorization, problem, server: displayURL)
    }
    return server
  }

  /// What makes the credentials file or the certificate authorities' file unusable,
  /// naming the file and the variable that named it (``takingEnvironment(_:)``), if any;
  /// nil when both can be used (or are not given). Checked before connecting: libnats
  /// reads a credentials file only when the server asks for a signature, so a directory
  /// (a Kubernetes Secret is mounted as one), `/dev/null` or an empty file would connect
  /// with no credentials at all, into the account of the server's `no_auth_user`.
  /// - Parameter fromEnvironmentOnly: only the files the environment named.
  public func filesProblem(fromEnvironmentOnly: Bool = false) -> String? {
    let files = [
      (
        credentialsFile, "the credentials file", credentialsFromEnvironment,
        Self.credentialsVariable
      ),
      (
        certificateAuthorityFile, "the certificate authorities' file", authoritiesFromEnvironment,
        Self.authoritiesVariable
      ),
    ]
    for case (let path?, let what, let fromEnvironment, let variable) in files
    where fromEnvironment || !fromEnvironmentOnly {
      guard let problem = Self.fileProblem(path) else { continue }
      let named = fromEnvironment ? ", which \(variable) names" : ""
      return "cannot use \(what) \(path)\(named): \(problem)"
    }
    return nil
  }

  /// Why the file at `path` cannot be one a connection reads (a credentials file, a PEM
  /// file of certificate authorities), or nil: `no such file`, `permission denied`, `it is
  /// a directory, not a file`, `it is a device, not a file`, `it is empty`. A pipe is
  /// taken (`--creds <(vault read …)`): it cannot be looked into without being read.
  /// - Parameter path: the file, as given.
  public static func fileProblem(_ path: String) -> String? {
    var status = stat()
    guard stat(path, &status) == 0 else { return unreadable(errno) }
    switch status.st_mode & S_IFMT {
    case S_IFDIR: return "it is a directory, not a file"
    case S_IFCHR, S_IFBLK: return "it is a device, not a file"
    case S_IFREG where status.st_size == 0: return "it is empty"
    default: break
    }
    guard access(path, R_OK) == 0 else { return unreadable(errno) }
    return nil
  }

  /// Why a file could not be read, from `stat`'s or `access`'s `errno`: `no such file`,
  /// `permission denied`.
  private static func unreadable(_ number: Int32) -> String {
    switch number {
    case ENOENT: "no such file"
    case EACCES: "permission denied"
    default: String(cString: strerror(number)).lowercased()
    }
  }
}
