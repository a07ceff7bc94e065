import RewindArguments
import RewindCore
import RewindJournal
import Synchronization

extension RewindTool {
  struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "record", abstract: "Record a scenario script into a journal.",
      discussion: """
        Runs the script's interactions through a live Store, as an app would, and writes \
        the journal. The script format is described in Journals/README.md.
        """)

    let registry: DomainRegistry

    @Argument(help: "The scenario script.")
    var scenario: String
    @Option(short: "o", valueName: "journal", help: "The journal to write.")
    var output: String
    @Option var domain: String?  // its help names the default domain: see init(registry:)
    @Option(
      valueName: "events", help: "Store a snapshot every this many events.",
      transform: parseSnapshotInterval)
    var snapshotInterval: UInt32 = 1024
    @Flag(help: "Replace the journal if it exists.")
    var force: Bool
    @Flag(help: "Print JSON.")
    var json: Bool

    init(registry: DomainRegistry) {
      self.registry = registry
      _domain = Option(
        valueName: "name", help: "The domain of the script (default: \(registry.names[0])).")
    }

    func run(_ context: Context) throws {
      let scenarioPath = scenario
      guard let text = readTextFile(scenarioPath) else {
        throw CommandError(
          "\(scenarioPath): cannot read the scenario script: \(unreadableReason(scenarioPath))")
      }
      let command = RecordCommand(
        scenarioPath: scenarioPath, text: text, output: output,
        interval: snapshotInterval, force: force,
        json: json, context: context)
      try registry.with(domain, command)
    }
  }
}

struct RecordCommand: DomainVisitor {
  let scenarioPath: String
  let text: String
  let output: String
  let interval: UInt32
  let force: Bool
  let json: Bool
  let context: Context

  func visit<D: RecordableDomain>(_ type: D.Type) throws {
    let scenario: Scenario<D>
    do throws(ScenarioError) {
      let directory = scenarioPath.lastIndex(of: "/").map { String(scenarioPath[..<$0]) } ?? "."
      scenario = try D.parseScenario(text, directory: directory.isEmpty ? "/" : directory)
    } catch {
      throw CommandError("\(scenarioPath):\(error.line):\(error.column): \(error.message)")
    }
    try refuseToOverwrite(output, force: force)
    // The store's clock reads the script's time of the event being sent.
    let now = Atomic<UInt64>(0)
    let store = try Store(
      domain: scenario.domain, recordingTo: output,
      session: SessionInfo(
        startTime: scenario.startTime ?? WallClock.now(),
        device: scenario.device ?? "rewind record \(scenarioPath)"),
      options: RecordingOptions(snapshotInterval: interval), replacingExisting: force,
      clock: { now.load(ordering: .relaxed) })
    var rejected = 0
    for timed in scenario.events {
      now.store(timed.time, ordering: .relaxed)
      if store.send(timed.event).isRejected { rejected += 1 }
    }
    try store.close()
    if json {
      context.stdout.printJSON(
        .object([
          ("journal", .string(output)), ("events", .int(Int64(scenario.events.count))),
          ("rejected", .int(Int64(rejected))),
          ("durationMicroseconds", .int(Int64(scenario.events.last?.time ?? 0))),
        ]))
    } else {
      context.stdout.print(
        "Recorded \(Format.count(scenario.events.count, "event")) (\(rejected) rejected) over \(Format.duration(scenario.events.last?.time ?? 0)) to \(output)"
      )
    }
  }
}

/// Fails unless `path` is free or `force` allows replacing it.
func refuseToOverwrite(_ path: String, force: Bool) throws {
  if !force && fileExists(path) {
    throw CommandError("\(path): the file exists; pass --force to replace it")
  }
}

/// `--snapshot-interval`: a number of events the journal allows between snapshots.
func parseSnapshotInterval(_ text: String) throws(InvalidValue) -> UInt32 {
  guard let value = UInt32(text), value >= 1, value <= JournalLimits.maximumSnapshotInterval
  else {
    throw InvalidValue(
      "expected a number of events from 1 to \(JournalLimits.maximumSnapshotInterval)")
  }
  return value
}
