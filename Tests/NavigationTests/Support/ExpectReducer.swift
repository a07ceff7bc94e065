import Navigation
import RewindCore
import Testing

/// Runs `event` through the reducer from `state` and checks the whole result, in the
/// style of TCA's `TestStore`: the outcome must be `outcome`, and the new state must be
/// `state` with exactly the changes `change` makes. Any other difference fails, listing
/// each differing JSON path with the expected and the actual value.
///
/// Also checks the outcome against the states: a rejected or unchanged event must leave
/// the state equal to `state`, an applied one must change it.
/// - Returns: the actual new state, to chain expectations.
@discardableResult
func expect(
  _ domain: NavigationDomain = Fixtures.three,
  from state: NavigationState,
  _ event: NavigationEvent,
  _ outcome: Outcome<NavigationRejection>,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ change: (inout NavigationState) -> Void = { _ in }
) -> NavigationState {
  var expected = state
  change(&expected)
  var actual = state
  let actualOutcome = domain.reduce(&actual, event)
  let what = domain.describe(event)
  if actualOutcome != outcome {
    Issue.record(
      "\(what): expected \(describe(outcome)), got \(describe(actualOutcome))",
      sourceLocation: sourceLocation)
  }
  let diff = stateDiff(expected: expected, actual: actual)
  if !diff.isEmpty {
    Issue.record(
      "\(what): the state differs from the expected change at\n\(diff)",
      sourceLocation: sourceLocation)
  } else if expected != actual {
    Issue.record(
      "\(what): the states have the same JSON but are not equal", sourceLocation: sourceLocation)
  }
  switch actualOutcome {
  case .applied where actual == state:
    Issue.record("\(what): reported applied but changed nothing", sourceLocation: sourceLocation)
  case .unchanged where actual != state, .rejected where actual != state:
    Issue.record(
      "\(what): reported \(actualOutcome.name) but changed the state",
      sourceLocation: sourceLocation)
  default: break
  }
  return actual
}

/// The JSON paths at which two states differ, one block per path:
/// ```
///   split.selectedItem
///     expected: null
///     actual:   "grinders/swift"
/// ```
func stateDiff(expected: NavigationState, actual: NavigationState) -> String {
  var blocks: [String] = []
  for field in NavigationField.allCases {
    let want = field.value(in: expected)
    let got = field.value(in: actual)
    if want != got {
      blocks.append(
        "  \(field.path)\n    expected: \(want.compactText)\n    actual:   \(got.compactText)")
    }
  }
  return blocks.joined(separator: "\n")
}

private func describe(_ outcome: Outcome<NavigationRejection>) -> String {
  switch outcome {
  case .applied, .unchanged: outcome.name
  case .rejected(let reason): "rejected (\(reason))"
  }
}
