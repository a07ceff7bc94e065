import RewindArguments
import RewindCore
import RewindJournal

extension RewindTool {
  struct Shrink: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "shrink", abstract: "Cut a session down to the fewest events that still show a bug.",
      discussion: """
        With --where, finds a smallest subsequence of the session's events after which the \
        condition holds (a condition as find takes it: see `rewind help conditions`); \
        with --diverging, a smallest subsequence that ends with the first event whose \
        replay diverges from the recording, where the events before it replay as recorded \
        and that event replays as it does in the whole session now. Delta debugging \
        (ddmin) over the events, replaying each candidate with the current reducer from \
        the initial state; events a shorter session rejects are dropped. The \
        result is 1-minimal: leaving out any one of its events loses the property. \
        Prints the shorter session as a scenario script (the comments at its top say where \
        each event was in the session) that `rewind record` records; with -o, also \
        writes it as a journal, recorded with the current reducer but for a --diverging \
        one's last event, recorded as the session recorded it: `rewind check` of it fails \
        as the session's does until the reducer is fixed (a test of the fix). Exits with 1 \
        when the condition never holds or no event \
        diverges; when no event does but a snapshot differs from the state replayed up to \
        it (a bug that changes values, not which fields change), --diverging says so, with \
        the fields that differ and the --where that shrinks to that state.
        """,
      exitStatuses: [
        ExitStatusHelp(
          "1",
          "Also when there is nothing to shrink: the condition never holds, or no event diverges.")
      ])

    let registry: DomainRegistry

    @Argument(help: "The journal to shrink.")
    var journal: String
    @Option(
      name: "where", valueName: "condition",
      help: "The condition that must hold after the last event.", transform: parseCondition
    )
    var condition: WrittenCondition?
    @Flag(help: "Shrink to the first event that diverges from the recording.")
    var diverging: Bool
    @Option(short: "o", valueName: "journal", help: "Also write the shorter session as a journal.")
    var output: String?
    @Flag(help: "Replace the output journal if it exists.")
    var force: Bool
    @Flag(help: "Print JSON.")
    var json: Bool

    func run(_ context: Context) throws {
      guard condition == nil || !diverging else {
        throw UsageError("--where and --diverging cannot be used together; give one of them")
      }
      guard condition != nil || diverging else {
        throw UsageError("give either --where <condition> or --diverging")
      }
      // A file already there is refused once the condition is known to be right.
      let destination = try outputDestination(
        output, force: force, inputs: [journal], existingLater: true)
      try registry.open(
        journal, warnings: context.stderr,
        ShrinkCommand(
          written: condition, destination: destination, json: json, context: context))
    }
  }
}

struct ShrinkCommand: TimelineVisitor {
  /// The condition; nil for `--diverging`.
  let written: WrittenCondition?

  var condition: Condition? { written?.condition }
  let destination: FileDestination?
  let json: Bool
  let context: Context

  func visit<D: RecordableDomain>(_ timeline: Timeline<D>) throws {
    let path = TerminalText.escaped(timeline.path)
    let progress = context.progress("Shrinking")
    let found: ShrinkResult<D>?
    do {
      if let written {
        // Checked first, so that an error names the condition as written.
        _ = try conditionEvaluator(written, in: timeline.domain)
        if let destination { try requireAvailable(destination) }
        found = try timeline.shrink(where: written.condition)
      } else {
        if let destination { try requireAvailable(destination) }
        found = try timeline.shrinkDivergence()
      }
    } catch let error as RewindError where error.code == .eventsLost {
      progress.finish()
      throw try lostEventsError(timeline, path: path) ?? error
    }
    progress.finish()
    guard let result = found else {
      if let condition {
        throw CommandError(
          "\(path): \(TerminalText.escaped(condition.description)) never holds in the session's \(Format.count(timeline.lastSequence, "event")); nothing to shrink"
        )
      }
      try noEventDiverges(timeline, path: path)
    }
    let domain = timeline.domain
    let header = timeline.header
    let scenario = Scenario(
      domain: domain, device: header.device, startTime: header.startTime, events: result.events)
    let script = ScenarioText(scenario, comments: comments(result, timeline))
    if let destination {
      let recorder = try JournalRecorder.create(
        destination, domain: domain,
        session: SessionInfo(startTime: header.startTime, device: header.device),
        options: context.batchRecordingOptions(snapshotInterval: header.snapshotInterval))
      // The diverging event as the session recorded it (its fields numbered as today's
      // schema numbers them: not for an upcast journal), so that `check` of the journal
      // fails as the session's does until the reducer is fixed; recorded as the reducer
      // does it now, it passed with the bug and failed once it was fixed.
      let kept = timeline.upcast == nil ? result.divergence?.recorded : nil
      for (index, timed) in result.events.enumerated() {
        if let kept, index == result.events.count - 1 {
          try recorder.record(timed.event, at: timed.time, recordedAs: kept)
        } else {
          _ = try recorder.record(timed.event, at: timed.time)
        }
      }
      try recorder.close()
    }
    if let problem = script.problem {
      context.stderr.print(
        "\(context.stderr.style.yellow("warning:")) the scenario script does not record the same session: \(TerminalText.escaped(problem))"
          + (destination == nil ? "; write it as a journal with -o" : "; the journal does"))
    }
    if json {
      var members: [(String, JSONValue)] = [
        ("journal", .string(timeline.path)),
        ("condition", .string(condition?.description)),
        ("diverging", .bool(condition == nil)),
        ("searched", .int(Int64(result.searched))),
        ("replays", .int(Int64(result.replays))),
        ("eventsReplayed", .int(Int64(result.eventsReplayed))),
        (
          "events",
          .array(
            zip(result.sequences, result.events).map { sequence, timed in
              .object([
                ("seq", .int(Int64(sequence))), ("time_us", .int(Int64(timed.time))),
                ("event", domain.json(timed.event)),
              ])
            })
        ),
        ("scenario", .string(script.text)),
        ("output", .string(destination?.path)),
      ]
      if let divergence = result.divergence {
        members.append(
          (
            "divergence",
            .object([
              ("seq", .int(Int64(divergence.sequence))),
              ("recordedOutcome", .string("\(divergence.recorded.kind)")),
              (
                "recordedChanges",
                .array(domain.paths(of: divergence.recorded.changed).map(JSONValue.string))
              ),
              ("replayedOutcome", .string("\(divergence.replayed.kind)")),
              (
                "replayedChanges",
                .array(domain.paths(of: divergence.replayed.changed).map(JSONValue.string))
              ),
            ])
          ))
      }
      context.stdout.printJSON(.object(members))
      return
    }
    context.stdout.write(
      bytes: Array(TerminalText.escaped(script.text, keepingNewlines: true).utf8))
    if let destination {
      // A journal of no event: why, since `testgen` and `check` of it have no event to read.
      let why =
        result.events.isEmpty && condition != nil
        ? ": the condition holds in the initial state, before any event" : ""
      context.stderr.print(
        "Wrote \(Format.count(result.events.count, "event")) to \(TerminalText.escaped(destination.path))\(why)"
      )
    }
  }

  /// Says why `--diverging` has nothing to shrink: no event's outcome or changed fields
  /// differ from the recording. When a snapshot differs from the state replayed up to it
  /// all the same (a bug that changes values, not which fields change), `check` fails:
  /// the lines on standard error say so, with the fields that differ as `check` says
  /// them, and the `--where` that shrinks to that state.
  /// - Throws: always: a ``CommandError`` when the replay matches the recording, else
  ///   `ExitCode.failure` once the lines are written.
  private func noEventDiverges<D: Domain>(_ timeline: Timeline<D>, path: String) throws
    -> Never
  {
    guard let divergence = try timeline.check().stateDivergence else {
      throw CommandError(
        "\(path): every event replays as recorded and no snapshot differs from the state replayed up to it; nothing diverges, nothing to shrink"
      )
    }
    let stderr = context.stderr
    // Check's lines, already escaped: a heading, then the fields that differ (or why none
    // is listed).
    var lines = CheckReport.lines(describing: divergence)
    let heading = lines.removeFirst().drop { $0 == " " }
    stderr.print(
      "\(context.errorLabel) \(path): no event's outcome or changed fields differ from the recording, so --diverging has no event to shrink to; but \(heading)"
    )
    for line in lines { stderr.print(line) }
    let hint: String
    if divergence.problem != .differs {
      hint =
        "the snapshot's own bytes are wrong, which no shorter session shows: `rewind verify --deep \(Format.shellPath(timeline.path))` says more"
    } else if let field = divergence.differences.first(where: \.new.isScalar)
      ?? divergence.differences.first
    {
      let condition = "\(field.path) == \(field.new.compactText)"
      hint =
        "to shrink to this state, give --where a condition on a field that differs, with its value as replayed: `rewind shrink \(Format.shellPath(timeline.path)) --where \(Format.shellWord(condition))`"
    } else {
      hint = "no field differs, so no condition tells the two states apart; nothing to shrink"
    }
    stderr.print("  \(TerminalText.escaped(hint))")
    throw ExitCode.failure
  }

  /// Why a salvaged journal cannot be shrunk, when the replay from its start met events
  /// lost to damage before the condition held (or an event diverged): the condition never
  /// holds in the events kept, or first holds after the lost ones, which shrinking cannot
  /// reach. Nil when it cannot say more than the replay's error.
  private func lostEventsError<D: Domain>(_ timeline: Timeline<D>, path: String) throws
    -> CommandError?
  {
    guard let lost = timeline.lostEvents(in: 0...timeline.lastSequence).first else { return nil }
    let range = JournalError.describe(lost)
    let replay = "shrinking replays the session from its start and cannot cross them"
    guard let condition else {
      return CommandError(
        "\(path): no event diverges before \(range), which were lost to damage; \(replay)")
    }
    let shown = TerminalText.escaped(condition.description)
    guard let hit = try timeline.find(condition, all: false).first else {
      return CommandError(
        "\(path): \(shown) never holds in the session's events but \(range), which were lost to damage; nothing to shrink"
      )
    }
    return CommandError(
      "\(path): \(shown) first holds at event \(Format.count(hit.sequence)), after \(range), which were lost to damage; \(replay)"
    )
  }

  /// The comments at the top of the script: where it comes from, what it shows, where
  /// each event was in the session.
  private func comments<D: Domain>(_ result: ShrinkResult<D>, _ timeline: Timeline<D>) -> [String] {
    let domain = timeline.domain
    // None searched when the condition holds at the start: only the count of events.
    let searched =
      result.searched == 0
      ? ""
      : " of the \(Format.count(result.searched, "event")) searched (\(Format.count(result.replays, "replay")))"
    var lines = [
      "Shrunk from \(timeline.path): \(Format.count(result.events.count, "event"))\(searched)"
    ]
    if let condition {
      lines.append(
        result.events.isEmpty
          ? "\(condition) holds in the initial state, before any event: no event is needed"
          : "after the last event, \(condition) holds")
    } else if let divergence = result.divergence {
      lines.append(
        "the last event (event \(divergence.sequence) of the session) was recorded \(describe(divergence.recorded, domain)) and replays \(describe(divergence.replayed, domain))"
      )
    }
    if !result.sequences.isEmpty {
      lines.append(
        "events of the session: " + result.sequences.map(String.init).joined(separator: ", "))
    }
    return lines
  }

  /// An effect as `check` says it (`applied, changing count`, `rejected`).
  private func describe<D: Domain>(_ effect: RecordedEffect, _ domain: D) -> String {
    CheckReport.describe(effect.kind, domain.paths(of: effect.changed))
  }
}

extension JSONValue {
  /// Whether the value is neither an array nor an object: one a condition compares in
  /// a few characters.
  fileprivate var isScalar: Bool {
    switch self {
    case .array, .object: false
    default: true
    }
  }
}
