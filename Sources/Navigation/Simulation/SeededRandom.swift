/// A small, fast, seedable pseudo-random generator (xoshiro256**, seeded through
/// SplitMix64) whose output is the same on every platform and Swift version.
///
/// The standard library's random APIs may change their algorithms between releases, and
/// `SystemRandomNumberGenerator` cannot be seeded; generated sessions and benchmarks must
/// be reproducible byte for byte, so the simulation draws only from this generator and
/// only through its own integer methods (``below(_:)-(UInt64)``, ``chance(_:in:)``).
public struct SeededRandom: RandomNumberGenerator, Sendable {
  @usableFromInline var s0: UInt64
  @usableFromInline var s1: UInt64
  @usableFromInline var s2: UInt64
  @usableFromInline var s3: UInt64

  /// A generator whose sequence is determined by `seed`.
  public init(seed: UInt64) {
    var state = seed
    func splitMix() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    s0 = splitMix()
    s1 = splitMix()
    s2 = splitMix()
    s3 = splitMix()
  }

  /// The next 64 random bits.
  @inlinable public mutating func next() -> UInt64 {
    let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
    let t = s1 << 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = s3 << 45 | s3 >> 19
    return result
  }

  /// A number in `0..<bound` (0 when `bound` is 0), by Lemire's multiply-high mapping
  /// without rejection: the bias is below `bound / 2^64`, far below what a simulation can
  /// notice, and every draw costs exactly one `next()`, which keeps sequences aligned.
  @inlinable public mutating func below(_ bound: UInt64) -> UInt64 {
    bound.multipliedFullWidth(by: next()).high
  }

  /// A number in `0..<bound` (0 when `bound <= 0`).
  @inlinable public mutating func below(_ bound: Int) -> Int {
    Int(truncatingIfNeeded: below(UInt64(max(bound, 0))))
  }

  /// A number in `range`.
  @inlinable public mutating func between(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + below(range.upperBound - range.lowerBound + 1)
  }

  /// True with probability `numerator / denominator`.
  @inlinable public mutating func chance(_ numerator: UInt64, in denominator: UInt64) -> Bool {
    below(denominator) < numerator
  }
}
