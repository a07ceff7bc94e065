/// A certificate authority of a test's own and a server certificate it signed for
/// 127.0.0.1, made by `openssl` (Tools/install-dependencies installs it) in `directory`:
/// for a ``NatsServer`` with TLS that a client trusts only when given ``authority``.
public struct TestCertificates: Sendable {
  /// Why the certificates could not be made.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// The authority's certificate (PEM): what a client is told to trust.
  public let authority: String
  /// The server's certificate (PEM, for the IP address 127.0.0.1) and its key.
  public let serverCertificate: String
  public let serverKey: String

  /// Makes the authority and the server's certificate, each valid for two days.
  public init(in directory: TemporaryDirectory) throws {
    guard let openssl = executable(named: "openssl") else {
      throw Failure(
        description:
          "openssl is not installed (Tools/install-dependencies installs it); the TLS tests need it"
      )
    }
    authority = directory.file("ca.pem")
    serverCertificate = directory.file("server.pem")
    serverKey = directory.file("server-key.pem")
    let authorityKey = directory.file("ca-key.pem")
    let request = directory.file("server.csr")
    let extensions = directory.file("server.ext")
    write(Array("subjectAltName = IP:127.0.0.1\n".utf8), to: extensions)
    let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    let steps: [[String]] = [
      ["req", "-x509"] + key
        + [
          "-keyout", authorityKey, "-out", authority, "-days", "2", "-subj", "/CN=Rewind test CA",
        ],
      ["req"] + key + ["-keyout", serverKey, "-out", request, "-subj", "/CN=127.0.0.1"],
      [
        "x509", "-req", "-in", request, "-CA", authority, "-CAkey", authorityKey,
        "-CAcreateserial", "-out", serverCertificate, "-days", "2", "-extfile", extensions,
      ],
    ]
    for arguments in steps {
      let result = try run(openssl, arguments)
      guard result.status == 0 else {
        throw Failure(
          description: "openssl \(arguments.joined(separator: " ")) failed: \(result.stderr)")
      }
    }
  }
}
