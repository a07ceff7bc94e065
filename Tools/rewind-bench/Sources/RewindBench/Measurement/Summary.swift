/// The median, minimum and maximum of repeated measurements of one figure.
struct Summary: Codable, Sendable {
  var median: Double
  var min: Double
  var max: Double
  /// How many measurements (after the warm-up, which is not counted).
  var runs: Int

  /// The summary of some measurements.
  /// - Precondition: `values` is not empty.
  init(_ values: [Double]) {
    precondition(!values.isEmpty, "a summary needs at least one measurement")
    let sorted = values.sorted()
    let count = sorted.count
    median =
      count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2
    min = sorted[0]
    max = sorted[count - 1]
    runs = count
  }

  init(median: Double, min: Double, max: Double, runs: Int) {
    self.median = median
    self.min = min
    self.max = max
    self.runs = runs
  }

  /// The summary of each round's ratio of two measurements, `numerators[i] /
  /// denominators[i]`: what a ratio of two programs' times is judged by, not the ratio of
  /// their medians. On a machine whose speed changes from run to run (the shared one of
  /// BENCHMARKS.md's session 56 has a fast and a slow mode, about ×1.6 apart), the medians
  /// can pair one program's fast runs with the other's slow ones; a round's runs, one after
  /// the other, mostly share a mode.
  /// - Precondition: both hold the same number of measurements, at least one.
  init(ratiosOf numerators: [Double], to denominators: [Double]) {
    precondition(numerators.count == denominators.count, "ratios of unpaired measurements")
    self.init(zip(numerators, denominators).map { $0 / $1 })
  }

  /// Every value transformed by a function that is monotonic (increasing or
  /// decreasing): events/s from seconds, bytes/event from bytes.
  func mapped(_ transform: (Double) -> Double) -> Summary {
    let low = transform(min)
    let high = transform(max)
    return Summary(
      median: transform(median), min: Swift.min(low, high), max: Swift.max(low, high), runs: runs)
  }
}

/// Percentiles of many latency samples (nanoseconds).
struct Latency: Codable, Sendable {
  var min: Double
  var p50: Double
  var p99: Double
  var max: Double
  var samples: Int

  /// Sorts `samples` and reads the nearest-rank percentiles.
  init(samples: [Double]) {
    precondition(!samples.isEmpty, "latency needs at least one sample")
    let sorted = samples.sorted()
    func rank(_ fraction: Double) -> Double {
      let index = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
      return sorted[Swift.max(0, Swift.min(sorted.count - 1, index))]
    }
    min = sorted[0]
    p50 = rank(0.50)
    p99 = rank(0.99)
    max = sorted[sorted.count - 1]
    self.samples = sorted.count
  }

  init(min: Double, p50: Double, p99: Double, max: Double, samples: Int) {
    self.min = min
    self.p50 = p50
    self.p99 = p99
    self.max = max
    self.samples = samples
  }
}

/// Runs `body` once to warm up, then `runs` times, and summarises what it returned
/// (usually seconds).
func repeated(runs: Int, warmUp: Bool = true, _ body: () throws -> Double) rethrows -> Summary {
  if warmUp { _ = try body() }
  var values: [Double] = []
  for _ in 0..<max(runs, 1) { values.append(try body()) }
  return Summary(values)
}
