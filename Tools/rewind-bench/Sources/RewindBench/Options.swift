/// What to run: workload sizes, repetitions, output form, as ``BenchCommand`` reads them
/// from the command line.
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
  /// `→` presses timed per round of the player figure.
  var playerPresses = 2_000
  /// The journal the player figure plays (default: the largest workload's up to 10 M).
  var playerJournal: String?
  /// Run only the player figure.
  var playerOnly = false
  /// Run only the shrink figure.
  var shrinkOnly = false
  /// Run only the scan figures, on journals `rewind generate` writes.
  var scansOnly = false
  /// The scan figures to run (`find`, `count`, `log`, `check`, `checkFour`, `verifyDeep`,
  /// `export`, `import`, `html`); nil for all.
  var scanCommands: Set<String>?

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
