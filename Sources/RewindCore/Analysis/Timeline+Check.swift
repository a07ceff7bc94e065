public import RewindJournal

/// What `check` found: whether replaying the journal with the current reducer gives what
/// was recorded.
public struct CheckReport: Sendable {
  /// An event whose outcome or changed fields differ from the recording.
  public struct EventDivergence: Sendable {
    public var sequence: UInt64
    public var time: UInt64
    /// The event, described by the domain.
    public var event: String
    public var recorded: RecordedEffect
    public var replayed: RecordedEffect
    /// The paths the recording says the event changed, and those it changes now.
    public var recordedPaths: [String]
    public var replayedPaths: [String]
    /// Why the current reducer rejects it, when it does (the recording keeps no reason).
    public var replayedReason: String?
  }

  /// The first snapshot whose stored state differs from the replayed one, or whose bytes
  /// do not hash to its stored state hash or cannot be decoded.
  public struct StateDivergence: Sendable {
    /// The snapshot is of the state after this event.
    public var sequence: UInt64
    /// What is wrong: the stored state differs from the replayed one, or the snapshot's
    /// bytes do not match its hash or cannot be decoded.
    public var problem: SnapshotProblem
    /// The fields that differ: `old` as recorded, `new` as replayed (empty when the
    /// snapshot cannot be decoded).
    public var differences: [FieldChange]
  }

  public var path: String
  public var eventsReplayed: UInt64
  public var snapshotsCompared: Int
  /// The events whose outcome or changed fields differ from the recording, in order, up
  /// to the limit the check was given.
  public var eventDivergences: [EventDivergence]
  /// How many events diverge in all, beyond the limit too.
  public var eventDivergenceCount: Int
  /// The first snapshot that differs from the replayed state (later snapshots are not
  /// compared: the state has drifted).
  public var stateDivergence: StateDivergence?
  /// Fields where the final state differs from the expected state: `old` expected, `new`
  /// replayed. Empty when no expected state was given or it matched.
  public var expectedStateDifferences: [FieldChange]
  /// The fields of the replayed final state that the expected state gives, and all of
  /// them: an expected state may give only some (a partial expected state), and only
  /// those are compared (a path it gives that the state has not, a typo, differs and is
  /// not counted). Zero when no expected state was given.
  public var expectedFieldCount: Int
  public var stateFieldCount: Int
  /// The state the replay ended in, as JSON: the current reducer's from the start (not
  /// the recording's last snapshot, which an older reducer may have made); nil when
  /// nothing was replayed.
  public var finalState: JSONValue?
  /// The bytes after the journal's last whole frame, when they are a frame cut short and
  /// no writer holds the journal (a fixture half copied, a crash's unfinished frame): the
  /// events they held were not read, so the journal fails. Nil when there are none, when
  /// they are a damaged index or trailer (no event is in them), or while a writer holds
  /// the journal (they are its frame in progress).
  public var cutShort: JournalCondition.TornTail?
  /// The writer that held the journal when its torn tail was judged, the one answer the
  /// tail's verdict and its description share: a writer asked about a second time may
  /// have exited meanwhile (the tail then said to be a writer's, with no writer named).
  /// Nil when no writer holds it, or there is no torn tail.
  public var writer: LockHolder?

  /// The first event that diverges.
  public var eventDivergence: EventDivergence? { eventDivergences.first }

  /// No divergence, the expected state (if any) matched, and no frame was cut short.
  public var passed: Bool {
    eventDivergenceCount == 0 && stateDivergence == nil && expectedStateDifferences.isEmpty
      && cutShort == nil
  }
}

/// Where a snapshot is: the event it follows and the frame whose header holds it.
@usableFromInline struct SnapshotPlace: Sendable {
  @usableFromInline let sequence: UInt64
  @usableFromInline let frame: Int
}

/// One pass of `check` over part of a session.
@usableFromInline struct CheckRun<D: Domain>: Sendable {
  /// The events replayed: from the state after the first (0: the initial state) to the
  /// last.
  @usableFromInline let range: ClosedRange<UInt64>
  /// The snapshots after events of the range (after its first), in order.
  @usableFromInline let snapshots: [SnapshotPlace]
  /// The state to start from instead of the journal's after the range's first event.
  @usableFromInline let state: D.State?
  /// The most event divergences described (all are counted).
  @usableFromInline let limit: Int

  init(
    range: ClosedRange<UInt64>, snapshots: [SnapshotPlace], state: D.State? = nil, limit: Int
  ) {
    self.limit = limit
    self.range = range
    self.snapshots = snapshots.filter {
      $0.sequence > range.lowerBound && $0.sequence <= range.upperBound
    }
    self.state = state
  }
}

/// What one pass of `check` over part of a session found.
@usableFromInline struct CheckPart<D: Domain>: Sendable {
  @usableFromInline let range: ClosedRange<UInt64>
  @usableFromInline var eventsReplayed: UInt64 = 0
  @usableFromInline var snapshotsCompared = 0
  @usableFromInline var eventDivergences: [CheckReport.EventDivergence] = []
  @usableFromInline var eventDivergenceCount = 0
  @usableFromInline var stateDivergence: CheckReport.StateDivergence?
  /// The states the pass started from and ended in.
  @usableFromInline let startState: D.State
  @usableFromInline var endState: D.State

  @inlinable init(range: ClosedRange<UInt64>, state: D.State) {
    self.range = range
    startState = state
    endState = state
  }
}

extension Timeline {
  /// Replays the whole journal with the current reducer and compares, event by event,
  /// the outcome and changed fields with those recorded, at every snapshot the state
  /// hash with the one stored (and the snapshot's bytes with that hash), and at the end
  /// the state with `expected` (a state JSON object, as `rewind state --json` prints it).
  /// A journal whose last frame was cut short (``CheckReport/cutShort``) fails: the
  /// events in it were not read.
  ///
  /// A journal of an older schema (``upcast``) is compared on the fields that schema
  /// had: recorded changes as that schema counted them, each snapshot decoded and upcast
  /// (its hash is of the older encoding), and an expected state written for that schema,
  /// which need not name the fields added since.
  ///
  /// The replay is the domain's ``Domain/scans``, specialised for it. With `jobs` above
  /// 1, an intact journal is split into parts replayed on their own threads, each from
  /// the snapshot before it; a part whose starting snapshot is not the state the part
  /// before it ended in is replayed again from that state, so that the report is the
  /// one a single pass gives.
  ///
  /// - Parameters:
  ///   - expected: the state the session should end in, as JSON; nil to compare only
  ///     with the recording.
  ///   - jobs: how many threads may replay parts of the journal at once.
  ///   - maxDivergences: the most diverging events described in the report (all are
  ///     counted).
  ///   - progress: called with the number of events replayed, after each run of records
  ///     (a frame, or its part up to a snapshot).
  /// - Returns: what differs, if anything.
  /// - Throws: ``RewindError`` or `JournalError` when the journal cannot be replayed.
  /// - Complexity: O(events), divided among the jobs.
  public func check(
    expected: JSONValue? = nil, jobs: Int = 1, maxDivergences: Int = 1,
    progress: (UInt64) -> Void = { _ in }
  ) throws -> CheckReport {
    // A replay that crosses no lost events: after lost events in the middle it stops (the
    // replayer says so), and one that ends before lost events at the end would check a
    // final state that is not the session's.
    if let lost = lostEvents(in: 0...lastSequence).first {
      throw RewindError(
        .eventsLost, journal: path,
        "\(JournalError.describe(lost)) \(lost.count == 1 ? "was" : "were") lost to damage; \(lost.upperBound == lastSequence ? "replay cannot reach the end of the session" : "replay cannot cross them")"
      )
    }
    let limit = max(maxDivergences, 0)
    let check = D.scans.check
    // Each part lists the snapshots of its own range, on its own thread.
    var parts =
      try inParallel(jobs: jobs, progress: progress) { timeline, range, progress in
        let snapshots = try timeline.snapshotPlaces(in: range)
        return try check(
          timeline, CheckRun(range: range, snapshots: snapshots, limit: limit), progress)
      }
      ?? [
        check(
          self,
          CheckRun(
            range: 0...lastSequence, snapshots: try snapshotPlaces(in: 0...lastSequence),
            limit: limit), progress)
      ]
    var report = CheckReport(
      path: path, eventsReplayed: 0, snapshotsCompared: 0, eventDivergences: [],
      eventDivergenceCount: 0, stateDivergence: nil, expectedStateDifferences: [],
      expectedFieldCount: 0, stateFieldCount: 0)
    var index = 0
    while index < parts.count {
      let part = parts[index]
      report.eventsReplayed += part.eventsReplayed
      report.eventDivergenceCount += part.eventDivergenceCount
      report.eventDivergences += part.eventDivergences.prefix(
        limit - report.eventDivergences.count)
      if report.stateDivergence == nil {
        report.snapshotsCompared += part.snapshotsCompared
        report.stateDivergence = part.stateDivergence
      }
      if index + 1 < parts.count, parts[index + 1].startState != part.endState {
        // The next part started from a stored state that is not the one replayed up to
        // it: one pass goes on from the replayed state, and so does the rest.
        let range = parts[index + 1].range.lowerBound...lastSequence
        let snapshots = try snapshotPlaces(in: range)
        parts[(index + 1)...] = [
          try check(
            self, CheckRun(range: range, snapshots: snapshots, state: part.endState, limit: limit)
          ) { _ in }
        ]
      }
      index += 1
    }
    report.finalState = parts.last.map { domain.json($0.endState) }
    // A torn tail's events are not read: the check cannot vouch for them. A journal a
    // writer holds is being written: its frame in progress is not torn.
    if let tail = reader.condition.tornTail, !tail.isDamagedEnd {
      report.writer = reader.currentWriter()
      if report.writer == nil { report.cutShort = tail }
    }
    if let expected, let actual = report.finalState {
      report.expectedStateDifferences = Timeline.compare(expected: expected, actual: actual)
      // A field the state has not (a typo) is no field of it: said apart, not counted.
      let fields = actual.leaves()
      let paths = Set(fields.map(\.path))
      report.expectedFieldCount = Timeline.given(expected).count { paths.contains($0.path) }
      report.stateFieldCount = fields.count
    }
    return report
  }

  /// Where the snapshots after the events of `range` (after its first) are, in order:
  /// read from the headers of the frames that can hold them (a snapshot sits in the
  /// header of the frame holding the event after it). Only where they are: a snapshot is
  /// read again when its event is replayed, so that checking a long journal holds no
  /// snapshot states in memory.
  /// - Complexity: one frame header read for each frame of the range, and the next.
  func snapshotPlaces(in range: ClosedRange<UInt64>) throws -> [SnapshotPlace] {
    let frames = reader.frames
    // The first frame holding an event after the range's first.
    var index = 0
    var high = frames.count
    while index < high {
      let middle = (index + high) / 2
      if frames[middle].lastSequence <= range.lowerBound {
        index = middle + 1
      } else {
        high = middle
      }
    }
    var places: [SnapshotPlace] = []
    while index < frames.count, frames[index].firstSequence <= range.upperBound &+ 1 {
      for stored in try reader.frameHeader(index).snapshots
      where range.lowerBound < stored.snapshot.sequence
        && stored.snapshot.sequence <= range.upperBound
      {
        places.append(SnapshotPlace(sequence: stored.snapshot.sequence, frame: index))
      }
      index += 1
    }
    return places
  }

  /// One pass of ``check(expected:jobs:maxDivergences:progress:)``: replays `run.range` comparing each
  /// event's outcome and changed fields with the recording, and the snapshots of the
  /// range with the replayed state (until one differs). Inlinable, so that
  /// ``SessionScans`` specialises it for the domain.
  /// - Parameter progress: called with the number of events replayed in the pass.
  @inlinable
  func checkRun(_ run: CheckRun<D>, progress: (UInt64) -> Void) throws -> CheckPart<D> {
    let start = run.range.lowerBound
    var (replayer, state) = try replayer(toReach: start)
    try replayer.apply(through: start, to: &state)
    if let given = run.state { state = given }
    var part = CheckPart<D>(range: run.range, state: state)
    // An older schema's recording knows only its own fields.
    let known = knownFieldBits
    var encoded = ByteWriter(capacity: 256)
    var divergences = 0
    // The events replayed so far are `sequence - start` (a check crosses no lost events):
    // no counter of its own in the loop, and told after each run of records.
    func reported(_ sequence: UInt64) { progress(sequence &- start) }
    @inline(__always) func replayed(_ event: ReplayedEvent<D>, _ changed: FieldSet)
      -> RecordedEffect
    {
      Self.effect(of: event, changed: changed, known: known)
    }
    // Replayed up to each snapshot in turn, which is compared after its event, then to the
    // end: the loop tests no snapshot, and an event whose effect is the recorded one is
    // passed in the replay's inner loop.
    var nextSnapshot = run.snapshots.startIndex
    while true {
      let target =
        nextSnapshot < run.snapshots.endIndex
        ? run.snapshots[nextSnapshot].sequence : run.range.upperBound
      try replayer.forEachEvent(
        through: target, &state, trackChanges: true, progress: reported,
        passing: { event, changed in replayed(event, changed) == event.recorded },
        { event, changed, state in
          let effect = replayed(event, changed)
          if effect != event.recorded {
            divergences += 1
            if part.eventDivergences.count < run.limit {
              // The event described here (specialised, the event in registers) and its
              // parts passed on: the event passed by address cost a dozen stores every
              // event.
              part.eventDivergences.append(
                divergence(
                  described: domain.describe(event.event), sequence: event.sequence,
                  time: event.time, recorded: event.recorded, replayed: effect,
                  changed: changed, reason: event.outcome?.rejectionReason))
            }
          }
          return true
        })
      guard nextSnapshot < run.snapshots.endIndex else { break }
      // Compared when its event was replayed (not when the journal ends before it).
      let snapshot = run.snapshots[nextSnapshot]
      nextSnapshot += 1
      guard snapshot.sequence == replayer.sequence, part.stateDivergence == nil else { continue }
      part.snapshotsCompared += 1
      part.stateDivergence = try divergence(of: snapshot, from: state, encoded: &encoded)
    }
    // The last event passed: the range's last, or the journal's when it ends before.
    part.eventsReplayed = replayer.sequence - start
    part.eventDivergenceCount = divergences
    part.endState = state
    return part
  }

  /// An event that time travel replays with another outcome than the recording's: where
  /// the state it reaches stops being the recording's.
  public struct Drift: Sendable {
    /// The event's sequence number.
    public var sequence: UInt64
    /// Its outcome as recorded, and as the current reducer replays it.
    public var recorded: RecordedEffect.Kind
    public var replayed: RecordedEffect.Kind
    /// Why the current reducer rejects it, when it does.
    public var reason: String?
    /// The point the replay started from: a stored snapshot's, or 0 (the initial state).
    public var start: UInt64
  }

  /// The first event that time travel to `sequence` replays with another outcome than
  /// recorded (applied, unchanged or rejected): of the events from the stored snapshot a
  /// seek to `sequence` starts from, which the current reducer replays.
  ///
  /// A state reached so is the recording's only while the reducer is the one that
  /// recorded it: after a change, a point right after a snapshot shows the recording's
  /// state and one a few events later the current reducer's, from it. Outcomes only, not
  /// the fields changed: the replay follows no changes (which a domain's default
  /// `changedFields` finds by encoding states), and costs what the seek costs. Nil when
  /// every outcome is the recorded one (or no event is replayed: `sequence` is a
  /// snapshot's point), or when the way starts at or crosses events lost to damage.
  /// - Complexity: the seek to `sequence` again.
  public func firstDrift(reaching sequence: UInt64) throws -> Drift? {
    do {
      var (replayer, state) = try replayer(toScanFrom: sequence)
      let start = replayer.sequence
      guard start < sequence, lostEvents(endingAt: start) == nil,
        lostEvents(in: start...sequence).isEmpty
      else { return nil }
      var drift: Drift?
      try replayer.forEachEvent(through: sequence, &state, trackChanges: false) {
        event, _, _ in
        guard let outcome = event.outcome else { return true }
        let replayed = RecordedEffect(outcome, changed: []).kind
        guard replayed != event.recorded.kind else { return true }
        drift = Drift(
          sequence: event.sequence, recorded: event.recorded.kind, replayed: replayed,
          reason: outcome.rejectionReason, start: start)
        return false
      }
      return drift
    } catch let error as RewindError where error.code == .eventsLost {
      return nil
    }
  }

  /// The events after `from` up to `to` that the current reducer replays with another
  /// outcome than recorded (as ``firstDrift(reaching:)`` compares them), replayed from the
  /// state after `from` as time travel reaches it: the first of them and how many there
  /// are; nil when there are none, or when the way crosses events lost to damage. A test
  /// written of those events (`rewind testgen`) asserts the current reducer's outcomes,
  /// not the recording's.
  /// - Complexity: the seek to `from`, then the events up to `to`.
  public func drifts(after from: UInt64, through to: UInt64) throws -> (first: Drift, count: Int)? {
    guard from < to else { return nil }
    do {
      var (replayer, state) = try replayer(toScanFrom: from)
      let start = replayer.sequence
      guard lostEvents(endingAt: start) == nil, lostEvents(in: start...to).isEmpty else {
        return nil
      }
      var first: Drift?
      var count = 0
      try replayer.forEachEvent(through: to, &state, trackChanges: false) { event, _, _ in
        guard event.sequence > from, let outcome = event.outcome else { return true }
        let replayed = RecordedEffect(outcome, changed: []).kind
        guard replayed != event.recorded.kind else { return true }
        count += 1
        if first == nil {
          first = Drift(
            sequence: event.sequence, recorded: event.recorded.kind, replayed: replayed,
            reason: outcome.rejectionReason, start: start)
        }
        return true
      }
      return first.map { ($0, count) }
    } catch let error as RewindError where error.code == .eventsLost {
      return nil
    }
  }

  /// The bits of the fields the recording knows: an older schema's own fields (its events'
  /// recorded effects name only them), every field otherwise.
  @inlinable var knownFieldBits: UInt64 { upcast?.knownFields.rawValue ?? ~0 }

  /// The effect of a replayed event (applied, not skipped) as its recording would state
  /// it: its outcome, and of the fields it changed those the recording knows (`known`,
  /// ``knownFieldBits``): compared with `event.recorded`, as `check` and the player's `x`
  /// compare every event.
  @inlinable @inline(__always)
  static func effect(of event: ReplayedEvent<D>, changed: FieldSet, known: UInt64)
    -> RecordedEffect
  {
    RecordedEffect(
      event.outcome.unsafelyUnwrapped, changed: FieldSet(rawValue: changed.rawValue & known))
  }

  /// How an event's replayed effect differs from the recorded one.
  @usableFromInline func divergence(
    described event: String, sequence: UInt64, time: UInt64, recorded: RecordedEffect,
    replayed: RecordedEffect, changed: FieldSet, reason: String?
  ) -> CheckReport.EventDivergence {
    CheckReport.EventDivergence(
      sequence: sequence, time: time, event: event,
      recorded: recorded, replayed: replayed,
      recordedPaths: domain.paths(of: recorded.changed),
      replayedPaths: domain.paths(of: changed), replayedReason: reason)
  }

  /// How a stored snapshot differs from the state replayed up to it; nil when it
  /// matches.
  @usableFromInline func divergence(
    of place: SnapshotPlace, from state: D.State, encoded: inout ByteWriter
  ) throws -> CheckReport.StateDivergence? {
    let comparison = compare(
      try storedSnapshot(after: place.sequence, in: place.frame), with: state, encoded: &encoded)
    guard let problem = comparison.problem else { return nil }
    return CheckReport.StateDivergence(
      sequence: place.sequence, problem: problem,
      differences: comparison.storedState.map { domain.diff($0, state) } ?? [])
  }

  /// The snapshot stored after event `sequence` in frame `frame`.
  private func storedSnapshot(after sequence: UInt64, in frame: Int) throws -> Snapshot {
    guard
      let stored = try reader.frameHeader(frame).snapshots.first(where: {
        $0.snapshot.sequence == sequence
      })
    else {
      throw RewindError(.undecodable, "\(path): the snapshot after event \(sequence) is gone")
    }
    return stored.snapshot
  }

  /// The fields an expected state gives: its leaves (none for `{}`).
  static func given(_ expected: JSONValue) -> [(path: String, value: JSONValue)] {
    expected == .object([]) ? [] : expected.leaves()
  }

  /// The leaves of an expected state JSON that differ from the actual one: only the
  /// fields the expected state gives are compared (it may be partial, and an older
  /// schema's lacks the fields added since); one it gives that the actual state lacks
  /// differs (`new` null).
  package static func compare(expected: JSONValue, actual: JSONValue) -> [FieldChange] {
    var changes: [FieldChange] = []
    for (path, wanted) in given(expected) {
      let value = actual.value(atPath: path)
      if value != wanted {
        changes.append(FieldChange(path: path, old: wanted, new: value ?? .null))
      }
    }
    return changes
  }
}
