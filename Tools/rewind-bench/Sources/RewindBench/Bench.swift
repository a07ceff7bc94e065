import Navigation
import RewindCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One run of the runner: the options, the clock's overhead, and the report it fills.
final class Bench {
  let options: Options
  let directory: String
  /// The cost of one clock reading in nanoseconds, subtracted from latency samples.
  let clockOverhead: Double
  var report: Report

  init(options: Options) throws {
    self.options = options
    directory = options.workDirectory ?? "/tmp/rewind-bench-\(getpid())"
    try FileSystem.makeDirectory(directory)
    clockOverhead = MonotonicClock.readingOverhead()
    RewindRuns.parameters = (options.frameSize, options.level, options.snapshotInterval)
    report = Report(
      machine: Machine.current(),
      command: (["rewind-bench"] + CommandLine.arguments.dropFirst()).joined(separator: " "),
      settings: Report.Settings(
        sizes: options.sizes, runs: options.runs, baselineRuns: options.baselineRuns,
        seed: options.seed, quick: options.quick, clockOverheadNanoseconds: clockOverhead))
  }

  /// Runs every figure and returns the report.
  func run() throws -> Report {
    if options.frameSize != nil || options.level != nil || options.snapshotInterval != nil {
      report.notes.append(
        "Rewind journals recorded with non-default parameters: frame size \(options.frameSize.map(String.init) ?? "default"), level \(options.level.map(String.init) ?? "default"), snapshot interval \(options.snapshotInterval.map(String.init) ?? "default")."
      )
    }
    if options.playerOnly {
      try runPlayerOnly()
      return finish()
    }
    if options.shrinkOnly {
      try runShrinkOnly()
      return finish()
    }
    if options.scansOnly {
      try runScansOnly()
      return finish()
    }
    var workloads: [Workload] = []
    for size in options.sizes {
      let name = Workload.name(of: size)
      log("\(name): generating \(size) events (seed \(options.seed))")
      let workloadDirectory = directory + "/" + name
      try FileSystem.makeDirectory(workloadDirectory)
      workloads.append(Workload(count: size, seed: options.seed, directory: workloadDirectory))
      if size > options.baselineLimit {
        report.notes.append(
          "\(name): baselines not run (above --baselines-up-to \(Workload.name(of: options.baselineLimit))); Rewind figures only."
        )
      }
    }
    func baselines(_ workload: Workload) -> Bool { workload.count <= options.baselineLimit }
    // Rewind's runs alternate between the workloads, so that the machine's slow spells
    // fall on all of them alike and growth with size is measured fairly.
    let single = try interleaved("Rewind append, one event at a time", workloads) {
      try RewindRuns.append($0, batched: false, to: $0.scratchPath)
    }
    let batched = try interleaved("Rewind append, batched", workloads) {
      try RewindRuns.append($0, batched: true, to: $0.journalPath)
    }
    for (index, workload) in workloads.enumerated() {
      try measureAppend(
        workload, baselines: baselines(workload), single: single[index], batched: batched[index])
      try measureSize(workload, baselines: baselines(workload))
    }
    let replays = try interleaved("Rewind full replay", workloads) { workload in
      try MonotonicClock.seconds {
        let timeline = try Timeline<NavigationDomain>(path: workload.journalPath)
        blackHole(try timeline.replayedState(after: timeline.lastSequence))
      }
    }
    for (index, workload) in workloads.enumerated() {
      try measureReplay(workload, baselines: baselines(workload), rewind: replays[index])
    }
    try measureStateAt(workloads)
    let defaultSizes = workloads.filter { $0.count <= 10_000_000 }
    if let commandWorkload = defaultSizes.last ?? workloads.last {
      try measureStateCommand(commandWorkload)
    }
    if let largest = workloads.last {
      try measurePeakMemory(largest, baselines: largest.count <= options.baselineLimit)
    }
    if let first = workloads.first { try measureStoreSend(first) }
    if let path = options.playerJournal {
      try measurePlayer(journal: path, workload: "given")
    } else if let playerWorkload = defaultSizes.last {
      try measurePlayer(journal: playerWorkload.journalPath, workload: playerWorkload.name)
    }
    if measuresScans { try measureScanCommands(defaultSizes.isEmpty ? workloads : defaultSizes) }
    if measuresPage { try measurePageCommand() }
    if let first = workloads.first { try measureShrink(first) }
    computeGrowth()
    return finish()
  }

  /// `--player-only`: the player figure alone, on the given journal or on a journal of
  /// the largest workload up to 10 M events, recorded for it.
  private func runPlayerOnly() throws {
    if let path = options.playerJournal {
      try measurePlayer(journal: path, workload: "given")
      return
    }
    let size = options.sizes.filter { $0 <= 10_000_000 }.last ?? options.sizes[0]
    let name = Workload.name(of: size)
    log("\(name): generating \(size) events (seed \(options.seed)) for the player")
    let workloadDirectory = directory + "/" + name
    try FileSystem.makeDirectory(workloadDirectory)
    let workload = Workload(count: size, seed: options.seed, directory: workloadDirectory)
    _ = try RewindRuns.append(workload, batched: true, to: workload.journalPath)
    try measurePlayer(journal: workload.journalPath, workload: name)
  }

  /// `--shrink-only`: the shrink figure alone, on a journal of the smallest workload,
  /// recorded for it.
  private func runShrinkOnly() throws {
    let size = options.sizes[0]
    let name = Workload.name(of: size)
    log("\(name): generating \(size) events (seed \(options.seed)) to shrink")
    let workloadDirectory = directory + "/" + name
    try FileSystem.makeDirectory(workloadDirectory)
    let workload = Workload(count: size, seed: options.seed, directory: workloadDirectory)
    _ = try RewindRuns.append(workload, batched: true, to: workload.journalPath)
    try measureShrink(workload)
  }

  /// Judges the targets, notes the load, removes the work directory unless kept.
  private func finish() -> Report {
    checkTargets()
    report.machine.loadAtEnd = Machine.loadAverage()
    if !options.keep && options.workDirectory == nil { FileSystem.removeTree(directory) }
    return report
  }

  /// Progress on standard error, so that `--json` output stays clean.
  func log(_ message: String) {
    writeError("rewind-bench: \(message)\n")
  }

  /// Adds a row comparing Rewind's figure with baselines.
  func addRow(
    _ key: String, _ figure: String, workload: Workload?, unit: String, higherIsBetter: Bool,
    rewind: Summary, baselines: [(String, Summary)] = [], note: String? = nil
  ) {
    var row = Row(
      key: key, figure: figure, workload: workload?.name ?? "-", events: workload?.count ?? 0,
      unit: unit, better: higherIsBetter ? "higher" : "lower", rewind: rewind, note: note)
    row.baselines = baselines.map { name, value in
      Comparison(name: name, value: value, rewindAdvantage: row.advantage(over: value))
    }
    report.rows.append(row)
  }

  /// Runs `body` on each workload once to warm up, then `runs` rounds that each run it on
  /// every workload in turn, and returns the summary of the seconds it reported for each.
  func interleaved(_ what: String, _ workloads: [Workload], _ body: (Workload) throws -> Double)
    throws -> [Summary]
  {
    let names = workloads.map(\.name).joined(separator: ", ")
    log("\(what): \(options.runs) runs after a warm-up, alternating \(names)")
    for workload in workloads { _ = try body(workload) }
    var seconds = [[Double]](repeating: [], count: workloads.count)
    for _ in 0..<options.runs {
      for (index, workload) in workloads.enumerated() { seconds[index].append(try body(workload)) }
    }
    return seconds.map(Summary.init)
  }

  /// Runs `body` once to warm up and `runs` more times, returning the summary of the
  /// seconds it reports, with progress.
  func timed(_ what: String, runs: Int, _ body: () throws -> Double) throws -> Summary {
    log("  \(what) (\(runs) runs after a warm-up)")
    return try repeated(runs: runs, body)
  }
}

/// Names of the baselines, as the table's columns show them.
enum Baseline {
  static let jsonLines = "JSON Lines + zstd -3"
  static let sqlite = "SQLite"
  static let zstdCLI = "zstd -dc | wc -l"
  static let inMemoryStore = "Store, not recording"
  static let jsonLinesOnCaller = "JSON Lines on the caller's thread"
  static let processStart = "process start (rewind help)"
  static let all = [
    jsonLines, sqlite, zstdCLI, inMemoryStore, jsonLinesOnCaller, processStart,
  ]
}
