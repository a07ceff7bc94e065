import Navigation
import TestSupport
import Testing

@testable import RewindCore
@testable import RewindJournal

/// `find` in every mode and `blame` on a salvaged journal: they go on past the events lost
/// to damage, from the snapshot stored after them, as `log` and `export` do. What they find
/// is what the same search of the intact journal finds among the events kept; where the
/// answer may lie among the lost events (the event that set a value), they say so.
@Suite("Searches of a salvaged journal go on past the events lost to damage")
struct LostEventsSearchTests {
  let scans = ParallelScanTests()

  /// A random session of `count` events in frames of about 120 events, and the same
  /// journal salvaged with frames 3, 7 and 8 dropped (their events marked lost: two
  /// ranges, the second of two frames): the intact timeline, the salvaged one, the
  /// events and the lost ranges.
  func salvagedTimeline(seed: UInt64, count: Int, in directory: TemporaryDirectory) throws -> (
    intact: Timeline<NavigationDomain>, salvaged: Timeline<NavigationDomain>,
    events: [NavigationEvent], lost: [ClosedRange<UInt64>]
  ) {
    let (intact, events) = try scans.randomTimeline(seed: seed, count: count, in: directory)
    let frames = intact.reader.frames
    try #require(frames.count > 10)
    let path = directory.file("salvaged.journal")
    let dropped = [frames[3], frames[7], frames[8]]
    let report = try Journal.recover(
      path: intact.path, output: path, salvage: true,
      repairs: Dictionary(
        uniqueKeysWithValues: dropped.map { ($0.offset, .drop(reason: "a test drops it")) }),
      system: .live)
    let lost = [
      frames[3].sequenceRange, frames[7].firstSequence...frames[8].lastSequence,
    ]
    #expect(report.lostRanges == lost)
    let salvaged = try Timeline<NavigationDomain>(path: path)
    salvaged.minimumEventsPerPart = 50
    return (intact, salvaged, events, lost)
  }

  @Test("find, find --all, --last and --count: the intact journal's points among the events kept")
  func findGoesOnPastLostEvents() throws {
    let seed = testSeed("LostEventsSearchTests.findGoesOnPastLostEvents")
    var random = SplitMix64(seed: seed)
    for trial in 0..<3 {
      let directory = TemporaryDirectory()
      let (_, salvaged, events, lost) = try salvagedTimeline(
        seed: random.next(), count: 1_500, in: directory)
      let last = salvaged.lastSequence
      let ranges: [ClosedRange<UInt64>] = [
        0...last,
        // From before the first lost range to after the second.
        (lost[0].lowerBound - 5)...(lost[1].upperBound + 7),
        // From the event before lost events to the first after them.
        (lost[0].lowerBound - 1)...(lost[0].upperBound + 1),
        // Ending among lost events.
        3...(lost[1].lowerBound + 4),
        // Starting after lost events.
        (lost[0].upperBound + 1)...last,
        // Starting at the last lost event: the state after it is the snapshot stored after
        // them, and a point there counts as any range's start does.
        lost[0].upperBound...last,
        lost[1].upperBound...lost[1].upperBound,
      ]
      for _ in 0..<10 {
        let condition = scans.randomCondition(events: events, using: &random)
        for range in ranges {
          let context = "seed \(seed), trial \(trial), \(condition), \(range)"
          let expected = try scans.expectedHits(
            condition, events: events, all: true, range: range
          ).filter { hit in hit.0 == range.lowerBound || !lost.contains { $0.contains(hit.0) } }
          for jobs in [1, 2] {
            let hits = try salvaged.find(condition, in: range, all: true, jobs: jobs)
            #expect(hits.map(\.sequence) == expected.map(\.0), "\(context), jobs \(jobs)")
            #expect(hits.map(\.value) == expected.map(\.1), "\(context), jobs \(jobs)")
            let first = try salvaged.find(condition, in: range, all: false, jobs: jobs)
            #expect(first.map(\.sequence) == expected.prefix(1).map(\.0), "\(context)")
            let count = try salvaged.count(condition, in: range, jobs: jobs)
            #expect(count == expected.count, "\(context)")
          }
          var streamed: [UInt64] = []
          try salvaged.forEachMatch(condition, in: range) { streamed.append($0.sequence) }
          #expect(streamed == expected.map(\.0), "\(context)")
          let backwards = try salvaged.findLast(condition, in: range)
          #expect(backwards?.sequence == expected.last?.0, "\(context)")
          #expect(backwards?.value == expected.last?.1, "\(context)")
        }
      }
      // The lost events each search went on past.
      #expect(salvaged.lostEvents(in: 0...last) == lost)
      #expect(salvaged.lostEvents(in: lost[0].upperBound...last) == [lost[1]])
      #expect(salvaged.lostEvents(in: 0...(lost[0].lowerBound - 1)) == [])
      #expect(salvaged.lostEvents(in: 0...lost[0].lowerBound) == [lost[0]])
      // A search that starts among lost events cannot, but at the last: its start is not
      // known.
      for start in [lost[0].lowerBound, lost[0].upperBound - 1, lost[1].lowerBound] {
        #expect {
          try salvaged.find(.changed(path: "menu.selectedIndex"), in: start...last, all: true)
        } throws: { error in
          (error as? RewindError)?.code == .eventsLost
            && "\(error)".contains("event \(start) was lost to damage")
        }
        #expect {
          try salvaged.findLast(.changed(path: "menu.selectedIndex"), in: start...last)
        } throws: { error in (error as? RewindError)?.code == .eventsLost }
      }
    }
  }

  @Test(
    "a condition on the state is read again after lost events: it becomes true only where it did")
  func conditionReadAgainAfterLostEvents() throws {
    let directory = TemporaryDirectory()
    let (intact, salvaged, _, lost) = try salvagedTimeline(
      seed: 7, count: 1_500, in: directory)
    // Conditions that hold after the lost events but not before them: the first event
    // after them that changes the field, keeping the condition true, is no point.
    let gap = lost[0]
    let before = try intact.state(after: gap.lowerBound - 1).menu.selectedIndex
    let after = try intact.state(after: gap.upperBound).menu.selectedIndex
    try #require(before != after)
    let condition: Condition =
      before < after
      ? .greater(path: "menu.selectedIndex", value: .int(Int64(before)))
      : .not(.greater(path: "menu.selectedIndex", value: .int(Int64(after))))
    let range = (gap.lowerBound - 1)...salvaged.lastSequence
    let expected = try intact.find(condition, in: range, all: true).map(\.sequence).filter {
      !gap.contains($0) && !lost[1].contains($0)
    }
    #expect(try salvaged.find(condition, in: range, all: true).map(\.sequence) == expected)
    #expect(try salvaged.findLast(condition, in: range)?.sequence == expected.last)
  }

  @Test(
    "blame --history: the intact journal's changes by the events kept, the value after lost events from their snapshot"
  )
  func blameHistoryGoesOnPastLostEvents() throws {
    let seed = testSeed("LostEventsSearchTests.blameHistoryGoesOnPastLostEvents")
    var random = SplitMix64(seed: seed)
    let directory = TemporaryDirectory()
    let (intact, salvaged, _, lost) = try salvagedTimeline(
      seed: random.next(), count: 1_500, in: directory)
    let last = salvaged.lastSequence
    let points = [
      last, lost[1].upperBound + 1, lost[0].upperBound + 3, lost[0].lowerBound - 1,
      lost[0].upperBound, lost[1].upperBound,
    ]
    for field in intact.domain.fields {
      for point in points {
        let context = "seed \(seed), \(field.path) at \(point)"
        let expected = try intact.blameHistory(field.path, at: point).filter { change in
          !lost.contains { $0.contains(change.event.sequence) }
        }
        let history = try salvaged.blameHistory(field.path, at: point)
        #expect(history.map(\.event.sequence) == expected.map(\.event.sequence), "\(context)")
        #expect(history.map(\.old) == expected.map(\.old), "\(context)")
        #expect(history.map(\.new) == expected.map(\.new), "\(context)")
        let newest = try salvaged.blameHistory(field.path, at: point, limit: 2)
        #expect(newest.map(\.event.sequence) == expected.prefix(2).map(\.event.sequence))
      }
    }
    // A point among lost events has no state to look back from, but the last.
    #expect {
      try salvaged.blameHistory("menu.selectedIndex", at: lost[0].upperBound - 1)
    } throws: { error in
      (error as? RewindError)?.code == .eventsLost
        && "\(error)".contains("event \(lost[0].upperBound - 1) was lost to damage")
    }
  }

  @Test(
    "blame: the event that set the value, or that it cannot be known when lost events come after the last change seen"
  )
  func blameSaysWhenTheAnswerMayBeLost() throws {
    let seed = testSeed("LostEventsSearchTests.blameSaysWhenTheAnswerMayBeLost")
    var random = SplitMix64(seed: seed)
    let directory = TemporaryDirectory()
    let (intact, salvaged, _, lost) = try salvagedTimeline(
      seed: random.next(), count: 1_500, in: directory)
    var unknown = 0
    var known = 0
    for field in intact.domain.fields {
      for point in [salvaged.lastSequence, lost[1].upperBound + 2, lost[0].lowerBound - 1] {
        let context = "seed \(seed), \(field.path) at \(point)"
        let blame = try salvaged.blame(field.path, at: point)
        #expect(blame.value == (try intact.blame(field.path, at: point)).value, "\(context)")
        // The newest lost events before the point, and the newest change after them.
        let newestLost = lost.last { $0.upperBound < point }
        let changed = try intact.blameHistory(field.path, at: point, limit: 1).first?.event
        if let newestLost, (changed?.sequence ?? 0) <= newestLost.upperBound {
          unknown += 1
          #expect(blame.event == nil, "\(context)")
          #expect(blame.lostEvents == newestLost, "\(context)")
        } else {
          known += 1
          #expect(blame.event?.sequence == changed?.sequence, "\(context)")
          #expect(blame.lostEvents == nil, "\(context)")
        }
      }
    }
    #expect(unknown > 0 && known > 0, "seed \(seed): \(unknown) unknown, \(known) known")
  }

  @Test(
    "log --where after lost events: the intact journal's events kept, their changes and states before"
  )
  func logComparesTheEventAfterLostEventsWithTheirSnapshot() throws {
    let seed = testSeed("LostEventsSearchTests.logComparesTheEventAfterLostEventsWithTheirSnapshot")
    var random = SplitMix64(seed: seed)
    /// The fields the first event after each lost range changed: a `changed(…)` of one
    /// of them holds there.
    func changedAfterGaps(
      _ intact: Timeline<NavigationDomain>, _ lost: [ClosedRange<UInt64>]
    ) throws -> [String] {
      var paths: [String] = []
      for gap in lost {
        try intact.events(from: gap.upperBound + 1, through: gap.upperBound + 1) { _, changed, _ in
          paths += intact.domain.fields.indices.filter(changed.contains).map {
            intact.domain.fields[$0].path
          }
          return true
        }
      }
      return paths
    }
    // A session whose first event after lost events changed a field (about half do).
    var directory = TemporaryDirectory()
    var (intact, salvaged, events, lost) = try salvagedTimeline(
      seed: random.next(), count: 1_500, in: directory)
    var paths = try changedAfterGaps(intact, lost)
    for _ in 0..<30 where paths.isEmpty {
      directory = TemporaryDirectory()
      (intact, salvaged, events, lost) = try salvagedTimeline(
        seed: random.next(), count: 1_500, in: directory)
      paths = try changedAfterGaps(intact, lost)
    }
    try #require(!paths.isEmpty, "seed \(seed): no event after lost events changed a field")
    let domain = salvaged.domain
    let last = salvaged.lastSequence
    // The state after the last of the lost events is the intact journal's there; no
    // other point has one of its own.
    for gap in lost {
      let state = try #require(try salvaged.state(afterLostEventsEndingAt: gap.upperBound))
      #expect(domain.json(state) == domain.json(try intact.state(after: gap.upperBound)))
      #expect(try salvaged.state(afterLostEventsEndingAt: gap.lowerBound - 1) == nil)
      #expect(try salvaged.state(afterLostEventsEndingAt: gap.upperBound + 1) == nil)
    }
    let conditions: [Condition] =
      paths.map { .changed(path: $0) }
      + (0..<8).map { _ in scans.randomCondition(events: events, using: &random) }
    let kept = { (sequence: UInt64) in !lost.contains { $0.contains(sequence) } }
    let line = { (logged: LoggedEvent<NavigationDomain>, state: NavigationState) in
      "\(logged.event.sequence) \(logged.changed.rawValue) \(logged.before.map { domain.json($0).compactText } ?? "-") \(domain.json(state).compactText)"
    }
    for condition in conditions {
      let evaluator = try ConditionEvaluator(condition, in: domain)
      for keeping in [false, true] {
        var expected: [String] = []
        try intact.events(from: 1, through: last, where: evaluator, keepingPrevious: keeping) {
          logged, state in
          if kept(logged.event.sequence) { expected.append(line(logged, state)) }
          return true
        }
        var lines: [String] = []
        let crossed = try salvaged.events(
          from: 1, through: last, where: evaluator, keepingPrevious: keeping
        ) { logged, state in
          lines.append(line(logged, state))
          return true
        }
        #expect(crossed == lost)
        #expect(lines == expected, "seed \(seed), \(condition), keeping \(keeping)")
      }
    }
  }
}
