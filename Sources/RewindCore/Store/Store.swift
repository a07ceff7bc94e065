import Dispatch
public import Observation
public import RewindJournal
public import Synchronization

/// The live state of an app's screens: events are reduced at once on the caller's thread
/// and, when recording, written to a journal by a background writer.
///
/// `send(_:)` never waits for the writer: it reduces, stamps the event with the clock,
/// and hands it over through a queue that takes no lock the writer holds and allocates
/// only when its spare memory runs out; a writer thread appends queued
/// events to the journal every few milliseconds, storing snapshots at the interval and
/// sealing frames, and makes every event durable (the frame being filled sealed and
/// synced) within ``RecordingOptions/durableWithin`` of its writing, a second by default:
/// an app killed without warning loses about its last second. ``flush()`` returns once
/// everything sent before it is durable: call it when the app moves to the background,
/// where it may be suspended (its threads stopped) and then killed. If the
/// journal cannot take events (a full disk, a read-only location) they stay queued,
/// ``lastError`` says what went wrong (and `onError` is called), and the writer retries;
/// nothing is dropped silently. An event the journal cannot take at all (over 1 MiB
/// encoded, a state whose snapshot is over 4 MiB, a time beyond its range) stops the
/// recording there: the journal stays the session as it was up to the event before (the
/// events after it, recorded without it, would replay from another state than the app's),
/// ``lastError`` says which event and why, and ``flush()`` and ``close()`` throw it; the
/// state goes on being reduced.
///
/// A store the app releases without ``close()`` records what was queued and closes its
/// journal, on the writer's thread, a moment later, as ``close()`` does (a failure then is
/// told to `onError`).
///
/// A recording can also be shipped as it is written: given a forwarder in its
/// ``RecordingOptions`` (`SessionShipper` of RewindStream, for a NATS JetStream server),
/// the writer thread tells it of each durable frame, flush and the close, and
/// ``flush(waitingForServerWithin:)`` waits for the server's acknowledgement. The local
/// journal stays the source of truth: while the server is away, recording goes on.
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
  /// What forwards the journal while it is recorded, from the recording options.
  private let forwarder: (any JournalForwarder)?
  @usableFromInline let clock: @Sendable () -> UInt64
  private let onError: (@Sendable (RewindError) -> Void)?
  /// The key paths observers are told about, made once per store: a key path into a
  /// generic class is instantiated at run time each time its literal is evaluated, which
  /// costs microseconds, more than the rest of `send`.
  @usableFromInline let stateKeyPath: KeyPath<Store, D.State> & Sendable = \Store.state
  private let errorKeyPath: KeyPath<Store, RewindError?> & Sendable = \Store.lastError
  private let recordingKeyPath: KeyPath<Store, Bool> & Sendable = \Store.isRecording

  /// A store that keeps state in memory and records nothing.
  public init(domain: D) {
    self.domain = domain
    core = StoreCore(state: domain.initialState, queue: nil)
    writer = nil
    forwarder = nil
    clock = { 0 }
    onError = nil
  }

  /// A store that records its session into a new journal at `path`.
  ///
  /// - Parameters:
  ///   - domain: the session's domain; its settings go into the header.
  ///   - path: where the journal goes.
  ///   - session: the header's session information; by default a new id, now, and this
  ///     machine.
  ///   - clock: microseconds since the session started; by default ``MonotonicClock``
  ///     from now. Injected in tests for reproducible timestamps.
  ///   - options: snapshots, compression, frames and durability, and a forwarder that
  ///     ships the journal while it is recorded (``RecordingOptions/forwarder``): the
  ///     writer thread tells it of every durable frame, and
  ///     ``flush(waitingForServerWithin:)`` waits for it.
  ///   - replacingExisting: replace a file already at `path` (never a journal being
  ///     written); otherwise an existing file is an error.
  ///   - onError: called on a global queue when the journal fails.
  /// - Throws: `JournalError` if the journal cannot be created; ``RewindError``
  ///   (`invalidInput`) when the domain has more fields than a journal records
  ///   (``RecordedEffect/maximumFieldCount``, 62: see ``Domain/fields``).
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
    let queue = StoreCore<D>.Queue()
    core = StoreCore(state: domain.initialState, queue: queue)
    self.clock = clock ?? MonotonicClock.microsecondsFromNow()
    self.onError = onError
    forwarder = options.forwarder
    writer = StoreWriter(
      recorder: recorder, core: core, queue: queue, forwarder: options.forwarder,
      durableWithin: options.durableWithinMilliseconds, onError: onError)
    writer?.start(notifying: self)
  }

  /// A store that goes on recording into an existing journal, from its last state.
  ///
  /// - Parameters:
  ///   - path: the journal to continue.
  ///   - options: frames, compression and durability.
  ///   - clock: microseconds since the session started; by default the journal's last
  ///     time plus ``MonotonicClock`` from now.
  ///   - onError: called on a global queue when the journal fails.
  /// - Throws: what the initializer taking ``RecordingOptions`` throws.
  public convenience init(
    continuing path: String, options: JournalWriterOptions = .init(),
    clock: (@Sendable () -> UInt64)? = nil,
    onError: (@Sendable (RewindError) -> Void)? = nil
  ) throws {
    try self.init(
      continuing: path, options: RecordingOptions(journal: options), clock: clock,
      onError: onError)
  }

  /// A store that goes on recording into an existing journal (closed or not), from its
  /// last state, shipping it while it records when `options` has a forwarder.
  ///
  /// The forwarder is told of the journal as the store starts, so that what the server
  /// lacks (frames recorded while it was away, or before the journal was first shipped)
  /// is sent first, then each frame as it is sealed (`SessionShipper` of RewindStream
  /// resumes after the last frame the server holds, never sending one twice).
  ///
  /// - Parameters:
  ///   - path: the journal to continue.
  ///   - options: frames, compression and durability (`options.journal`), and the
  ///     forwarder (``RecordingOptions/forwarder``); the snapshot interval is the
  ///     journal's own, `options.snapshotInterval` is not used.
  ///   - clock: microseconds since the session started; by default the journal's last
  ///     time plus ``MonotonicClock`` from now.
  ///   - onError: called on a global queue when the journal fails.
  /// - Throws: `JournalError`: `wrongDomain` for a journal of another domain, or of
  ///   another schema version of this one (an older one is upgraded first, into a new
  ///   journal: ``Timeline/upgrade(to:options:progress:)``, or `rewind upgrade`); `locked`, `tornTail`, `corruptFrame` and the like for one that cannot be
  ///   appended to as it is (`rewind recover` first).
  public init(
    continuing path: String, options: RecordingOptions,
    clock: (@Sendable () -> UInt64)? = nil,
    onError: (@Sendable (RewindError) -> Void)? = nil
  ) throws {
    let recorder = try JournalRecorder<D>.continuing(at: path, options: options.journal)
    domain = recorder.domain
    let queue = StoreCore<D>.Queue()
    core = StoreCore(state: recorder.state, lastTime: recorder.lastTime, queue: queue)
    let resumeAt = recorder.lastTime
    let elapsed = MonotonicClock.microsecondsFromNow()
    self.clock = clock ?? { resumeAt + elapsed() }
    self.onError = onError
    forwarder = options.forwarder
    writer = StoreWriter(
      recorder: recorder, core: core, queue: queue, forwarder: options.forwarder,
      durableWithin: options.durableWithinMilliseconds, onError: onError)
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
    return core.lastError
  }

  /// Whether events sent now are recorded: false for a store that records nothing, once
  /// ``close()`` was called, and once the journal stopped taking events (``lastError``
  /// says why); the state is reduced either way. Observed as ``state`` is.
  public var isRecording: Bool {
    registrar.access(self, keyPath: recordingKeyPath)
    guard writer != nil else { return false }
    return core.shared.withLock { $0.queuing } && !core.stopped.load(ordering: .relaxed)
  }

  /// The number of events sent that are not known to be durable yet: not written to the
  /// journal, or written but not yet sealed and synced (see
  /// ``RecordingOptions/durableWithin`` and ``flush()``). 0 when nothing is recorded, and
  /// once the recording stopped (``isRecording`` false: the events not recorded are not
  /// pending, ``lastError`` says from which on).
  public var pendingCount: Int {
    guard let writer, let queue = core.queue else { return 0 }
    // The durable count first: it never passes the events pushed before it is read.
    let durable = writer.durableEvents
    let sent = queue.pushedCount
    return Int(sent &- min(durable, sent))
  }

  /// Reduces `event` into the state and, when recording, queues it for the journal.
  ///
  /// Safe from any thread; never waits for the writer or for I/O.
  /// - Returns: what the reducer did with the event.
  /// - Complexity: O(1) plus the reducer: inlined and specialised for the caller's
  ///   domain, it takes the state lock (which only senders and readers of ``state``
  ///   take), reads the clock and pushes onto the writer's queue, which
  ///   takes no lock and allocates nothing while the writer keeps up.
  @inlinable @discardableResult
  public func send(_ event: D.Event) -> Outcome<D.Rejection> {
    registrar.withMutation(of: self, keyPath: stateKeyPath) {
      core.shared.withLock { shared in
        let outcome = domain.reduce(&shared.state, event)
        if shared.queuing, let producer = core.producer, !core.stopped.load(ordering: .relaxed) {
          let time = max(clock(), shared.lastTime)
          shared.lastTime = time
          producer.push((time, event))
        }
        return outcome
      }
    }
  }

  /// Returns once every event sent before the call is durable in the journal.
  /// - Throws: ``RewindError`` `recording` if the journal cannot take them, or once the
  ///   store is closed (`the store's journal is closed`: ``isRecording`` tells first).
  public func flush() async throws {
    guard let writer, let queue = core.queue else { return }
    let target = queue.pushedCount
    try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Void, any Error>) in
      writer.requestFlush(upTo: target) { result in continuation.resume(with: result) }
    }
  }

  /// ``flush()`` for synchronous callers: blocks the calling thread until done. Do not
  /// call it on the main thread of an app.
  public func flushAndWait() throws {
    guard let writer, let queue = core.queue else { return }
    let target = queue.pushedCount
    let done = DispatchSemaphore(value: 0)
    let outcome = Mutex<Result<Void, any Error>>(.success(()))
    writer.requestFlush(upTo: target) { result in
      outcome.withLock { $0 = result }
      done.signal()
    }
    done.wait()
    try outcome.withLock { $0 }.get()
  }

  /// Returns once every event sent before the call is durable in the journal and, when
  /// the recording has a forwarder (``RecordingOptions/forwarder``), has reached the
  /// server too. The local flush comes first: when the server is away, the events are
  /// still durable locally and will be sent when it is back.
  /// - Parameter timeoutMilliseconds: how long to wait for the server.
  /// - Throws: ``RewindError`` `recording` if the journal cannot take the events, or if
  ///   the server has not acknowledged them within `timeoutMilliseconds` (saying why).
  public func flush(waitingForServerWithin timeoutMilliseconds: Int) async throws {
    try await flush()
    guard let forwarder else { return }
    try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Void, any Error>) in
      // The wait blocks a thread: never one of the cooperative pool's.
      DispatchQueue.global().async {
        continuation.resume(
          with: Result { try Self.wait(for: forwarder, timeoutMilliseconds) })
      }
    }
  }

  /// ``flush(waitingForServerWithin:)`` for synchronous callers: blocks the calling
  /// thread until done. Do not call it on the main thread of an app.
  public func flushAndWait(waitingForServerWithin timeoutMilliseconds: Int) throws {
    try flushAndWait()
    guard let forwarder else { return }
    try Self.wait(for: forwarder, timeoutMilliseconds)
  }

  private static func wait(for forwarder: any JournalForwarder, _ timeoutMilliseconds: Int)
    throws
  {
    do {
      try forwarder.waitUntilForwarded(timeoutMilliseconds: timeoutMilliseconds)
    } catch {
      throw RewindError(
        .recording,
        "the journal is durable locally but the server has not acknowledged it within \(timeoutMilliseconds) ms",
        cause: error)
    }
  }

  /// Writes every queued event, closes the journal, and stops recording; later events
  /// are reduced but not recorded. Blocks until done: the writer writes what is queued,
  /// the index and trailer, and syncs them, which may take milliseconds (more on a slow
  /// disk): an app calls it off the main thread (a `Task`), or as it terminates.
  /// - Throws: ``RewindError`` `recording` if events could not be written (saying how
  ///   many) or the journal could not be closed.
  public func close() throws {
    guard let writer else { return }
    registrar.withMutation(of: self, keyPath: recordingKeyPath) {
      core.shared.withLock { $0.queuing = false }
    }
    try writer.closeAndWait()
  }

  /// Tells observers that ``lastError`` changed (the writer has stored it already), and
  /// calls `onError`, on a global queue: never on the writer's thread, so that `onError`
  /// may call ``flushAndWait()`` or ``close()``, and so that the writer never takes the
  /// observation registrar's lock, which every send takes.
  func report(_ error: RewindError?) {
    DispatchQueue.global().async { [self] in
      registrar.withMutation(of: self, keyPath: errorKeyPath) {}
      // An error that stopped the recording stopped ``isRecording`` with it.
      if error != nil { registrar.withMutation(of: self, keyPath: recordingKeyPath) {} }
      if let error, let onError { onError(error) }
    }
  }
}

/// The part of a ``Store`` its writer thread shares: the state behind the senders' lock,
/// and the queue of events to record, which the writer reads without that lock. The
/// writer holds it strongly, so events sent just before a store is released are still
/// recorded.
@usableFromInline final class StoreCore<D: Domain>: Sendable {
  @usableFromInline typealias Queue = EventQueue<(time: UInt64, event: D.Event)>

  /// What senders change, under the lock.
  @usableFromInline struct Shared: Sendable {
    @usableFromInline var state: D.State
    @usableFromInline var lastTime: UInt64 = 0
    /// Whether sends queue events: recording, and not closed.
    @usableFromInline var queuing: Bool
  }

  @usableFromInline let shared: Mutex<Shared>
  /// The events on their way to the writer; nil when the store records nothing.
  let queue: Queue?
  /// The queue's producer end, pushed to only under the lock of ``shared``: a handle
  /// free of reference counting, so that a send never touches a cache line the
  /// writer's thread writes.
  @usableFromInline let producer: Queue.Producer?
  /// Set by the writer when the journal can take nothing more: sends stop queuing.
  @usableFromInline let stopped = Atomic<Bool>(false)
  private let error = Mutex<RewindError?>(nil)

  init(state: D.State, lastTime: UInt64 = 0, queue: Queue?) {
    shared = Mutex(Shared(state: state, lastTime: lastTime, queuing: queue != nil))
    self.queue = queue
    producer = queue?.producerHandle
  }

  /// Stops queuing: the journal can take no more events.
  func stopQueuing() {
    stopped.store(true, ordering: .relaxed)
  }

  /// The writer's latest error.
  var lastError: RewindError? { error.withLock { $0 } }

  func setError(_ newValue: RewindError?) {
    error.withLock { $0 = newValue }
  }
}
