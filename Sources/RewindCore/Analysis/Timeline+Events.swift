import RewindJournal

extension Timeline {
  /// Replays events `first...last` and calls `visit` with each, the fields it changed and
  /// the state after it; stops early when `visit` returns false.
  ///
  /// - Parameters:
  ///   - first: the first event to visit (1 at the least).
  ///   - last: the last event to visit.
  ///   - crossingLostEvents: in a salvaged journal, go on after events lost to damage,
  ///     from the snapshot stored after them, instead of stopping with an error.
  ///   - visit: called with each event, the fields it changed and the state after it;
  ///     returns whether to go on.
  /// - Returns: the lost events crossed.
  /// - Throws: ``RewindError`` or `JournalError` when the journal cannot be replayed;
  ///   whatever `visit` throws.
  /// - Complexity: one seek to `first`, then O(events visited).
  @discardableResult
  public func events(
    from first: UInt64, through last: UInt64, crossingLostEvents: Bool = false,
    _ visit: (ReplayedEvent<D>, FieldSet, D.State) throws -> Bool
  ) throws -> [ClosedRange<UInt64>] {
    let first = max(first, 1)
    guard first <= last else { return [] }
    var (replayer, state) = try replayer(toReach: first - 1)
    try replayer.apply(through: first - 1, to: &state)
    replayer.crossesLostEvents = crossingLostEvents
    while replayer.sequence < last,
      let (event, changed) = try replayer.step(&state, trackChanges: true)
    {
      guard try visit(event, changed, state) else { break }
    }
    return replayer.crossedLostEvents
  }

  /// The state after event `sequence` as if the events in `skipped` had not happened:
  /// a counterfactual replay, which leaves the journal untouched.
  ///
  /// - Throws: ``RewindError`` `outOfRange` for a skipped event outside the session.
  /// - Complexity: a seek to just before the first skipped event, then O(events to
  ///   `sequence`).
  public func state(after sequence: UInt64, skipping skipped: Set<UInt64>) throws -> D.State {
    for event in skipped where event == 0 || event > lastSequence {
      throw RewindError(
        .outOfRange,
        "cannot skip event \(event): "
          + (lastSequence == 0
            ? "the session has no events"
            : "the session holds \(JournalError.describe(1...lastSequence))"))
    }
    guard let first = skipped.min(), first <= sequence else { return try state(after: sequence) }
    var (replayer, state) = try replayer(toReach: first - 1)
    try replayer.apply(through: first - 1, to: &state)
    while replayer.sequence < sequence,
      try replayer.step(&state, trackChanges: false, skipping: { skipped.contains($0) }) != nil
    {}
    return state
  }
}
