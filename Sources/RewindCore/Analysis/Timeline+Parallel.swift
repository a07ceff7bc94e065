import Dispatch
import RewindJournal
import Synchronization

extension Timeline {
  /// The parts a parallel scan over `jobs` threads replays, in order, each from the state
  /// after its lower bound (the first from the state after `range`'s lower bound; by
  /// default the initial state) to its upper bound, together the whole of `range` (by
  /// default the session); nil when the journal is scanned in one pass: one job, a range
  /// of fewer than eight times ``minimumEventsPerPart`` events, or a journal with damage
  /// or lost events (whose errors and warnings one pass gives in its own order).
  ///
  /// There are more parts than jobs, each about a share of what is left after the ones
  /// before it (a quarter for two jobs), at least ``minimumEventsPerPart`` and at most
  /// `longest` events: the threads take them in order as they finish the ones before, so
  /// that the long parts go first and the short ones at the end keep every thread busy
  /// until the scan ends, whatever slows one of them.
  ///
  /// A part ends at a frame's last event whenever one lies within those limits (the one
  /// nearest its share): the part after it then starts from the snapshot at the start
  /// of the next frame (``startsAtNextFrame``), decompressing only the frames it scans.
  package func parallelRanges(
    jobs: Int, in range: ClosedRange<UInt64>? = nil, longest: UInt64 = .max
  ) -> [ClosedRange<UInt64>]? {
    let condition = reader.condition
    guard jobs > 1, condition.isIntact, condition.lostRanges.isEmpty else { return nil }
    return partRanges(of: range ?? 0...lastSequence, jobs: jobs, longest: longest)
  }

  /// The parts of `range` for ``parallelRanges(jobs:in:longest:)``; with
  /// `atFrameEndsOnly`, every bound inside the range is a frame's last event (a part may
  /// then be longer than `longest`, or take the rest when no frame ends in its limits).
  /// Nil for a range of fewer than eight times ``minimumEventsPerPart`` events.
  /// - Complexity: O(parts + frames).
  package func partRanges(
    of range: ClosedRange<UInt64>, jobs: Int, longest: UInt64 = .max,
    atFrameEndsOnly: Bool = false
  ) -> [ClosedRange<UInt64>]? {
    let minimum = max(minimumEventsPerPart, 1)
    guard jobs > 1, (range.upperBound - range.lowerBound) / minimum >= 8 else { return nil }
    let longest = max(longest, minimum)
    let frames = reader.frames
    var ranges: [ClosedRange<UInt64>] = []
    var start = range.lowerBound
    // The first frame whose last event is at or after the part's share.
    var frame = 0
    while start < range.upperBound {
      let left = range.upperBound - start
      let size = min(max(left / UInt64(2 * jobs), minimum), longest)
      // No last part shorter than the minimum: the one before takes it.
      guard left - size >= minimum else {
        ranges.append(start...range.upperBound)
        break
      }
      let share = start + size
      // The limits of this part's end: the part at least the minimum and at most the
      // longest, the rest at least the minimum (the share lies within them).
      let limits = (start + minimum)...(start + min(longest, range.upperBound - minimum - start))
      while frame < frames.count, frames[frame].lastSequence < share { frame += 1 }
      let after = frame < frames.count ? frames[frame].lastSequence : nil
      let before = frame > 0 ? frames[frame - 1].lastSequence : nil
      var end: UInt64?
      for candidate in [after, before] {
        guard let candidate, limits.contains(candidate) else { continue }
        if let chosen = end, chosen - share <= share - candidate { continue }
        end = candidate
      }
      if end == nil, atFrameEndsOnly {
        // No frame ends within the limits: the first frame end after them, or the rest.
        guard let after, after < range.upperBound, range.upperBound - after >= minimum else {
          ranges.append(start...range.upperBound)
          break
        }
        end = after
      }
      let bound = end ?? share
      ranges.append(start...bound)
      start = bound
    }
    return ranges.count > 1 ? ranges : nil
  }

  /// Runs `work` on each of ``parallelRanges(jobs:in:longest:)`` on `jobs` threads, each
  /// with a timeline of its own over the same frames, and returns the parts' results in
  /// order; nil (nothing run) when the journal is scanned in one pass.
  ///
  /// - Parameters:
  ///   - progress: called on this thread, every few milliseconds, with the events
  ///     replayed by all the parts together.
  ///   - work: scans one range; called with the thread's timeline, the part's range and
  ///     a progress function taking the events it replayed so far.
  /// - Throws: the error of the first part (in order) that failed, after every thread
  ///   ended.
  /// - Complexity: the events divided among the jobs; memory: one frame and one state per
  ///   job, and the parts' results.
  package func inParallel<Part: Sendable>(
    jobs: Int, in range: ClosedRange<UInt64>? = nil, progress: (UInt64) -> Void,
    _ work:
      @escaping @Sendable (Timeline<D>, ClosedRange<UInt64>, (UInt64) -> Void) throws ->
      Part
  ) throws -> [Part]? {
    guard let ranges = parallelRanges(jobs: jobs, in: range) else { return nil }
    var parts: [Part] = []
    parts.reserveCapacity(ranges.count)
    try forEachPart(ranges, jobs: jobs, ahead: ranges.count, progress: progress, work) {
      parts.append($0)
    }
    return parts
  }

  /// Runs `work` on each of `ranges` on `jobs` threads, which take the parts in order as
  /// they finish the ones before (a shared counter: no thread waits while parts are left),
  /// each thread with a timeline of its own over the same frames, and hands each part's
  /// result to `body` on this thread, in order, as soon as the parts before it are done.
  ///
  /// - Parameters:
  ///   - ahead: the most parts started from the first one not yet handed to `body` on
  ///     (that one included): the results held at once (memory), however long the scan.
  ///   - progress: called on this thread, every few milliseconds, with the events
  ///     replayed by all the parts together.
  ///   - work: scans one range; called with the thread's timeline, the part's range and
  ///     a progress function taking the events it replayed so far.
  ///   - body: called on this thread with each part's result, in order.
  /// - Throws: the error of the first part (in order) that failed, or that `body`
  ///   threw, after every thread ended; the parts after it are not handed to `body` (nor
  ///   started, once it is known).
  package func forEachPart<Part: Sendable>(
    _ ranges: [ClosedRange<UInt64>], jobs: Int, ahead: Int, progress: (UInt64) -> Void,
    _ work:
      @escaping @Sendable (Timeline<D>, ClosedRange<UInt64>, (UInt64) -> Void) throws ->
      Part,
    _ body: (Part) throws -> Void
  ) throws {
    let workers = min(max(jobs, 1), ranges.count)
    // Each thread's timeline is opened here and handed to its thread, which alone uses it.
    // The timelines share this one's domain, so that the events they hand back are this
    // one's (an id the catalog lacks is interned in one table).
    let timelines = try (0..<workers).map { _ in
      Handover(Timeline<D>(reader: try JournalReader(sharing: reader), sharing: self))
    }
    let shared = ParallelScan<Part>(count: ranges.count, ahead: max(ahead, 1))
    let cores = sharedCores
    let group = DispatchGroup()
    for worker in 0..<workers {
      let timeline = timelines[worker]
      // A queue of its own a thread: a thread waiting for room must not hold back another.
      DispatchQueue(label: "rewind.part.\(worker)").async(group: group) {
        while let index = shared.take() {
          // The first part starts where the range does, as one pass; the others at the
          // frame ends the parts were cut at.
          timeline.value.startsAtNextFrame = index > 0
          cores?.acquire()
          defer { cores?.release() }
          var reported: UInt64 = 0
          let result = Result { () throws -> Part in
            try work(timeline.value, ranges[index]) { done in
              shared.done.add(done &- reported, ordering: .relaxed)
              reported = done
            }
          }
          shared.finish(index, result)
        }
      }
    }
    // The parts handed on so far; the first error, which stops the threads.
    var next = 0
    var failure: (any Error)?
    while next < ranges.count, failure == nil {
      let waited = shared.finished.wait(timeout: .now() + .milliseconds(20))
      progress(shared.done.load(ordering: .relaxed))
      guard waited == .success else { continue }
      while next < ranges.count, failure == nil, let result = shared.result(next) {
        do {
          try body(try result.get())
        } catch {
          failure = error
          shared.stop()
        }
        next += 1
        shared.handedOn(next)
      }
    }
    group.wait()
    if let failure { throw failure }
  }
}

/// Cores that the parallel scans of several timelines share: each part holds one while
/// it runs (``Timeline/sharedCores``).
package final class SharedCores: Sendable {
  private let free: DispatchSemaphore

  /// `count` cores, at least one.
  package init(_ count: Int) { free = DispatchSemaphore(value: max(count, 1)) }

  func acquire() { free.wait() }
  func release() { free.signal() }
}

/// What the threads of a parallel scan share: the next part to take, the events
/// replayed and the results not yet handed on.
private final class ParallelScan<Part: Sendable>: Sendable {
  let done = Atomic<UInt64>(0)
  /// Signalled once a part is done.
  let finished = DispatchSemaphore(value: 0)
  private let count: Int
  private let ahead: Int
  private let state: Mutex<State>
  /// Signalled when a part is handed on, or the scan stops: a thread waiting for room
  /// may go on.
  private let room = DispatchSemaphore(value: 0)

  private struct State {
    var next = 0
    var handedOn = 0
    var waiting = 0
    var stopped = false
    var results: [Result<Part, any Error>?]
  }

  init(count: Int, ahead: Int) {
    self.count = count
    self.ahead = ahead
    state = Mutex(State(results: Array(repeating: nil, count: count)))
  }

  /// The next part to run, once fewer than `ahead` parts from the first not handed on
  /// (that one included) have started; nil when none is left or the scan stopped.
  func take() -> Int? {
    while true {
      let taken: Int?? = state.withLock { state in
        guard !state.stopped, state.next < count else { return .some(nil) }
        guard state.next < state.handedOn + ahead else {
          state.waiting += 1
          return nil
        }
        state.next += 1
        return state.next - 1
      }
      if let taken { return taken }
      room.wait()
    }
  }

  func finish(_ index: Int, _ result: Result<Part, any Error>) {
    state.withLock { $0.results[index] = result }
    finished.signal()
  }

  /// The result of part `index` when it is done (and forgets it).
  func result(_ index: Int) -> Result<Part, any Error>? {
    state.withLock { state in
      defer { state.results[index] = nil }
      return state.results[index]
    }
  }

  /// The parts before `count` are handed on: wakes the threads waiting for room.
  func handedOn(_ count: Int) {
    wake { $0.handedOn = count }
  }

  /// No part is started from now on.
  func stop() {
    wake { $0.stopped = true }
  }

  private func wake(_ change: (inout State) -> Void) {
    let waiting = state.withLock { state in
      change(&state)
      defer { state.waiting = 0 }
      return state.waiting
    }
    for _ in 0..<waiting { room.signal() }
  }
}

/// A value made on one thread and used only by the one it is handed to.
private struct Handover<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
