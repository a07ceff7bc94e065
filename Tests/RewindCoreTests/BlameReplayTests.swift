import Navigation
import TestSupport
import Testing

@testable import RewindCore

/// `blame` and `blame --history` look back a window at a time, each replayed by the
/// domain's own loop: what they name is what a plain forward replay of every event sees.
@Suite("blame against a forward replay")
struct BlameReplayTests {
  @Test(
    "at random points, each field's changes (and an element's) are those a forward replay sees, newest first"
  )
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
    // Each field, and whether split.expanded holds each of two items (an element target).
    let expanded = try #require(domain.fields.firstIndex { $0.path == "split.expanded" })
    let ids = ["espresso-machines/leva", "espresso-machines/linea"]
    var targets: [(path: String, read: ([JSONValue]) -> JSONValue)] =
      domain.fields.indices.map { index in (domain.fields[index].path, { $0[index] }) }
    for id in ids {
      targets.append(
        (
          "split.expanded[\(id)]",
          { values in
            guard case .array(let elements) = values[expanded] else { return false }
            return .bool(elements.contains(.string(id)))
          }
        ))
    }
    // Windows up to 2^20 events (here doubling to the start), and capped at 64: a window
    // of the largest size again and again (29, 58, 64, 64, …).
    for (path, read) in targets {
      for point in points {
        for largest in [Timeline<NavigationDomain>.blameWindow, 64] {
          // The changes up to the point, newest first.
          let expected = (1...max(Int(point), 1)).reversed().filter {
            $0 <= Int(point) && !read(values[$0]).isWrittenAs(read(values[$0 - 1]))
          }
          let context = "seed \(seed), \(path) at \(point), windows up to \(largest)"
          let blame = try timeline.blame(path, at: point, largestWindow: largest)
          #expect(blame.event?.sequence == expected.first.map(UInt64.init), "\(context)")
          #expect(blame.value == read(values[Int(point)]), "\(context)")
          if let event = blame.event {
            #expect(event.event == events[Int(event.sequence) - 1], "\(context)")
            #expect(event.recorded.kind == .applied, "\(context)")
          }
          let history = try timeline.blameHistory(path, at: point, largestWindow: largest)
          #expect(history.map { Int($0.event.sequence) } == expected, "\(context)")
          #expect(
            history.map(\.new) == expected.map { read(values[$0]) }
              && history.map(\.old) == expected.map { read(values[$0 - 1]) }, "\(context)")
          let newest = try timeline.blameHistory(
            path, at: point, limit: 3, largestWindow: largest)
          #expect(newest.map { Int($0.event.sequence) } == Array(expected.prefix(3)), "\(context)")
          // Handed on a window's changes at a time, each window older than the one before
          // and no longer than the largest and a snapshot interval, where it starts (walk
          // of the query commands, WQ-2: every change was held before the first was
          // printed).
          let longest = largest + UInt64(timeline.header.snapshotInterval)
          var batches: [[UInt64]] = []
          let count = try timeline.blameHistory(path, at: point, largestWindow: largest) {
            batches.append($0.map(\.event.sequence))
          }
          #expect(count == expected.count, "\(context)")
          #expect(batches.joined().map { Int($0) } == expected, "\(context)")
          for batch in batches {
            #expect(!batch.isEmpty && batch[0] - batch[batch.count - 1] < longest, "\(context)")
          }
        }
      }
    }
  }
}
