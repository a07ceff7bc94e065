import RewindCLI
import RewindCore
import TestSupport
import Testing

/// A gauge whose level is a `Double`, all defaults: every `set` is applied.
struct Gauge: RecordableDomain, Codable {
  struct State: Codable, Equatable, Sendable {
    var level = 1.0
  }

  enum Event: Codable, Equatable, Sendable {
    case set(to: Double)
  }

  static let identifier = "gauge"
  static let schemaVersion: UInt32 = 1

  var initialState: State { State() }

  func reduce(_ state: inout State, _ event: Event) -> Outcome<DomainRejection> {
    guard case .set(let level) = event else { return .unchanged }
    state.level = level
    return .applied
  }
}

@Suite("A change of the sign of zero through the generic rewind")
struct SignedZeroTests {
  let tool = RewindTool.cli(domains: [Gauge.self])
  let directory = TemporaryDirectory()

  func rewind(_ arguments: String...) -> (status: Int32, output: String) {
    runInProcess(tool, arguments, shortening: directory)
  }

  /// Imports 1.0 → 0.0 → -0.0 → -0.0 → 0.0.
  func journal() -> String {
    let lines = directory.file("gauge.jsonl")
    write(
      [0.0, -0.0, -0.0, 0.0].enumerated().map { index, level in
        #"{"seq":\#(index + 1),"time_us":\#(index * 1_000_000),"event":"set","to":\#(level)}"#
          + "\n"
      }.joined(),
      to: lines)
    let journal = directory.file("gauge.journal")
    #expect(rewind("import", lines, "-o", journal).status == 0)
    return journal
  }

  @Test("log, log --where, find and diff see the change from 0.0 to -0.0 and back")
  func changes() {
    let journal = journal()
    #expect(
      rewind("log", journal, "--changes").output == """
          1     +0.000s  set to=0.0                                         applied
             level: 1.0 → 0.0
          2     +1.000s  set to=-0.0                                        applied
             level: 0.0 → -0.0
          3     +2.000s  set to=-0.0                                        applied
          4     +3.000s  set to=0.0                                         applied
             level: -0.0 → 0.0

        """)
    #expect(
      rewind("log", journal, "--where", "changed(level)", "--json").output == """
        {"seq":1,"time_us":0,"event":"set","to":0.0,"outcome":"applied"}
        {"seq":2,"time_us":1000000,"event":"set","to":-0.0,"outcome":"applied"}
        {"seq":4,"time_us":3000000,"event":"set","to":0.0,"outcome":"applied"}

        """)
    let found = rewind("find", journal, "--where", "changed(level)", "--all").output
    #expect(found.contains("event 2 at +1.000s: set to=-0.0  → -0.0"))
    #expect(!found.contains("event 3 "))
    #expect(rewind("find", journal, "--where", "changed(level)", "--count").output == "3\n")
    #expect(
      rewind("diff", journal, "--from", "1", "--to", "2").output.contains(
        "level\n  - 0.0\n  + -0.0"))
    #expect(rewind("check", journal).output.hasPrefix("PASS gauge.journal: 4 events"))
    #expect(rewind("blame", journal, "level").output.contains("set by event 4"))
  }
}
