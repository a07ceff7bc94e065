import Foundation
import TestSupport
import Testing

/// The folder of the release build's `rewind` and `rewind-nats`, which Tools/test builds
/// and names in `REWIND_RELEASE_BIN`; nil in a `swift test` run without it, which does
/// not build them.
let releaseFolder = ProcessInfo.processInfo.environment["REWIND_RELEASE_BIN"]

/// The release build on Linux: `rewind` statically linked, and `rewind-nats` beside it,
/// the same tool dynamically linked, which runs the command lines that talk to a NATS
/// server (a static program cannot load libnats).
@Suite(.serialized, .timeLimit(.minutes(5)), .enabled(if: releaseFolder != nil))
struct ReleaseBuildTests {
  let folder = releaseFolder ?? ""
  var release: String { folder + "/rewind" }

  @Test func rewindIsStaticAndItsTwinDynamic() throws {
    #if os(Linux)
      #expect(try !hasInterpreter(release), "\(release) is dynamically linked")
      #expect(try hasInterpreter(folder + "/rewind-nats"))
    #endif
    let journal = sample("ipad-three-column.journal")
    for arguments in [["check", journal], ["state", journal, "--at", "+7s", "--json"]] {
      let built = try run(release, arguments)
      let debug = try rewind(arguments)
      #expect(built.status == 0, "\(built.stderr)")
      #expect(built.stdout == debug.stdout)
    }
  }

  /// push, sessions, pull and a session read by URL, through `rewind-nats`: what the
  /// debug build (which connects itself) says.
  @Test func serverCommandsRunInRewindNats() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let journal = sample("day-menu.journal")
    let pushed = try run(release, ["push", journal, "--server", server.url, "--json"])
    #expect(pushed.status == 0, "\(pushed.stderr)")
    let report = try #require(try parseJSON(pushed.stdout) as? [[String: Any]])
    let id = try #require(report.first?["session"] as? String)
    let listed = try run(release, ["sessions", "--server", server.url])
    #expect(listed.status == 0, "\(listed.stderr)")
    #expect(listed.stdout == (try rewind("sessions", "--server", server.url).stdout))
    #expect(listed.stdout.contains(id))
    let url = server.url + "/" + id
    let checked = try run(release, ["check", url])
    #expect(checked.status == 0, "\(checked.stderr)")
    #expect(checked.stdout == (try rewind("check", url).stdout))
    let pulled = directory.file("pulled.journal")
    let pull = try run(release, ["pull", id, "--server", server.url, "-o", pulled])
    #expect(pull.status == 0, "\(pull.stderr)")
    #expect(try rewind("export", pulled).stdout == (try rewind("export", journal).stdout))
  }

  /// `rewind` alone, without `rewind-nats` beside it: a command line that talks to a
  /// server fails and says why; the others run.
  @Test func withoutRewindNatsServerCommandsSayWhy() throws {
    let directory = TemporaryDirectory()
    let alone = directory.file("rewind")
    try FileManager.default.copyItem(atPath: release, toPath: alone)
    let journal = sample("day-menu.journal")
    for arguments in [
      ["sessions", "--server", "nats://127.0.0.1:1"], ["check", "nats://127.0.0.1:1/bdc215f2"],
    ] {
      let result = try run(alone, arguments)
      expectFailure(
        result,
        containing:
          "it runs such a command line as \(directory.file("rewind-nats")), the same tool dynamically linked, which could not be started: No such file or directory"
      )
      #expect(result.stdout.isEmpty)
    }
    // push, pull and sessions read and check their command line first: a usage error is
    // said as such (64), the helper missing or not.
    for (arguments, message) in [
      (["push", journal], "Error: Missing expected argument '--server <url>'"),
      (
        ["sessions", "--server", "nats://127.0.0.1:abc"],
        "Error: --server \"nats://127.0.0.1:abc\": "
      ),
      (
        ["push", journal, "--server", "nats://127.0.0.1:1", "--replicas", "9"],
        "Error: The value '9' is invalid for '--replicas <n>'"
      ),
      (
        ["pull", "bdc2", "--server", "nats://127.0.0.1:1", "-o", "p.journal", "--timeout", "x"],
        "Error: The value 'x'"
      ),
    ] {
      let result = try run(alone, arguments)
      #expect(result.status == 64, "\(arguments): \(result.stderr)")
      #expect(result.stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
    }
    let checked = try run(alone, ["check", journal])
    #expect(checked.status == 0, "\(checked.stderr)")
    let help = try run(alone, ["push", "--help"])
    #expect(help.status == 0 && help.stdout.contains("--server"), "\(help.stderr)")
  }

  /// The release `rewind` on Linux is laid out in the order of `Tools/link/rewind.order`
  /// (lld's `--symbol-ordering-file`): the first functions the file names open the program's
  /// code, where unordered they lie anywhere in its 10 MB; and the file still names what the
  /// program holds (when it does not, `Tools/order-symbols` writes it again).
  @Test func laidOutInTheOrderItStartsIn() throws {
    #if os(Linux)
      let names = try String(
        contentsOfFile: repositoryRoot + "/Tools/link/rewind.order", encoding: .utf8
      ).split(separator: "\n").map(String.init)
      let listed = try run("/usr/bin/nm", ["--defined-only", release])
      try #require(listed.status == 0, "\(listed.stderr)")
      // "ADDRESS TYPE NAME": the first address of each name, and where the code starts.
      var addresses: [String: UInt64] = [:]
      var codeStart = UInt64.max
      for line in listed.stdout.split(separator: "\n") {
        let fields = line.split(separator: " ", maxSplits: 2)
        guard fields.count == 3, let address = UInt64(fields[0], radix: 16) else { continue }
        if addresses[String(fields[2])] == nil { addresses[String(fields[2])] = address }
        if fields[1] == "t" || fields[1] == "T" { codeStart = min(codeStart, address) }
      }
      let held = names.filter { addresses[$0] != nil }
      #expect(
        held.count * 10 >= names.count * 9,
        "the program holds \(held.count) of the \(names.count) names of Tools/link/rewind.order: run Tools/order-symbols"
      )
      let far = held.prefix(100).filter { name in
        let address = addresses[name] ?? 0
        return address < codeStart || address - codeStart >= 256 << 10
      }
      let farCount = far.count
      #expect(
        farCount == 0,
        "of the first 100 functions of Tools/link/rewind.order, past the first 256 KiB of the program's code: \(far.prefix(5).joined(separator: ", "))"
      )
    #endif
  }

  /// `rewind` hands a command line to `rewind-nats` with no password in its arguments,
  /// which any user of the machine reads (`ps`, `/proc/PID/cmdline`): a password given
  /// apart or in a URL is written `***` there, and the command still connects with it
  /// (push, sessions, pull and a session's URL against a server that requires it).
  @Test func rewindNatsArgumentsHoldNoPassword() throws {
    #if os(Linux)
      let secret = "TopSecret42"
      let server = try NatsServer(user: "ci", password: secret)
      let directory = TemporaryDirectory()
      let journal = sample("day-menu.journal")
      let inURL = "nats://ci:\(secret)@127.0.0.1:\(server.port)"
      let apart = ["--server", server.url, "--user", "ci", "--password", secret]
      let pushed = try run(release, ["push", journal, "--server", inURL])
      #expect(pushed.status == 0, "\(pushed.stderr)")
      let listed = try run(release, ["sessions"] + apart)
      #expect(listed.status == 0 && listed.stdout.contains("bdc215f2"), "\(listed.stderr)")
      let pulled = try run(
        release,
        ["pull", "bdc215f2", "--password=\(secret)", "-o", directory.file("p.journal")]
          + ["--server", server.url, "--user", "ci"])
      #expect(pulled.status == 0, "\(pulled.stderr)")
      let checked = try run(release, ["check", "\(inURL)/bdc215f2"])
      #expect(checked.status == 0, "\(checked.stderr)")
      // Each caught while it waits for a server that never answers: its arguments, once
      // it runs as rewind-nats, hold no password.
      let silent = try SilentListener()
      let quiet = "nats://ci:\(secret)@127.0.0.1:\(silent.port)"
      for arguments in [
        ["push", journal, "--server", quiet, "--timeout", "4000"],
        ["sessions", "--server", "nats://127.0.0.1:\(silent.port)", "--user", "ci"]
          + ["--password", secret, "--timeout", "4000"],
        ["pull", "bdc2", "--server", "\(quiet),\(quiet)", "-o", directory.file("q.journal")]
          + ["--timeout", "4000"],
        ["check", "\(quiet)/bdc215f2"],
      ] {
        let shown = try helpersArguments(arguments)
        #expect(!shown.joined(separator: " ").contains(secret), "\(shown)")
        #expect(shown.joined(separator: " ").contains("***"), "\(shown)")
      }
    #endif
  }

  /// The arguments of the process that runs `release` with `arguments`, read from
  /// `/proc/PID/cmdline` once it runs as `rewind-nats` (at most 10 s after it starts); it
  /// is then killed and waited for.
  private func helpersArguments(_ arguments: [String]) throws -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: release)
    process.arguments = arguments
    process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    defer {
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      process.waitUntilExit()
    }
    let pid = process.processIdentifier
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline, process.isRunning {
      let program = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
      // Between the two, the kernel has changed the program but not yet the arguments.
      if program?.hasSuffix("/rewind-nats") == true,
        let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
        data.split(separator: 0).first.map({ String(decoding: $0, as: UTF8.self) })?.hasSuffix(
          "/rewind-nats") == true
      {
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
      }
      usleep(2_000)
    }
    throw ReleaseFailure(description: "\(arguments[0]) did not run as rewind-nats within 10 s")
  }

  /// Runs the program at `path` with the environment `rewind(_:)` gives the debug build.
  private func run(_ path: String, _ arguments: [String]) throws -> ProcessResult {
    try TestSupport.run(path, arguments, environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
  }

  /// Whether the ELF file at `path` names a program interpreter (a `PT_INTERP` program
  /// header): a dynamically linked executable does, a statically linked one does not. The
  /// program headers follow the file's header, in its first page.
  private func hasInterpreter(_ path: String) throws -> Bool {
    let file = try #require(FileHandle(forReadingAtPath: path), "\(path) cannot be read")
    defer { try? file.close() }
    let bytes = [UInt8](try file.read(upToCount: 4096) ?? Data())
    func integer(_ offset: Int, _ size: Int) -> Int {
      (0..<size).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }
    try #require(bytes.count > 64 && bytes[0..<4] == [0x7F, 0x45, 0x4C, 0x46] && bytes[4] == 2)
    let (start, size, count) = (integer(0x20, 8), integer(0x36, 2), integer(0x38, 2))
    try #require(start + count * size <= bytes.count, "the program headers are past the first page")
    return (0..<count).contains { integer(start + $0 * size, 4) == 3 }
  }
}

/// A loopback port that takes connections and never answers (they wait in its backlog):
/// a NATS client waits there for the server's first message until its timeout.
private final class SilentListener {
  let port: Int
  private let descriptor: Int32

  init() throws {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
      }
    }
    guard descriptor >= 0, bound, listen(descriptor, 16) == 0 else {
      if descriptor >= 0 { close(descriptor) }
      throw ReleaseFailure(description: "cannot listen on a loopback port: errno \(errno)")
    }
    self.descriptor = descriptor
    port = Int(UInt16(bigEndian: address.sin_port))
  }

  deinit { close(descriptor) }
}

/// A step of a release test that could not be taken.
private struct ReleaseFailure: Error, CustomStringConvertible {
  var description: String
}
