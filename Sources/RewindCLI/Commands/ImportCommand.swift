import RewindArguments
import RewindCore
import RewindJournal

extension RewindTool {
  struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "import", abstract: "Build a journal from events in JSON Lines.",
      discussion: """
        One JSON object per line: {"seq": 1, "time_us": 250000, "event": \
        "categorySelected", "id": "grinders"}, seq counting from 1, time_us never going \
        back. An optional first line {"header": {...}} (as `rewind export` writes it) \
        gives the domain, its settings and the session; without it the session uses the \
        default domain's sample settings. Blank lines are skipped; an unknown key is an \
        error. A bad line stops the import with its line number, and nothing is written.
        """)

    let registry: DomainRegistry

    @Argument(help: "The JSON Lines file, or - for standard input (./- for a file named -).")
    var events: String
    @Option(short: "o", valueName: "journal", help: "The journal to write.")
    var output: String
    @Option(
      valueName: "events",
      help:
        "Store a snapshot every this many events (default: the header's snapshotInterval, else 1024); given, it wins over the header.",
      transform: parseSnapshotInterval)
    var snapshotInterval: UInt32?
    @Flag(help: "Replace the journal if it exists.")
    var force: Bool
    @Flag(help: "Print JSON.")
    var json: Bool

    func run(_ context: Context) throws {
      let destination = try outputDestination(
        output, force: force, inputs: [inputFile(events)])
      let reader = try imported { () throws(TextFileError) in
        try JSONLines.Reader(textInput(events, what: "JSON Lines", context: context))
      }
      if let name = reader.header?.domain, !registry.names.contains(name),
        let line = reader.headerLine
      {
        let known = registry.names.map { "'\($0)'" }.joined(separator: ", ")
        throw CommandError(
          "\(reader.path):\(line): the session's domain '\(name)' is not one this rewind knows (\(known)); nothing was written"
        )
      }
      let command = ImportCommand(
        reader: reader, destination: destination, interval: snapshotInterval, json: json,
        context: context)
      try registry.with(reader.header?.domain, command)
    }
  }
}

/// Runs `body`, adding to a bad line's error that nothing was written.
private func imported<T>(_ body: () throws(TextFileError) -> T) throws -> T {
  do throws(TextFileError) {
    return try body()
  } catch {
    throw importError(error)
  }
}

/// A file's error for `import`, saying that nothing was written; a journal given where its
/// JSON Lines were meant is said to be one.
private func importError(_ error: TextFileError) -> CommandError {
  if error.code == .notText, startsAsJournal(error.path) {
    return CommandError(
      "\(TerminalText.escaped(error.path)) is a journal already, not JSON Lines: `rewind export` writes its events as JSON Lines; nothing was written"
    )
  }
  return CommandError("\(error); nothing was written")
}

struct ImportCommand: DomainVisitor {
  let reader: JSONLines.Reader
  let destination: FileDestination
  /// `--snapshot-interval`, which wins over the header's.
  let interval: UInt32?
  let json: Bool
  let context: Context

  func visit<D: RecordableDomain>(_ type: D.Type) throws {
    let input = reader.path
    // An empty file is no export (one always has its header line): most likely a wrong
    // path, or a redirect that wrote nothing.
    if reader.header == nil, reader.size == 0 {
      throw CommandError(
        "\(TerminalText.escaped(input)) is empty: nothing to import (a JSON Lines file of events, as `rewind export` writes); nothing was written"
      )
    }
    let domain = try imported { () throws(TextFileError) in
      try reader.domain(D.self, default: try D.sample)
    }
    let session = reader.session(
      default: SessionInfo(startTime: WallClock.now(), device: "rewind import \(input)"))
    let options = context.batchRecordingOptions(
      snapshotInterval: interval ?? reader.header?.snapshotInterval ?? 1024)
    // The journal appears at the destination only once every line was good.
    let recorder = try JournalRecorder.create(
      destination, domain: domain, session: session, options: options)
    // The domain's own loop reads and records the events, a batch at a time.
    do {
      let progress = context.progress("Importing")
      defer { progress.finish() }
      try reader.record(into: recorder, domain: domain) { bytes in
        if let size = reader.size { progress.update(bytes, of: size) }
      }
    } catch let error as TextFileError {
      throw importError(error)
    }
    // Only blank lines, or nothing from a pipe: as empty as an empty file (the journal,
    // not closed, is dropped).
    if reader.header == nil, reader.eventCount == 0 {
      let what = reader.bytesRead == 0 ? "is empty" : "holds only blank lines"
      throw CommandError(
        "\(TerminalText.escaped(input)) \(what): nothing to import (a JSON Lines file of events, as `rewind export` writes); nothing was written"
      )
    }
    let count = reader.eventCount
    // A branch's events up to its parent's point are the parent's: it has them all.
    if let parent = reader.header?.parent, parent.sequence > count {
      throw CommandError(
        "\(TerminalText.escaped(input)): the header's \"parent\" says the session shares its first \(Format.count(parent.sequence, "event")) with its parent, but it has \(Format.count(count, "event")); nothing was written"
      )
    }
    try recorder.close()
    if json {
      context.stdout.printJSON(
        .object([("journal", .string(destination.path)), ("events", .int(Int64(count)))]))
    } else {
      context.stdout.print(
        "Imported \(Format.count(count, "event")) from \(TerminalText.escaped(input)) to \(TerminalText.escaped(destination.path))"
      )
    }
  }
}
