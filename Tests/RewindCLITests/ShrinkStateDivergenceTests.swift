import RewindCLI
import RewindCore
import TestSupport
import Testing

/// `SmallDomainTests`' counter with a bug that changes values, not which fields change:
/// `incremented` adds twice the step. Every event's outcome and changed fields are the
/// recording's; the states are not.
struct DoublingCounter: RecordableDomain, Codable {
  typealias State = Counter.State
  typealias Event = Counter.Event

  static let identifier = "counter"
  static let schemaVersion: UInt32 = 1

  var initialState: State { State() }

  func reduce(_ state: inout State, _ event: Event) -> Outcome<DomainRejection> {
    guard case .incremented = event else { return Counter().reduce(&state, event) }
    state.count += 2 * state.step
    return .applied
  }
}

@Suite("shrink --diverging on a journal whose events replay as recorded but whose states do not")
struct ShrinkStateDivergenceTests {
  let directory = TemporaryDirectory()

  /// Runs a `rewind` of `domain` in-process; paths in the output are shortened to their
  /// file names.
  func rewind(_ domain: any RecordableDomain.Type, _ arguments: String...) -> (
    status: Int32, output: String
  ) {
    runInProcess(RewindTool.cli(domains: [domain]), arguments, shortening: directory)
  }

  @Test("says that a snapshot differs, with the fields, and the --where that shrinks to it")
  func snapshotDiffers() {
    let script = directory.file("counter.scenario")
    write(Array("stepChanged to=5\nincremented\nincremented\nincremented\n".utf8), to: script)
    let journal = directory.file("counter.journal")
    let recorded = rewind(
      Counter.self, "record", script, "-o", journal, "--snapshot-interval", "1")
    #expect(recorded.status == 0, "\(recorded.output)")
    // check fails on the state after the first incremented: 5 recorded, 10 replayed.
    let check = rewind(DoublingCounter.self, "check", journal)
    #expect(check.status == 1)
    #expect(
      check.output.contains(
        """
          the state after event 2 differs from its snapshot (- recorded, + replayed):
            count: - 5  + 10

        """), "\(check.output)")
    let shrunk = rewind(DoublingCounter.self, "shrink", journal, "--diverging")
    #expect(shrunk.status == 1)
    #expect(
      shrunk.output == """
        Error: counter.journal: no event's outcome or changed fields differ from the recording, so --diverging has no event to shrink to; but the state after event 2 differs from its snapshot (- recorded, + replayed):
            count: - 5  + 10
          to shrink to this state, give --where a condition on a field that differs, with its value as replayed: `rewind shrink counter.journal --where 'count == 10'`

        """)
    // The --where it gives shrinks to the events that show the bug.
    let shown = rewind(DoublingCounter.self, "shrink", journal, "--where", "count == 10")
    #expect(shown.status == 0, "\(shown.output)")
    #expect(shown.output.contains("# after the last event, count == 10 holds"), "\(shown.output)")
    // Where the states are the recording's too, nothing diverges.
    let faithful = rewind(Counter.self, "shrink", journal, "--diverging")
    #expect(faithful.status == 1)
    #expect(
      faithful.output
        == "Error: counter.journal: every event replays as recorded and no snapshot differs from the state replayed up to it; nothing diverges, nothing to shrink\n"
    )
  }
}
