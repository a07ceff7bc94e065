public import RewindJournal

/// A recorded session opened for replay: the state at any point, the events with what
/// the reducer does with them, and the analyses built on those (diff, blame, find,
/// counterfactuals, check).
///
/// Reaching any point costs one index lookup, one frame decompressed and at most one
/// snapshot interval of reducer steps, whatever the journal's length: the journal's
/// snapshots are decoded with the domain's state codec and replay goes on from there.
/// The result is identical to folding every event from the start.
///
/// Not thread-safe: open one timeline per thread.
public final class Timeline<D: Domain> {
  public let path: String
  /// The journal's reader, which keeps the last frame it decoded: not thread-safe, so it
  /// stays inside the timeline (and the package's own tools).
  package let reader: JournalReader
  /// The domain of this session, built from the journal header's settings.
  public let domain: D
  /// How the journal is read when it was recorded with an older schema version than
  /// `D`'s: its events and snapshots are upcast as they are read. Nil for a journal of
  /// the current version.
  public let upcast: SchemaUpcast?
  /// Called once for each snapshot that replay found it cannot trust (its bytes do not
  /// hash to its stored state hash, or it cannot be decoded), with where it is and why.
  /// Replay never uses such a snapshot: it starts from an earlier one, or from the first
  /// event, so the answer is the same, only slower. The `rewind` commands print these as
  /// warnings.
  public var onUntrustedSnapshot: ((VerificationProblem) -> Void)?
  /// The fewest events a part of a parallel scan (``find(_:all:jobs:progress:)``,
  /// ``check(expected:jobs:maxDivergences:progress:)``) replays: the parts shrink to it
  /// towards the end of the range, so that the threads end within about one such part
  /// of each other. A range is split only when it holds at least eight times this: below
  /// it, starting the threads and opening the journal again costs about what they save.
  /// Tests lower it to split short journals.
  package var minimumEventsPerPart: UInt64 = 8_192
  /// Whether ``replayer(toReach:)`` starts at the next frame's first snapshot when asked
  /// for the state after a frame's last event: set for the parts of a parallel scan but
  /// the first (whose bounds are at frame ends where they can be), so that a part never
  /// decompresses the frame before its range, nor replays the end of it.
  package var startsAtNextFrame = false
  /// The cores this timeline's parallel scans share with others' (several journals
  /// checked at once): a part runs only while it holds one of them, so that the parts of
  /// every journal in flight come from one pool and no core idles while one is left.
  /// Nil: the scan's own jobs alone.
  package var sharedCores: SharedCores?
  /// The events a job may replay past the first part of
  /// ``forEachMatch(_:in:jobs:progress:_:)`` whose points are not handed on yet, in
  /// parts of half this (tests lower it): the points held at once. 32 Ki events, parts
  /// of 16 Ki: with parts of 256 Ki, `find --all` held 82–119 MB and `find --all --json`
  /// 226–281 MB on two jobs, and no faster (BENCHMARKS.md, session 60).
  package var streamingWindow: UInt64 = 1 << 15
  /// The snapshots found untrusted so far, by the event they follow: never used, never
  /// hashed or reported again.
  private(set) var untrustedSnapshots: [UInt64: VerificationProblem] = [:]

  /// Opens the journal at `path` for domain `D`.
  ///
  /// - Parameters:
  ///   - path: the journal.
  ///   - salvage: read around damaged frames instead of stopping at them.
  /// - Throws: `JournalError` if the file cannot be read as a journal; ``RewindError``
  ///   `wrongDomain` if it was recorded by another domain or an older schema version `D`
  ///   cannot read, `newerSchema` if by a newer one.
  public convenience init(path: String, salvage: Bool = false) throws {
    try self.init(reader: JournalReader(path: path, options: .init(salvage: salvage)))
  }

  /// Replays a journal already opened (after reading its header to pick the domain).
  public init(reader: JournalReader) throws {
    self.reader = reader
    self.path = reader.path
    let header = reader.header
    do {
      domain = try Self.domain(of: header)
    } catch {
      throw RewindError(error.code, "\(reader.path): \(error.message)", cause: error.cause)
    }
    upcast =
      header.schemaVersion == D.schemaVersion
      ? nil : SchemaUpcast(from: header.schemaVersion, domain: domain)
  }

  /// A timeline over a journal another timeline of the same session opened, sharing its
  /// domain: the parts of a parallel scan, whose events (with the ids the domain met
  /// that its catalog lacks) are then shown with the first timeline's domain.
  package init(reader: JournalReader, sharing other: Timeline<D>) {
    self.reader = reader
    self.path = reader.path
    domain = other.domain
    upcast = other.upcast
  }

  /// The domain of the session a journal header describes, built from its settings.
  /// - Throws: ``RewindError`` `wrongDomain` if the header names another domain or an
  ///   older schema version `D` cannot read, `newerSchema` if a newer one, `undecodable`
  ///   if its settings are not valid for `D`; the message names no file.
  package static func domain(of header: JournalHeader) throws(RewindError) -> D {
    guard header.domain == D.identifier else {
      throw RewindError(
        .wrongDomain, "the journal records the '\(header.domain)' domain, not '\(D.identifier)'")
    }
    do {
      try D.checkReadable(schemaVersion: header.schemaVersion)
    } catch {
      throw RewindError(error.code, "the journal's \(error.message)")
    }
    do {
      return try D(
        settingsBlob: header.settings, schemaVersion: header.schemaVersion, device: header.device)
    } catch {
      throw RewindError(
        .undecodable, "the journal's '\(D.identifier)' settings are invalid", cause: error)
    }
  }

  /// The journal's header.
  public var header: JournalHeader { reader.header }
  /// The sequence number of the last event (0 for an empty session).
  public var lastSequence: UInt64 { reader.lastSequence }
  /// The number of events that can be replayed.
  public var eventCount: UInt64 { reader.recordCount }
  /// How long the session lasted: the time of its last event, in microseconds.
  public var duration: UInt64 { reader.lastTime }

  /// The sequence number a point stands for: the state at a point is the state after
  /// that event.
  ///
  /// A time (an offset or a wall-clock time) stands for the last event at or before it:
  /// a time after the last event is the end state, a time before the first event (or
  /// before the session started) the start state. Only a sequence number, or `end-N`
  /// before the start, can lie outside the session.
  /// - Throws: ``RewindError`` `outOfRange` for a sequence number after the last event or
  ///   `end-N` before the first, naming the session's range.
  public func resolve(_ point: Point) throws -> UInt64 {
    switch point {
    case .start: return 0
    case .end: return lastSequence
    case .beforeEnd(let count):
      guard count <= lastSequence else {
        let points =
          lastSequence == 0
          ? "the session has no event: its one point is 0"
          : "points are 0–\(lastSequence); end-\(lastSequence) is the start"
        throw RewindError(
          .outOfRange, "end-\(count) is before the start of the session (\(points))")
      }
      return lastSequence - count
    case .sequence(let sequence):
      try checkInSession(sequence)
      return sequence
    case .offset(let microseconds):
      return try lastSequence(atOrBefore: microseconds)
    case .wallClock(let time):
      let start = header.startTime
      guard time >= start else { return 0 }
      let (offset, overflows) = time.subtractingReportingOverflow(start)
      return overflows ? lastSequence : try lastSequence(atOrBefore: UInt64(bitPattern: offset))
    }
  }

  /// The last event at or before `microseconds` from the start, 0 when there is none.
  private func lastSequence(atOrBefore microseconds: UInt64) throws -> UInt64 {
    microseconds >= duration ? lastSequence : try reader.lastSequence(atOrBefore: microseconds)
  }

  /// The state at a point.
  public func state(at point: Point) throws -> D.State {
    try state(after: resolve(point))
  }

  /// The state after event `sequence` (0: the initial state).
  ///
  /// When events were lost to damage, the state after the last of them is the snapshot
  /// stored after them; the state after any other lost event is not known.
  /// - Throws: ``RewindError`` `eventsLost` for an event lost to damage but the last of
  ///   its range (or the last, when no trusted snapshot follows it).
  /// - Complexity: one frame decompressed and at most one snapshot interval of events
  ///   decoded and reduced (inlined, so that the replay loop is specialised for `D`).
  @inlinable public func state(after sequence: UInt64) throws -> D.State {
    var (replayer, state) = try replayer(toScanFrom: sequence)
    try replayer.apply(through: sequence, to: &state)
    return state
  }

  /// The state after event `sequence`, folded from the first event without using any
  /// snapshot: a full replay (every frame decompressed, every event decoded and
  /// reduced), streaming one frame at a time.
  ///
  /// Gives the same state as ``state(after:)``; use that to reach a point quickly.
  /// - Complexity: O(sequence) time, O(1) memory beyond one frame.
  @inlinable public func replayedState(after sequence: UInt64) throws -> D.State {
    var (replayer, state) = try replayer(toReplayFromStartTo: sequence)
    try replayer.apply(through: sequence, to: &state)
    return state
  }

  /// A replayer at the start of the session, with the initial state, after checking
  /// that `sequence` is in the session.
  @usableFromInline func replayer(toReplayFromStartTo sequence: UInt64) throws -> (
    Replayer<D>, D.State
  ) {
    try checkInSession(sequence)
    return try replayer(toReach: 0)
  }

  /// Checks that the state after event `sequence` is a point of the session.
  /// - Throws: ``RewindError`` `outOfRange` naming the session's points.
  @usableFromInline func checkInSession(_ sequence: UInt64) throws(RewindError) {
    guard sequence <= lastSequence else {
      throw RewindError(
        .outOfRange,
        "event \(sequence) is beyond the end of the session (points are 0–\(lastSequence))")
    }
  }

  /// Checks that a scan can start at the point after event `sequence`: as
  /// ``checkReachable(_:)``, but the last of events lost to damage is such a point too,
  /// the state after it being the snapshot stored after them, where
  /// ``replayer(toScanFrom:)`` starts.
  /// - Throws: ``RewindError`` `outOfRange` or `eventsLost`.
  package func checkScanStart(_ sequence: UInt64) throws(RewindError) {
    if lostEvents(endingAt: sequence) != nil { return }
    try checkReachable(sequence)
  }

  /// The events lost to damage whose last is event `sequence`, when events follow them
  /// (the frame after them starts with the snapshot of the state after them): nil
  /// otherwise, and when the session ends with them (no state after them was stored).
  /// - Complexity: O(lost ranges).
  func lostEvents(endingAt sequence: UInt64) -> ClosedRange<UInt64>? {
    guard sequence < lastSequence, let lost = reader.lostRange(containing: sequence),
      lost.upperBound == sequence
    else { return nil }
    return lost
  }

  /// Checks that the state after event `sequence` can be replayed to: a point of the
  /// session, not among events lost to damage. A command that writes as it goes checks
  /// it before writing anything.
  /// - Throws: ``RewindError`` `outOfRange` or `eventsLost`.
  package func checkReachable(_ sequence: UInt64) throws(RewindError) {
    try checkInSession(sequence)
    if let lost = reader.lostRange(containing: sequence) {
      throw RewindError(
        .eventsLost,
        "event \(sequence) was lost to damage (\(JournalError.describe(lost)) \(lost.count == 1 ? "was" : "were") salvaged away)"
      )
    }
  }

  /// The events lost to damage (salvaged away) among the events after point
  /// `range.lowerBound` through `range.upperBound`: what a search of the points `range`
  /// goes on past, from the snapshot stored after them. Whole ranges, in order, those that
  /// follow each other joined (as replay crosses them); none in a journal that lost none.
  /// - Complexity: O(lost ranges).
  public func lostEvents(in range: ClosedRange<UInt64>) -> [ClosedRange<UInt64>] {
    var joined: [ClosedRange<UInt64>] = []
    for lost in reader.lostRanges
    where lost.upperBound > range.lowerBound && lost.lowerBound <= range.upperBound {
      if let last = joined.last, last.upperBound &+ 1 == lost.lowerBound {
        joined[joined.count - 1] = last.lowerBound...lost.upperBound
      } else {
        joined.append(lost)
      }
    }
    return joined
  }

  /// The state after events lost to damage that end with event `sequence`: the snapshot
  /// stored after them, from which replay goes on (the state before the event that
  /// follows them). Nil when `sequence` is not the last of events lost to damage.
  /// - Throws: ``RewindError`` `eventsLost` when that snapshot is missing or cannot be
  ///   trusted (replay cannot cross the events then either).
  /// - Complexity: one frame decompressed.
  @usableFromInline package func state(afterLostEventsEndingAt sequence: UInt64) throws -> D.State?
  {
    guard let lost = lostEvents(endingAt: sequence) else { return nil }
    return try replayer(after: lost).1
  }

  /// A replayer where a scan starts: as ``replayer(toReach:)``, or, when `sequence` is
  /// the last of events lost to damage, at the snapshot stored after them
  /// (``replayer(after:)``): where a scan that goes on past them starts again.
  @usableFromInline func replayer(toScanFrom sequence: UInt64) throws -> (Replayer<D>, D.State) {
    if let lost = lostEvents(endingAt: sequence) {
      return try replayer(after: lost)
    }
    return try replayer(toReach: sequence)
  }

  /// A replayer at the state after events `lost`, lost to damage: at the snapshot that
  /// starts the frame after them (the recorder leaves one at the start of every frame but
  /// the first), with its state, as a replay that crosses them goes on.
  /// - Throws: ``RewindError`` `eventsLost` when no frame after them starts with a
  ///   snapshot after them that can be trusted: replay cannot cross them.
  @usableFromInline func replayer(after lost: ClosedRange<UInt64>) throws -> (
    Replayer<D>, D.State
  ) {
    let missing =
      "\(JournalError.describe(lost)) \(lost.count == 1 ? "was" : "were") lost to damage"
    guard let index = reader.frameIndex(containing: lost.upperBound + 1) else {
      throw RewindError(.eventsLost, journal: path, "\(missing); replay cannot cross them")
    }
    let frame = try reader.loadFrame(index)
    guard let stored = frame.snapshots.first, stored.snapshot.sequence == lost.upperBound else {
      throw RewindError(.eventsLost, journal: path, "\(missing); replay cannot cross them")
    }
    guard let state = trustedState(stored, inFrame: index) else {
      throw RewindError(
        .eventsLost, journal: path,
        "\(missing), and the snapshot after them cannot be trusted; replay cannot cross them")
    }
    return (
      Replayer(timeline: self, start: StartingPoint(frameIndex: index, snapshot: stored)), state
    )
  }

  /// A replayer positioned at the latest snapshot at or before `sequence` that can be
  /// trusted (see ``trustedState(_:inFrame:)``), with the snapshot's state.
  @usableFromInline func replayer(toReach sequence: UInt64) throws -> (Replayer<D>, D.State) {
    try checkReachable(sequence)
    if startsAtNextFrame, let start = try startAtNextFrame(after: sequence) { return start }
    // Decompress the frame holding the event first: the reader keeps it, so finding the
    // snapshot to start from reads its header from memory instead of from the file a
    // second time (the recorder always leaves a snapshot in that frame).
    if sequence > 0, let index = reader.frameIndex(containing: sequence) {
      _ = try reader.loadFrame(index)
    }
    var target = sequence
    while true {
      let start = try reader.startingPoint(for: target)
      guard let stored = start.snapshot else {
        return (Replayer(timeline: self, start: start), domain.initialState)
      }
      if let state = trustedState(stored, inFrame: start.frameIndex) {
        return (Replayer(timeline: self, start: start), state)
      }
      // Never a wrong answer: start from an earlier snapshot, or the first event.
      target = stored.snapshot.sequence &- 1
      if stored.snapshot.sequence == 0 { target = 0 }
      if let lost = reader.lostRange(containing: target) {
        throw RewindError(
          .eventsLost, journal: path,
          "the state after event \(sequence) cannot be reached: the snapshot after event \(stored.snapshot.sequence) cannot be trusted, and replay cannot start before it (\(JournalError.describe(lost)) \(lost.count == 1 ? "was" : "were") lost to damage)"
        )
      }
    }
  }

  /// A replayer at the start of the frame after the one whose last event is `sequence`,
  /// with the state of the snapshot there (the recorder leaves one at the start of every
  /// frame but the first); nil when `sequence` is not a frame's last event, or the next
  /// frame has no such snapshot or it cannot be trusted (the caller then starts from
  /// the snapshot before `sequence`, as for any event).
  ///
  /// - Complexity: the next frame decompressed (the one a scan from `sequence` reads
  ///   first, which the reader keeps), one snapshot hashed and decoded.
  private func startAtNextFrame(after sequence: UInt64) throws -> (Replayer<D>, D.State)? {
    let frames = reader.frames
    guard sequence > 0, let index = reader.frameIndex(containing: sequence),
      index + 1 < frames.count, frames[index].lastSequence == sequence,
      frames[index + 1].firstSequence == sequence + 1
    else { return nil }
    let frame = try reader.loadFrame(index + 1)
    guard let stored = frame.snapshots.first, stored.snapshot.sequence == sequence,
      let state = trustedState(stored, inFrame: index + 1)
    else { return nil }
    return (
      Replayer(timeline: self, start: StartingPoint(frameIndex: index + 1, snapshot: stored)),
      state
    )
  }

  /// Decodes a snapshot's state after checking that its bytes hash to its stored state
  /// hash; nil (and the snapshot reported through ``onUntrustedSnapshot``, once) when they
  /// do not or it cannot be decoded.
  ///
  /// - Parameter frameIndex: the index, in the reader's frames, of the frame whose header
  ///   holds the snapshot.
  /// - Complexity: XXH64 over the state's bytes, then the domain's decoder.
  func trustedState(_ stored: StoredSnapshot, inFrame frameIndex: Int) -> D.State? {
    let snapshot = stored.snapshot
    if !untrustedSnapshots.isEmpty, untrustedSnapshots[snapshot.sequence] != nil { return nil }
    let examined = examine(snapshot)
    if case .matches(let state) = examined { return state }
    let problem = examined.problem?.description ?? ""
    let info = reader.frames[frameIndex]
    let untrusted = VerificationProblem(
      kind: .snapshot, frame: info.number, offset: info.offset, sequences: info.sequenceRange,
      message:
        "the snapshot after event \(snapshot.sequence) \(problem); it is not used, and the state is replayed from an earlier snapshot"
    )
    untrustedSnapshots[snapshot.sequence] = untrusted
    onUntrustedSnapshot?(untrusted)
    return nil
  }

  /// Decodes a snapshot's state, without checking its hash.
  func decodeState(_ snapshot: Snapshot) throws(RewindError) -> D.State {
    do {
      return try ByteReader.decodeAll(snapshot.state) { reader throws(CodecError) in
        try domain.decodeState(from: &reader)
      }
    } catch {
      throw RewindError(
        .undecodable, "\(path): the snapshot after event \(snapshot.sequence) cannot be decoded",
        cause: error)
    }
  }
}

extension Timeline {
  /// The time of event `sequence`, microseconds since the session start.
  ///
  /// Walks the records of the frame holding it without decoding events; right after a
  /// query for the state at that point, the frame is the one the reader keeps in memory.
  /// - Throws: ``RewindError`` `outOfRange` when no frame holds the event.
  public func time(of sequence: UInt64) throws -> UInt64 {
    guard let index = reader.frameIndex(containing: sequence) else {
      throw RewindError(.outOfRange, "no frame holds event \(sequence)")
    }
    var replayer = Replayer(timeline: self, atStartOfFrame: index)
    while let record = try replayer.nextRecord(), record.sequence <= sequence {
      if record.sequence == sequence { return record.time }
    }
    throw RewindError(.outOfRange, "no frame holds event \(sequence)")
  }
}
