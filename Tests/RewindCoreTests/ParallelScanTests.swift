import Dispatch
import Foundation
import Navigation
import Synchronization
import TestSupport
import Testing

@testable import RewindCore
@testable import RewindJournal

/// The scans of whole sessions (`find`, `check`) as ``SessionScans`` specialises them and
/// as parallel parts run them: the same answers as the generic reading of the fields, and
/// as one pass.
@Suite("Scans: specialised and parallel, the same answers")
struct ParallelScanTests {
  let domain = NavigationDomain()

  /// Records `count` random events (many rejected, every field moving) and opens the
  /// journal with parts of at least 50 events, so that it splits into several.
  func randomTimeline(seed: UInt64, count: Int, in directory: TemporaryDirectory) throws -> (
    Timeline<NavigationDomain>, [NavigationEvent]
  ) {
    let path = directory.file("random.journal")
    var generator = RandomEventGenerator(seed: seed, domain: domain)
    let events = (0..<count).map { _ in generator.next() }
    let recorder = try JournalRecorder.create(
      at: path, domain: domain, session: testSession,
      options: RecordingOptions(snapshotInterval: 29, journal: .init(frameSize: 1024)))
    for (index, event) in events.enumerated() {
      try recorder.record(event, at: UInt64(index) * 1_000)
    }
    try recorder.close()
    let timeline = try Timeline<NavigationDomain>(path: path)
    timeline.minimumEventsPerPart = 50
    return (timeline, events)
  }

  /// ``randomTimeline(seed:count:in:)`` of 2,000 events, and its parts for three jobs, of
  /// at most 60 events each: the journal the tests of `forEachPart` split.
  func splitTimeline(seed: UInt64, in directory: TemporaryDirectory) throws -> (
    Timeline<NavigationDomain>, [NavigationEvent], [ClosedRange<UInt64>]
  ) {
    let (timeline, events) = try randomTimeline(seed: seed, count: 2_000, in: directory)
    let ranges = try #require(
      timeline.parallelRanges(jobs: 3, in: 0...UInt64(events.count), longest: 60))
    return (timeline, events, ranges)
  }

  /// The points of `range` where `condition` becomes true, read the generic way: every
  /// state folded, the condition evaluated at every point through `ConditionEvaluator`
  /// (a condition on the event matches wherever it holds, one on the state where it
  /// starts to hold, or at the range's start when it holds there).
  func expectedHits(
    _ condition: Condition, events: [NavigationEvent], all: Bool,
    range: ClosedRange<UInt64>? = nil
  ) throws -> [(UInt64, JSONValue)] {
    let evaluator = try ConditionEvaluator(condition, in: domain)
    let range = range ?? 0...UInt64(events.count)
    var state = domain.initialState
    for event in events.prefix(Int(range.lowerBound)) { _ = domain.reduce(&state, event) }
    var holding =
      !evaluator.isAboutEvents
      && evaluator.holds(after: nil, previous: nil, state: state)
    var hits: [(UInt64, JSONValue)] = []
    if holding { hits.append((range.lowerBound, evaluator.shownValue(in: state))) }
    for sequence in (range.lowerBound + 1)...max(range.upperBound, range.lowerBound + 1)
    where sequence <= range.upperBound {
      if !all, !hits.isEmpty { break }
      let event = events[Int(sequence) - 1]
      let before = state
      let outcome = domain.reduce(&state, event)
      let replayed = ReplayedEvent<NavigationDomain>(
        sequence: sequence, time: 0, event: event, outcome: outcome,
        recorded: RecordedEffect(kind: .applied, changed: []))
      let holdsNow = evaluator.holds(after: replayed, previous: before, state: state)
      if evaluator.isAboutEvents ? holdsNow : holdsNow && !holding {
        hits.append((sequence, evaluator.shownValue(in: state)))
      }
      holding = holdsNow
    }
    return all ? hits : Array(hits.prefix(1))
  }

  /// A random condition: a change of a random field, a random field equal (or not) to a
  /// value it takes somewhere in the session, compared with a number, an event's kind or
  /// outcome, or two of them combined with `&&` or `||`, or one negated.
  func randomCondition(
    events: [NavigationEvent], using random: inout SplitMix64, depth: Int = 0
  ) -> Condition {
    if depth < 2, Int.random(in: 0..<3, using: &random) == 0 {
      let left = randomCondition(events: events, using: &random, depth: depth + 1)
      let right = randomCondition(events: events, using: &random, depth: depth + 1)
      switch Int.random(in: 0..<3, using: &random) {
      case 0: return .and(left, right)
      case 1: return .or(left, right)
      default: return .not(left)
      }
    }
    let field = domain.fields.randomElement(using: &random)!
    var state = domain.initialState
    let stop = Int.random(in: 0..<events.count, using: &random)
    for event in events.prefix(stop) { _ = domain.reduce(&state, event) }
    let value = field.value(state)
    switch Int.random(in: 0..<7, using: &random) {
    case 0: return .changed(path: field.path)
    case 1: return .equals(path: field.path, value: value)
    case 2: return .notEquals(path: field.path, value: value)
    case 3: return .greater(path: "menu.selectedIndex", value: .int(Int64(stop % 5)))
    case 4:
      return .equals(
        path: "event", value: .string(domain.eventKind(events[stop])))
    case 5:
      return .equals(
        path: "outcome", value: .string(["applied", "unchanged", "rejected"][stop % 3]))
    default:
      if case .array(let elements) = value, let element = elements.first {
        return .contains(path: field.path, value: element)
      }
      return .equals(path: field.path, value: value)
    }
  }

  @Test(
    "find over random sessions and conditions: the generic reading's points, with 1, 2 and 4 jobs")
  func findMatchesGenericReading() throws {
    let seed = testSeed("findMatchesGenericReading")
    var random = SplitMix64(seed: seed)
    for trial in 0..<6 {
      let directory = TemporaryDirectory()
      let (timeline, events) = try randomTimeline(
        seed: random.next(), count: 600 + trial * 150, in: directory)
      #expect((timeline.parallelRanges(jobs: 4)?.count ?? 0) > 4)
      for _ in 0..<8 {
        let condition = randomCondition(events: events, using: &random)
        for all in [true, false] {
          let expected = try expectedHits(condition, events: events, all: all)
          for jobs in [1, 2, 4] {
            let hits = try timeline.find(condition, all: all, jobs: jobs)
            #expect(
              hits.map(\.sequence) == expected.map(\.0),
              "seed \(seed), trial \(trial), \(condition), all: \(all), jobs: \(jobs)")
            #expect(hits.map(\.value) == expected.map(\.1))
            // The events with unknown ids (rejected) are interned by each domain value in
            // its own order: they are compared by kind.
            for hit in hits where hit.event != nil {
              let event = events[Int(hit.sequence) - 1]
              if hit.event!.outcome?.isRejected == true {
                #expect(timeline.domain.eventKind(hit.event!.event) == domain.eventKind(event))
              } else {
                #expect(hit.event!.event == event, "\(hit.sequence) \(condition)")
              }
            }
          }
        }
        // A range, forwards (1 job and 4) and backwards.
        let last = UInt64(events.count)
        let from = random.next() % (last / 2)
        let to = from + random.next() % (last - from)
        let expected = try expectedHits(condition, events: events, all: true, range: from...to)
        for jobs in [1, 2, 4] {
          let hits = try timeline.find(condition, in: from...to, all: true, jobs: jobs)
          #expect(
            hits.map(\.sequence) == expected.map(\.0),
            "seed \(seed), trial \(trial), \(condition), \(from)...\(to), jobs: \(jobs)")
        }
        let backwards = try timeline.findLast(condition, in: from...to)
        #expect(
          backwards?.sequence == expected.last?.0,
          "seed \(seed), trial \(trial), \(condition), last in \(from)...\(to)")
        #expect(backwards?.value == expected.last?.1)
      }
    }
  }

  @Test("reduceTrackingChanges agrees with reduce and changedFields of a copy, event by event")
  func trackedChangesAgree() throws {
    let seed = testSeed("trackedChangesAgree")
    var generator = RandomEventGenerator(seed: seed, domain: domain)
    var state = domain.initialState
    var changedSome = 0
    for _ in 0..<20_000 {
      let event = generator.next()
      var copy = state
      let outcome = domain.reduce(&copy, event)
      let expected = outcome.isApplied ? domain.changedFields(from: state, to: copy) : []
      let tracked = domain.reduceTrackingChanges(&state, event)
      #expect(state == copy)
      #expect(tracked.outcome == outcome)
      #expect(tracked.changed == expected, "seed \(seed), \(event)")
      if !tracked.changed.isEmpty { changedSome += 1 }
    }
    #expect(changedSome > 1_000)
  }

  @Test("check with 2 and 4 jobs reports what one pass reports, faithful or altered reducer")
  func checkInPartsMatchesOnePass() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("tally.journal")
    let (_, states) = try recordTally(at: path, count: 5_000, seed: 5, interval: 128)
    // The recorded final state as expected: an altered reducer ends elsewhere.
    let expected = StandardTally().json(states.last!)
    func summary(_ report: CheckReport) -> String {
      let event =
        report.eventDivergences.isEmpty
        ? nil
        : "\(report.eventDivergenceCount): "
          + report.eventDivergences.map {
            "\($0.sequence) \($0.event) \($0.recordedPaths) \($0.replayedPaths)"
          }.joined(separator: "; ")
      let state = report.stateDivergence.map {
        "\($0.sequence) \($0.problem) \($0.differences.map(\.lines))"
      }
      return
        "\(report.passed) \(report.eventsReplayed) \(report.snapshotsCompared) \(event ?? "-") \(state ?? "-") \(report.expectedStateDifferences.map(\.lines))"
    }
    func reports<D: Domain>(_ type: D.Type) throws -> [String] {
      try [1, 2, 4].map { jobs in
        let timeline = try Timeline<D>(path: path)
        timeline.minimumEventsPerPart = 100
        // More parts than jobs: the threads take them as they finish the ones before.
        #expect((timeline.parallelRanges(jobs: jobs)?.count ?? 1) > (jobs == 1 ? 0 : jobs))
        return summary(try timeline.check(expected: expected, jobs: jobs, maxDivergences: 50))
      }
    }
    let faithful = try reports(StandardTally.self)
    #expect(faithful[0] == faithful[1] && faithful[0] == faithful[2])
    #expect(faithful[0].hasPrefix("true 5000 "))
    let uncounted = try reports(Tally<UncountedResetRules>.self)
    #expect(uncounted[0] == uncounted[1] && uncounted[0] == uncounted[2])
    // Every reset of a non-zero value diverges: more than the 50 described.
    let counted = try #require(uncounted[0].split(separator: " ").dropFirst(3).first)
    #expect(Int(counted.dropLast()) ?? 0 > 50, "\(uncounted[0])")
    #expect(uncounted[0].components(separatedBy: "; ").count == 50)
    // The altered reducer's state departs from the stored snapshots: the parts after the
    // first difference start from snapshots that are not the replayed state, and are
    // replayed again from it, as one pass goes on (the final state differs).
    let zeroing = try reports(Tally<AlteredRules>.self)
    #expect(zeroing[0] == zeroing[1] && zeroing[0] == zeroing[2])
    #expect(zeroing[0].hasPrefix("false 5000 "))
    #expect(zeroing[0].contains("tally.steps"))
  }

  @Test("a journal whose copy of the header is damaged is scanned in parts, as a whole one is")
  func damagedHeaderCopySplits() throws {
    let directory = TemporaryDirectory()
    let (whole, _) = try randomTimeline(
      seed: testSeed("damagedHeaderCopySplits"), count: 3_000, in: directory)
    let parts = try #require(whole.parallelRanges(jobs: 2, in: 0...3_000))
    // The copy starts where the header ends: its 8-byte prefix, then its payload.
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: whole.path)))
    let copy = 8 + (Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16)
    #expect(bytes[(copy + 8)..<(copy + 12)] == Array("RWHC".utf8)[...])
    bytes[copy + 20] ^= 0x40
    try Data(bytes).write(to: URL(fileURLWithPath: whole.path))
    let damaged = try Timeline<NavigationDomain>(path: whole.path)
    damaged.minimumEventsPerPart = 50
    #expect(damaged.reader.condition.headerCopyDamage != nil)
    #expect(!damaged.reader.condition.isIntact && damaged.reader.condition.framesAreIntact)
    #expect(damaged.parallelRanges(jobs: 2, in: 0...3_000) == parts)
    #expect(damaged.deepCheckParts(jobs: 2) == whole.deepCheckParts(jobs: 2))
    #expect(damaged.deepCheckParts(jobs: 2) != nil)
  }

  @Test("the parts of a parallel scan: in order, touching, more than the jobs, at frame ends")
  func partsCoverTheRange() throws {
    let seed = testSeed("partsCoverTheRange")
    var random = SplitMix64(seed: seed)
    let directory = TemporaryDirectory()
    let (timeline, events) = try randomTimeline(seed: seed, count: 3_000, in: directory)
    let frameEnds = Set(timeline.reader.frames.map(\.lastSequence))
    let last = UInt64(events.count)
    for _ in 0..<60 {
      let from = random.next() % last
      let to = from + random.next() % (last - from + 1)
      let jobs = Int.random(in: 1...6, using: &random)
      let longest = [UInt64.max, 10, 120, 400].randomElement(using: &random)!
      let context = "seed \(seed), \(from)...\(to), jobs \(jobs), longest \(longest)"
      guard let ranges = timeline.parallelRanges(jobs: jobs, in: from...to, longest: longest)
      else {
        // One pass: one job, or fewer than eight parts' worth of events.
        #expect(jobs == 1 || to - from < 400, "\(context)")
        continue
      }
      #expect(ranges.count > 1, "\(context)")
      #expect(ranges.first?.lowerBound == from && ranges.last?.upperBound == to, "\(context)")
      for (part, next) in zip(ranges, ranges.dropFirst()) {
        #expect(part.upperBound == next.lowerBound, "\(context)")
        // A bound inside the range is a frame's last event whenever one lies where the
        // part could end: at least 50 events after its start and at most the longest,
        // at least 50 before the range's end.
        let most = part.lowerBound + min(max(longest, 50), to - 50 - part.lowerBound)
        let limits = (part.lowerBound + 50)...most
        #expect(
          frameEnds.contains(part.upperBound) || !frameEnds.contains { limits.contains($0) },
          "\(context): \(part)")
      }
      let lengths = ranges.map { $0.upperBound - $0.lowerBound }
      #expect(lengths.allSatisfy { $0 >= 50 }, "\(context): \(lengths)")
      // At most the longest, but for the last part, which takes a short rest.
      #expect(lengths.dropLast().allSatisfy { $0 <= max(longest, 50) }, "\(context): \(lengths)")
      // The scan ends in short parts: the last is less than two minimums.
      #expect(lengths.last! < 100, "\(context): \(lengths)")
      if longest == .max {
        // The long parts first: a part is at most the one before and a frame.
        let frame = UInt64(timeline.reader.frames.map(\.recordCount).max()!)
        for (length, next) in zip(lengths, lengths.dropFirst()) {
          #expect(next <= length + frame, "\(context): \(lengths)")
        }
        if to - from >= 50 * UInt64(4 * jobs) {
          #expect(ranges.count > jobs, "\(context): \(lengths)")
        }
      }
    }
  }

  /// Records `count` random events in frames of `frameSize` bytes, flushed (a frame
  /// sealed) after each event of `flushes` too, a snapshot every `interval` events, and
  /// opens the journal with parts of at least 50 events.
  func journal(
    seed: UInt64, count: Int, frameSize: Int, interval: UInt32 = 29, flushes: Set<Int> = [],
    in directory: TemporaryDirectory
  ) throws -> (Timeline<NavigationDomain>, [NavigationEvent]) {
    let path = directory.file("frames-\(seed)-\(frameSize)-\(flushes.count).journal")
    var generator = RandomEventGenerator(seed: seed, domain: domain)
    let events = (0..<count).map { _ in generator.next() }
    let recorder = try JournalRecorder.create(
      at: path, domain: domain, session: testSession,
      options: RecordingOptions(snapshotInterval: interval, journal: .init(frameSize: frameSize)))
    for (index, event) in events.enumerated() {
      try recorder.record(event, at: UInt64(index) * 1_000)
      if flushes.contains(index) { try recorder.flush() }
    }
    try recorder.close()
    let timeline = try Timeline<NavigationDomain>(path: path)
    timeline.minimumEventsPerPart = 50
    return (timeline, events)
  }

  @Test(
    "parts cut at frame ends start from the next frame's snapshot: one pass's answers, in few, one or uneven frames"
  )
  func partsAtFrameEnds() throws {
    let seed = testSeed("partsAtFrameEnds")
    var random = SplitMix64(seed: seed)
    let directory = TemporaryDirectory()
    let count = 3_000
    var journals: [(String, Timeline<NavigationDomain>, [NavigationEvent])] = []
    // One frame (64 KiB holds them all), a few, uneven (small frames and frames sealed at
    // random events, some of a single event), and rare snapshots (a part starting inside
    // a frame replays far).
    let (one, oneEvents) = try journal(
      seed: random.next(), count: count, frameSize: 64 << 10, in: directory)
    #expect(one.reader.frames.count == 1)
    journals.append(("one frame", one, oneEvents))
    let few = Set((0..<3).map { _ in Int.random(in: 200..<count, using: &random) })
    let (fewTimeline, fewEvents) = try journal(
      seed: random.next(), count: count, frameSize: 64 << 10, flushes: few, in: directory)
    journals.append(("few frames", fewTimeline, fewEvents))
    var uneven = Set((0..<40).map { _ in Int.random(in: 0..<count, using: &random) })
    uneven.formUnion([1_000, 1_001, 1_002])
    let (unevenTimeline, unevenEvents) = try journal(
      seed: random.next(), count: count, frameSize: 4 << 10, flushes: uneven, in: directory)
    journals.append(("uneven frames", unevenTimeline, unevenEvents))
    let (rare, rareEvents) = try journal(
      seed: random.next(), count: count, frameSize: 2 << 10, interval: 5_000, in: directory)
    journals.append(("rare snapshots", rare, rareEvents))

    for (name, timeline, events) in journals {
      let frames = timeline.reader.frames
      let last = UInt64(events.count)
      // The state after each frame's last event, from the next frame's snapshot, is the
      // one replayed from the start; the replayer starts in the next frame.
      var state = domain.initialState
      var sequence: UInt64 = 0
      for (index, frame) in frames.enumerated().dropLast() {
        while sequence < frame.lastSequence {
          _ = domain.reduce(&state, events[Int(sequence)])
          sequence += 1
        }
        timeline.startsAtNextFrame = true
        let (replayer, start) = try timeline.replayer(toReach: frame.lastSequence)
        timeline.startsAtNextFrame = false
        #expect(start == state, "\(name): frame \(index)")
        // Rare snapshots: frames that do not start with one are reached as any point.
        let startsWithSnapshot =
          try timeline.reader.frameHeader(index + 1).snapshots.first?
          .snapshot.sequence == frame.lastSequence
        let usual = try timeline.reader.startingPoint(for: frame.lastSequence).frameIndex
        #expect(
          replayer.frameIndex == (startsWithSnapshot ? index + 1 : usual),
          "\(name): frame \(index)")
      }
      for _ in 0..<6 {
        let condition = randomCondition(events: events, using: &random)
        // The whole session, and ranges that cut frames.
        let from = Bool.random(using: &random) ? 0 : random.next() % (last / 2)
        let to = Bool.random(using: &random) ? last : from + random.next() % (last - from + 1)
        let context = "seed \(seed), \(name), \(condition), \(from)...\(to)"
        let expected = try expectedHits(condition, events: events, all: true, range: from...to)
        let count = expected.count
        for jobs in [1, 2, 3, 4] {
          let hits = try timeline.find(condition, in: from...to, all: true, jobs: jobs)
          #expect(hits.map(\.sequence) == expected.map(\.0), "\(context), jobs \(jobs)")
          #expect(hits.map(\.value) == expected.map(\.1), "\(context), jobs \(jobs)")
          var streamed: [UInt64] = []
          try timeline.forEachMatch(condition, in: from...to, jobs: jobs) {
            streamed.append($0.sequence)
          }
          #expect(streamed == expected.map(\.0), "\(context), jobs \(jobs)")
          #expect(
            try timeline.count(condition, in: from...to, jobs: jobs) == count,
            "\(context), jobs \(jobs)")
          let first = try timeline.find(condition, in: from...to, all: false, jobs: jobs)
          #expect(first.map(\.sequence) == expected.prefix(1).map(\.0), "\(context), jobs \(jobs)")
        }
      }
      let report = try timeline.check(jobs: 1)
      #expect(report.passed && report.eventsReplayed == last, "\(name)")
      for jobs in [2, 3, 4] {
        let parts = try timeline.check(jobs: jobs)
        #expect(parts.passed, "\(name), jobs \(jobs)")
        #expect(parts.eventsReplayed == report.eventsReplayed, "\(name), jobs \(jobs)")
        #expect(parts.snapshotsCompared == report.snapshotsCompared, "\(name), jobs \(jobs)")
      }
    }
  }

  @Test(
    "forEachPart hands the parts on in order, holds at most `ahead` of them, stops at the first error"
  )
  func partsHandedOnInOrder() throws {
    let seed = testSeed("partsHandedOnInOrder")
    var random = SplitMix64(seed: seed)
    let directory = TemporaryDirectory()
    let (timeline, events, ranges) = try splitTimeline(seed: seed, in: directory)
    for _ in 0..<6 {
      let ahead = Int.random(in: 1...5, using: &random)
      let failing =
        Bool.random(using: &random) ? Int.random(in: 0..<ranges.count, using: &random) : nil
      let running = Mutex((now: 0, most: 0))
      let started = Mutex<[Int]>([])
      // The parts handed on, counted in `body` (before forEachPart counts them itself).
      let handedOnCount = Mutex(0)
      let tooFarAhead = Mutex<[Int]>([])
      var handedOn: [ClosedRange<UInt64>] = []
      var reported: UInt64 = 0
      let context = "seed \(seed), ahead \(ahead), failing \(failing.map(String.init) ?? "none")"
      do {
        try timeline.forEachPart(
          ranges, jobs: 3, ahead: ahead, progress: { reported = max(reported, $0) },
          { timeline, range, progress in
            let index = ranges.firstIndex(of: range)!
            started.withLock { $0.append(index) }
            if index >= handedOnCount.withLock({ $0 }) + ahead {
              tooFarAhead.withLock { $0.append(index) }
            }
            running.withLock {
              $0.now += 1
              $0.most = max($0.most, $0.now)
            }
            defer { running.withLock { $0.now -= 1 } }
            // A real replay of the part, so that the threads overlap.
            var count: UInt64 = 0
            try timeline.events(from: range.lowerBound + 1, through: range.upperBound) { _, _, _ in
              count += 1
              return true
            }
            progress(count)
            if index == failing { throw RewindError(.undecodable, "part \(index) fails") }
            return range
          },
          {
            handedOn.append($0)
            handedOnCount.withLock { $0 += 1 }
          })
        #expect(failing == nil, "\(context)")
      } catch let error as RewindError {
        #expect(error.message == "part \(failing ?? -1) fails", "\(context)")
      }
      let expected = failing.map { Array(ranges.prefix($0)) } ?? ranges
      #expect(handedOn == expected, "\(context)")
      #expect(running.withLock { $0.most } <= 3, "\(context)")
      // A part is started only when fewer than `ahead` parts from the first not handed
      // on have started.
      #expect(tooFarAhead.withLock { $0 }.isEmpty, "\(context)")
      let order = started.withLock { $0 }
      #expect(Set(order).count == order.count, "\(context)")
      if failing == nil {
        #expect(Set(order) == Set(ranges.indices), "\(context)")
        #expect(reported <= UInt64(events.count), "\(context)")
      }
    }
  }

  @Test(
    "forEachPart handing on at the end: every part done before the first is handed on, in order; a failure still stops it"
  )
  func partsHandedOnAtTheEnd() throws {
    let seed = testSeed("partsHandedOnAtTheEnd")
    var random = SplitMix64(seed: seed)
    let directory = TemporaryDirectory()
    let (timeline, _, ranges) = try splitTimeline(seed: seed, in: directory)
    for round in 0..<4 {
      let failing = round == 0 ? nil : Int.random(in: 0..<ranges.count, using: &random)
      let finished = Mutex(0)
      // The parts finished when `body` was first called.
      var finishedAtFirst: Int?
      var handedOn: [ClosedRange<UInt64>] = []
      let context = "seed \(seed), failing \(failing.map(String.init) ?? "none")"
      do {
        try timeline.forEachPart(
          ranges, jobs: 3, ahead: ranges.count, handsOnAtEnd: true, progress: { _ in },
          { timeline, range, _ in
            let index = ranges.firstIndex(of: range)!
            defer { finished.withLock { $0 += 1 } }
            // The parts after the first take long enough that one handed on as soon as
            // it is done would reach `body` before them.
            if index > 0 { usleep(2_000) }
            var count = 0
            try timeline.events(from: range.lowerBound + 1, through: range.upperBound) { _, _, _ in
              count += 1
              return true
            }
            if index == failing { throw RewindError(.undecodable, "part \(index) fails") }
            return range
          },
          {
            if finishedAtFirst == nil { finishedAtFirst = finished.withLock { $0 } }
            handedOn.append($0)
          })
        #expect(failing == nil, "\(context)")
        #expect(finishedAtFirst == ranges.count, "\(context)")
      } catch let error as RewindError {
        #expect(error.message == "part \(failing ?? -1) fails", "\(context)")
      }
      let expected = failing.map { Array(ranges.prefix($0)) } ?? ranges
      #expect(handedOn == expected, "\(context)")
    }
  }

  @Test("once a part fails, no part after it starts, on the calling thread too")
  func noPartStartsAfterAFailure() throws {
    let seed = testSeed("noPartStartsAfterAFailure")
    var random = SplitMix64(seed: seed)
    let directory = TemporaryDirectory()
    let (timeline, _, ranges) = try splitTimeline(seed: seed, in: directory)
    for handsOnAtEnd in [true, false] {
      // One job: the parts run one after another, on the calling thread when handed on
      // at the end, on one started thread when not.
      let failing = Int.random(in: 0..<(ranges.count - 1), using: &random)
      let started = Mutex<[Int]>([])
      let context = "seed \(seed), failing \(failing), handsOnAtEnd \(handsOnAtEnd)"
      #expect(throws: RewindError.self, "\(context)") {
        try timeline.forEachPart(
          ranges, jobs: 1, ahead: ranges.count, handsOnAtEnd: handsOnAtEnd, progress: { _ in },
          { _, range, _ in
            let index = ranges.firstIndex(of: range)!
            started.withLock { $0.append(index) }
            if index == failing { throw RewindError(.undecodable, "part \(index) fails") }
            return range
          }, { _ in })
      }
      #expect(started.withLock { $0 } == Array(0...failing), "\(context)")
    }
  }

  @Test(
    "when no thread starts, the scan says so, unless the calling thread takes parts; when some do, they take every part"
  )
  func threadsThatDoNotStart() throws {
    let seed = testSeed("threadsThatDoNotStart")
    let directory = TemporaryDirectory()
    let (timeline, _, ranges) = try splitTimeline(seed: seed, in: directory)
    let work:
      @Sendable (Timeline<NavigationDomain>, ClosedRange<UInt64>, (UInt64) -> Void)
        throws -> ClosedRange<UInt64> = { _, range, _ in range }
    // No thread starts: the error, nothing handed on (and nothing left waiting).
    var handed: [ClosedRange<UInt64>] = []
    #expect(throws: ThreadStartError(status: EAGAIN), "seed \(seed)") {
      try timeline.forEachPart(
        ranges, jobs: 3, ahead: 2, handsOnAtEnd: false, progress: { _ in },
        startThread: { _, _ in EAGAIN }, work, { handed.append($0) })
    }
    #expect(handed.isEmpty)
    // Handed on at the end, the calling thread takes parts too: with no thread, it takes
    // every part, on itself.
    let caller = pthread_self()
    let ranThere = Mutex(0)
    var attempts = 0
    try timeline.forEachPart(
      ranges, jobs: 3, ahead: ranges.count, handsOnAtEnd: true, progress: { _ in },
      startThread: { elsewhere, _ in
        #expect(elsewhere == attempts)
        attempts += 1
        return EAGAIN
      },
      { _, range, _ in
        if pthread_equal(pthread_self(), caller) != 0 { ranThere.withLock { $0 += 1 } }
        return range
      }, { handed.append($0) })
    #expect(handed == ranges, "seed \(seed)")
    #expect(ranThere.withLock { $0 } == ranges.count)
    #expect(attempts == 1)
    // Only the first starts: it takes every part, handed on in order, at both ways of
    // handing them on (with this thread, at the end).
    for handsOnAtEnd in [false, true] {
      let starts = Mutex(0)
      handed = []
      try timeline.forEachPart(
        ranges, jobs: 3, ahead: handsOnAtEnd ? ranges.count : 2, handsOnAtEnd: handsOnAtEnd,
        progress: { _ in },
        startThread: { elsewhere, body in
          let first = starts.withLock {
            $0 += 1
            return $0 == 1
          }
          return first ? DetachedThread.tryStart(elsewhere: elsewhere, body) : EAGAIN
        }, work, { handed.append($0) })
      #expect(handed == ranges, "seed \(seed), handsOnAtEnd \(handsOnAtEnd)")
      // The second thread does not start, and no other is tried.
      #expect(starts.withLock { $0 } == 2)
    }
  }

  @Test("a parallel scan of a journal that cannot be opened again throws, running no part")
  func partsOfAJournalGone() throws {
    let seed = testSeed("partsOfAJournalGone")
    let directory = TemporaryDirectory()
    let (timeline, _, ranges) = try splitTimeline(seed: seed, in: directory)
    // Each part's thread opens the journal again: it is gone.
    try FileManager.default.removeItem(atPath: timeline.path)
    let ran = Mutex(0)
    #expect(throws: JournalError.self, "seed \(seed)") {
      try timeline.forEachPart(
        ranges, jobs: 3, ahead: 2, progress: { _ in },
        { _, range, _ in
          ran.withLock { $0 += 1 }
          return range
        }, { _ in })
    }
    #expect(ran.withLock { $0 } == 0)
  }

  @Test("log --where on 2 and 4 threads: the events one pass visits, in order, stopping as asked")
  func parallelLogMatchesOnePass() throws {
    let seed = testSeed("parallelLogMatchesOnePass")
    var random = SplitMix64(seed: seed)
    let directory = TemporaryDirectory()
    let (timeline, events) = try randomTimeline(seed: seed, count: 2_500, in: directory)
    let last = UInt64(events.count)
    let domain = timeline.domain
    for _ in 0..<12 {
      let condition = randomCondition(events: events, using: &random)
      let evaluator = try ConditionEvaluator(condition, in: domain)
      let from = random.next() % last + 1
      // Now and then beyond the session's end, where one pass stops.
      let to = random.next() % 4 == 0 ? last + 50 : from + random.next() % (last - from + 1)
      let keeping = Bool.random(using: &random)
      // What the CLI renders: the event, what it changed, the state before and after.
      let render: @Sendable (LoggedEvent<NavigationDomain>, NavigationState) -> String? = {
        logged, state in
        guard logged.event.sequence % 7 != 3 else { return nil }  // a filter after the condition
        return
          "\(logged.event.sequence) \(domain.json(logged.event.event).compactText) \(logged.changed.rawValue) \(logged.before.map { domain.json($0).compactText } ?? "-") \(domain.json(state).compactText)"
      }
      var one: [String] = []
      try timeline.events(
        from: from, through: to, where: evaluator, keepingPrevious: keeping, jobs: 1,
        render: render
      ) {
        one.append($0)
        return true
      }
      for jobs in [2, 4] {
        let context =
          "seed \(seed), \(condition), \(from)...\(to), keeping \(keeping), jobs \(jobs)"
        var many: [String] = []
        var reported: UInt64 = 0
        let lost = try timeline.events(
          from: from, through: to, where: evaluator, keepingPrevious: keeping, jobs: jobs,
          longestPart: 60, progress: { reported = max(reported, $0) }, render: render,
          {
            many.append($0)
            return true
          })
        #expect(lost.isEmpty)
        #expect(many == one, "\(context)")
        #expect(reported <= to - from + 1, "\(context)")
        // Stopped after a few lines: the same first lines, no more.
        let stop = one.isEmpty ? 0 : Int.random(in: 0..<one.count, using: &random)
        var stopped: [String] = []
        try timeline.events(
          from: from, through: to, where: evaluator, keepingPrevious: keeping, jobs: jobs,
          longestPart: 60, render: render
        ) {
          stopped.append($0)
          return stopped.count <= stop
        }
        #expect(stopped == Array(one.prefix(stop + 1)), "\(context), stop \(stop)")
      }
    }
  }

  @Test("scans of two timelines sharing cores run at most that many parts at once, same answers")
  func sharedCoresBoundTheParts() throws {
    let seed = testSeed("sharedCoresBoundTheParts")
    let directory = TemporaryDirectory()
    let (timeline, events) = try randomTimeline(seed: seed, count: 2_000, in: directory)
    let other = try Timeline<NavigationDomain>(path: timeline.path)
    other.minimumEventsPerPart = 50
    let last = UInt64(events.count)
    let ranges = try #require(timeline.parallelRanges(jobs: 3, in: 0...last, longest: 80))
    for cores in [1, 2] {
      let shared = SharedCores(cores)
      timeline.sharedCores = shared
      other.sharedCores = shared
      let running = Mutex((now: 0, most: 0))
      let scan:
        @Sendable (Timeline<NavigationDomain>, ClosedRange<UInt64>, (UInt64) -> Void) throws
          -> UInt64 = { timeline, range, _ in
            running.withLock {
              $0.now += 1
              $0.most = max($0.most, $0.now)
            }
            defer { running.withLock { $0.now -= 1 } }
            // A replay from the start: parts of different lengths of work.
            let state = try timeline.replayedState(after: range.upperBound)
            return UInt64(state.menu.selectedIndex) << 32 | range.upperBound
          }
      let first = Mutex<[UInt64]>([])
      let group = DispatchGroup()
      let handover = UncheckedBox(other)
      DispatchQueue.global().async(group: group) {
        var answers: [UInt64] = []
        try? handover.value.forEachPart(
          ranges, jobs: 3, ahead: ranges.count, progress: { _ in }, scan, { answers.append($0) })
        first.withLock { $0 = answers }
      }
      var answers: [UInt64] = []
      try timeline.forEachPart(
        ranges, jobs: 3, ahead: ranges.count, progress: { _ in }, scan, { answers.append($0) })
      group.wait()
      #expect(answers.count == ranges.count)
      #expect(first.withLock { $0 } == answers, "seed \(seed), cores \(cores)")
      #expect(running.withLock { $0.most } <= cores, "seed \(seed), cores \(cores)")
    }
  }
}

/// A timeline handed to another thread, which alone uses it.
private struct UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
