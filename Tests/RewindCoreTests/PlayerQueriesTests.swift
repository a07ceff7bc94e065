import Foundation
import TestSupport
import Testing

@testable import RewindCore
@testable import RewindJournal

/// The timeline queries the player is built on: the next and previous match of a
/// condition from any point, counterfactual ranges of events, the recorded outcomes of
/// whole frames, and a continuation written from a point.
@Suite("Timeline queries for the player")
struct PlayerQueriesTests {
  let conditions = [
    "tally.value == 0", "tally.value != 0", "tally.flag == true", "changed(tally.flag)",
    "changed(tally.value)", "tally.sign == -", "tally.steps == 7",
  ]

  @Test("the next and previous match from every point agree with the list of every match")
  func nextAndPrevious() throws {
    let seed = testSeed("nextAndPrevious")
    let directory = TemporaryDirectory()
    let path = directory.file("tally.journal")
    try recordTally(at: path, count: 600, seed: seed, interval: 16, frameSize: 1024)
    let timeline = try Timeline<StandardTally>(path: path)
    for text in conditions {
      let condition = try Condition(parsing: text)
      let all = try timeline.find(condition, all: true).map(\.sequence)
      // The ends, and points at random (every point would be quadratic).
      var random = SplitMix64(seed: seed)
      let points =
        [0, 1, timeline.lastSequence - 1, timeline.lastSequence]
        + (0..<40).map { _ in UInt64.random(in: 0...timeline.lastSequence, using: &random) }
      for point in points {
        #expect(
          try timeline.find(condition, after: point)?.sequence == all.first { $0 > point },
          "\(text) after \(point)")
        #expect(
          try timeline.find(condition, before: point)?.sequence == all.last { $0 < point },
          "\(text) before \(point)")
      }
    }
  }

  @Test("a match carries the field's value and the event that made the condition true")
  func matchValue() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("script.journal")
    try recordScript([.added(5), .toggled, .added(3), .reset, .added(3)], at: path)
    let timeline = try Timeline<StandardTally>(path: path)
    let condition = try Condition(parsing: "tally.value == 3")
    let next = try #require(try timeline.find(condition, after: 0))
    #expect(next.sequence == 5)
    #expect(next.value == 3)
    #expect(next.event?.event == .added(3))
    // value: 5 5 8 0 3. Backwards from the end, the match is event 5; before it, none.
    #expect(try timeline.find(condition, before: 5) == nil)
    let changes = try Condition(parsing: "changed(tally.value)")
    #expect(try timeline.find(changes, before: 5)?.sequence == 4)
    #expect(try timeline.find(changes, before: 4)?.sequence == 3)
    #expect(try timeline.find(changes, before: 1) == nil)
    // The initial state is a match backwards when the condition holds there.
    let zero = try #require(try timeline.find(Condition(parsing: "tally.value == 0"), before: 3))
    #expect(zero.sequence == 0)
    #expect(zero.event == nil)
    #expect(try timeline.find(Condition(parsing: "tally.value == 0"), before: 0) == nil)
    #expect(throws: RewindError.self) { try timeline.find(condition, after: 6) }
    #expect(throws: ConditionError.self) {
      try timeline.find(Condition(parsing: "tally.nothing == 3"), after: 0)
    }
  }

  @Test("a counterfactual range of events: the skipped ones are visited unapplied")
  func eventsSkipping() throws {
    let seed = testSeed("eventsSkipping")
    let directory = TemporaryDirectory()
    let path = directory.file("tally.journal")
    let (events, _) = try recordTally(
      at: path, count: 300, seed: seed, interval: 8, frameSize: 1024)
    let timeline = try Timeline<StandardTally>(path: path)
    var random = SplitMix64(seed: seed)
    for _ in 0..<40 {
      let skipped = Set(
        (0..<Int.random(in: 1...4, using: &random)).map { _ in
          UInt64.random(in: 1...300, using: &random)
        })
      let first = UInt64.random(in: 1...300, using: &random)
      let last = min(300, first + UInt64.random(in: 0...40, using: &random))
      // The expected states: folding every event but the skipped ones.
      let domain = timeline.domain
      var state = domain.initialState
      var expected: [UInt64: StandardTally.State] = [:]
      for (index, item) in events.enumerated() where !skipped.contains(UInt64(index + 1)) {
        _ = domain.reduce(&state, item.event)
        expected[UInt64(index + 1)] = state
      }
      var visited: [UInt64] = []
      var previous = try timeline.state(after: first - 1, skipping: skipped)
      try timeline.events(from: first, through: last, skipping: skipped) { event, changed, after in
        visited.append(event.sequence)
        if skipped.contains(event.sequence) {
          #expect(event.outcome == nil)
          #expect(changed.isEmpty)
          #expect(after == previous)
        } else {
          #expect(after == expected[event.sequence], "event \(event.sequence) skipping \(skipped)")
        }
        let direct = try timeline.state(after: event.sequence, skipping: skipped)
        #expect(after == direct)
        previous = after
        return true
      }
      #expect(visited == Array(first...last))
    }
  }

  @Test(
    "the effects of skipping events are what the visited counterfactual gives: each later event's effect against the recording, and the end state",
    arguments: [false, true])
  func skipEffects(upcast: Bool) throws {
    let seed = testSeed("skipEffects")
    let directory = TemporaryDirectory()
    let path = directory.file("tally.journal")
    try recordTally(at: path, count: 400, seed: seed, interval: 8, frameSize: 1024)
    if upcast {
      try check(Timeline<StandardTallyV2>(path: path), seed: seed)
    } else {
      try check(Timeline<StandardTally>(path: path), seed: seed)
    }
    func check<D: Domain>(_ timeline: Timeline<D>, seed: UInt64) throws {
      #expect((timeline.upcast != nil) == upcast)
      let known = timeline.upcast?.knownFields.rawValue ?? ~0
      var random = SplitMix64(seed: seed)
      for round in 0..<60 {
        let skipped = Set(
          (0..<Int.random(in: 1...5, using: &random)).map { _ in
            // Neighbours now and then: runs of skipped events.
            UInt64.random(in: 1...(round % 3 == 0 ? 12 : 400), using: &random)
          })
        let last =
          round % 2 == 0 ? timeline.lastSequence : UInt64.random(in: 1...400, using: &random)
        let limit = Int.random(in: 0...6, using: &random)
        // The reference: every event visited, the skipped ones with no outcome.
        let first = skipped.min()!
        var differing: [UInt64] = []
        var end = try timeline.state(after: min(first - 1, last))
        if first <= last {
          try timeline.events(from: first, through: last, skipping: skipped) {
            event, changed, after in
            end = after
            guard let outcome = event.outcome else { return true }
            let effect = RecordedEffect(
              outcome, changed: FieldSet(rawValue: changed.rawValue & known))
            if effect != event.recorded { differing.append(event.sequence) }
            return true
          }
        }
        let effects = try timeline.effects(skipping: skipped, through: last, limit: limit)
        #expect(effects.differingCount == differing.count, "skipping \(skipped) through \(last)")
        #expect(effects.differing == Array(differing.prefix(limit)), "skipping \(skipped)")
        #expect(effects.endState == end, "skipping \(skipped) through \(last)")
      }
      #expect(throws: RewindError.self) {
        try timeline.effects(skipping: [timeline.lastSequence + 1], through: 10, limit: 1)
      }
    }
  }

  @Test("the recorded outcomes of every frame are the recording's, in order")
  func recordedOutcomes() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("tally.journal")
    try recordTally(at: path, count: 500, seed: 3, interval: 16, frameSize: 1024)
    let timeline = try Timeline<StandardTally>(path: path)
    #expect(timeline.reader.frames.count > 3)
    var seen: [(UInt64, RecordedEffect.Kind)] = []
    try timeline.recordedOutcomes(inFrames: 0..<timeline.reader.frames.count) { time, kind in
      seen.append((time, kind))
    }
    var expected: [(UInt64, RecordedEffect.Kind)] = []
    try timeline.events(from: 1, through: 500) { event, _, _ in
      expected.append((event.time, event.recorded.kind))
      return true
    }
    #expect(seen.map(\.0) == expected.map(\.0))
    #expect(seen.map(\.1) == expected.map(\.1))
    var tail = 0
    try timeline.recordedOutcomes(inFrames: 2..<timeline.reader.frames.count) { _, _ in tail += 1 }
    let skippedFrames = timeline.reader.frames.prefix(2).reduce(0) { $0 + Int($1.recordCount) }
    #expect(tail == 500 - skippedFrames)
  }

  @Test("a continuation holds the events up to its point, names its parent, and records on")
  func continuation() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("parent.journal")
    try recordTally(at: path, count: 200, seed: 9, interval: 16, frameSize: 1024)
    let parent = try Timeline<StandardTally>(path: path)
    let childPath = directory.file("child.journal")
    let header = try parent.writeContinuation(
      through: 120, to: FileDestination(childPath), parentPath: "/somewhere/parent.journal",
      sessionID: SessionID(bytes: Array(repeating: 3, count: 16)),
      options: RecordingOptions(snapshotInterval: 32))
    let child = try Timeline<StandardTally>(path: childPath)
    #expect(child.header == header)
    #expect(
      child.header.parent
        == ParentSession(
          path: "/somewhere/parent.journal", sessionID: parent.header.sessionID, sequence: 120))
    #expect(child.header.sessionID == SessionID(bytes: Array(repeating: 3, count: 16)))
    #expect(child.header.startTime == parent.header.startTime)
    #expect(child.header.device == parent.header.device)
    #expect(child.domain.settingsJSON == parent.domain.settingsJSON)
    #expect(child.lastSequence == 120)
    var parentEvents: [(UInt64, StandardTally.Event)] = []
    try parent.events(from: 1, through: 120) { event, _, _ in
      parentEvents.append((event.time, event.event))
      return true
    }
    var childEvents: [(UInt64, StandardTally.Event)] = []
    try child.events(from: 1, through: 120) { event, _, _ in
      childEvents.append((event.time, event.event))
      return true
    }
    #expect(childEvents.map(\.0) == parentEvents.map(\.0))
    #expect(childEvents.map(\.1) == parentEvents.map(\.1))
    #expect(try child.state(after: 120) == parent.state(after: 120))
    #expect(try child.check().passed)
    // A live store records on from the parent's state at the point.
    let store = try Store<StandardTally>(continuing: childPath, clock: { 99_000_000 })
    #expect(store.state == (try parent.state(after: 120)))
    store.send(.added(7))
    try store.close()
    let continued = try Timeline<StandardTally>(path: childPath)
    #expect(continued.lastSequence == 121)
    #expect(continued.header.parent == child.header.parent)
    #expect(try continued.state(after: 121).value == (try parent.state(after: 120)).value + 7)
    // Never over the parent itself, and never beyond the session.
    #expect(throws: (any Error).self) {
      try parent.writeContinuation(
        through: 5, to: FileDestination(path, replacingExisting: true, inputs: [path]))
    }
    #expect(throws: RewindError.self) {
      try parent.writeContinuation(through: 201, to: FileDestination(directory.file("x.journal")))
    }
    #expect(!FileManager.default.fileExists(atPath: directory.file("x.journal")))
  }
}
