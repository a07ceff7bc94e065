/// What to run: workload sizes, repetitions, output form. Parsed from the command line.
struct Options {
  var sizes = [1_000_000, 10_000_000]
  /// Timed runs of each figure after the warm-up run.
  var runs = 5
  /// Timed runs of each baseline figure after its warm-up run (baselines take minutes at
  /// 10 M events).
  var baselineRuns = 3
  /// Baselines run on workloads up to this size; larger ones measure Rewind only.
  var baselineLimit = 10_000_000
  var seed: UInt64 = 1
  var quick = false
  var json = false
  /// Also write the JSON report to this file (the table still goes to stdout).
  var jsonFile: String?
  var keep = false
  var workDirectory: String?
  var rewindBinary: String?
  /// Journal parameters other than the defaults (exploration only).
  var frameSize: Int?
  var level: Int32?
  var snapshotInterval: UInt32?
  /// Random points timed for `state(after:)` per workload, and for each baseline.
  var statePoints = 2_000
  var baselineStatePoints = 5
  /// `rewind state --at` runs timed.
  var stateCommandRuns = 40
  /// `Store.send` calls timed (after as many again to warm up).
  var sends = 200_000

  static let usage = """
    Usage: rewind-bench [--quick] [--json] [--with-100m] [--sizes 1M,10M] [--runs N]
                        [--baseline-runs N] [--seed N] [--work DIR] [--keep] [--rewind PATH]

    Measures Rewind against its baselines (JSON Lines + zstd -3, SQLite, zstd -dc | wc -l)
    on workloads of the seeded realistic user model, and prints a table (or JSON).

      --quick           tiny workloads and few runs: the whole run takes seconds
      --json            print the report as JSON on stdout (progress goes to stderr)
      --json-file PATH  also write the JSON report to PATH
      --with-100m       add a 100 M event workload (Rewind figures and peak memory; the
                        baselines run up to 10 M events unless --baselines-up-to says more)
      --sizes LIST      workload sizes, e.g. 1M,10M or 250k
      --runs N          timed runs of each Rewind figure after one warm-up (default 5)
      --baseline-runs N timed runs of each baseline figure after one warm-up (default 3)
      --baselines-up-to SIZE  the largest workload the baselines run on (default 10M)
      --seed N          the simulated user's seed (default 1)
      --work DIR        where workloads are written (default: a fresh directory in /tmp)
      --keep            keep the workload files
      --rewind PATH     the `rewind` executable to time (default: the root package's
                        release build, built first if needed)
      --frame-size N, --level N, --snapshot-interval N
                        record the Rewind journals with other parameters than the
                        library's defaults (to explore them; `rewind state` still reads
                        whatever journal it is given)
    """

  /// Parses the arguments after the program name.
  /// - Throws: `BenchError` with the usage for anything it does not know.
  static func parse(_ arguments: [String]) throws(BenchError) -> Options {
    var options = Options()
    var explicitSizes = false
    var with100M = false
    var index = 0
    func value() throws(BenchError) -> String {
      index += 1
      guard index < arguments.count else {
        throw BenchError("\(arguments[index - 1]) needs a value\n\n\(usage)")
      }
      return arguments[index]
    }
    func number(_ text: String) throws(BenchError) -> Int {
      guard let count = Options.count(text), count > 0 else {
        throw BenchError("'\(text)' is not a count (e.g. 5, 250k, 10M)\n\n\(usage)")
      }
      return count
    }
    while index < arguments.count {
      switch arguments[index] {
      case "--quick": options.quick = true
      case "--json": options.json = true
      case "--json-file": options.jsonFile = try value()
      case "--keep": options.keep = true
      case "--with-100m": with100M = true
      case "--sizes":
        options.sizes = try value().split(separator: ",").map { (part) throws(BenchError) in
          try number(String(part))
        }
        explicitSizes = true
      case "--runs": options.runs = try number(try value())
      case "--baseline-runs": options.baselineRuns = try number(try value())
      case "--baselines-up-to": options.baselineLimit = try number(try value())
      case "--seed":
        let text = try value()
        guard let seed = UInt64(text) else { throw BenchError("'\(text)' is not a seed") }
        options.seed = seed
      case "--work": options.workDirectory = try value()
      case "--rewind": options.rewindBinary = try value()
      case "--frame-size": options.frameSize = try number(try value())
      case "--level": options.level = Int32(try number(try value()))
      case "--snapshot-interval": options.snapshotInterval = UInt32(try number(try value()))
      case "--help", "-h": throw BenchError(usage)
      case let other: throw BenchError("unknown option '\(other)'\n\n\(usage)")
      }
      index += 1
    }
    if options.quick {
      if !explicitSizes { options.sizes = [20_000, 100_000] }
      options.runs = 1
      options.baselineRuns = 1
      options.statePoints = 200
      options.baselineStatePoints = 2
      options.stateCommandRuns = 3
      options.sends = 10_000
    }
    if with100M { options.sizes.append(100_000_000) }
    options.sizes.sort()
    return options
  }

  /// `250k`, `10M`, `1_000_000`, `5`.
  static func count(_ text: String) -> Int? {
    let plain = text.filter { $0 != "_" && $0 != "," }
    if let last = plain.last, last == "k" || last == "K" || last == "M" {
      guard let base = Int(plain.dropLast()) else { return nil }
      return base * (last == "M" ? 1_000_000 : 1_000)
    }
    return Int(plain)
  }
}
