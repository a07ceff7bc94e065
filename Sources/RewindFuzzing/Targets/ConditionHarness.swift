import Navigation
import RewindCore

/// Parses arbitrary text as a `find` condition: it must print as a condition that parses
/// back to the same one; it is checked against the navigation domain's fields (with the
/// ids of the sample session), and when it fits, evaluated and searched for (forwards and
/// backwards) in the sample session.
enum ConditionHarness {
  static func run(_ bytes: [UInt8]) throws(FuzzFailure) {
    let text = String(decoding: bytes, as: UTF8.self)
    let written: WrittenCondition
    do {
      written = try WrittenCondition(parsing: text)
    } catch {
      _ = error.description
      return
    }
    let condition = written.condition
    let printed = condition.description
    let again: Condition
    do {
      again = try Condition(parsing: printed)
    } catch {
      throw FuzzFailure(
        "the condition \(text.debugDescription) prints as \(printed.debugDescription), which does not parse: \(error)"
      )
    }
    guard again == condition else {
      throw FuzzFailure(
        "the condition \(text.debugDescription) prints as \(printed.debugDescription), which parses as \(again.description.debugDescription)"
      )
    }
    let timeline = SampleSession.timeline()
    let evaluator: ConditionEvaluator<NavigationDomain>
    do {
      evaluator = try ConditionEvaluator(written, in: timeline.domain)
    } catch {
      _ = (error.description, error.suggestion, error.choices)
      return
    }
    let initial = timeline.domain.initialState
    _ = evaluator.holds(after: nil, previous: nil, state: initial)
    _ = try? timeline.find(condition, all: true)
    _ = try? timeline.findLast(condition, in: 0...timeline.lastSequence)
  }
}
