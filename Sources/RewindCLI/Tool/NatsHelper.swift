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
/// talk to a server runs there: the process becomes it (`execv`), with the same arguments
/// (but for their secrets, hidden from the process list: `NatsHelper+HiddenWords.swift`),
/// environment and working directory, before the command writes anything: `push`, `pull`
/// and `sessions` once their command line has been read and checked (a usage error is
/// said here, the helper missing or not), as they connect (``handOverToConnect(context:)``);
/// any other command line that names a server (a session's URL), before its command runs
/// (``handOver(_:context:)``: such a command may have written output by the time it opens
/// the session, say `check a.journal nats://…`). The helper is
/// the program's own path with `-nats` after it (links resolved), so that a tool of one's
/// own domains, `mytool`, linked statically, hands over to its own `mytool-nats`.
/// A dynamically linked program (a debug build; Apple platforms) connects itself.
enum NatsHelper {
  /// What the helper's name adds to the program's.
  static let suffix = "-nats"

  /// Whether the command line (the words after the tool's name) names a NATS server
  /// where a journal is read: a word starts with `nats://` or `tls://`, or its value after
  /// an option's `=` does (a session given as `nats://HOST:PORT/SESSION` to any command
  /// that reads a journal). Not `push`, `pull` or `sessions`, which hand over as they
  /// connect, nor help or the version, which the tool shows itself. Every command's start
  /// runs this: plain comparisons, no generic collection made for the first time
  /// (`String.contains` of a string took 214,000 instructions).
  static func namesServer(_ arguments: [String]) -> Bool {
    for word in arguments {
      if word == "--" { break }
      if word == "-h" || word == "--help" || word == "--version" { return false }
    }
    if let command = arguments.first, NatsHelper.connects(command) { return false }
    func isServer(_ text: Substring) -> Bool {
      text.hasPrefix("nats://") || text.hasPrefix("tls://")
    }
    return arguments.contains { word in
      isServer(word[...])
        || word.firstIndex(of: "=").map { isServer(word[word.index(after: $0)...]) } == true
    }
  }

  /// Whether `command` is one that talks to a server whatever its arguments (push, pull,
  /// sessions): it hands over as it connects.
  static func connects(_ command: String) -> Bool {
    command == "push" || command == "pull" || command == "sessions"
  }

  /// The helper of the program at `executable`: the same path with ``suffix`` after it.
  static func path(of executable: String) -> String { executable + suffix }

  /// Runs the command line in the helper, when this process cannot connect and the
  /// command line names a server (``namesServer(_:)``): returns at once otherwise. When
  /// the helper cannot be started, says so on standard error and exits with status 1.
  static func handOver(_ arguments: [String], context: Context) {
    guard !StreamStore.connectsInProcess, namesServer(arguments) else { return }
    replaceProcess(context: context)
  }

  /// Runs the process's command line in the helper, when this process cannot connect:
  /// `push`, `pull` and `sessions` call it as they connect, their command line read and
  /// checked and nothing written; returns at once in a process that connects itself.
  static func handOverToConnect(context: Context) {
    guard !StreamStore.connectsInProcess else { return }
    replaceProcess(context: context)
  }

  /// Becomes the helper (`execv`, the same arguments, but for the secrets hidden in them:
  /// ``hidingSecrets(_:)``, handed over in ``hiddenWordsVariable``); when it cannot, says
  /// why and exits with status 1.
  private static func replaceProcess(context: Context) -> Never {
    let executable = ProcessCalls.executablePath()
    let program = executable.map { String($0.split(separator: "/").last ?? "rewind") } ?? "rewind"
    let helper = executable.map(path(of:)) ?? program + suffix
    // A word that is not UTF-8 (a journal's path, for `check` or `verify`) is passed as
    // its bytes: as text it would be another path.
    let arguments = Array(CommandLine.arguments.dropFirst())
    let shown = hidingSecrets(arguments)
    let kept = Set(ProcessCalls.argumentsNotUTF8().map(\.index))
    var replaced: [Int: String] = [:]
    for index in arguments.indices where shown[index] != arguments[index] && !kept.contains(index) {
      replaced[index] = shown[index]
    }
    let variable = hiddenWords(arguments, shown: shown, kept: kept).map {
      (name: hiddenWordsVariable, value: $0)
    }
    let number =
      executable == nil
      ? ENOENT : ProcessCalls.replaceProcess(with: helper, replacing: replaced, setting: variable)
    context.stderr.print(
      "\(context.errorLabel) \(context.escaped(program)) is statically linked and cannot load libnats, the NATS C client that talking to a server needs; it runs such a command line as \(context.escaped(helper)), the same tool dynamically linked, which could not be started: \(ProcessCalls.describe(errno: number)) (errno \(number)); `swift build -c release` builds rewind-nats beside rewind"
    )
    context.finish()
    ProcessCalls.exitProcess(1)
  }
}
