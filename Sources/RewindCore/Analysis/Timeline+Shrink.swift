/// A session shrunk by ``Timeline/shrink(where:)`` or ``Timeline/shrinkDivergence()``: the
/// few events that still have the property, at their times in the session.
public struct ShrinkResult<D: Domain>: Sendable {
  /// How the last event of a divergent session replays: as recorded, and now.
  public struct Divergence: Sendable {
    /// The diverging event's sequence number in the session.
    public var sequence: UInt64
    public var recorded: RecordedEffect
    public var replayed: RecordedEffect
  }

  /// The sequence numbers, in the session, of the events kept.
  public var sequences: [UInt64]
  /// The events kept, at their times in the session.
  public var events: [TimedEvent<D.Event>]
  /// The events searched: those up to the first point with the property, less those the
  /// session rejected there.
  public var searched: Int
  /// The candidate sessions replayed, and the events they reduced in all.
  public var replays: Int
  public var eventsReplayed: UInt64
  /// For ``Timeline/shrinkDivergence()``: the diverging event's effects.
  public var divergence: Divergence?
}

extension Timeline {
  /// A smallest subsequence of the session's events after which `condition` holds: a
  /// recorded bug cut down to the few events that cause it.
  ///
  /// The session is replayed to the first point where the condition holds; its events up
  /// to there (less those it rejected, which changed nothing) are shrunk by a
  /// ``Shrinker``, replaying each candidate with the current reducer from the initial
  /// state and asking whether the condition holds after its last event. Events a shorter
  /// session rejects are dropped.
  /// - Returns: the events kept; none when the condition holds in the initial state; nil
  ///   when it never holds in the session.
  /// - Throws: ``ConditionError`` for a condition that does not fit the domain's fields;
  ///   ``RewindError`` or `JournalError` when the journal cannot be replayed.
  /// - Complexity: O(p) for the pass to the first match, at event `p`, then ddmin over
  ///   those events: O(t · m) reducer steps for `t` candidates of at most `m` events
  ///   (see ``Shrinker/shrink()``), typically O(k · log p) candidates for a result of `k`
  ///   events.
  public func shrink(where condition: Condition) throws -> ShrinkResult<D>? {
    let evaluator = try ConditionEvaluator(condition, in: domain)
    var previous = domain.initialState
    if evaluator.holds(after: nil, previous: nil, state: previous) {
      return ShrinkResult(
        sequences: [], events: [], searched: 0, replays: 0, eventsReplayed: 0, divergence: nil)
    }
    var events: [ReplayedEvent<D>] = []
    var found = false
    try self.events(from: 1, through: lastSequence) { replayed, _, state in
      if evaluator.holds(after: replayed, previous: previous, state: state) {
        events.append(replayed)
        found = true
        return false
      }
      if replayed.outcome?.isRejected != true { events.append(replayed) }
      previous = state
      return true
    }
    guard found else { return nil }
    var shrinker = Shrinker(domain: domain, events: events) { last, _, before, after in
      evaluator.holds(after: last, previous: before, state: after)
    }
    return try result(of: &shrinker, divergence: nil)
  }

  /// A smallest subsequence of the session's events that diverges from its recording as
  /// the session does under the current reducer: a regression cut down to the events
  /// that show it.
  ///
  /// The session is replayed to its first event whose outcome or changed fields differ
  /// from those recorded (as ``check(expected:jobs:maxDivergences:progress:)`` compares them). A
  /// subsequence ending with that event has the property when every event before it
  /// replays as recorded and that event replays as it does in the whole session now (not
  /// as recorded): the same outcome (a rejection for the same reason) and the same
  /// changed fields. The recorded effects stand in for the reducer that recorded the
  /// session. The events before it are shrunk by a ``Shrinker``; the diverging event is
  /// always the last.
  /// - Returns: the events kept, ending with the diverging one; nil when no event
  ///   diverges.
  /// - Throws: ``RewindError`` or `JournalError` when the journal cannot be replayed.
  /// - Complexity: as ``shrink(where:)``, every candidate's replay following the changes
  ///   of each event.
  public func shrinkDivergence() throws -> ShrinkResult<D>? {
    let known = upcast?.knownFields
    func effect(_ replayed: ReplayedEvent<D>, _ changed: FieldSet) -> RecordedEffect {
      RecordedEffect(replayed.outcome!, changed: known.map { changed.intersection($0) } ?? changed)
    }
    var events: [ReplayedEvent<D>] = []
    var divergence: ShrinkResult<D>.Divergence?
    var outcome: Outcome<D.Rejection>?
    try self.events(from: 1, through: lastSequence) { replayed, changed, _ in
      let replayedEffect = effect(replayed, changed)
      if replayedEffect != replayed.recorded {
        events.append(replayed)
        outcome = replayed.outcome
        divergence = .init(
          sequence: replayed.sequence, recorded: replayed.recorded, replayed: replayedEffect)
        return false
      }
      if replayed.outcome?.isRejected != true { events.append(replayed) }
      return true
    }
    guard let divergence else { return nil }
    var shrinker = Shrinker(
      domain: domain, events: events, keepingLast: true,
      accepts: { effect($0, $1) == $0.recorded },
      holds: { [outcome] last, changed, _, _ in
        last.outcome == outcome && effect(last, changed) == divergence.replayed
      })
    return try result(of: &shrinker, divergence: divergence)
  }

  private func result(
    of shrinker: inout Shrinker<D>, divergence: ShrinkResult<D>.Divergence?
  ) throws(RewindError) -> ShrinkResult<D> {
    guard let kept = shrinker.shrink() else {
      // The same events replayed from the same state gave another answer.
      throw RewindError(
        .invalidInput,
        "\(path): replaying the session's first \(shrinker.events.count) events again gave another answer: the reducer is not deterministic"
      )
    }
    let events = kept.map { shrinker.events[$0] }
    return ShrinkResult(
      sequences: events.map(\.sequence),
      events: events.map { TimedEvent(time: $0.time, event: $0.event) },
      searched: shrinker.events.count, replays: shrinker.replays,
      eventsReplayed: shrinker.eventsReplayed, divergence: divergence)
  }
}
