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
        default domain's sample settings. A bad line stops the import with its line \
        number, and nothing is written.
        """)

    let registry: DomainRegistry

    @Argument(help: "The JSON Lines file (- for standard input is not supported).")
    var events: String
    @Option(short: "o", valueName: "journal", help: "The journal to write.")
    var output: String
    @Option(
      valueName: "events", help: "Store a snapshot every this many events.",
      transform: parseSnapshotInterval)
    var snapshotInterval: UInt32 = 1024
    @Flag(help: "Replace the journal if it exists.")
    var force: Bool
    @Flag(help: "Print JSON.")
    var json: Bool

    func run(_ context: Context) throws {
      let input = events
      let lines = try LineReader(path: input)
      try refuseToOverwrite(output, force: force)
      // The header line, if any, names the domain.
      var first = try lines.next()
      var header: JSONValue?
      if let line = first, let value = try? JSONValue(parsing: line), let object = value["header"] {
        header = object
        first = nil
      }
      let command = ImportCommand(
        input: input, lines: lines, pending: first, header: header, output: output,
        interval: snapshotInterval, force: force,
        json: json, context: context)
      try registry.with(header?["domain"]?.stringValue, command)
    }
  }
}

struct ImportCommand: DomainVisitor {
  let input: String
  let lines: LineReader
  let pending: String?
  let header: JSONValue?
  let output: String
  let interval: UInt32
  let force: Bool
  let json: Bool
  let context: Context

  func fail(_ line: Int, _ message: String) -> CommandError {
    CommandError("\(input):\(line): \(message); nothing was written")
  }

  func visit<D: RecordableDomain>(_ type: D.Type) throws {
    var domain = D.sample
    var session = SessionInfo(startTime: WallClock.now(), device: "rewind import \(input)")
    var interval = self.interval
    if let header {
      var schema = D.schemaVersion
      if let value = header["schemaVersion"]?.intValue {
        schema = UInt32(clamping: value)
        do throws(RewindError) {
          try D.checkReadable(schemaVersion: schema)
        } catch {
          throw fail(1, error.message)
        }
      }
      if let device = header["device"]?.stringValue { session.device = device }
      if let settings = header["settings"] {
        do throws(DomainError) {
          // An older schema's settings and events are upcast; the journal is current.
          domain = try D(settingsJSON: settings, schemaVersion: schema, device: session.device)
        } catch {
          throw fail(1, "the header's settings are invalid: \(error)")
        }
      }
      if let text = header["start"]?.stringValue {
        guard let start = ISO8601.parse(text) else {
          throw fail(1, "\"start\" is not an ISO-8601 time")
        }
        session.startTime = start
      }
      if let text = header["session"]?.stringValue {
        guard let id = SessionID(parsing: text) else { throw fail(1, "\"session\" is not a UUID") }
        session.id = id
      }
      if let value = header["snapshotInterval"]?.intValue, value >= 1,
        value <= Int64(JournalLimits.maximumSnapshotInterval)
      {
        interval = UInt32(value)
      }
    }
    // Write beside the destination and move into place only when every line was good.
    let temporary = output + ".importing-\(processID)"
    removeFile(temporary)
    var succeeded = false
    defer { if !succeeded { removeFile(temporary) } }
    let recorder = try JournalRecorder.create(
      at: temporary, domain: domain, session: session,
      options: RecordingOptions(snapshotInterval: interval, journal: .init(durability: .flushOnly)))
    var lineNumber = header == nil ? 0 : 1
    var expectedSequence: UInt64 = 1
    var lastTime: UInt64 = 0
    var next = pending
    if next == nil { next = try lines.next() }
    while let line = next {
      lineNumber += 1
      defer { next = try? lines.next() }
      if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
      let object: JSONValue
      do throws(JSONParseError) {
        object = try JSONValue(parsing: line)
      } catch {
        throw fail(lineNumber, "not JSON: column \(error.column): \(error.message)")
      }
      guard case .object = object else { throw fail(lineNumber, "expected a JSON object") }
      guard let sequence = object["seq"]?.intValue else {
        throw fail(lineNumber, "missing \"seq\" (an integer)")
      }
      guard sequence == Int64(expectedSequence) else {
        throw fail(
          lineNumber,
          "\"seq\" is \(sequence), expected \(expectedSequence) (seq counts from 1 without gaps)")
      }
      guard let time = object["time_us"]?.intValue, time >= 0 else {
        throw fail(lineNumber, "missing \"time_us\" (microseconds since the session start, ≥ 0)")
      }
      guard UInt64(time) >= lastTime else {
        throw fail(lineNumber, "\"time_us\" \(time) is before the previous event's \(lastTime)")
      }
      let event: D.Event
      do throws(DomainError) {
        event = try domain.event(fromJSON: object)
      } catch {
        throw fail(lineNumber, error.message)
      }
      try recorder.record(event, at: UInt64(time))
      expectedSequence += 1
      lastTime = UInt64(time)
    }
    try lines.check()
    try recorder.close()
    try Journal.moveIntoPlace(temporary, to: output, replacing: force)
    succeeded = true
    let count = expectedSequence - 1
    if json {
      context.stdout.printJSON(
        .object([("journal", .string(output)), ("events", .int(Int64(count)))]))
    } else {
      context.stdout.print("Imported \(Format.count(count, "event")) from \(input) to \(output)")
    }
  }
}
