#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Nanoseconds of `CLOCK_MONOTONIC`: the one clock every figure is timed with.
enum MonotonicClock {
  /// Now, in nanoseconds since an arbitrary start (`clock_gettime(CLOCK_MONOTONIC)`).
  @inline(__always) static func now() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
  }

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
