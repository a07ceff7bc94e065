import Foundation
import Navigation
import TestSupport
import Testing

@testable import RewindCore
@testable import RewindJournal

/// The bulk paths added for speed: recording a batch of events, and replaying a whole
/// session from its first event.
@Suite("Bulk recording and full replay")
struct BulkReplayTests {
  /// Records `events` one at a time or as batches of `batch` events, and returns the
  /// journal's bytes and the number of rejected events.
  func record<D: Domain>(
    _ domain: D, _ events: [TimedEvent<D.Event>], batch: Int?, at path: String,
    interval: UInt32 = 64
  ) throws -> (bytes: [UInt8], rejected: Int) {
    let recorder = try JournalRecorder.create(
      at: path, domain: domain, session: testSession,
      options: RecordingOptions(
        snapshotInterval: interval,
        journal: JournalWriterOptions(frameSize: 2048, durability: .none)))
    var rejected = 0
    if let batch {
      var start = 0
      while start < events.count {
        let end = min(start + batch, events.count)
        rejected += try recorder.record(contentsOf: events[start..<end])
        start = end
      }
    } else {
      for timed in events where try recorder.record(timed.event, at: timed.time).isRejected {
        rejected += 1
      }
    }
    try recorder.close()
    return (Array(try Data(contentsOf: URL(fileURLWithPath: path))), rejected)
  }

  @Test("batches write the same journal as single events", arguments: [1, 7, 1_000])
  func batchesMatchSingles(batch: Int) throws {
    let directory = TemporaryDirectory()
    let tally = TallyEvents(seed: 5).prefix(3_000).map {
      TimedEvent(time: $0.time, event: $0.event)
    }
    let single = try record(StandardTally(), tally, batch: nil, at: directory.file("a.journal"))
    let batched = try record(StandardTally(), tally, batch: batch, at: directory.file("b.journal"))
    #expect(single.bytes == batched.bytes)
    #expect(single.rejected == batched.rejected)
    #expect(single.rejected > 0)

    let domain = NavigationDomain()
    var user = domain.simulatedUser(seed: 11)
    let navigation = (0..<5_000).map { _ in user.next()! }
    let singleNav = try record(domain, navigation, batch: nil, at: directory.file("c.journal"))
    let batchedNav = try record(domain, navigation, batch: batch, at: directory.file("d.journal"))
    #expect(singleNav.bytes == batchedNav.bytes)
    #expect(singleNav.rejected == batchedNav.rejected)
  }

  @Test("the recorder's state and effects match a fold with the domain")
  func recordedEffects() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("effects.journal")
    let domain = NavigationDomain()
    var user = domain.simulatedUser(seed: 3)
    let events = (0..<4_000).map { _ in user.next()! }
    _ = try record(domain, events, batch: 256, at: path, interval: 100)
    let timeline = try Timeline<NavigationDomain>(path: path)
    var state = domain.initialState
    var index = 0
    try timeline.events(from: 1, through: UInt64(events.count)) { replayed, changed, after in
      let before = state
      let outcome = domain.reduce(&state, events[index].event)
      let expected = outcome == .applied ? domain.changedFields(from: before, to: state) : []
      #expect(replayed.recorded == RecordedEffect(outcome, changed: expected))
      #expect(changed == expected)
      #expect(after == state)
      index += 1
      return true
    }
    #expect(index == events.count)
    #expect(try timeline.check().passed)
  }

  @Test("a full replay gives the state at every point, without using snapshots")
  func replayedState() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("replay.journal")
    let (_, states) = try recordTally(at: path, count: 2_500, seed: 4, interval: 16)
    let timeline = try Timeline<StandardTally>(path: path)
    for sequence in [0, 1, 15, 16, 17, 1_000, 2_499, 2_500] {
      #expect(try timeline.replayedState(after: UInt64(sequence)) == states[sequence])
    }
    #expect(throws: RewindError.self) { try timeline.replayedState(after: 2_501) }

    let navigationPath = directory.file("navigation.journal")
    let domain = NavigationDomain()
    var user = domain.simulatedUser(seed: 8)
    let events = (0..<20_000).map { _ in user.next()! }
    _ = try record(domain, events, batch: 4_096, at: navigationPath)
    let navigation = try Timeline<NavigationDomain>(path: navigationPath)
    var state = domain.initialState
    for timed in events { _ = domain.reduce(&state, timed.event) }
    #expect(try navigation.replayedState(after: 20_000) == state)
    #expect(try navigation.state(after: 20_000) == state)
    var generator = SplitMix64(seed: testSeed("BulkReplayTests.replayedState"))
    for _ in 0..<50 {
      let point = UInt64.random(in: 0...20_000, using: &generator)
      #expect(try navigation.replayedState(after: point) == navigation.state(after: point))
    }
  }

  @Test("a batch that fails part way keeps what was recorded and the state after it")
  func failedBatch() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("failing.journal")
    let failures = FailingWrites()
    let recorder = try JournalRecorder.create(
      at: path, domain: StandardTally(), session: testSession, options: failures.options)
    let events = TallyEvents(seed: 9).prefix(2_000).map {
      TimedEvent(time: $0.time, event: $0.event)
    }
    try recorder.record(contentsOf: events[..<500])
    failures.failure.store(ENOSPC, ordering: .relaxed)
    #expect(throws: JournalError.self) { try recorder.record(contentsOf: events[500...]) }
    let recorded = Int(recorder.lastSequence)
    #expect(recorded >= 500 && recorded < 2_000)
    var expected = StandardTally().initialState
    for timed in events[..<recorded] { _ = StandardTally().reduce(&expected, timed.event) }
    #expect(recorder.state == expected)
    failures.failure.store(0, ordering: .relaxed)
    try recorder.record(contentsOf: events[recorded...])
    try recorder.close()
    for timed in events[recorded...] { _ = StandardTally().reduce(&expected, timed.event) }
    let timeline = try Timeline<StandardTally>(path: path)
    #expect(try timeline.replayedState(after: 2_000) == expected)
    #expect(try timeline.check().passed)
  }
}
