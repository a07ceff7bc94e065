import Dispatch
import Foundation
import RewindJournal
import Synchronization

/// The background thread of a recording ``Store``: appends queued events to the journal,
/// flushes on request, retries after failures, and closes the journal.
///
/// Failures: an I/O error (a full disk) keeps the events that could not be written and
/// retries them; an event the journal refuses (a time beyond the journal's range) is
/// dropped and reported by its sequence number; a journal that can take nothing more (its
/// `fsync` failed) stops recording, and every later flush and the close say so.
final class StoreWriter<D: Domain>: Sendable {
  /// The recorder, touched only by the writer thread once it has started.
  private final class Box: @unchecked Sendable {
    let recorder: JournalRecorder<D>
    init(_ recorder: JournalRecorder<D>) { self.recorder = recorder }
  }

  typealias Completion = @Sendable (Result<Void, any Error>) -> Void

  private struct Requests: Sendable {
    var flushes: [(target: UInt64, done: Completion)] = []
    /// Waiting for the close; the writer closes once any close was asked for.
    var closes: [Completion] = []
    var closeRequested = false
    /// Set once the journal is closed; the result every later request gets.
    var finished: Result<Void, any Error>?
  }

  private let box: Box
  private let core: StoreCore<D>
  private let requests = Mutex(Requests())
  private let wake = DispatchSemaphore(value: 0)
  /// How long the writer sleeps while events keep coming, how long at most when the
  /// store is idle (it backs off in between), and after a failure before it retries.
  static var busyInterval: UInt64 { 4 }
  static var idleInterval: UInt64 { 250 }
  static var retryInterval: UInt64 { 500 }

  init(recorder: JournalRecorder<D>, core: StoreCore<D>) {
    box = Box(recorder)
    self.core = core
  }

  /// Starts the thread; it tells `store` of errors while the store exists.
  func start(notifying store: Store<D>) {
    // The thread holds the store weakly: when the app releases it, the writer records
    // what was queued and closes the journal.
    let thread = Thread { [weak store, self] in self.run(notifying: store) }
    thread.name = "Rewind journal writer"
    thread.start()
  }

  func requestFlush(upTo target: UInt64, done: @escaping Completion) {
    let finished = requests.withLock { requests -> Result<Void, any Error>? in
      if let finished = requests.finished { return finished }
      requests.flushes.append((target, done))
      return nil
    }
    if let finished {
      done(finished.flatMap { .failure(RewindError(.recording, "the store's journal is closed")) })
    } else {
      wake.signal()
    }
  }

  /// Asks the writer to record what is queued and close, without waiting.
  func requestClose() {
    requests.withLock { $0.closeRequested = true }
    wake.signal()
  }

  /// Asks the writer to close and waits; every caller gets the same result.
  func closeAndWait() throws {
    let done = DispatchSemaphore(value: 0)
    let outcome = Mutex<Result<Void, any Error>>(.success(()))
    let finished = requests.withLock { requests -> Result<Void, any Error>? in
      if let finished = requests.finished { return finished }
      requests.closeRequested = true
      requests.closes.append { result in
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

  private func run(notifying weakStore: Store<D>?) {
    weak let store = weakStore
    let recorder = box.recorder
    var backlog: [(time: UInt64, event: D.Event)] = []
    var spare: [(time: UInt64, event: D.Event)] = []
    var retrying = false
    var interval = Self.busyInterval
    var stopped: RewindError?
    while true {
      let timeout = retrying ? Self.retryInterval : interval
      _ = wake.wait(timeout: .now() + .milliseconds(Int(timeout)))
      let (flushes, closing) = requests.withLock { ($0.flushes, $0.closeRequested) }
      var taken = core.takeQueue(returning: spare)
      // Back off while idle, so an idle store costs a wake-up a quarter second.
      interval = taken.isEmpty ? min(interval * 2, Self.idleInterval) : Self.busyInterval
      if stopped == nil {
        backlog.append(contentsOf: taken)
      }
      taken.removeAll(keepingCapacity: true)
      spare = taken

      var failure: RewindError?
      var recorded = 0
      var dropped: [UInt64] = []
      if stopped == nil {
        var index = 0
        while index < backlog.count {
          let item = backlog[index]
          do {
            try recorder.record(item.event, at: item.time)
            recorded += 1
          } catch let error as JournalError where error.code == .invalidArgument {
            // The journal refuses this event; it will refuse it every time.
            dropped.append(recorder.lastSequence + 1 + UInt64(dropped.count))
            failure = RewindError(
              .recording,
              "\(recorder.path): an event could not be recorded and was dropped (\(recorder.domain.describe(item.event)))",
              cause: error)
          } catch let error as JournalError where error.code == .closed {
            stopped = RewindError(
              .recording,
              "\(recorder.path): recording stopped: the journal can take no more events; events from \(recorder.lastSequence + 1) on (\(backlog.count - index) so far) are not recorded",
              cause: error)
            failure = stopped
            core.stop()
            break
          } catch {
            failure = RewindError(
              .recording,
              "\(recorder.path): events from \(recorder.lastSequence + 1) on are not recorded yet (\(backlog.count - index) waiting; they are kept and retried)",
              cause: error)
            break
          }
          index += 1
        }
        backlog.removeFirst(index)
      }
      core.setBacklog(stopped == nil ? backlog.count : 0)
      let transient = stopped == nil && !backlog.isEmpty
      var durable = false
      if stopped == nil && !transient && (!flushes.isEmpty || closing) {
        do {
          try recorder.flush()
          durable = true
        } catch {
          failure = RewindError(
            .recording, "\(recorder.path): flushing the journal failed", cause: error)
        }
      }
      core.noteRecorded(recorded + dropped.count, durable: durable)
      if (failure != nil || retrying) && core.setError(failure) { store?.report(failure) }
      retrying = transient || (failure != nil && stopped == nil && dropped.isEmpty)

      // Answer the flushes that are done, and fail the others if writing failed.
      let progress = core.progress
      let blocking = stopped ?? failure.flatMap { dropped.isEmpty ? $0 : nil }
      let (answered, failed) = requests.withLock { requests in
        let (ready, waiting) = requests.flushes.partitioned { $0.target <= progress.durable }
        requests.flushes = blocking == nil ? waiting : []
        return (ready, blocking == nil ? [] : waiting)
      }
      for flush in answered { flush.done(.success(())) }
      for flush in failed { flush.done(.failure(blocking!)) }

      if closing {
        let unrecorded = progress.sent - progress.recorded
        let error =
          stopped
          ?? (unrecorded == 0
            ? nil
            : failure
              ?? RewindError(.recording, "\(unrecorded) events could not be recorded"))
        finish(recorder, error: error)
        return
      }
    }
  }

  private func finish(_ recorder: JournalRecorder<D>, error: RewindError?) {
    var result: Result<Void, any Error> = .success(())
    do {
      try recorder.close()
    } catch {
      result = .failure(
        RewindError(.recording, "\(recorder.path): closing the journal failed", cause: error))
    }
    if let error { result = .failure(error) }
    let (flushes, closes) = requests.withLock { requests in
      requests.finished = result
      defer {
        requests.flushes = []
        requests.closes = []
      }
      return (requests.flushes, requests.closes)
    }
    for flush in flushes { flush.done(result) }
    for close in closes { close(result) }
  }
}

extension Array {
  /// The elements that satisfy `predicate` and those that do not, in order.
  func partitioned(by predicate: (Element) -> Bool) -> ([Element], [Element]) {
    var yes: [Element] = []
    var no: [Element] = []
    for element in self {
      if predicate(element) { yes.append(element) } else { no.append(element) }
    }
    return (yes, no)
  }
}
