import RewindCore

/// Timing with the package's one clock, `MonotonicClock` (`clock_gettime(CLOCK_MONOTONIC)`
/// in nanoseconds): every figure is timed with it.
extension MonotonicClock {
  /// The seconds `body` takes.
  static func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = now()
    try body()
    return Double(now() - start) / 1e9
  }

  /// The cost of one reading as the latency figures see it: the median difference of
  /// two back-to-back readings, over many pairs. Latency figures subtract it.
  static func readingOverhead(pairs: Int = 200_000) -> Double {
    var samples = [UInt64](repeating: 0, count: pairs)
    for index in 0..<pairs {
      let start = now()
      let end = now()
      samples[index] = end - start
    }
    samples.sort()
    return Double(samples[pairs / 2])
  }
}
