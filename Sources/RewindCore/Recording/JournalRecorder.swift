public import RewindJournal

/// Where a recorded session came from: written into its journal's header.
public struct SessionInfo: Sendable {
  public var id: SessionID
  /// When the session started, microseconds since the Unix epoch.
  public var startTime: Int64
  /// A description of the recording device.
  public var device: String

  public init(id: SessionID = .random(), startTime: Int64, device: String) {
    self.id = id
    self.startTime = startTime
    self.device = device
  }
}

/// How a session is recorded.
public struct RecordingOptions: Sendable {
  /// A snapshot of the state is stored every this many events.
  public var snapshotInterval: UInt32
  /// Compression, frame size and durability of the journal.
  public var journal: JournalWriterOptions

  public init(snapshotInterval: UInt32 = 1024, journal: JournalWriterOptions = .init()) {
    self.snapshotInterval = snapshotInterval
    self.journal = journal
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
  public private(set) var state: D.State
  let writer: JournalWriter
  private var payload = ByteWriter(capacity: 64)
  private var snapshotBytes = ByteWriter(capacity: 256)
  /// The event codec's memory of the run since the last snapshot.
  private var codecContext: D.EventCodecContext

  init(domain: D, state: D.State, writer: JournalWriter) {
    precondition(
      domain.fields.count <= RecordedEffect.maximumFieldCount,
      "a domain may have at most \(RecordedEffect.maximumFieldCount) fields")
    self.domain = domain
    self.state = state
    self.writer = writer
    codecContext = domain.makeEventCodecContext()
  }

  /// Creates a new journal at `path` for a session of `domain`.
  ///
  /// - Parameter replacingExisting: replace a file at `path`; otherwise it is an error.
  /// - Throws: `JournalError` if the file exists or cannot be written.
  public static func create(
    at path: String, domain: D, session: SessionInfo, options: RecordingOptions = .init(),
    replacingExisting: Bool = false
  ) throws -> JournalRecorder {
    let header = JournalHeader(
      domain: D.identifier, schemaVersion: D.schemaVersion, sessionID: session.id,
      startTime: session.startTime, device: session.device, settings: domain.settings,
      snapshotInterval: options.snapshotInterval)
    let writer = try JournalWriter.create(
      at: path, header: header, options: options.journal, replacingExisting: replacingExisting)
    return JournalRecorder(domain: domain, state: domain.initialState, writer: writer)
  }

  /// Opens an existing journal to record more events after its last one.
  ///
  /// The state is rebuilt from the journal (from its last snapshot), so recording goes on
  /// exactly where it stopped.
  /// - Throws: `JournalError` (locked, torn tail, …) or ``RewindError`` (another domain).
  public static func continuing(at path: String, options: JournalWriterOptions = .init())
    throws -> JournalRecorder
  {
    let writer = try JournalWriter.open(
      at: path, domain: D.identifier, schemaVersion: D.schemaVersion, options: options)
    let timeline = try Timeline<D>(path: path)
    let state = try timeline.state(after: timeline.lastSequence)
    return JournalRecorder(domain: timeline.domain, state: state, writer: writer)
  }

  /// The journal's path.
  public var path: String { writer.path }
  /// The sequence number of the last event recorded.
  public var lastSequence: UInt64 { writer.lastSequence }
  /// The time of the last event recorded, microseconds since the session start.
  public var lastTime: UInt64 { writer.lastTime }
  /// The journal's header.
  public var header: JournalHeader { writer.header }

  /// Reduces `event` and appends it to the journal.
  ///
  /// - Parameter time: microseconds since the session start, never before the last
  ///   event's.
  /// - Returns: what the reducer did with it.
  /// - Throws: `JournalError` if the journal cannot take it; the event is then not
  ///   recorded and the state is unchanged.
  @discardableResult
  public func record(_ event: D.Event, at time: UInt64) throws -> Outcome<D.Rejection> {
    if writer.needsSnapshot {
      try writer.addSnapshot(snapshot())
      // A run of events starts after every snapshot; readers start there too.
      codecContext = domain.makeEventCodecContext()
    }
    let before = state
    let contextBefore = codecContext
    let outcome = domain.reduce(&state, event)
    let changed = outcome == .applied ? domain.changedFields(from: before, to: state) : FieldSet()
    payload.removeAll()
    payload.writeVarint(RecordedEffect(outcome, changed: changed).encoded)
    domain.encode(event, into: &payload, context: &codecContext)
    do {
      try payload.bytes.withBytes { bytes throws(JournalError) in
        _ = try writer.append(time: time, payload: bytes)
      }
    } catch {
      state = before
      codecContext = contextBefore
      throw error
    }
    return outcome
  }

  /// The snapshot of the current state.
  func snapshot() -> Snapshot {
    snapshotBytes.removeAll()
    domain.encode(state, into: &snapshotBytes)
    let bytes = snapshotBytes.bytes
    return Snapshot(sequence: writer.lastSequence, stateHash: XXH64.hash(bytes), state: bytes)
  }

  /// Seals the frame being filled and forces everything recorded to disk.
  public func flush() throws { try writer.flush() }

  /// Flushes, writes the journal's index and releases it.
  public func close() throws { try writer.close() }
}
