import Navigation

extension Bench {
  /// Wall time of `rewind state <journal> --at <point>` as a child process, process start
  /// included, page cache warm; against the same binary's `rewind help` (the floor of
  /// starting the process at all).
  func measureStateCommand(_ workload: Workload) throws {
    let binary = try rewindBinary()
    let name = workload.name
    let runs = options.stateCommandRuns
    log("  \(name): `rewind state --at` \(runs) times (\(binary))")
    var random = SeededRandom(seed: options.seed &+ 0xC0FFEE)
    func stateAt() throws -> Double {
      let point = random.below(UInt64(workload.count)) + 1
      let result = try ChildProcess.run(
        [binary, "state", workload.journalPath, "--at", String(point)])
      guard result.status == 0 else {
        throw BenchError("rewind state exited with \(result.status)")
      }
      return result.seconds * 1e3
    }
    func help() throws -> Double {
      let result = try ChildProcess.run([binary, "help"])
      guard result.status == 0 else { throw BenchError("rewind help exited with \(result.status)") }
      return result.seconds * 1e3
    }
    for _ in 0..<3 {
      _ = try stateAt()
      _ = try help()
    }
    var state: [Double] = []
    var floor: [Double] = []
    for _ in 0..<runs {
      state.append(try stateAt())
      floor.append(try help())
    }
    let stateLatency = Latency(samples: state)
    let floorLatency = Latency(samples: floor)
    for (key, label, pick) in [
      ("stateCommand.p50", "`rewind state --at`, p50", \Latency.p50),
      ("stateCommand.p99", "`rewind state --at`, p99", \Latency.p99),
    ] as [(String, String, KeyPath<Latency, Double>)] {
      func summary(_ latency: Latency) -> Summary {
        Summary(
          median: latency[keyPath: pick], min: latency.min, max: latency.max,
          runs: latency.samples)
      }
      addRow(
        key, label, workload: workload, unit: "ms", higherIsBetter: false,
        rewind: summary(stateLatency),
        baselines: [(Baseline.processStart, summary(floorLatency))],
        note:
          "wall clock from posix_spawn to exit, \(runs) random points; the baseline is the same binary doing nothing but start (a ratio below 1: the cost of starting the process)"
      )
    }
  }

  /// The `rewind` executable to time: `--rewind`, or the root package's release build,
  /// built now if it is missing (and kept up to date otherwise). In `--quick` mode an
  /// existing debug build will do.
  func rewindBinary() throws -> String {
    if let path = options.rewindBinary { return path }
    let me = ChildProcess.selfPath
    guard let range = me.range(of: "/Tools/rewind-bench/.build/") else {
      throw BenchError("cannot find the root package from \(me); pass --rewind PATH")
    }
    let root = String(me[..<range.lowerBound])
    let release = root + "/.build/release/rewind"
    let debug = root + "/.build/debug/rewind"
    if options.quick {
      for candidate in [release, debug] where FileSystem.exists(candidate) {
        report.notes.append("`rewind state` figures timed with \(candidate) (--quick).")
        return candidate
      }
    }
    log("  building the root package's release `rewind` (swift build -c release --product rewind)")
    let build = try ChildProcess.run(
      ["/bin/sh", "-c", "cd '\(root)' && swift build -c release --product rewind >&2"])
    guard build.status == 0, FileSystem.exists(release) else {
      throw BenchError("building rewind failed (\(build.status)); pass --rewind PATH")
    }
    report.notes.append("`rewind state` figures timed with the release build \(release).")
    return release
  }
}
