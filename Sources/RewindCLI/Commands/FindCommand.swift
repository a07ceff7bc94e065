import RewindArguments
import RewindCore

extension RewindTool {
  struct Find: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "find", abstract: "Find when a condition on the state first holds or a field changes.",
      discussion: """
        A condition is PATH == VALUE, PATH != VALUE or changed(PATH), e.g. \
        'split.selectedItem == espresso-machines/leva' or 'changed(split.columnVisibility)'; \
        one comparison, no && or ||. A value is JSON (null, 3, true, "two words") or a bare \
        word. The condition is checked against the state's fields before the search: an \
        unknown field, a value of the wrong type, outside an enum or an id the session does \
        not have is an error. Prints the first point where the condition becomes true; with \
        --all, every one.
        """)

    let registry: DomainRegistry

    @Argument(help: "The journal to search.")
    var journal: String
    @Option(
      name: "where", valueName: "condition", help: "The condition.", transform: parseCondition)
    var condition: WrittenCondition
    @Flag(help: "List every point, not only the first.")
    var all: Bool
    @Flag(help: "Print JSON.")
    var json: Bool
    @Option(
      valueName: "n",
      help: "Replay parts of the journal on this many threads (default: the cores).",
      transform: Jobs.parse)
    var jobs: Int?

    func run(_ context: Context) throws {
      let command = FindCommand(
        condition: condition, all: all, json: json, jobs: Jobs.count(jobs), context: context)
      try registry.open(journal, warnings: context.stderr, command)
    }
  }
}

/// `--where`: a condition of the condition language, its syntax checked.
private func parseCondition(_ text: String) throws(InvalidValue) -> WrittenCondition {
  do throws(ConditionError) {
    return try WrittenCondition(parsing: text)
  } catch {
    throw InvalidValue(error.reason)
  }
}

extension ConditionError {
  /// The error with a "did you mean" for a near miss among its choices.
  var reason: String {
    guard suggestion == nil, let near = closestName(to: word, among: choices) else {
      return description
    }
    return description + ". Did you mean '\(near)'?"
  }
}

struct FindCommand: TimelineVisitor {
  let written: WrittenCondition
  let all: Bool
  let json: Bool
  let jobs: Int
  let context: Context

  init(condition: WrittenCondition, all: Bool, json: Bool, jobs: Int = 1, context: Context) {
    self.written = condition
    self.all = all
    self.json = json
    self.jobs = jobs
    self.context = context
  }

  var condition: Condition { written.condition }

  func visit<D: RecordableDomain>(_ timeline: Timeline<D>) throws {
    let domain = timeline.domain
    do throws(ConditionError) {
      _ = try domain.check(written)
    } catch {
      throw UsageError(
        .invalidValue,
        "The value '\(written.text)' is invalid for '--where <condition>': \(error.reason)")
    }
    let progress = context.progress("Searching")
    let total = Int(timeline.lastSequence)
    let hits = try timeline.find(condition, all: all, jobs: jobs) { done in
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
