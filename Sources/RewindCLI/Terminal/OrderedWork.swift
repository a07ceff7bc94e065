import Dispatch
import RewindCore
import Synchronization

extension Context {
  /// Runs `work` for the items `0..<count` on up to `workers` threads and returns the
  /// results in the items' order: what several journals' scans print is the same, byte
  /// for byte, whatever the number of threads.
  ///
  /// Each item gets a context of its own, styled as this one, whose standard output and
  /// error are kept (neither is a terminal, so it draws no progress bar): its standard
  /// error is written to this context's in the items' order, each as soon as the items
  /// before it are done; its standard output is left to the caller, which prints the
  /// results. One progress bar, labelled `label`, counts what the items report through
  /// their ``ItemProgress``.
  /// - Parameters:
  ///   - work: one item's work, called on a thread of its own with the item's index, its
  ///     context and its progress.
  /// - Complexity: memory: what the running items hold, and the standard error of the
  ///   items that are done before an earlier one is.
  func inOrder<Item: Sendable>(
    _ count: Int, workers: Int, label: String,
    _ work: @escaping @Sendable (Int, Context, ItemProgress) -> Item
  ) -> [Item] {
    guard count > 0 else { return [] }
    // Each item's context is made here and handed to the thread that runs the item,
    // which alone uses it until the item's result is stored.
    let contexts = (0..<count).map { _ in
      ContextHandover(
        Context(
          stdout: .keeping(like: stdout), stderr: .keeping(like: stderr),
          environment: environment, currentDirectory: currentDirectory,
          clock: MonotonicClock.now))
    }
    for handover in contexts { handover.context.fileSystem = fileSystem }
    let shared = OrderedWork<Item>(count: count)
    let group = DispatchGroup()
    for worker in 0..<min(max(workers, 1), count) {
      DispatchQueue(label: "rewind.worker.\(worker)").async(group: group) {
        while true {
          let index = shared.next.add(1, ordering: .relaxed).oldValue
          guard index < count else { return }
          let progress = ItemProgress(shared.counts)
          let item = work(index, contexts[index].context, progress)
          progress.end()
          shared.results.withLock { $0[index] = item }
        }
      }
    }
    let bar = progress(label)
    var written = 0
    func writeDone() {
      let done = shared.results.withLock { results in
        results[written...].prefix { $0 != nil }.count
      }
      for index in written..<(written + done) {
        stderr.write(kept: contexts[index].context.stderr)
      }
      written += done
    }
    while group.wait(timeout: .now() + .milliseconds(20)) == .timedOut {
      bar.update(
        Int(shared.counts.done.load(ordering: .relaxed)), of: shared.counts.estimate(count))
      writeDone()
    }
    bar.finish()
    writeDone()
    return shared.results.withLock { $0.map { $0! } }
  }
}

/// How much of its work one item of ``Context/inOrder(_:workers:label:_:)`` did: added
/// to the counts its progress bar shows.
final class ItemProgress: Sendable {
  private let counts: WorkCounts
  private let reported = Atomic<UInt64>(0)
  private let sized = Atomic<Bool>(false)

  fileprivate init(_ counts: WorkCounts) { self.counts = counts }

  /// The item has `total` units of work (events to replay, say).
  func size(_ total: UInt64) {
    guard !sized.exchange(true, ordering: .relaxed) else { return }
    counts.total.add(total, ordering: .relaxed)
    counts.sized.add(1, ordering: .relaxed)
  }

  /// The item has done `done` units of its work so far.
  func update(_ done: UInt64) {
    let before = reported.exchange(done, ordering: .relaxed)
    counts.done.add(done &- before, ordering: .relaxed)
  }

  /// The item is done: one that never said its size (it failed first) counts as empty.
  fileprivate func end() { size(0) }
}

/// The units of work of all the items: done, and the total of those whose size is known.
private final class WorkCounts: Sendable {
  let done = Atomic<UInt64>(0)
  let total = Atomic<UInt64>(0)
  let sized = Atomic<Int>(0)

  /// The total of all `count` items: those not sized yet are taken as the mean of the
  /// others.
  func estimate(_ count: Int) -> Int {
    let sized = sized.load(ordering: .relaxed)
    let total = Int(clamping: total.load(ordering: .relaxed))
    guard sized > 0 else { return 0 }
    return sized >= count ? total : Int(Double(total) / Double(sized) * Double(count))
  }
}

/// What the threads of ``Context/inOrder(_:workers:label:_:)`` share.
private final class OrderedWork<Item: Sendable>: Sendable {
  let next = Atomic<Int>(0)
  let counts = WorkCounts()
  let results: Mutex<[Item?]>

  init(count: Int) { results = Mutex(Array(repeating: nil, count: count)) }
}

/// A context made on one thread and used by the one it is handed to, then read again
/// on the first after that thread stored its result (under the results' lock).
private struct ContextHandover: @unchecked Sendable {
  let context: Context
  init(_ context: Context) { self.context = context }
}
