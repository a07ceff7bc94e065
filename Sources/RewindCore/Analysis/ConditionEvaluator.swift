/// A condition checked against a domain's fields, ready to be evaluated at any point of a
/// replay: the one way commands other than `find` (shrink, log) ask whether a condition
/// holds.
package struct ConditionEvaluator<D: Domain>: Sendable {
  private let condition: Condition
  private let field: StateField<D.State>

  /// Checks `condition` against the domain's fields (throws as find does).
  package init(_ condition: Condition, in domain: D) throws(ConditionError) {
    self.condition = condition
    field = domain.fields[try domain.check(WrittenCondition(condition))]
  }

  /// Whether the condition holds at the point after `event` (nil: the initial state);
  /// `previous` is the state before the event (nil at the initial state), `state` after it.
  package func holds(after event: ReplayedEvent<D>?, previous: D.State?, state: D.State) -> Bool {
    if case .changed = condition {
      guard let previous else { return false }
      return field.value(previous) != field.value(state)
    }
    return condition.holds(for: field.value(state))
  }
}
