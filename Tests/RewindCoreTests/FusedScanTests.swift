import Navigation
import TestSupport
import Testing

@testable import RewindCore
@testable import RewindJournal

/// The scans fused into the replay loop (`find --count`, `log --where`, the deep check):
/// the same answers as the paths they replace.
@Suite("Scans: fused into the replay loop, the same answers")
struct FusedScanTests {
  let scans = ParallelScanTests()
  var domain: NavigationDomain { scans.domain }

  @Test("count is the number of points find lists with all, with 1 job and 4, over ranges")
  func countMatchesFindAll() throws {
    let seed = testSeed("countMatchesFindAll")
    var random = SplitMix64(seed: seed)
    for trial in 0..<4 {
      let directory = TemporaryDirectory()
      let (timeline, events) = try scans.randomTimeline(
        seed: random.next(), count: 700 + trial * 200, in: directory)
      let last = UInt64(events.count)
      var counted = 0
      for _ in 0..<10 {
        let condition = scans.randomCondition(events: events, using: &random)
        let from = random.next() % (last / 2)
        let to = from + random.next() % (last - from)
        for range in [0...last, from...to] {
          let hits = try timeline.find(condition, in: range, all: true, jobs: 1)
          for jobs in [1, 4] {
            let count = try timeline.count(condition, in: range, jobs: jobs)
            #expect(
              count == hits.count, "seed \(seed), trial \(trial), \(condition), \(range), \(jobs)")
          }
          counted += hits.count
        }
      }
      #expect(counted > 0, "seed \(seed), trial \(trial): no condition ever held")
    }
  }

  @Test(
    "forEachMatch hands out, in order, the points find lists with all: 1, 2 and 4 jobs, windows of a few events"
  )
  func streamedMatchesAreFindAll() throws {
    let seed = testSeed("streamedMatchesAreFindAll")
    var random = SplitMix64(seed: seed)
    for trial in 0..<3 {
      let directory = TemporaryDirectory()
      let (timeline, events) = try scans.randomTimeline(
        seed: random.next(), count: 900 + trial * 300, in: directory)
      let last = UInt64(events.count)
      var streamedAny = false
      for _ in 0..<8 {
        let condition = scans.randomCondition(events: events, using: &random)
        let from = random.next() % (last / 2)
        let to = from + random.next() % (last - from)
        for range in [0...last, from...to] {
          let hits = try timeline.find(condition, in: range, all: true, jobs: 1)
          for (jobs, window) in [(1, 1 << 19), (2, 37), (4, 101), (4, 1 << 19)] {
            timeline.streamingWindow = UInt64(window)
            var streamed: [FindHit<NavigationDomain>] = []
            var reported: UInt64 = 0
            try timeline.forEachMatch(condition, in: range, jobs: jobs) { done in
              reported = max(reported, done)
            } _: {
              streamed.append($0)
            }
            let context = "seed \(seed), trial \(trial), \(condition), \(range), jobs \(jobs)"
            #expect(streamed.map(\.sequence) == hits.map(\.sequence), "\(context)")
            #expect(streamed.map(\.value) == hits.map(\.value), "\(context)")
            #expect(
              streamed.map { $0.event.map { domain.json($0.event) } }
                == hits.map { $0.event.map { domain.json($0.event) } }, "\(context)")
            #expect(reported <= range.upperBound - range.lowerBound, "\(context)")
            streamedAny = streamedAny || !streamed.isEmpty
          }
        }
      }
      #expect(streamedAny, "seed \(seed), trial \(trial): no condition ever held")
    }
  }

  @Test("find's events from parallel parts are shown with the timeline's own domain")
  func parallelHitsUseTheTimelinesDomain() throws {
    let seed = testSeed("parallelHitsUseTheTimelinesDomain")
    let directory = TemporaryDirectory()
    let (timeline, events) = try scans.randomTimeline(seed: seed, count: 1_500, in: directory)
    #expect((timeline.parallelRanges(jobs: 4)?.count ?? 0) > 4)
    let hits = try timeline.find(.equals(path: "outcome", value: "rejected"), all: true, jobs: 4)
    #expect(hits.count > 10, "seed \(seed)")
    for hit in hits {
      // Ids the catalog lacks were interned by the parts: the timeline's domain knows them.
      let event = try #require(hit.event).event
      #expect(
        timeline.domain.json(event) == domain.json(events[Int(hit.sequence) - 1]),
        "seed \(seed), event \(hit.sequence)")
    }
  }

  /// What `log --where` listed before its fused scan: every event replayed, the
  /// condition evaluated by `ConditionEvaluator` from the states before and after it.
  func slowLog(
    _ timeline: Timeline<NavigationDomain>, _ evaluator: ConditionEvaluator<NavigationDomain>,
    from first: UInt64, through last: UInt64, changes: Bool
  ) throws -> [String] {
    var previous = try timeline.state(after: min(first - 1, last))
    var lines: [String] = []
    try timeline.events(from: first, through: last, crossingLostEvents: true) {
      replayed, changed, state in
      defer { previous = state }
      guard evaluator.holds(after: replayed, previous: previous, state: state) else {
        return true
      }
      lines.append(
        line(replayed, changes ? changed : [], before: previous, state, timeline.domain))
      return true
    }
    return lines
  }

  func line(
    _ event: ReplayedEvent<NavigationDomain>, _ changed: FieldSet, before: NavigationState?,
    _ state: NavigationState, _ domain: NavigationDomain
  ) -> String {
    let changes = changed.indices.map { index in
      let field = domain.fields[index]
      return
        "\(field.path): \(before.map { field.value($0).compactText } ?? "?") → \(field.value(state).compactText)"
    }
    return
      "\(event.sequence) \(event.time) \(domain.describe(event.event)) \(event.outcome!.name) \(changes)"
  }

  @Test("log --where's fused scan lists what evaluating the condition at every event lists")
  func logWhereMatchesSlowPath() throws {
    let seed = testSeed("logWhereMatchesSlowPath")
    var random = SplitMix64(seed: seed)
    for trial in 0..<4 {
      let directory = TemporaryDirectory()
      let (timeline, events) = try scans.randomTimeline(
        seed: random.next(), count: 600 + trial * 200, in: directory)
      let last = UInt64(events.count)
      var listed = 0
      for _ in 0..<10 {
        let condition = scans.randomCondition(events: events, using: &random)
        let evaluator = try ConditionEvaluator(condition, in: domain)
        let from = 1 + random.next() % (last / 2)
        let to = from + random.next() % (last - from)
        for (first, end) in [(1, last), (from, to)] {
          for keeping in [true, false] {
            let expected = try slowLog(
              timeline, evaluator, from: first, through: end, changes: keeping)
            var lines: [String] = []
            try timeline.events(
              from: first, through: end, where: evaluator, keepingPrevious: keeping
            ) { logged, state in
              lines.append(
                line(
                  logged.event, keeping ? logged.changed : [], before: logged.before, state,
                  timeline.domain))
              return true
            }
            #expect(
              lines == expected, "seed \(seed), trial \(trial), \(condition), \(first)...\(end)")
            listed += expected.count
          }
        }
      }
      #expect(listed > 0, "seed \(seed), trial \(trial): no condition ever held")
    }
  }

  @Test("the deep check's fused loop decodes every event of a generated journal")
  func deepCheckDecodesEveryEvent() throws {
    let directory = TemporaryDirectory()
    let (timeline, events) = try scans.randomTimeline(seed: 17, count: 2_000, in: directory)
    let report = timeline.deepCheck()
    #expect(report.isClean)
    #expect(report.eventsDecoded == UInt64(events.count))
    #expect(report.snapshotsCompared == report.snapshotsChecked)
    #expect(report.snapshotsChecked > 50)
  }
}
