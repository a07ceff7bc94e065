import RewindArguments
import RewindCore
import RewindJournal

extension RewindTool {
  struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "export", abstract: "Write a session's events as JSON Lines.",
      discussion: """
        The first line is {"header": {...}} with the session's settings; then one object \
        per event: {"seq": 1, "time_us": 250000, "event": "categorySelected", "id": \
        "grinders"}. `rewind import` reads the same format back. A journal of an older \
        schema is written upcast to the current one (and a note on stderr says so).
        """)

    let registry: DomainRegistry

    @Argument(help: "The journal to export.")
    var journal: String
    @Option(valueName: "point", help: "Export events after this point.")
    var from: PointArgument = .start
    @Option(valueName: "point", help: "Export events up to this point.")
    var to: PointArgument = .end
    @Option(
      short: "o", valueName: "file", help: "Write to this file instead of standard output.")
    var output: String?
    @Flag(help: "Replace the output file if it exists.")
    var force: Bool

    func run(_ context: Context) throws {
      let command = ExportCommand(
        from: from, to: to, output: output, force: force, context: context)
      try registry.open(journal, warnings: context.stderr, command)
    }
  }
}

struct ExportCommand: TimelineVisitor {
  let from: PointArgument
  let to: PointArgument
  let output: String?
  let force: Bool
  let context: Context

  func visit<D: RecordableDomain>(_ timeline: Timeline<D>) throws {
    let first = try timeline.resolve(from, option: "--from <point>") + 1
    let last = try timeline.resolve(to, option: "--to <point>")
    guard first <= last + 1 else { throw UsageError("--from (\(from)) is after --to (\(to))") }
    let sink: LineSink
    if let output {
      try refuseToOverwrite(output, force: force)
      sink = try LineSink(file: output)
    } else {
      sink = LineSink(output: context.stdout)
    }
    let header = timeline.header
    if let upcast = timeline.upcast {
      context.stderr.print(
        "\(context.stderr.style.yellow("note:")) \(timeline.path) has schema \(upcast.from) of '\(D.identifier)'; it is exported upcast to schema \(upcast.to)"
      )
    }
    sink.write(
      JSONValue.object([
        (
          "header",
          .object([
            ("domain", .string(header.domain)),
            ("schemaVersion", .int(Int64(D.schemaVersion))),
            ("session", .string(header.sessionID.description)),
            ("start", .string(ISO8601.format(header.startTime))),
            ("device", .string(header.device)),
            ("snapshotInterval", .int(Int64(header.snapshotInterval))),
            ("settings", timeline.domain.settingsJSON),
          ])
        )
      ]).compactText)
    let progress = context.progress("Exporting")
    let lost = try timeline.events(from: first, through: last, crossingLostEvents: true) {
      replayed, _, _ in
      var members: [(String, JSONValue)] = [
        ("seq", .int(Int64(replayed.sequence))), ("time_us", .int(Int64(replayed.time))),
      ]
      if case .object(let fields) = timeline.domain.json(replayed.event) { members += fields }
      sink.write(JSONValue.object(members).compactText)
      progress.update(Int(replayed.sequence - first), of: Int(last - first + 1))
      return true
    }
    progress.finish()
    warnLost(lost, in: timeline.path, to: context.stderr)
    try sink.close()
  }
}
