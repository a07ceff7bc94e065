import RewindJournal

/// Changes to a session's events for a counterfactual replay: events left out, replaced,
/// or inserted. The journal is never touched; the edited session exists only as it is
/// replayed (or written to a new journal).
public struct EventEdits<Event: Sendable>: Sendable {
  /// Recorded events left out.
  public var skipped: Set<UInt64>
  /// Recorded events replaced by another event, which takes the recorded one's time.
  public var replaced: [UInt64: Event]
  /// Events inserted at a point: after the recorded event with that sequence number (0:
  /// before the first), in order, at that event's time (0 at the start).
  public var inserted: [UInt64: [Event]]

  public init(
    skipped: Set<UInt64> = [], replaced: [UInt64: Event] = [:], inserted: [UInt64: [Event]] = [:]
  ) {
    self.skipped = skipped
    self.replaced = replaced
    self.inserted = inserted
  }

  /// Whether nothing is edited.
  public var isEmpty: Bool { skipped.isEmpty && replaced.isEmpty && inserted.isEmpty }

  /// The last point up to which the edited session is the recorded one: the point
  /// before the first skipped or replaced event, or the first point with inserted events.
  /// Nil when nothing is edited.
  public var lastUnchangedPoint: UInt64? {
    let direct = skipped.union(replaced.keys).min().map { $0 - 1 }
    let insertion = inserted.filter { !$0.value.isEmpty }.keys.min()
    switch (direct, insertion) {
    case (nil, nil): return nil
    case (let direct?, nil): return direct
    case (nil, let insertion?): return insertion
    case (let direct?, let insertion?): return min(direct, insertion)
    }
  }

  /// Whether event `sequence` is left out or replaced (read from the journal but not
  /// applied as recorded).
  @usableFromInline func isEdited(_ sequence: UInt64) -> Bool {
    skipped.contains(sequence) || replaced[sequence] != nil
  }

  /// The next event after `sequence` that is left out or replaced, or `.max`.
  @usableFromInline func nextEdited(after sequence: UInt64) -> UInt64 {
    skipped.union(replaced.keys).filter { $0 > sequence }.min() ?? .max
  }

  /// The next point after `sequence` with inserted events, or `.max`.
  @usableFromInline func nextInsertion(after sequence: UInt64) -> UInt64 {
    inserted.filter { !$0.value.isEmpty && $0.key > sequence }.keys.min() ?? .max
  }
}

/// One event of an edited session as it is replayed.
public struct EditedEvent<D: Domain>: Sendable {
  /// What the edits did to this event.
  public enum Edit: String, Sendable {
    /// A recorded event, as recorded.
    case kept
    /// A recorded event left out: not applied.
    case skipped
    /// A recorded event replaced by ``EditedEvent/event``.
    case replaced
    /// An event that the recording does not have.
    case inserted
  }

  public var edit: Edit
  /// The recorded event's sequence number; for an inserted event, the point it was
  /// inserted at (the recorded event it follows, 0 at the start).
  public var sequence: UInt64
  /// Microseconds since the session start.
  public var time: UInt64
  /// The event as applied (the replacement for a replaced one; the recorded one, not
  /// applied, for a skipped one).
  public var event: D.Event
  /// The recorded event (nil for an inserted one), with what the recording says it did.
  public var recorded: ReplayedEvent<D>?
  /// What the reducer did with ``event`` here (nil when skipped).
  public var outcome: Outcome<D.Rejection>?
  /// The fields it changed.
  public var changed: FieldSet

  @usableFromInline init(
    edit: Edit, sequence: UInt64, time: UInt64, event: D.Event, recorded: ReplayedEvent<D>?,
    outcome: Outcome<D.Rejection>?, changed: FieldSet
  ) {
    self.edit = edit
    self.sequence = sequence
    self.time = time
    self.event = event
    self.recorded = recorded
    self.outcome = outcome
    self.changed = changed
  }

  /// Whether a kept event does something else than the recording says: another outcome
  /// or other fields changed. False for an edited event.
  @inlinable public var differsFromRecording: Bool {
    guard edit == .kept, let recorded, let outcome else { return false }
    return RecordedEffect(outcome, changed: changed) != recorded.recorded
  }
}

extension Timeline {
  /// Replays the session with `edits` applied, through point `last`, and calls `visit`
  /// with each event of the edited session after the last unchanged point (or from event
  /// `first`, when it comes earlier) and the state after it; stops when `visit` returns
  /// false. Events inserted at `last` are replayed too.
  ///
  /// - Parameters:
  ///   - edits: what to leave out, replace and insert; all in the session.
  ///   - first: the first recorded event to visit, when earlier than the first edit.
  ///   - last: the last recorded event to replay.
  ///   - visit: called with each event and the state after it.
  /// - Returns: the state at `last` in the edited session.
  /// - Throws: ``RewindError`` `outOfRange` for an edit outside the session, or a
  ///   `invalidInput` for an event both skipped and replaced; whatever `visit` throws.
  /// - Complexity: one seek to the last unchanged point, then O(events up to `last`), each
  ///   stepped with its changes.
  @discardableResult
  public func replay(
    _ edits: EventEdits<D.Event>, from first: UInt64? = nil, through last: UInt64,
    _ visit: (EditedEvent<D>, D.State) throws -> Bool
  ) throws -> D.State {
    try withoutActuallyEscaping(visit) { visit in
      try replayEdited(edits, from: first, through: last, visit: visit)
    }
  }

  /// The state at point `sequence` in the session with `edits` applied (events inserted
  /// at `sequence` included): a counterfactual, which leaves the journal untouched.
  ///
  /// - Throws: as ``replay(_:from:through:_:)``.
  /// - Complexity: a seek to the last unchanged point, then the fast replay loop from one
  ///   edit to the next up to `sequence`.
  public func state(after sequence: UInt64, editing edits: EventEdits<D.Event>) throws -> D.State {
    try replayEdited(edits, from: nil, through: sequence, visit: nil)
  }

  /// Records the session with `edits` into `recorder`: the recorded events kept, those
  /// replaced by their replacements, and those inserted, each at its time (`rewind state
  /// -o`). The domain's ``Domain/scans``, specialised for it.
  /// - Throws: as ``replay(_:from:through:_:)``; what `recorder` throws.
  package func record(_ edits: EventEdits<D.Event>, into recorder: JournalRecorder<D>) throws {
    try D.scans.recordEdited(self, edits, recorder)
  }

  /// Calls `visit` with each event of the session with `edits`, through recorded event
  /// `last`, that an edit put in (replacing or inserted) or that does something else than
  /// the recording says (``EditedEvent/differsFromRecording``), in order: what `rewind
  /// state` lists after an edited state. The domain's ``Domain/scans``, specialised for it,
  /// so that the events passed over cost no call.
  /// - Throws: as ``replay(_:from:through:_:)``; what `visit` throws.
  package func forEachEditedDifference(
    _ edits: EventEdits<D.Event>, through last: UInt64, _ visit: (EditedEvent<D>) throws -> Void
  ) throws {
    try withoutActuallyEscaping(visit) { visit in
      try D.scans.editedDifferences(self, edits, last, visit)
    }
  }

  /// Checks that every edit is in the session.
  /// - Throws: ``RewindError`` `outOfRange` naming the session's events, `invalidInput`
  ///   for an event both skipped and replaced.
  @usableFromInline func check(_ edits: EventEdits<D.Event>) throws(RewindError) {
    let held =
      lastSequence == 0
      ? "the session has no events" : "the session holds \(JournalError.describe(1...lastSequence))"
    for event in edits.skipped.sorted() where event == 0 || event > lastSequence {
      throw RewindError(.outOfRange, "cannot skip event \(event): \(held)")
    }
    for event in edits.replaced.keys.sorted() where event == 0 || event > lastSequence {
      throw RewindError(.outOfRange, "cannot replace event \(event): \(held)")
    }
    for point in edits.inserted.keys.sorted() where point > lastSequence {
      throw RewindError(
        .outOfRange,
        "cannot insert after event \(point): the points are 0–\(lastSequence) (0: before the first event)"
      )
    }
    if let both = edits.skipped.intersection(edits.replaced.keys).min() {
      throw RewindError(.invalidInput, "event \(both) is both skipped and replaced; do one")
    }
  }

  /// The edited replay: without `visit`, the hot loop runs between edits. Inlinable, so
  /// that ``SessionScans`` runs it specialised for the domain (`state -o` and the later
  /// events' effects of `state` with edits), with `visit` inlined.
  @inlinable func replayEdited(
    _ edits: EventEdits<D.Event>, from first: UInt64?, through last: UInt64,
    visit: ((EditedEvent<D>, D.State) throws -> Bool)?
  ) throws -> D.State {
    try check(edits)
    try checkInSession(last)
    let start = min(
      edits.lastUnchangedPoint ?? .max, first.map { max($0, 1) - 1 } ?? .max, last)
    var (replayer, state) = try replayer(toScanFrom: start)
    try replayer.apply(through: start, to: &state)
    let domain = self.domain
    var time: UInt64 = 0
    if visit != nil, start > 0, edits.inserted[start] != nil { time = try self.time(of: start) }
    var going = true

    /// Applies the events inserted at `point`.
    func insert(at point: UInt64) throws {
      for event in edits.inserted[point] ?? [] where going {
        guard let visit else {
          _ = domain.reduce(&state, event)
          continue
        }
        let (outcome, changed) = domain.reduceTrackingChanges(&state, event)
        going = try visit(
          EditedEvent(
            edit: .inserted, sequence: point, time: time, event: event, recorded: nil,
            outcome: outcome, changed: changed), state)
      }
    }

    try insert(at: start)
    while going, replayer.sequence < last {
      if visit == nil {
        // Up to the next edit at full speed.
        let current = replayer.sequence
        let target = min(
          last, edits.nextEdited(after: current) &- 1, edits.nextInsertion(after: current))
        if target > current {
          try replayer.apply(through: target, to: &state)
          guard replayer.sequence > current else { break }
          try insert(at: replayer.sequence)
          continue
        }
      }
      guard
        let (replayed, changed) = try replayer.step(
          &state, trackChanges: visit != nil, skipping: edits.isEdited)
      else { break }
      time = replayed.time
      var edited = EditedEvent<D>(
        edit: .kept, sequence: replayed.sequence, time: replayed.time, event: replayed.event,
        recorded: replayed, outcome: replayed.outcome, changed: changed)
      if edits.skipped.contains(replayed.sequence) {
        edited.edit = .skipped
      } else if let replacement = edits.replaced[replayed.sequence] {
        edited.edit = .replaced
        edited.event = replacement
        if visit != nil {
          (edited.outcome, edited.changed) = domain.reduceTrackingChanges(&state, replacement)
        } else {
          edited.outcome = domain.reduce(&state, replacement)
        }
      }
      if let visit { going = try visit(edited, state) }
      try insert(at: replayed.sequence)
    }
    return state
  }
}
