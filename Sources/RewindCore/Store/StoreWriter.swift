import Dispatch
import RewindJournal
import Synchronization

/// The background thread of a recording ``Store``: runs the rounds of its
/// ``StoreWriterMachine`` (which holds the rules: writing, retrying, dropping, stopping,
/// closing), and carries out what each round says.
///
/// The thread never takes the store's state lock: it reads events from the store's
/// ``EventQueue`` and tells the store of errors through their own lock and a global
/// queue, so that a send never waits for it.
final class StoreWriter<D: Domain>: Sendable {
  typealias Completion = @Sendable (Result<Void, any Error>) -> Void
  typealias Machine = StoreWriterMachine<JournalRecorder<D>, Completion>

  /// The machine, touched only by the writer thread once it has started.
  private final class Box: @unchecked Sendable {
    var machine: Machine
    init(_ machine: Machine) { self.machine = machine }
  }

  private struct Requests {
    var pending = Machine.Requests()
    /// Set once the journal is closed; the result every later request gets.
    var finished: Result<Void, RewindError>?
  }

  private let box: Box
  private let core: StoreCore<D>
  private let requests = Mutex(Requests())
  private let wake = DispatchSemaphore(value: 0)
  /// Told of durable frames, on this thread; nil when nothing forwards the journal.
  private let forwarder: (any JournalForwarder)?
  /// The store's `onError`, called here once the store is gone (a store released without
  /// `close()` whose journal then fails); the store calls it while it exists.
  private let onError: (@Sendable (RewindError) -> Void)?

  /// The events made durable, as the machine last counted them, or as the frames sealed
  /// and synced since hold them (``Store/pendingCount``).
  private let durableCount = Atomic<UInt64>(0)
  /// The journal's last event when the store started (a journal continued has some).
  private let startSequence: UInt64

  init(
    recorder: JournalRecorder<D>, core: StoreCore<D>, queue: StoreCore<D>.Queue,
    forwarder: (any JournalForwarder)? = nil, durableWithin: UInt64? = nil,
    onError: (@Sendable (RewindError) -> Void)? = nil
  ) {
    box = Box(Machine(journal: recorder, queue: queue, durableWithin: durableWithin))
    startSequence = recorder.lastSequence
    self.core = core
    self.forwarder = forwarder
    self.onError = onError
  }

  /// The store the thread tells of errors, held weakly: the thread runs as long as the
  /// journal is open, and must not keep the store alive (a store passed to `run` as an
  /// argument was held for the thread's whole life, so that a store released without
  /// `close()` was never freed and its journal never closed).
  private final class WeakStore: Sendable {
    weak let store: Store<D>?
    init(_ store: Store<D>) { self.store = store }
  }

  /// Starts the thread; it tells `store` of errors while the store exists.
  func start(notifying store: Store<D>) {
    // The thread holds the store weakly: when the app releases it, the writer records
    // what was queued and closes the journal.
    let weakStore = WeakStore(store)
    DetachedThread.start { [self] in
      self.run(notifying: weakStore)
    }
  }

  /// The events sent that are durable, as far as the writer knows.
  var durableEvents: UInt64 { durableCount.load(ordering: .acquiring) }

  func requestFlush(upTo target: UInt64, done: @escaping Completion) {
    let finished = requests.withLock { requests -> Result<Void, RewindError>? in
      if let finished = requests.finished { return finished }
      requests.pending.flushes.append((target, done))
      return nil
    }
    if let finished {
      done(
        finished.mapError { $0 as any Error }.flatMap {
          .failure(RewindError(.recording, "the store's journal is closed"))
        })
    } else {
      wake.signal()
    }
  }

  /// Asks the writer to record what is queued and close, without waiting.
  func requestClose() {
    requests.withLock { $0.pending.close = true }
    wake.signal()
  }

  /// Asks the writer to close and waits; every caller gets the same result.
  func closeAndWait() throws {
    let done = DispatchSemaphore(value: 0)
    let outcome = Mutex<Result<Void, any Error>>(.success(()))
    let finished = requests.withLock { requests -> Result<Void, RewindError>? in
      if let finished = requests.finished { return finished }
      requests.pending.close = true
      requests.pending.closers.append { result in
        outcome.withLock { $0 = result }
        done.signal()
      }
      return nil
    }
    if let finished { return try finished.get() }
    wake.signal()
    done.wait()
    try outcome.withLock { $0 }.get()
  }

  private func run(notifying weakStore: WeakStore) {
    // What the forwarder was last told of: frames sealed, events flushed.
    var told = (frames: 0, durable: UInt64(0))
    forwarder?.journalAdvanced(at: box.machine.journal.path, closed: false)
    while true {
      _ = wake.wait(timeout: .now() + .milliseconds(Int(box.machine.pause)))
      let asked = requests.withLock { requests in
        defer { requests.pending = Machine.Requests() }
        return requests.pending
      }
      let round = box.machine.round(asked)
      // A frame sealed and synced makes its events durable without a flush.
      let sealed =
        box.machine.journal.lastDurableSealedSequence.map {
          $0 > startSequence ? $0 - startSequence : 0
        } ?? 0
      durableCount.store(max(box.machine.durable, sealed), ordering: .releasing)
      if round.stopQueuing { core.stopQueuing() }
      if let change = round.error {
        let error: RewindError?
        switch change {
        case .raised(let raised): error = raised
        case .cleared: error = nil
        }
        core.setError(error)
        // Loaded for this call only: the store is not kept alive past it.
        if let store = weakStore.store {
          store.report(error)
        } else if let error, let onError {
          DispatchQueue.global().async { onError(error) }
        }
      }
      // The forwarder hears of it before any waiter is answered: a flush or close that
      // returns has been told of.
      if let forwarder {
        let path = box.machine.journal.path
        if round.finished != nil {
          forwarder.journalAdvanced(at: path, closed: true)
        } else {
          let sealed = box.machine.journal.sealedFrames
          let flushed = box.machine.durable > told.durable
          if flushed || (sealed.durableWhenSealed && sealed.count > told.frames) {
            told = (sealed.count, box.machine.durable)
            forwarder.journalAdvanced(at: path, closed: false)
          }
        }
      }
      for answer in round.answers { answer.waiter(answer.result.mapError { $0 as any Error }) }
      if let result = round.finished {
        finish(result)
        return
      }
      box.machine.queue.stockSpares()
    }
  }

  /// Publishes the close's result, and answers the requests made since the last round.
  private func finish(_ result: Result<Void, RewindError>) {
    let late = requests.withLock { requests in
      requests.finished = result
      defer { requests.pending = Machine.Requests() }
      return requests.pending
    }
    let answer = result.mapError { $0 as any Error }
    for flush in late.flushes { flush.waiter(answer) }
    for closer in late.closers { closer(answer) }
  }
}
