import RewindCore
import RewindJournal
import TestSupport
import Testing

/// `Timeline.shrink(where:)` and `shrinkDivergence()`: ddmin over a session's events.
@Suite("Shrinking sessions")
struct ShrinkTests {
  /// Records `events`, one every 10 ms, as a tally journal.
  func record(_ events: [StandardTally.Event], in directory: TemporaryDirectory) throws -> String {
    let path = directory.file("session.journal")
    let recorder = try JournalRecorder.create(
      at: path, domain: StandardTally(), session: testSession,
      options: RecordingOptions(
        snapshotInterval: 64, journal: JournalWriterOptions(frameSize: 1024, durability: .none)))
    for (index, event) in events.enumerated() {
      try recorder.record(event, at: UInt64(index) * 10_000)
    }
    try recorder.close()
    return path
  }

  /// The states after replaying `events` from the initial state.
  func states<D: Domain>(_ domain: D, _ events: [D.Event]) -> [D.State] {
    var state = domain.initialState
    return [state]
      + events.map { event in
        _ = domain.reduce(&state, event)
        return state
      }
  }

  @Test("a condition that first holds late shrinks to the events it needs, 1-minimal")
  func shrinksToMinimal() throws {
    let directory = TemporaryDirectory()
    // Toggles and steps of 1 and -1 (the value stays at 0 or 1), with rejected and
    // unchanged additions between; then 1, 2 and 4: the value is 7 only at the end.
    var events: [StandardTally.Event] = []
    for index in 0..<3_000 {
      switch index % 5 {
      case 0: events.append(.toggled)
      case 1: events.append(.added(5_000))  // rejected
      case 2: events.append(.added(1))
      case 3: events.append(.added(0))  // unchanged
      default: events.append(.added(-1))
      }
    }
    events += [.added(1), .added(2), .added(4), .toggled]
    let path = try record(events, in: directory)
    let timeline = try Timeline<StandardTally>(path: path)
    let condition = try Condition(parsing: "tally.value == 7")
    // Cross-check the late first point with find.
    #expect(try timeline.find(condition, all: false).first?.sequence == 3_003)
    let result = try #require(try timeline.shrink(where: condition))
    let kept = result.events.map(\.event)
    #expect(kept.count <= 5)
    #expect(!kept.contains(.added(5_000)) && !kept.contains(.added(0)))
    #expect(states(StandardTally(), kept).last?.value == 7)
    // The kept events are the session's, at their times, in order.
    #expect(result.sequences == result.sequences.sorted())
    for (sequence, timed) in zip(result.sequences, result.events) {
      #expect(timed.event == events[Int(sequence) - 1])
      #expect(timed.time == (sequence - 1) * 10_000)
    }
    // 1-minimal: without any one event, the value is not 7.
    for index in kept.indices {
      var fewer = kept
      fewer.remove(at: index)
      #expect(states(StandardTally(), fewer).last?.value != 7)
    }
    #expect(result.searched < 3_004)  // the rejected additions were never searched
    #expect(result.replays > 0 && result.eventsReplayed > 0)
  }

  @Test("the events around the ones needed are left out")
  func surroundingEventsLeftOut() throws {
    let directory = TemporaryDirectory()
    let events: [StandardTally.Event] =
      Array(repeating: .toggled, count: 50) + [.added(900), .added(-100)]
      + Array(repeating: .toggled, count: 51)
    let path = try record(events, in: directory)
    let timeline = try Timeline<StandardTally>(path: path)
    let result = try #require(
      try timeline.shrink(where: Condition(parsing: "tally.value == 800")))
    #expect(result.events.map(\.event) == [.added(900), .added(-100)])
    #expect(result.sequences == [51, 52])
  }

  @Test("changed(…), the initial state, a condition that never holds, an unknown field")
  func edges() throws {
    let directory = TemporaryDirectory()
    let events: [StandardTally.Event] = [.added(3), .added(-3), .added(2), .toggled, .added(1)]
    let path = try record(events, in: directory)
    let timeline = try Timeline<StandardTally>(path: path)
    let changed = try #require(
      try timeline.shrink(where: Condition(parsing: "changed(tally.flag)")))
    #expect(changed.events.map(\.event) == [.toggled])
    let initial = try #require(try timeline.shrink(where: Condition(parsing: "tally.value == 0")))
    #expect(initial.events.isEmpty)
    #expect(try timeline.shrink(where: Condition(parsing: "tally.value == 99")) == nil)
    #expect(throws: ConditionError.self) {
      try timeline.shrink(where: Condition(parsing: "tally.valeu == 1"))
    }
  }

  @Test("a divergence shrinks to the events before it that set it up, ending with it")
  func divergence() throws {
    let directory = TemporaryDirectory()
    // The first reset of a non-zero value counts a step when recorded; a reset that no
    // longer counts one diverges there.
    var events: [StandardTally.Event] = []
    for index in 0..<400 { events.append(index % 2 == 0 ? .toggled : .added(0)) }
    events += [.reset, .added(5), .toggled, .added(-2), .toggled, .reset, .added(1)]
    let path = try record(events, in: directory)
    #expect(try Timeline<StandardTally>(path: path).shrinkDivergence() == nil)
    let timeline = try Timeline<Tally<UncountedResetRules>>(path: path)
    let result = try #require(try timeline.shrinkDivergence())
    let divergence = try #require(result.divergence)
    #expect(divergence.sequence == 406)
    #expect(result.sequences.last == 406)
    #expect(result.events.last?.event == .reset)
    // added(-2) alone would also change the sign, unlike when it was recorded: only
    // added(5) replays as recorded before the reset.
    #expect(result.events.map(\.event) == [.added(5), .reset])
    #expect(result.sequences == [402, 406])
    #expect(divergence.recorded != divergence.replayed)
  }
}
