/// A point where a `find` condition became true.
public struct FindHit<D: Domain>: Sendable {
  /// The point: the state after this event (0: the initial state).
  public var sequence: UInt64
  /// The field's value there.
  public var value: JSONValue
  /// The event that made the condition true (nil at the initial state).
  public var event: ReplayedEvent<D>?
}

extension Timeline {
  /// The first point (or, with `all`, every point) where `condition` becomes true:
  /// where an equality starts to hold, or where the field changes.
  ///
  /// The condition is checked against the kinds of the domain's fields first, so that
  /// one that can never hold is an error, not an empty answer. Then one streaming pass
  /// from the start; the field is compared only after events that changed it.
  /// - Parameters:
  ///   - condition: what to look for.
  ///   - all: every point where it becomes true, not only the first.
  ///   - progress: called with the number of events replayed, every few thousand.
  /// - Returns: the points, in order.
  /// - Throws: ``ConditionError`` for a condition that does not fit the fields (an
  ///   unknown path, a value of the wrong kind, outside an enum, an unknown id).
  /// - Complexity: O(events) until the first hit, or O(events) with `all`.
  public func find(_ condition: Condition, all: Bool, progress: (UInt64) -> Void = { _ in })
    throws -> [FindHit<D>]
  {
    let field = try domain.check(WrittenCondition(condition))
    let read = domain.fields[field].value
    var (replayer, state) = try replayer(toReach: 0)
    var value = read(state)
    var holding = condition.holds(for: value)
    var hits: [FindHit<D>] = []
    if holding {
      hits.append(FindHit(sequence: 0, value: value, event: nil))
      if !all { return hits }
    }
    while let (event, changed) = try replayer.step(&state, trackChanges: true) {
      if event.sequence & 0xFFF == 0 { progress(event.sequence) }
      guard changed.contains(field) else { continue }
      value = read(state)
      let isHit: Bool
      if case .changed = condition {
        isHit = true
      } else {
        let holdsNow = condition.holds(for: value)
        isHit = holdsNow && !holding
        holding = holdsNow
      }
      if isHit {
        hits.append(FindHit(sequence: event.sequence, value: value, event: event))
        if !all { break }
      }
    }
    return hits
  }
}
