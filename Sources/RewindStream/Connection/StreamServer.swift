/// How to reach a NATS server with JetStream: its URL and what a deployment needs to
/// connect (user and password, a credentials file, TLS with a CA file, a connection name).
public struct StreamServer: Sendable, Equatable {
  /// `nats://HOST:PORT` (or `tls://…`); several, separated by commas, for a cluster.
  public var url: String
  /// The user and password the server expects, if any.
  public var user: String?
  public var password: String?
  /// A file holding the user's password (its text, less a line ending at its end), read
  /// as each connection is made, in place of ``password``: a password that never appears
  /// on a command line (`--password-file`, a Kubernetes Secret's file, a pipe).
  public var passwordFile: String?
  /// A NATS credentials file (`.creds`: a user JWT and its NKey seed), if any.
  public var credentialsFile: String?
  /// A PEM file of the certificate authorities trusted for TLS; giving one turns TLS on.
  public var certificateAuthorityFile: String?
  /// Whether ``certificateAuthorityFile`` is the one `NATS_CA` names
  /// (``takingEnvironment(_:)``), which errors then say.
  public internal(set) var authoritiesFromEnvironment = false
  /// Whether ``credentialsFile`` is the one `NATS_CREDS` names (``takingEnvironment(_:)``),
  /// which errors then say.
  public internal(set) var credentialsFromEnvironment = false
  /// Whether ``password`` is the one `NATS_PASSWORD` holds (``takingEnvironment(_:)``),
  /// which errors then say.
  public internal(set) var passwordFromEnvironment = false
  /// The connection's name, as the server's monitoring shows it.
  public var connectionName: String
  /// How long connecting and each request may take, in milliseconds.
  public var timeoutMilliseconds: Int64
  /// The number of copies of the stream and buckets this connection creates (1 on one
  /// server, 3 on a cluster of three).
  public var replicas: Int

  /// A server at `url` with no credentials, a 5 s timeout and one replica.
  public init(
    url: String, user: String? = nil, password: String? = nil, passwordFile: String? = nil,
    credentialsFile: String? = nil, certificateAuthorityFile: String? = nil,
    connectionName: String = "rewind", timeoutMilliseconds: Int64 = 5000, replicas: Int = 1
  ) {
    self.url = url
    self.user = user
    self.password = password
    self.passwordFile = passwordFile
    self.credentialsFile = credentialsFile
    self.certificateAuthorityFile = certificateAuthorityFile
    self.connectionName = connectionName
    self.timeoutMilliseconds = timeoutMilliseconds
    self.replicas = replicas
  }
}

extension StreamServer {
  /// The addresses of ``url``, one a server, spaces around each removed: what the
  /// connection is given.
  var addresses: [String] {
    url.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces() }
  }

  /// The port an address without one is reached on (libnats' default, whatever the
  /// scheme).
  public static let defaultPort = 4222

  /// ``url`` with the password of each address that has one written `***` (a user
  /// without a password too, which libnats sends as a token), and the port
  /// used (``defaultPort``) after a host given without one: the name of the server in
  /// messages, which never show a password and name the port a server did not answer on.
  /// A URL that is no server's address (``addressProblem``) is named as given.
  public var displayURL: String {
    guard addressProblem == nil else {
      guard url.contains("@") else { return url }
      return addresses.map { Self.masked($0, hidingTokens: true) }.joined(separator: ",")
    }
    let addresses = addresses
    guard url.contains("@") || addresses.contains(where: { Self.endpoint(of: $0).port == nil })
    else { return url }
    return addresses.map { address in
      Self.masked(
        Self.endpoint(of: address).port == nil ? "\(address):\(Self.defaultPort)" : address,
        hidingTokens: true)
    }.joined(separator: ",")
  }

  /// The host of `address`, a server's address (``addressProblem`` nil), an IPv6 one
  /// without its brackets, and its port if it gives one.
  static func endpoint(of address: String) -> (host: String, port: String?) {
    let rest = split(address).rest
    let hostAndPort = rest.lastIndex(of: "@").map { rest[rest.index(after: $0)...] } ?? rest
    if hostAndPort.hasPrefix("["), let close = hostAndPort.firstIndex(of: "]") {
      let host = hostAndPort[hostAndPort.index(after: hostAndPort.startIndex)..<close]
      let after = hostAndPort[hostAndPort.index(after: close)...]
      return (String(host), after.isEmpty ? nil : String(after.dropFirst()))
    }
    guard let colon = hostAndPort.lastIndex(of: ":") else { return (String(hostAndPort), nil) }
    return (
      String(hostAndPort[..<colon]), String(hostAndPort[hostAndPort.index(after: colon)...])
    )
  }

  /// What is wrong with ``url`` as the address of a server, or of a cluster's servers
  /// separated by commas; nil when each is `[nats://|tls://][USER[:PASSWORD]@]HOST[:PORT]`
  /// with a host (a name, an IPv4 address or an IPv6 one in brackets) and a port from 1
  /// to 65535 when one is given (4222 when not). Checked before connecting: the client
  /// library takes some of these for a server that does not answer, and an empty one
  /// made it crash.
  public var addressProblem: String? {
    let addresses = addresses
    for (index, address) in addresses.enumerated() {
      guard let problem = Self.problem(of: address) else { continue }
      guard addresses.count > 1 else { return problem }
      let place = address.isEmpty ? "entry \(index + 1) of the list" : Self.masked(address)
      return "\(place): \(problem)"
    }
    return nil
  }

  /// What the NATS client cannot send of the user, the password and the connection's
  /// name (given apart or in a URL), or nil. libnats writes them into its CONNECT
  /// message's JSON unescaped: a double quote or a control character there made the
  /// server drop the connection ("Expected 'PONG', got ''"), and a backslash changed the
  /// password, which the server then refused. Checked before connecting; never shows the
  /// password.
  public var credentialsProblem: String? {
    var fields: [(String, String?)] = [
      ("the user", user), ("the password", password), ("the connection's name", connectionName),
    ]
    for address in addresses {
      let rest = Self.split(address).rest
      guard let at = rest.lastIndex(of: "@") else { continue }
      let credentials = rest[..<at]
      let colon = credentials.firstIndex(of: ":") ?? credentials.endIndex
      fields.append(("the user", String(credentials[..<colon])))
      if colon < credentials.endIndex {
        fields.append(("the password", String(credentials[credentials.index(after: colon)...])))
      }
    }
    for case (let what, let value?) in fields {
      guard
        let bad = value.unicodeScalars.first(where: {
          $0 == "\"" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F
        })
      else { continue }
      let name =
        bad == "\""
        ? "a double quote"
        : bad == "\\"
          ? "a backslash"
          : "a control character (U+\(hex(bad.value)))"
      func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
      }
      return
        "\(what) holds \(name), which the NATS client cannot send (it writes it into its CONNECT message unescaped)"
    }
    return nil
  }

  /// Whether an address of ``url`` gives a user (and maybe a password) before its host,
  /// `nats://USER[:PASSWORD]@HOST:PORT`.
  public var urlGivesUser: Bool {
    addresses.contains { Self.split($0).rest.contains("@") }
  }

  /// `address`, a server's, with its password written `***`, and its user when it has no
  /// password, which libnats sends as a token (`nats://***@HOST:PORT`): how the address
  /// may be shown where nothing secret may be.
  public static func maskingCredentials(of address: String) -> String {
    masked(address, hidingTokens: true)
  }

  /// `address` with its password, if any, written `***`; with `hidingTokens`, a user
  /// given without a password too, which libnats sends as a token (`nats://TOKEN@HOST`).
  static func masked(_ address: String, hidingTokens: Bool = false) -> String {
    let (scheme, rest) = split(address)
    guard let at = rest.lastIndex(of: "@") else { return address }
    let credentials = rest[..<at]
    guard let colon = credentials.firstIndex(of: ":") else {
      return hidingTokens ? scheme + "***" + rest[at...] : address
    }
    return scheme + credentials[..<colon] + ":***" + rest[at...]
  }

  /// The scheme of `address` with its `://` (empty if none) and the rest.
  private static func split(_ address: String) -> (scheme: String, rest: Substring) {
    // A scheme is letters, digits, `+`, `-` and `.` before the first colon.
    let name = address.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    guard address[name.endIndex...].hasPrefix("://") else { return ("", address[...]) }
    let end = address.index(name.endIndex, offsetBy: 3)
    return (String(address[..<end]), address[end...])
  }

  /// What is wrong with one server's address, or nil.
  private static func problem(of address: String) -> String? {
    guard !address.isEmpty else { return "an empty server address" }
    let (scheme, rest) = split(address)
    if !scheme.isEmpty {
      let name = scheme.dropLast(3).lowercased()
      guard name == "nats" || name == "tls" else {
        return "the scheme is \(name.isEmpty ? "empty" : name), not nats or tls"
      }
    }
    // The host and port follow the credentials, if any.
    let hostAndPort = rest.lastIndex(of: "@").map { rest[rest.index(after: $0)...] } ?? rest
    if let slash = hostAndPort.firstIndex(of: "/") {
      return
        "a server's address has no path (\(hostAndPort[slash...])): a session on a server is nats://HOST:PORT/SESSION-ID, read by the commands that read a journal"
    }
    var host = hostAndPort
    var port: Substring?
    if hostAndPort.hasPrefix("[") {
      guard let close = hostAndPort.firstIndex(of: "]") else {
        return "the IPv6 address has no closing ]"
      }
      host = hostAndPort[hostAndPort.index(after: hostAndPort.startIndex)..<close]
      let after = hostAndPort[hostAndPort.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":") else {
          return "\"\(after)\" follows the IPv6 address, where only a colon and a port may"
        }
        port = after.dropFirst()
      }
      if let bad = host.first(where: { !($0.isHexDigit || ":.%".contains($0)) }) {
        return "the IPv6 address has a character it cannot have: \(quoted(bad))"
      }
    } else if let colon = hostAndPort.lastIndex(of: ":") {
      host = hostAndPort[..<colon]
      port = hostAndPort[hostAndPort.index(after: colon)...]
    }
    guard !host.isEmpty else { return "no host (nats://HOST:PORT)" }
    if !hostAndPort.hasPrefix("["),
      let bad = host.first(where: {
        !($0.isASCII && ($0.isLetter || $0.isNumber || "-._".contains($0)))
      })
    {
      return "the host has a character a host name cannot have: \(quoted(bad))"
    }
    if let port {
      guard port.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(port),
        (1...65535).contains(number)
      else {
        return port.isEmpty
          ? "the port after the colon is empty"
          : "the port \(port) is not a number from 1 to 65535"
      }
    }
    return nil
  }

  private static func quoted(_ character: Character) -> String {
    character.isASCII && character.asciiValue.map { $0 >= 0x20 && $0 < 0x7F } == true
      ? "'\(character)'"
      : character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }
        .joined(separator: " ")
  }
}
