import RewindArguments
import RewindCore

extension RewindTool {
  struct Log: RangeCommand {
    static let configuration = CommandConfiguration(
      name: "log", abstract: "List the events of a session with what the reducer did with them.",
      discussion: """
        One line per event: its sequence number, its time from the session start, the \
        event, and its outcome (applied, unchanged, or rejected with the reason). With \
        --changes, each event is followed by the fields it changed, old → new (as TCA's \
        _printChanges does; in --json, a "changes" array of {path, old, new}). --outcome \
        keeps the events with that outcome; --where keeps the events after which a \
        condition holds (a condition as find takes it, e.g. 'changed(split.style)', \
        checked against the state's fields before any replay). The filters combine with each other and \
        with --from, --to and --type: an event is listed when it passes all of them. With \
        --where, parts of an intact journal are read on --jobs threads at once; the output \
        is the same, in the same order.
        """)

    let registry: DomainRegistry

    @Argument(help: "The journal to read.")
    var journal: String
    @Option(valueName: "point", help: "List events after this point.")
    var from: PointArgument = .start
    @Option(valueName: "point", help: "List events up to this point.")
    var to: PointArgument = .end
    @Option(
      valueName: "kind",
      help: "Only events of this kind (e.g. itemSelected); several repeated or comma-separated.")
    var type: [String]
    @Option(
      valueName: "outcome",
      help:
        "Only events with this outcome: applied, unchanged or rejected; several repeated or comma-separated.",
      transform: parseOutcomes)
    var outcome: [[String]]
    @Option(
      name: "where", valueName: "condition",
      help: "Only events after which the condition holds.", transform: parseCondition)
    var condition: WrittenCondition?
    @Flag(help: "Print the fields each event changed, old → new.")
    var changes: Bool
    @Flag(help: "Print JSON Lines, one object per event.")
    var json: Bool
    @Option(
      valueName: "n",
      help:
        "Read parts of the journal on this many threads when --where scans it in parts (default: the cores); taken and unused without --where.",
      transform: Jobs.parse)
    var jobs: Int?

    func run(_ context: Context) throws {
      // Without a condition the events are written in one pass on one thread: --jobs is
      // taken (checked) and unused, so that a script may give it to every command.
      let command = LogCommand(
        from: from, to: to,
        kinds: type.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }.map(
          String.init),
        outcomes: Set(outcome.joined()), condition: condition,
        changes: changes, json: json, jobs: Jobs.count(jobs), context: context)
      try registry.open(journal, warnings: context.stderr, command)
    }
  }
}

/// `--outcome`: one of the names of ``Outcome``.
/// One `--outcome`: an outcome, or several separated by commas.
private func parseOutcomes(_ text: String) throws(InvalidValue) -> [String] {
  let names = ["applied", "unchanged", "rejected"]
  let outcomes = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
  for outcome in outcomes {
    if let problem = choiceProblem(outcome, among: names, what: "outcome") {
      throw InvalidValue(problem)
    }
  }
  return outcomes
}

struct LogCommand: TimelineVisitor {
  let from: PointArgument
  let to: PointArgument
  let kinds: [String]
  var outcomes: Set<String> = []
  var condition: WrittenCondition?
  var changes = false
  let json: Bool
  /// The threads `--where` may read parts of the journal on.
  var jobs = 1
  let context: Context
  /// Whether the lines are written by this command's own generic code (`render` below),
  /// as every line was before the domain's specialised writer (`Timeline.writeLogLines`):
  /// the definition the tests compare that writer's bytes with.
  var printsByReference = false

  func visit<D: RecordableDomain>(_ timeline: Timeline<D>) throws {
    let domain = timeline.domain
    // A domain that does not list its kinds takes any name (and matches only real ones).
    for kind in kinds where !D.eventKinds.isEmpty {
      try requireChoice(kind, among: D.eventKinds, for: "--type <kind>", what: "event kind")
    }
    var evaluator: ConditionEvaluator<D>?
    if let condition { evaluator = try conditionEvaluator(condition, in: domain) }
    let range = try timeline.resolveRange(from: from, to: to)
    let (first, last) = (range.from + 1, range.to)
    // The state before the next event: what `--changes` compares with (without
    // `--where`, whose pass keeps it itself).
    var previous: D.State? =
      changes && evaluator == nil ? try timeline.state(after: min(first - 1, last)) : nil
    var previousSequence = first - 1
    let wanted = Set(kinds)
    let style = context.stdout.style
    let width = max(String(last).count, 3)
    let progress = context.progress("Reading events")
    var shown = 0
    let (wantedOutcomes, changes, json) = (outcomes, changes, json)
    // The lines of an event that passed the condition (if any), as one text (what the
    // parts of --jobs hold: a string an event); nil when it does not pass the other
    // filters. Called on the thread that replayed the event.
    let render: @Sendable (ReplayedEvent<D>, FieldSet, D.State?, D.State) -> String? = {
      replayed, changed, before, state in
      let kind = domain.eventKind(replayed.event)
      guard wanted.isEmpty || wanted.contains(kind) else { return nil }
      guard let outcome = replayed.outcome else { return nil }
      guard wantedOutcomes.isEmpty || wantedOutcomes.contains(outcome.name) else { return nil }
      let changeList = changes ? changedFields(changed, from: before, to: state, in: domain) : []
      if json {
        return logJSONLine(
          sequence: replayed.sequence, time: replayed.time, event: replayed.event,
          outcome: outcome, changes: changes ? changeList : nil, in: domain)
      }
      // `   12    +1.234s  description (padded to 50 columns) applied`, appended as bytes:
      // the sequence and the time right-aligned (both ASCII: a byte a column).
      var lines: [UInt8] = []
      lines.reserveCapacity(128)
      Format.appendDigits(replayed.sequence, to: &lines)
      if lines.count < width {
        lines.insert(contentsOf: repeatElement(0x20, count: width - lines.count), at: 0)
      }
      lines.append(contentsOf: "  ".utf8)
      style.append(.dim, to: &lines) {
        let start = $0.count
        Format.appendOffset(replayed.time, to: &$0)
        let written = $0.count - start
        if written < 10 {
          $0.insert(contentsOf: repeatElement(0x20, count: 10 - written), at: start)
        }
      }
      lines.append(contentsOf: "  ".utf8)
      let description = domain.shownDescription(replayed.event)
      lines.append(contentsOf: description.utf8)
      let missing = 50 - TerminalText.width(description)
      if missing > 0 { lines.append(contentsOf: repeatElement(0x20, count: missing)) }
      lines.append(UInt8(ascii: " "))
      let look: Style.Look =
        switch outcome {
        case .applied: .green
        case .unchanged: .dim
        case .rejected: .red
        }
      style.append(look, to: &lines) { $0.append(contentsOf: outcome.summary.utf8) }
      let indent = String(repeating: " ", count: width + 2)
      for change in changeList {
        let old = change.old.map { TerminalText.escaped($0.compactText) + " → " } ?? "→ "
        lines.append(
          contentsOf:
            "\n\(indent)\(TerminalText.escaped(change.path)): \(style.red(old))\(style.green(TerminalText.escaped(change.new.compactText)))"
            .utf8)
      }
      return String(decoding: lines, as: UTF8.self)
    }
    func emit(_ lines: String) {
      shown += 1
      context.stdout.print(lines)
    }
    // Where events lost to damage were, a line says so in the list (in text; JSON Lines
    // has events alone, and the warning on standard error says it for both): those after
    // the range's first event (one that starts among them is refused by the replay), up to
    // its end.
    let lost =
      json || first > last
      ? []
      : timeline.lostEvents(in: range.from...range.to).filter { $0.lowerBound >= first }.map {
        $0.clamped(to: first...last)
      }
    func markLost(_ range: ClosedRange<UInt64>) {
      context.stdout.print(
        String(repeating: " ", count: width + 2)
          + style.dim("… \(Format.events(range)) lost to damage, not shown …"))
    }
    let total = last >= first ? Int(last - first + 1) : 0
    if !printsByReference {
      // The lines written by the domain's specialised loop, a batch of bytes at a time: a
      // run for each part of the range between lost events, a line for them between.
      var start = first
      for gap in lost + [nil] {
        let end = gap.map { $0.lowerBound - 1 } ?? last
        if start <= end {
          let lines = LogLines(
            json: json, styling: style.styling, width: width, outcomes: wantedOutcomes,
            kinds: wanted, first: start, last: end, changes: changes,
            eachLine: context.stdout.flushesEveryWrite)
          let before = Int(start - first)
          _ = try timeline.writeLogLines(lines, where: evaluator, jobs: jobs) { done in
            progress.update(before + Int(done), of: total)
          } emit: { bytes, count in
            shown += count
            context.stdout.write(utf8Lines: bytes)
          }
        }
        guard let gap else { break }
        markLost(gap)
        start = gap.upperBound + 1
      }
    } else if let evaluator {
      // The condition is checked in the domain's specialised scan, which hands out only
      // the events after which it holds.
      let update = { (done: UInt64) in progress.update(Int(done), of: total) }
      _ = try timeline.events(
        from: first, through: last, where: evaluator, keepingPrevious: changes, jobs: jobs,
        progress: update,
        render: { logged, state in render(logged.event, logged.changed, logged.before, state) },
        { lines in
          emit(lines)
          return true
        })
    } else {
      var gaps = lost[...]
      _ = try timeline.events(from: first, through: last, crossingLostEvents: true) {
        replayed, changed, state in
        progress.update(Int(replayed.sequence - first), of: total)
        while let gap = gaps.first, gap.upperBound < replayed.sequence {
          markLost(gap)
          gaps.removeFirst()
        }
        var before = previous
        if previous != nil, replayed.sequence != previousSequence + 1 {
          // After events lost to damage: the snapshot stored after them.
          before = try timeline.state(afterLostEventsEndingAt: replayed.sequence - 1)
        }
        if previous != nil {
          previous = state
          previousSequence = replayed.sequence
        }
        if let lines = render(replayed, changed, before, state) { emit(lines) }
        return true
      }
      // Those that end the range, which no event after them marks.
      for gap in gaps { markLost(gap) }
    }
    progress.finish()
    // An empty answer is said in words, except in JSON Lines, where it is no line.
    if shown == 0 && !json {
      let kindsShown = kinds.map { "'\(TerminalText.escaped($0))'" }.joined(separator: " or ")
      context.stdout.print(
        timeline.lastSequence == 0
          ? "The session has no events."
          : first > last
            ? "No events between the two points."
            : kinds.isEmpty && outcomes.isEmpty && condition == nil
              ? "No events in \(Format.events(first...last))."
              : "No events \(filters(kindsShown)) in \(Format.events(first...last)).")
    }
    // The events lost to damage in the range: those the replay crossed, and those at its
    // end, which no replay crosses.
    warnLost(timeline.lostEvents(in: range.from...range.to), in: timeline.path, to: context.stderr)
  }
}

extension LogCommand {
  /// What the filters ask for, in words: `of kind 'itemSelected' rejected after which
  /// split.style == "balanced"`.
  func filters(_ kindsShown: String) -> String {
    var parts: [String] = []
    if !kinds.isEmpty { parts.append("of kind \(kindsShown)") }
    if !outcomes.isEmpty {
      parts.append(outcomes.sorted().joined(separator: " or "))
    }
    if let condition {
      parts.append("after which \(TerminalText.escaped(condition.condition.description))")
    }
    return parts.joined(separator: " ")
  }
}

/// A field an event changed: its path, its value before the event (nil when the state
/// before was not kept) and after it.
struct LoggedChange {
  var path: String
  var old: JSONValue?
  var new: JSONValue

  /// `{"path": …, "old": …, "new": …}`, without `old` when it was not kept.
  var json: JSONValue {
    var members: [(String, JSONValue)] = [("path", .string(path))]
    if let old { members.append(("old", old)) }
    members.append(("new", new))
    return .object(members)
  }
}

/// An event's line of `log --json`: `{"seq":…,"time_us":…,` the event's members, its
/// outcome (and a rejection's reason), and with `changes` its `"changes"` array, written as
/// bytes (`Domain.writeMembers(of:to:)`, no `JSONValue` built for the event): the bytes
/// `logJSONValue` prints as compact text.
func logJSONLine<D: Domain>(
  sequence: UInt64, time: UInt64, event: D.Event, outcome: Outcome<D.Rejection>,
  changes: [LoggedChange]?, in domain: D
) -> String {
  var json = JSONWriter(capacity: 256)
  json.beginObject()
  json.plainKey("seq")
  json.int(Int64(sequence))
  json.plainKey("time_us")
  json.int(Int64(time))
  domain.writeMembers(of: event, to: &json)
  json.plainKey("outcome")
  switch outcome {
  case .applied, .unchanged: json.string(outcome.name)
  case .rejected(let reason):
    json.plainString("rejected")
    json.plainKey("reason")
    json.string("\(reason)")
  }
  if let changes {
    json.plainKey("changes")
    json.beginArray()
    for change in changes {
      json.beginObject()
      json.plainKey("path")
      json.string(change.path)
      if let old = change.old {
        json.plainKey("old")
        json.value(old)
      }
      json.plainKey("new")
      json.value(change.new)
      json.endObject()
    }
    json.endArray()
  }
  json.endObject()
  return json.withBytes { String(decoding: $0, as: UTF8.self) }
}

/// The value whose compact text is an event's line of `log --json`, as it was built before
/// `logJSONLine` (the definition its tests compare with).
func logJSONValue<D: Domain>(
  sequence: UInt64, time: UInt64, event: D.Event, outcome: Outcome<D.Rejection>,
  changes: [LoggedChange]?, in domain: D
) -> JSONValue {
  var members = JSONLines.eventMembers(sequence: sequence, time: time, event: event, in: domain)
  members += outcome.jsonMembers
  if let changes { members.append(("changes", .array(changes.map(\.json)))) }
  return .object(members)
}

/// The fields in `changed`, in field order, with their values before and after.
private func changedFields<D: Domain>(
  _ changed: FieldSet, from before: D.State?, to after: D.State, in domain: D
) -> [LoggedChange] {
  domain.fields.indices.compactMap { index in
    guard changed.contains(index) else { return nil }
    let field = domain.fields[index]
    return LoggedChange(path: field.path, old: before.map(field.value), new: field.value(after))
  }
}
