import Foundation
import Navigation
import TestSupport
import Testing

@testable import RewindCore
@testable import RewindJournal

/// The library under `log --where`, `blame --history`, counterfactual edits and aligned
/// diffs, on the tally script of ``AnalysisTests``.
@Suite("Questions a debugger asks: conditions at points, field histories, edits, alignment")
struct DebuggerQuestionsTests {
  // value:  5  5  8  8  0  0  3  3  3  3
  // steps:  1  1  2  2  3  3  4  4  4  4
  // flag:   f  t  t  t  t  f  f  f  f  t
  let script: [StandardTally.Event] = [
    .added(5), .toggled, .added(3), .added(0), .reset, .toggled, .added(3), .added(5_000),
    .added(0), .toggled,
  ]

  func timeline(_ directory: TemporaryDirectory, interval: UInt32 = 4) throws -> Timeline<
    StandardTally
  > {
    let path = directory.file("script-\(interval).journal")
    try recordScript(script, at: path, interval: interval)
    return try Timeline<StandardTally>(path: path)
  }

  /// The points (0: the initial state) where `text` holds, asking the evaluator at each.
  func points(_ text: String, in timeline: Timeline<StandardTally>) throws -> [UInt64] {
    let evaluator = try ConditionEvaluator(Condition(parsing: text), in: timeline.domain)
    var previous = try timeline.state(after: 0)
    var points: [UInt64] = []
    if evaluator.holds(after: nil, previous: nil, state: previous) { points.append(0) }
    try timeline.events(from: 1, through: timeline.lastSequence) { event, _, state in
      if evaluator.holds(after: event, previous: previous, state: state) {
        points.append(event.sequence)
      }
      previous = state
      return true
    }
    return points
  }

  @Test("a condition holds at the points whose state satisfies it; changed() where it changed")
  func evaluator() throws {
    let directory = TemporaryDirectory()
    let timeline = try timeline(directory)
    #expect(try points("tally.value == 3", in: timeline) == [7, 8, 9, 10])
    #expect(try points("tally.value != 0", in: timeline) == [1, 2, 3, 4, 7, 8, 9, 10])
    #expect(try points("tally.value == 0", in: timeline) == [0, 5, 6])
    #expect(try points("tally.flag == true", in: timeline) == [2, 3, 4, 5, 10])
    // changed() never holds at the initial state; it agrees with find --all.
    #expect(try points("changed(tally.flag)", in: timeline) == [2, 6, 10])
    #expect(
      try points("changed(tally.steps)", in: timeline)
        == timeline.find(Condition(parsing: "changed(tally.steps)"), all: true).map(\.sequence))
  }

  @Test("a condition that does not fit the fields is refused before any replay")
  func evaluatorErrors() throws {
    let directory = TemporaryDirectory()
    let domain = try timeline(directory).domain
    #expect(throws: ConditionError.self) {
      try ConditionEvaluator(Condition(parsing: "tally.nope == 1"), in: domain)
    }
    #expect {
      try ConditionEvaluator(Condition(parsing: "tally.value == yes"), in: domain)
    } throws: { error in
      (error as? ConditionError)?.message.contains("tally.value") == true
    }
  }

  @Test("blame history lists every change, newest first, at every snapshot interval")
  func blameHistory() throws {
    let directory = TemporaryDirectory()
    for interval: UInt32 in [1, 3, 4, 100] {
      let timeline = try timeline(directory, interval: interval)
      let history = try timeline.blameHistory("tally.value", at: 10)
      #expect(history.map(\.event.sequence) == [7, 5, 3, 1])
      #expect(history.map(\.old) == [0, 8, 5, 0])
      #expect(history.map(\.new) == [3, 0, 8, 5])
      #expect(
        try timeline.blameHistory("tally.value", at: 10, limit: 2).map(\.event.sequence) == [7, 5])
      #expect(try timeline.blameHistory("tally.value", at: 4).map(\.event.sequence) == [3, 1])
      #expect(try timeline.blameHistory("tally.flag", at: 9).map(\.event.sequence) == [6, 2])
      #expect(try timeline.blameHistory("tally.value", at: 0).isEmpty)
      // The newest change is what blame names.
      for sequence in 0...10 as ClosedRange<UInt64> {
        #expect(
          try timeline.blameHistory("tally.steps", at: sequence, limit: 1).first?.event.sequence
            == timeline.blame("tally.steps", at: sequence).event?.sequence)
      }
    }
    let timeline = try timeline(directory, interval: 5)
    #expect(throws: RewindError.self) { try timeline.blameHistory("tally.nope", at: 3) }
    #expect(throws: RewindError.self) { try timeline.blameHistory("tally.value", at: 11) }
  }

  @Test("blame history agrees with the states folded from the start, on a seeded session")
  func blameHistoryAgreesWithFold() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("tally.journal")
    let (_, states) = try recordTally(at: path, count: 3_000, seed: 9, interval: 128)
    let timeline = try Timeline<StandardTally>(path: path)
    for point in [3_000, 2_049, 700] as [UInt64] {
      var expected: [(UInt64, Int64, Int64)] = []
      for sequence in stride(from: Int(point), to: 0, by: -1)
      where states[sequence].steps != states[sequence - 1].steps {
        expected.append((UInt64(sequence), states[sequence - 1].steps, states[sequence].steps))
      }
      let history = try timeline.blameHistory("tally.steps", at: point)
      #expect(history.count == expected.count)
      #expect(history.map(\.event.sequence) == expected.map(\.0))
      #expect(history.map(\.old) == expected.map { .int($0.1) })
      #expect(history.map(\.new) == expected.map { .int($0.2) })
      let limited = try timeline.blameHistory("tally.steps", at: point, limit: 5)
      #expect(limited.map(\.event.sequence) == Array(expected.map(\.0).prefix(5)))
    }
  }

  @Test("blame of an array element names the event that added or removed it")
  func blameElement() throws {
    let directory = TemporaryDirectory()
    let domain = NavigationDomain()
    let leva = domain.ref("espresso-machines/leva")
    let path = directory.file("navigation.journal")
    let recorder = try JournalRecorder.create(
      at: path, domain: domain, session: testSession,
      options: RecordingOptions(snapshotInterval: 2, journal: .init(frameSize: 1024)))
    let events: [NavigationEvent] = [
      .categorySelected(domain.ref("espresso-machines")), .itemExpanded(leva),
      .itemExpanded(domain.ref("espresso-machines/strada")), .itemCollapsed(leva),
      .menuTabTapped(index: 2), .itemExpanded(leva), .menuTabTapped(index: 3),
    ]
    for (index, event) in events.enumerated() {
      try recorder.record(event, at: UInt64(index) * 1_000_000)
    }
    try recorder.close()
    let timeline = try Timeline<NavigationDomain>(path: path)
    let element = "split.expanded[espresso-machines/leva]"
    let atEnd = try timeline.blame(element, at: 7)
    #expect(atEnd.value == true)
    #expect(atEnd.element == "espresso-machines/leva")
    #expect(atEnd.event?.sequence == 6)
    let removed = try timeline.blame(element, at: 5)
    #expect(removed.value == false)
    #expect(removed.event?.sequence == 4)
    // Expanding another item changed the field, not this element.
    #expect(try timeline.blame(element, at: 3).event?.sequence == 2)
    #expect(try timeline.blame(element, at: 1).event == nil)
    let history = try timeline.blameHistory(element, at: 7)
    #expect(history.map(\.event.sequence) == [6, 4, 2])
    #expect(history.map(\.new) == [true, false, true])
    #expect(
      try timeline.blameHistory("split.expanded", at: 7).map(\.event.sequence) == [6, 4, 3, 2])
    // An element of a field that is not an array, or one of the wrong kind, is refused.
    for bad in [
      "split.style[balanced]", "split.expanded[nope]", "split.expanded[]", "split.expanded[x",
    ] {
      #expect(throws: RewindError.self, "\(bad)") { try timeline.blame(bad, at: 7) }
    }
    #expect(try BlameTarget(parsing: "a.b[3]") == BlameTarget(path: "a.b", element: 3))
    #expect(try BlameTarget(parsing: "a.b[x y]").description == "a.b[x y]")
  }

  /// The state at `point` of the script with `edits`, folded from the start: the
  /// reference the timeline's edited replay must match.
  func folded(_ edits: EventEdits<StandardTally.Event>, through point: Int) -> StandardTally.State {
    let domain = StandardTally()
    var state = domain.initialState
    for sequence in 0...point {
      if sequence > 0, !edits.skipped.contains(UInt64(sequence)) {
        _ = domain.reduce(&state, edits.replaced[UInt64(sequence)] ?? script[sequence - 1])
      }
      for event in edits.inserted[UInt64(sequence)] ?? [] { _ = domain.reduce(&state, event) }
    }
    return state
  }

  /// Edits of the script: each kind alone, and together.
  static let editSets: [EventEdits<StandardTally.Event>] = [
    EventEdits(skipped: [5]),
    EventEdits(replaced: [5: .added(1)]),
    EventEdits(inserted: [0: [.added(10)], 4: [.toggled, .added(-2)]]),
    EventEdits(skipped: [1, 9], replaced: [3: .reset, 10: .added(7)], inserted: [10: [.reset]]),
    EventEdits(skipped: [2], inserted: [7: [.added(2_000)]]),
  ]

  @Test("an edited replay (skip, replace, insert) equals folding the edited events, at every point")
  func editedStates() throws {
    let directory = TemporaryDirectory()
    let editSets = Self.editSets
    for interval: UInt32 in [1, 3, 4, 100] {
      let timeline = try timeline(directory, interval: interval)
      for edits in editSets {
        for point in 0...10 {
          #expect(
            try timeline.state(after: UInt64(point), editing: edits)
              == folded(edits, through: point), "\(edits) at \(point), interval \(interval)")
        }
        // The visiting replay ends in the same state.
        let end = try timeline.replay(edits, through: 10) { _, _ in true }
        #expect(end == folded(edits, through: 10))
      }
      // Skipping is the simplest edit.
      #expect(try timeline.state(after: 7, skipping: [5]).value == 11)
    }
    let timeline = try timeline(directory, interval: 6)
    // Without the reset, the +3 at event 7 no longer changes the sign: it differs.
    var differing: [UInt64] = []
    var visited: [EditedEvent<StandardTally>.Edit] = []
    try timeline.replay(
      EventEdits(skipped: [5], inserted: [8: [.toggled]]), through: 10
    ) { edited, _ in
      visited.append(edited.edit)
      if edited.differsFromRecording { differing.append(edited.sequence) }
      return true
    }
    #expect(differing == [7])
    #expect(visited == [.skipped, .kept, .kept, .kept, .inserted, .kept, .kept])
    // From an earlier event, the recorded events before the edits are visited, kept.
    var sequences: [UInt64] = []
    try timeline.replay(EventEdits(replaced: [9: .reset]), from: 7, through: 10) { edited, _ in
      sequences.append(edited.sequence)
      return true
    }
    #expect(sequences == [7, 8, 9, 10])
  }

  /// `state -o` and `state`'s list of later effects run the domain's specialised loop
  /// (`record(_:into:)`, `forEachEditedDifference`): what the visiting replay gives.
  @Test("the edited session recorded, and the events that differ, are the visiting replay's")
  func editedScans() throws {
    let directory = TemporaryDirectory()
    let editSets = Self.editSets
    for interval: UInt32 in [1, 4, 100] {
      let timeline = try timeline(directory, interval: interval)
      for (index, edits) in editSets.enumerated() {
        var expected: [(UInt64, EditedEvent<StandardTally>.Edit, UInt64)] = []
        var events: [TimedEvent<StandardTally.Event>] = []
        try timeline.replay(edits, from: 1, through: 10) { edited, _ in
          if edited.edit != .kept || edited.differsFromRecording {
            expected.append((edited.sequence, edited.edit, edited.time))
          }
          if edited.edit != .skipped {
            events.append(TimedEvent(time: edited.time, event: edited.event))
          }
          return true
        }
        // The events the edits put in and those that differ (a skipped one does neither).
        var found: [(UInt64, EditedEvent<StandardTally>.Edit, UInt64)] = []
        try timeline.forEachEditedDifference(edits, through: 10) { edited in
          found.append((edited.sequence, edited.edit, edited.time))
        }
        let wanted = expected.filter { $0.1 != .skipped }
        #expect(found.map(\.0) == wanted.map(\.0), "\(edits), interval \(interval)")
        #expect(found.map(\.1) == wanted.map(\.1), "\(edits), interval \(interval)")
        #expect(found.map(\.2) == wanted.map(\.2), "\(edits), interval \(interval)")
        // The edited session recorded: its events and times, and its end state.
        let path = directory.file("edited-\(interval)-\(index).journal")
        let recorder = try JournalRecorder.create(
          at: path, domain: StandardTally(), session: testSession,
          options: RecordingOptions(
            snapshotInterval: 4,
            journal: JournalWriterOptions(frameSize: 1024, durability: .none)))
        try timeline.record(edits, into: recorder)
        try recorder.close()
        let written = try Timeline<StandardTally>(path: path)
        var read: [TimedEvent<StandardTally.Event>] = []
        try written.events(from: 1, through: written.lastSequence) { event, _, _ in
          read.append(TimedEvent(time: event.time, event: event.event))
          return true
        }
        #expect(read.map(\.event) == events.map(\.event), "\(edits), interval \(interval)")
        #expect(read.map(\.time) == events.map(\.time), "\(edits), interval \(interval)")
        #expect(try written.state(after: written.lastSequence) == folded(edits, through: 10))
      }
    }
  }

  @Test("edits outside the session, or skipping and replacing one event, are refused")
  func badEdits() throws {
    let directory = TemporaryDirectory()
    let timeline = try timeline(directory)
    let bad: [(EventEdits<StandardTally.Event>, String)] = [
      (EventEdits(skipped: [11]), "cannot skip event 11: the session holds events 1–10"),
      (EventEdits(replaced: [0: .reset]), "cannot replace event 0: the session holds events 1–10"),
      (
        EventEdits(inserted: [11: [.reset]]),
        "cannot insert after event 11: the points are 0–10 (0: before the first event)"
      ),
      (
        EventEdits(skipped: [4], replaced: [4: .reset]),
        "event 4 is both skipped and replaced; do one"
      ),
    ]
    for (edits, message) in bad {
      #expect(throws: RewindError.self) { try timeline.state(after: 10, editing: edits) }
      do {
        _ = try timeline.state(after: 10, editing: edits)
      } catch {
        #expect("\(error)" == message)
      }
    }
  }

  @Test("an event is read from its JSON Lines form; a bad one says what is wrong")
  func eventFromJSON() throws {
    let domain = NavigationDomain()
    #expect(
      try JSONLines.event(parsing: #"{"event":"categorySelected","id":"grinders"}"#, in: domain)
        == .categorySelected(domain.ref("grinders")))
    // seq and time_us, as export writes them, are not used.
    #expect(
      try JSONLines.event(parsing: #"{"seq":4,"time_us":9,"event":"backTapped"}"#, in: domain)
        == .backTapped)
    for (text, problem) in [
      (#"{"event":"backTapped""#, "not JSON"), ("[1]", "expected a JSON object"),
      (#"{"event":"teleported"}"#, "teleported"),
      (#"{"event":"backTapped","id":"x"}"#, "unknown key \"id\""),
    ] {
      #expect {
        try JSONLines.event(parsing: text, in: domain)
      } throws: { error in
        "\(error)".contains(problem)
      }
    }
  }

  /// Records `events` as `name` and opens it.
  func session(
    _ events: [StandardTally.Event], _ name: String, in directory: TemporaryDirectory,
    start: Int64 = 0
  ) throws -> Timeline<StandardTally> {
    let path = directory.file(name)
    let recorder = try JournalRecorder.create(
      at: path, domain: StandardTally(start: start), session: testSession,
      options: RecordingOptions(snapshotInterval: 3, journal: .init(frameSize: 1024)))
    for (index, event) in events.enumerated() {
      try recorder.record(event, at: UInt64(index + 1) * 1_000)
    }
    try recorder.close()
    return try Timeline<StandardTally>(path: path)
  }

  @Test("two sessions align by event: the first divergence, the rejoin, the end states")
  func alignment() throws {
    let directory = TemporaryDirectory()
    let original = try session(script, "original.journal", in: directory)
    let same = try original.align(with: session(script, "copy.journal", in: directory))
    #expect(same.isSamePath)
    #expect(same.commonEvents == 10)
    #expect(same.endDifferences.isEmpty)

    // Two extra toggles before the reset: they part at event 5 and rejoin after the
    // resets, two events later in the longer session.
    var extra = script
    extra.insert(contentsOf: [.toggled, .toggled], at: 4)
    let parted = try original.align(with: session(extra, "extra.journal", in: directory))
    #expect(!parted.isSamePath)
    #expect(parted.commonEvents == 4)
    let divergence = try #require(parted.divergence)
    #expect(divergence.left?.event.event == .reset)
    #expect(divergence.right?.event.event == .toggled)
    #expect(divergence.right?.event.sequence == 5)
    #expect(
      divergence.differences.map(\.path) == [
        "tally.value", "tally.steps", "tally.flag", "tally.sign",
      ])
    #expect(parted.rejoin?.left == 5)
    #expect(parted.rejoin?.right == 7)
    #expect(parted.endDifferences.isEmpty)
    #expect(parted.rightEvents == 12)
    // An extra step is counted: then the states never meet again.
    var counted = script
    counted.insert(.added(1), at: 4)
    let apart = try original.align(with: session(counted, "counted.journal", in: directory))
    #expect(apart.commonEvents == 4)
    #expect(apart.rejoin == nil)
    #expect(apart.endDifferences.map(\.path) == ["tally.steps"])

    // A session that stops early parts where it has no event left.
    let short = try original.align(
      with: session(Array(script.prefix(7)), "short.journal", in: directory))
    #expect(short.commonEvents == 7)
    #expect(short.divergence?.right == nil)
    #expect(short.divergence?.left?.event.sequence == 8)
    // Event 8 was rejected: the states after 8 and 7 are equal, a rejoin at once.
    #expect(short.divergence?.differences.isEmpty == true)
    #expect(short.rejoin?.left == 8)
    #expect(short.rejoin?.right == 7)
    #expect(short.endDifferences.map(\.path) == ["tally.flag"])

    // One session has ended: the other meets its last state five events later, which a
    // window of five allows and one of four does not.
    let toggled = try session([.toggled], "toggled.journal", in: directory)
    let later = try session(
      Array(repeating: .added(0), count: 5) + [.toggled], "later.journal", in: directory)
    #expect(try toggled.align(with: later).rejoin.map { [$0.left, $0.right] } == [1, 6])
    #expect(
      try toggled.align(with: later, window: 5).rejoin.map { [$0.left, $0.right] } == [1, 6])
    #expect(try toggled.align(with: later, window: 4).rejoin == nil)
    #expect(try later.align(with: toggled, window: 4).rejoin == nil)
    // A state one session held at several points is found at the first of them within the
    // window of the other's point, not at one the window has passed.
    let held = try session(
      [.toggled, .added(0), .added(0), .added(0), .added(1), .added(1)], "held.journal",
      in: directory)
    let reached = try session(
      Array(repeating: .added(0), count: 4) + [.toggled], "reached.journal", in: directory)
    #expect(try held.align(with: reached, window: 2).rejoin.map { [$0.left, $0.right] } == [4, 5])
    #expect(try held.align(with: reached).rejoin.map { [$0.left, $0.right] } == [1, 5])

    // Different settings: they differ from the start and never meet within the window.
    let shifted = try original.align(
      with: session([.added(1)], "shifted.journal", in: directory, start: 100), window: 4)
    #expect(shifted.commonEvents == 0)
    #expect(shifted.divergence?.left == nil && shifted.divergence?.right == nil)
    #expect(shifted.divergence?.differences.first?.path == "tally.value")
    #expect(shifted.rejoin == nil)
  }
}
