import Dispatch
import RewindJournal
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
    guard jobs > 1, condition.framesAreIntact, condition.lostRanges.isEmpty else { return nil }
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
  /// - Throws: the error of the first part (in order) that failed, once no thread runs a
  ///   part; `JournalError` when the journal cannot be opened again for a thread;
  ///   ``ThreadStartError`` when no thread can be started.
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
    try forEachPart(
      ranges, jobs: jobs, ahead: ranges.count, handsOnAtEnd: true, progress: progress, work
    ) { parts.append($0) }
    return parts
  }

  /// Runs `work` on each of `ranges` on `jobs` threads, which take the parts in order as
  /// they finish the ones before (a shared counter: no thread waits while parts are left),
  /// each thread with a timeline of its own over the same frames, and hands each part's
  /// result to `body` on this thread, in order, as soon as the parts before it are done
  /// (or, with `handsOnAtEnd`, once all are).
  ///
  /// The threads are POSIX threads of their own, each started here as soon as its
  /// timeline is open; each closes its journal once it takes no more parts, and ends on
  /// its own. With `handsOnAtEnd`, this thread is one of the `jobs`: it has nothing else
  /// to do until the end, so it takes parts too, and the threads it starts begin on the
  /// other cores (`DetachedThread.tryStart(elsewhere:_:)`).
  ///
  /// - Parameters:
  ///   - ahead: the most parts started from the first one not yet handed to `body` on
  ///     (that one included): the results held at once (memory), however long the scan.
  ///   - handsOnAtEnd: whether the results are handed to `body` only once every part is
  ///     done (or one failed), instead of each as soon as it and those before it are done
  ///     (so that `body` can stop the scan early, or hand results on to make room). For a
  ///     `body` that only collects, with `ahead` at least the parts (required: a thread
  ///     waiting for room would wait for ever): a thread woken for every part took a
  ///     core from a scanning thread each time.
  ///   - progress: called on this thread, every few milliseconds, with the events
  ///     replayed by all the parts together.
  ///   - work: scans one range; called with the thread's timeline, the part's range and
  ///     a progress function taking the events it replayed so far.
  ///   - body: called on this thread with each part's result, in order.
  /// - Throws: the error of the first part (in order) that failed, or that `body`
  ///   threw, once no thread runs a part; the parts after it are not handed to `body`
  ///   (nor started, once it is known). `JournalError` when the journal cannot be opened
  ///   again for a thread; ``ThreadStartError`` when no thread can be started and this one
  ///   takes no parts (when some can, they take every part).
  package func forEachPart<Part: Sendable>(
    _ ranges: [ClosedRange<UInt64>], jobs: Int, ahead: Int, handsOnAtEnd: Bool = false,
    progress: (UInt64) -> Void,
    _ work:
      @escaping @Sendable (Timeline<D>, ClosedRange<UInt64>, (UInt64) -> Void) throws ->
      Part,
    _ body: (Part) throws -> Void
  ) throws {
    try forEachPart(
      ranges, jobs: jobs, ahead: ahead, handsOnAtEnd: handsOnAtEnd, progress: progress,
      startThread: DetachedThread.tryStart(elsewhere:_:), work, body)
  }

  /// ``forEachPart(_:jobs:ahead:handsOnAtEnd:progress:_:_:)`` for a scan that hands on
  /// what it found as it goes, as one pass does: `work` adds what a part finds to its
  /// result (which starts as `empty`); when it throws (an event that cannot be decoded in
  /// an intact journal), what the part found before is handed to `body`, and then the
  /// error is thrown: the output of the events before the error is one pass's. The error
  /// stops the scan only when its part is handed on: up to `ahead` parts after it may
  /// have been started by then (their results are dropped).
  package func forEachPart<Part: Sendable>(
    _ ranges: [ClosedRange<UInt64>], jobs: Int, ahead: Int, progress: (UInt64) -> Void,
    startingWith empty: Part,
    keepingFound work:
      @escaping @Sendable (Timeline<D>, ClosedRange<UInt64>, (UInt64) -> Void, inout Part)
      throws -> Void,
    _ body: (Part) throws -> Void
  ) throws {
    try forEachPart(
      ranges, jobs: jobs, ahead: ahead, progress: progress,
      { timeline, range, progress in
        var found = empty
        do {
          try work(timeline, range, progress, &found)
        } catch {
          return FoundBeforeError(found: found, error: error)
        }
        return FoundBeforeError(found: found, error: nil)
      },
      { part in
        try body(part.found)
        if let error = part.error { throw error }
      })
  }

  /// ``forEachPart(_:jobs:ahead:handsOnAtEnd:progress:_:_:)``, its threads started by
  /// `startThread` (`DetachedThread.tryStart(elsewhere:_:)`, or a test's, which fails):
  /// 0 when started, an `errno` value when not.
  func forEachPart<Part: Sendable>(
    _ ranges: [ClosedRange<UInt64>], jobs: Int, ahead: Int, handsOnAtEnd: Bool,
    progress: (UInt64) -> Void,
    startThread: (_ elsewhere: Int?, _ body: @escaping @Sendable () -> Void) -> Int32,
    _ work:
      @escaping @Sendable (Timeline<D>, ClosedRange<UInt64>, (UInt64) -> Void) throws ->
      Part,
    _ body: (Part) throws -> Void
  ) throws {
    precondition(
      !handsOnAtEnd || ahead >= ranges.count,
      "results handed on at the end need room for every part")
    let workers = min(max(jobs, 1), ranges.count)
    let shared = ParallelScan<Part>(
      count: ranges.count, ahead: max(ahead, 1), wakesForEachPart: !handsOnAtEnd)
    let cores = sharedCores
    // Left by each thread once it takes no more parts and has closed its journal (it
    // then ends on its own: nothing here waits for that).
    let group = DispatchGroup()
    /// Stops the threads started, once they are done, and throws `error`.
    func stop(_ error: any Error) throws -> Never {
      shared.stop()
      group.wait()
      throw error
    }
    // Each timeline is opened here, and each thread's handed to its thread, which alone
    // uses it. The timelines share this one's domain, so that the events they hand back
    // are this one's (an id the catalog lacks is interned in one table). This one is not
    // used for parts: a part's warnings are its result's, as on the threads.
    func opened() throws -> Timeline<D> {
      Timeline<D>(reader: try JournalReader(sharing: reader), sharing: self)
    }
    var started = 0
    for index in 0..<(handsOnAtEnd ? max(workers - 1, 0) : workers) {
      // The thread starts as soon as its own timeline is open.
      let timeline: Handover<Timeline<D>>
      do { timeline = Handover(try opened()) } catch { try stop(error) }
      // A thread of its own, started here: libdispatch starts its pool's threads one
      // after another (the second from the first, once that one runs), which began the
      // second job up to milliseconds after the first. When this thread takes parts
      // too, each starts on another core than this one's.
      group.enter()
      let status = startThread(handsOnAtEnd ? index : nil) {
        // The timeline is released (its journal closed) when this call returns.
        Self.takeParts(timeline.take(), ranges, shared, cores, work)
        group.leave()
      }
      if status != 0 {
        // Out of threads: those started (and this one, when it takes parts) take every
        // part (from the shared counter); with none, the scan cannot run.
        group.leave()
        if started == 0 && !handsOnAtEnd { try stop(ThreadStartError(status: status)) }
        break
      }
      started += 1
    }
    if handsOnAtEnd {
      let timeline: Timeline<D>
      do { timeline = try opened() } catch { try stop(error) }
      withoutActuallyEscaping(progress) { progress in
        Self.takeParts(timeline, ranges, shared, cores, work) {
          progress(shared.done.load(ordering: .relaxed))
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

  /// A thread of ``forEachPart(_:jobs:ahead:handsOnAtEnd:progress:_:_:)``: runs `work`
  /// on the parts it takes with `timeline`, until none is left; `reported` is called each
  /// time a part reports its progress (by the calling thread, which reports the scan's).
  private static func takeParts<Part: Sendable>(
    _ timeline: Timeline<D>, _ ranges: [ClosedRange<UInt64>], _ shared: ParallelScan<Part>,
    _ cores: SharedCores?,
    _ work: (Timeline<D>, ClosedRange<UInt64>, (UInt64) -> Void) throws -> Part,
    reported: (() -> Void)? = nil
  ) {
    while let index = shared.take() {
      // The first part starts where the range does, as one pass; the others at the
      // frame ends the parts were cut at.
      timeline.startsAtNextFrame = index > 0
      cores?.acquire()
      defer { cores?.release() }
      var done: UInt64 = 0
      let result = Result { () throws -> Part in
        try work(timeline, ranges[index]) { replayed in
          shared.done.add(replayed &- done, ordering: .relaxed)
          done = replayed
          reported?()
        }
      }
      shared.finish(index, result)
    }
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
  /// Signalled once a part is done; with `wakesForEachPart` false, only once every part
  /// is done or one failed (and for each part done after that).
  let finished = DispatchSemaphore(value: 0)
  private let count: Int
  private let ahead: Int
  private let wakesForEachPart: Bool
  private let state: Mutex<State>
  /// Signalled when a part is handed on, or the scan stops: a thread waiting for room
  /// may go on.
  private let room = DispatchSemaphore(value: 0)

  private struct State {
    var next = 0
    var handedOn = 0
    var waiting = 0
    var stopped = false
    var finished = 0
    var failed = false
    var results: [Result<Part, any Error>?]
  }

  init(count: Int, ahead: Int, wakesForEachPart: Bool) {
    self.count = count
    self.ahead = ahead
    self.wakesForEachPart = wakesForEachPart
    state = Mutex(State(results: Array(repeating: nil, count: count)))
  }

  /// The next part to run, once fewer than `ahead` parts from the first not handed on
  /// (that one included) have started; nil when none is left, the scan stopped, or a part
  /// failed (the parts are taken in order: every part before it has started, and none
  /// after it is handed on).
  func take() -> Int? {
    while true {
      let taken: Int?? = state.withLock { state in
        guard !state.stopped, !state.failed, state.next < count else { return .some(nil) }
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
    let wakes = state.withLock { state in
      state.results[index] = result
      state.finished += 1
      if case .failure = result { state.failed = true }
      return wakesForEachPart || state.failed || state.finished == count
    }
    if wakes { finished.signal() }
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

/// A value made on one thread and used only by the one it is handed to, which takes it
/// (so that it can release it before its thread ends).
private final class Handover<Value>: @unchecked Sendable {
  private var value: Value?
  init(_ value: Value) { self.value = value }

  /// The value, which this no longer holds; taken once.
  func take() -> Value {
    defer { value = nil }
    return value!
  }
}

/// No thread could be started for a parallel scan (the system is out of threads or
/// memory).
package struct ThreadStartError: Error, Equatable, Sendable, CustomStringConvertible {
  /// `pthread_create`'s error.
  package let status: Int32

  package var description: String {
    "cannot start a thread for the scan's parts: \(String(cString: strerror(status))) (error \(status)); one job scans on the calling thread"
  }
}

/// What a part of a scan found, and the error that ended it before its last event (nil
/// when it scanned them all).
private struct FoundBeforeError<Part: Sendable>: Sendable {
  let found: Part
  let error: (any Error)?
}
