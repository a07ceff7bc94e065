public import RewindJournal

/// The loops that walk a whole session (`find`, `check`, `log --where`, the deep check of
/// `verify --deep`), compiled for one domain.
///
/// The `rewind` commands learn a journal's domain from its header, at run time, so the
/// generic code they run is not specialised for the domain: every decode, reduce, state
/// copy and comparison in it goes through generic metadata, about 6,800 instructions an
/// event where the engine needs 300. ``Domain/scans`` is the one door through which the
/// loops are reached: its default, which a domain never needs to write, is compiled where
/// the domain's conformance is, for the domain's own types, and hands out the loops
/// specialised for them (they are inlinable in `RewindCore` for that reason).
///
/// A scan of part of a session replays `range`: from the state after its first event
/// (0: the initial state) to its last.
public struct SessionScans<D: Domain>: Sendable {
  @usableFromInline let find:
    @Sendable (Timeline<D>, FindQuery, ClosedRange<UInt64>, (UInt64) -> Void) throws ->
      [FindHit<D>]
  @usableFromInline let check:
    @Sendable (Timeline<D>, CheckRun<D>, (UInt64) -> Void) throws -> CheckPart<D>
  /// `export`: events `range` as JSON Lines, a batch of lines at a time (issue 17).
  @usableFromInline let export:
    @Sendable (
      Timeline<D>, ClosedRange<UInt64>, (UnsafeRawBufferPointer) throws -> Void,
      (UInt64) -> Void
    ) throws -> [ClosedRange<UInt64>]
  /// `export --scenario`: events `range` decoded, none applied, each handed on with its
  /// sequence number and time.
  @usableFromInline let decode:
    @Sendable (Timeline<D>, ClosedRange<UInt64>, (UInt64, UInt64, D.Event) throws -> Void)
      throws -> [ClosedRange<UInt64>]
  /// `import`: the events of a JSON Lines reader recorded, a batch at a time (issue 17).
  @usableFromInline let importLines:
    @Sendable (JSONLines.Reader, D, JournalRecorder<D>, (Int) -> Void) throws -> Void
  /// `record`: a batch of a scenario script's events recorded; the number rejected.
  @usableFromInline let recordEvents:
    @Sendable (JournalRecorder<D>, ArraySlice<TimedEvent<D.Event>>) throws -> Int

  /// `find --all`, streaming: each point handed to the last closure as it is found.
  @usableFromInline let findEach:
    @Sendable (
      Timeline<D>, FindQuery, ClosedRange<UInt64>, (UInt64) -> Void, (FindHit<D>) -> Void
    ) throws -> Void

  @usableFromInline let count:
    @Sendable (Timeline<D>, FindQuery, ClosedRange<UInt64>, (UInt64) -> Void) throws -> Int

  @usableFromInline let log:
    @Sendable (
      Timeline<D>, LogQuery, (UInt64) -> Void, (LoggedEvent<D>, D.State) throws -> Bool
    ) throws -> [ClosedRange<UInt64>]

  /// `html`: events `range` replayed with the fields each changed, each handed on with
  /// the state after it (issue 17).
  @usableFromInline let visit:
    @Sendable (
      Timeline<D>, ClosedRange<UInt64>, (VisitedEvent, D.Event, D.State) throws -> Void
    ) throws -> Void

  /// `blame`: events `range` replayed, the state before them handed to the first closure,
  /// then each event that changed the given field (its index) to the second, with the
  /// state after it.
  @usableFromInline let fieldChanges:
    @Sendable (
      Timeline<D>, ClosedRange<UInt64>, Int, (D.State) -> Void,
      (ReplayedEvent<D>, D.State) throws -> Void
    ) throws -> Void

  /// The player's `x`: the later events' effects without the skipped ones (in increasing
  /// order), through the given event, at most the given number listed.
  @usableFromInline let skipEffects:
    @Sendable (Timeline<D>, [UInt64], UInt64, Int) throws -> SkipEffects<D.State>

  @usableFromInline let decodeRun:
    @Sendable (D, inout RecordCursor, UInt64, inout D.State, inout D.EventCodecContext) ->
      DecodeRun

  /// `state -o`: the session with the edits, recorded into the recorder (the events kept,
  /// replaced and inserted, at their times).
  @usableFromInline let recordEdited:
    @Sendable (Timeline<D>, EventEdits<D.Event>, JournalRecorder<D>) throws -> Void

  /// `state` with edits: each event of the edited session through the given recorded
  /// event that an edit put in (replacing or inserted) or that does something else than
  /// the recording says, handed to the last closure.
  @usableFromInline let editedDifferences:
    @Sendable (Timeline<D>, EventEdits<D.Event>, UInt64, (EditedEvent<D>) throws -> Void) throws
      -> Void

  /// `log`'s lines and `find --all`'s matches written as bytes (issue 17; SessionLines.swift).
  @usableFromInline let lines: SessionLines<D>

  /// The loops, specialised for `D` where this initialiser is compiled for it.
  @inlinable public init() {
    lines = SessionLines()
    find = { timeline, query, range, progress in
      var hits: [FindHit<D>] = []
      try timeline.findRun(query, range, progress: progress) { hits.append($0) }
      return hits
    }
    findEach = { timeline, query, range, progress, hit in
      try timeline.findRun(query, range, progress: progress, hit: hit)
    }
    count = { timeline, query, range, progress in
      var count = 0
      try timeline.findRun(query, range, progress: progress) { _ in count += 1 }
      return count
    }
    check = { timeline, run, progress in try timeline.checkRun(run, progress: progress) }
    export = { timeline, range, emit, progress in
      try timeline.exportRun(range, emit: emit, progress: progress)
    }
    decode = { timeline, range, body in
      var (replayer, _) = try timeline.replayer(reaching: range.lowerBound - 1, skipping: [])
      replayer.crossesLostEvents = true
      try replayer.forEachDecodedEvent(through: range.upperBound, body)
      return replayer.crossedLostEvents
    }
    importLines = { reader, domain, recorder, progress in
      try reader.recordRun(into: recorder, domain: domain, progress: progress)
    }
    recordEvents = { recorder, events in try recorder.record(contentsOf: events) }
    visit = { timeline, range, body in try timeline.visitRun(range, body) }
    fieldChanges = { timeline, range, field, start, body in
      var (replayer, state) = try timeline.replayer(reaching: range.lowerBound - 1, skipping: [])
      start(state)
      // The events that did not change the field pass in the replay's inner loop.
      @inline(__always) func passing(_: ReplayedEvent<D>, _ changed: FieldSet) -> Bool {
        !changed.contains(field)
      }
      try replayer.forEachEvent(
        through: range.upperBound, &state, trackChanges: true, passing: passing
      ) { event, changed, state in
        if changed.contains(field) { try body(event, state) }
        return true
      }
    }
    skipEffects = { (timeline: Timeline<D>, skipped: [UInt64], last: UInt64, limit: Int) in
      try timeline.skipEffectsRun(skipped, through: last, limit: limit)
    }
    decodeRun = { domain, cursor, limit, state, context in
      DecodeRun.run(domain, &cursor, through: limit, &state, &context)
    }
    log = { timeline, query, progress, visit in
      try timeline.logRun(query, progress: progress, visit)
    }
    recordEdited = { timeline, edits, recorder in
      _ = try timeline.replayEdited(edits, from: 1, through: timeline.lastSequence) { edited, _ in
        if edited.edit != .skipped { try recorder.record(edited.event, at: edited.time) }
        return true
      }
    }
    editedDifferences = { timeline, edits, last, visit in
      try withoutActuallyEscaping(visit) { visit in
        _ = try timeline.replayEdited(edits, from: nil, through: last) { edited, _ in
          if edited.edit == .replaced || edited.edit == .inserted || edited.differsFromRecording {
            try visit(edited)
          }
          return true
        }
      }
    }
  }
}

extension Domain {
  /// The scans compiled for this domain: the default, specialised where the conformance
  /// is compiled. A domain never needs to write it.
  @inlinable public static var scans: SessionScans<Self> { SessionScans() }
}
