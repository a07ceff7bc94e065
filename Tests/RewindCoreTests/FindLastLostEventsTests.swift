import Navigation
import TestSupport
import Testing

@testable import RewindCore
@testable import RewindJournal

/// `find --last` (``Timeline/findLast(_:in:progress:)``) on salvaged journals of random
/// sessions: lost ranges at the start, in the middle (two, one of two frames) and at the
/// end, searched over random ranges that start and end around them. The answer is always
/// the last of `find --all`'s points, which are the intact journal's points among the
/// events kept; the lost events it names are those between that point and the range's
/// end.
@Suite("find --last on a salvaged journal: the last of find --all's points")
struct FindLastLostEventsTests {
  let scans = ParallelScanTests()

  /// The intact random session and the same salvaged with the frames `dropped` (indices)
  /// marked lost: both timelines, the events and the lost ranges (following frames
  /// joined).
  func salvaged(
    seed: UInt64, count: Int, dropping dropped: (Int) -> [Int], in directory: TemporaryDirectory
  ) throws -> (
    intact: Timeline<NavigationDomain>, salvaged: Timeline<NavigationDomain>,
    events: [NavigationEvent], lost: [ClosedRange<UInt64>]
  ) {
    let (intact, events) = try scans.randomTimeline(seed: seed, count: count, in: directory)
    let frames = intact.reader.frames
    try #require(frames.count > 10)
    let indices = dropped(frames.count)
    let path = directory.file("salvaged.journal")
    _ = try Journal.recover(
      path: intact.path, output: path, salvage: true,
      repairs: Dictionary(
        uniqueKeysWithValues: indices.map { (frames[$0].offset, .drop(reason: "a test drops it")) }
      ),
      system: .live)
    var lost: [ClosedRange<UInt64>] = []
    for index in indices {
      let range = frames[index].sequenceRange
      if let last = lost.last, last.upperBound + 1 == range.lowerBound {
        lost[lost.count - 1] = last.lowerBound...range.upperBound
      } else {
        lost.append(range)
      }
    }
    let salvaged = try Timeline<NavigationDomain>(path: path)
    #expect(salvaged.lostEvents(in: 0...salvaged.lastSequence) == lost)
    return (intact, salvaged, events, lost)
  }

  @Test(
    "random sessions, conditions and ranges around lost events: find --last is find --all's last point"
  )
  func lastOfAll() throws {
    let seed = testSeed("FindLastLostEventsTests.lastOfAll")
    var random = SplitMix64(seed: seed)
    let layouts: [(String, (Int) -> [Int])] = [
      ("start", { _ in [0] }), ("middle", { _ in [3, 7, 8] }), ("end", { [$0 - 1] }),
      ("start and middle", { _ in [0, 1, 5] }),
    ]
    var compared = 0
    var before = 0
    for (layout, dropped) in layouts {
      let directory = TemporaryDirectory()
      let (intact, salvaged, events, lost) = try self.salvaged(
        seed: random.next(), count: 1_500, dropping: dropped, in: directory)
      let last = salvaged.lastSequence
      // Points around every lost range, and some anywhere.
      var points: [UInt64] = [0, last]
      for range in lost {
        points += [range.lowerBound, range.lowerBound + 1, range.upperBound, range.upperBound + 1]
        points += [range.upperBound + 2, range.upperBound + 30]
        if range.lowerBound > 1 { points += [range.lowerBound - 1, range.lowerBound - 2] }
      }
      points = points.filter { $0 <= last }
      for _ in 0..<40 {
        let condition = scans.randomCondition(events: events, using: &random)
        for _ in 0..<4 {
          var ends = [
            points.randomElement(using: &random)!, points.randomElement(using: &random)!,
            UInt64.random(in: 0...last, using: &random),
          ]
          ends.shuffle(using: &random)
          let range = min(ends[0], ends[1])...max(ends[0], ends[1])
          let context = "seed \(seed), \(layout), \(condition), \(range)"
          // A search that cannot start among lost events (but the last): both refuse it.
          let all: [FindHit<NavigationDomain>]
          do {
            all = try salvaged.find(condition, in: range, all: true)
          } catch let error as RewindError {
            #expect(error.code == .eventsLost, "\(context)")
            // Only a start among lost events is refused, but at the last of events that
            // others follow (the state after it is the snapshot stored after them).
            #expect(
              lost.contains {
                $0.contains(range.lowerBound)
                  && ($0.upperBound != range.lowerBound || range.lowerBound == last)
              }, "\(context)")
            #expect(throws: RewindError.self, "\(context)") {
              try salvaged.findLast(condition, in: range)
            }
            continue
          }
          // The range's start counts where it is the last lost event: the state after
          // it is the snapshot stored after them.
          let expected = try intact.find(condition, in: range, all: true).filter { hit in
            hit.sequence == range.lowerBound || !lost.contains { $0.contains(hit.sequence) }
          }
          #expect(all.map(\.sequence) == expected.map(\.sequence), "\(context)")
          let found = try salvaged.findLast(condition, in: range)
          #expect(found?.sequence == all.last?.sequence, "\(context)")
          #expect(found?.value == all.last?.value, "\(context)")
          #expect(found?.event?.sequence == all.last?.event?.sequence, "\(context)")
          // The lost events a later point may have been among: between it and the end.
          let searched = found.map { $0.sequence...range.upperBound } ?? range
          let unseen = salvaged.lostEvents(in: searched)
          #expect(
            unseen
              == lost.filter {
                $0.upperBound > searched.lowerBound && $0.lowerBound <= searched.upperBound
              }, "\(context)")
          compared += 1
          if let found, lost.contains(where: { $0.lowerBound > found.sequence }) { before += 1 }
        }
      }
    }
    // The searches crossed lost ranges: many found their point before one.
    #expect(compared > 400 && before > 50, "seed \(seed): \(compared) compared, \(before) before")
  }
}
