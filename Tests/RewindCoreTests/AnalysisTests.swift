import Foundation
import TestSupport
import Testing

@testable import RewindCore
@testable import RewindJournal

/// Records exactly these tally events, 1 ms apart.
func recordScript(_ events: [StandardTally.Event], at path: String, interval: UInt32 = 4) throws {
  let recorder = try JournalRecorder.create(
    at: path, domain: StandardTally(), session: testSession,
    options: RecordingOptions(
      snapshotInterval: interval, journal: JournalWriterOptions(frameSize: 1024, durability: .none)
    ))
  for (index, event) in events.enumerated() {
    try recorder.record(event, at: UInt64(index + 1) * 1_000)
  }
  try recorder.close()
}

@Suite("Diff, blame, find, counterfactuals and check")
struct AnalysisTests {
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
    let path = directory.file("script.journal")
    try recordScript(script, at: path, interval: interval)
    return try Timeline<StandardTally>(path: path)
  }

  @Test("diff names each changed field with its old and new values, nothing else")
  func diff() throws {
    let directory = TemporaryDirectory()
    let timeline = try timeline(directory)
    let a = try timeline.state(after: 1)
    let b = try timeline.state(after: 5)
    #expect(
      timeline.domain.diff(a, b) == [
        FieldChange(path: "tally.value", old: 5, new: 0),
        FieldChange(path: "tally.steps", old: 1, new: 3),
        FieldChange(path: "tally.flag", old: false, new: true),
        FieldChange(path: "tally.sign", old: "+", new: "0"),
      ])
    #expect(
      timeline.domain.diff(a, b)[0].lines == ["tally.value", "  - 5", "  + 0"])
    // A state compared with itself has no differences, at every point.
    for sequence in 0...10 as ClosedRange<UInt64> {
      let state = try timeline.state(after: sequence)
      #expect(timeline.domain.diff(state, state).isEmpty)
    }
  }

  @Test("blame points at the event that last changed a field, or the initial state")
  func blame() throws {
    let directory = TemporaryDirectory()
    for interval: UInt32 in [1, 3, 4, 100] {
      let timeline = try timeline(directory.self, interval: interval)
      defer { try? FileManager.default.removeItem(atPath: directory.file("script.journal")) }
      #expect(try timeline.blame("tally.value", at: 10).event?.sequence == 7)
      #expect(try timeline.blame("tally.value", at: 6).event?.sequence == 5)
      #expect(try timeline.blame("tally.value", at: 4).event?.sequence == 3)
      #expect(try timeline.blame("tally.flag", at: 9).event?.sequence == 6)
      #expect(try timeline.blame("tally.flag", at: 10).event?.sequence == 10)
      #expect(try timeline.blame("tally.sign", at: 4).event?.sequence == 1)
      let initial = try timeline.blame("tally.flag", at: 1)
      #expect(initial.event == nil)
      #expect(initial.value == false)
      #expect(try timeline.blame("tally.value", at: 0).event == nil)
      let blamed = try timeline.blame("tally.value", at: 8)
      #expect(blamed.value == 3)
      #expect(blamed.event?.event == .added(3))
      #expect(blamed.event?.outcome == .applied)
    }
    #expect {
      try self.timeline(directory).blame("tally.nope", at: 3)
    } throws: { error in
      "\(error)"
        == "'tally.nope' is not a state field; the fields are tally.value, tally.steps, tally.flag, tally.sign"
    }
  }

  @Test("find gives the first or every point where a condition becomes true")
  func find() throws {
    let directory = TemporaryDirectory()
    let timeline = try timeline(directory)
    #expect(
      try timeline.find(Condition(parsing: "tally.value == 8"), all: false).map(\.sequence) == [3])
    #expect(
      try timeline.find(Condition(parsing: "tally.value == 3"), all: true).map(\.sequence) == [7])
    #expect(
      try timeline.find(Condition(parsing: "tally.flag == true"), all: true).map(\.sequence) == [
        2, 10,
      ])
    #expect(
      try timeline.find(Condition(parsing: "tally.value == 0"), all: true).map(\.sequence) == [
        0, 5,
      ])
    #expect(
      try timeline.find(Condition(parsing: "tally.value != 0"), all: true).map(\.sequence) == [
        1, 7,
      ])
    #expect(
      try timeline.find(Condition(parsing: "changed(tally.flag)"), all: true).map(\.sequence)
        == [2, 6, 10])
    #expect(
      try timeline.find(Condition(parsing: "changed(tally.flag)"), all: false).map(\.sequence) == [
        2
      ])
    #expect(try timeline.find(Condition(parsing: "tally.value == 999"), all: true).isEmpty)
    #expect(
      try timeline.find(Condition(parsing: "tally.sign == +"), all: false).first?.value == "+")
  }

  @Test(
    "conditions parse, and bad ones say what was expected",
    arguments: [
      (
        "split.selectedItem == espresso-machines/leva",
        Condition.equals(path: "split.selectedItem", value: "espresso-machines/leva")
      ),
      ("menu.selectedIndex != 3", .notEquals(path: "menu.selectedIndex", value: 3)),
      ("split.selectedItem == null", .equals(path: "split.selectedItem", value: .null)),
      ("changed( split.columnVisibility )", .changed(path: "split.columnVisibility")),
      ("a.b == \"x y\"", .equals(path: "a.b", value: "x y")),
    ])
  func conditions(text: String, expected: Condition) throws {
    #expect(try Condition(parsing: text) == expected)
  }

  @Test(
    "malformed conditions are errors at their column",
    arguments: [
      ("split.x true", 9), ("== 3", 1), ("a.b ==", 7), ("changed()", 9), ("a..b == 1", 1),
      ("a = 1", 3), ("a == 1 2", 8), ("changed(a) x", 12), ("a == \"x", 6), ("a == [1,", 9),
      ("a == 1 && ", 11), ("a == 1 || || b == 2", 11), ("a == \"&&\" b", 11), ("", 1),
      ("(a == 1", 8), ("a == 1)", 7), ("a < x", 5), ("a = 1 && b == 2", 3),
    ])
  func badConditions(text: String, column: Int) {
    #expect {
      try Condition(parsing: text)
    } throws: { error in
      (error as? ConditionError)?.column == column
    }
  }

  @Test("skipping events replays as if they had not happened")
  func counterfactual() throws {
    let directory = TemporaryDirectory()
    let timeline = try timeline(directory)
    // Without the reset at 5: 8 + 3 = 11 after event 7.
    let skipped = try timeline.state(after: 7, skipping: [5])
    #expect(skipped.value == 11)
    #expect(skipped.steps == 3)
    #expect(
      timeline.domain.diff(try timeline.state(after: 7), skipped) == [
        FieldChange(path: "tally.value", old: 3, new: 11),
        FieldChange(path: "tally.steps", old: 4, new: 3),
      ])
    // Skipping nothing, or only later events, is the real state.
    for sequence in 0...10 as ClosedRange<UInt64> {
      #expect(try timeline.state(after: sequence, skipping: []) == timeline.state(after: sequence))
      // Skipping event 10 changes only the state after it.
      #expect(
        try timeline.state(after: sequence, skipping: [10])
          == timeline.state(after: min(sequence, 9)))
    }
    #expect {
      try timeline.state(after: 5, skipping: [11])
    } throws: { error in
      "\(error)" == "cannot skip event 11: the session holds events 1–10"
    }
  }

  @Test("events in a range come with the current reducer's outcome and the recorded effect")
  func events() throws {
    let directory = TemporaryDirectory()
    let timeline = try timeline(directory)
    var seen: [(UInt64, Outcome<StandardTally.Rejection>?, RecordedEffect.Kind)] = []
    try timeline.events(from: 3, through: 8) { event, _, _ in
      seen.append((event.sequence, event.outcome, event.recorded.kind))
      return true
    }
    #expect(seen.map(\.0) == [3, 4, 5, 6, 7, 8])
    #expect(
      seen.map(\.1) == [
        .applied, .unchanged, .applied, .applied, .applied, .rejected(.tooLarge(5_000)),
      ])
    #expect(seen.map(\.2) == [.applied, .unchanged, .applied, .applied, .applied, .rejected])
  }

  /// A journal whose last frame was cut short (a fixture half copied) fails the check:
  /// the events in it were not read (the library passed it on the events before, as
  /// `rewind check` did: 0 events when cut in its first frame). One a writer holds is
  /// being written: its frame in progress is not torn.
  @Test("check fails a journal cut short, and passes one being written on its sealed frames")
  func checkOfAJournalCutShort() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("tally.journal")
    _ = try recordTally(at: path, count: 2_000, seed: 3, interval: 128)
    let reader = try JournalReader(path: path)
    let last = try #require(reader.frames.last)
    let whole = bytes(of: path)
    let cut = directory.file("cut.journal")
    write(Array(whole[..<(Int(last.offset) + 30)]), to: cut)
    for jobs in [1, 2] {
      let report = try Timeline<StandardTally>(path: cut).check(jobs: jobs)
      #expect(!report.passed)
      let tail = try #require(report.cutShort)
      #expect(tail.offset == last.offset && tail.length == 30)
      #expect(report.eventsReplayed == last.firstSequence - 1)
      #expect(report.eventDivergences.isEmpty && report.stateDivergence == nil)
      let lines = "\(report)".split(separator: "\n").map(String.init)
      #expect(lines.first?.hasPrefix("FAIL \(cut): ") == true, "\(report)")
      #expect(
        lines.last
          == "  torn tail: the last 30 bytes (from byte \(last.offset)) are not a whole frame, and what they hold is not checked, so the journal fails; `rewind recover` cuts them (then check what is left)",
        "\(report)")
    }
    // The whole journal passes, and says nothing of a tail.
    let passed = try Timeline<StandardTally>(path: path).check()
    #expect(passed.passed && passed.cutShort == nil)
    #expect(!"\(passed)".contains("torn tail"))
    // Held by a writer (its lock: this process's own, another open file description),
    // the bytes after the sealed frames are its frame in progress.
    let held = directory.file("held.journal")
    write(whole, to: held)
    let writer = try JournalWriter.open(
      at: held, domain: StandardTally.identifier, schemaVersion: 1)
    defer { try? writer.close() }
    let handle = try #require(FileHandle(forWritingAtPath: held))
    handle.seekToEndOfFile()
    handle.write(Data(repeating: 0x78, count: 40))
    try handle.close()
    let report = try Timeline<StandardTally>(path: held).check()
    #expect(report.passed, "\(report)")
    #expect(report.cutShort == nil)
  }

  @Test(
    "check passes a faithful replay and catches an altered reducer at the first diverging event")
  func check() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("tally.journal")
    let (events, states) = try recordTally(at: path, count: 5_000, seed: 5, interval: 128)
    let faithful = try Timeline<StandardTally>(path: path).check()
    #expect(faithful.passed)
    #expect(faithful.eventsReplayed == 5_000)
    #expect(faithful.snapshotsCompared > 30)

    // Both altered rules differ only for a reset of a non-zero value.
    var state = StandardTally().initialState
    var firstReset: UInt64?
    for (index, item) in events.enumerated() {
      if item.event == .reset && state.value != 0 {
        firstReset = UInt64(index + 1)
        break
      }
      _ = StandardTally().reduce(&state, item.event)
    }
    let first = try #require(firstReset)

    // A reset that no longer counts a step changes other fields: caught at that event.
    let uncounted = try Timeline<Tally<UncountedResetRules>>(path: path).check()
    #expect(!uncounted.passed)
    let divergence = try #require(uncounted.eventDivergence)
    #expect(divergence.sequence == first)
    #expect(divergence.event == "reset")
    #expect(divergence.recordedPaths == ["tally.value", "tally.steps", "tally.sign"])
    #expect(divergence.replayedPaths == ["tally.value", "tally.sign"])

    // A reset that zeroes the steps changes the same fields with other values: caught at
    // the first snapshot after it, which names the field.
    let zeroing = try Timeline<Tally<AlteredRules>>(path: path).check()
    #expect(!zeroing.passed)
    #expect(zeroing.eventDivergence == nil)
    let stateDivergence = try #require(zeroing.stateDivergence)
    #expect(stateDivergence.sequence >= first && stateDivergence.sequence < first + 128)
    #expect(stateDivergence.differences.map(\.path) == ["tally.steps"])

    // An expected final state: matching passes, a different one names the field.
    let expected = StandardTally().json(states.last!)
    #expect(try Timeline<StandardTally>(path: path).check(expected: expected).passed)
    var wrong = states.last!
    wrong.value += 1
    let mismatch = try Timeline<StandardTally>(path: path).check(
      expected: StandardTally().json(wrong))
    #expect(!mismatch.passed)
    #expect(mismatch.expectedStateDifferences.first?.path == "tally.value")

    // Each report prints as `rewind check` prints it (a test's failure showed Swift's
    // reflection of every member).
    #expect("\(faithful)".hasPrefix("PASS \(path): 5,000 events, "))
    let lines = "\(uncounted)".split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("FAIL \(path): 5,000 events, ") == true, "\(uncounted)")
    #expect(lines.dropFirst().first?.hasPrefix("  event \(first) at ") == true, "\(uncounted)")
    #expect(lines.dropFirst().first?.hasSuffix(" (reset) diverges:") == true, "\(uncounted)")
    #expect(
      lines.dropFirst(2).first
        == "    recorded: applied, changing tally.value, tally.steps, tally.sign")
    #expect(lines.dropFirst(3).first == "    replayed: applied, changing tally.value, tally.sign")
    #expect(
      "\(zeroing)".contains(
        "  the state after event \(stateDivergence.sequence) differs from its snapshot (- recorded, + replayed):\n    tally.steps: - "
      ))
    #expect(
      "\(mismatch)".contains(
        "  the final state differs from the expected state (- expected, + replayed):\n    tally.value: - \(wrong.value)  + \(wrong.value - 1)\n"
      ))
    // A field the state has not (removed since, or a typo) is said to be one, as `rewind
    // check` says it (it printed `+ null`).
    let unknown = try Timeline<StandardTally>(path: path).check(
      expected: .object([("tally", .object([("note", .string("second"))]))]))
    #expect(!unknown.passed)
    #expect(
      "\(unknown)".hasSuffix(
        "  the final state differs from the expected state (- expected, + replayed):\n    tally.note: - \"second\", a field the state has not"
      ), "\(unknown)")
  }
}
