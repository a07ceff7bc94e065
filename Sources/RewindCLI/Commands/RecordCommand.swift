import RewindArguments
import RewindCore
import RewindJournal
import RewindSpelling

extension RewindTool {
  struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "record", abstract: "Record a scenario script into a journal.",
      discussion: """
        Runs the script's interactions through the domain's reducer, as a live Store \
        would, and writes the journal: it appears complete, or not at all; its `expect` \
        lines are checked first, and nothing is written when one fails. The navigation \
        script is described in Journals/README.md; another domain's (one event per line, \
        as its JSON reads: `stepChanged to=5`) in RewindCore's EventScript documentation.
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
        valueName: "name", help: "The domain of the script (default: \(registry.names[0])).",
        transform: registry.domainName)
    }

    func run(_ context: Context) throws {
      if scenario == "-", !fileExists(scenario) {
        // Read as a file named `-`, it would be reported missing.
        throw UsageError(
          "- is not standard input here; give the path of a scenario script (./- for a file named -; a named pipe, such as <(…), is read to its end)"
        )
      }
      let text: String
      do throws(TextFileError) {
        text = try TextFileReader(
          path: scenario, system: context.fileSystem,
          waiting: { waitingForWriter(scenario, context) }
        ).remainingText()
      } catch {
        if error.code == .notText, startsAsJournal(scenario) {
          throw CommandError(
            "\(TerminalText.escaped(scenario)) is a journal, not a scenario script: `rewind export --scenario \(TerminalText.escaped(Format.shellPath(scenario)))` writes its script"
          )
        }
        // A problem of a line is named with it; one of the file says what was read.
        guard error.line == nil, !scenario.isEmpty else { throw error }
        throw CommandError("\(scenario): cannot read the scenario script: \(error.message)")
      }
      let command = RecordCommand(
        scenarioPath: scenario, text: text, output: output,
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
      let meant = closestName(to: error.word, among: error.choices).map {
        ". Did you mean '\($0)'?"
      }
      // JSON Lines or JSON given for a script (its first line that is not blank is the
      // one refused): said what it reads as, and what takes it.
      let firstLine =
        (text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
          $0.contains { !$0.isWhitespace }
        } ?? 0) + 1
      let hint = error.line == firstLine ? jsonHint(text, path: scenarioPath) ?? "" : ""
      throw CommandError(
        "\(scenarioPath):\(error.line):\(error.column): \(error.message)\(meant ?? "")\(hint)")
    }
    let destination = try outputDestination(
      output, force: force, inputs: [scenarioPath] + scenario.files)
    try checkExpectations(of: scenario)
    let options = context.batchRecordingOptions(snapshotInterval: interval)
    // Each event is reduced and recorded at the script's time of it, as a live Store
    // would; the journal appears, complete, when it is closed.
    let recorder = try JournalRecorder.create(
      destination, domain: scenario.domain,
      session: SessionInfo(
        startTime: scenario.startTime ?? WallClock.now(),
        device: scenario.device ?? "rewind record \(scenarioPath)"),
      options: options)
    var rejected = 0
    for timed in scenario.events {
      if try recorder.record(timed.event, at: timed.time).isRejected { rejected += 1 }
    }
    try recorder.close()
    if json {
      context.stdout.printJSON(
        .object([
          ("journal", .string(output)), ("events", .int(Int64(scenario.events.count))),
          ("rejected", .int(Int64(rejected))),
          ("durationMicroseconds", .int(Int64(scenario.events.last?.time ?? 0))),
        ]))
    } else {
      context.stdout.print(
        "Recorded \(Format.count(scenario.events.count, "event")) (\(rejected) rejected) over \(Format.duration(scenario.events.last?.time ?? 0)) to \(TerminalText.escaped(output))"
      )
    }
  }
}

extension RecordCommand {
  /// Runs the script's events through the reducer and checks its `expect` lines, each
  /// after its event, before anything is written.
  /// - Throws: `CommandError` (exit 1) at the first that fails: the script's line, what
  ///   was expected and found, and what the event changed.
  func checkExpectations<D: Domain>(of scenario: Scenario<D>) throws {
    let expectations = scenario.expectations
    guard !expectations.isEmpty else { return }
    let domain = scenario.domain
    var next = 0
    var state = domain.initialState
    func check(
      after count: Int, _ event: D.Event?, _ outcome: Outcome<D.Rejection>?,
      from before: D.State
    ) throws {
      while next < expectations.count && expectations[next].afterEvents == count {
        let expectation = expectations[next]
        if let failure = expectation.failure(
          domain: domain, event: event, outcome: outcome, before: before, after: state)
        {
          let event =
            count > 0 ? " (after \(domain.describe(scenario.events[count - 1].event)))" : ""
          throw CommandError(
            "\(scenarioPath):\(expectation.line): expect failed\(event): \(failure); nothing was recorded"
          )
        }
        next += 1
      }
    }
    try check(after: 0, nil, nil, from: state)
    for (index, timed) in scenario.events.enumerated() {
      let before = state
      let outcome = domain.reduce(&state, timed.event)
      try check(after: index + 1, timed.event, outcome, from: before)
    }
  }
}

/// `--snapshot-interval`: a number of events the journal allows between snapshots.
func parseSnapshotInterval(_ text: String) throws(InvalidValue) -> UInt32 {
  guard let value = groupedNumber(text).flatMap({ UInt32(exactly: $0) }), value >= 1,
    value <= JournalLimits.maximumSnapshotInterval
  else {
    throw InvalidValue(
      "expected a number of events from 1 to \(Format.count(JournalLimits.maximumSnapshotInterval))"
    )
  }
  return value
}
