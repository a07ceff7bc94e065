import Foundation
import RewindArguments

/// The command line of rewind-bench: what to measure and how to report it.
struct BenchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "rewind-bench", abstract: "Measure Rewind against its baselines.",
    discussion: """
      Measures Rewind against its baselines (JSON Lines + zstd -3, SQLite, zstd -dc | wc -l) \
      on workloads of the seeded realistic user model, and prints a table (or JSON). Counts \
      are written 5, 250k, 10M or 1_000_000.
      """)

  @Flag(help: "Tiny workloads and few runs: the whole run takes seconds.")
  var quick: Bool
  @Flag(help: "Print the report as JSON on stdout (progress goes to stderr).")
  var json: Bool
  @Option(valueName: "path", help: "Also write the JSON report to this file.")
  var jsonFile: String?
  @Flag(
    name: "with-100m",
    help:
      "Add a 100 M event workload (Rewind figures and peak memory; the baselines run up to 10 M events unless --baselines-up-to says more)."
  )
  var with100M: Bool
  @Option(
    valueName: "list",
    help: "Workload sizes, e.g. 1M,10M or 250k (default: 1M,10M; 20k,100k with --quick).",
    transform: parseSizes)
  var sizes: [Int]?
  @Option(valueName: "n", help: "Timed runs of each Rewind figure after one warm-up.")
  var runs = Count(5)
  @Option(valueName: "n", help: "Timed runs of each baseline figure after one warm-up.")
  var baselineRuns = Count(3)
  @Option(valueName: "size", help: "The largest workload the baselines run on.")
  var baselinesUpTo = Count(10_000_000)
  @Option(valueName: "n", help: "The simulated user's seed.")
  var seed: UInt64 = 1
  @Option(
    valueName: "directory",
    help: "Where workloads are written (default: a fresh directory in /tmp).")
  var work: String?
  @Flag(help: "Keep the workload files.")
  var keep: Bool
  @Option(
    valueName: "path",
    help:
      "The `rewind` executable to time (default: the root package's release build, built first if needed)."
  )
  var rewind: String?
  @Option(
    valueName: "bytes",
    help: "Record the Rewind journals with frames of this size instead of the library's default.")
  var frameSize: Count?
  @Option(
    valueName: "n",
    help: "Record the Rewind journals at this zstd level instead of the library's default.",
    transform: parseLevel)
  var level: Int32?
  @Option(
    valueName: "events",
    help:
      "Record the Rewind journals with this snapshot interval instead of the library's default (`rewind state` still reads whatever journal it is given).",
    transform: parseSnapshotInterval)
  var snapshotInterval: UInt32?
  @Option(
    valueName: "journal",
    help:
      "Measure the player on this journal (e.g. one `rewind generate --events 10000000 --seed 5` wrote) instead of the largest workload's up to 10 M."
  )
  var playerJournal: String?
  @Flag(help: "Run only the player figure (on --player-journal, or on the largest workload).")
  var playerOnly: Bool
  @Flag(help: "Run only the shrink figure (on a journal of the smallest workload).")
  var shrinkOnly: Bool
  @Flag(
    help:
      "Run only the scan figures (find, log --where, check of one and of four journals, verify --deep, export, import: speed, speed-up over --jobs 1, peak memory) on journals `rewind generate --seed SEED` writes, and the html figure (rewind html of 200,000 events and its precomputation); fits 100M."
  )
  var scansOnly: Bool
  @Option(
    valueName: "list",
    help:
      "The scan figures to run, of find,count,log,check,checkFour,verifyDeep,export,import,html (default: all); import reads what export wrote; html runs on a journal of its own, 200,000 events (20,000 with --quick).",
    transform: parseScanCommands)
  var scans: Set<String>?

  /// What to run, `--quick` applied.
  var options: Options {
    var options = Options()
    if let sizes { options.sizes = sizes }
    options.runs = runs.value
    options.baselineRuns = baselineRuns.value
    options.baselineLimit = baselinesUpTo.value
    options.seed = seed
    options.quick = quick
    options.json = json
    options.jsonFile = jsonFile
    options.keep = keep
    options.workDirectory = work
    options.rewindBinary = rewind
    options.frameSize = frameSize?.value
    options.level = level
    options.snapshotInterval = snapshotInterval
    options.playerJournal = playerJournal
    options.playerOnly = playerOnly
    options.shrinkOnly = shrinkOnly
    options.scansOnly = scansOnly
    options.scanCommands = scans
    if quick {
      if sizes == nil { options.sizes = [20_000, 100_000] }
      options.runs = 1
      options.baselineRuns = 1
      options.statePoints = 200
      options.baselineStatePoints = 2
      options.stateCommandRuns = 3
      options.sends = 10_000
      options.playerPresses = 200
    }
    if with100M { options.sizes.append(100_000_000) }
    options.sizes.sort()
    return options
  }

  func run(_ context: StandardStreams) throws {
    let options = self.options
    let bench = try Bench(options: options)
    let report = try bench.run()
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let json = try encoder.encode(report)
    if let path = options.jsonFile {
      try json.write(to: URL(fileURLWithPath: path))
    }
    if options.json {
      FileHandle.standardOutput.write(json)
      print()
    } else {
      print(report.table)
    }
  }
}

/// A positive count on the command line, `5`, `250k`, `10M`, `1_000_000`; shown in help
/// the way workloads are named.
struct Count: ExpressibleByArgument {
  var value: Int

  init(_ value: Int) {
    self.value = value
  }

  init(argument: String) throws(InvalidValue) {
    guard let count = Options.count(argument), count > 0 else {
      throw InvalidValue("expected a count, e.g. 5, 250k, 10M")
    }
    value = count
  }

  var defaultValueDescription: String { Workload.name(of: value) }
}

/// `--sizes`: counts separated by commas.
private func parseSizes(_ text: String) throws(InvalidValue) -> [Int] {
  try text.split(separator: ",").map { (part) throws(InvalidValue) in
    try Count(argument: String(part)).value
  }
}

/// `--level`: a zstd level.
private func parseLevel(_ text: String) throws(InvalidValue) -> Int32 {
  guard let level = Int32(exactly: try Count(argument: text).value) else {
    throw InvalidValue("expected a zstd level")
  }
  return level
}

/// `--snapshot-interval`: a number of events.
private func parseSnapshotInterval(_ text: String) throws(InvalidValue) -> UInt32 {
  guard let interval = UInt32(exactly: try Count(argument: text).value) else {
    throw InvalidValue("expected a number of events below 2^32")
  }
  return interval
}

/// `--scans`: names of scan figures separated by commas.
private func parseScanCommands(_ text: String) throws(InvalidValue) -> Set<String> {
  let known = [
    "find", "count", "log", "check", "checkFour", "verifyDeep", "export", "import", "html",
  ]
  let names = text.split(separator: ",").map(String.init)
  for name in names where !known.contains(name) {
    throw InvalidValue("expected scan figures among \(known.joined(separator: ","))")
  }
  if names.contains("import") && !names.contains("export") {
    throw InvalidValue("import reads the file export writes: give export too")
  }
  return Set(names)
}
