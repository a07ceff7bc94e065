import Foundation
import RewindCore
import TestSupport
import Testing

/// A terminal for end-to-end tests: a tmux server of its own (its own socket, no
/// configuration file) with one window of a fixed size, running one shell script.
///
/// Tests type into it (``send(_:)``, ``type(_:)``, ``sendBytes(_:)``, ``click(column:row:)``),
/// read what it shows (``capture()``, ``display(_:)``) and wait for the screen to say
/// something (``waitFor(_:timeout:_:)``), never for a fixed time. ``kill()`` ends the
/// server; call it in a `defer`, so that a failing test leaves no server behind (the
/// deinitializer does it too).
///
/// ```swift
/// let terminal = try Tmux(script: "\"$REWIND\" live -o s.journal", in: directory.path)
/// defer { terminal.kill() }
/// try terminal.waitFor("● REC")
/// terminal.send("Tab", "Enter")
/// ```
final class Tmux {
  /// The server's socket name (`tmux -L`).
  let socket: String
  /// The size of the window.
  let columns: Int
  let rows: Int
  private let tmux: String
  private var killed = false

  /// Whether tmux is installed (`Tools/install-dependencies` installs it).
  static var isAvailable: Bool { executable(named: "tmux") != nil }

  /// Starts a server whose one window runs `script` with `sh` in `directory`.
  ///
  /// The script ends by printing `DONE <status of the last command>` and starting an
  /// interactive shell with the prompt ``prompt``, so that a test sees how the program
  /// ended and whether the terminal is usable after it. `$REWIND` names the built
  /// `rewind`.
  /// - Parameters:
  ///   - script: Shell commands; the status of the last one is printed after `DONE`.
  ///   - directory: The working directory.
  ///   - columns: The window's width.
  ///   - rows: The window's height.
  ///   - environment: Variables added to the script's environment.
  init(
    script: String, in directory: String, columns: Int = 120, rows: Int = 40,
    environment: [String: String] = [:]
  ) throws {
    tmux = try #require(executable(named: "tmux"), "tmux is not installed")
    socket = "rewind-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    self.columns = columns
    self.rows = rows
    var exports = ["REWIND": rewindBinary, "LANG": "C.UTF-8", "PS1": Self.prompt]
    exports.merge(environment) { $1 }
    let lines =
      exports.sorted { $0.key < $1.key }.map { "export \($0.key)=\(Self.quoted($0.value))" }
      + ["unset NO_COLOR", script, "echo \"DONE $?\"", "exec sh -i"]
    let file = directory + "/tmux-\(socket).sh"
    lines.joined(separator: "\n").writeFixture(to: file)
    _ = try run(
      "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "-c", directory, "sh \(file)")
  }

  deinit { kill() }

  /// The prompt of the shell that follows the script.
  static let prompt = "test-prompt$ "

  /// Ends the server and everything it runs, and removes its socket.
  func kill() {
    guard !killed else { return }
    killed = true
    let socketPath = display("#{socket_path}")
    _ = try? run("kill-server")
    if socketPath.hasSuffix("/" + socket) { unlink(socketPath) }
  }

  /// Sends keys by tmux's names (`Tab`, `Enter`, `BTab`, `C-c`, `Up`, `q`), one argument each.
  func send(_ keys: String...) {
    _ = try? run(["send-keys"] + keys)
  }

  /// Types `text` as it is, character by character.
  func type(_ text: String) {
    _ = try? run("send-keys", "-l", text)
  }

  /// Sends raw bytes to the program, as a terminal would (`send-keys -H`): escape
  /// sequences such as SGR mouse reports.
  func sendBytes(_ bytes: [UInt8]) {
    _ = try? run(["send-keys", "-H"] + bytes.map { String(format: "%02x", $0) })
  }

  /// Pastes `text` as a terminal does (`paste-buffer -p`): between the bracketed paste's
  /// markers when the program turned it on, as typed when it did not.
  func paste(_ text: String) {
    _ = try? run("set-buffer", "-b", "test", "--", text)
    _ = try? run("paste-buffer", "-p", "-b", "test", "-d")
  }

  /// A left click (press and release) at a 0-based cell, as an SGR 1006 report.
  func click(column: Int, row: Int) {
    sendBytes(Array("\u{1B}[<0;\(column + 1);\(row + 1)M\u{1B}[<0;\(column + 1);\(row + 1)m".utf8))
  }

  /// One notch of the wheel at a 0-based cell, down (towards the end) or up.
  func wheel(down: Bool, column: Int, row: Int) {
    sendBytes(Array("\u{1B}[<\(down ? 65 : 64);\(column + 1);\(row + 1)M".utf8))
  }

  /// What the window shows, one line per row.
  func capture() -> String {
    (try? run("capture-pane", "-p")) ?? ""
  }

  /// What the window shows with its styles, as tmux writes them (`capture-pane -e`):
  /// SGR escape sequences where the colours and attributes change.
  func captureWithStyles() -> String {
    (try? run("capture-pane", "-p", "-e")) ?? ""
  }

  /// A tmux format about the pane: `#{alternate_on}`, `#{pane_pid}`.
  func display(_ format: String) -> String {
    ((try? run("display-message", "-p", format)) ?? "").trimmingCharacters(
      in: .whitespacesAndNewlines)
  }

  /// Whether the pane shows the alternate screen.
  var alternateScreen: Bool { display("#{alternate_on}") == "1" }

  /// Changes the window's size (the program gets `SIGWINCH`).
  func resize(columns: Int, rows: Int) {
    _ = try? run("resize-window", "-x", "\(columns)", "-y", "\(rows)")
  }

  /// The process ids of the children of the pane's shell (the program the script runs).
  func programIDs() -> [Int32] {
    let shell = display("#{pane_pid}")
    guard let result = try? TestSupport.run("/usr/bin/env", ["pgrep", "-P", shell]) else {
      return []
    }
    return result.stdout.split(separator: "\n").compactMap { Int32($0) }
  }

  /// Waits until the screen contains `text`, polling; fails the test after `timeout`
  /// seconds, showing the screen.
  /// - Returns: The screen that contained it.
  @discardableResult
  func waitFor(
    _ text: String, timeout: Double = 15, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> String {
    try waitUntil(timeout: timeout, "the screen shows \"\(text)\"", sourceLocation: sourceLocation)
    {
      $0.contains(text)
    }
  }

  /// Waits until `condition` holds for the screen; fails after `timeout` seconds.
  @discardableResult
  func waitUntil(
    timeout: Double = 15, _ description: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: (String) -> Bool
  ) throws -> String {
    let deadline = Date().addingTimeInterval(timeout)
    var screen = capture()
    while !condition(screen) {
      guard Date() < deadline else {
        Issue.record(
          "timed out after \(timeout)s waiting until \(description); the screen:\n\(screen)",
          sourceLocation: sourceLocation)
        throw TmuxTimeout()
      }
      usleep(50_000)
      screen = capture()
    }
    return screen
  }

  /// Where `text` first shows on `screen`: its 0-based column (by display width) and row.
  static func position(of text: String, in screen: String) -> (column: Int, row: Int)? {
    for (row, line) in screen.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      if let range = line.range(of: text) {
        return (TerminalText.width(line[..<range.lowerBound]), row)
      }
    }
    return nil
  }

  private func run(_ arguments: String...) throws -> String {
    try run(arguments)
  }

  private func run(_ arguments: [String]) throws -> String {
    try runWithCleanSignals(
      tmux, ["-L", socket, "-f", "/dev/null"] + arguments,
      environment: [
        "PATH": "/usr/bin:/bin:/usr/local/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color",
        "HOME": NSTemporaryDirectory(),
      ])
  }

  private static func quoted(_ value: String) -> String {
    "'" + value.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}

/// A wait in ``Tmux`` that ran out of time (the test has recorded why).
struct TmuxTimeout: Error {}

/// Runs `program` to its end and returns what it wrote (standard output and error),
/// started with no signal blocked and every signal at its default action.
///
/// Not `Process`: it hands the test process's signal mask, in which a test runner blocks
/// most signals, to the child, and a tmux server started by the child then never sees the
/// `SIGTERM` of `kill-server` nor the `SIGCHLD` of its panes, and hangs.
func runWithCleanSignals(_ program: String, _ arguments: [String], environment: [String: String])
  throws -> String
{
  #if canImport(Darwin)
    var attributes: posix_spawnattr_t? = nil
    var actions: posix_spawn_file_actions_t? = nil
  #else
    var attributes = posix_spawnattr_t()
    var actions = posix_spawn_file_actions_t()
  #endif
  posix_spawnattr_init(&attributes)
  posix_spawn_file_actions_init(&actions)
  defer {
    posix_spawnattr_destroy(&attributes)
    posix_spawn_file_actions_destroy(&actions)
  }
  var none = sigset_t()
  sigemptyset(&none)
  posix_spawnattr_setsigmask(&attributes, &none)
  var defaults = sigset_t()
  sigemptyset(&defaults)
  for signal in 1..<32 where signal != SIGKILL && signal != SIGSTOP {
    sigaddset(&defaults, Int32(signal))
  }
  posix_spawnattr_setsigdefault(&attributes, &defaults)
  posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
  let output = NSTemporaryDirectory() + "/rewind-tmux-\(UUID().uuidString).out"
  defer { unlink(output) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  posix_spawn_file_actions_adddup2(&actions, 1, 2)
  let argv = ([program] + arguments).map { strdup($0) } + [nil]
  let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
  defer { for pointer in argv + envp { free(pointer) } }
  var pid = pid_t()
  let status = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
  guard status == 0 else {
    throw CocoaError(
      .executableLoad, userInfo: [NSLocalizedDescriptionKey: "posix_spawn \(program): \(status)"])
  }
  var exit: Int32 = 0
  while waitpid(pid, &exit, 0) == -1 && errno == EINTR {}
  return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
}
