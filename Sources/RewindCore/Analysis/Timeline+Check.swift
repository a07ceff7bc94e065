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

  /// The first snapshot whose stored state differs from the replayed one.
  public struct StateDivergence: Sendable {
    /// The snapshot is of the state after this event.
    public var sequence: UInt64
    /// The fields that differ: `old` as recorded, `new` as replayed.
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
  /// hash with the one stored, and at the end the state with `expected` (a state JSON
  /// object, as `rewind state --json` prints it).
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
    // Where the snapshots are and their hashes; a state is read again only to explain a
    // mismatch, so that checking a long journal holds no snapshot states in memory.
    var snapshots: [(sequence: UInt64, stateHash: UInt64, frame: Int)] = []
    for index in reader.frames.indices {
      snapshots += try reader.frameHeader(index).snapshots.map {
        ($0.snapshot.sequence, $0.snapshot.stateHash, index)
      }
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
        let matches: Bool
        if upcast == nil {
          encoded.removeAll()
          domain.encode(state, into: &encoded)
          matches = XXH64.hash(encoded.bytes) == snapshot.stateHash
        } else {
          // An older schema's snapshot hashes its own encoding: compare it upcast.
          matches = try storedState(after: snapshot.sequence, in: snapshot.frame) == state
        }
        if !matches {
          let recorded = try storedState(after: snapshot.sequence, in: snapshot.frame)
          report.stateDivergence = CheckReport.StateDivergence(
            sequence: snapshot.sequence, differences: domain.diff(recorded, state))
        }
      }
    }
    if let expected {
      report.expectedStateDifferences = Timeline.compare(
        expected: expected, actual: domain.json(state), added: upcast?.addedPaths ?? [])
    }
    return report
  }

  /// The state of the snapshot stored after event `sequence` in frame `frame`.
  private func storedState(after sequence: UInt64, in frame: Int) throws -> D.State {
    guard
      let stored = try reader.frameHeader(frame).snapshots.first(where: {
        $0.snapshot.sequence == sequence
      })
    else {
      throw RewindError(.undecodable, "\(path): the snapshot after event \(sequence) is gone")
    }
    return try decodeState(stored.snapshot)
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
