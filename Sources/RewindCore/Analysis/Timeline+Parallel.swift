import Dispatch
import RewindJournal
import Synchronization

extension Timeline {
  /// The parts `jobs` threads replay, in order, each from the state after its lower
  /// bound (the first from the state after `range`'s lower bound; by default the initial
  /// state) to its upper bound, together the whole of `range` (by default the session);
  /// nil when the journal is scanned in one pass: one job, a range too short to split,
  /// or a journal with damage or lost events (whose errors and warnings one pass gives in
  /// its own order).
  package func parallelRanges(
    jobs: Int, in range: ClosedRange<UInt64>? = nil
  ) -> [ClosedRange<UInt64>]? {
    let condition = reader.condition
    guard jobs > 1, condition.isIntact, condition.lostRanges.isEmpty else { return nil }
    let range = range ?? 0...lastSequence
    let length = range.upperBound - range.lowerBound
    let count = min(UInt64(jobs), length / max(minimumEventsPerPart, 1))
    guard count > 1 else { return nil }
    var ranges: [ClosedRange<UInt64>] = []
    var start = range.lowerBound
    for part in 1...count {
      let end = part == count ? range.upperBound : range.lowerBound + length / count * part
      ranges.append(start...end)
      start = end
    }
    return ranges
  }

  /// Runs `work` on each of ``parallelRanges(jobs:in:)`` on its own thread, each with a
  /// timeline of its own over the same frames, and returns the parts' results in order;
  /// nil (nothing run) when the journal is scanned in one pass.
  ///
  /// - Parameters:
  ///   - progress: called on this thread, every few milliseconds, with the events
  ///     replayed by all the parts together.
  ///   - work: scans one range; called with the part's timeline, its range and a
  ///     progress function taking the events it replayed so far.
  /// - Throws: the error of the first part (in order) that failed, after every part
  ///   ended.
  /// - Complexity: the slowest part; memory: one frame and one state per part.
  package func inParallel<Part: Sendable>(
    jobs: Int, in range: ClosedRange<UInt64>? = nil, progress: (UInt64) -> Void,
    _ work:
      @escaping @Sendable (Timeline<D>, ClosedRange<UInt64>, (UInt64) -> Void) throws ->
      Part
  ) throws -> [Part]? {
    guard let ranges = parallelRanges(jobs: jobs, in: range) else { return nil }
    // Each part's timeline is opened here and handed to its thread, which alone uses it.
    // The parts share this timeline's domain, so that the events they hand back are this
    // one's (an id the catalog lacks is interned in one table).
    let timelines = try ranges.map { _ in
      Handover(Timeline<D>(reader: try JournalReader(sharing: reader), sharing: self))
    }
    let shared = ParallelScan<Part>(count: ranges.count)
    let group = DispatchGroup()
    for (index, range) in ranges.enumerated() {
      let timeline = timelines[index]
      DispatchQueue.global().async(group: group) {
        var reported: UInt64 = 0
        let result = Result { () throws -> Part in
          try work(timeline.value, range) { done in
            shared.done.add(done &- reported, ordering: .relaxed)
            reported = done
          }
        }
        shared.results.withLock { $0[index] = result }
      }
    }
    while group.wait(timeout: .now() + .milliseconds(20)) == .timedOut {
      progress(shared.done.load(ordering: .relaxed))
    }
    return try shared.results.withLock { results in
      try results.map { try $0!.get() }
    }
  }
}

/// What the threads of a parallel scan share: the events replayed and the parts' results.
private final class ParallelScan<Part: Sendable>: Sendable {
  let done = Atomic<UInt64>(0)
  let results: Mutex<[Result<Part, any Error>?]>

  init(count: Int) { results = Mutex(Array(repeating: nil, count: count)) }
}

/// A value made on one thread and used only by the one it is handed to.
private struct Handover<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
