import Dispatch
import Synchronization

/// Work on items `0..<count` spread over a few threads, its results in the items' order:
/// the chunks of ``Deflate/compress(_:chunkSize:jobs:)``.
enum ChunkThreads {
  /// `work` of each item `0..<count`, on up to `jobs` threads (the calling thread one of
  /// them), in the items' order whatever thread did each one.
  ///
  /// The threads take the items in order as they finish the ones before (a shared
  /// counter: none waits while items are left). With one job, or one item, the items are
  /// done on the calling thread alone, one after the other.
  /// - Complexity: memory: every item's result until all are done.
  static func map<Result: Sendable>(
    _ count: Int, jobs: Int, _ work: @escaping @Sendable (Int) -> Result
  ) -> [Result] {
    let workers = min(max(jobs, 1), count)
    guard workers > 1 else { return (0..<count).map(work) }
    let shared = SharedItems<Result>(count: count)
    let run: @Sendable () -> Void = {
      while true {
        let index = shared.next.add(1, ordering: .relaxed).oldValue
        guard index < count else { return }
        let result = work(index)
        shared.results.withLock { $0[index] = result }
      }
    }
    let group = DispatchGroup()
    for worker in 1..<workers {
      // A queue of its own a thread, as the scans' parts have.
      DispatchQueue(label: "rewind.chunk.\(worker)").async(group: group, execute: run)
    }
    run()
    group.wait()
    return shared.results.withLock { $0.map { $0! } }
  }
}

/// What the threads of ``ChunkThreads/map(_:jobs:_:)`` share: the next item to take and
/// the results.
private final class SharedItems<Result: Sendable>: Sendable {
  let next = Atomic<Int>(0)
  let results: Mutex<[Result?]>

  init(count: Int) { results = Mutex(Array(repeating: nil, count: count)) }
}
