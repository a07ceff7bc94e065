import Foundation

/// The seed of a randomised test: `REWIND_TEST_SEED` when set (to replay a failure),
/// else a fresh one. It is printed either way, so that a failing run can be replayed.
public func testSeed(_ test: String) -> UInt64 {
  let seed =
    ProcessInfo.processInfo.environment["REWIND_TEST_SEED"].flatMap { UInt64($0) }
    ?? UInt64.random(in: 1...UInt64(Int64.max))
  print("\(test): seed \(seed) (replay with REWIND_TEST_SEED=\(seed))")
  return seed
}

/// SplitMix64: a small seeded generator, so that randomised trials repeat exactly.
public struct SplitMix64: RandomNumberGenerator {
  public var state: UInt64
  public init(seed: UInt64) { state = seed }
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// How many trials a randomised test runs: `REWIND_SOAK_<NAME>` when set (`Tools/soak`
/// sets it for the long runs), else `standard`, which keeps the default run short.
public func soakCount(_ name: String, standard: Int) -> Int {
  ProcessInfo.processInfo.environment["REWIND_SOAK_" + name].flatMap { Int($0) } ?? standard
}
