import RewindArguments
import RewindCore
import RewindStream

extension RewindTool {
  struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "diff", abstract: "Show how the state differs between two points.",
      discussion: """
        Either two points of one session (`rewind diff s.journal --from 10 --to +30s`, the \
        earlier first) or points of two sessions (`rewind diff a.journal@end b.journal@end`). \
        A file whose name contains @ is that file when it exists: `a@b.journal` is the \
        journal a@b.journal at its end, `a@b.journal@12` the same at event 12. Each field \
        that differs is printed with its old value (-) and its new value (+). \
        With --align, two whole sessions (two journals, no points) are aligned by event \
        to find where two recordings of the same scenario first took different paths: \
        event n of one beside event n of the other while the events are the same \
        (compared as JSON, times ignored) and so are the states after them. The first \
        pair that differs is the divergence: both events and how the states after them \
        differ. Then each session goes its own way, and they rejoin at the first pair of \
        points, one in each, with equal states, one allowed to take up to --window more \
        events than the other (default: 1024); the end states are compared last. \
        With --exit-code, the status says whether they differ, as diff(1)'s does (below); \
        a usage error is 64 as always.
        """,
      exitStatuses: [
        ExitStatusHelp(
          "0",
          "With --exit-code: the states are the same (with --align, the sessions take the same path)."
        ),
        ExitStatusHelp(
          "1",
          "With --exit-code: they differ. Without it, a failure, as for any command."),
        ExitStatusHelp(
          "2",
          "With --exit-code: they cannot be compared (a journal that cannot be read, say)."),
      ])

    let registry: DomainRegistry

    @Argument(name: "journal", help: "The journal, or two journals written JOURNAL@POINT.")
    var journals: [String]
    @Option(valueName: "point", help: "The first point (one journal).")
    var from: PointArgument = .start
    @Option(valueName: "point", help: "The second point (one journal).")
    var to: PointArgument = .end
    @Flag(help: "Also list the events between the two points.")
    var events: Bool
    @Flag(help: "Align two sessions by event: where they first took different paths.")
    var align: Bool
    @Option(
      valueName: "events",
      help:
        "With --align, how many more events one session may take to rejoin the other (default: 1024).",
      transform: { text throws(InvalidValue) in try parseCount(text, of: "events") })
    var window: Int?
    @Flag(help: "Print JSON.")
    var json: Bool
    @Flag(
      name: "exit-code",
      help:
        "Exit with 1 when the states differ (with --align, when the sessions take different paths), 0 when not, 2 when they cannot be compared."
    )
    var exitCode: Bool

    func run(_ context: Context) throws {
      guard exitCode else { return try compare(context) }
      // 1 says the states differ: a failure to compare them is 2, as diff(1)'s.
      do {
        try compare(context)
      } catch let error as UsageError {
        throw error
      } catch let status as ExitCode {
        throw status
      } catch let error as CommandError {
        var failure = error
        failure.exitCode = ExitCode(2)
        throw failure
      } catch {
        throw CommandError(String(describing: error), exitCode: ExitCode(2))
      }
    }

    /// Compares the points or the sessions the arguments give, and prints how they differ.
    private func compare(_ context: Context) throws {
      guard align || window == nil else { throw UsageError("--window applies to --align") }
      if align {
        guard journals.count == 2 else {
          throw UsageError(.unexpectedArgument, "--align compares two journals: give two")
        }
        guard !$from.isGiven && !$to.isGiven && !events else {
          throw UsageError(
            "--align compares whole sessions: --from, --to and --events do not apply")
        }
        for journal in journals where JournalAtPoint.pointSign(in: journal) != nil {
          throw UsageError(
            .invalidValue,
            "The value '\(StreamStore.displayName(journal))' is invalid for '<journal>': --align compares whole sessions; give the journal without @POINT"
          )
        }
        try registry.open(
          journals[0], warnings: context.stderr,
          AlignedDiff(
            left: journals[0], right: journals[1], window: window ?? 1_024, json: json,
            exitCode: exitCode, registry: registry, context: context))
        return
      }
      // Points given as journals: the natural `diff J 14 15`, or `diff J@14 --to 15`.
      let points = journals.dropFirst().filter {
        !fileExists($0) && (try? Point(parsing: $0)) != nil
      }
      if journals.count > 1, points.count == journals.count - 1, fileExists(journals[0]) {
        throw UsageError(
          .unexpectedArgument,
          "\(points.joined(separator: " and ")) \(points.count == 1 ? "is a point" : "are points"), not a journal: diff takes one journal's points as --from and --to (rewind diff JOURNAL --from \(points.count > 1 ? points[points.startIndex] : "P") --to \(points.last ?? "Q")), or two journals written JOURNAL@POINT"
        )
      }
      if journals.count == 1, !fileExists(journals[0]),
        JournalAtPoint.pointSign(in: journals[0]) != nil
      {
        throw UsageError(
          .invalidValue,
          "The value '\(StreamStore.displayName(journals[0]))' is invalid for '<journal>': JOURNAL@POINT names a point of one of two journals compared; for one journal's points give --from and --to"
        )
      }
      switch journals.count {
      case 1:
        try registry.open(
          journals[0], warnings: context.stderr,
          DiffCommand(
            from: from, to: to,
            events: events, json: json, exitCode: exitCode, context: context))
      case 2:
        guard !$from.isGiven && !$to.isGiven else {
          throw UsageError("--from and --to apply to one journal; write JOURNAL@POINT for two")
        }
        guard !events else {
          throw UsageError("--events applies to one journal")
        }
        let left = try JournalAtPoint(journals[0])
        let right = try JournalAtPoint(journals[1])
        try registry.open(
          left.path, warnings: context.stderr,
          TwoJournalDiff(
            left: left, right: right, registry: registry, json: json, exitCode: exitCode,
            context: context))
      default:
        throw UsageError(
          .unexpectedArgument,
          "diff compares one journal, or two written JOURNAL@POINT: give one or two, not \(journals.count)"
        )
      }
    }
  }
}

/// `path@point`; the point defaults to `end`. An existing file whose name contains `@`
/// is read as that file, not as a path and a point. In a session URL the point's `@`
/// follows the session (`nats://USER:PASSWORD@HOST:PORT/SESSION-ID@POINT`): the one before
/// the host is the credentials'.
struct JournalAtPoint: CustomStringConvertible {
  var path: String
  var point: PointArgument

  /// `path@point` as output names it: a session URL without its user and password.
  var description: String { "\(StreamStore.displayName(path))@\(point)" }

  init(path: String, point: PointArgument) {
    self.path = path
    self.point = point
  }

  /// The `@` before the point in `text`, if it names one: the last `@`; in a session URL
  /// the last one after the session's path began, with no `/` after it (the `@` of
  /// `USER:PASSWORD@HOST` has the path after it, and a password may hold a `/`); none in
  /// the name of a file that exists.
  static func pointSign(in text: String) -> String.Index? {
    guard !fileExists(text), let at = text.lastIndex(of: "@") else { return nil }
    if StreamStore.looksLikeSessionURL(text), let scheme = text.firstRange(of: "://") {
      guard !text[at...].contains("/"), text[scheme.upperBound..<at].contains("/") else {
        return nil
      }
    }
    return at
  }

  init(_ text: String) throws {
    guard let at = Self.pointSign(in: text) else {
      path = text
      point = try! PointArgument("end")
      return
    }
    path = String(text[..<at])
    guard !path.isEmpty else {
      throw UsageError(
        .invalidValue,
        "The value '\(text)' is invalid for '<journal>': no journal before the @; give JOURNAL@POINT"
      )
    }
    do throws(InvalidValue) {
      point = try PointArgument(String(text[text.index(after: at)...]))
    } catch {
      throw UsageError(
        .invalidValue, "The value '\(text)' is invalid for '<journal>': \(error.reason ?? "")")
    }
  }
}

struct DiffCommand: TimelineVisitor {
  let from: PointArgument
  let to: PointArgument
  let events: Bool
  let json: Bool
  /// Whether the status says that the states differ (`--exit-code`).
  var exitCode = false
  let context: Context

  func visit<D: RecordableDomain>(_ timeline: Timeline<D>) throws {
    let (first, second) = try timeline.resolveRange(from: from, to: to, knownStates: true)
    let changes = timeline.domain.diff(
      try timeline.state(after: first), try timeline.state(after: second))
    try printDiff(timeline, first: first, second: second, changes: changes)
    if exitCode && !changes.isEmpty { throw ExitCode.failure }
  }

  /// Prints the changes between points `first` and `second`, and with `events` the events
  /// between them.
  private func printDiff<D: RecordableDomain>(
    _ timeline: Timeline<D>, first: UInt64, second: UInt64, changes: [FieldChange]
  ) throws {
    for point in Set([first, second]).sorted() {
      try timeline.warnOfDrift(reaching: point, to: context.stderr)
    }
    // The events between are written as they are replayed, never held: a long range held
    // each event and its JSON (9.3 GB for `--events --json` over 10 M events).
    let stdout = context.stdout
    /// Hands each event between the two points to `each`; returns the ranges of events
    /// lost to damage among them.
    func replayEvents(_ each: (ReplayedEvent<D>, FieldSet) -> Void) throws
      -> [ClosedRange<UInt64>]
    {
      guard events && second > first else { return [] }
      // On past events lost to damage, as log goes, and saying so as it does.
      let lost = try timeline.events(from: first + 1, through: second, crossingLostEvents: true) {
        event, changed, _ in
        each(event, changed)
        return true
      }
      warnLost(lost, in: timeline.path, to: context.stderr)
      return lost
    }
    if json {
      let head: [(String, JSONValue)] = [
        ("from", .int(Int64(first))), ("to", .int(Int64(second))),
        ("changes", .array(changes.map(\.json))),
      ]
      guard events else { return stdout.printJSON(.object(head)) }
      var lost: [ClosedRange<UInt64>] = []
      try stdout.printJSON(head, streaming: "events") { element in
        lost = try replayEvents { event, changed in
          var object = JSONLines.eventMembers(
            sequence: event.sequence, time: event.time, event: event.event, in: timeline.domain)
          object += event.outcome?.jsonMembers ?? []
          object.append(
            ("changed", .array(timeline.domain.paths(of: changed).map(JSONValue.string))))
          element(.object(object))
        }
      } tail: {
        lost.isEmpty ? [] : [("lostEvents", .array(lost.map(BlameCommand.json)))]
      }
      return
    }
    // Point 0 is the initial state, no event (as state and blame say it).
    func name(_ point: UInt64) -> String { point == 0 ? "the start" : "event \(point)" }
    printChanges(changes, between: name(first), and: name(second), to: stdout)
    guard events else { return }
    stdout.print()
    var shown = 0
    _ = try replayEvents { event, changed in
      if shown == 0 {
        stdout.print(stdout.style.bold(Format.capitalized(Format.events(first + 1...second)) + ":"))
      }
      shown += 1
      let paths = timeline.domain.paths(of: changed)
      let effect =
        paths.isEmpty ? event.outcome?.summary ?? "" : "changed " + paths.joined(separator: ", ")
      stdout.print(
        "  \(event.sequence)  \(Format.offset(event.time))  \(timeline.domain.shownDescription(event.event))  \(stdout.style.dim(TerminalText.escaped(effect)))"
      )
    }
    if shown == 0 { stdout.print(stdout.style.bold("No events in between.")) }
  }
}

/// Compares states of two journals of one domain.
struct TwoJournalDiff: TimelineVisitor {
  /// The sequence number of a journal's point, checked to be one whose state can be
  /// reached: with two journals, a point lost to damage is said with its journal's path.
  static func reachable<D: Domain>(_ journal: JournalAtPoint, in timeline: Timeline<D>) throws
    -> UInt64
  {
    do {
      // A point beyond a journal's end said with the whole argument, `JOURNAL@POINT`: the
      // point alone does not tell which of the two journals it is beyond.
      let sequence = try timeline.resolve(
        journal.point, option: "<journal>", shown: journal.description)
      try timeline.checkReachable(sequence)
      return sequence
    } catch let error as RewindError where error.code == .eventsLost {
      throw error.naming(timeline.path)
    }
  }

  let left: JournalAtPoint
  let right: JournalAtPoint
  let registry: DomainRegistry
  let json: Bool
  /// Whether the status says that the states differ (`--exit-code`).
  var exitCode = false
  let context: Context

  func visit<D: RecordableDomain>(_ first: Timeline<D>) throws {
    let second = try registry.timeline(right.path, as: D.self, warnings: context.stderr)
    let leftSequence = try Self.reachable(left, in: first)
    let rightSequence = try Self.reachable(right, in: second)
    let leftState = try first.state(after: leftSequence)
    let rightState = try second.state(after: rightSequence)
    try first.warnOfDrift(reaching: leftSequence, to: context.stderr)
    try second.warnOfDrift(reaching: rightSequence, to: context.stderr)
    // Compare as JSON so that two sessions with different catalogs compare by ids.
    let changes = first.domain.fields.indices.compactMap { index -> FieldChange? in
      let old = first.domain.fields[index].value(leftState)
      let new = second.domain.fields[index].value(rightState)
      return old.isWrittenAs(new)
        ? nil : FieldChange(path: first.domain.fields[index].path, old: old, new: new)
    }
    // Named as the timelines name them: a session on a server by its whole id (walk of the
    // fleet, F13: by the prefix typed).
    let left = JournalAtPoint(path: first.path, point: left.point)
    let right = JournalAtPoint(path: second.path, point: right.point)
    if json {
      context.stdout.printJSON(
        .object([
          ("from", .string(left.description)), ("to", .string(right.description)),
          // The points resolved, as one journal's diff gives them.
          ("fromEvent", .int(Int64(leftSequence))), ("toEvent", .int(Int64(rightSequence))),
          ("changes", .array(changes.map(\.json))),
        ]))
    } else {
      printChanges(
        changes, between: name(left, leftSequence), and: name(right, rightSequence),
        to: context.stdout)
    }
    if exitCode && !changes.isEmpty { throw ExitCode.failure }
  }

  /// `JOURNAL@POINT` as the text names it.
  private func name(_ journal: JournalAtPoint, _ sequence: UInt64) -> String {
    // A point given otherwise than as its event's number (`end`, a time) is said with it;
    // point 0 is the start, however given.
    if sequence == 0 { return journal.description + " (the start)" }
    return journal.point.text == String(sequence)
      ? journal.description : journal.description + " (event \(sequence))"
  }
}

func printChanges(
  _ changes: [FieldChange], between first: String, and second: String, to output: Output
) {
  let first = TerminalText.escaped(first)
  let second = TerminalText.escaped(second)
  if changes.isEmpty {
    output.print("No differences between \(first) and \(second).")
    return
  }
  let fields = changes.count == 1 ? "1 field differs" : "\(changes.count) fields differ"
  output.print(output.style.bold("\(fields) between \(first) (-) and \(second) (+):"))
  for change in changes { printChange(change, to: output) }
}

/// `diff A B --align`: where two sessions first took different paths, and whether they
/// rejoin.
struct AlignedDiff: TimelineVisitor {
  let left: String
  let right: String
  let window: Int
  let json: Bool
  /// Whether the status says that the sessions take different paths (`--exit-code`).
  var exitCode = false
  let registry: DomainRegistry
  let context: Context

  func visit<D: RecordableDomain>(_ first: Timeline<D>) throws {
    let second = try registry.timeline(right, as: D.self, warnings: context.stderr)
    let alignment = try first.align(with: second, window: window)
    if json {
      printJSON(alignment, first.domain, second.domain)
    } else {
      printText(alignment, first.domain, second.domain)
    }
    if exitCode && !alignment.isSamePath { throw ExitCode.failure }
  }

  /// The alignment as text: the divergence, the rejoining and the end states.
  private func printText<D: Domain>(
    _ alignment: SessionAlignment<D>, _ leftDomain: D, _ rightDomain: D
  ) {
    let output = context.stdout
    let style = output.style
    let leftName = TerminalText.escaped(StreamStore.displayName(left))
    let rightName = TerminalText.escaped(StreamStore.displayName(right))
    guard let divergence = alignment.divergence else {
      output.print(
        "The sessions take the same path: \(Format.count(alignment.commonEvents, "event")), the same events with the same states after each."
      )
      return
    }
    let common = alignment.commonEvents
    let point = common + 1
    if divergence.left == nil && divergence.right == nil {
      output.print(style.bold("The sessions differ from the start: their initial states differ."))
    } else {
      output.print(
        style.bold(
          common == 0
            ? "The sessions differ from their first event:"
            : "The sessions take the same path for \(Format.count(common, "event")), then differ at event \(point):"
        ))
      for (name, step, domain) in [
        (leftName, divergence.left, leftDomain), (rightName, divergence.right, rightDomain),
      ] {
        guard let step else {
          output.print("  \(name): no event \(point), the session has ended")
          continue
        }
        let outcome = step.event.outcome?.summary ?? ""
        output.print(
          "  \(name): event \(step.event.sequence) at \(Format.offset(step.event.time)): \(style.cyan(domain.shownDescription(step.event.event)))  \(style.dim(TerminalText.escaped(outcome)))"
        )
      }
    }
    if divergence.differences.isEmpty {
      output.print("The states after them are equal.")
    } else {
      let count = divergence.differences.count
      output.print(
        style.bold(
          "\(count == 1 ? "1 field differs" : "\(count) fields differ") there (- \(leftName), + \(rightName)):"
        ))
      for change in divergence.differences { printChange(change, to: output) }
    }
    output.print()
    if let rejoin = alignment.rejoin {
      output.print(
        "They rejoin after event \(rejoin.left) of \(leftName) and event \(rejoin.right) of \(rightName): the states are equal there."
      )
    } else {
      output.print(
        "They do not rejoin: no point of one has the state of a point of the other, within \(Format.count(UInt64(window), "event")) of each other."
      )
    }
    let ends =
      "\(leftName) has \(Format.count(alignment.leftEvents, "event")), \(rightName) \(Format.count(alignment.rightEvents, "event"))"
    if alignment.endDifferences.isEmpty {
      output.print("The end states are equal (\(ends)).")
    } else {
      let count = alignment.endDifferences.count
      output.print(
        "At the end \(count == 1 ? "1 field differs" : "\(count) fields differ") (\(ends)): \(alignment.endDifferences.map { TerminalText.escaped($0.path) }.joined(separator: ", "))."
      )
    }
  }

  func printJSON<D: Domain>(_ alignment: SessionAlignment<D>, _ leftDomain: D, _ rightDomain: D) {
    func step(_ step: SessionAlignment<D>.Step?, _ domain: D) -> JSONValue {
      guard let step else { return .null }
      var members = JSONLines.eventMembers(
        sequence: step.event.sequence, time: step.event.time, event: step.event.event, in: domain)
      members += step.event.outcome?.jsonMembers ?? []
      return .object(members)
    }
    var members: [(String, JSONValue)] = [
      ("left", .string(StreamStore.displayName(left))),
      ("right", .string(StreamStore.displayName(right))),
      ("commonEvents", .int(Int64(alignment.commonEvents))),
      ("samePath", .bool(alignment.isSamePath)),
    ]
    if let divergence = alignment.divergence {
      members.append(
        (
          "divergence",
          .object([
            ("left", step(divergence.left, leftDomain)),
            ("right", step(divergence.right, rightDomain)),
            ("changes", .array(divergence.differences.map(\.json))),
          ])
        ))
    } else {
      members.append(("divergence", .null))
    }
    members.append(
      (
        "rejoin",
        alignment.rejoin.map {
          .object([("left", .int(Int64($0.left))), ("right", .int(Int64($0.right)))])
        } ?? .null
      ))
    members.append(("endChanges", .array(alignment.endDifferences.map(\.json))))
    context.stdout.printJSON(.object(members))
  }
}
