import RewindJournal

extension Timeline {
  /// Replays events `first...last` and calls `visit` with each, the fields it changed and
  /// the state after it; stops early when `visit` returns false.
  ///
  /// With `skipped`, the replay is a counterfactual: the skipped events are not applied
  /// (one in the range is visited with a nil outcome and no change), and the state before
  /// `first` is the state without the skipped events before it. The journal is untouched.
  ///
  /// - Parameters:
  ///   - first: the first event to visit (1 at the least).
  ///   - last: the last event to visit.
  ///   - skipped: events to leave out, all in the session.
  ///   - crossingLostEvents: in a salvaged journal, go on after events lost to damage,
  ///     from the snapshot stored after them, instead of stopping with an error.
  ///   - visit: called with each event, the fields it changed and the state after it;
  ///     returns whether to go on.
  /// - Returns: the lost events crossed.
  /// - Throws: ``RewindError`` `outOfRange` for a skipped event outside the session, or
  ///   when the journal cannot be replayed (as `JournalError` too); whatever `visit`
  ///   throws.
  /// - Complexity: one seek to `first` (or to the first skipped event before it, then
  ///   the fast replay loop up to `first`), then O(events visited).
  @discardableResult
  public func events(
    from first: UInt64, through last: UInt64, skipping skipped: Set<UInt64> = [],
    crossingLostEvents: Bool = false,
    _ visit: (ReplayedEvent<D>, FieldSet, D.State) throws -> Bool
  ) throws -> [ClosedRange<UInt64>] {
    let first = max(first, 1)
    guard first <= last else { return [] }
    var (replayer, state) = try replayer(reaching: first - 1, skipping: skipped)
    replayer.crossesLostEvents = crossingLostEvents
    while replayer.sequence < last,
      let (event, changed) = try replayer.step(
        &state, trackChanges: true, skipping: { skipped.contains($0) })
    {
      // A step across lost events that end the range lands past it.
      guard event.sequence <= last, try visit(event, changed, state) else { break }
    }
    return replayer.crossedLostEvents
  }

  /// Writes events `first...last` as JSON Lines, one line per event (`{"seq":…,
  /// "time_us":…,` then the members of the event's JSON, ``Domain/writeMembers(of:to:)``),
  /// and hands them to `emit` a batch of about 64 KiB of whole lines at a time: the loop
  /// of `rewind export`, specialised for the domain (``Domain/scans``). Events lost to
  /// damage in a salvaged journal are crossed, as ``events(from:through:skipping:crossingLostEvents:_:)``
  /// crosses them; the events are decoded, not reduced.
  ///
  /// - Parameters:
  ///   - first: the first event to write (1 at the least).
  ///   - last: the last event to write.
  ///   - emit: called with whole lines, each ending in `\n`; the bytes are valid only
  ///     during the call.
  ///   - progress: called now and then with the sequence number of the last event written.
  /// - Returns: the lost events crossed.
  /// - Throws: ``RewindError`` or `JournalError` when the journal cannot be read; what
  ///   `emit` throws.
  /// - Complexity: O(events written); no allocation per event.
  @discardableResult
  public func writeJSONLines(
    from first: UInt64, through last: UInt64,
    emit: (UnsafeRawBufferPointer) throws -> Void, progress: (UInt64) -> Void = { _ in }
  ) throws -> [ClosedRange<UInt64>] {
    let first = max(first, 1)
    guard first <= last else { return [] }
    return try D.scans.export(self, first...last, emit, progress)
  }

  /// Decodes events `first...last` and calls `visit` with each one's sequence number,
  /// time and event, applying none: the loop of `rewind export --scenario`, specialised
  /// for the domain (``Domain/scans``). Events lost to damage in a salvaged journal are
  /// crossed, as ``events(from:through:skipping:crossingLostEvents:_:)`` crosses them.
  /// - Returns: the lost events crossed.
  /// - Throws: ``RewindError`` or `JournalError` when the journal cannot be read; what
  ///   `visit` throws.
  /// - Complexity: one seek to `first`, then O(events decoded), no allocation per event.
  @discardableResult
  package func decodedEvents(
    from first: UInt64, through last: UInt64,
    _ visit: (_ sequence: UInt64, _ time: UInt64, _ event: D.Event) throws -> Void
  ) throws -> [ClosedRange<UInt64>] {
    let first = max(first, 1)
    guard first <= last else { return [] }
    return try D.scans.decode(self, first...last, visit)
  }

  /// The loop of ``writeJSONLines(from:through:emit:progress:)``, inlinable so that
  /// ``SessionScans`` compiles it for the domain.
  @inlinable
  func exportRun(
    _ range: ClosedRange<UInt64>, emit: (UnsafeRawBufferPointer) throws -> Void,
    progress: (UInt64) -> Void
  ) throws -> [ClosedRange<UInt64>] {
    let batchSize = 1 << 16
    var (replayer, _) = try replayer(reaching: range.lowerBound - 1, skipping: [])
    replayer.crossesLostEvents = true
    let domain = self.domain
    // Scroll offsets repeat: their texts are remembered, not formatted again.
    var json = JSONWriter(capacity: batchSize + 4096, remembersNumbers: true)
    var lineStart = JSONLines.LineStart()
    // On an error (a damaged frame), the lines of the events before it are handed on
    // first: standard output gets every event that could be read (a batch was lost); not
    // a batch `emit` refused. (Inline, not a local function, which would box the writer.)
    var emitting = false
    defer { if !emitting && json.count > 0 { try? json.withBytes { try emit($0) } } }
    try replayer.forEachDecodedEvent(through: range.upperBound) { sequence, time, event in
      lineStart.write(sequence: sequence, time: time, to: &json)
      domain.writeMembers(of: event, to: &json)
      json.endObject()
      json.newline()
      if json.count >= batchSize {
        emitting = true
        try json.withBytes { try emit($0) }
        emitting = false
        json.removeAll()
        progress(sequence)
      }
    }
    emitting = true
    if json.count > 0 { try json.withBytes { try emit($0) } }
    progress(replayer.sequence)
    return replayer.crossedLostEvents
  }

  /// The state after event `sequence` as if the events in `skipped` had not happened:
  /// a counterfactual replay, which leaves the journal untouched. The simplest case of
  /// ``state(after:editing:)``, which also replaces and inserts events.
  ///
  /// - Throws: ``RewindError`` `outOfRange` for a skipped event outside the session.
  /// - Complexity: a seek to just before the first skipped event, then the fast replay
  ///   loop up to `sequence`, stepping over each skipped event.
  public func state(after sequence: UInt64, skipping skipped: Set<UInt64>) throws -> D.State {
    try state(after: sequence, editing: EventEdits(skipped: skipped))
  }

  /// Throws ``RewindError`` `outOfRange` for an event of `skipped` outside the session.
  @usableFromInline func checkSkipped<Events: Sequence<UInt64>>(_ skipped: Events) throws {
    for event in skipped where event == 0 || event > lastSequence {
      throw RewindError(
        .outOfRange,
        "cannot skip event \(event): "
          + (lastSequence == 0
            ? "the session has no events"
            : "the session holds \(JournalError.describe(1...lastSequence))"))
    }
  }

  /// A replayer after event `sequence`, with the state there as if the events in
  /// `skipped` had not happened.
  ///
  /// Seeks to just before the first skipped event (or to `sequence` when none comes
  /// before it), then runs the hot replay loop from one skipped event to the next,
  /// stepping over each.
  /// - Throws: ``RewindError`` `outOfRange` for a skipped event outside the session.
  @usableFromInline func replayer(reaching sequence: UInt64, skipping skipped: Set<UInt64>)
    throws -> (
      replayer: Replayer<D>, state: D.State
    )
  {
    try checkSkipped(skipped)
    let before = skipped.filter { $0 <= sequence }.sorted()
    var (replayer, state) = try replayer(toScanFrom: (before.first ?? sequence + 1) - 1)
    for event in before {
      try replayer.apply(through: event - 1, to: &state)
      _ = try replayer.step(&state, trackChanges: false, skipping: { _ in true })
    }
    try replayer.apply(through: sequence, to: &state)
    return (replayer, state)
  }
}

/// An event as ``Timeline/visitEvents(from:through:_:)`` hands it out: what was replayed,
/// in types that do not depend on the domain, so that a visitor compiled generically
/// (the page builder, which learns its domain at run time) unpacks no generic value.
@usableFromInline package struct VisitedEvent: Sendable {
  /// The event's sequence number.
  @usableFromInline package var sequence: UInt64
  /// Microseconds since the session start.
  @usableFromInline package var time: UInt64
  /// What the reducer did: 0 applied, 1 unchanged, 2 rejected.
  @usableFromInline package var outcome: Int
  /// Why it was rejected (the rejection's description); nil unless it was, and nil from
  /// `visitEventsInline`, which passes the rejection itself.
  @usableFromInline package var reason: String?
  /// The fields it changed.
  @usableFromInline package var changed: FieldSet

  @inlinable init(
    sequence: UInt64, time: UInt64, outcome: Int, reason: String?, changed: FieldSet
  ) {
    self.sequence = sequence
    self.time = time
    self.outcome = outcome
    self.reason = reason
    self.changed = changed
  }
}

extension Timeline {
  /// Replays events `first...last` and calls `visit` with each (its sequence, time,
  /// outcome and changed fields), the event itself and the state after it: the pass of
  /// `rewind html`'s page, one loop of the domain's ``Domain/scans``, specialised for it.
  ///
  /// What ``events(from:through:skipping:crossingLostEvents:_:)`` does with no skipped
  /// event and no lost event crossed, without its generic wrapper per event.
  /// - Throws: ``RewindError`` when the journal cannot be replayed (as `JournalError`
  ///   too); whatever `visit` throws.
  /// - Complexity: one seek to `first`, then O(events in the range), no allocation per
  ///   event but a rejection's reason.
  package func visitEvents(
    from first: UInt64, through last: UInt64,
    _ visit: (VisitedEvent, D.Event, D.State) throws -> Void
  ) throws {
    let first = max(first, 1)
    guard first <= last else { return }
    try D.scans.visit(self, first...last, visit)
  }

  /// The loop of ``visitEvents(from:through:_:)``, inlinable so that ``SessionScans``
  /// compiles it for the domain.
  @inlinable
  func visitRun(
    _ range: ClosedRange<UInt64>, _ visit: (VisitedEvent, D.Event, D.State) throws -> Void
  ) throws {
    var (replayer, state) = try replayer(reaching: range.lowerBound - 1, skipping: [])
    try replayer.forEachEvent(through: range.upperBound, &state, trackChanges: true) {
      event, changed, state in
      let code: Int
      var reason: String?
      switch event.outcome {
      case .applied?: code = 0
      case .unchanged?: code = 1
      case .rejected(let rejection)?:
        code = 2
        reason = "\(rejection)"
      case nil: return true
      }
      try visit(
        VisitedEvent(
          sequence: event.sequence, time: event.time, outcome: code, reason: reason,
          changed: changed), event.event, state)
      return true
    }
  }
}
