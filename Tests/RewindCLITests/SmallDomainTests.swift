import Foundation
import RewindCLI
import RewindCore
import TestSupport
import Testing

/// A counter, as an app writes a domain against Rewind's public API: this is all of it.
/// Everything else (codecs, JSON, fields, descriptions, scenario scripts) is a default.
struct Counter: RecordableDomain, Codable {
  struct State: Codable, Equatable, Sendable {
    var count = 0
    var step = 1
  }

  enum Event: Codable, Equatable, Sendable {
    case incremented
    case decremented
    case stepChanged(to: Int)
    case reset
  }

  static let identifier = "counter"
  static let schemaVersion: UInt32 = 1

  var initialState: State { State() }

  func reduce(_ state: inout State, _ event: Event) -> Outcome<DomainRejection> {
    switch event {
    case .incremented:
      state.count += state.step
    case .decremented:
      guard state.count >= state.step else { return .rejected("the count cannot go below 0") }
      state.count -= state.step
    case .stepChanged(let step):
      guard (1...100).contains(step) else { return .rejected("a step is 1 to 100") }
      guard step != state.step else { return .unchanged }
      state.step = step
    case .reset:
      guard state.count != 0 else { return .unchanged }
      state.count = 0
    }
    return .applied
  }
}

@Suite("A small domain through the generic rewind")
struct SmallDomainTests {
  let tool = RewindTool.cli(domains: [Counter.self])
  let directory = TemporaryDirectory()

  /// Runs `rewind` in-process with the counter domain; paths in the output are shortened
  /// to their file names.
  func rewind(_ arguments: String...) -> (status: Int32, output: String) {
    runInProcess(tool, arguments, shortening: directory)
  }

  /// Records the script of the tour, with a snapshot every two events.
  func record() -> String {
    let script = directory.file("counter.scenario")
    write(
      Array(
        """
        # a counter, by hand
        device: test phone
        start: 2026-11-30T09:00:00Z

        incremented
        incremented
        +1s stepChanged to=5
        incremented
        decremented
        decremented         # 2 left: below 0, rejected
        @10s reset
        stepChanged to=500  # rejected
        """.utf8), to: script)
    let journal = directory.file("counter.journal")
    let recorded = rewind("record", script, "-o", journal, "--snapshot-interval", "2")
    #expect(recorded.status == 0)
    #expect(recorded.output == "Recorded 8 events (2 rejected) over 10.5s to counter.journal\n")
    return journal
  }

  @Test("records a scenario and replays, lists, diffs, blames and finds")
  func tour() throws {
    let journal = record()
    #expect(
      rewind("log", journal).output == """
          1     +0.000s  incremented                                        applied
          2     +0.500s  incremented                                        applied
          3     +1.500s  stepChanged to=5                                   applied
          4     +2.000s  incremented                                        applied
          5     +2.500s  decremented                                        applied
          6     +3.000s  decremented                                        rejected: the count cannot go below 0
          7    +10.000s  reset                                              applied
          8    +10.500s  stepChanged to=500                                 rejected: a step is 1 to 100

        """)
    #expect(
      rewind("state", journal, "--at", "4", "--json").output
        == "{\n  \"count\": 7,\n  \"step\": 5\n}\n")
    #expect(
      rewind("state", journal, "--at", "+2.6s").output == """
        State after event 5 (+2.500s)

        {
          "count": 2,
          "step": 5
        }

        """)
    #expect(
      rewind("diff", journal, "--from", "2", "--to", "5", "--events").output == """
        1 field differs between event 2 (-) and event 5 (+):
        step
          - 1
          + 5

        Events 3–5:
          3  +1.500s  stepChanged to=5  changed step
          4  +2.000s  incremented  changed count
          5  +2.500s  decremented  changed count

        """)
    #expect(
      rewind("blame", journal, "step").output == """
        step = 5 after event 8
          set by event 3 at +1.500s: stepChanged to=5

        """)
    #expect(
      rewind("find", journal, "--where", "count == 7").output == """
        count == 7
          event 4 at +2.000s: incremented  → 7

        """)
    #expect(
      rewind("find", journal, "--where", "changed(count)", "--all").output.contains(
        "event 7 at +10.000s: reset  → 0"))
    #expect(
      rewind("check", journal).output.hasPrefix("PASS counter.journal: 8 events, 3 snapshots"))
    #expect(rewind("log", journal, "--type", "reset").output.contains("7    +10.000s  reset"))
  }

  @Test("exports JSON Lines that import back to the same session")
  func exportAndImport() throws {
    let journal = record()
    let exported = rewind("export", journal)
    #expect(exported.status == 0)
    let lines = exported.output.split(separator: "\n")
    #expect(lines.count == 9)
    #expect(lines[0].contains(#""domain":"counter","schemaVersion":1"#))
    #expect(lines[0].hasSuffix(#""settings":{}}}"#))
    #expect(lines[3] == #"{"seq":3,"time_us":1500000,"event":"stepChanged","to":5}"#)
    #expect(lines[7] == #"{"seq":7,"time_us":10000000,"event":"reset"}"#)
    let jsonLines = directory.file("counter.jsonl")
    write(Array(exported.output.utf8), to: jsonLines)
    let copy = directory.file("copy.journal")
    #expect(
      rewind("import", jsonLines, "-o", copy).output
        == "Imported 8 events from counter.jsonl to copy.journal\n")
    #expect(rewind("export", copy).output == exported.output)
    #expect(
      rewind("diff", journal, copy).output
        == "No differences between counter.journal@end (event 8) and copy.journal@end (event 8).\n")
  }

  @Test(
    "a script's key the event has not, or a stray word, is refused at its line and column",
    arguments: [
      (
        "incremented\nstepChanged to=5 by=2\n",
        #"typo.scenario:2:18: unknown key "by" in the event "stepChanged"; its keys are to"#
      ),
      (
        "reset now\n",
        #"typo.scenario:1:7: unexpected "now" in the event "reset"; it has no payload"#
      ),
      (
        "incremented\n+1s decremented stp=2\n",
        #"typo.scenario:2:17: unknown key "stp" in the event "decremented"; it has no payload"#
      ),
      (
        "stepChanged tp=5\n",
        #"typo.scenario:1:13: unknown key "tp" in the event "stepChanged" (did you mean "to"?); its keys are to"#
      ),
    ] as [(String, String)])
  func strictScript(text: String, message: String) {
    let script = directory.file("typo.scenario")
    write(text, to: script)
    let journal = directory.file("typo.journal")
    #expect(rewind("record", script, "-o", journal) == (1, "Error: \(message)\n"))
    #expect(!FileManager.default.fileExists(atPath: journal))
  }

  @Test("a script's expect lines are checked before anything is written")
  func expectLines() {
    let script = directory.file("expect.scenario")
    write(
      """
      expect count == 0
      incremented
      +1s stepChanged to=5
      incremented
      expect count == 6 && changed(count)
      decremented
      decremented
      expect rejected
      """, to: script)
    let journal = directory.file("expect.journal")
    #expect(
      rewind("record", script, "-o", journal)
        == (0, "Recorded 5 events (1 rejected) over 2.5s to expect.journal\n"))
    write("incremented\nexpect count == 2\n", to: script)
    let failed = directory.file("failed.journal")
    #expect(
      rewind("record", script, "-o", failed)
        == (
          1,
          "Error: expect.scenario:2: expect failed (after incremented): expected count == 2, but count is 1; the event changed count 0 → 1; nothing was recorded\n"
        ))
    #expect(!FileManager.default.fileExists(atPath: failed))
  }

  @Test("generate says that the domain has no simulated user")
  func noSimulatedUser() {
    let generated = rewind("generate", "-o", directory.file("g.journal"), "--events", "10")
    #expect(generated.status == 1)
    #expect(
      generated.output
        == "Error: the 'counter' domain has no simulated user to generate sessions with; record a scenario script (`rewind record`) or import JSON Lines (`rewind import`) instead\n"
    )
  }
}
