import Foundation
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
}
