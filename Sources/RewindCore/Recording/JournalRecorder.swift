public import RewindJournal

/// Where a recorded session came from: written into its journal's header.
public struct SessionInfo: Sendable {
  public var id: SessionID
  /// When the session started, microseconds since the Unix epoch.
  public var startTime: Int64
  /// A description of the recording device.
  public var device: String
  /// The session this one continues, if it starts with another's events.
  public var parent: ParentSession?

  public init(
    id: SessionID = .random(), startTime: Int64, device: String, parent: ParentSession? = nil
  ) {
    self.id = id
    self.startTime = startTime
    self.device = device
    self.parent = parent
  }
}

/// How a session is recorded.
public struct RecordingOptions: Sendable {
  /// A snapshot of the state is stored every this many events.
  public var snapshotInterval: UInt32
  /// Compression, frame size and durability of the journal.
  public var journal: JournalWriterOptions
  /// Forwards the journal while a ``Store`` records it (`SessionShipper` of RewindStream
  /// ships it to a NATS server), told by the store's writer thread after each durable
  /// frame, flush and the close; nil records locally only. Used by ``Store`` only.
  public var forwarder: (any JournalForwarder)?
  /// The longest an event a ``Store``'s writer has written waits before the writer makes
  /// it durable by itself (seals the frame being filled and syncs it, as
  /// ``Store/flush()`` does): one second by default. The writer takes what was sent
  /// within a quarter of a second (at once while events keep coming), so that an app
  /// killed without a flush loses about its last second, at most this plus a quarter of
  /// a second and a sync. Each durable point starts a new frame, and a frame starts with a
  /// snapshot of the state: while events come, about one state's encoding a second, and
  /// frames of a second's events (BENCHMARKS.md, session 55). A domain of a large state
  /// weighs that against the loss: a longer time, or nil, which leaves it to
  /// ``Store/flush()``, the close and full frames (everything since the last flush is
  /// lost to a `kill -9`). Used by ``Store`` only.
  public var durableWithin: Duration?

  public init(
    snapshotInterval: UInt32 = 1024, journal: JournalWriterOptions = .init(),
    forwarder: (any JournalForwarder)? = nil, durableWithin: Duration? = .seconds(1)
  ) {
    self.snapshotInterval = snapshotInterval
    self.journal = journal
    self.forwarder = forwarder
    self.durableWithin = durableWithin
  }

  /// ``durableWithin`` in whole milliseconds, at least 1.
  var durableWithinMilliseconds: UInt64? {
    durableWithin.map { duration in
      let (seconds, attoseconds) = duration.components
      guard seconds >= 0, attoseconds >= 0 else { return 1 }
      let milliseconds = UInt64(seconds).multipliedReportingOverflow(by: 1_000)
      guard !milliseconds.overflow else { return .max }
      return max(1, milliseconds.partialValue &+ UInt64(attoseconds / 1_000_000_000_000_000))
    }
  }
}

/// Records events of a domain into a journal: reduces each event, stores its effect and
/// its binary encoding, and supplies the state snapshots the journal asks for.
///
/// This is the one place where events become records; the live ``Store``, `rewind
/// record`, `generate` and `import` all write through it. Not thread-safe.
public final class JournalRecorder<D: Domain> {
  public let domain: D
  /// The state after the last event recorded.
  @inlinable public var state: D.State { work.pointee.state }
  @usableFromInline let writer: JournalWriter
  /// What recording an event reads and updates, behind a pointer the recorder owns so
  /// that the inlined per-event path touches plain memory (no dynamic exclusivity check
  /// of a class property).
  @usableFromInline let work: UnsafeMutablePointer<RecordingWork<D>>
  private var snapshotBytes = ByteWriter(capacity: 256)

  init(domain: D, state: D.State, writer: JournalWriter) {
    self.domain = domain
    self.writer = writer
    work = UnsafeMutablePointer<RecordingWork<D>>.allocate(capacity: 1)
    work.initialize(
      to: RecordingWork(state: state, codecContext: domain.makeEventCodecContext()))
  }

  deinit {
    work.deinitialize(count: 1)
    work.deallocate()
  }

  /// Creates a new journal at `path` for a session of `domain`.
  ///
  /// - Parameters:
  ///   - path: where to write the journal.
  ///   - domain: the session's domain; its settings go into the header.
  ///   - session: where the session came from, for the header.
  ///   - options: snapshots, compression, frames and durability.
  ///   - replacingExisting: replace a file at `path`; otherwise it is an error.
  /// - Throws: `JournalError` if the file exists or cannot be written; ``RewindError``
  ///   (`invalidInput`) when the domain has more than ``RecordedEffect/maximumFieldCount``
  ///   fields, before any file is touched.
  public static func create(
    at path: String, domain: D, session: SessionInfo, options: RecordingOptions = .init(),
    replacingExisting: Bool = false
  ) throws -> JournalRecorder {
    try checkRecordable(domain)
    let writer = try JournalWriter.create(
      at: path, header: header(domain: domain, session: session, options: options),
      options: options.journal, replacingExisting: replacingExisting)
    return JournalRecorder(domain: domain, state: domain.initialState, writer: writer)
  }

  /// The header of a new journal of `domain`'s session.
  static func header(domain: D, session: SessionInfo, options: RecordingOptions)
    -> JournalHeader
  {
    JournalHeader(
      domain: D.identifier, schemaVersion: D.schemaVersion, sessionID: session.id,
      startTime: session.startTime, device: session.device, settings: domain.settingsBlob,
      snapshotInterval: options.snapshotInterval, parent: session.parent)
  }

  /// Opens an existing journal to record more events after its last one.
  ///
  /// The state is rebuilt from the journal (from its last snapshot), so recording goes on
  /// exactly where it stopped.
  /// - Throws: `JournalError` (`wrongDomain` for another domain or schema version,
  ///   `locked`, `tornTail`, …), or ``RewindError`` (`invalidInput`) for a domain of more
  ///   fields than a journal records.
  public static func continuing(at path: String, options: JournalWriterOptions = .init())
    throws -> JournalRecorder
  {
    let writer = try JournalWriter.open(
      at: path, domain: D.identifier, schemaVersion: D.schemaVersion, options: options)
    let (domain, state) = try {
      let timeline = try Timeline<D>(path: path)
      return (timeline.domain, try timeline.state(after: timeline.lastSequence))
    }()
    try checkRecordable(domain)
    // Closing the timeline's file dropped the lock's pid marker; take it again.
    writer.markLockHolder()
    return JournalRecorder(domain: domain, state: state, writer: writer)
  }

  /// Throws unless the changes of every field of `domain` can be recorded, before any
  /// file is touched: it trapped, and an app whose state had 70 leaves (a settings
  /// screen's switches) crashed as its `Store` was made.
  /// - Throws: ``RewindError`` (`invalidInput`) when the domain has more than
  ///   ``RecordedEffect/maximumFieldCount`` fields.
  static func checkRecordable(_ domain: D) throws(RewindError) {
    let count = domain.fields.count
    guard count > RecordedEffect.maximumFieldCount else { return }
    throw RewindError(
      .invalidInput,
      "the '\(D.identifier)' domain has \(count) fields; a domain may have at most \(RecordedEffect.maximumFieldCount), as a journal records each event's changed fields in one word: give the domain `fields` of its own (a field may hold a whole object or array of the state)"
    )
  }

  /// The journal's path.
  public var path: String { writer.path }
  /// The sequence number of the last event recorded.
  public var lastSequence: UInt64 { writer.lastSequence }
  /// The time of the last event recorded, microseconds since the session start.
  public var lastTime: UInt64 { writer.lastTime }
  /// The journal's header.
  public var header: JournalHeader { writer.header }
  /// The frames sealed so far, and whether each is made durable as it is sealed.
  var sealedFrames: (count: Int, durableWhenSealed: Bool) {
    (writer.frames.count, writer.options.durability == .sealedFrames)
  }

  /// The last event of the frames sealed so far when each was made durable as it was
  /// sealed (synced: `JournalWriterOptions.Durability.sealedFrames`); nil otherwise, or
  /// before the first.
  var lastDurableSealedSequence: UInt64? {
    guard writer.options.durability == .sealedFrames, let last = writer.frames.last,
      last.recordCount > 0
    else { return nil }
    return last.firstSequence + UInt64(last.recordCount) - 1
  }

  /// Reduces `event` and appends it to the journal.
  ///
  /// - Parameters:
  ///   - event: what happened.
  ///   - time: microseconds since the session start, never before the last event's.
  /// - Returns: what the reducer did with it.
  /// - Throws: `JournalError` if the journal cannot take it; the event is then not
  ///   recorded and the state is unchanged.
  /// - Complexity: O(1) plus the reducer and the codec; inlined and specialised for the
  ///   caller's domain, it allocates nothing once the buffers have grown.
  @inlinable @discardableResult
  public func record(_ event: D.Event, at time: UInt64) throws -> Outcome<D.Rejection> {
    while true {
      if let outcome = try work.pointee.record(event, at: time, domain: domain, writer: writer) {
        return outcome
      }
      try storeSnapshot()
    }
  }

  /// Records `event` as `effect` says it was reduced, whatever the current reducer does
  /// with it (the state goes on as the reducer makes it): `rewind shrink --diverging -o`'s
  /// last event, recorded as the session recorded it, so that `check` of the shorter
  /// journal fails as the session does until the reducer is fixed.
  /// - Throws: `JournalError` if the journal cannot take it.
  package func record(_ event: D.Event, at time: UInt64, recordedAs effect: RecordedEffect)
    throws
  {
    while true {
      if try work.pointee.record(
        event, at: time, domain: domain, writer: writer, recordedAs: effect) != nil
      {
        return
      }
      try storeSnapshot()
    }
  }

  /// Reduces and appends events in order: the bulk path of recording, for a writer that
  /// drains a queue or a tool that generates or imports many events.
  ///
  /// Equivalent to calling ``record(_:at:)`` for each event in turn.
  /// - Returns: the number of events the reducer rejected.
  /// - Throws: `JournalError` if the journal cannot take an event; the events before it
  ///   stay recorded (``lastSequence`` tells how far it got) and that event and the ones
  ///   after it are not.
  /// - Complexity: O(events), inlined and specialised for the caller's domain.
  @inlinable @discardableResult
  public func record(contentsOf events: some Sequence<TimedEvent<D.Event>>) throws -> Int {
    // The batch works on a local copy of the states and the codec memory: a local is
    // handed to the reducer and the change detection in place, where the recorder's
    // own storage would be copied for every call (and the copy of a state the reducer
    // has just written stalls on store forwarding). The copy goes back before every
    // snapshot, at the end, and when an event fails.
    var local = work.pointee
    var rejected = 0
    do {
      for timed in events {
        while true {
          if let outcome = try local.record(
            timed.event, at: timed.time, domain: domain, writer: writer)
          {
            if case .rejected = outcome { rejected &+= 1 }
            break
          }
          work.pointee = local
          try storeSnapshot()
          local.codecContext = work.pointee.codecContext
        }
      }
    } catch {
      work.pointee = local
      throw error
    }
    work.pointee = local
    return rejected
  }

  /// Stores the snapshot the journal asks for and starts a new run of events: readers
  /// start decoding at snapshots, so the event codec forgets what came before.
  @usableFromInline func storeSnapshot() throws {
    try writer.addSnapshot(snapshot())
    // The recording loops ask again after a snapshot: this one must be the last asked for.
    precondition(!writer.needsSnapshot, "the journal asked again for the snapshot it was given")
    work.pointee.codecContext = domain.makeEventCodecContext()
  }

  /// The snapshot of the current state.
  func snapshot() -> Snapshot {
    snapshotBytes.removeAll()
    domain.encode(work.pointee.state, into: &snapshotBytes)
    let bytes = snapshotBytes.bytes
    return Snapshot(sequence: writer.lastSequence, stateHash: XXH64.hash(bytes), state: bytes)
  }

  /// Seals the frame being filled and forces everything recorded to disk.
  public func flush() throws { try writer.flush() }

  /// Flushes, writes the journal's index and releases it.
  public func close() throws { try writer.close() }
}

/// The part of a ``JournalRecorder`` that recording one event reads and updates.
@usableFromInline struct RecordingWork<D: Domain> {
  /// The state after the last event recorded.
  @usableFromInline var state: D.State
  /// The event codec's memory of the run since the last snapshot.
  @usableFromInline var codecContext: D.EventCodecContext

  /// Encodes `event` into the frame, reduces it, and appends it with its effect; returns
  /// nil, having done nothing, when the journal wants a snapshot first. If the journal
  /// refuses the event, restores the codec memory and rethrows.
  ///
  /// The event is reduced only once the journal will take it (see
  /// `JournalWriter.append(time:encoding:lead:)`), so that a refused event (a time going
  /// backwards, a writer that failed, a payload too large) leaves the state as it was
  /// without a copy of it. Only when the encoding leaves under 10 bytes of the largest
  /// payload for the effect, which could then not fit, is the event reduced on a copy of
  /// the state, kept if the effect fits.
  ///
  /// A mutating method, so that the state is read in place: through the recorder's
  /// pointer it would be copied (and its references counted) to be passed along.
  @inlinable @inline(__always)
  mutating func record(
    _ event: D.Event, at time: UInt64, domain: D, writer: JournalWriter,
    recordedAs given: RecordedEffect? = nil
  ) throws(JournalError) -> Outcome<D.Rejection>? {
    let contextBefore = codecContext
    var outcome = Outcome<D.Rejection>.unchanged
    do {
      // The payload is encoded straight into the frame being filled, after the effect's
      // place; the reducer says what it changed where the domain can (`Navigation`'s does,
      // as it writes), which agrees with `changedFields(from:to:)` of a copy and is
      // cheaper than comparing every field.
      let appended = try writer.append(time: time) { records in
        domain.encode(event, into: &records, context: &codecContext)
      } lead: { leadRoom in
        if _slowPath(leadRoom < 10) {
          var after = state
          let (reduced, changed) = domain.reduceTrackingChanges(&after, event)
          let effect = (given ?? RecordedEffect(reduced, changed: changed)).encoded
          if ByteWriter.varintSize(of: effect) <= leadRoom {
            state = after
            outcome = reduced
          }
          return effect
        }
        let (reduced, changed) = domain.reduceTrackingChanges(&state, event)
        outcome = reduced
        return (given ?? RecordedEffect(reduced, changed: changed)).encoded
      }
      if appended == nil { return nil }
    } catch {
      codecContext = contextBefore
      throw error
    }
    return outcome
  }

  @usableFromInline init(state: D.State, codecContext: D.EventCodecContext) {
    self.state = state
    self.codecContext = codecContext
  }
}
