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

  /// Whether the command line (the words after the tool's name) may talk to a NATS
  /// server: its command is push, pull or sessions (which take `--server`, a host without
  /// a scheme too), or a word names a server (it starts `nats://` or `tls://`, or its value
  /// after an option's `=` does: a session given as `nats://HOST:PORT/SESSION` to any
  /// command that reads a journal). Help and the version are not: the tool shows them
  /// itself. Every command's start runs this: plain comparisons, no generic collection
  /// made for the first time (`String.contains` of a string took 214,000 instructions).
  static func mayConnect(_ arguments: [String]) -> Bool {
    for word in arguments {
      if word == "--" { break }
      if word == "-h" || word == "--help" || word == "--version" { return false }
    }
    if let command = arguments.first,
      command == "push" || command == "pull" || command == "sessions"
    {
      return true
    }
    func namesServer(_ text: Substring) -> Bool {
      text.hasPrefix("nats://") || text.hasPrefix("tls://")
    }
    return arguments.contains { word in
      namesServer(word[...])
        || word.firstIndex(of: "=").map { namesServer(word[word.index(after: $0)...]) } == true
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
