import RewindArguments
import RewindCore
import RewindJournal
import RewindPlayer
import RewindStream
import RewindTerminal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension RewindTool {
  struct Play: PointCommand {
    /// Its discussion (``discussion``) is made when help shows it (`RewindTool.cli`), not
    /// when the tool starts: it measures the keys' widths.
    static let configuration = CommandConfiguration(
      name: "play", abstract: "Scrub through a recorded session: the time-travel debugger.",
      exitStatuses: terminalExitStatuses)

    let registry: DomainRegistry

    @Argument(help: "The journal to play.")
    var journal: String
    @Option(
      valueName: "point",
      help: "Where the cursor starts (default: the start; the end with --follow).")
    var at: PointArgument?
    @Flag(
      help:
        "Watch a journal another process is recording: new events appear as they are flushed.")
    var follow: Bool

    func run(_ context: Context) throws {
      // A session on a server is read as the server holds it when opened: nothing tells
      // the player of frames pushed later.
      if follow, StreamStore.looksLikeSessionURL(journal), !fileExists(journal) {
        throw UsageError(
          .invalidValue,
          "The value '\(StreamStore.displayName(journal))' is invalid for '<journal>': --follow watches a journal file another process is recording; a session on a server is played as it is when opened (play it again to see what was pushed since)"
        )
      }
      if follow, !journal.contains("://"), !fileExists(journal) {
        // Started before the recording it is to watch: said as such, with what starts it.
        throw CommandError(
          "\(TerminalText.escaped(journal)): no such file; --follow watches a journal another process is recording: start the recording first (`rewind live -o \(Format.shellPath(journal))`), then play it"
        )
      }
      let command = PlayCommand(journal: journal, at: at, follow: follow, context: context)
      // --follow watches a journal being recorded: not closed is what it expects.
      try registry.open(journal, warnings: context.stderr, notesNotClosed: !follow, command)
    }

    /// The help's discussion, with the player's keys.
    static var discussion: String {
      var text = """
        Opens the journal full-screen: the state at a cursor (drawn with the domain's \
        interactive screen when it has one, else as text), the events around the cursor \
        with the fields the current one changed (old → new), and a timeline bar (the \
        cursor's event number and time, and a strip of the session's events over time, \
        coloured by outcome: red where one was rejected). Skipping an event (x) shows the \
        state without it, marked as a counterfactual, and flags the later events that then \
        do something else. Continuing from here (r) writes a new journal \
        (session-YYYYMMDD-HHMMSS.journal here) that starts with the events up to the \
        cursor, its header naming this journal, its session and the point, and records on \
        in it with `rewind live`. Points are written \(Point.syntax). Needs a terminal on \
        standard input and output.
        """
      let width = PlayerKeys.help.map { TerminalText.width($0.keys) }.max() ?? 0
      text += "\n\nKeys (also shown by `?`):"
      for entry in PlayerKeys.help {
        text += "\n  " + TerminalText.padded(entry.keys, toWidth: width) + "  " + entry.action
      }
      return text
    }
  }
}

/// `rewind play`: the player on a journal of any domain, in a terminal session; then, if
/// `r` asked for it, the session continued live.
struct PlayCommand: TimelineVisitor {
  let journal: String
  let at: PointArgument?
  let follow: Bool
  let context: Context

  func visit<D: RecordableDomain>(_ timeline: Timeline<D>) throws {
    let start = try at.map { Point.sequence(try timeline.resolve($0, option: "--at <point>")) }
    let clock = context.clock
    let player = try Player(
      timeline: timeline, at: start, following: follow, clock: { clock() / 1_000 })
    // The player's terminal session ends before live makes its own.
    guard let request = try play(player) else { return }
    try continueLive(player.timeline, from: request)
  }

  /// Runs the player in a terminal session.
  /// - Returns: what `r` asked for, nil when the player quit.
  /// - Throws: ``CommandError`` when standard input or output is not a terminal;
  ///   ``ExitCode`` (128 + the signal) when a signal ended the session.
  private func play<D: Domain>(_ player: Player<D>) throws -> ContinueRequest? {
    // Refused before the screen is touched: a pipe or a file cannot show it.
    let session = try context.terminalSession(for: "play")
    // The new journal is written in this folder (`LiveCommand.freeJournalName`): one that
    // cannot be written is said in the player, which stays (it ended, its place lost).
    // A session on a server named by its whole id, without its password.
    var app = PlayerApp(player: player, title: StreamStore.displayName(player.timeline.path)) {
      if let problem = writingProblem(in: ".") {
        return
          "Cannot continue here: the new journal goes in this folder, which cannot be written (\(problem))."
      }
      return Self.roomProblem(continuing: player)
    }
    app.showsColour = session.colors != .none
    let ending: TerminalExit
    do throws(TerminalError) {
      ending = try session.run(&app)
    } catch {
      throw CommandError("the terminal failed: \(error.message)")
    }
    guard ending == .quit else { throw ExitCode(ending.exitStatus) }
    return app.continueRequest
  }

  /// Why the folder has no room for the journal that continues `player`'s session from
  /// its cursor, or nil: the events up to the cursor take about their share of the
  /// journal's size, and a little more (a full disk ended the player, its place lost).
  /// Nil where it cannot tell (a session on a server, a file system that does not say).
  static func roomProblem<D: Domain>(continuing player: Player<D>) -> String? {
    var journal = stat()
    var folder = statvfs()
    guard stat(player.timeline.path, &journal) == 0, statvfs(".", &folder) == 0 else {
      return nil
    }
    return roomProblem(
      journalSize: UInt64(journal.st_size), events: player.timeline.lastSequence,
      through: player.cursor, free: UInt64(folder.f_bavail) &* UInt64(folder.f_frsize))
  }

  /// ``roomProblem(continuing:)`` in a folder with `free` bytes free, of a session of
  /// `events` events in `journalSize` bytes continued after event `sequence`.
  static func roomProblem(
    journalSize: UInt64, events: UInt64, through sequence: UInt64, free: UInt64
  )
    -> String?
  {
    let share = Double(journalSize) * Double(min(sequence, events)) / Double(max(events, 1))
    let needed = UInt64(share) + (256 << 10)
    guard free < needed else { return nil }
    return
      "Cannot continue here: the new journal needs about \(Format.bytes(needed)) in this folder, whose file system has \(Format.bytes(free)) free."
  }

  /// Writes the journal that continues the session from the request's point, then
  /// records on in it, live.
  private func continueLive<D: RecordableDomain>(
    _ timeline: Timeline<D>, from request: ContinueRequest
  ) throws {
    let path = LiveCommand.freeJournalName(at: WallClock.now())
    let destination = try outputDestination(
      path, force: false, inputs: [timeline.path], argument: nil)
    // Said before the events up to the point are written (seconds for millions): the
    // screen is the shell's meanwhile.
    context.stdout.print(
      "Continuing \(TerminalText.escaped(StreamStore.displayName(timeline.path))) after event \(Format.count(request.sequence)) in \(TerminalText.escaped(path))"
        + (request.sequence > 0
          ? " (writing its \(Format.count(request.sequence, "event")) first)" : ""))
    try timeline.writeContinuation(
      through: request.sequence, to: destination,
      parentPath: context.resolvedPath(request.parentPath),
      options: context.batchRecordingOptions(snapshotInterval: timeline.header.snapshotInterval))
    try LiveCommand.record(
      continuing: path, after: request.sequence, domain: D.self, context: context)
  }
}

/// The statuses of the full-screen commands (`live`, `play`) after an ending other than
/// quitting: ``TerminalExit/exitStatus``.
let terminalExitStatuses = [
  ExitStatusHelp(
    "128+N",
    "A signal N ended it, the terminal put back: 130 for Ctrl-C (SIGINT), 143 for SIGTERM; 129 (as SIGHUP) when the terminal went away."
  )
]
