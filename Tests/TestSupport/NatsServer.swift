import Foundation

/// A `nats-server` with JetStream for one test: on a free loopback port, its store and
/// log in a temporary directory, stopped by ``stop()`` or when released. Every wait is
/// bounded. A missing `nats-server` is an error that says so (Tools/install-dependencies
/// installs it), never a skipped test.
public final class NatsServer: @unchecked Sendable {
  /// Why a server could not be started.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  public let port: Int
  /// `nats://127.0.0.1:PORT`.
  public var url: String { "nats://127.0.0.1:\(port)" }
  public let directory: TemporaryDirectory
  /// The port of the server's HTTP monitoring (``traffic()``), when it was asked for.
  public let monitoringPort: Int?
  private let arguments: [String]
  private let lock = NSLock()
  private var process: Process?

  /// Starts a server; `user` and `password` make it require them, `maximumPayload` sets
  /// the largest message it accepts, `name` and `cluster` (this node's cluster port and
  /// the other nodes' route URLs) make it a node of a cluster, `tls` makes it require TLS
  /// with that certificate (``TestCertificates``; `certificate` for another file of its),
  /// `monitoring` serves its counters over HTTP (``traffic()``), and `configuration` is
  /// added to its configuration file as it is.
  public init(
    user: String? = nil, password: String? = nil, maximumPayload: Int? = nil,
    monitoring: Bool = false,
    name: String? = nil, port: Int? = nil, cluster: (port: Int, routes: [String])? = nil,
    tls: TestCertificates? = nil, certificate: String? = nil, configuration extra: String = "",
    directory: TemporaryDirectory = TemporaryDirectory()
  ) throws {
    guard let program = executable(named: "nats-server") else {
      throw Failure(
        description:
          "nats-server is not installed (Tools/install-dependencies installs it); the stream tests need it"
      )
    }
    self.port = port ?? NatsServer.freePort()
    self.directory = directory
    var configuration = "listen: 127.0.0.1:\(self.port)\n"
    monitoringPort = monitoring ? NatsServer.freePort() : nil
    if let monitoringPort { configuration += "http: 127.0.0.1:\(monitoringPort)\n" }
    configuration += "jetstream { store_dir: \"\(directory.file("store"))\" }\n"
    if let maximumPayload { configuration += "max_payload: \(maximumPayload)\n" }
    if let name { configuration += "server_name: \(name)\n" }
    if let user, let password {
      configuration += "authorization { user: \"\(user)\", password: \"\(password)\" }\n"
    }
    if let tls {
      configuration +=
        "tls { cert_file: \"\(certificate ?? tls.serverCertificate)\", key_file: \"\(tls.serverKey)\", timeout: 5 }\n"
    }
    configuration += extra
    if let cluster {
      let routes = cluster.routes.map { "\"\($0)\"" }.joined(separator: ", ")
      configuration +=
        "cluster { name: rewind, listen: 127.0.0.1:\(cluster.port), routes: [\(routes)] }\n"
    }
    let file = directory.file("server-\(self.port).conf")
    write(Array(configuration.utf8), to: file)
    arguments = [program, "-c", file, "-l", directory.file("server-\(self.port).log")]
    try start()
  }

  deinit { stop() }

  /// Starts the server (again, after ``stop()`` or ``kill()``) and waits until it
  /// accepts connections, at most 15 s.
  public func start() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arguments[0])
    process.arguments = Array(arguments.dropFirst())
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    lock.withLock { self.process = process }
    let deadline = Date().addingTimeInterval(15)
    while Date() < deadline {
      if NatsServer.accepts(port: port) { return }
      if !process.isRunning { break }
      usleep(20_000)
    }
    stop()
    throw Failure(
      description:
        "nats-server on port \(port) did not start within 15 s: \(String(decoding: bytes(of: directory.file("server-\(port).log")), as: UTF8.self))"
    )
  }

  /// Stops the server (SIGTERM, then SIGKILL after 5 s) and waits for it to end.
  public func stop() { end(signal: SIGTERM) }

  /// Kills the server at once (SIGKILL), as a crash would.
  public func kill() { end(signal: SIGKILL) }

  /// Stops the server without ending it (SIGSTOP): its connections stay open and nothing
  /// sent on them is answered, as over a link too slow to carry it, until ``resume()``.
  /// Returns once the server is stopped (on Linux, as `/proc` says, at most 2 s): a
  /// message sent after the signal could otherwise still be answered.
  public func pause() {
    signal(SIGSTOP)
    #if os(Linux)
      guard let process = lock.withLock({ self.process }) else { return }
      let deadline = Date().addingTimeInterval(2)
      while Date() < deadline {
        // `PID (NAME) STATE …`: T once stopped.
        let stat =
          (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8))
          ?? ""
        if let close = stat.lastIndex(of: ")"), stat[close...].hasPrefix(") T") { return }
        usleep(1_000)
      }
    #endif
  }

  /// Lets a server ``pause()`` stopped go on (SIGCONT).
  public func resume() { signal(SIGCONT) }

  private func signal(_ number: Int32) {
    guard let process = lock.withLock({ self.process }), process.isRunning else { return }
    Foundation.kill(process.processIdentifier, number)
  }

  private func end(signal: Int32) {
    guard
      let process = lock.withLock({ () -> Process? in
        defer { self.process = nil }
        return self.process
      })
    else { return }
    guard process.isRunning else { return }
    Foundation.kill(process.processIdentifier, signal)
    // One paused (``pause()``) takes the signal once it goes on.
    Foundation.kill(process.processIdentifier, SIGCONT)
    let deadline = Date().addingTimeInterval(5)
    while process.isRunning, Date() < deadline { usleep(10_000) }
    if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }

  /// The bytes the server has received from its clients and sent to them since it
  /// started, from its monitoring's `/varz` (the server must be made with `monitoring`).
  public func traffic() throws -> (received: Int, sent: Int) {
    guard let monitoringPort else {
      throw Failure(description: "the server was started without monitoring")
    }
    let response = try NatsServer.get("/varz", port: monitoringPort)
    guard let start = response.firstRange(of: "\r\n\r\n")?.upperBound,
      let body = try JSONSerialization.jsonObject(with: Data(response[start...].utf8))
        as? [String: Any],
      let received = body["in_bytes"] as? Int, let sent = body["out_bytes"] as? Int
    else {
      throw Failure(description: "the server's /varz is not what was expected: \(response)")
    }
    return (received, sent)
  }

  /// The whole response of an HTTP/1.0 GET of `path` on the loopback `port`.
  private static func get(_ path: String, port: Int) throws -> String {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
    defer { close(descriptor) }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(
      descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    let connected = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
    guard connected else {
      throw Failure(description: "cannot connect to the monitoring port \(port): errno \(errno)")
    }
    let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    guard
      request.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, 0) }) == request.count
    else { throw Failure(description: "cannot send to the monitoring port \(port)") }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { break }
      response += buffer[0..<count]
    }
    return String(decoding: response, as: UTF8.self)
  }

  /// A loopback port nothing listens on now (the kernel's choice).
  public static func freePort() -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    precondition(descriptor >= 0, "socket: errno \(errno)")
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
      }
    }
    precondition(bound, "bind: errno \(errno)")
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Whether something accepts TCP connections on the loopback `port`.
  public static func accepts(port: Int) -> Bool {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }
}
