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
  /// none of its own (an option given wins); a variable that is empty names none.
  ///
  /// A session's URL (`nats://HOST:PORT/SESSION`, read by every command that reads a
  /// journal) has no room for files: a server with TLS from a private authority, or one
  /// that takes credentials files, is reached through these.
  /// - Throws: ``StreamError`` `authorization` naming the variable when the file it names
  ///   cannot be read (checked before connecting, as the options' files are).
  public func takingEnvironment(_ environment: [String: String]) throws(StreamError)
    -> StreamServer
  {
    var server = self
    /// `path`, which `variable` gives, when it names a file that can be read.
    func file(_ path: String?, _ variable: String, _ what: String) throws(StreamError)
      -> String?
    {
      guard let path, !path.isEmpty else { return nil }
      guard access(path, R_OK) == 0 else {
        let reason = String(cString: strerror(errno))
        throw StreamError(
          .authorization, "cannot read \(what) \(path), which \(variable) names: \(reason)",
          server: displayURL)
      }
      return path
    }
    // Read by name, as `ProcessCalls.variablesRead` lists them (a test checks the list).
    if server.credentialsFile == nil {
      server.credentialsFile = try file(
        environment["NATS_CREDS"], Self.credentialsVariable, "the credentials file")
      server.credentialsFromEnvironment = server.credentialsFile != nil
    }
    if server.certificateAuthorityFile == nil {
      server.certificateAuthorityFile = try file(
        environment["NATS_CA"], Self.authoritiesVariable, "the certificate authorities' file")
      server.authoritiesFromEnvironment = server.certificateAuthorityFile != nil
    }
    return server
  }
}
