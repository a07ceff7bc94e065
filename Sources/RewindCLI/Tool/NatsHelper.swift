import RewindStream

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The release `rewind` on Linux is statically linked (Package.swift): it starts without
/// the dynamic loader's work, but it cannot load libnats, the NATS C client, whose
/// `dlopen` would bring a second C library into the process. The release build makes
/// `rewind-nats` beside it, the same tool dynamically linked, and a command line that may
/// talk to a server runs there: the process becomes it (`execv`), with the same arguments,
/// environment and working directory, before the command writes anything. The helper is
/// the program's own path with `-nats` after it (links resolved), so that a tool of one's
/// own domains, `mytool`, linked statically, hands over to its own `mytool-nats`.
/// A dynamically linked program (a debug build; Apple platforms) connects itself.
enum NatsHelper {
  /// What the helper's name adds to the program's.
  static let suffix = "-nats"

  /// The commands that always talk to a server (`--server`, which also takes a host
  /// without a scheme).
  static let serverCommands: Set<String> = ["push", "pull", "sessions"]

  /// Whether the command line (the words after the tool's name) may talk to a NATS
  /// server: its command is push, pull or sessions, or a word names a server (it starts
  /// `nats://` or `tls://`, or has one after an option's `=`: a session given as
  /// `nats://HOST:PORT/SESSION` to any command that reads a journal). Help and the
  /// version are not: the tool shows them itself.
  static func mayConnect(_ arguments: [String]) -> Bool {
    let options = arguments.prefix { $0 != "--" }
    if options.contains(where: { ["-h", "--help", "--version"].contains($0) }) { return false }
    if let command = arguments.first, serverCommands.contains(command) { return true }
    return arguments.contains { word in
      ["nats://", "tls://"].contains { word.hasPrefix($0) || word.contains("=" + $0) }
    }
  }

  /// The helper of the program at `executable`: the same path with ``suffix`` after it.
  static func path(of executable: String) -> String { executable + suffix }

  /// Runs the command line in the helper, when this process cannot connect and the
  /// command line may: returns at once otherwise. When the helper cannot be started, says
  /// so on standard error and exits with status 1.
  static func handOver(_ arguments: [String], context: Context) {
    guard !StreamStore.connectsInProcess, mayConnect(arguments) else { return }
    let executable = ProcessCalls.executablePath()
    let program = executable.map { String($0.split(separator: "/").last ?? "rewind") } ?? "rewind"
    let helper = executable.map(path(of:)) ?? program + suffix
    let number = executable == nil ? ENOENT : ProcessCalls.replaceProcess(with: helper)
    context.stderr.print(
      "\(context.errorLabel) \(context.escaped(program)) is statically linked and cannot load libnats, the NATS C client that talking to a server needs; it runs such a command line as \(context.escaped(helper)), the same tool dynamically linked, which could not be started: \(ProcessCalls.describe(errno: number)) (errno \(number)); `swift build -c release` builds rewind-nats beside rewind"
    )
    context.finish()
    ProcessCalls.exitProcess(1)
  }
}
