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
    var (replayer, state) = try replayer(toReach: 0)
    var hits: [FindHit<D>] = []
    try scan(
      condition, field: field, replayer: &replayer, state: &state, through: lastSequence,
      includingStart: true, progress: progress
    ) { hit in
      hits.append(hit)
      return all
    }
    return hits
  }

  /// The first point after event `sequence` where `condition` becomes true: the next
  /// match, as `find` defines one, from a point of the session.
  ///
  /// Whether the condition holds at `sequence` itself is read from the state there, so
  /// that the answer is one of the points ``find(_:all:progress:)`` lists with `all`.
  /// - Returns: the point, or nil when the condition does not become true after
  ///   `sequence`.
  /// - Throws: ``ConditionError`` for a condition that does not fit the fields;
  ///   ``RewindError`` `outOfRange` for a point outside the session.
  /// - Complexity: one seek to `sequence`, then O(events) until the match.
  public func find(_ condition: Condition, after sequence: UInt64) throws -> FindHit<D>? {
    let field = try domain.check(WrittenCondition(condition))
    var (replayer, state) = try replayer(toReach: sequence)
    try replayer.apply(through: sequence, to: &state)
    var found: FindHit<D>?
    try scan(
      condition, field: field, replayer: &replayer, state: &state, through: lastSequence,
      includingStart: false
    ) { hit in
      found = hit
      return false
    }
    return found
  }

  /// The last point before event `sequence` where `condition` becomes true: the previous
  /// match, searching backwards.
  ///
  /// Replays backwards one snapshot interval at a time, as ``blame(_:at:)`` does: the
  /// interval before `sequence` first, then the one before it, until one holds a match
  /// or the start is reached (where the initial state is a match when the condition
  /// holds in it).
  /// - Returns: the point, or nil when the condition does not become true before
  ///   `sequence`.
  /// - Throws: ``ConditionError`` for a condition that does not fit the fields;
  ///   ``RewindError`` `outOfRange` for a point outside the session.
  /// - Complexity: O(events between the match and `sequence`), in steps of one snapshot
  ///   interval.
  public func find(_ condition: Condition, before sequence: UInt64) throws -> FindHit<D>? {
    let field = try domain.check(WrittenCondition(condition))
    try checkInSession(sequence)
    guard sequence > 0 else { return nil }
    // The last event to look at, and the interval holding it.
    var end = sequence - 1
    while true {
      var (replayer, state) = try replayer(toReach: end == 0 ? 0 : end - 1)
      let start = replayer.sequence
      var last: FindHit<D>?
      try scan(
        condition, field: field, replayer: &replayer, state: &state, through: end,
        includingStart: start == 0
      ) { hit in
        last = hit
        return true
      }
      if let last { return last }
      if start == 0 { return nil }
      end = start
    }
  }

  /// Steps `replayer` from its position through event `end`, calling `visit` with each
  /// point where the condition becomes true until it returns false.
  ///
  /// Whether the condition holds before the first event stepped is read from `state`;
  /// with `includingStart`, holding there is a match at the replayer's position (the
  /// initial state, for a scan from the start).
  private func scan(
    _ condition: Condition, field: Int, replayer: inout Replayer<D>, state: inout D.State,
    through end: UInt64, includingStart: Bool, progress: (UInt64) -> Void = { _ in },
    _ visit: (FindHit<D>) -> Bool
  ) throws {
    let read = domain.fields[field].value
    var value = read(state)
    var holding = condition.holds(for: value)
    if includingStart, holding {
      guard visit(FindHit(sequence: replayer.sequence, value: value, event: nil)) else { return }
    }
    while replayer.sequence < end,
      let (event, changed) = try replayer.step(&state, trackChanges: true)
    {
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
      if isHit, !visit(FindHit(sequence: event.sequence, value: value, event: event)) { return }
    }
  }
}
