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
      let destination = try output.map {
        try outputDestination($0, force: force, inputs: [journal])
      }
      let command = ExportCommand(
        from: from, to: to, destination: destination, context: context)
      try registry.open(journal, warnings: context.stderr, command)
    }
  }
}

struct ExportCommand: TimelineVisitor {
  let from: PointArgument
  let to: PointArgument
  /// The file to write; nil for standard output.
  let destination: FileDestination?
  let context: Context

  func visit<D: RecordableDomain>(_ timeline: Timeline<D>) throws {
    let range = try timeline.resolveRange(from: from, to: to)
    let (first, last) = (range.from + 1, range.to)
    // A file appears, complete, only when every line is written.
    let file = try destination.map { try TextFileWriter($0, system: context.fileSystem) }
    let stdout = context.stdout
    let writer = JSONLines.Writer(domain: timeline.domain) { line in
      if let file { try file.write(bytes: line) } else { stdout.write(bytes: line) }
    }
    if let upcast = timeline.upcast {
      context.stderr.print(
        "\(context.stderr.style.yellow("note:")) \(TerminalText.escaped(timeline.path)) has schema \(upcast.from) of '\(D.identifier)'; it is exported upcast to schema \(upcast.to)"
      )
    }
    try writer.write(JSONLines.Header(timeline.header, domain: timeline.domain))
    let progress = context.progress("Exporting")
    let lost = try timeline.events(from: first, through: last, crossingLostEvents: true) {
      replayed, _, _ in
      try writer.write(sequence: replayed.sequence, time: replayed.time, event: replayed.event)
      progress.update(Int(replayed.sequence - first), of: Int(last - first + 1))
      return true
    }
    progress.finish()
    try file?.commit()
    warnLost(lost, in: timeline.path, to: context.stderr)
  }
}
