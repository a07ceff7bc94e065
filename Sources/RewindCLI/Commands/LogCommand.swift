import RewindArguments
import RewindCore

extension RewindTool {
  struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "log", abstract: "List the events of a session with what the reducer did with them.",
      discussion: """
        One line per event: its sequence number, its time from the session start, the \
        event, and its outcome (applied, unchanged, or rejected with the reason).
        """)

    let registry: DomainRegistry

    @Argument(help: "The journal to read.")
    var journal: String
    @Option(valueName: "point", help: "List events after this point.")
    var from: PointArgument = .start
    @Option(valueName: "point", help: "List events up to this point.")
    var to: PointArgument = .end
    @Option(valueName: "kind", help: "Only events of this kind (e.g. itemSelected).")
    var type: [String]
    @Flag(help: "Print JSON Lines, one object per event.")
    var json: Bool

    func run(_ context: Context) throws {
      let command = LogCommand(from: from, to: to, kinds: type, json: json, context: context)
      try registry.open(journal, warnings: context.stderr, command)
    }
  }
}

struct LogCommand: TimelineVisitor {
  let from: PointArgument
  let to: PointArgument
  let kinds: [String]
  let json: Bool
  let context: Context

  func visit<D: RecordableDomain>(_ timeline: Timeline<D>) throws {
    let domain = timeline.domain
    // A domain that does not list its kinds takes any name (and matches only real ones).
    for kind in kinds where !D.eventKinds.isEmpty {
      try requireChoice(kind, among: D.eventKinds, for: "--type <kind>", what: "event kind")
    }
    let range = try timeline.resolveRange(from: from, to: to)
    let (first, last) = (range.from + 1, range.to)
    let wanted = Set(kinds)
    let style = context.stdout.style
    let width = max(String(last).count, 3)
    let progress = context.progress("Reading events")
    var shown = 0
    let lost = try timeline.events(from: first, through: last, crossingLostEvents: true) {
      replayed, _, _ in
      progress.update(Int(replayed.sequence - first), of: Int(last - first + 1))
      let kind = domain.eventKind(replayed.event)
      guard wanted.isEmpty || wanted.contains(kind) else { return true }
      guard let outcome = replayed.outcome else { return true }
      shown += 1
      if json {
        var members = JSONLines.eventMembers(
          sequence: replayed.sequence, time: replayed.time, event: replayed.event, in: domain)
        members += outcome.jsonMembers
        context.stdout.print(JSONValue.object(members).compactText)
      } else {
        let description = Format.padded(domain.shownDescription(replayed.event), to: 50)
        var outcomeText = outcome.summary
        switch outcome {
        case .applied: outcomeText = style.green(outcomeText)
        case .unchanged: outcomeText = style.dim(outcomeText)
        case .rejected: outcomeText = style.red(outcomeText)
        }
        context.stdout.print(
          "\(Format.rightAligned(String(replayed.sequence), to: width))  \(style.dim(Format.rightAligned(Format.offset(replayed.time), to: 10)))  \(description) \(outcomeText)"
        )
      }
      return true
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
            : kinds.isEmpty
              ? "No events in \(Format.events(first...last))."
              : "No events of kind \(kindsShown) in \(Format.events(first...last)).")
    }
    warnLost(lost, in: timeline.path, to: context.stderr)
  }
}
