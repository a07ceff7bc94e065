import RewindArguments
import RewindCore

extension RewindTool {
  struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "diff", abstract: "Show how the state differs between two points.",
      discussion: """
        Either two points of one session (`rewind diff s.journal --from 10 --to +30s`, the \
        earlier first) or points of two sessions (`rewind diff a.journal@end b.journal@end`). \
        A file whose name contains @ is that file when it exists: `a@b.journal` is the \
        journal a@b.journal at its end, `a@b.journal@12` the same at event 12. Each field \
        that differs is printed with its old value (-) and its new value (+).
        """)

    let registry: DomainRegistry

    @Argument(name: "journal", help: "The journal, or two journals written JOURNAL@POINT.")
    var journals: [String]
    @Option(valueName: "point", help: "The first point (one journal).")
    var from: PointArgument = .start
    @Option(valueName: "point", help: "The second point (one journal).")
    var to: PointArgument = .end
    @Flag(help: "Also list the events between the two points.")
    var events: Bool
    @Flag(help: "Print JSON.")
    var json: Bool

    func run(_ context: Context) throws {
      switch journals.count {
      case 1:
        try registry.open(
          journals[0], warnings: context.stderr,
          DiffCommand(
            from: from, to: to,
            events: events, json: json, context: context))
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
            left: left, right: right, registry: registry, json: json, context: context))
      default:
        throw UsageError(
          .unexpectedArgument, "Expected one journal, or two written JOURNAL@POINT")
      }
    }
  }
}

/// `path@point`; the point defaults to `end`. An existing file whose name contains `@`
/// is read as that file, not as a path and a point.
struct JournalAtPoint {
  var path: String
  var point: PointArgument

  init(_ text: String) throws {
    guard !fileExists(text), let at = text.lastIndex(of: "@") else {
      path = text
      point = try! PointArgument("end")
      return
    }
    path = String(text[..<at])
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
  let context: Context

  func visit<D: RecordableDomain>(_ timeline: Timeline<D>) throws {
    let (first, second) = try timeline.resolveRange(from: from, to: to)
    let changes = timeline.domain.diff(
      try timeline.state(after: first), try timeline.state(after: second))
    var listed: [(ReplayedEvent<D>, FieldSet)] = []
    if events && second > first {
      try timeline.events(from: first + 1, through: second) { event, changed, _ in
        listed.append((event, changed))
        return true
      }
    }
    if json {
      var members: [(String, JSONValue)] = [
        ("from", .int(Int64(first))), ("to", .int(Int64(second))),
        ("changes", .array(changes.map(\.json))),
      ]
      if events {
        members.append(
          (
            "events",
            .array(
              listed.map { event, changed in
                var object = JSONLines.eventMembers(
                  sequence: event.sequence, time: event.time, event: event.event,
                  in: timeline.domain)
                object += event.outcome?.jsonMembers ?? []
                object.append(
                  ("changed", .array(timeline.domain.paths(of: changed).map(JSONValue.string))))
                return .object(object)
              })
          ))
      }
      context.stdout.printJSON(.object(members))
      return
    }
    printChanges(changes, between: "event \(first)", and: "event \(second)", to: context.stdout)
    if events {
      context.stdout.print()
      context.stdout.print(
        context.stdout.style.bold(
          listed.isEmpty
            ? "No events in between." : Format.capitalized(Format.events(first + 1...second)) + ":")
      )
      for (event, changed) in listed {
        let paths = timeline.domain.paths(of: changed)
        let effect =
          paths.isEmpty ? event.outcome?.summary ?? "" : "changed " + paths.joined(separator: ", ")
        context.stdout.print(
          "  \(event.sequence)  \(Format.offset(event.time))  \(timeline.domain.shownDescription(event.event))  \(context.stdout.style.dim(TerminalText.escaped(effect)))"
        )
      }
    }
  }
}

/// Compares states of two journals of one domain.
struct TwoJournalDiff: TimelineVisitor {
  let left: JournalAtPoint
  let right: JournalAtPoint
  let registry: DomainRegistry
  let json: Bool
  let context: Context

  func visit<D: RecordableDomain>(_ first: Timeline<D>) throws {
    let second = try Timeline<D>(path: right.path)
    second.warnOfUntrustedSnapshots(to: context.stderr)
    let leftState = try first.state(after: first.resolve(left.point, option: "<journal>"))
    let rightState = try second.state(after: second.resolve(right.point, option: "<journal>"))
    // Compare as JSON so that two sessions with different catalogs compare by ids.
    let changes = first.domain.fields.indices.compactMap { index -> FieldChange? in
      let old = first.domain.fields[index].value(leftState)
      let new = second.domain.fields[index].value(rightState)
      return old == new
        ? nil : FieldChange(path: first.domain.fields[index].path, old: old, new: new)
    }
    if json {
      context.stdout.printJSON(
        .object([
          ("from", .string("\(left.path)@\(left.point)")),
          ("to", .string("\(right.path)@\(right.point)")),
          ("changes", .array(changes.map(\.json))),
        ]))
      return
    }
    printChanges(
      changes, between: "\(left.path)@\(left.point)", and: "\(right.path)@\(right.point)",
      to: context.stdout)
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
