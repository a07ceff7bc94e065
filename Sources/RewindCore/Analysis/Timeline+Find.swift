/// A point where a `find` condition became true.
public struct FindHit<D: Domain>: Sendable {
  /// The point: the state after this event (0: the initial state).
  public var sequence: UInt64
  /// The value of the condition's field there; an object of path → value when the
  /// condition reads several fields, null when it reads none (a condition on the event
  /// alone).
  public var value: JSONValue
  /// The event that made the condition true (nil at the start of the search).
  public var event: ReplayedEvent<D>?

  @inlinable init(sequence: UInt64, value: JSONValue, event: ReplayedEvent<D>?) {
    self.sequence = sequence
    self.value = value
    self.event = event
  }
}

/// A `find` condition checked against the domain's fields: what the scan loop needs.
@usableFromInline struct FindQuery: Sendable {
  @usableFromInline let condition: CompiledCondition
  /// Every point, not only the first.
  @usableFromInline let all: Bool
  /// The point that is a match when a condition on the state holds there: the start of
  /// the search; nil for the next match after a point.
  @usableFromInline let start: UInt64?
}

extension Timeline {
  /// The first point (or, with `all`, every point) where `condition` becomes true.
  ///
  /// Same as ``find(_:in:all:jobs:progress:)`` over the whole session.
  /// - Complexity: O(events) until the first hit, or O(events) with `all`, divided among
  ///   the jobs.
  public func find(
    _ condition: Condition, all: Bool, jobs: Int = 1, progress: (UInt64) -> Void = { _ in }
  ) throws -> [FindHit<D>] {
    try find(condition, in: 0...lastSequence, all: all, jobs: jobs, progress: progress)
  }

  /// The first point (or, with `all`, every point) of `range` where `condition` becomes
  /// true.
  ///
  /// A condition on the state alone becomes true at the start of the range when it holds
  /// there, and after each event that makes it true (it did not hold before). A
  /// condition that names the event (`event`, `outcome`, `reason`, `changed(…)`) is
  /// matched after every event of the range where it holds.
  ///
  /// The condition is checked against the kinds of the domain's fields first, so that
  /// one that can never hold is an error, not an empty answer. Then one streaming pass
  /// from the start of the range (the domain's ``Domain/scans``, specialised for it); the
  /// comparisons of fields are evaluated with the domain's ``Domain/predicate(for:_:)``
  /// (no JSON value is built but for the points found): a condition on the state only
  /// after events that changed one of its fields. With `jobs` above 1, an intact
  /// journal's range is split into more parts than jobs, which that many threads take in
  /// order, each replayed from the snapshot before it, and the parts' points are merged in
  /// order (for the first point, no part after the first holding one is started): the
  /// same answer.
  ///
  /// In a salvaged journal the search goes on past events lost to damage, from the
  /// snapshot stored after them, where a condition on the state is read again: the points
  /// are those among the events kept, each one where the condition did become true;
  /// ``lostEvents(in:)`` names the events it could not see (those before the first
  /// point, for the first).
  /// - Parameters:
  ///   - condition: what to look for.
  ///   - range: the points to search: the state after its first event, to the state
  ///     after its last.
  ///   - all: every point where it becomes true, not only the first.
  ///   - jobs: how many threads may replay parts of the journal at once.
  ///   - progress: called with the number of events replayed, after each run of records
  ///     (a frame, or its part up to a snapshot).
  /// - Returns: the points, in order.
  /// - Throws: ``ConditionError`` for a condition that does not fit the fields (an
  ///   unknown path, a value of the wrong kind, outside an enum, an unknown id);
  ///   ``RewindError`` `outOfRange` for a range outside the session, `eventsLost` for one
  ///   that starts among events lost to damage (but at the last of them).
  /// - Complexity: O(events in the range) until the first hit, or O(events in the range)
  ///   with `all`, divided among the jobs.
  public func find(
    _ condition: Condition, in range: ClosedRange<UInt64>, all: Bool, jobs: Int = 1,
    progress: (UInt64) -> Void = { _ in }
  ) throws -> [FindHit<D>] {
    let query = try findQuery(condition, in: range, all: all)
    let find = D.scans.find
    if !all, let ranges = parallelRanges(jobs: jobs, in: range) {
      // The first part with a point holds the answer: the parts after it are not started.
      var first: [FindHit<D>] = []
      do {
        try forEachPart(
          ranges, jobs: jobs, ahead: ranges.count, progress: progress,
          { timeline, part, progress in try find(timeline, query, part, progress) },
          { hits in
            guard hits.isEmpty else {
              first = hits
              throw FirstPointFound()
            }
          })
      } catch is FirstPointFound {}
      return first
    }
    if let parts = try inParallel(
      jobs: jobs, in: range, progress: progress,
      { timeline, part, progress in try find(timeline, query, part, progress) })
    {
      return parts.flatMap { $0 }
    }
    return try find(self, query, range, progress)
  }

  /// Calls `body` with every point of `range` where `condition` becomes true, in order,
  /// as they are found: the points ``find(_:in:all:jobs:progress:)`` lists with `all`,
  /// without keeping them all (memory does not grow with the session, however many
  /// points there are).
  ///
  /// With `jobs` above 1, an intact journal's range is split into parts of at most half
  /// a window (`streamingWindow` events) that the threads take in order as they finish
  /// the ones before; a part's points are handed to `body` as soon as the parts before it
  /// are done, and at most two parts a job are started from the first not handed on
  /// (that one included), so that memory holds the points of one window a job at most.
  /// - Parameters:
  ///   - condition: what to look for.
  ///   - range: the points to search: the state after its first event, to the state
  ///     after its last.
  ///   - jobs: how many threads may replay parts of the journal at once.
  ///   - progress: called with the number of events replayed, after each run of records
  ///     (a frame, or its part up to a snapshot).
  ///   - body: called on this thread with each point, in order.
  /// - Throws: ``ConditionError`` for a condition that does not fit the fields;
  ///   ``RewindError`` `outOfRange` for a range outside the session.
  /// - Complexity: O(events in the range), divided among the jobs; memory: one state per
  ///   job and the points of one window.
  public func forEachMatch(
    _ condition: Condition, in range: ClosedRange<UInt64>, jobs: Int = 1,
    progress: (UInt64) -> Void = { _ in }, _ body: (FindHit<D>) -> Void
  ) throws {
    let query = try findQuery(condition, in: range, all: true)
    // Parts of half a window each, at most two a job started from the first whose points
    // are not handed on yet: memory holds the points of `streamingWindow` events a job.
    guard let ranges = parallelRanges(jobs: jobs, in: range, longest: streamingWindow / 2)
    else {
      return try D.scans.findEach(self, query, range, progress, body)
    }
    let findEach = D.scans.findEach
    try forEachPart(
      ranges, jobs: jobs, ahead: 2 * jobs, progress: progress, startingWith: [FindHit<D>](),
      keepingFound: { timeline, part, progress, hits in
        try findEach(timeline, query, part, progress) { hits.append($0) }
      },
      { part in for hit in part { body(hit) } })
  }

  /// How many points of `range` there are where `condition` becomes true: the number of
  /// points ``find(_:in:all:jobs:progress:)`` lists with `all`, counted as they are
  /// found, without keeping them (memory stays flat however many there are).
  /// - Parameters:
  ///   - condition: what to look for.
  ///   - range: the points to search: the state after its first event, to the state
  ///     after its last.
  ///   - jobs: how many threads may replay parts of the journal at once.
  ///   - progress: called with the number of events replayed, after each run of records
  ///     (a frame, or its part up to a snapshot).
  /// - Throws: ``ConditionError`` for a condition that does not fit the fields;
  ///   ``RewindError`` `outOfRange` for a range outside the session.
  /// - Complexity: O(events in the range), divided among the jobs; memory: one state per
  ///   job.
  public func count(
    _ condition: Condition, in range: ClosedRange<UInt64>, jobs: Int = 1,
    progress: (UInt64) -> Void = { _ in }
  ) throws -> Int {
    let query = try findQuery(condition, in: range, all: true)
    let count = D.scans.count
    if let parts = try inParallel(
      jobs: jobs, in: range, progress: progress,
      { timeline, part, progress in try count(timeline, query, part, progress) })
    {
      return parts.reduce(0, +)
    }
    return try count(self, query, range, progress)
  }

  /// The query of a search of `range` for `condition` (every point with `all`), whose
  /// start is a match when the condition holds there: the condition checked against the
  /// domain's fields, then the range against the session.
  /// - Throws: ``ConditionError`` for a condition that does not fit the fields;
  ///   ``RewindError`` `outOfRange` for a range outside the session, `eventsLost` for one
  ///   that starts among events lost to damage (but at the last of them).
  func findQuery(_ condition: Condition, in range: ClosedRange<UInt64>, all: Bool) throws
    -> FindQuery
  {
    let compiled = try domain.check(WrittenCondition(condition))
    try checkInSession(range.upperBound)
    try checkScanStart(range.lowerBound)
    return FindQuery(condition: compiled, all: all, start: range.lowerBound)
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
    let compiled = try domain.check(WrittenCondition(condition))
    let query = FindQuery(condition: compiled, all: false, start: nil)
    try checkScanStart(sequence)
    return try D.scans.find(self, query, sequence...lastSequence, { _ in }).first
  }

  /// The last point before event `sequence` where `condition` becomes true: the previous
  /// match, searching backwards (rr's reverse-continue).
  ///
  /// Same as ``findLast(_:in:progress:)`` over the points `0...sequence - 1`.
  /// - Returns: the point, or nil when the condition does not become true before
  ///   `sequence`.
  /// - Throws: ``ConditionError`` for a condition that does not fit the fields;
  ///   ``RewindError`` `outOfRange` for a point outside the session.
  /// - Complexity: O(events between the match and `sequence`), rounded up to whole
  ///   snapshot intervals; O(*sequence*) when there is no match.
  public func find(_ condition: Condition, before sequence: UInt64) throws -> FindHit<D>? {
    try checkInSession(sequence)
    guard sequence > 0 else {
      _ = try domain.check(WrittenCondition(condition))
      return nil
    }
    return try findLast(condition, in: 0...(sequence - 1))
  }

  /// The last point of `range` where `condition` becomes true, searching backwards from
  /// the end of the range.
  ///
  /// Replays backwards one snapshot interval at a time (``blame(_:at:)`` in windows that
  /// grow): the
  /// interval that ends the range first, then the one before it, until one holds a match
  /// or the start of the range is reached (where a condition on the state is a match
  /// when it holds). Each interval is replayed forward from its snapshot, so the answer
  /// is the last of the points ``find(_:in:all:jobs:progress:)`` lists with `all`. In a
  /// salvaged journal it goes on past events lost to damage as that search does: the
  /// interval after them starts from the snapshot stored after them, the one before them
  /// ends at the event before them (``lostEvents(in:)`` names those between the answer
  /// and the end of the range: a later point may have been among them).
  /// - Parameters:
  ///   - condition: what to look for.
  ///   - range: the points to search, backwards from its end.
  ///   - progress: called now and then with the events searched so far, from the end of
  ///     the range backwards (at most the range's length).
  /// - Returns: the point, or nil when the condition does not become true in `range`.
  /// - Throws: ``ConditionError`` for a condition that does not fit the fields;
  ///   ``RewindError`` `outOfRange` for a range outside the session, `eventsLost` for one
  ///   that starts among events lost to damage (but at the last of them).
  /// - Complexity: O(events between the match and the end of the range), rounded up to
  ///   whole snapshot intervals (one snapshot decoded per interval); O(events in the
  ///   range) when there is no match. Memory: one state and the matches of one interval.
  public func findLast(
    _ condition: Condition, in range: ClosedRange<UInt64>,
    progress: (UInt64) -> Void = { _ in }
  ) throws -> FindHit<D>? {
    let compiled = try domain.check(WrittenCondition(condition))
    try checkInSession(range.upperBound)
    try checkScanStart(range.lowerBound)
    // The last point to look at, and the interval holding it.
    var end = range.upperBound
    while true {
      // Points among events lost to damage: the search goes on before them (the range's
      // start may be the last of them, whose state is the snapshot stored after them).
      if end > range.lowerBound, let lost = reader.lostRange(containing: end) {
        end = lost.lowerBound - 1
        progress(range.upperBound - end)
        continue
      }
      // The snapshot the interval starts from (after lost events, the one stored after
      // them), or the range's start.
      let snapshot =
        end > range.lowerBound ? try replayer(toScanFrom: end - 1).0.sequence : range.lowerBound
      let start = max(snapshot, range.lowerBound)
      let query = FindQuery(
        condition: compiled, all: true, start: start == range.lowerBound ? start : nil)
      let searched = range.upperBound - end
      let hits = try D.scans.find(self, query, start...end) { done in progress(searched + done) }
      if let last = hits.last { return last }
      if start == range.lowerBound { return nil }
      progress(range.upperBound - start)
      end = start
    }
  }

  /// The points where the query's condition becomes true after events `range` (the
  /// range's start counts when it is the query's), replaying from the state after
  /// `range.lowerBound`, each handed to `hit` as it is found: the loop of
  /// ``find(_:in:all:jobs:progress:)`` and ``count(_:in:jobs:progress:)``, inlinable so
  /// that ``SessionScans`` specialises it for the domain.
  ///
  /// One pass of `Replayer.forEachEvent(through:_:trackChanges:_:)`, the condition's
  /// comparisons of fields evaluated with the domain's predicates
  /// (`CompiledCondition.predicates(in:)`: no JSON value is built but at a match, for the
  /// value it shows): a condition on the state after each event that changed one of its
  /// fields, one on the event after every event (changes followed only when it reads
  /// them, `changed(…)`).
  ///
  /// In a salvaged journal the pass goes on past events lost to damage
  /// (``lostEvents(in:)``), from the snapshot stored after them: there a condition on the
  /// state is read again (it becomes true after the first event that makes it true from
  /// that state), so that every point found is one where it did become true; those the
  /// lost events held are not known.
  /// - Parameters:
  ///   - progress: called with the number of events replayed in the range.
  ///   - hit: called with each point found, in order.
  @inlinable
  func findRun(
    _ query: FindQuery, _ range: ClosedRange<UInt64>, progress: (UInt64) -> Void,
    hit: (FindHit<D>) -> Void
  ) throws {
    let condition = query.condition
    let domain = self.domain
    let allFields = domain.fields
    // The fields the condition reads, by slot: their values are what a match shows.
    let fields = condition.fields.map { allFields[$0] }
    let predicates = condition.predicates(in: domain)
    let start = range.lowerBound
    var (replayer, state) = try replayer(toScanFrom: start)
    try replayer.apply(through: start, to: &state)
    let aboutEvents = condition.isAboutEvents
    let noEvent: ReplayedEvent<D>? = nil
    var holding =
      !aboutEvents
      && condition.holds(state, predicates, changed: [], event: noEvent, domain: domain)
    if query.start == start, holding {
      hit(FindHit(sequence: start, value: condition.shown(fields, at: state), event: nil))
      if !query.all { return }
    }
    // The events up to the next events lost to damage, then on from the snapshot after
    // them (an intact journal's range is one part).
    var gaps = lostEvents(in: range)[...]
    var from = start
    while true {
      let gap = gaps.popFirst()
      let part = from...(gap.map { $0.lowerBound - 1 } ?? range.upperBound)
      let done = from - start
      let going: Bool
      if aboutEvents {
        going = try findEventRun(
          condition, predicates, fields, &replayer, &state, part, all: query.all,
          progress: { progress(done + $0) }, hit: hit)
      } else {
        going = try findStateRun(
          condition, predicates, fields, &replayer, &state, part, holding: holding,
          all: query.all, progress: { progress(done + $0) }, hit: hit)
      }
      guard going, let gap, gap.upperBound < range.upperBound else { return }
      (replayer, state) = try self.replayer(after: gap)
      from = gap.upperBound
      holding =
        !aboutEvents
        && condition.holds(state, predicates, changed: [], event: noEvent, domain: domain)
    }
  }

  /// The loop of ``findRun(_:_:progress:hit:)`` for a condition on the state (which
  /// holds at the start iff `holding`): evaluated with the domain's predicates after each
  /// event that changed one of its fields (after every event when one is beyond the 64
  /// that changes count), a match where it becomes true. (Following changes costs more
  /// instructions than calling the predicates after every event, but less time: the
  /// predicates read the state the reducer has just written.) Specialised on its own
  /// (not inlined into its caller), so that the replay loop and this body are inlined
  /// into one function.
  /// - Returns: false when it stopped at the first point found (not `all`).
  @inlinable @inline(never)
  func findStateRun(
    _ condition: CompiledCondition, _ predicates: [@Sendable (D.State) -> Bool],
    _ fields: [StateField<D.State>], _ replayer: inout Replayer<D>, _ state: inout D.State,
    _ range: ClosedRange<UInt64>, holding: Bool, all: Bool, progress: (UInt64) -> Void,
    hit: (FindHit<D>) -> Void
  ) throws -> Bool {
    let domain = self.domain
    let start = range.lowerBound
    // The events replayed so far, after each run of records (not tested every event).
    func reported(_ sequence: UInt64) { progress(sequence &- start) }
    let noEvent: ReplayedEvent<D>? = nil
    var holding = holding
    let read = condition.fields.contains { $0 >= 64 } ? ~0 : condition.fieldSet.rawValue
    // An event that changed none of the fields read needs nothing more: passed in the
    // replay's inner loop.
    return try replayer.forEachEvent(
      through: range.upperBound, &state, trackChanges: true,
      progress: reported,
      passing: { _, changed in read != ~0 && changed.rawValue & read == 0 },
      { event, changed, state in
        guard read == ~0 || changed.rawValue & read != 0 else { return true }
        let holdsNow = condition.holds(
          state, predicates, changed: [], event: noEvent, domain: domain)
        defer { holding = holdsNow }
        guard holdsNow, !holding else { return true }
        hit(
          FindHit(
            sequence: event.sequence, value: condition.shown(fields, at: state), event: event))
        return all
      })
  }

  /// The loop of ``findRun(_:_:progress:hit:)`` for a condition on the event: evaluated
  /// after every event (that changed one of its `triggers`), a match where it holds;
  /// changes followed only when it reads them. Specialised on its own, as
  /// ``findStateRun(_:_:_:_:_:_:holding:all:progress:hit:)`` is.
  /// - Returns: false when it stopped at the first point found (not `all`).
  @inlinable @inline(never)
  func findEventRun(
    _ condition: CompiledCondition, _ predicates: [@Sendable (D.State) -> Bool],
    _ fields: [StateField<D.State>], _ replayer: inout Replayer<D>, _ state: inout D.State,
    _ range: ClosedRange<UInt64>, all: Bool, progress: (UInt64) -> Void,
    hit: (FindHit<D>) -> Void
  ) throws -> Bool {
    let domain = self.domain
    let start = range.lowerBound
    // The events replayed so far, after each run of records (not tested every event).
    func reported(_ sequence: UInt64) { progress(sequence &- start) }
    let triggers = condition.triggers
    @inline(__always) func visit(
      _ event: ReplayedEvent<D>, _ changed: FieldSet, _ state: inout D.State
    ) -> Bool {
      if let triggers, changed.intersection(triggers).isEmpty { return true }
      guard condition.holds(state, predicates, changed: changed, event: event, domain: domain)
      else { return true }
      hit(
        FindHit(sequence: event.sequence, value: condition.shown(fields, at: state), event: event))
      return all
    }
    // Changes are followed only when the condition reads them; each loop compiled with
    // the choice made, not tested every event. A condition that needs one of its
    // triggers changed passes the events that changed none in the replay's inner loop.
    if condition.readsChanges, let triggers {
      return try replayer.forEachEvent(
        through: range.upperBound, &state, trackChanges: true,
        progress: reported, passing: { _, changed in changed.intersection(triggers).isEmpty },
        { visit($0, $1, &$2) })
    } else if condition.readsChanges {
      return try replayer.forEachEvent(
        through: range.upperBound, &state, trackChanges: true,
        progress: reported
      ) { visit($0, $1, &$2) }
    } else {
      return try replayer.forEachEvent(
        through: range.upperBound, &state, trackChanges: false,
        progress: reported
      ) { visit($0, $1, &$2) }
    }
  }
}

/// The first point of a parallel `find` is found: no later part is needed.
private struct FirstPointFound: Error {}
