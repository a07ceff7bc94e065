import RewindCore
import RewindJournal
import Synchronization

extension Command {
  static func record(_ registry: DomainRegistry) -> Command {
    Command(
      name: "record", abstract: "Record a scenario script into a journal.",
      discussion: """
        Runs the script's interactions through a live Store, as an app would, and writes \
        the journal. The script format is described in Journals/README.md.
        """,
      parameters: [
        .argument("scenario", help: "The scenario script."),
        .option(
          "output", short: "o", value: "journal", help: "The journal to write.", required: true),
        .option(
          "domain", value: "name", help: "The domain of the script (default: \(registry.names[0]))."
        ),
        .option(
          "snapshot-interval", value: "events", help: "Store a snapshot every this many events.",
          default: "1024"),
        .flag("force", help: "Replace the journal if it exists."),
        .flag("json", help: "Print JSON."),
      ],
      run: { arguments, context in
        let scenarioPath = arguments.string("scenario")
        guard let text = readTextFile(scenarioPath) else {
          throw CommandError("\(scenarioPath): cannot read the scenario script (no such file?)")
        }
        let command = RecordCommand(
          scenarioPath: scenarioPath, text: text, output: arguments.string("output"),
          interval: try arguments.snapshotInterval(), force: arguments.flag("force"),
          json: arguments.flag("json"), context: context)
        try registry.with(arguments.optionalString("domain"), command)
      })
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

extension ParsedArguments {
  /// `--snapshot-interval`, checked.
  func snapshotInterval() throws(UsageError) -> UInt32 {
    try value("snapshot-interval") { text in
      guard let value = UInt32(text), value >= 1, value <= JournalLimits.maximumSnapshotInterval
      else {
        throw InvalidValue(
          "expected a number of events from 1 to \(JournalLimits.maximumSnapshotInterval)")
      }
      return value
    }
  }
}
