import Foundation
import TestSupport
import Testing

@testable import RewindCore
@testable import RewindJournal

@Suite("Timeline: state at any point")
struct TimelineTests {
  @Test(
    "the state at every point equals the fold from the start",
    arguments: [(1, 300), (7, 300), (64, 2_000), (5_000, 600)] as [(UInt32, Int)])
  func everyPoint(interval: UInt32, count: Int) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("tally.journal")
    let (_, states) = try recordTally(at: path, count: count, interval: interval)
    let timeline = try Timeline<StandardTally>(path: path)
    #expect(timeline.lastSequence == UInt64(count))
    for sequence in 0...count {
      #expect(try timeline.state(after: UInt64(sequence)) == states[sequence], "after \(sequence)")
    }
  }

  @Test("random points of a large session equal the fold, at bounded cost")
  func largeSession() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("large.journal")
    let (_, states) = try recordTally(
      at: path, count: 150_000, seed: 99, interval: 256, frameSize: 16 << 10)
    let timeline = try Timeline<StandardTally>(path: path)
    var generator = SplitMix64(seed: testSeed("TimelineTests.largeSession"))
    for _ in 0..<400 {
      let sequence = Int.random(in: 0...150_000, using: &generator)
      #expect(try timeline.state(after: UInt64(sequence)) == states[sequence])
    }
  }

  @Test("points resolve by sequence, offset, wall clock, start and end")
  func points() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("tally.journal")
    let (events, _) = try recordTally(at: path, count: 500)
    let timeline = try Timeline<StandardTally>(path: path)
    #expect(try timeline.resolve(.start) == 0)
    #expect(try timeline.resolve(.end) == 500)
    #expect(try timeline.resolve(.sequence(123)) == 123)
    for probe in stride(from: UInt64(0), through: events.last!.time, by: 7_919) {
      let expected = UInt64(events.lastIndex { $0.time <= probe }.map { $0 + 1 } ?? 0)
      #expect(try timeline.resolve(.offset(microseconds: probe)) == expected)
      let wall = testSession.startTime + Int64(probe)
      #expect(try timeline.resolve(.wallClock(microsecondsSinceEpoch: wall)) == expected)
    }
    #expect {
      try timeline.resolve(.sequence(501))
    } throws: { error in
      "\(error)" == "event 501 is beyond the end of the session (points are 0–500)"
    }
    // A time after the last event is the end state, one before the first the start
    // state: only sequence numbers can lie outside the session.
    #expect(try timeline.resolve(.offset(microseconds: events.last!.time + 1)) == 500)
    #expect(try timeline.resolve(.offset(microseconds: .max)) == 500)
    let end = testSession.startTime + Int64(events.last!.time)
    #expect(try timeline.resolve(.wallClock(microsecondsSinceEpoch: end + 1)) == 500)
    #expect(try timeline.resolve(.wallClock(microsecondsSinceEpoch: .max)) == 500)
    #expect(
      try timeline.resolve(.wallClock(microsecondsSinceEpoch: testSession.startTime - 1)) == 0)
    #expect(try timeline.resolve(.wallClock(microsecondsSinceEpoch: .min)) == 0)
  }

  @Test("a journal of another domain is refused with both names")
  func wrongDomain() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("tally.journal")
    try recordTally(at: path, count: 5)
    #expect {
      try Timeline<OtherDomain>(path: path)
    } throws: { error in
      (error as? RewindError)?.code == .wrongDomain
        && "\(error)".hasSuffix("the journal records the 'tally' domain, not 'other'")
    }
  }

  @Test("a recorder continues a journal where it stopped")
  func continuing() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("tally.journal")
    let (events, states) = try recordTally(at: path, count: 400, interval: 50)
    let recorder = try JournalRecorder<StandardTally>.continuing(at: path)
    #expect(recorder.state == states.last)
    #expect(recorder.lastSequence == 400)
    try recorder.record(.added(5), at: events.last!.time + 10)
    try recorder.close()
    let timeline = try Timeline<StandardTally>(path: path)
    var expected = states.last!
    expected.value += 5
    expected.steps += 1
    #expect(try timeline.state(at: .end) == expected)
    #expect(try timeline.check().passed)
  }
}

/// A domain with another identifier, to open tally journals with.
struct OtherDomain: Domain, Codable {
  typealias State = StandardTally.State
  typealias Event = StandardTally.Event
  static var identifier: String { "other" }
  static var schemaVersion: UInt32 { 1 }
  var initialState: State { StandardTally().initialState }
  func reduce(_ state: inout State, _ event: Event) -> Outcome<StandardTally.Rejection> {
    StandardTally().reduce(&state, event)
  }
}
