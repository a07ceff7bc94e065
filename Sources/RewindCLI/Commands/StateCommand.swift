import RewindArguments
import RewindCore

extension RewindTool {
  struct State: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "state", abstract: "Print the state at a point in a session.",
      discussion: """
        With --skip, the state is replayed as if the skipped events had not happened (a \
        counterfactual, like skipping an action in Redux DevTools); the journal is not \
        changed, and the differences from the recorded state are listed after it.
        """)

    let registry: DomainRegistry

    @Argument(help: "The journal to read.")
    var journal: String
    @Option(valueName: "point", help: "The point in the session.")
    var at: PointArgument = .end
    @Option(
      valueName: "seq,...", help: "Sequence numbers of events to leave out.",
      transform: sequenceNumbers)
    var skip: [[UInt64]]
    @Flag(help: "Print the state as JSON.")
    var json: Bool

    func run(_ context: Context) throws {
      let command = StateCommand(
        at: at, skip: Set(skip.joined()), json: json, context: context)
      try registry.open(journal, warnings: context.stderr, command)
    }
  }
}

struct StateCommand: TimelineVisitor {
  let at: PointArgument
  let skip: Set<UInt64>
  let json: Bool
  let context: Context

  func visit<D: RecordableDomain>(_ timeline: Timeline<D>) throws {
    let sequence = try timeline.resolve(at, option: "--at <point>")
    for event in skip where event == 0 || event > sequence {
      let allowed =
        sequence == 0
        ? "no event comes before the point"
        : "only \(Format.events(1...sequence)), before the point, can be skipped"
      throw UsageError(
        .invalidValue, "The value '\(event)' is invalid for '--skip <seq,...>': \(allowed)")
    }
    let state = try timeline.state(after: sequence, skipping: skip)
    let domain = timeline.domain
    if json {
      context.stdout.printJSON(domain.json(state))
      return
    }
    let style = context.stdout.style
    // A time after the last event is the end state: say that it is the last.
    var title = "State after event \(sequence)"
    if sequence == timeline.lastSequence { title += ", the last" }
    if sequence > 0 {
      let time = try timeline.time(of: sequence)
      title += " (\(Format.offset(time)))"
    } else {
      title = "Initial state (before any event)"
    }
    if !skip.isEmpty {
      title += ", skipping " + skip.sorted().map(String.init).joined(separator: ", ")
    }
    context.stdout.print(style.bold(title))
    context.stdout.print()
    context.stdout.print(domain.shownRendering(state))
    guard !skip.isEmpty else { return }
    let changes = domain.diff(try timeline.state(after: sequence), state)
    context.stdout.print()
    if changes.isEmpty {
      context.stdout.print("Same as the recorded state: skipping changed nothing.")
    } else {
      context.stdout.print(
        style.bold("Compared with the recorded state (- recorded, + without the skipped events):"))
      for change in changes { printChange(change, to: context.stdout) }
    }
  }
}

/// `--skip`: sequence numbers separated by commas, `3,5`.
private func sequenceNumbers(_ text: String) throws(InvalidValue) -> [UInt64] {
  try text.split(separator: ",", omittingEmptySubsequences: false).map {
    (part) throws(InvalidValue) in
    guard let value = UInt64(part.trimmingCharacters(in: " ")) else {
      throw InvalidValue("expected sequence numbers separated by commas, e.g. 12,40")
    }
    return value
  }
}

extension Substring {
  func trimmingCharacters(in set: Character) -> Substring {
    var text = self
    while text.first == set { text.removeFirst() }
    while text.last == set { text.removeLast() }
    return text
  }
}

/// Prints a field change as `path`, `  - old`, `  + new`, coloured on a terminal.
func printChange(_ change: FieldChange, to output: Output) {
  let style = output.style
  output.print(style.bold(TerminalText.escaped(change.path)))
  output.print(style.red("  - \(change.old.compactText)"))
  output.print(style.green("  + \(change.new.compactText)"))
}
