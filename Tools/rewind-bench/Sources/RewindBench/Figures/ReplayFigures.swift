import Navigation
import RewindCore

extension Bench {
  /// Full replay throughput (decompress, decode, reduce; Rewind's runs measured
  /// beforehand, alternating between workloads), checking that every format folds to the
  /// same final state.
  func measureReplay(_ workload: Workload, baselines: Bool, rewind: Summary) throws {
    let events = Double(workload.count)
    func rate(_ seconds: Summary) -> Summary { seconds.mapped { events / $0 / 1e6 } }
    let domain = workload.domain
    var expected = domain.initialState
    for timed in workload.events { _ = domain.reduce(&expected, timed.event) }
    let name = workload.name
    let timeline = try Timeline<NavigationDomain>(path: workload.journalPath)
    guard try timeline.replayedState(after: timeline.lastSequence) == expected else {
      throw BenchError("\(name): Rewind's replay does not give the fold of the events")
    }
    var compared: [(String, Summary)] = []
    if baselines {
      var jsonLinesState: NavigationState?
      let jsonLines = try timed("\(name): JSON Lines replay", runs: options.baselineRuns) {
        try MonotonicClock.seconds {
          let (state, count) = try JSONLinesBaseline.replay(workload.jsonLinesPath, domain: domain)
          precondition(count == workload.count)
          jsonLinesState = state
        }
      }
      var sqliteState: NavigationState?
      let sqlite = try timed("\(name): SQLite replay", runs: options.baselineRuns) {
        try MonotonicClock.seconds {
          let (state, count) = try SQLiteBaseline.replay(workload.sqlitePath, domain: domain)
          precondition(count == workload.count)
          sqliteState = state
        }
      }
      guard jsonLinesState == expected, sqliteState == expected else {
        throw BenchError("\(name): a baseline's replay does not give the fold of the events")
      }
      let zstd = try timed("\(name): zstd -dc | wc -l", runs: options.baselineRuns) {
        let result = try ChildProcess.shell("zstd -dc '\(workload.jsonLinesPath)' | wc -l")
        guard result.status == 0, Int(result.output.trimmed) == workload.count else {
          throw BenchError("zstd -dc | wc -l gave '\(result.output.trimmed)' (\(result.status))")
        }
        return result.seconds
      }
      compared = [
        (Baseline.jsonLines, rate(jsonLines)), (Baseline.sqlite, rate(sqlite)),
        (Baseline.zstdCLI, rate(zstd)),
      ]
    }
    addRow(
      "replay", "full replay", workload: workload, unit: "M events/s", higherIsBetter: true,
      rewind: rate(rewind), baselines: compared,
      note:
        "open, then fold every event from the first (Timeline.replayedState); zstd CLI: decompress and count lines only"
    )
  }

  /// `state(after:)` at random points of an open timeline of every workload, in rounds
  /// that alternate between the workloads (so that the machine's slow spells fall on all
  /// of them alike and the growth from one to the next is measured fairly); the figure is
  /// the median round. The baselines replay from the start to a few of the points.
  func measureStateAt(_ workloads: [Workload]) throws {
    let perRound = options.statePoints
    let warmUp = max(perRound / 10, 10)
    var timelines: [Timeline<NavigationDomain>] = []
    var points: [[UInt64]] = []
    for workload in workloads {
      var random = SeededRandom(seed: options.seed &+ 0x5EED)
      let count = UInt64(workload.count)
      points.append((0..<(perRound * options.runs + warmUp)).map { _ in random.below(count) + 1 })
      timelines.append(try Timeline<NavigationDomain>(path: workload.journalPath))
    }
    let names = workloads.map(\.name).joined(separator: ", ")
    log("state(after:): \(options.runs) rounds of \(perRound) random points, alternating \(names)")
    for index in workloads.indices {
      _ = try RewindRuns.stateLatencies(
        timelines[index], points: Array(points[index].prefix(warmUp)), overhead: clockOverhead)
    }
    var rounds = [[Latency]](repeating: [], count: workloads.count)
    for round in 0..<options.runs {
      for index in workloads.indices {
        let start = warmUp + round * perRound
        rounds[index].append(
          Latency(
            samples: try RewindRuns.stateLatencies(
              timelines[index], points: Array(points[index][start..<(start + perRound)]),
              overhead: clockOverhead)))
      }
    }
    for (index, workload) in workloads.enumerated() {
      var jsonLines: Latency?
      var sqlite: Latency?
      if workload.count <= options.baselineLimit {
        let few = Array(points[index].dropFirst(warmUp).prefix(options.baselineStatePoints))
        log(
          "  \(workload.name): baselines replaying from the start to \(few.count) of those points")
        let domain = workload.domain
        jsonLines = Latency(
          samples: try few.map { point in
            try MonotonicClock.seconds {
              _ = try JSONLinesBaseline.replay(
                workload.jsonLinesPath, domain: domain, through: point)
            } * 1e9
          })
        sqlite = Latency(
          samples: try few.map { point in
            try MonotonicClock.seconds {
              _ = try SQLiteBaseline.replay(workload.sqlitePath, domain: domain, through: point)
            } * 1e9
          })
      }
      for (key, label, pick) in [
        ("stateAt.p50", "state at a random point, p50", \Latency.p50),
        ("stateAt.p99", "state at a random point, p99", \Latency.p99),
      ] as [(String, String, KeyPath<Latency, Double>)] {
        var compared: [(String, Summary)] = []
        if let jsonLines, let sqlite {
          compared = [
            (Baseline.jsonLines, jsonLines.summary(pick, scale: 1e-3)),
            (Baseline.sqlite, sqlite.summary(pick, scale: 1e-3)),
          ]
        }
        addRow(
          key, label, workload: workload, unit: "µs", higherIsBetter: false,
          rewind: Summary(rounds[index].map { $0[keyPath: pick] / 1e3 }), baselines: compared,
          note:
            "Timeline.state(after:) on an open journal, page cache warm: the median of \(options.runs) rounds of \(perRound) random points, the rounds alternating between the workloads (range: the rounds' lowest and highest); the baselines replay from the start to \(options.baselineStatePoints) of the points (range: fastest and slowest)"
        )
      }
    }
  }
}

extension Latency {
  /// One percentile as a summary, with the fastest and slowest samples as its range.
  func summary(_ pick: KeyPath<Latency, Double>, scale: Double) -> Summary {
    Summary(
      median: self[keyPath: pick] * scale, min: min * scale, max: max * scale, runs: samples)
  }
}
