import RewindArguments
import RewindCore
import RewindJournal
import RewindTerminal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension RewindTool {
  struct Live: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "live",
      abstract: "Use the domain's screen in the terminal, recording every interaction.",
      discussion: discussion(keys: nil),
      exitStatuses: [
        ExitStatusHelp(
          "1",
          "The journal did not take every event (a full disk, and Q or Ctrl-C): the message says how many were lost and what the journal holds; `rewind recover` closes it."
        )
      ] + terminalExitStatuses)

    let registry: DomainRegistry

    @Option(
      short: "o", valueName: "journal",
      help:
        "The journal to write (default: session-YYYYMMDD-HHMMSS.journal here, or with -2, -3, … when a file has that name)."
    )
    var output: String?
    @Option(
      valueName: "layout",
      help: "twoColumn or threeColumn, also two-column, three-column (default: threeColumn).")
    var layout: String?
    @Option(
      valueName: "device",
      help: "iphone or ipad: its idiom and screen width (default: a 375-point window).")
    var device: String?
    @Option(
      valueName: "class", help: "compact or regular (default: compact on an iPhone, else regular).")
    var sizeClass: String?
    @Option var domain: String?  // its help names the default domain: see init(registry:)
    @Flag(help: "Replace the journal given with -o if it exists.")
    var force: Bool

    init(registry: DomainRegistry) {
      self.registry = registry
      _domain = Option(
        valueName: "name", help: "The domain of the session (default: \(registry.names[0])).",
        transform: registry.domainName)
    }

    func run(_ context: Context) throws {
      let command = LiveCommand(
        output: output,
        options: LiveOptions(layout: layout, device: device, sizeClass: sizeClass),
        force: force, context: context)
      try registry.with(domain, command)
    }

    /// The help's discussion, with the keys of the default domain's screen when it has one.
    static func discussion(keys: [KeyHelp]?) -> String {
      var text = """
        Opens a full-screen app on the terminal that draws the domain's screen (for the \
        navigation domain: the horizontal menu as a scroll view, and the split view's \
        visible columns). Every interaction goes through a live Store and is recorded in \
        the journal; nothing else changes the state. The status line shows the recording, \
        the number of events, the time, and the last event with its outcome. `q` closes \
        the journal and prints its name; Ctrl-C, SIGTERM and SIGHUP put the terminal back \
        and leave the journal closed with every event the disk took. Ctrl-Z (SIGTSTP) \
        makes the events durable (waiting up to 5 seconds for the disk), puts the terminal \
        back and stops, fg takes it again. When the journal cannot take the events (a \
        full disk), the status line says why and how many wait, and q asks first: free \
        space and press q again to write them (with the disk still full, q stays); Q, or \
        Ctrl-C, SIGTERM and SIGHUP at any time, quits without them: they are lost, and \
        the message says so (exit 1). Needs a terminal on standard input and output.
        """
      if let keys {
        let width =
          (keys + liveAppKeys).map { TerminalText.width($0.keys) }
          .max() ?? 0
        text += "\n\nKeys (also shown by `?`):"
        for entry in keys + liveAppKeys {
          text += "\n  " + TerminalText.padded(entry.keys, toWidth: width) + "  " + entry.action
        }
      }
      return text
    }

    /// The discussion for a tool whose default domain is `domain`.
    static func discussion(for domain: any RecordableDomain.Type) -> String {
      guard let interactive = domain as? any InteractiveDomain.Type else {
        return discussion(keys: nil)
      }
      return discussion(keys: keys(of: interactive))
    }

    private static func keys<I: InteractiveDomain>(of type: I.Type) -> [KeyHelp] {
      // A domain without a sample has no keys to list here; `live` says why when run.
      (try? I.sample)?.makeScreen().keyHelp ?? []
    }
  }
}

package struct LiveCommand: DomainVisitor {
  let output: String?
  let options: LiveOptions
  let force: Bool
  let context: Context

  func visit<D: RecordableDomain>(_ type: D.Type) throws {
    guard let interactive = type as? any InteractiveDomain.Type else {
      throw CommandError(
        "the '\(D.identifier)' domain has no interactive screen to use live; record a scenario script (`rewind record`) instead"
      )
    }
    try run(interactive)
  }

  private func run<I: InteractiveDomain>(_ type: I.Type) throws {
    let live: LiveSession<I>
    do throws(LiveOptionError) {
      live = try I.liveSession(options)
    } catch {
      let valueNames = ["--layout": "layout", "--device": "device", "--size-class": "class"]
      let target = valueNames[error.option].map { "\(error.option) <\($0)>" } ?? error.option
      throw UsageError(
        .invalidValue, "The value '\(error.value)' is invalid for '\(target)': \(error.expected)")
    }
    guard output != nil || !force else {
      throw UsageError(
        "--force replaces the journal given with -o; without -o, live writes to a free name")
    }
    let path = output ?? Self.freeJournalName(at: WallClock.now())
    try Self.record(to: path, context: context) { options in
      _ = try outputDestination(path, force: force, inputs: [])
      return try Store(
        domain: live.domain, recordingTo: path,
        session: SessionInfo(startTime: WallClock.now(), device: live.device), options: options,
        replacingExisting: force)
    }
  }

  /// Records on, live, in the existing journal at `path`: `rewind play`'s
  /// continue-from-here, after it wrote the journal that continues the session it plays,
  /// with the session's events up to `earlier`.
  /// - Throws: ``CommandError`` when the domain has no interactive screen, the terminal
  ///   is not one, or recording fails; ``ExitCode`` after a signal.
  static func record<D: RecordableDomain>(
    continuing path: String, after earlier: UInt64, domain: D.Type, context: Context
  ) throws {
    guard let interactive = domain as? any InteractiveDomain.Type else {
      throw CommandError(
        "the '\(D.identifier)' domain has no interactive screen to use live")
    }
    try record(continuing: path, after: earlier, interactive, context: context)
  }

  private static func record<I: InteractiveDomain>(
    continuing path: String, after earlier: UInt64, _ type: I.Type, context: Context
  ) throws {
    try record(to: path, earlierEvents: earlier, context: context) { options in
      try Store<I>(continuing: path, options: options)
    }
  }

  /// Runs the live app in a terminal session on the store `makeStore` opens at `path`
  /// (once the terminal is known to be one), closes the journal and prints the summary;
  /// the journal holds `earlierEvents` events before the session's.
  private static func record<I: InteractiveDomain>(
    to path: String, earlierEvents: UInt64 = 0, context: Context,
    makeStore: (RecordingOptions) throws -> Store<I>
  ) throws {
    // Refused before any file is made: a pipe or a file cannot show the screen.
    let session = try context.terminalSession(for: "live")
    var options = RecordingOptions()
    options.journal.system = context.fileSystem
    // The session's signal handlers are in place from here: a signal while the journal
    // is made ends the loop at once, and the journal is still closed.
    let store = try makeStore(options)
    var app = LiveApp(
      store: store, screen: store.domain.makeScreen(), journal: TerminalText.escaped(path),
      earlierEvents: earlierEvents, clock: context.clock)
    let ending: Result<TerminalExit, TerminalError>
    do throws(TerminalError) {
      ending = .success(try session.run(&app))
    } catch {
      ending = .failure(error)
    }
    // The terminal is back; the journal is closed whatever happened, with every event
    // it could take. Those it could not (a full disk) are lost now: said so, with what the
    // journal holds, read again.
    do {
      try store.close()
    } catch {
      let reader = try? JournalReader(path: path)
      throw CommandError(
        LiveJournalFailure.closingFailed(
          error, path: path, sent: earlierEvents + UInt64(app.eventCount),
          pending: store.pendingCount,
          held: reader.map { ($0.lastSequence, $0.condition.isClosed) }))
    }
    withExtendedLifetime(session) {}
    let summary =
      "Recorded \(Format.count(app.eventCount, "event")) (\(Format.count(app.rejectedCount)) rejected) over \(Format.duration(app.elapsed)) to \(TerminalText.escaped(path))"
      + (earlierEvents > 0
        ? ", after the \(Format.count(earlierEvents, "event")) it continues" : "")
    switch ending {
    case .success(.quit):
      context.stdout.print(summary)
    case .success(let exit):
      context.stdout.print(summary + " (\(Self.describe(exit)))")
      throw ExitCode(exit.exitStatus)
    case .failure(let error):
      context.stdout.print(summary)
      throw CommandError("the terminal failed: \(error.message)")
    }
  }

  /// `session-20260101-093000.journal`: the local time the session started.
  package static func defaultJournalName(at microseconds: Int64) -> String {
    var seconds = time_t(microseconds / 1_000_000)
    var parts = tm()
    localtime_r(&seconds, &parts)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let date = "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))"
    let time = "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))"
    return "session-\(date)-\(time).journal"
  }

  /// ``defaultJournalName(at:)``, or that name with `-2`, `-3`, … before `.journal` when
  /// a file (or a link) is there already: two sessions started in the same second.
  /// - Parameter directory: where (with its slash; empty: the working directory).
  package static func freeJournalName(at microseconds: Int64, in directory: String = "")
    -> String
  {
    let name = defaultJournalName(at: microseconds)
    let stem = name.dropLast(".journal".count)
    var candidate = name
    var number = 2
    var status = stat()
    while lstat(directory + candidate, &status) == 0 {
      candidate = "\(stem)-\(number).journal"
      number += 1
    }
    return directory + candidate
  }

  private static func describe(_ exit: TerminalExit) -> String {
    switch exit {
    case .quit: "quit"
    case .signal(SIGINT): "interrupted"
    case .signal(SIGTERM): "terminated"
    case .signal(SIGHUP): "the terminal hung up"
    case .signal(let signal): "signal \(signal)"
    case .inputClosed: "the terminal closed"
    }
  }
}
