import RewindJournal

/// What `check` found: whether replaying the journal with the current reducer gives what
/// was recorded.
public struct CheckReport: Sendable {
  /// The first event whose outcome or changed fields differ from the recording.
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
  public var eventDivergence: EventDivergence?
  public var stateDivergence: StateDivergence?
  /// Fields where the final state differs from the expected state: `old` expected, `new`
  /// replayed. Empty when no expected state was given or it matched.
  public var expectedStateDifferences: [FieldChange]

  /// No divergence and the expected state (if any) matched.
  public var passed: Bool {
    eventDivergence == nil && stateDivergence == nil && expectedStateDifferences.isEmpty
  }
}

extension Timeline {
  /// Replays the whole journal with the current reducer and compares, event by event,
  /// the outcome and changed fields with those recorded, at every snapshot the state
  /// hash with the one stored (and the snapshot's bytes with that hash), and at the end
  /// the state with `expected` (a state JSON object, as `rewind state --json` prints it).
  ///
  /// A journal of an older schema (``upcast``) is compared on the fields that schema
  /// had: recorded changes as that schema counted them, each snapshot decoded and upcast
  /// (its hash is of the older encoding), and an expected state written for that schema,
  /// which need not name the fields added since.
  ///
  /// - Parameters:
  ///   - expected: the state the session should end in, as JSON; nil to compare only
  ///     with the recording.
  ///   - progress: called with the number of events replayed, every few thousand.
  /// - Returns: what differs, if anything.
  /// - Throws: ``RewindError`` or `JournalError` when the journal cannot be replayed.
  /// - Complexity: O(events).
  public func check(expected: JSONValue? = nil, progress: (UInt64) -> Void = { _ in }) throws
    -> CheckReport
  {
    // Where the snapshots are; a snapshot is read again when its event is replayed, so
    // that checking a long journal holds no snapshot states in memory.
    var snapshots: [(sequence: UInt64, frame: Int)] = []
    for index in reader.frames.indices {
      snapshots += try reader.frameHeader(index).snapshots.map { ($0.snapshot.sequence, index) }
    }
    var nextSnapshot = snapshots.startIndex
    var report = CheckReport(
      path: path, eventsReplayed: 0, snapshotsCompared: 0, eventDivergence: nil,
      stateDivergence: nil, expectedStateDifferences: [])
    var (replayer, state) = try replayer(toReach: 0)
    var encoded = ByteWriter(capacity: 256)
    while let (event, changed) = try replayer.step(&state, trackChanges: true) {
      report.eventsReplayed += 1
      if report.eventsReplayed & 0xFFF == 0 { progress(report.eventsReplayed) }
      // An older schema's recording knows only its own fields.
      let replayed = RecordedEffect(
        event.outcome!, changed: upcast.map { changed.intersection($0.knownFields) } ?? changed)
      if report.eventDivergence == nil, replayed != event.recorded {
        report.eventDivergence = CheckReport.EventDivergence(
          sequence: event.sequence, time: event.time, event: domain.describe(event.event),
          recorded: event.recorded, replayed: replayed,
          recordedPaths: domain.paths(of: event.recorded.changed),
          replayedPaths: domain.paths(of: changed))
      }
      while nextSnapshot < snapshots.endIndex,
        snapshots[nextSnapshot].sequence <= event.sequence
      {
        let snapshot = snapshots[nextSnapshot]
        nextSnapshot += 1
        guard snapshot.sequence == event.sequence, report.stateDivergence == nil else { continue }
        report.snapshotsCompared += 1
        let comparison = compare(
          try storedSnapshot(after: snapshot.sequence, in: snapshot.frame), with: state,
          encoded: &encoded)
        if let problem = comparison.problem {
          report.stateDivergence = CheckReport.StateDivergence(
            sequence: snapshot.sequence, problem: problem,
            differences: comparison.storedState.map { domain.diff($0, state) } ?? [])
        }
      }
    }
    if let expected {
      report.expectedStateDifferences = Timeline.compare(
        expected: expected, actual: domain.json(state), added: upcast?.addedPaths ?? [])
    }
    return report
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

  /// The leaves where an expected state JSON differs from the actual one.
  ///
  /// - Parameter added: paths of fields an older schema lacked: an expected state written
  ///   for that schema need not have them (they are compared where it does).
  static func compare(expected: JSONValue, actual: JSONValue, added: [String] = []) -> [FieldChange]
  {
    let actualLeaves = actual.leaves()
    let expectedLeaves = expected.leaves()
    var changes: [FieldChange] = []
    for (path, value) in actualLeaves {
      let wanted = expected.value(atPath: path)
      if wanted == nil && added.contains(path) { continue }
      if wanted != value {
        changes.append(FieldChange(path: path, old: wanted ?? .null, new: value))
      }
    }
    for (path, value) in expectedLeaves where actual.value(atPath: path) == nil {
      changes.append(FieldChange(path: path, old: value, new: .null))
    }
    return changes
  }
}
