import Navigation
import TestSupport
import Testing

@testable import RewindCore

/// `blame` and `blame --history` look back a window at a time, each replayed by the
/// domain's own loop: what they name is what a plain forward replay of every event sees.
@Suite("blame against a forward replay")
struct BlameReplayTests {
  @Test("at random points, each field's changes are those a forward replay sees, newest first")
  func againstReplay() throws {
    let seed = testSeed("BlameReplayTests.againstReplay")
    var random = SplitMix64(seed: seed)
    let directory = TemporaryDirectory()
    // Snapshots every 29 events: windows of 29, 58, 116, … events, many of them.
    let (timeline, events) = try ParallelScanTests().randomTimeline(
      seed: random.next(), count: 3_000, in: directory)
    let domain = timeline.domain
    // Each field's value after every event, folded one event at a time.
    var state = domain.initialState
    var values = [domain.fields.map { $0.value(state) }]
    for event in events {
      _ = domain.reduce(&state, event)
      values.append(domain.fields.map { $0.value(state) })
    }
    let points =
      [0, 1, 28, 29, 30, UInt64(events.count)]
      + (0..<6).map { _ in
        random.next() % UInt64(events.count + 1)
      }
    for (index, field) in domain.fields.enumerated() {
      for point in points {
        // The changes up to the point, newest first.
        let expected = (1...max(Int(point), 1)).reversed().filter {
          $0 <= Int(point) && !values[$0][index].isWrittenAs(values[$0 - 1][index])
        }
        let context = "seed \(seed), \(field.path) at \(point)"
        let blame = try timeline.blame(field.path, at: point)
        #expect(blame.event?.sequence == expected.first.map(UInt64.init), "\(context)")
        #expect(blame.value == values[Int(point)][index], "\(context)")
        if let event = blame.event {
          #expect(event.event == events[Int(event.sequence) - 1], "\(context)")
          #expect(event.recorded.kind == .applied, "\(context)")
        }
        let history = try timeline.blameHistory(field.path, at: point)
        #expect(history.map { Int($0.event.sequence) } == expected, "\(context)")
        #expect(
          history.map(\.new) == expected.map { values[$0][index] }
            && history.map(\.old) == expected.map { values[$0 - 1][index] }, "\(context)")
        let newest = try timeline.blameHistory(field.path, at: point, limit: 3)
        #expect(newest.map { Int($0.event.sequence) } == Array(expected.prefix(3)), "\(context)")
      }
    }
  }
}
