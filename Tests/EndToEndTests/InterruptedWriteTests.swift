import Foundation
import TestSupport
import Testing

/// The `rewind` tool that writes every file under a hidden name first, as on a file
/// system without unnamed temporary files (NFS, macOS): `Tests/NamedTemporariesRewind`.
private let namedTemporariesRewind = productsDirectory + "/NamedTemporariesRewind"

/// The names in a directory that start with a dot: a writer's temporary names.
private func hiddenNames(in path: String) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter {
    $0.hasPrefix(".")
  }.sorted()
}

/// The size of the largest hidden file in `path`, nil while there is none.
private func largestHiddenFile(in path: String) -> Int? {
  hiddenNames(in: path).compactMap { name in
    var status = stat()
    return stat(path + "/" + name, &status) == 0 ? Int(status.st_size) : nil
  }.max()
}

/// A child process started as a shell starts a command: `SIGINT`, `SIGTERM` and `SIGHUP`
/// with their default action and unblocked, its standard streams `/dev/null`.
///
/// `Foundation.Process` starts its child from the thread that asks, and a test runs on
/// a thread of the concurrency pool, which blocks those signals: the child inherited the
/// mask, and a signal sent to it waited, pending, until it exited by itself.
private final class Child {
  let pid: pid_t
  /// The wait status, once it ended.
  private(set) var status: Int32?

  init(_ program: String, _ arguments: [String]) throws {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var signals = sigset_t()
    sigemptyset(&signals)
    for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, signal) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &signals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let strings = [program] + arguments + ["PATH=/usr/bin:/bin", "LANG=C.UTF-8"]
    let copies: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    let argv = Array(copies[...arguments.count]) + [nil]
    let environment = Array(copies[(arguments.count + 1)...]) + [nil]
    var pid = pid_t()
    let result = posix_spawn(&pid, program, &actions, &attributes, argv, environment)
    guard result == 0 else {
      throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL)
    }
    self.pid = pid
  }

  /// Whether it still runs (reaping it once it ended).
  var isRunning: Bool {
    guard status == nil else { return false }
    var status: Int32 = 0
    guard waitpid(pid, &status, WNOHANG) == pid else { return true }
    self.status = status
    return false
  }

  /// Waits for its end.
  func wait() {
    while isRunning { usleep(1_000) }
  }

  /// The signal that ended it, nil when it exited.
  var signal: Int32? {
    guard let status, status & 0x7f != 0, status & 0x7f != 0x7f else { return nil }
    return status & 0x7f
  }

  /// Its exit status, nil when a signal ended it.
  var exitStatus: Int32? {
    guard let status, status & 0x7f == 0 else { return nil }
    return (status >> 8) & 0xff
  }
}

/// Whether this process may start a command as the first process of a new PID namespace
/// (`unshare --pid --fork`, root only), as a container without an init starts it.
private let pidNamespaces: Bool = {
  guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else {
    return false
  }
  let probe = Process()
  probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
  probe.arguments = ["--pid", "--fork", "/bin/true"]
  probe.standardError = FileHandle.nullDevice
  guard (try? probe.run()) != nil else { return false }
  probe.waitUntilExit()
  return probe.terminationStatus == 0
}()

/// The child processes of `pid`, as `/proc` lists them.
private func children(of pid: pid_t) -> [pid_t] {
  let text =
    (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
  return text.split(separator: " ").compactMap { pid_t($0) }
}

@Suite("Interrupted writes: a signal that ends a command leaves no temporary file")
struct InterruptedWriteTests {
  /// The first process of a PID namespace (a container's command, with no init) is sent no
  /// signal its default action would take, its own `raise` included: the handler's raise did
  /// nothing there, and the command went on writing to the file whose name it had just
  /// removed, then waited for ever. It now ends with the status a shell gives the signal,
  /// the temporary file removed and the previous file left.
  @Test(
    "SIGTERM to a command that is a PID namespace's first process ends it, 128 + 15",
    .enabled(if: pidNamespaces, "needs root and unshare --pid"), .timeLimit(.minutes(2)))
  func signalToTheFirstProcessOfANamespace() throws {
    let journal = sample("generated-200k.journal")
    let previous = Array("the previous file\n".utf8)
    let directory = TemporaryDirectory()
    let output = directory.file("out.jsonl")
    write(previous, to: output)
    let child = try Child(
      "/usr/bin/unshare",
      ["--pid", "--fork", namedTemporariesRewind, "export", journal, "-o", output, "--force"])
    let deadline = Date().addingTimeInterval(60)
    while child.isRunning, (largestHiddenFile(in: directory.path) ?? 0) < 64 << 10,
      Date() < deadline
    {
      usleep(1_000)
    }
    let command = children(of: child.pid).first
    try #require(
      child.isRunning && command != nil, "the export ended before it could be interrupted")
    kill(command ?? 0, SIGTERM)
    let end = Date().addingTimeInterval(30)
    while child.isRunning, Date() < end { usleep(1_000) }
    let ended = !child.isRunning
    if !ended {
      kill(command ?? 0, SIGKILL)
      child.wait()
    }
    #expect(ended, "the command did not end within 30 s of SIGTERM")
    #expect(
      child.exitStatus == 128 + SIGTERM || child.signal == SIGTERM,
      "exit status \(child.exitStatus ?? -1), signal \(child.signal ?? 0)")
    #expect(hiddenNames(in: directory.path).isEmpty, "left behind")
    #expect(bytes(of: output) == previous, "the previous file changed")
  }

  /// Ctrl-C (or SIGTERM, SIGHUP) during an export left the whole partial output under a
  /// hidden name where the file system has no unnamed files: no command but `live` and
  /// `play` handled those signals.
  @Test(
    "SIGINT, SIGTERM or SIGHUP during a write removes the temporary file, leaves the previous file, and ends the command by the signal"
  )
  func signalDuringAWrite() throws {
    let journal = sample("generated-200k.journal")
    let previous = Array("the previous file\n".utf8)
    for signal in [SIGINT, SIGTERM, SIGHUP] {
      for replacing in [false, true] {
        let what = "signal \(signal), \(replacing ? "replacing a file" : "a new file")"
        let directory = TemporaryDirectory()
        let output = directory.file("out.jsonl")
        if replacing { write(previous, to: output) }
        let child = try Child(
          namedTemporariesRewind,
          ["export", journal, "-o", output] + (replacing ? ["--force"] : []))
        // Once the first block of the new file is written (polled, however slow the
        // machine), not before: the command is writing.
        let deadline = Date().addingTimeInterval(120)
        while child.isRunning, (largestHiddenFile(in: directory.path) ?? 0) < 64 << 10,
          Date() < deadline
        {
          usleep(1_000)
        }
        let started = child.isRunning
        kill(child.pid, signal)
        child.wait()
        try #require(started, "\(what): the export ended before it could be interrupted")
        #expect(child.signal == signal, "\(what): exit status \(child.exitStatus ?? -1)")
        #expect(hiddenNames(in: directory.path).isEmpty, "\(what): left behind")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        #expect(names == (replacing ? ["out.jsonl"] : []), "\(what): \(names)")
        if replacing {
          let unchanged = bytes(of: output) == previous
          #expect(unchanged, "\(what): the previous file changed")
        }
      }
    }
  }
}
