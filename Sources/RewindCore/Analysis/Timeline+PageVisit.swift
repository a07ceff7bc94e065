extension Timeline {
  /// `visitEvents(from:through:_:)` inlined into its caller: for a loop compiled where
  /// the domain is known (the page builder's, specialised through
  /// `PageRenderingDomain.pagePrecomputation`), so that the replay, the reducer and
  /// `visit` are one loop, specialised for the domain, with no call an event.
  ///
  /// `common` is offered each applied or unchanged event of the common record first, in
  /// the replay's inner loop (`Replayer.forEachEvent(…handling:…)`, in which nothing is
  /// called): it returns true when it has dealt with the event as `visit` would, false
  /// when it has done nothing that `visit` would not do again; `visit` is called with
  /// every event `common` did not take.
  ///
  /// A rejected event is visited with its rejection (the last argument; nil for the
  /// others) and no `reason`: its description is not written here, so that a visitor that
  /// has met the same rejection before need not write it again.
  ///
  /// Called from generic code that is not specialised, it runs the replay generically
  /// (thousands of instructions an event): call `visitEvents(from:through:_:)` there.
  /// - Throws: ``RewindError`` when the journal cannot be replayed (as `JournalError`
  ///   too); whatever `visit` throws.
  /// - Complexity: one seek to `first`, then O(events in the range).
  @inlinable @inline(__always) package func visitEventsInline(
    from first: UInt64, through last: UInt64,
    common: (VisitedEvent, D.Event, D.State) -> Bool = { _, _, _ in false },
    _ visit: (VisitedEvent, D.Event, D.State, D.Rejection?) throws -> Void
  ) throws {
    let first = max(first, 1)
    guard first <= last else { return }
    // `visitRun`'s loop, written out here (not called) so that `visit`, once this is
    // inlined where it is a closure literal, is inlined into the replay's loop too.
    var (replayer, state) = try replayer(reaching: first - 1, skipping: [])
    // A local function, not a closure literal, so that it is inlined into the replay's
    // inner loop with `common` (when that is one too) whatever their size.
    @inline(__always) func handling(
      _ event: ReplayedEvent<D>, _ changed: FieldSet, _ state: D.State
    ) -> Bool {
      let code: Int
      switch event.outcome {
      case .applied?: code = 0
      case .unchanged?: code = 1
      default: return false
      }
      return common(
        VisitedEvent(
          sequence: event.sequence, time: event.time, outcome: code, reason: nil,
          changed: changed), event.event, state)
    }
    try replayer.forEachEvent(
      through: last, &state, trackChanges: true, handling: handling,
      { event, changed, state in
        // Each outcome its own call: only a rejection's passes its rejection.
        switch event.outcome {
        case .applied?, .unchanged?:
          var code = 1
          if case .applied? = event.outcome { code = 0 }
          try visit(
            VisitedEvent(
              sequence: event.sequence, time: event.time, outcome: code, reason: nil,
              changed: changed), event.event, state, nil)
        case .rejected(let rejection)?:
          try visit(
            VisitedEvent(
              sequence: event.sequence, time: event.time, outcome: 2, reason: nil,
              changed: changed), event.event, state, rejection)
        case nil: break
        }
        return true
      })
  }
}

extension Timeline {
  /// `visitEvents(from:through:_:)`, callable from inlinable code that runs it
  /// generically (the page builder called for a domain it was not compiled for).
  @usableFromInline package func visitEventsOutlined(
    from first: UInt64, through last: UInt64,
    _ visit: (VisitedEvent, D.Event, D.State) throws -> Void
  ) throws {
    try visitEvents(from: first, through: last, visit)
  }
}
