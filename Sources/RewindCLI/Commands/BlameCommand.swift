import RewindArguments
import RewindCore

extension RewindTool {
  struct Blame: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "blame", abstract: "Find the event that last changed a state field.",
      discussion: """
        PATH is a field of the state as `rewind state --json` prints it, written with dots \
        (split.selectedItem, menu.selectedIndex).
        """)

    let registry: DomainRegistry

    @Argument(help: "The journal to read.")
    var journal: String
    @Argument(help: "The state field, e.g. split.selectedItem.")
    var path: String
    @Option(valueName: "point", help: "The point to look back from.")
    var at: PointArgument = .end
    @Flag(help: "Print JSON.")
    var json: Bool

    func run(_ context: Context) throws {
      let command = BlameCommand(path: path, at: at, json: json, context: context)
      try registry.open(journal, warnings: context.stderr, command)
    }
  }
}

struct BlameCommand: TimelineVisitor {
  let path: String
  let at: PointArgument
  let json: Bool
  let context: Context

  func visit<D: RecordableDomain>(_ timeline: Timeline<D>) throws {
    let domain = timeline.domain
    try requireField(path, of: domain, for: "<path>")
    let sequence = try timeline.resolve(at, option: "--at <point>")
    let blame = try timeline.blame(path, at: sequence)
    if json {
      var members: [(String, JSONValue)] = [
        ("path", .string(path)), ("at", .int(Int64(sequence))), ("value", blame.value),
      ]
      if let event = blame.event {
        let eventMembers = JSONLines.eventMembers(
          sequence: event.sequence, time: event.time, event: event.event, in: domain)
        members.append(("changedBy", .object(eventMembers)))
      } else {
        members.append(("changedBy", .null))
      }
      context.stdout.printJSON(.object(members))
      return
    }
    let style = context.stdout.style
    context.stdout.print(
      "\(style.bold(TerminalText.escaped(path))) = \(blame.value.compactText) after event \(sequence)"
    )
    if let event = blame.event {
      context.stdout.print(
        "  set by event \(event.sequence) at \(Format.offset(event.time)): \(style.cyan(domain.shownDescription(event.event)))"
      )
    } else {
      context.stdout.print("  its initial value: no event up to \(sequence) changed it")
    }
  }
}
