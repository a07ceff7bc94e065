public import RewindJournal

/// One event replayed: what was recorded and what the reducer did with it now.
public struct ReplayedEvent<D: Domain>: Sendable {
  public var sequence: UInt64
  /// Microseconds since the session start.
  public var time: UInt64
  /// The event, upcast to the current schema when the journal has an older one.
  public var event: D.Event
  /// What the current reducer did (nil when the event was skipped).
  public var outcome: Outcome<D.Rejection>?
  /// What the recording says the event did, its changes as indices of today's
  /// ``Domain/fields`` (an older schema's are renumbered; see ``SchemaUpcast``).
  public var recorded: RecordedEffect

  @inlinable init(
    sequence: UInt64, time: UInt64, event: D.Event, outcome: Outcome<D.Rejection>?,
    recorded: RecordedEffect
  ) {
    self.sequence = sequence
    self.time = time
    self.event = event
    self.outcome = outcome
    self.recorded = recorded
  }
}

/// The one cursor over a journal's records: walks them forward from a starting point,
/// frame by frame, decoding each event and applying it to a state. The engine under
/// every timeline query.
///
/// Two ways forward share its frame walk, its codec runs and its decoder:
/// ``apply(through:to:)``, the hot loop of replay and time travel (inlinable, so that it
/// is specialised for the caller's domain; it reads a run of records at a time with
/// `RecordCursor/forEachPayload(through:_:)`), and ``step(_:trackChanges:skipping:)``,
/// one event at a time with its time, its recorded effect and the fields it changed.
@usableFromInline struct Replayer<D: Domain> {
  @usableFromInline let timeline: Timeline<D>
  /// The last event passed (the state passed in is the state after it).
  @usableFromInline var sequence: UInt64
  @usableFromInline var frameIndex: Int
  @usableFromInline var cursor: RecordCursor?
  @usableFromInline var startSnapshot: StoredSnapshot?
  /// The event codec's memory of the run; a run starts after every snapshot.
  @usableFromInline var context: D.EventCodecContext
  /// The snapshots of the current frame not yet passed: where runs start.
  @usableFromInline var runStarts: ArraySlice<UInt64> = []
  /// Whether ``step(_:trackChanges:skipping:)`` crosses events lost to damage, going on
  /// from the snapshot that starts the frame after them.
  @usableFromInline var crossesLostEvents = false
  /// The lost events crossed so far.
  @usableFromInline private(set) var crossedLostEvents: [ClosedRange<UInt64>] = []
  /// The state to restore before the next event, after crossing lost events: the
  /// snapshot's after them.
  @usableFromInline var restart: D.State?

  /// A replayer at `start`: after its snapshot, or before the first event.
  init(timeline: Timeline<D>, start: StartingPoint) {
    self.init(
      timeline: timeline, frameIndex: start.frameIndex, snapshot: start.snapshot,
      sequence: start.snapshot?.snapshot.sequence ?? 0)
  }

  /// A replayer before the first record of frame `index`, to walk its records without
  /// decoding them.
  init(timeline: Timeline<D>, atStartOfFrame index: Int) {
    self.init(
      timeline: timeline, frameIndex: index, snapshot: nil,
      sequence: timeline.reader.frames[index].firstSequence - 1)
  }

  private init(
    timeline: Timeline<D>, frameIndex: Int, snapshot: StoredSnapshot?, sequence: UInt64
  ) {
    self.timeline = timeline
    self.sequence = sequence
    self.frameIndex = frameIndex
    startSnapshot = snapshot
    context = timeline.domain.makeEventCodecContext()
  }

  /// Applies every event up to and including `target` (or to the last, if it comes
  /// first).
  ///
  /// - Throws: ``RewindError`` `undecodable` or `eventsLost`, `JournalError` for damage.
  /// - Complexity: O(target − current sequence), the decode-and-reduce hot loop: per
  ///   event three varints, the domain's decoder and its reducer, no allocation.
  @inlinable
  mutating func apply(through target: UInt64, to state: inout D.State) throws {
    let domain = timeline.domain
    while sequence < target {
      guard try inFrame() else { break }
      startRunIfDue()
      let limit = Swift.min(target, runStarts.first ?? .max)
      var context = self.context
      var failed: (sequence: UInt64, error: CodecError)?
      let exhausted: Bool
      do {
        exhausted = try cursor!.forEachPayload(through: limit) { sequence, payload in
          if let (_, event) = Self.decodeShort(payload, domain: domain, context: &context) {
            _ = domain.reduce(&state, event)
            return
          }
          do throws(CodecError) {
            let event: D.Event
            (_, event, context) = try Self.decodeOutOfLine(
              payload, domain: domain, context: context)
            _ = domain.reduce(&state, event)
          } catch {
            failed = (sequence, error)
            throw error
          }
        }
      } catch {
        // The decoder's error leaves the cursor's loop as it is: named here with its event.
        if let failed { throw undecodable(failed.sequence, failed.error) }
        throw error
      }
      self.context = context
      sequence = cursor!.sequence &- 1
      if exhausted { leaveFrame() }
    }
  }

  /// Replays every event up to and including `target` (or to the last, if it comes
  /// first) and calls `body` with each, the fields it changed (when `trackChanges`; else
  /// none) and the state after it, until `body` returns false: what ``step(_:trackChanges:skipping:)``
  /// does for each event, fused into the hot loop of ``apply(through:to:)``. The state is
  /// handed to `body` in place (`inout`, which `body` must not change), so that no copy
  /// of it is made each event for a body that reads it only now and then.
  ///
  /// The scans (``SessionScans``) are built on it: inlinable, so that it runs specialised
  /// for their domain, with `body` inlined. It reads a run of records at a time
  /// (`RecordCursor/forEachRecord(through:_:)`), and crosses lost events as `step` does
  /// when ``crossesLostEvents`` is set.
  ///
  /// `progress` is called with the last event passed after each run of records (a frame,
  /// or its part up to a snapshot: a few thousand events), unless `body` stopped it: the
  /// scans' progress, not tested every event.
  ///
  /// - Returns: false when `body` stopped it, true when it reached `target` or the end.
  /// - Throws: ``RewindError`` `undecodable` or `eventsLost`, `JournalError` for damage;
  ///   whatever `body` throws.
  /// - Complexity: O(target − current sequence): per event three varints, the domain's
  ///   decoder, its reducer (with change tracking) and `body`; no allocation.
  @inlinable @inline(__always)
  @discardableResult
  mutating func forEachEvent(
    through target: UInt64, _ state: inout D.State, trackChanges: Bool,
    progress: (_ sequence: UInt64) -> Void = { _ in },
    _ body: (_ event: ReplayedEvent<D>, _ changed: FieldSet, _ state: inout D.State) throws -> Bool
  ) throws -> Bool {
    let domain = timeline.domain
    let upcast = timeline.upcast
    while sequence < target {
      guard try inFrame() else { break }
      if let restored = restart {
        state = restored
        restart = nil
      }
      startRunIfDue()
      let limit = Swift.min(target, runStarts.first ?? .max)
      var context = self.context
      var failed: (sequence: UInt64, error: CodecError)?
      var stopped = false
      let exhausted: Bool
      do {
        // Reduces an event and hands it to `body`: inlined twice below, so that the copy
        // for the common record runs specialised for the event the shortcut decodes.
        @inline(__always) func replay(
          _ sequence: UInt64, _ time: UInt64, _ recorded: RecordedEffect, _ event: D.Event,
          _ state: inout D.State
        ) throws -> Bool {
          var effect = recorded
          if let upcast { effect = upcast.current(effect) }
          let outcome: Outcome<D.Rejection>
          let changed: FieldSet
          if trackChanges {
            (outcome, changed) = domain.reduceTrackingChanges(&state, event)
          } else {
            (outcome, changed) = (domain.reduce(&state, event), [])
          }
          let replayed = ReplayedEvent<D>(
            sequence: sequence, time: time, event: event, outcome: outcome, recorded: effect)
          return try body(replayed, changed, &state)
        }
        exhausted = try cursor!.forEachRecord(through: limit) { sequence, time, payload in
          let going: Bool
          if let (effect, event) = Self.decodeShort(payload, domain: domain, context: &context) {
            going = try replay(sequence, time, effect, event, &state)
          } else {
            let effect: RecordedEffect
            let event: D.Event
            do throws(CodecError) {
              (effect, event, context) = try Self.decodeOutOfLine(
                payload, domain: domain, context: context)
            } catch {
              failed = (sequence, error)
              throw error
            }
            going = try replay(sequence, time, effect, event, &state)
          }
          if !going { stopped = true }
          return going
        }
      } catch {
        if let failed { throw undecodable(failed.sequence, failed.error) }
        throw error
      }
      self.context = context
      self.sequence = cursor!.sequence &- 1
      if exhausted { leaveFrame() }
      if stopped { return false }
      progress(self.sequence)
    }
    return true
  }

  /// ``forEachEvent(through:_:trackChanges:progress:_:)`` for a body that most events
  /// need nothing of: `passing` is asked first of each event the shortcut decodes
  /// (``decodeShort(_:domain:context:)``, the common record), with the fields it changed,
  /// and `body` is called only for the events it does not pass (and every other event).
  /// `passing` must return true only where `body` would do nothing and return true.
  ///
  /// The common record is read, reduced and passed in the inner loop of
  /// `RecordCursor/forEachRecord(through:fast:slow:)`, in which nothing is called, so
  /// that the scan's values stay in registers there; `body`, the full decoder and the
  /// out-of-line reducer are called from its outer loop.
  ///
  /// - Returns: false when `body` stopped it, true when it reached `target` or the end.
  /// - Throws: what ``forEachEvent(through:_:trackChanges:progress:_:)`` throws.
  /// - Complexity: O(target − current sequence), as
  ///   ``forEachEvent(through:_:trackChanges:progress:_:)``.
  @inlinable @inline(__always)
  @discardableResult
  mutating func forEachEvent(
    through target: UInt64, _ state: inout D.State, trackChanges: Bool,
    progress: (_ sequence: UInt64) -> Void = { _ in },
    passing: (_ event: ReplayedEvent<D>, _ changed: FieldSet) -> Bool,
    _ body: (_ event: ReplayedEvent<D>, _ changed: FieldSet, _ state: inout D.State) throws -> Bool
  ) throws -> Bool {
    try forEachEvent(
      through: target, &state, trackChanges: trackChanges, progress: progress,
      handling: { event, changed, _ in passing(event, changed) }, body)
  }

  /// ``forEachEvent(through:_:trackChanges:progress:passing:_:)`` whose `handling` sees
  /// the state after the event too, and may do `body`'s work itself: it returns true when
  /// it has dealt with the event as `body` would (and `body` would have returned true),
  /// false when it has done nothing that `body` would not do again, and `body` is called
  /// with the event. The page's loop (`Timeline.visitEventsInline`): the common event's
  /// step done in the inner loop, with no call.
  ///
  /// - Returns: false when `body` stopped it, true when it reached `target` or the end.
  /// - Throws: what ``forEachEvent(through:_:trackChanges:progress:_:)`` throws.
  /// - Complexity: O(target − current sequence), as
  ///   ``forEachEvent(through:_:trackChanges:progress:_:)``.
  @inlinable @inline(__always)
  @discardableResult
  mutating func forEachEvent(
    through target: UInt64, _ state: inout D.State, trackChanges: Bool,
    progress: (_ sequence: UInt64) -> Void = { _ in },
    handling: (_ event: ReplayedEvent<D>, _ changed: FieldSet, _ state: D.State) -> Bool,
    _ body: (_ event: ReplayedEvent<D>, _ changed: FieldSet, _ state: inout D.State) throws -> Bool
  ) throws -> Bool {
    let domain = timeline.domain
    let upcast = timeline.upcast
    while sequence < target {
      guard try inFrame() else { break }
      if let restored = restart {
        state = restored
        restart = nil
      }
      startRunIfDue()
      let limit = Swift.min(target, runStarts.first ?? .max)
      var context = self.context
      var failed: (sequence: UInt64, error: CodecError)?
      var stopped = false
      // An event the inner loop decoded and reduced but did not pass: `body`'s, next.
      var pending: (event: ReplayedEvent<D>, changed: FieldSet)?
      let exhausted: Bool
      do {
        // Reduces an event: inlined twice below, so that the copy for the common record
        // runs specialised for the event the shortcut decodes.
        @inline(__always) func reduce(
          _ sequence: UInt64, _ time: UInt64, _ recorded: RecordedEffect, _ event: D.Event,
          _ state: inout D.State
        ) -> (ReplayedEvent<D>, FieldSet) {
          var effect = recorded
          if let upcast { effect = upcast.current(effect) }
          let outcome: Outcome<D.Rejection>
          let changed: FieldSet
          if trackChanges {
            (outcome, changed) = domain.reduceTrackingChanges(&state, event)
          } else {
            (outcome, changed) = (domain.reduce(&state, event), [])
          }
          return (
            ReplayedEvent<D>(
              sequence: sequence, time: time, event: event, outcome: outcome, recorded: effect),
            changed
          )
        }
        // The common record's step: a local function, not a closure literal, so that it is
        // inlined into the cursor's inner loop with `handling` whatever their size.
        @inline(__always) func fast(
          _ sequence: UInt64, _ time: UInt64, _ payload: UnsafeRawBufferPointer
        ) -> Bool {
          let decoded = Self.decodeShort(payload, domain: domain, context: &context)
          guard _fastPath(decoded != nil), let (effect, event) = decoded else { return false }
          let (replayed, changed) = reduce(sequence, time, effect, event, &state)
          if _fastPath(handling(replayed, changed, state)) { return true }
          pending = (replayed, changed)
          return false
        }
        exhausted = try cursor!.forEachRecord(
          through: limit, fast: fast,
          slow: { sequence, time, payload in
            let replayed: ReplayedEvent<D>
            let changed: FieldSet
            if let decoded = pending {
              (replayed, changed) = decoded
              pending = nil
            } else {
              let effect: RecordedEffect
              let event: D.Event
              do throws(CodecError) {
                (effect, event, context) = try Self.decodeOutOfLine(
                  payload, domain: domain, context: context)
              } catch {
                failed = (sequence, error)
                throw error
              }
              (replayed, changed) = reduce(sequence, time, effect, event, &state)
            }
            let going = try body(replayed, changed, &state)
            if !going { stopped = true }
            return going
          })
      } catch {
        if let failed { throw undecodable(failed.sequence, failed.error) }
        throw error
      }
      self.context = context
      self.sequence = cursor!.sequence &- 1
      if exhausted { leaveFrame() }
      if stopped { return false }
      progress(self.sequence)
    }
    return true
  }

  /// Decodes the next event and applies it (unless `skipping` says not to).
  ///
  /// Inlinable, so that the scans (``SessionScans``) run it specialised for their domain.
  ///
  /// - Parameter trackChanges: compute the fields the event changed (costs a state copy).
  /// - Returns: the event and the fields it changed, or nil after the last event.
  @inlinable
  mutating func step(
    _ state: inout D.State, trackChanges: Bool, skipping: (UInt64) -> Bool = { _ in false }
  ) throws -> (ReplayedEvent<D>, changed: FieldSet)? {
    guard let record = try nextRecord() else { return nil }
    if let restored = restart {
      state = restored
      restart = nil
    }
    var effect: RecordedEffect
    let event: D.Event
    do throws(CodecError) {
      (effect, event) = try Self.decode(record.payload, domain: timeline.domain, context: &context)
    } catch {
      throw undecodable(record.sequence, error)
    }
    // An older schema's recorded changes count its own fields: renumber them.
    if let upcast = timeline.upcast { effect = upcast.current(effect) }
    var replayed = ReplayedEvent<D>(
      sequence: record.sequence, time: record.time, event: event, outcome: nil, recorded: effect)
    if skipping(record.sequence) { return (replayed, []) }
    let domain = timeline.domain
    if trackChanges {
      let (outcome, changed) = domain.reduceTrackingChanges(&state, event)
      replayed.outcome = outcome
      return (replayed, changed)
    }
    replayed.outcome = domain.reduce(&state, event)
    return (replayed, [])
  }

  /// The next record, moving to the next frame when one ends; nil after the last. The
  /// payload is not decoded.
  /// - Throws: ``RewindError`` `eventsLost` when the next frame does not continue the
  ///   sequence (a salvaged gap), `JournalError` for damage.
  @inlinable
  mutating func nextRecord() throws -> Record? {
    while try inFrame() {
      startRunIfDue()
      if let record = try cursor!.next() {
        sequence = record.sequence
        return record
      }
      leaveFrame()
    }
    return nil
  }

  /// Starts a new run of the event codec when the next event follows a snapshot: the one
  /// place where the codec's memory is reset, so that decoding can start at any snapshot.
  @inlinable @inline(__always)
  mutating func startRunIfDue() {
    if let start = runStarts.first, start <= sequence {
      context = timeline.domain.makeEventCodecContext()
      runStarts.removeFirst()
    }
  }

  /// Decodes a record's payload: the recorded effect, then the event, which must fill
  /// the rest.
  /// - Throws: `CodecError` for an effect of kind 3, a malformed event or bytes after it.
  @inlinable @inline(__always)
  static func decode(
    _ payload: UnsafeRawBufferPointer, domain: D, context: inout D.EventCodecContext
  ) throws(CodecError) -> (effect: RecordedEffect, event: D.Event) {
    var reader = ByteReader(payload)
    let effect = try RecordedEffect.decode(from: &reader)
    let event = try domain.decodeEvent(from: &reader, context: &context)
    guard reader.isAtEnd else { throw Self.trailingBytes(reader) }
    return (effect, event)
  }

  /// Decodes a record's payload of the shape nearly every record of a session has: a
  /// recorded effect of one byte and an event the domain reads from a word
  /// (``Domain/decodeEvent(fromWord:count:context:)``), both from one load of the
  /// payload's first eight bytes. Nil for any other payload (every malformed one
  /// included): ``decode(_:domain:context:)`` reads it, and says what is wrong.
  /// - Precondition: `payload` is a record's, in a frame's memory (`FrameStorage`), which
  ///   its zeroed padding follows: eight bytes from its start can be read.
  @inlinable @inline(__always)
  static func decodeShort(
    _ payload: UnsafeRawBufferPointer, domain: D, context: inout D.EventCodecContext
  ) -> (effect: RecordedEffect, event: D.Event)? {
    let word = UInt64(
      littleEndian: payload.baseAddress.unsafelyUnwrapped.loadUnaligned(as: UInt64.self))
    // One byte (no continuation bit) of a kind that is 0, 1 or 2: one test.
    let effect = word & 0xFF
    guard effect & 0x83 < 3,
      let event = domain.decodeEvent(
        fromWord: word &>> 8, count: payload.count &- 1, context: &context)
    else { return nil }
    // The kind's raw values are its cases' codes, checked above.
    return (
      RecordedEffect(
        kind: unsafeBitCast(UInt8(truncatingIfNeeded: effect & 3), to: RecordedEffect.Kind.self),
        changed: FieldSet(rawValue: effect &>> 2)),
      event
    )
  }

  /// ``decode(_:domain:context:)`` out of line: what the scan loops call for a payload
  /// ``decodeShort(_:domain:context:)`` does not take, so that the loops stay small.
  /// The codec's memory is passed and returned by value (on an error it is not
  /// needed), so that the loops' copy of it is not held in memory for the call.
  ///
  /// A recorded effect of one to three bytes (every effect of up to 19 fields; most of
  /// these payloads' effects take two or three) is read from one load of the payload's
  /// first eight bytes (``effect(fromWord:count:)``); any other payload by
  /// ``decode(_:domain:context:)`` from its start, which says what is wrong.
  /// - Precondition: `payload` is a record's, in a frame's memory (`FrameStorage`), which
  ///   its zeroed padding follows: eight bytes from its start can be read.
  @inlinable @inline(never)
  static func decodeOutOfLine(
    _ payload: UnsafeRawBufferPointer, domain: D, context: D.EventCodecContext
  ) throws(CodecError) -> (effect: RecordedEffect, event: D.Event, context: D.EventCodecContext) {
    var context = context
    let word = UInt64(
      littleEndian: payload.baseAddress.unsafelyUnwrapped.loadUnaligned(as: UInt64.self))
    if let (effect, length) = Self.effect(fromWord: word, count: payload.count) {
      var reader = ByteReader(payload)
      reader.skip(length)
      let event = try domain.decodeEvent(from: &reader, context: &context)
      guard reader.isAtEnd else { throw Self.trailingBytes(reader) }
      return (effect, event, context)
    }
    let (effect, event) = try decode(payload, domain: domain, context: &context)
    return (effect, event, context)
  }

  /// The recorded effect at the start of a payload of `count` bytes whose first eight
  /// bytes `word` holds (little-endian), and how many bytes it takes: a varint of one to
  /// three bytes, with no redundant zero, of a kind that is 0, 1 or 2, followed by at
  /// least one byte of the payload. Nil for any other (which
  /// ``decode(_:domain:context:)`` reads, or says what is wrong with): what
  /// `RecordedEffect.decode(from:)` reads from the same bytes where it is not nil.
  @inlinable @inline(__always)
  static func effect(fromWord word: UInt64, count: Int) -> (effect: RecordedEffect, length: Int)? {
    let raw: UInt64
    let length: Int
    if word & 0x80 == 0 {
      raw = word & 0x7F
      length = 1
    } else if word & 0x8000 == 0 {
      // The last byte of a longer varint is not zero.
      guard word & 0x7F00 != 0 else { return nil }
      raw = word & 0x7F | (word &>> 1) & 0x3F80
      length = 2
    } else if word & 0x80_0000 == 0 {
      guard word & 0x7F_0000 != 0 else { return nil }
      raw = word & 0x7F | (word &>> 1) & 0x3F80 | (word &>> 2) & 0x1F_C000
      length = 3
    } else {
      return nil
    }
    guard raw & 3 != 3, length < count else { return nil }
    // The kind's raw values are its cases' codes, checked above.
    return (
      RecordedEffect(
        kind: unsafeBitCast(UInt8(truncatingIfNeeded: raw & 3), to: RecordedEffect.Kind.self),
        changed: FieldSet(rawValue: raw &>> 2)),
      length
    )
  }

  @usableFromInline static func trailingBytes(_ reader: ByteReader) -> CodecError {
    CodecError(.invalidValue, "\(reader.remaining) bytes follow the event", at: reader.offset)
  }

  /// The error for event `sequence`, which does not decode (`error`): what
  /// ``Timeline/undecodableEvent(_:_:)`` says of it.
  @usableFromInline func undecodable(_ sequence: UInt64, _ error: CodecError) -> RewindError {
    timeline.undecodableEvent(sequence, error)
  }

  /// Whether a frame is being read, loading the next one when the last was finished:
  /// ``enterFrame()`` behind a check inlined into the loops, since that function is not
  /// specialised for the domain and pays for generic metadata on every call.
  @inlinable @inline(__always) mutating func inFrame() throws -> Bool {
    if cursor != nil { return true }
    return try enterFrame()
  }

  /// Makes sure a frame is being read: loads the next one when the last was finished.
  /// - Returns: false after the last frame.
  /// - Throws: ``RewindError`` `eventsLost` when the next frame does not continue the
  ///   sequence (a salvaged gap), `JournalError` for damage.
  @usableFromInline mutating func enterFrame() throws -> Bool {
    if cursor != nil { return true }
    let reader = timeline.reader
    guard frameIndex < reader.frames.count else { return false }
    let frame = try reader.loadFrame(frameIndex)
    let current = sequence
    runStarts = ArraySlice(frame.snapshots.map(\.snapshot.sequence).filter { $0 >= current })
    if let snapshot = startSnapshot {
      cursor = try frame.records(after: snapshot)
      startSnapshot = nil
    } else {
      if frame.info.firstSequence > sequence + 1, crossesLostEvents,
        let start = frame.snapshots.first,
        start.snapshot.sequence + 1 == frame.info.firstSequence
      {
        let missing = (sequence + 1)...(frame.info.firstSequence - 1)
        guard let state = timeline.trustedState(start, inFrame: frameIndex) else {
          throw RewindError(
            .eventsLost, journal: timeline.path,
            "\(JournalError.describe(missing)) \(missing.count == 1 ? "was" : "were") lost to damage, and the snapshot after them cannot be trusted; replay cannot cross them"
          )
        }
        crossedLostEvents.append(missing)
        restart = state
        sequence = start.snapshot.sequence
      }
      guard frame.info.firstSequence == sequence + 1 else {
        let missing = (sequence + 1)...(frame.info.firstSequence - 1)
        throw RewindError(
          .eventsLost, journal: timeline.path,
          "\(JournalError.describe(missing)) \(missing.count == 1 ? "was" : "were") lost to damage; replay cannot cross them"
        )
      }
      cursor = frame.records()
    }
    return true
  }

  /// Moves on to the next frame, the current one read to its end.
  @usableFromInline mutating func leaveFrame() {
    cursor = nil
    frameIndex += 1
  }
}
