/// Everything one run of the runner measured, as `--json` prints it and the table shows it.
struct Report: Codable {
  var machine: Machine
  /// The command line that produced the report.
  var command: String
  var settings: Settings
  /// One row per figure and workload.
  var rows: [Row] = []
  /// The commands that walk a whole session: throughput, speed-up and peak memory.
  var scans: [ScanFigure] = []
  /// How each figure's cost changes from the smallest to the largest workload.
  var growth: [Growth] = []
  /// The targets of BRIEF §5, each with the figures it was judged on.
  var targets: [TargetCheck] = []
  /// Things the reader should know (skipped baselines, which binary was timed).
  var notes: [String] = []

  struct Settings: Codable {
    var sizes: [Int]
    var runs: Int
    var baselineRuns: Int
    var seed: UInt64
    var quick: Bool
    /// The cost of one clock reading, subtracted from every latency sample (ns).
    var clockOverheadNanoseconds: Double
  }
}

/// One figure measured for Rewind and, where there is one, its baselines in the same run.
struct Row: Codable {
  /// A stable key, e.g. `append.batched`.
  var key: String
  var figure: String
  /// The workload (`1M`, `10M`) or `-` when the figure has none.
  var workload: String
  var events: Int
  var unit: String
  /// `higher` or `lower`: which way is better.
  var better: String
  var rewind: Summary
  var baselines: [Comparison] = []
  var note: String?

  /// How many times better Rewind is than `baseline` (above 1: Rewind is better).
  func advantage(over baseline: Summary) -> Double {
    better == "higher" ? rewind.median / baseline.median : baseline.median / rewind.median
  }
}

/// A baseline's figure and how it compares with Rewind's.
struct Comparison: Codable {
  /// `JSON Lines + zstd -3`, `SQLite`, `zstd -dc | wc -l`, …
  var name: String
  var value: Summary
  /// How many times better Rewind is (medians): above 1 means Rewind wins.
  var rewindAdvantage: Double
}

/// The cost of a figure at the smallest and the largest workload.
struct Growth: Codable {
  var key: String
  var figure: String
  var unit: String
  var small: String
  var large: String
  var smallValue: Double
  var largeValue: Double
  /// The cost per event (or per query) at the large workload over that at the small one:
  /// 1.0 means it does not grow.
  var costRatio: Double
}

/// One target of BRIEF §5 and whether the measured figures meet it.
struct TargetCheck: Codable {
  var target: String
  var measured: String
  var met: Bool
}

/// The machine a report was measured on.
struct Machine: Codable {
  var cpu: String
  var cores: Int
  var memory: String
  var kernel: String
  var swift: String
  var zstd: String
  var sqlite: String
  /// The load average when the run started and ended: the machine is shared.
  var loadAtStart: String
  var loadAtEnd: String = ""
}

/// One command of the scan figures on one journal.
struct ScanFigure: Codable {
  /// A stable key, e.g. `scan.check` (default jobs), `scan.check.jobs1`.
  var key: String
  var command: String
  var workload: String
  /// The events the command scans (four journals' for `check` of four copies).
  var events: Int
  /// `1`, `default (2)`, or `—` for a command without `--jobs`.
  var jobs: String
  /// Millions of events a second, from the wall clock of the child process.
  var rate: Summary
  /// The command's time over `zstd -dc`'s for as many events (medians): 2 is half
  /// zstd's speed.
  var zstdTimeRatio: Double
  /// The rate over the same command's with one job (medians); nil for one job.
  var speedUp: Double?
  /// The largest peak resident set of the timed runs, in MiB; nil when not measured.
  var peakMiB: Double?
  /// The shell command timed.
  var line: String
}
