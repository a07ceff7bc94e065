import RewindJournal

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
  /// The environment variable holding the password of the user given, as the `nats`
  /// command line tool reads it (its `--password`).
  public static let passwordVariable = "NATS_PASSWORD"

  /// This server with the credentials file and the certificate authorities the
  /// environment names (``credentialsVariable``, ``authoritiesVariable``) where it has
  /// none of its own, and the password it holds (``passwordVariable``) for a user given
  /// without one; a variable that is empty names none.
  ///
  /// What the command line gives wins over the environment: a credentials file, or a user
  /// (``user``, or one in ``url``), leaves `NATS_CREDS` unread (a CI host that exports it
  /// for another tool would otherwise send its credentials in place of the user given, the
  /// server refusing them or taking the connection into another account); an authorities'
  /// file leaves `NATS_CA` unread; a password (``password``, ``passwordFile``, or one in
  /// ``url``) leaves `NATS_PASSWORD` unread. `NATS_PASSWORD` is the password of ``user``
  /// only (`--user`, or the user of a session's URL, which ``StreamStore/sessionURL(_:)``
  /// takes apart): libnats sends a user in a server's URL without a password as a token,
  /// and a user given nowhere has no password to be given.
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
    if server.user != nil, server.password == nil, server.passwordFile == nil,
      let password = environment[Self.passwordVariable], !password.isEmpty
    {
      server.password = password
      server.passwordFromEnvironment = true
    }
    if let problem = server.filesProblem(fromEnvironmentOnly: true) {
      throw StreamError(.authorization, problem, server: displayURL)
    }
    return server
  }

  /// What makes the password file, the credentials file or the certificate authorities'
  /// file unusable, naming the file and the variable that named it
  /// (``takingEnvironment(_:)``), if any; nil when all can be used (or are not given).
  /// Checked before connecting (a pipe, which cannot be looked into without being read,
  /// passes): libnats reads a credentials file only when the server asks for a signature,
  /// so a directory (a Kubernetes Secret is mounted as one), `/dev/null` or an empty file
  /// would connect with no credentials at all, into the account of the server's
  /// `no_auth_user`.
  /// - Parameter fromEnvironmentOnly: only the files the environment named.
  public func filesProblem(fromEnvironmentOnly: Bool = false) -> String? {
    let files = [
      (passwordFile, "the password file", false, ""),
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

extension StreamServer {
  /// The longest password file read, in bytes: a password is a line, and a file much
  /// longer is not one (a credentials file named by mistake, say).
  static let passwordFileLimit = 4096

  /// The password the file at `path` holds (``passwordFile``): its text, less one line
  /// ending (`\n` or `\r\n`) at its end. Read whole as the connection is made, through the
  /// journal's file calls (`open`, `read`, `close`), so a pipe (`--password-file <(vault
  /// read …)`) is read once, by the process that connects (never by the `rewind` that hands
  /// its command line to `rewind-nats`).
  /// - Throws: ``StreamError`` `authorization` naming the file: it cannot be read, or holds
  ///   no password (nothing but a line ending), more than one line, more than
  ///   ``passwordFileLimit`` bytes, or text that is not UTF-8.
  func password(fromFile path: String) throws(StreamError) -> String {
    func failure(_ problem: String) -> StreamError {
      StreamError(
        .authorization, "cannot use the password file \(path): \(problem)", server: displayURL)
    }
    let calls = FileSystemCalls.live
    let descriptor = calls.open(path, O_RDONLY | O_CLOEXEC, 0)
    guard descriptor >= 0 else { throw failure(Self.unreadable(errno)) }
    defer { _ = calls.close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1024)
    while bytes.count <= Self.passwordFileLimit {
      let count = buffer.withUnsafeMutableBytes { calls.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { throw failure(Self.unreadable(errno)) }
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    guard bytes.count <= Self.passwordFileLimit else {
      throw failure("it holds more than \(Self.passwordFileLimit) bytes, not one password")
    }
    if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
    if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
    guard !bytes.isEmpty else { throw failure("it holds no password") }
    guard !bytes.contains(UInt8(ascii: "\n")) else {
      throw failure("it holds more than one line; the password is its one line")
    }
    guard let password = String(validating: bytes, as: UTF8.self) else {
      throw failure("it is not UTF-8 text")
    }
    return password
  }
}
