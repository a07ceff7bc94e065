import RewindArguments
import RewindCore
import RewindJournal

extension RewindTool {
  struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "generate", abstract: "Generate a realistic random session of any size.",
      discussion: """
        A seeded model of a user (bursts of taps and pauses, browsing, scrolling, rotating, \
        some invalid interactions) drives the domain; the same seed writes the same \
        journal, byte for byte. Sessions of any size stream to disk in bounded memory.
        """)

    let registry: DomainRegistry

    @Option(short: "o", valueName: "journal", help: "The journal to write.")
    var output: String
    @Option(valueName: "count", help: "How many events to generate.", transform: parseEventCount)
    var events: UInt64
    @Option(valueName: "number", help: "The random seed.", transform: parseSeed)
    var seed: UInt64 = 1
    @Option var domain: String?  // its help names the default domain: see init(registry:)
    @Option(
      valueName: "events", help: "Store a snapshot every this many events.",
      transform: parseSnapshotInterval)
    var snapshotInterval: UInt32 = 1024
    @Option(valueName: "1-19", help: "The zstd compression level.", transform: parseLevel)
    var level: Int32 = 3
    @Flag(help: "Replace the journal if it exists.")
    var force: Bool
    @Flag(help: "Print JSON.")
    var json: Bool

    init(registry: DomainRegistry) {
      self.registry = registry
      _domain = Option(
        valueName: "name", help: "The domain to simulate (default: \(registry.names[0])).",
        transform: registry.domainName)
    }

    func run(_ context: Context) throws {
      let command = GenerateCommand(
        output: output, count: events, seed: seed,
        interval: snapshotInterval, level: level,
        force: force, json: json, context: context)
      try registry.with(domain, command)
    }
  }
}

/// `--events`: from 1 to ten billion, its digits grouped by threes with `,` or `_` or
/// not at all (`groupedNumber`).
private func parseEventCount(_ text: String) throws(InvalidValue) -> UInt64 {
  guard let value = groupedNumber(text), value > 0, value <= 10_000_000_000 else {
    throw InvalidValue(
      "expected a number of events from 1 to 10,000,000,000 (written 1000000, 1,000,000 or 1_000_000)"
    )
  }
  return value
}

/// `--seed`: any 64-bit number.
private func parseSeed(_ text: String) throws(InvalidValue) -> UInt64 {
  guard let value = UInt64(text) else {
    throw InvalidValue("expected a whole number from 0 to 18446744073709551615 (2^64 - 1)")
  }
  return value
}

/// `--level`: a zstd level from 1 to 19.
private func parseLevel(_ text: String) throws(InvalidValue) -> Int32 {
  guard let value = Int32(text), (1...19).contains(value) else {
    throw InvalidValue("expected a level from 1 to 19")
  }
  return value
}

struct GenerateCommand: DomainVisitor {
  let output: String
  let count: UInt64
  let seed: UInt64
  let interval: UInt32
  let level: Int32
  let force: Bool
  let json: Bool
  let context: Context

  /// The session header of a generated journal depends only on the seed.
  static func session(seed: UInt64) -> SessionInfo {
    var bytes: [UInt8] = []
    var value = seed
    for _ in 0..<2 {
      value = value &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
    return SessionInfo(
      id: SessionID(randomBytes: bytes), startTime: 1_767_225_600_000_000,  // 2026-01-01T00:00:00Z
      device: "rewind generate --seed \(seed)")
  }

  func visit<D: RecordableDomain>(_ type: D.Type) throws {
    guard let simulatable = type as? any SimulatableDomain.Type else {
      throw CommandError(
        "the '\(D.identifier)' domain has no simulated user to generate sessions with; record a scenario script (`rewind record`) or import JSON Lines (`rewind import`) instead"
      )
    }
    try generate(simulatable)
  }

  func generate<D: SimulatableDomain>(_ type: D.Type) throws {
    let destination = try outputDestination(output, force: force, inputs: [])
    let domain = try D.sample
    let options = context.batchRecordingOptions(
      snapshotInterval: interval, compressionLevel: level)
    // The journal appears, complete, when it is closed: a failure (a full disk) leaves
    // the file that was there, even with --force.
    let recorder = try JournalRecorder.create(
      destination, domain: domain, session: Self.session(seed: seed), options: options)
    var user = domain.simulatedUser(seed: seed)
    let progress = context.progress("Generating")
    var rejected: UInt64 = 0
    for index in 0..<count {
      let timed = user.next()!
      if try recorder.record(timed.event, at: timed.time).isRejected { rejected += 1 }
      progress.update(Int(index), of: Int(count))
    }
    try recorder.close()
    progress.finish()
    let size = try JournalReader(path: output).fileSize
    if json {
      context.stdout.printJSON(
        .object([
          ("journal", .string(output)), ("events", .int(Int64(count))),
          ("rejected", .int(Int64(rejected))), ("seed", .int(Int64(bitPattern: seed))),
          ("bytes", .int(Int64(size))),
          ("durationMicroseconds", .int(Int64(recorder.lastTime))),
        ]))
    } else {
      context.stdout.print(
        "Generated \(Format.count(count, "event")) (\(Format.count(rejected)) rejected) over \(Format.duration(recorder.lastTime)) to \(TerminalText.escaped(output)): \(Format.bytes(size)), \(Format.decimal(Double(size) / Double(count), places: 2)) bytes/event"
      )
    }
  }
}
