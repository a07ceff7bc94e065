/// Evaluates a condition at the points of a session: the one way the commands that filter
/// by a condition (`log --where`) ask whether it holds after an event.
///
/// Made once per condition, checked against the domain's fields as `find` checks it, then
/// asked at each point with the state before and after the event there.
package struct ConditionEvaluator<D: Domain>: Sendable {
  private let condition: Condition
  /// Reads the condition's field from a state.
  private let read: @Sendable (D.State) -> JSONValue

  /// Checks `condition` against the domain's fields (throws as find does).
  /// - Throws: ``ConditionError`` for an unknown field or a value that does not fit it.
  package init(_ condition: Condition, in domain: D) throws(ConditionError) {
    let field = try domain.check(WrittenCondition(condition))
    self.condition = condition
    read = domain.fields[field].value
  }

  /// Whether the condition holds at the point after `event` (nil: the initial state);
  /// `previous` is the state before the event (nil at the initial state), `state` after it.
  /// - Complexity: one or two reads of the condition's field.
  package func holds(after event: ReplayedEvent<D>?, previous: D.State?, state: D.State) -> Bool {
    switch condition {
    case .changed:
      guard let previous else { return false }
      return read(previous) != read(state)
    case .equals, .notEquals:
      return condition.holds(for: read(state))
    }
  }
}
