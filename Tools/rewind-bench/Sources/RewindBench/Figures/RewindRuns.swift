import Navigation
import RewindCore
import RewindJournal

/// One run of each Rewind figure: what is timed, and nothing else.
enum RewindRuns {
  /// The events a batched append hands over at a time: what a writer thread draining a
  /// queue of UI events does.
  static let batchSize = 4_096

  /// The recording options of the append figures: the default format parameters and no
  /// `fsync` (the baselines do not sync either): the figure is the CPU cost of recording.
  static var appendOptions: RecordingOptions {
    var options = RecordingOptions(journal: JournalWriterOptions(durability: .none))
    if let frameSize = parameters.frameSize { options.journal.frameSize = frameSize }
    if let level = parameters.level { options.journal.compressionLevel = level }
    if let interval = parameters.snapshotInterval { options.snapshotInterval = interval }
    return options
  }

  /// Format parameters other than the library's defaults, to explore them (`--frame-size`,
  /// `--level`, `--snapshot-interval`); nil keeps the default.
  nonisolated(unsafe) static var parameters:
    (frameSize: Int?, level: Int32?, snapshotInterval: UInt32?) = (nil, nil, nil)

  /// Records every event of `workload` into a new journal at `path`: reduce, effect,
  /// encode, frame, compress and write, then close (index and trailer).
  /// - Returns: the seconds taken, creating and closing the journal included.
  static func append(_ workload: Workload, batched: Bool, to path: String) throws -> Double {
    try FileSystem.remove(path)
    let events = workload.events
    return try MonotonicClock.seconds {
      let recorder = try JournalRecorder.create(
        at: path, domain: workload.domain, session: workload.session, options: appendOptions)
      if batched {
        var start = 0
        while start < events.count {
          let end = min(start + batchSize, events.count)
          try recorder.record(contentsOf: events[start..<end])
          start = end
        }
      } else {
        for timed in events { try recorder.record(timed.event, at: timed.time) }
      }
      try recorder.close()
    }
  }

  /// Opens the journal and folds every event from the first: decompress, decode, reduce.
  /// - Returns: the seconds taken, opening included.
  static func replay(_ path: String, expecting count: Int) throws -> Double {
    var state: NavigationState?
    let seconds = try MonotonicClock.seconds {
      let timeline = try Timeline<NavigationDomain>(path: path)
      state = try timeline.replayedState(after: timeline.lastSequence)
    }
    precondition(state != nil)
    return seconds
  }

  /// The latency of `state(after:)` at random points of an open timeline, in
  /// nanoseconds, the clock's reading overhead subtracted.
  static func stateLatencies(
    _ timeline: Timeline<NavigationDomain>, points: [UInt64], overhead: Double
  ) throws -> [Double] {
    var starts: [UInt64] = []
    return try stateLatencies(timeline, points: points, overhead: overhead, starts: &starts)
  }

  /// ``stateLatencies(_:points:overhead:)``, with the clock's reading at the start of each
  /// query appended to `starts` (in nanoseconds), for ``Interruptions``.
  static func stateLatencies(
    _ timeline: Timeline<NavigationDomain>, points: [UInt64], overhead: Double,
    starts: inout [UInt64]
  ) throws -> [Double] {
    var samples: [Double] = []
    samples.reserveCapacity(points.count)
    starts.reserveCapacity(starts.count + points.count)
    var checksum = 0
    for point in points {
      let start = MonotonicClock.now()
      let state = try timeline.state(after: point)
      let end = MonotonicClock.now()
      checksum &+= state.menu.selectedIndex
      samples.append(max(Double(end - start) - overhead, 0))
      starts.append(start)
    }
    blackHole(checksum)
    return samples
  }
}

/// Keeps a value alive so that the optimiser cannot drop the work that produced it.
@inline(never) func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}
