/// Delta debugging over a session's events: finds a short subsequence of them that still
/// has a property (a condition holds after its last event, its last event still diverges
/// from its recording), replaying each candidate with the domain's reducer.
///
/// The search is Zeller and Hildebrandt's *ddmin*: the events are cut into `n` chunks;
/// a chunk alone, then the events without one chunk, are replayed in turn, and the first
/// that keeps the property becomes the session searched; when none does, the chunks are
/// halved, until they are single events. The result is *1-minimal*: leaving out any one of
/// its events loses the property. Events a candidate's replay rejects (before its last)
/// leave the state as it was, so they are dropped from every candidate that keeps the
/// property.
///
/// Replaying the events without chunk `i` starts from the state before chunk `i`, kept
/// from the replay of the current session (for at most 2,048 chunks; beyond, from the
/// nearest kept state), so that a test costs the events after the chunk, not the whole
/// candidate.
///
/// ```swift
/// let shrinker = Shrinker(domain: domain, events: events) { _, _, state in state.value > 100 }
/// let minimal = shrinker.shrink()
/// ```
public struct Shrinker<D: Domain> {
  /// The domain whose reducer replays the candidates.
  public let domain: D
  /// The events searched, in order: the full candidate, which must have the property.
  public let events: [ReplayedEvent<D>]
  /// Whether the property holds after a candidate's last event: called with that event
  /// (its ``ReplayedEvent/outcome`` set by the replay), the fields it changed, the state
  /// before it and the state after it.
  public let holds: (ReplayedEvent<D>, FieldSet, D.State, D.State) -> Bool
  /// Whether an event before a candidate's last is acceptable as it replays (with its
  /// outcome and the fields it changed); nil accepts every event, and the replay then
  /// tracks no changes before the last event.
  public let accepts: ((ReplayedEvent<D>, FieldSet) -> Bool)?
  /// Keep the last of ``events`` in every candidate, as its last event (the event that
  /// diverges, for `--diverging`).
  public let keepsLast: Bool

  /// The replays run so far, and the events they reduced.
  public private(set) var replays = 0
  public private(set) var eventsReplayed: UInt64 = 0

  /// - Parameters:
  ///   - domain: the domain whose reducer replays candidates.
  ///   - events: the events to search, in order; replayed from the domain's initial
  ///     state, they must have the property.
  ///   - keepingLast: keep the last event in every candidate.
  ///   - accepts: whether an event before the last is acceptable as it replays; nil
  ///     accepts all.
  ///   - holds: whether the property holds after a candidate's last event.
  public init(
    domain: D, events: [ReplayedEvent<D>], keepingLast: Bool = false,
    accepts: ((ReplayedEvent<D>, FieldSet) -> Bool)? = nil,
    holds: @escaping (ReplayedEvent<D>, FieldSet, D.State, D.State) -> Bool
  ) {
    self.domain = domain
    self.events = events
    self.keepsLast = keepingLast
    self.accepts = accepts
    self.holds = holds
  }

  /// The most states kept between chunks of the session searched.
  static var maximumCheckpoints: Int { 2_048 }

  /// Shrinks ``events`` to a 1-minimal subsequence with the property.
  ///
  /// - Returns: the indices in ``events`` of the events kept, in order; nil when the
  ///   full sequence does not have the property (nothing to shrink).
  /// - Complexity: O(t · m) reducer steps, where `t` is the number of candidates tried
  ///   and `m` the length of the session being searched when each is tried. For a result
  ///   of `k` events out of `n`, `t` is typically O(k · log(n / k)) while the session
  ///   halves, `m` falling with it; ddmin's worst case is O(n²) candidates. Memory: the
  ///   events' indices and at most 2,048 states.
  public mutating func shrink() -> [Int]? {
    guard !events.isEmpty else { return nil }
    let tail: [Int] = keepsLast ? [events.count - 1] : []
    var current = Array(0..<(events.count - tail.count))
    guard replay(from: domain.initialState, current[...], tail: tail).holds else { return nil }
    // The kept last event alone may be enough.
    if keepsLast, replay(from: domain.initialState, [][...], tail: tail).holds { return tail }
    current = droppingRejected(current, tail: tail)
    var chunkCount = 2
    while current.count >= (keepsLast ? 1 : 2) {
      if current.count == 1 && keepsLast { break }
      chunkCount = min(chunkCount, current.count)
      let bounds = (0...chunkCount).map { $0 * current.count / chunkCount }
      var reduced: [Int]?
      // A chunk alone.
      for chunk in 0..<chunkCount
      where replay(
        from: domain.initialState, current[bounds[chunk]..<bounds[chunk + 1]], tail: tail
      ).holds {
        reduced = Array(current[bounds[chunk]..<bounds[chunk + 1]])
        chunkCount = 2
        break
      }
      // The rest without one chunk (with two chunks, the other chunk: tried already).
      if reduced == nil, chunkCount > 2 {
        let checkpoints = self.checkpoints(of: current, bounds: bounds)
        for chunk in 0..<chunkCount {
          let kept = checkpoints.last { $0.chunk <= chunk }!
          var from = kept.chunk
          // The candidate's last event must be replayed: when the chunk is the last one,
          // start a chunk earlier.
          if tail.isEmpty, chunk == chunkCount - 1, from == chunk {
            guard let earlier = checkpoints.last(where: { $0.chunk < chunk }) else { continue }
            from = earlier.chunk
            let result = replay(
              from: earlier.state, current[bounds[from]..<bounds[chunk]], tail: tail)
            if result.holds {
              reduced = Array(current[..<bounds[chunk]])
              chunkCount = max(chunkCount - 1, 2)
              break
            }
            continue
          }
          let candidate = current[bounds[from]..<bounds[chunk]] + current[bounds[chunk + 1]...]
          if replay(from: kept.state, candidate, tail: tail).holds {
            reduced = Array(current[..<bounds[chunk]] + current[bounds[chunk + 1]...])
            chunkCount = max(chunkCount - 1, 2)
            break
          }
        }
      }
      if let reduced {
        current = droppingRejected(reduced, tail: tail)
      } else if chunkCount >= current.count {
        break
      } else {
        chunkCount = min(chunkCount * 2, current.count)
      }
    }
    return current + tail
  }

  /// The states before some of the chunks of `current` (all of them when there are at
  /// most ``maximumCheckpoints``), from one replay of it.
  private mutating func checkpoints(of current: [Int], bounds: [Int]) -> [(
    chunk: Int, state: D.State
  )] {
    let chunkCount = bounds.count - 1
    let stride = (chunkCount + Self.maximumCheckpoints - 1) / Self.maximumCheckpoints
    var state = domain.initialState
    var kept: [(chunk: Int, state: D.State)] = []
    kept.reserveCapacity(min(chunkCount, Self.maximumCheckpoints))
    for chunk in 0..<chunkCount {
      if chunk % stride == 0 { kept.append((chunk, state)) }
      for index in current[bounds[chunk]..<bounds[chunk + 1]] {
        _ = domain.reduce(&state, events[index].event)
      }
    }
    replays += 1
    eventsReplayed += UInt64(current.count)
    return kept
  }

  /// `current` without the events its replay (followed by `tail`) rejects before its
  /// last event: they leave the state as it was, so the property is kept.
  private mutating func droppingRejected(_ current: [Int], tail: [Int]) -> [Int] {
    let result = replay(from: domain.initialState, current[...], tail: tail)
    guard !result.rejected.isEmpty else { return current }
    let rejected = Set(result.rejected)
    return current.filter { !rejected.contains($0) }
  }

  /// Replays `events` then `tail` from `state`.
  /// - Returns: whether every event before the last was accepted and the property holds
  ///   after the last (false when there is none); the indices of the events rejected
  ///   before the last.
  private mutating func replay(
    from start: D.State, _ indices: ArraySlice<Int>, tail: [Int]
  ) -> (holds: Bool, rejected: [Int]) {
    let count = indices.count + tail.count
    guard count > 0 else { return (false, []) }
    replays += 1
    eventsReplayed += UInt64(count)
    var state = start
    var rejected: [Int] = []
    var position = 0
    for index in [indices, tail[...]].joined() {
      position += 1
      var event = events[index]
      if position == count {
        let before = state
        let (outcome, changed) = domain.reduceTrackingChanges(&state, event.event)
        event.outcome = outcome
        return (holds(event, changed, before, state), rejected)
      }
      if let accepts {
        let (outcome, changed) = domain.reduceTrackingChanges(&state, event.event)
        event.outcome = outcome
        guard accepts(event, changed) else { return (false, rejected) }
        if outcome.isRejected { rejected.append(index) }
      } else if domain.reduce(&state, event.event).isRejected {
        rejected.append(index)
      }
    }
    return (false, rejected)
  }
}
