import Dispatch
import Observation
import RewindJournal
import Synchronization

/// The live state of an app's screens: events are reduced at once on the caller's thread
/// and, when recording, written to a journal by a background writer.
///
/// `send(_:)` never waits for compression or I/O: it reduces, stamps the event with the
/// clock, and queues it; a writer thread appends queued events to the journal every few
/// milliseconds, storing snapshots at the interval and sealing frames. ``flush()`` returns
/// once everything sent before it is durable. If the journal cannot take events (a full
/// disk, a read-only location) they stay queued, ``lastError`` says what went wrong (and
/// `onError` is called), and the writer retries; nothing is dropped silently.
///
/// The store is `Sendable`: `send` may be called from any thread or task, and concurrent
/// sends are serialised in one order, the order the journal records. It is `Observable`,
/// so SwiftUI views that read ``state`` update when it changes.
public final class Store<D: Domain>: Observable, Sendable {
  /// The domain of the session.
  public let domain: D
  @usableFromInline let registrar = ObservationRegistrar()
  @usableFromInline let core: StoreCore<D>
  private let writer: StoreWriter<D>?
  /// Whether sent events are queued for a journal.
  @usableFromInline let isRecording: Bool
  @usableFromInline let clock: @Sendable () -> UInt64
  private let onError: (@Sendable (RewindError) -> Void)?
  /// The key paths observers are told about, made once per store: a key path into a
  /// generic class is instantiated at run time each time its literal is evaluated, which
  /// costs microseconds, more than the rest of `send`.
  @usableFromInline let stateKeyPath: KeyPath<Store, D.State> & Sendable = \Store.state
  private let errorKeyPath: KeyPath<Store, RewindError?> & Sendable = \Store.lastError

  /// A store that keeps state in memory and records nothing.
  public init(domain: D) {
    self.domain = domain
    core = StoreCore(state: domain.initialState)
    writer = nil
    isRecording = false
    clock = { 0 }
    onError = nil
  }

  /// A store that records its session into a new journal at `path`.
  ///
  /// - Parameters:
  ///   - session: the header's session information; by default a new id, now, and this
  ///     machine.
  ///   - clock: microseconds since the session started; by default a monotonic clock
  ///     started now. Injected in tests for reproducible timestamps.
  ///   - onError: called on the writer thread when the journal fails.
  /// - Throws: `JournalError` if the journal cannot be created.
  public init(
    domain: D, recordingTo path: String, session: SessionInfo? = nil,
    options: RecordingOptions = .init(), replacingExisting: Bool = false,
    clock: (@Sendable () -> UInt64)? = nil,
    onError: (@Sendable (RewindError) -> Void)? = nil
  ) throws {
    let session = session ?? SessionInfo(startTime: WallClock.now(), device: WallClock.device)
    let recorder = try JournalRecorder.create(
      at: path, domain: domain, session: session, options: options,
      replacingExisting: replacingExisting)
    self.domain = domain
    core = StoreCore(state: domain.initialState)
    self.clock = clock ?? WallClock.monotonic()
    self.onError = onError
    writer = StoreWriter(recorder: recorder, core: core)
    isRecording = true
    writer?.start(notifying: self)
  }

  /// A store that goes on recording into an existing journal, from its last state.
  ///
  /// - Parameter clock: microseconds since the session started; by default the journal's
  ///   last time plus a monotonic clock started now.
  public init(
    continuing path: String, options: JournalWriterOptions = .init(),
    clock: (@Sendable () -> UInt64)? = nil,
    onError: (@Sendable (RewindError) -> Void)? = nil
  ) throws {
    let recorder = try JournalRecorder<D>.continuing(at: path, options: options)
    domain = recorder.domain
    core = StoreCore(state: recorder.state, lastTime: recorder.lastTime)
    let resumeAt = recorder.lastTime
    let monotonic = WallClock.monotonic()
    self.clock = clock ?? { resumeAt + monotonic() }
    self.onError = onError
    writer = StoreWriter(recorder: recorder, core: core)
    isRecording = true
    writer?.start(notifying: self)
  }

  deinit { writer?.requestClose() }

  /// The current state.
  public var state: D.State {
    registrar.access(self, keyPath: stateKeyPath)
    return core.shared.withLock { $0.state }
  }

  /// The last error of the journal writer, nil when all is well.
  public var lastError: RewindError? {
    registrar.access(self, keyPath: errorKeyPath)
    return core.shared.withLock { $0.lastError }
  }

  /// The number of events sent but not yet written to the journal.
  public var pendingCount: Int { core.pendingCount }

  /// Reduces `event` into the state and, when recording, queues it for the journal.
  ///
  /// Safe from any thread; never blocks on I/O.
  /// - Returns: what the reducer did with the event.
  /// - Complexity: O(1) plus the reducer: inlined and specialised for the caller's
  ///   domain, it takes a lock, reads the clock and appends to a queue whose storage is
  ///   reused, and allocates nothing once the queue has grown to its working size.
  @inlinable @discardableResult
  public func send(_ event: D.Event) -> Outcome<D.Rejection> {
    registrar.withMutation(of: self, keyPath: stateKeyPath) {
      core.shared.withLock { shared in
        let outcome = domain.reduce(&shared.state, event)
        if isRecording && !shared.closed && !shared.stopped {
          let time = max(clock(), shared.lastTime)
          shared.lastTime = time
          shared.queue.append((time, event))
          shared.sent += 1
        }
        return outcome
      }
    }
  }

  /// Returns once every event sent before the call is durable in the journal.
  /// - Throws: ``RewindError`` `recording` if the journal cannot take them.
  public func flush() async throws {
    guard let writer else { return }
    let target = core.shared.withLock { $0.sent }
    try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Void, any Error>) in
      writer.requestFlush(upTo: target) { result in continuation.resume(with: result) }
    }
  }

  /// ``flush()`` for synchronous callers: blocks the calling thread until done. Do not
  /// call it on the main thread of an app.
  public func flushAndWait() throws {
    guard let writer else { return }
    let target = core.shared.withLock { $0.sent }
    let done = DispatchSemaphore(value: 0)
    let outcome = Mutex<Result<Void, any Error>>(.success(()))
    writer.requestFlush(upTo: target) { result in
      outcome.withLock { $0 = result }
      done.signal()
    }
    done.wait()
    try outcome.withLock { $0 }.get()
  }

  /// Writes every queued event, closes the journal, and stops recording; later events
  /// are reduced but not recorded. Blocks until done.
  /// - Throws: ``RewindError`` `recording` if events could not be written (saying how
  ///   many) or the journal could not be closed.
  public func close() throws {
    guard let writer else { return }
    core.shared.withLock { $0.closed = true }
    try writer.closeAndWait()
  }

  /// Tells observers that ``lastError`` changed (the writer has stored it already), and
  /// calls `onError` on a global queue, never on the writer's thread, so that it may
  /// call ``flushAndWait()`` or ``close()``.
  func report(_ error: RewindError?) {
    registrar.withMutation(of: self, keyPath: errorKeyPath) {}
    if let error, let onError {
      DispatchQueue.global().async { onError(error) }
    }
  }
}

/// The part of a ``Store`` its writer thread shares: the state and the queue of events
/// to record. The writer holds it strongly, so events sent just before a store is
/// released are still recorded.
@usableFromInline final class StoreCore<D: Domain>: Sendable {
  @usableFromInline struct Shared: Sendable {
    @usableFromInline var state: D.State
    /// Events waiting for the writer.
    @usableFromInline var queue: [(time: UInt64, event: D.Event)] = []
    /// An empty array with capacity, handed back by the writer to avoid reallocation.
    var spare: [(time: UInt64, event: D.Event)] = []
    /// Events sent so far (recording only).
    @usableFromInline var sent: UInt64 = 0
    /// Events recorded into the journal, and those made durable by a flush.
    var recorded: UInt64 = 0
    var durable: UInt64 = 0
    @usableFromInline var lastTime: UInt64 = 0
    var lastError: RewindError?
    @usableFromInline var closed = false
    /// The journal failed for good: events are reduced but no longer queued.
    @usableFromInline var stopped = false
    /// Events the writer took but could not record yet.
    var backlog = 0
  }

  @usableFromInline let shared: Mutex<Shared>

  init(state: D.State, lastTime: UInt64 = 0) {
    var initial = Shared(state: state)
    initial.lastTime = lastTime
    shared = Mutex(initial)
  }

  /// Takes the queued events for the writer, giving back an emptied array to reuse.
  func takeQueue(returning spare: [(time: UInt64, event: D.Event)]) -> [(
    time: UInt64, event: D.Event
  )] {
    shared.withLock { shared in
      var taken = spare
      swap(&taken, &shared.queue)
      return taken
    }
  }

  /// Stops queuing: the journal can take no more events.
  func stop() {
    shared.withLock { $0.stopped = true }
  }

  func noteRecorded(_ count: Int, durable: Bool) {
    shared.withLock { shared in
      shared.recorded += UInt64(count)
      if durable { shared.durable = shared.recorded }
    }
  }

  /// Stores the writer's latest error; true if observers should hear of it.
  func setError(_ error: RewindError?) -> Bool {
    shared.withLock { shared in
      let changed = (shared.lastError == nil) != (error == nil) || error != nil
      shared.lastError = error
      return changed
    }
  }

  /// Events queued or held by the writer, not yet in the journal.
  var pendingCount: Int { shared.withLock { $0.queue.count + $0.backlog } }

  /// Records how many events the writer holds after a failure, for ``pendingCount``.
  func setBacklog(_ count: Int) {
    shared.withLock { $0.backlog = count }
  }

  var progress: (sent: UInt64, recorded: UInt64, durable: UInt64) {
    shared.withLock { ($0.sent, $0.recorded, $0.durable) }
  }
}
