import Foundation
import RewindCLI
import RewindCore
import TestSupport
import Testing

/// A counter whose scenario scripts are a language of its own, given as a domain gave it
/// before a script had parts: `parseScenario` and `scenarioScript` alone (`up`, `down`,
/// `wait 0.5`), with no reader, preamble or line of its own.
struct Clicker: RecordableDomain, Codable {
  struct State: Codable, Equatable, Sendable { var count = 0 }
  enum Event: Codable, Equatable, Sendable {
    case up
    case down
  }

  static let identifier = "clicker"
  static let schemaVersion: UInt32 = 1

  var initialState: State { State() }

  func reduce(_ state: inout State, _ event: Event) -> Outcome<DomainRejection> {
    switch event {
    case .up: state.count += 1
    case .down:
      guard state.count > 0 else { return .rejected("the count cannot go below 0") }
      state.count -= 1
    }
    return .applied
  }

  /// `up` and `down`, each after a `wait SECONDS` line when time passes; `device NAME`
  /// and `start MICROSECONDS` first.
  static func scenarioScript(_ scenario: Scenario<Clicker>) -> String {
    var text = "# clicker\n"
    if let device = scenario.device { text += "device \(device)\n" }
    if let start = scenario.startTime { text += "start \(start)\n" }
    var previous: UInt64 = 0
    for timed in scenario.events {
      if timed.time != previous {
        text += "wait \(Double(timed.time - previous) / 1_000_000)\n"
      }
      text += timed.event == .up ? "up\n" : "down\n"
      previous = timed.time
    }
    return text
  }

  static func parseScenario(_ text: String, directory: String) throws(ScenarioError)
    -> Scenario<Clicker>
  {
    var events: [TimedEvent<Event>] = []
    var time: UInt64 = 0
    var device: String?
    var start: Int64?
    for (number, line) in text.split(separator: "\n").enumerated() where !line.hasPrefix("#") {
      if line.hasPrefix("device ") {
        device = String(line.dropFirst(7))
      } else if line.hasPrefix("start "), let micros = Int64(line.dropFirst(6)) {
        start = micros
      } else if line == "up" || line == "down" {
        events.append(TimedEvent(time: time, event: line == "up" ? .up : .down))
      } else if line.hasPrefix("wait "), let seconds = Double(line.dropFirst(5)) {
        time += UInt64((seconds * 1_000_000).rounded())
      } else {
        throw ScenarioError(line: number + 1, column: 1, "not a clicker line: \(line)")
      }
    }
    return Scenario(domain: Clicker(), device: device, startTime: start, events: events)
  }
}

@Suite("A domain's own script language, given as parseScenario and scenarioScript alone")
struct OwnScriptLanguageTests {
  let tool = RewindTool.cli(domains: [Clicker.self])
  let directory = TemporaryDirectory()

  func rewind(_ arguments: String...) -> (status: Int32, output: String) {
    runInProcess(tool, arguments, shortening: directory)
  }

  @Test("record reads it, export --scenario writes it, and record reads that back the same")
  func roundTrip() throws {
    let script = directory.file("clicks.scenario")
    let lines = ["up", "wait 0.25", "up", "down", "wait 1.5", "down", "down"]
    write(lines.joined(separator: "\n") + "\n", to: script)
    let journal = directory.file("clicks.journal")
    let recorded = rewind("record", script, "-o", journal)
    #expect(recorded.status == 0, "\(recorded.output)")

    for target in [directory.file("out.scenario"), nil] {
      let exported =
        target.map { rewind("export", journal, "--scenario", "-o", $0) }
        ?? rewind("export", journal, "--scenario")
      #expect(exported.status == 0, "\(exported.output)")
      let text =
        try target.map { try String(contentsOfFile: $0, encoding: .utf8) } ?? exported.output
      // The domain's language, not an event script (`incremented`, `+0.25s up`).
      #expect(text.contains("\nwait 0.25\nup\ndown\nwait 1.5\ndown\n"), "\(text)")
      #expect(!text.contains("+0.25s"), "\(text)")
    }
    let again = directory.file("again.journal")
    let rerecorded = rewind("record", directory.file("out.scenario"), "-o", again)
    #expect(rerecorded.status == 0, "\(rerecorded.output)")
    let before = rewind("export", journal)
    let after = rewind("export", again)
    // The same events at the same times (the session ids differ: the headers are skipped).
    #expect(
      before.output.split(separator: "\n").dropFirst()
        == after.output.split(separator: "\n").dropFirst())
  }
}
