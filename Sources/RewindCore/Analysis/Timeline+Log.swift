/// A `log --where` pass: the events of a range after which a condition holds.
@usableFromInline struct LogQuery: Sendable {
  @usableFromInline let condition: CompiledCondition
  /// The first and last events visited.
  @usableFromInline let first: UInt64
  @usableFromInline let last: UInt64
  /// Whether each event is visited with the state before it (a state copy an event).
  @usableFromInline let keepsPrevious: Bool
}

/// An event after which a `log --where` condition holds, as the pass hands it out.
@usableFromInline package struct LoggedEvent<D: Domain> {
  /// The event, with its outcome.
  @usableFromInline package var event: ReplayedEvent<D>
  /// The fields it changed (after lost events: since the snapshot replay went on from).
  @usableFromInline package var changed: FieldSet
  /// The state before it, when the pass keeps it (after lost events: the snapshot replay
  /// went on from).
  @usableFromInline package var before: D.State?

  @inlinable init(event: ReplayedEvent<D>, changed: FieldSet, before: D.State?) {
    self.event = event
    self.changed = changed
    self.before = before
  }
}

extension Timeline {
  /// Replays events `first...last` and calls `visit` with each one after which
  /// `condition` holds (as ``ConditionEvaluator`` decides it from the states before and
  /// after the event), and the state after it; stops early when `visit` returns false.
  ///
  /// The loop of `log --where`: one pass of the domain's ``Domain/scans``, specialised
  /// for it, with the condition's change detection fused into it (a field is read again
  /// only after an event that changed it). In a salvaged journal it goes on after events
  /// lost to damage, from the snapshot stored after them: the state before the event that
  /// follows them, with which its changes are compared, as `find` compares them.
  /// - Parameters:
  ///   - keepingPrevious: visit each event with the state before it (costs a state copy
  ///     an event).
  ///   - progress: called with the number of events replayed, after each run of records
  ///     (a frame, or its part up to a snapshot).
  /// - Returns: the lost events crossed.
  /// - Throws: ``RewindError`` when the journal cannot be replayed (as `JournalError`
  ///   too); whatever `visit` throws.
  /// - Complexity: one seek to `first`, then O(events in the range).
  @discardableResult
  package func events(
    from first: UInt64, through last: UInt64, where condition: ConditionEvaluator<D>,
    keepingPrevious: Bool, progress: (UInt64) -> Void = { _ in },
    _ visit: (LoggedEvent<D>, D.State) throws -> Bool
  ) throws -> [ClosedRange<UInt64>] {
    let first = max(first, 1)
    guard first <= last else { return [] }
    let query = LogQuery(
      condition: condition.compiled, first: first, last: last, keepsPrevious: keepingPrevious)
    return try D.scans.log(self, query, progress, visit)
  }

  /// The pass of ``events(from:through:where:keepingPrevious:progress:_:)``, inlinable
  /// so that ``SessionScans`` specialises it for the domain. The condition's comparisons
  /// of fields are evaluated with the domain's predicates
  /// (`CompiledCondition.predicates(in:)`), no JSON value built; changes are followed only
  /// when the condition reads them (`changed(…)`) or the states before are kept.
  @inlinable
  func logRun(
    _ query: LogQuery, progress: (UInt64) -> Void,
    _ visit: (LoggedEvent<D>, D.State) throws -> Bool
  ) throws -> [ClosedRange<UInt64>] {
    let predicates = query.condition.predicates(in: domain)
    var (replayer, state) = try replayer(toScanFrom: query.first - 1)
    try replayer.apply(through: query.first - 1, to: &state)
    replayer.crossesLostEvents = true
    // Two loops, each specialised on its own: the loop that keeps no state before each
    // event carries none (an optional state carried through the loop was copied twice
    // in memory every event).
    if query.keepsPrevious {
      try logPassKeepingPrevious(query, predicates, &replayer, &state, progress: progress, visit)
    } else {
      try logPass(query, predicates, &replayer, &state, progress: progress, visit)
    }
    return replayer.crossedLostEvents
  }

  /// The loop of ``logRun(_:progress:_:)`` that keeps no state before each event.
  @inlinable @inline(never)
  func logPass(
    _ query: LogQuery, _ predicates: [@Sendable (D.State) -> Bool],
    _ replayer: inout Replayer<D>, _ state: inout D.State, progress: (UInt64) -> Void,
    _ visit: (LoggedEvent<D>, D.State) throws -> Bool
  ) throws {
    let condition = query.condition
    let domain = self.domain
    let read = condition.fieldSet
    let start = query.first
    // The events replayed so far, after each run of records (not tested every event).
    func reported(_ sequence: UInt64) { progress(sequence &- start) }
    let triggers = condition.triggers
    // After lost events, `changed` is what the event changed from the snapshot stored
    // after them, the state before it.
    @inline(__always) func pass(
      _ event: ReplayedEvent<D>, _ changed: FieldSet, _ state: inout D.State
    ) throws -> Bool {
      let seen = changed.intersection(read)
      // A condition that needs one of some fields changed cannot hold after the others.
      if let triggers, seen.intersection(triggers).isEmpty { return true }
      guard condition.holds(state, predicates, changed: seen, event: event, domain: domain)
      else { return true }
      return try visit(LoggedEvent(event: event, changed: changed, before: nil), state)
    }
    // Changes are followed only when the condition reads them; each loop compiled with
    // the choice made, not tested every event (as `find`'s). A condition that needs one
    // of its triggers changed passes the events that changed none of them in the
    // replay's inner loop (what `pass` does with them, the sequence noted).
    if condition.readsChanges, let triggers {
      let needed = read.intersection(triggers)
      try replayer.forEachEvent(
        through: query.last, &state, trackChanges: true, progress: reported,
        passing: { _, changed in changed.intersection(needed).isEmpty },
        { try pass($0, $1, &$2) })
    } else if condition.readsChanges {
      try replayer.forEachEvent(
        through: query.last, &state, trackChanges: true, progress: reported
      ) { try pass($0, $1, &$2) }
    } else {
      try replayer.forEachEvent(
        through: query.last, &state, trackChanges: false, progress: reported
      ) { try pass($0, $1, &$2) }
    }
  }

  /// The loop of ``logRun(_:progress:_:)`` that keeps the state before each event (a
  /// state copy an event), to visit each with it.
  @inlinable @inline(never)
  func logPassKeepingPrevious(
    _ query: LogQuery, _ predicates: [@Sendable (D.State) -> Bool],
    _ replayer: inout Replayer<D>, _ state: inout D.State, progress: (UInt64) -> Void,
    _ visit: (LoggedEvent<D>, D.State) throws -> Bool
  ) throws {
    let condition = query.condition
    let domain = self.domain
    let read = condition.fieldSet
    var previous: D.State? = state
    var previousSequence = query.first - 1
    let start = query.first
    // The events replayed so far, after each run of records (not tested every event).
    func reported(_ sequence: UInt64) { progress(sequence &- start) }
    let triggers = condition.triggers
    try replayer.forEachEvent(
      through: query.last, &state, trackChanges: true, progress: reported
    ) { event, changed, state in
      // After lost events the state before is the snapshot stored after them, from which
      // `changed` was followed.
      let follows = event.sequence == previousSequence &+ 1
      previousSequence = event.sequence
      let seen = changed.intersection(read)
      var before = previous
      if !follows { before = try self.state(afterLostEventsEndingAt: event.sequence &- 1) }
      previous = state
      // A condition that needs one of some fields changed cannot hold after the others.
      if let triggers, seen.intersection(triggers).isEmpty { return true }
      guard condition.holds(state, predicates, changed: seen, event: event, domain: domain)
      else { return true }
      return try visit(LoggedEvent(event: event, changed: changed, before: before), state)
    }
  }
}
