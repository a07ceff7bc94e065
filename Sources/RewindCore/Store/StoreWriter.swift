import Dispatch
import Foundation
import Synchronization

/// The background thread of a recording ``Store``: appends queued events to the journal,
/// flushes on request, retries after failures, and closes the journal.
final class StoreWriter<D: Domain>: Sendable {
  /// The recorder, touched only by the writer thread once it has started.
  private final class Box: @unchecked Sendable {
    let recorder: JournalRecorder<D>
    init(_ recorder: JournalRecorder<D>) { self.recorder = recorder }
  }

  private struct Requests: Sendable {
    var flushes: [(target: UInt64, done: @Sendable (Result<Void, any Error>) -> Void)] = []
    var close: (@Sendable (Result<Void, any Error>) -> Void)?
    var stopped = false
  }

  private let box: Box
  private let core: StoreCore<D>
  private let requests = Mutex(Requests())
  private let wake = DispatchSemaphore(value: 0)
  /// How long the writer sleeps when idle, and after a failure before it retries.
  static var idleInterval: DispatchTimeInterval { .milliseconds(4) }
  static var retryInterval: DispatchTimeInterval { .milliseconds(500) }

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

  func requestFlush(
    upTo target: UInt64, done: @escaping @Sendable (Result<Void, any Error>) -> Void
  ) {
    let accepted = requests.withLock { requests -> Bool in
      guard !requests.stopped else { return false }
      requests.flushes.append((target, done))
      return true
    }
    if accepted {
      wake.signal()
    } else {
      done(.failure(RewindError(.recording, "the store's journal is closed")))
    }
  }

  func requestClose() {
    requests.withLock { requests in
      if requests.close == nil { requests.close = { _ in } }
    }
    wake.signal()
  }

  func closeAndWait() throws {
    let done = DispatchSemaphore(value: 0)
    let outcome = Mutex<Result<Void, any Error>>(.success(()))
    let accepted = requests.withLock { requests -> Bool in
      guard !requests.stopped else { return false }
      requests.close = { result in
        outcome.withLock { $0 = result }
        done.signal()
      }
      return true
    }
    guard accepted else { return }
    wake.signal()
    done.wait()
    try outcome.withLock { $0 }.get()
  }

  private func run(notifying weakStore: Store<D>?) {
    weak let store = weakStore
    let recorder = box.recorder
    let core = self.core
    var spare: [(time: UInt64, event: D.Event)] = []
    var failing = false
    while true {
      _ = wake.wait(timeout: .now() + (failing ? Self.retryInterval : Self.idleInterval))
      let (flushes, close) = requests.withLock { ($0.flushes, $0.close) }
      var batch = core.takeQueue(returning: spare)
      var failure: RewindError?
      var recorded = 0
      for (index, item) in batch.enumerated() {
        do {
          try recorder.record(item.event, at: item.time)
          recorded += 1
        } catch {
          core.requeue(batch[index...])
          failure = RewindError(
            .recording,
            "\(recorder.path): events from \(recorder.lastSequence + 1) on are not recorded yet (\(core.pendingCount) waiting; they are kept and retried)",
            cause: error)
          break
        }
      }
      batch.removeAll(keepingCapacity: true)
      spare = batch
      var durable = false
      if failure == nil && (!flushes.isEmpty || close != nil) {
        do {
          try recorder.flush()
          durable = true
        } catch {
          failure = RewindError(
            .recording, "\(recorder.path): flushing the journal failed",
            cause: error)
        }
      }
      core.noteRecorded(recorded, durable: durable)
      if (failure != nil || failing) && core.setError(failure) { store?.report(failure) }
      failing = failure != nil

      let progress = core.progress
      let answered = requests.withLock { requests in
        let (ready, waiting) = requests.flushes.partitioned { $0.target <= progress.durable }
        requests.flushes = waiting
        return ready
      }
      for flush in answered { flush.done(.success(())) }
      if let failure {
        let failed = requests.withLock { requests in
          defer { requests.flushes = [] }
          return requests.flushes
        }
        for flush in failed { flush.done(.failure(failure)) }
      }
      if let close {
        if failure == nil && progress.recorded == progress.sent {
          finish(recorder, close: close, error: nil)
        } else {
          finish(
            recorder, close: close,
            error: failure
              ?? RewindError(
                .recording, "\(progress.sent - progress.recorded) events could not be recorded"))
        }
        return
      }
    }
  }

  private func finish(
    _ recorder: JournalRecorder<D>, close: (@Sendable (Result<Void, any Error>) -> Void)?,
    error: RewindError?
  ) {
    let flushes = requests.withLock { requests in
      requests.stopped = true
      defer { requests.flushes = [] }
      return requests.flushes
    }
    var result: Result<Void, any Error> = .success(())
    do {
      try recorder.close()
    } catch {
      result = .failure(
        RewindError(
          .recording, "\(recorder.path): closing the journal failed",
          cause: error))
    }
    if let error { result = .failure(error) }
    for flush in flushes { flush.done(result) }
    close?(result)
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
