import RewindCore

extension Command {
  static func find(_ registry: DomainRegistry) -> Command {
    Command(
      name: "find", abstract: "Find when a condition on the state first holds or a field changes.",
      discussion: """
        A condition is PATH == VALUE, PATH != VALUE or changed(PATH), e.g. \
        'split.selectedItem == espresso-machines/leva' or 'changed(split.columnVisibility)'. \
        A value is JSON (null, 3, true, "text") or a bare word. Prints the first point where \
        the condition becomes true; with --all, every one.
        """,
      parameters: [
        .argument("journal", help: "The journal to search."),
        .option("where", value: "condition", help: "The condition.", required: true),
        .flag("all", help: "List every point, not only the first."),
        .flag("json", help: "Print JSON."),
      ],
      run: { arguments, context in
        let condition = try arguments.value("where") { text in
          do throws(RewindError) {
            return try Condition(parsing: text)
          } catch {
            throw InvalidValue("expected \(Condition.syntax)")
          }
        }
        let command = FindCommand(
          condition: condition, all: arguments.flag("all"), json: arguments.flag("json"),
          context: context)
        try registry.open(arguments.string("journal"), warnings: context.stderr, command)
      })
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
    guard !hits.isEmpty else {
      context.stdout.print(
        "No point in the session where \(condition)\(isChange ? "" : " becomes true").")
      return
    }
    context.stdout.print(style.bold(condition.description))
    for hit in hits {
      if let event = hit.event {
        context.stdout.print(
          "  event \(hit.sequence) at \(Format.offset(event.time)): \(style.cyan(domain.describe(event.event)))  \(style.dim("→ \(hit.value.compactText)"))"
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
