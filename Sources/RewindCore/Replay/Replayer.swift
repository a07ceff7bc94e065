import RewindJournal

/// One event replayed: what was recorded and what the reducer did with it now.
public struct ReplayedEvent<D: Domain>: Sendable {
  public var sequence: UInt64
  /// Microseconds since the session start.
  public var time: UInt64
  public var event: D.Event
  /// What the current reducer did (nil when the event was skipped).
  public var outcome: Outcome<D.Rejection>?
  /// What the recording says the event did.
  public var recorded: RecordedEffect
}

/// Walks a journal's records forward from a starting point, decoding each event and
/// applying it to a state. The engine under every timeline query.
struct Replayer<D: Domain> {
  let timeline: Timeline<D>
  /// The last event applied (the state passed in is the state after it).
  private(set) var sequence: UInt64
  private var frameIndex: Int
  private var cursor: RecordCursor?
  private var startSnapshot: StoredSnapshot?
  /// The event codec's memory of the run; a run starts after every snapshot.
  private var context: D.EventCodecContext
  /// The snapshots of the current frame not yet passed: where runs start.
  private var runStarts: ArraySlice<UInt64> = []

  init(timeline: Timeline<D>, start: StartingPoint) {
    self.timeline = timeline
    sequence = start.snapshot?.snapshot.sequence ?? 0
    frameIndex = start.frameIndex
    startSnapshot = start.snapshot
    context = timeline.domain.makeEventCodecContext()
  }

  /// Applies every event up to and including `target`.
  ///
  /// - Complexity: O(target − current sequence), the decode-and-reduce hot loop.
  mutating func apply(through target: UInt64, to state: inout D.State) throws {
    let domain = timeline.domain
    while sequence < target {
      guard let record = try nextRecord() else { break }
      let event = try decode(record)
      _ = domain.reduce(&state, event)
    }
  }

  /// Decodes the next event and applies it (unless `skipping` says not to).
  ///
  /// - Parameter trackChanges: compute the fields the event changed (costs a state copy).
  /// - Returns: the event and the fields it changed, or nil after the last event.
  mutating func step(
    _ state: inout D.State, trackChanges: Bool, skipping: (UInt64) -> Bool = { _ in false }
  ) throws -> (ReplayedEvent<D>, changed: FieldSet)? {
    guard let record = try nextRecord() else { return nil }
    var effect = RecordedEffect(kind: .applied, changed: [])
    let event = try decode(record, effect: &effect)
    var replayed = ReplayedEvent<D>(
      sequence: record.sequence, time: record.time, event: event, outcome: nil, recorded: effect)
    if skipping(record.sequence) { return (replayed, []) }
    let domain = timeline.domain
    if trackChanges {
      let before = state
      let outcome = domain.reduce(&state, event)
      replayed.outcome = outcome
      let changed = outcome == .applied ? domain.changedFields(from: before, to: state) : []
      return (replayed, changed)
    }
    replayed.outcome = domain.reduce(&state, event)
    return (replayed, [])
  }

  /// The next record, moving to the next frame when one ends; nil after the last.
  /// - Throws: ``RewindError`` `eventsLost` when the next frame does not continue the
  ///   sequence (a salvaged gap), `JournalError` for damage.
  private mutating func nextRecord() throws -> Record? {
    while true {
      if cursor == nil {
        let reader = timeline.reader
        guard frameIndex < reader.frames.count else { return nil }
        let frame = try reader.loadFrame(frameIndex)
        let current = sequence
        runStarts = ArraySlice(frame.snapshots.map(\.snapshot.sequence).filter { $0 >= current })
        if let snapshot = startSnapshot {
          cursor = frame.records(after: snapshot)
          startSnapshot = nil
        } else {
          guard frame.info.firstSequence == sequence + 1 else {
            let missing = (sequence + 1)...(frame.info.firstSequence - 1)
            throw RewindError(
              .eventsLost,
              "\(timeline.path): events \(missing.lowerBound)–\(missing.upperBound) were lost to damage; replay cannot cross them"
            )
          }
          cursor = frame.records()
        }
      }
      if let record = try cursor!.next() {
        sequence = record.sequence
        if let start = runStarts.first, start == record.sequence - 1 {
          context = timeline.domain.makeEventCodecContext()
          runStarts.removeFirst()
        }
        return record
      }
      cursor = nil
      frameIndex += 1
    }
  }

  private mutating func decode(_ record: Record) throws -> D.Event {
    var effect = RecordedEffect(kind: .applied, changed: [])
    return try decode(record, effect: &effect)
  }

  private mutating func decode(_ record: Record, effect: inout RecordedEffect) throws -> D.Event {
    var reader = ByteReader(record.payload)
    do throws(CodecError) {
      effect = try RecordedEffect.decode(from: &reader)
      let event = try timeline.domain.decodeEvent(from: &reader, context: &context)
      guard reader.isAtEnd else {
        throw CodecError(
          .invalidValue, "\(reader.remaining) bytes follow the event", at: reader.offset)
      }
      return event
    } catch {
      throw RewindError(
        .undecodable, "\(timeline.path): event \(record.sequence) cannot be decoded", cause: error)
    }
  }
}
