/// Evaluates a condition at points of a session, one at a time: what `log --where`,
/// `shrink --where` and scenario expectations build on (`find` runs the same compiled
/// condition in its specialised scans).
///
/// ```swift
/// let evaluator = try ConditionEvaluator(Condition(parsing: "outcome == rejected"), in: domain)
/// if evaluator.holds(after: replayed, previous: before, state: after) { … }
/// ```
package struct ConditionEvaluator<D: Domain>: Sendable {
  /// The condition, checked and compiled against the domain.
  package let compiled: CompiledCondition
  let domain: D
  /// The domain's fields the condition reads, by slot.
  let fields: [StateField<D.State>]

  /// Checks `condition` against the domain's fields (throws as find does).
  package init(_ condition: Condition, in domain: D) throws(ConditionError) {
    try self.init(WrittenCondition(condition), in: domain)
  }

  /// Checks a condition as written against the domain's fields, its errors placed at
  /// their columns in the text.
  package init(_ written: WrittenCondition, in domain: D) throws(ConditionError) {
    compiled = try domain.check(written)
    self.domain = domain
    let all = domain.fields
    fields = compiled.fields.map { all[$0] }
  }

  /// Whether the condition names the event (`event`, `outcome`, `reason`, `changed(…)`):
  /// such a condition is about the step to a point, the others about the state there.
  package var isAboutEvents: Bool { compiled.isAboutEvents }

  /// Whether the condition holds at the point after `event` (nil: the initial state);
  /// `previous` is the state before the event (nil at the initial state), `state` after it.
  package func holds(after event: ReplayedEvent<D>?, previous: D.State?, state: D.State) -> Bool {
    let values = fields.map { $0.value(state) }
    var changed = FieldSet()
    if let previous {
      for (slot, field) in fields.enumerated()
      where compiled.fields[slot] < 64 && !field.value(previous).isWrittenAs(values[slot]) {
        changed.insert(compiled.fields[slot])
      }
    }
    return compiled.holds(values, changed: changed, event: event, domain: domain)
  }

  /// The value a match shows at `state`: the field's when the condition reads one, an
  /// object of path → value when it reads several, null when it reads none.
  package func shownValue(in state: D.State) -> JSONValue {
    compiled.shown(fields.map { $0.value(state) })
  }
}
