/// What leaving some events out does to the rest of a session: the later events whose
/// effect (outcome and changed fields) is not the recorded one, and the state at the end.
public struct SkipEffects<State: Sendable>: Sendable {
  /// The first of the later events whose effect differs from the recording's, in order,
  /// at most the limit asked for.
  public var differing: [UInt64]
  /// How many later events differ, all counted.
  public var differingCount: Int
  /// The state after the last event replayed, without the skipped events.
  public var endState: State

  @inlinable init(differing: [UInt64], differingCount: Int, endState: State) {
    self.differing = differing
    self.differingCount = differingCount
    self.endState = endState
  }
}

extension Timeline {
  /// Replays the session from its first skipped event through `last` without the events
  /// in `skipped`, comparing the effect of every later event that is not skipped with the
  /// recorded one, as `check` compares them: the counterfactual of the player's `x`.
  ///
  /// - Parameters:
  ///   - skipped: events to leave out, all in the session (none, or none up to `last`:
  ///     no event differs, and the end state is the recorded one).
  ///   - last: the last event to replay.
  ///   - limit: the most differing events listed (all are counted).
  /// - Throws: ``RewindError`` `outOfRange` for a skipped event outside the session, or
  ///   when the journal cannot be replayed (as `JournalError` too).
  /// - Complexity: a seek to the first skipped event, then the replay's inner loop to
  ///   `last`, stepping over each skipped event: specialised for the domain
  ///   (``Domain/scans``), where the general counterfactual replay
  ///   (``events(from:through:skipping:crossingLostEvents:_:)``) calls its visitor for each
  ///   event.
  public func effects(skipping skipped: Set<UInt64>, through last: UInt64, limit: Int) throws
    -> SkipEffects<D.State>
  {
    try D.scans.skipEffects(self, skipped.sorted(), last, limit)
  }

  /// The loop of ``effects(skipping:through:limit:)``, inlinable so that ``SessionScans``
  /// compiles it for the domain. `skipped` is in increasing order.
  @inlinable
  func skipEffectsRun(_ skipped: [UInt64], through last: UInt64, limit: Int) throws
    -> SkipEffects<D.State>
  {
    try checkSkipped(skipped)
    guard let first = skipped.first, first <= last else {
      return SkipEffects(differing: [], differingCount: 0, endState: try state(after: last))
    }
    var (replayer, state) = try replayer(reaching: first - 1, skipping: [])
    let known = knownFieldBits
    @inline(__always) func replayed(_ event: ReplayedEvent<D>, _ changed: FieldSet)
      -> RecordedEffect
    {
      Self.effect(of: event, changed: changed, known: known)
    }
    var effects = SkipEffects(differing: [], differingCount: 0, endState: state)
    for (index, event) in skipped.enumerated() where event <= last {
      guard replayer.sequence == event - 1,
        try replayer.step(&state, trackChanges: false, skipping: { _ in true }) != nil
      else { break }
      let end = index + 1 < skipped.count ? Swift.min(skipped[index + 1] - 1, last) : last
      _ = try replayer.forEachEvent(
        through: end, &state, trackChanges: true,
        passing: { event, changed in replayed(event, changed) == event.recorded },
        { event, changed, _ in
          // Also called for events the inner loop does not decode, which may not differ.
          guard replayed(event, changed) != event.recorded else { return true }
          effects.differingCount += 1
          if effects.differing.count < limit { effects.differing.append(event.sequence) }
          return true
        })
    }
    effects.endState = state
    return effects
  }
}
