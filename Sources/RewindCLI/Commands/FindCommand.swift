import RewindArguments
import RewindCore

extension RewindTool {
  struct Find: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "find", abstract: "Find when a condition on the state first holds or a field changes.",
      discussion: """
        A condition is PATH == VALUE, PATH != VALUE or changed(PATH), e.g. \
        'split.selectedItem == espresso-machines/leva' or 'changed(split.columnVisibility)'. \
        A value is JSON (null, 3, true, "text") or a bare word. Prints the first point where \
        the condition becomes true; with --all, every one.
        """)

    let registry: DomainRegistry

    @Argument(help: "The journal to search.")
    var journal: String
    @Option(
      name: "where", valueName: "condition", help: "The condition.", transform: parseCondition)
    var condition: Condition
    @Flag(help: "List every point, not only the first.")
    var all: Bool
    @Flag(help: "Print JSON.")
    var json: Bool

    func run(_ context: Context) throws {
      let command = FindCommand(condition: condition, all: all, json: json, context: context)
      try registry.open(journal, warnings: context.stderr, command)
    }
  }
}

/// `--where`: a condition of the condition language.
private func parseCondition(_ text: String) throws(InvalidValue) -> Condition {
  do throws(RewindError) {
    return try Condition(parsing: text)
  } catch {
    throw InvalidValue("expected \(Condition.syntax)")
  }
}

struct FindCommand: TimelineVisitor {
  let condition: Condition
  let all: Bool
  let json: Bool
  let context: Context

  func visit<D: RecordableDomain>(_ timeline: Timeline<D>) throws {
    let domain = timeline.domain
    try requireChoice(
      condition.path, among: domain.fields.map(\.path), for: "--where <condition>",
      what: "field", shown: condition.description)
    let progress = context.progress("Searching")
    let total = Int(timeline.lastSequence)
    let hits = try timeline.find(condition, all: all) { done in
      progress.update(Int(done), of: total)
    }
    progress.finish()
    if json {
      context.stdout.printJSON(
        .object([
          ("condition", .string(condition.description)),
          (
            "matches",
            .array(
              hits.map { hit in
                var members: [(String, JSONValue)] = [
                  ("seq", .int(Int64(hit.sequence))), ("value", hit.value),
                ]
                if let event = hit.event {
                  members.append(("time_us", .int(Int64(event.time))))
                  members.append(("event", domain.json(event.event)))
                }
                return .object(members)
              })
          ),
        ]))
      return
    }
    let style = context.stdout.style
    let shownCondition = TerminalText.escaped(condition.description)
    guard !hits.isEmpty else {
      context.stdout.print(
        "No point in the session where \(shownCondition)\(isChange ? "" : " becomes true").")
      return
    }
    context.stdout.print(style.bold(shownCondition))
    for hit in hits {
      if let event = hit.event {
        context.stdout.print(
          "  event \(hit.sequence) at \(Format.offset(event.time)): \(style.cyan(domain.shownDescription(event.event)))  \(style.dim("→ \(hit.value.compactText)"))"
        )
      } else {
        context.stdout.print(
          "  at the start (initial state)  \(style.dim("= \(hit.value.compactText)"))")
      }
    }
  }

  var isChange: Bool {
    if case .changed = condition { return true }
    return false
  }
}
