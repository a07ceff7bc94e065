package import RewindArguments
public import RewindCore
import RewindJournal

/// The `rewind` tool for a set of domains: the commands that record, replay, inspect,
/// test and repair sessions.
///
/// `Tools/rewind/main.swift` is one line, `main(domains: [NavigationDomain.self])`; an app
/// with domains of its own links them in the same way.
package enum RewindTool {
  /// The tool's version, printed by `rewind --version`.
  package static let version = "0.1.0"

  /// The command-line tool for `domains` (the first is the default for new sessions).
  ///
  /// Run it in-process with `run(arguments:context:)` and a
  /// ``Context/capture(environment:stdoutIsTerminal:stderrIsTerminal:columns:currentDirectory:clock:)``.
  /// - Parameter domains: The domains the tool reads and writes; at least one.
  package static func cli(domains: [any RecordableDomain.Type]) -> CommandLineTool<Context> {
    precondition(!domains.isEmpty, "the tool needs at least one domain")
    let registry = DomainRegistry(domains: domains)
    return CommandLineTool(
      name: "rewind", version: version,
      abstract: "Record, replay, inspect and test event-sourced UI sessions.",
      discussion: """
        A journal (.journal) holds one recorded session: every event, compressed, with \
        snapshots of the state. Points in a session are written \(Point.syntax); an \
        offset's units are us, ms, s, m or h, several largest first with one space or \
        none between them, the last alone with decimals. A time is the state after every event at or \
        before it; an offset written to the millisecond, as the commands show times \
        (rounded), stands for every event shown at or before it ('rewind help points').

        Conditions (--where of find, log, shrink): see 'rewind help conditions'. \
        Scenario scripts (record, export --scenario): see 'rewind help scenario'.

        Commands that read a journal also read a session on a NATS server, given as \
        nats://[USER:PASSWORD@]HOST:PORT/SESSION-ID, a cluster's nodes separated by \
        commas before the slash as --server takes them (see push, pull and sessions); \
        they fetch only the frames they read. The environment's NATS_CREDS and NATS_CA \
        name a credentials file and the certificate authorities to trust (TLS, tls://…) \
        for those connections, and NATS_PASSWORD holds the password of the URL's user \
        given without one (nats://USER@HOST:PORT/SESSION-ID), as the nats tool reads \
        them (a user in the URL wins over NATS_CREDS).
        """,
      exitStatuses: exitStatuses,
      commands: [
        .command { Record(registry: registry) }, .command { Generate(registry: registry) },
        .command { Import(registry: registry) }, .command { Export(registry: registry) },
        .command { Info(registry: registry) }, .command { Log(registry: registry) },
        .command { State(registry: registry) }, .command { Diff(registry: registry) },
        .command { Blame(registry: registry) }, .command { Find(registry: registry) },
        .command { Check(registry: registry) }, .command { Verify(registry: registry) },
        .command { Recover(registry: registry) }, .command { Upgrade(registry: registry) },
        .command(discussion: Live.discussion(for: registry.defaultDomain)) {
          Live(registry: registry)
        },
        .command { HTML(registry: registry) }, .command { Testgen(registry: registry) },
        .command(discussion: Play.discussion) { Play(registry: registry) },
        .command { Shrink(registry: registry) },
        .command { Push(registry: registry) }, .command { Pull(registry: registry) },
        .command { Sessions(registry: registry) },
      ], topics: [.conditions, .scenario(registry), .points])
  }
}

extension RewindTool {
  /// The statuses every command exits with, in the tool's help; a command's help gives
  /// its own (`diff --exit-code`, `live` after a signal).
  static let exitStatuses: [ExitStatusHelp] = [
    ExitStatusHelp("0", "Success. A search that finds nothing is no failure."),
    ExitStatusHelp(
      "1",
      "A failure: a check that did not pass; a file missing, unreadable or damaged (a journal, or a credentials file or certificate authorities' file that an option, NATS_CREDS or NATS_CA names: one that is a directory, a device or empty too); of several files, any that failed (the others are done); an output file already there (--force replaces it) or in a directory that is not there; standard output that refused what was written."
    ),
    ExitStatusHelp(
      "64",
      "A usage error: a missing or unknown command or option, a wrong or missing value, an argument that is not UTF-8 (but a journal of check or verify, which fails in its place), or arguments the command cannot use as given (an -o that is a directory, a device, standard output or one of the inputs; a range past the session's end, empty for a test, or too long for a page or a test)."
    ),
    ExitStatusHelp(
      "",
      "A command's help gives the statuses of its own. A signal ends a command as it ends any program: a shell says 128 + its number (141 when the reader of a pipe stopped reading)."
    ),
  ]
}

/// Runs the `rewind` tool as this process with `domains`: the command line from
/// `CommandLine.arguments`, the standard streams, environment and working directory;
/// then exits with the status, or with 1 if standard output refused what was written.
/// An argument that is not UTF-8 is refused (status 64) before any command runs, but a
/// journal of `check` or `verify`, which fails in its place (`ArgumentsNotUTF8`).
///
/// `SIGINT` (Ctrl-C), `SIGTERM` and `SIGHUP` end a command as they end any program (a
/// shell says 128 + the signal's number), but the hidden temporary files of the files it
/// was writing are removed first (`EndingSignals`); `live` and `play` handle them their
/// own way while their screen is up.
public func main(domains: [any RecordableDomain.Type]) -> Never {
  EndingSignals.install()
  // A command line `rewind` handed over with its secrets hidden gets them back, and the
  // variable that held them is gone before anything runs (`NatsHelper`).
  var arguments = NatsHelper.restoringHiddenWords(
    Array(CommandLine.arguments.dropFirst()),
    from: ProcessCalls.takeVariable(NatsHelper.hiddenWordsVariable))
  let context = Context.standard()
  let notUTF8 = ProcessCalls.argumentsNotUTF8()
  if let first = notUTF8.first {
    // Written `\xHH`, such an argument must name nothing else: one given so in UTF-8 (a
    // file named with a backslash) keeps the refusal.
    let shown = Set(notUTF8.map(\.shown))
    let indices = Set(notUTF8.map(\.index))
    let ambiguous = arguments.indices.contains {
      !indices.contains($0) && shown.contains(arguments[$0])
    }
    guard ["check", "verify"].contains(arguments.first), !ambiguous else {
      context.stderr.print("\(context.errorLabel) \(ArgumentsNotUTF8.refusal(first.shown))")
      context.finish()
      ProcessCalls.exitProcess(64)
    }
    for (index, text) in notUTF8 { arguments[index] = text }
    context.argumentsNotUTF8 = ArgumentsNotUTF8(notUTF8.map(\.shown))
  }
  NatsHelper.handOver(arguments, context: context)
  let status = RewindTool.cli(domains: domains).run(arguments: arguments, context: context)
  ProcessCalls.exitProcess(context.exitStatus(after: status))
}
