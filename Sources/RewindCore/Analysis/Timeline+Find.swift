/// A point where a `find` condition became true.
public struct FindHit<D: Domain>: Sendable {
  /// The point: the state after this event (0: the initial state).
  public var sequence: UInt64
  /// The field's value there.
  public var value: JSONValue
  /// The event that made the condition true (nil at the initial state).
  public var event: ReplayedEvent<D>?

  @inlinable init(sequence: UInt64, value: JSONValue, event: ReplayedEvent<D>?) {
    self.sequence = sequence
    self.value = value
    self.event = event
  }
}

/// A `find` condition checked against the domain's fields: what the scan loop needs.
@usableFromInline struct FindQuery: Sendable {
  @usableFromInline let condition: Condition
  /// The index of the condition's field in ``Domain/fields``.
  @usableFromInline let field: Int
  /// Every point, not only the first.
  @usableFromInline let all: Bool
  /// `changed(…)`: every change is a hit.
  @usableFromInline let isChange: Bool
  /// Whether the initial state is a hit when the condition holds in it (a scan that starts
  /// at 0); false for the next match after a point.
  @usableFromInline let includingStart: Bool

  init(condition: Condition, field: Int, all: Bool, includingStart: Bool = true) {
    self.condition = condition
    self.field = field
    self.all = all
    self.includingStart = includingStart
    if case .changed = condition { isChange = true } else { isChange = false }
  }
}

extension Timeline {
  /// The first point (or, with `all`, every point) where `condition` becomes true:
  /// where an equality starts to hold, or where the field changes.
  ///
  /// The condition is checked against the kinds of the domain's fields first, so that
  /// one that can never hold is an error, not an empty answer. Then one streaming pass
  /// from the start (the domain's ``Domain/scans``, specialised for it); the field is
  /// compared only after events that changed it. With `jobs` above 1, an intact journal
  /// is split into that many parts, each replayed on its own thread from the snapshot
  /// before it, and the parts' points are merged in order: the same answer.
  /// - Parameters:
  ///   - condition: what to look for.
  ///   - all: every point where it becomes true, not only the first.
  ///   - jobs: how many threads may replay parts of the journal at once.
  ///   - progress: called with the number of events replayed, every few thousand.
  /// - Returns: the points, in order.
  /// - Throws: ``ConditionError`` for a condition that does not fit the fields (an
  ///   unknown path, a value of the wrong kind, outside an enum, an unknown id).
  /// - Complexity: O(events) until the first hit, or O(events) with `all`, divided among
  ///   the jobs.
  public func find(
    _ condition: Condition, all: Bool, jobs: Int = 1, progress: (UInt64) -> Void = { _ in }
  ) throws -> [FindHit<D>] {
    let field = try domain.check(WrittenCondition(condition))
    let query = FindQuery(condition: condition, field: field, all: all)
    let find = D.scans.find
    if let parts = try inParallel(
      jobs: jobs, progress: progress,
      { timeline, range, progress in try find(timeline, query, range, progress) })
    {
      if all { return parts.flatMap { $0 } }
      return parts.first { !$0.isEmpty } ?? []
    }
    return try find(self, query, 0...lastSequence, progress)
  }

  /// The first point after event `sequence` where `condition` becomes true: the next
  /// match, as `find` defines one, from a point of the session.
  ///
  /// Whether the condition holds at `sequence` itself is read from the state there, so
  /// that the answer is one of the points ``find(_:all:jobs:progress:)`` lists with `all`.
  /// - Returns: the point, or nil when the condition does not become true after
  ///   `sequence`.
  /// - Throws: ``ConditionError`` for a condition that does not fit the fields;
  ///   ``RewindError`` `outOfRange` for a point outside the session.
  /// - Complexity: one seek to `sequence`, then O(events) until the match.
  public func find(_ condition: Condition, after sequence: UInt64) throws -> FindHit<D>? {
    let field = try domain.check(WrittenCondition(condition))
    let query = FindQuery(condition: condition, field: field, all: false, includingStart: false)
    try checkInSession(sequence)
    return try D.scans.find(self, query, sequence...lastSequence, { _ in }).first
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
    let query = FindQuery(condition: condition, field: field, all: true)
    try checkInSession(sequence)
    guard sequence > 0 else { return nil }
    // The last event to look at, and the interval holding it.
    var end = sequence - 1
    while true {
      // The snapshot the interval starts from.
      let start = try replayer(toReach: end == 0 ? 0 : end - 1).0.sequence
      if let last = try D.scans.find(self, query, start...end, { _ in }).last { return last }
      if start == 0 { return nil }
      end = start
    }
  }

  /// The points where the query's condition becomes true after events `range` (the
  /// initial state counts when the range starts at 0), replaying from the state after
  /// `range.lowerBound`: the loop of ``find(_:all:jobs:progress:)``, inlinable so that
  /// ``SessionScans`` specialises it for the domain.
  /// - Parameter progress: called with the number of events replayed in the range.
  @inlinable
  func findRun(
    _ query: FindQuery, _ range: ClosedRange<UInt64>, progress: (UInt64) -> Void
  ) throws -> [FindHit<D>] {
    let read = domain.fields[query.field].value
    let start = range.lowerBound
    var (replayer, state) = try replayer(toReach: start)
    try replayer.apply(through: start, to: &state)
    var holding = query.condition.holds(for: read(state))
    var hits: [FindHit<D>] = []
    if start == 0, query.includingStart, holding {
      hits.append(FindHit(sequence: 0, value: read(state), event: nil))
      if !query.all { return hits }
    }
    while replayer.sequence < range.upperBound,
      let (event, changed) = try replayer.step(&state, trackChanges: true)
    {
      if event.sequence & 0xFFF == 0 { progress(event.sequence &- start) }
      guard changed.contains(query.field) else { continue }
      let value = read(state)
      let isHit: Bool
      if query.isChange {
        isHit = true
      } else {
        let holdsNow = query.condition.holds(for: value)
        isHit = holdsNow && !holding
        holding = holdsNow
      }
      if isHit {
        hits.append(FindHit(sequence: event.sequence, value: value, event: event))
        if !query.all { break }
      }
    }
    return hits
  }
}
