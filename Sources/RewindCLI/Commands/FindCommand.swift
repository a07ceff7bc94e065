import RewindArguments
import RewindCore

extension RewindTool {
  struct Find: RangeCommand {
    static let configuration = CommandConfiguration(
      name: "find",
      abstract: "Find where a condition on the state or the events becomes true.",
      discussion: """
        A condition compares fields of the state (PATH == VALUE, !=, <, <=, >, >= on \
        numbers, PATH contains VALUE for a list or a string; a boolean field alone, \
        split.overlay, is PATH == true), asks whether an event changed \
        a field (changed(PATH)) or looks at the event itself (event == categorySelected, \
        outcome == rejected, reason contains "category"); && , || , ! and parentheses \
        combine them, e.g. 'split.style == balanced && !(menu.selectedIndex < 2)'. A value is \
        JSON (null, 3, true, "two words") or a bare word. The condition is checked against \
        the state's fields before the search: an unknown field, a value of the wrong type, \
        outside an enum, an id or a menu label the session does not have is an error, with a \
        suggestion. \
        A condition on the state matches where it becomes true (and at the start of the \
        search when it holds there); one that names the event matches after every event \
        where it holds. Prints the first match; with --all, every one; with --last, the last \
        one, searching backwards from --to; with --count, only how many there are. No \
        match is no failure: find says so and exits 0 (a script reads --count, or the \
        matches of --json). See \
        'rewind help conditions' for the whole language. In a journal salvaged by `rewind \
        recover --salvage`, the search goes on past the events lost to damage, from the \
        snapshot stored after them, as `rewind log` does, and a warning names the lost \
        events it could not see.
        """,
      exitStatuses: [
        ExitStatusHelp(
          "0",
          "Also when nothing matches: --count, or the matches of --json, say how many.")
      ],
      // The first match is the default: there is no --first to give.
      unknownOptionHints: [
        "--first":
          "find shows the first match by default; --last for the last, --all for every one"
      ])

    let registry: DomainRegistry

    @Argument(help: "The journal to search.")
    var journal: String
    @Option(
      name: "where", valueName: "condition",
      help: "The condition to find, e.g. 'split.style == balanced' (rewind help conditions).",
      transform: parseCondition)
    var condition: WrittenCondition
    @Option(
      valueName: "point",
      help: "Search from this point (it matches when a condition on the state holds there).")
    var from: PointArgument = .start
    @Option(valueName: "point", help: "Search up to this point.")
    var to: PointArgument = .end
    @Flag(help: "List every match, not only the first.")
    var all: Bool
    @Flag(help: "The last match up to --to, searching backwards.")
    var last: Bool
    @Flag(help: "Print only the number of matches.")
    var count: Bool
    @Flag(help: "Print JSON.")
    var json: Bool
    @Option(
      valueName: "n",
      help:
        "Replay parts of the journal on this many threads when the search scans it in parts (default: the cores); taken and unused with --last, which searches backwards on one thread.",
      transform: Jobs.parse)
    var jobs: Int?

    func run(_ context: Context) throws {
      let modes = [("--all", all), ("--last", last), ("--count", count)].filter(\.1).map(\.0)
      guard modes.count <= 1 else {
        throw UsageError("\(modes.joined(separator: " and ")) cannot be used together")
      }
      // --last searches backwards from --to one interval at a time, on one thread
      // (Timeline.findLast takes no job count): --jobs is taken (checked) and unused, so
      // that a script may give it to every command.
      let mode: FindCommand.Mode = all ? .all : last ? .last : count ? .count : .first
      let command = FindCommand(
        condition: condition, mode: mode, from: from, to: to, json: json,
        jobs: Jobs.count(jobs), context: context)
      try registry.open(journal, warnings: context.stderr, command)
    }
  }
}

/// `--where` of find, log and shrink: a condition of the condition language, its syntax
/// checked (its fields are checked with the journal's domain, by ``conditionEvaluator(_:in:)``).
func parseCondition(_ text: String) throws(InvalidValue) -> WrittenCondition {
  do throws(ConditionError) {
    return try WrittenCondition(parsing: text)
  } catch {
    throw InvalidValue(error.reason)
  }
}

/// The evaluator of a `--where` condition, checked against the domain's fields: a usage
/// error naming the condition as written, the column and a "did you mean" when it does
/// not fit them.
func conditionEvaluator<D: Domain>(
  _ written: WrittenCondition, in domain: D
) throws -> ConditionEvaluator<D> {
  do throws(ConditionError) {
    return try ConditionEvaluator(written, in: domain)
  } catch {
    throw UsageError(
      .invalidValue,
      "The value \(Format.quoted(written.text)) is invalid for '--where <condition>': \(error.reason)"
    )
  }
}

extension ConditionError {
  /// The error with a "did you mean" for a near miss among its choices.
  var reason: String {
    guard suggestion == nil, let near = meant else { return description }
    return description + ". Did you mean '\(near)'?"
  }
}

struct FindCommand: TimelineVisitor {
  /// What to print: the first match, every one, the last one, or how many.
  enum Mode {
    case first, all, last, count
  }

  let written: WrittenCondition
  let mode: Mode
  let from: PointArgument
  let to: PointArgument
  let json: Bool
  let jobs: Int
  let context: Context
  /// Whether `--all`'s matches are printed by ``MatchPrinter`` one hit at a time, as before
  /// the domain's specialised writer (`Timeline.writeMatches`): the definition the tests
  /// compare that writer's bytes with.
  var printsByReference = false

  init(
    condition: WrittenCondition, mode: Mode, from: PointArgument = .start,
    to: PointArgument = .end, json: Bool, jobs: Int = 1, context: Context
  ) {
    self.written = condition
    self.mode = mode
    self.from = from
    self.to = to
    self.json = json
    self.jobs = jobs
    self.context = context
  }

  var condition: Condition { written.condition }

  func visit<D: RecordableDomain>(_ timeline: Timeline<D>) throws {
    let evaluator = try conditionEvaluator(written, in: timeline.domain)
    let range = try timeline.resolveRange(from: from, to: to)
    let progress = context.progress("Searching")
    let total = Int(range.to - range.from)
    if mode == .count {
      // Counted as found, not collected: memory stays flat however many there are.
      let count = try timeline.count(condition, in: range.from...range.to, jobs: jobs) { done in
        progress.update(Int(done), of: total)
      }
      progress.finish()
      let lost = timeline.lostEvents(in: range.from...range.to)
      if json {
        var members: [(String, JSONValue)] = [
          ("condition", .string(condition.description)), ("count", .int(Int64(count))),
        ]
        if !lost.isEmpty { members.append(("lostEvents", .array(lost.map(BlameCommand.json)))) }
        context.stdout.printJSON(.object(members))
      } else {
        context.stdout.print(String(count))
      }
      warnLost(lost, in: timeline.path, to: context.stderr)
      return
    }
    let printer = MatchPrinter(
      timeline: timeline, evaluator: evaluator, condition: condition, range: range,
      json: json, output: context.stdout)
    // In a salvaged journal the search goes on past events lost to damage, and says so.
    var searched = range.from...range.to
    if mode == .all && !printsByReference {
      // Written by the domain's specialised loop as found, a batch of bytes at a time (a
      // match at a time on a terminal, which shows each as it is found; a part's at its end
      // with --jobs): memory does not grow with the number of matches.
      let lines = MatchLines(
        json: json, styling: context.stdout.style.styling, showsValue: printer.showsValue,
        eachLine: context.stdout.flushesEveryWrite)
      try timeline.writeMatches(condition, in: range.from...range.to, lines, jobs: jobs) { done in
        progress.update(Int(done), of: total)
      } emit: {
        printer.add(written: $0, count: $1)
      }
    } else if mode == .all {
      // Printed as found: memory does not grow with the number of matches.
      try timeline.forEachMatch(condition, in: range.from...range.to, jobs: jobs) { done in
        progress.update(Int(done), of: total)
      } _: {
        printer.add($0)
      }
    } else {
      let hits =
        mode == .last
        ? try timeline.findLast(condition, in: range.from...range.to) { searched in
          progress.update(Int(searched), of: total)
        }.map { [$0] } ?? []
        : try timeline.find(condition, in: range.from...range.to, all: false, jobs: jobs) {
          done in progress.update(Int(done), of: total)
        }
      hits.forEach(printer.add)
      // The events lost to damage the answer depends on: those searched before the first
      // point (after the last, searching backwards); all of them when there is none.
      if let hit = hits.first {
        searched = mode == .last ? hit.sequence...range.to : range.from...hit.sequence
      }
    }
    progress.finish()
    let lost = timeline.lostEvents(in: searched)
    printer.end(lost: lost)
    warnLost(lost, in: timeline.path, to: context.stderr)
  }
}

/// Prints the points `find` found, one at a time as they come, in text or as the JSON
/// object `{"condition": …, "matches": […]}` (byte for byte its pretty text).
private final class MatchPrinter<D: Domain> {
  let domain: D
  let condition: Condition
  let showsValue: Bool
  let isAboutEvents: Bool
  let noPointPlace: String
  let json: Bool
  let output: Output
  /// The last match's JSON text (its UTF-8 bytes), printed once it is known whether
  /// another follows; empty before the first match.
  private var pending: [UInt8] = []
  /// Whether the matches were written by `add(written:count:)` (their JSON elements
  /// ended, but for the last one's line feed).
  private var wroteElements = false
  /// The text line being written, its buffer reused from match to match.
  private var line: [UInt8] = []
  private var count = 0

  init(
    timeline: Timeline<D>, evaluator: ConditionEvaluator<D>, condition: Condition,
    range: (from: UInt64, to: UInt64), json: Bool, output: Output
  ) {
    domain = timeline.domain
    self.condition = condition
    showsValue = !evaluator.compiled.fields.isEmpty
    isAboutEvents = evaluator.isAboutEvents
    noPointPlace =
      range.from == 0 && range.to == timeline.lastSequence
      ? "in the session" : "from event \(range.from) to \(range.to)"
    self.json = json
    self.output = output
  }

  func add(_ hit: FindHit<D>) {
    defer { count += 1 }
    if json {
      if count == 0 {
        output.print("{")
        output.print("  \"condition\": \(JSONValue.string(condition.description).compactText),")
        output.print("  \"matches\": [")
      }
      if !pending.isEmpty {
        pending.append(UInt8(ascii: ","))
        output.print(utf8: pending)
      }
      pending.removeAll(keepingCapacity: true)
      pending.append(contentsOf: "    ".utf8)
      Self.jsonMatch(hit, showsValue, domain).appendPretty(level: 2, to: &pending)
      return
    }
    let style = output.style
    if count == 0 { output.print(style.bold(TerminalText.escaped(condition.description))) }
    if let event = hit.event {
      // `  event 12 at +1.234s: description (rejected)  → value`, appended as bytes.
      line.removeAll(keepingCapacity: true)
      line.append(contentsOf: "  event ".utf8)
      Format.appendDigits(hit.sequence, to: &line)
      line.append(contentsOf: " at ".utf8)
      Format.appendOffset(event.time, to: &line)
      line.append(contentsOf: ": ".utf8)
      let description = domain.shownDescription(event.event)
      style.append(.cyan, to: &line) { $0.append(contentsOf: description.utf8) }
      if event.outcome?.isRejected == true {
        line.append(UInt8(ascii: " "))
        style.append(.dim, to: &line) { $0.append(contentsOf: "(rejected)".utf8) }
      }
      if showsValue {
        line.append(contentsOf: "  ".utf8)
        style.append(.dim, to: &line) {
          $0.append(contentsOf: "→ ".utf8)
          hit.value.appendCompact(to: &$0)
        }
      }
      output.print(utf8: line)
      return
    }
    if hit.sequence == 0 {
      output.print("  at the start (initial state)  \(style.dim("= \(hit.value.compactText)"))")
    } else {
      output.print(
        "  at event \(hit.sequence) (the start of the search)  \(style.dim("= \(hit.value.compactText)"))"
      )
    }
  }

  /// Prints matches written as bytes by `Timeline.writeMatches`: `count` text lines, or
  /// `count` JSON elements each after `,\n` (dropped before the first).
  func add(written bytes: UnsafeRawBufferPointer, count added: Int) {
    guard added > 0 else { return }
    var bytes = bytes
    if count == 0 {
      if json {
        output.print("{")
        output.print("  \"condition\": \(JSONValue.string(condition.description).compactText),")
        output.print("  \"matches\": [")
        bytes = UnsafeRawBufferPointer(rebasing: bytes.dropFirst(2))
        wroteElements = true
      } else {
        output.print(output.style.bold(TerminalText.escaped(condition.description)))
      }
    }
    count += added
    output.write(utf8Lines: bytes)
  }

  /// Ends the output: the JSON object closed, with the events lost to damage the answer
  /// may lack (`lostEvents`, when there are some), or the sentence saying there was no
  /// match.
  func end(lost: [ClosedRange<UInt64>] = []) {
    if json {
      // `  ],` then the member, laid out as the rest of the object is (two spaces in).
      let lostValue = JSONValue.array(lost.map(BlameCommand.json)).prettyText
      let lostMember =
        lost.isEmpty
        ? "" : ",\n  \"lostEvents\": " + lostValue.split(separator: "\n").joined(separator: "\n  ")
      if wroteElements {
        output.print()
        output.print("  ]" + lostMember)
        output.print("}")
        return
      }
      guard !pending.isEmpty else {
        var members: [(String, JSONValue)] = [
          ("condition", .string(condition.description)), ("matches", .array([])),
        ]
        if !lost.isEmpty { members.append(("lostEvents", .array(lost.map(BlameCommand.json)))) }
        output.printJSON(.object(members))
        return
      }
      output.print(utf8: pending)
      output.print("  ]" + lostMember)
      output.print("}")
      return
    }
    guard count == 0 else { return }
    output.print(
      "No point \(noPointPlace) where \(TerminalText.escaped(condition.description))\(isAboutEvents ? " holds" : " becomes true")."
    )
  }

  private static func jsonMatch(_ hit: FindHit<D>, _ showsValue: Bool, _ domain: D) -> JSONValue {
    var members: [(String, JSONValue)] = [("seq", .int(Int64(hit.sequence)))]
    if showsValue { members.append(("value", hit.value)) }
    if let event = hit.event {
      members.append(("time_us", .int(Int64(event.time))))
      members.append(("event", domain.json(event.event)))
      if let outcome = event.outcome { members += outcome.jsonMembers }
    }
    return .object(members)
  }
}
