import TestSupport
import Testing

@testable import RewindCore

/// `DoubleText`, the writer of numbers of `rewind export` (issue 17), against
/// `Double.description`, whose bytes it must write for every finite Double.
@Suite("Doubles written as Double.description writes them")
struct DoubleTextTests {
  /// `value` as `DoubleText` writes it.
  func text(_ value: Double) -> String {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DoubleText.maximumCount) { buffer in
      let count = DoubleText.write(value, to: buffer.baseAddress!)
      #expect(count <= DoubleText.maximumCount)
      return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
    }
  }

  /// Checks `value` and `-value` against `description`; false on a difference.
  @discardableResult
  func matches(_ value: Double, _ note: @autoclosure () -> String = "") -> Bool {
    guard value.isFinite else { return true }
    var same = true
    for signed in [value, -value] where text(signed) != signed.description {
      #expect(
        text(signed) == signed.description,
        "bits 0x\(String(signed.bitPattern, radix: 16)) \(note())")
      same = false
    }
    return same
  }

  @Test("the forms of description: zeros, whole numbers, fractions, exponents")
  func forms() {
    let cases: [(Double, String)] = [
      (0, "0.0"), (-0.0, "-0.0"), (5, "5.0"), (-5, "-5.0"), (0.5, "0.5"), (0.1, "0.1"),
      (6.333333333333333, "6.333333333333333"), (1 / 3, "0.3333333333333333"),
      (0.0001, "0.0001"), (0.00012, "0.00012"), (0.00001, "1e-05"), (0.000012, "1.2e-05"),
      (1e15, "1000000000000000.0"), (123_456.75, "123456.75"),
      (9_007_199_254_740_992, "9007199254740992.0"),
      (9_007_199_254_740_994, "9.007199254740994e+15"),
      (4_503_599_627_370_495.5, "4503599627370495.5"), (1e16, "1e+16"),
      (18_014_398_509_481_984, "1.8014398509481984e+16"), (1e22, "1e+22"), (1e23, "1e+23"),
      (1e100, "1e+100"), (1.5e300, "1.5e+300"),
      (.greatestFiniteMagnitude, "1.7976931348623157e+308"),
      (.leastNormalMagnitude, "2.2250738585072014e-308"), (.leastNonzeroMagnitude, "5e-324"),
      (2 * .leastNonzeroMagnitude, "1e-323"), (1e-100, "1e-100"), (-1.25e-7, "-1.25e-07"),
    ]
    for (value, expected) in cases {
      #expect(text(value) == expected, "\(expected)")
      #expect(value.description == expected, "the case itself: \(expected)")
    }
  }

  @Test("edges: powers of two and of ten and their neighbours, subnormals, the extremes")
  func edges() {
    for exponent in -1074...1023 {
      let power = Double(sign: .plus, exponent: exponent, significand: 1)
      for value in [power, power.nextUp, power.nextDown, power * 1.5] {
        matches(value, "2^\(exponent)")
      }
    }
    for exponent in -325...309 {
      guard let power = Double("1e\(exponent)") else { continue }
      for value in [power, power.nextUp, power.nextDown, power * 5, power * 2.5] {
        matches(value, "10^\(exponent)")
      }
    }
    for bits: UInt64 in [1, 2, 3, 9, 10, 0x000F_FFFF_FFFF_FFFF, 0x0010_0000_0000_0000] {
      matches(Double(bitPattern: bits))
    }
    matches(.greatestFiniteMagnitude)
    matches(.greatestFiniteMagnitude.nextDown)
    // Whole numbers around 2^53, where the forms change.
    for offset in -4...4 {
      matches(9_007_199_254_740_992 + Double(offset))
      matches(Double(Int64(1) << 54 + Int64(offset) * 4))
    }
  }

  @Test("random bit patterns, random decimals, subnormals, whole numbers and halves")
  func random() {
    let seed = testSeed("DoubleTextTests.random")
    var random = SplitMix64(seed: seed)
    let trials = soakCount("DOUBLE_TEXT", standard: 100_000)
    var failures = 0
    for _ in 0..<trials where failures < 10 {
      // Any bit pattern (NaNs and infinities skipped by `matches`).
      if !matches(Double(bitPattern: random.next()), "seed \(seed)") { failures += 1 }
      // A decimal a person would write: up to 17 digits, a small exponent.
      var digits: UInt64 = 0
      for _ in 0..<Int.random(in: 1...17, using: &random) {
        digits = digits * 10 + UInt64.random(in: 0...9, using: &random)
      }
      let exponent = Int.random(in: -25...25, using: &random)
      if let value = Double("\(digits)e\(exponent)"), !matches(value, "seed \(seed)") {
        failures += 1
      }
      // A subnormal.
      let subnormal = Double(bitPattern: UInt64.random(in: 1..<(1 << 52), using: &random))
      if !matches(subnormal, "seed \(seed)") { failures += 1 }
      // A whole number up to 2^55, and it in 1024ths.
      let whole = Double(Int64.random(in: 0...(1 << 55), using: &random))
      if !matches(whole, "seed \(seed)") || !matches(whole / 1024, "seed \(seed)") {
        failures += 1
      }
      // A value of a few digits divided by a few: 6.333333333333333 and the like.
      let ratio =
        Double(Int.random(in: 1...100_000, using: &random))
        / Double(Int.random(in: 1...1000, using: &random))
      if !matches(ratio, "seed \(seed)") { failures += 1 }
    }
  }

  @Test("the shortest decimal reads back as the value, with no trailing zero")
  func shortestReadsBack() {
    let seed = testSeed("DoubleTextTests.shortestReadsBack")
    var random = SplitMix64(seed: seed)
    for _ in 0..<20_000 {
      let value = Double(bitPattern: random.next() & ~(1 << 63))
      guard value.isFinite, value > 0 else { continue }
      let (digits, exponent) = DoubleText.shortestDecimal(value)
      #expect(digits % 10 != 0, "seed \(seed)")
      #expect(Double("\(digits)e\(exponent)") == value, "seed \(seed), \(value)")
    }
  }

  @Test(
    "decimals read correctly rounded: value(digits:exponent:) and the in-place reader against Double(text)"
  )
  func reading() {
    let seed = testSeed("DoubleTextTests.reading")
    var random = SplitMix64(seed: seed)
    let trials = soakCount("DOUBLE_TEXT", standard: 100_000)
    var failures = 0
    func check(_ digits: UInt64, _ exponent: Int) {
      guard failures < 10, let expected = Double("\(digits)e\(exponent)") else { return }
      // nil leaves the text to the C library, which is right by definition.
      guard let value = DoubleText.value(digits: digits, exponent: exponent) else { return }
      if value.bitPattern != expected.bitPattern {
        failures += 1
        #expect(value.bitPattern == expected.bitPattern, "\(digits)e\(exponent), seed \(seed)")
      }
    }
    for _ in 0..<trials {
      var digits: UInt64 = UInt64.random(in: 1...9, using: &random)
      for _ in 1..<Int.random(in: 1...19, using: &random) {
        digits = digits * 10 + UInt64.random(in: 0...9, using: &random)
      }
      check(digits, Int.random(in: -30...30, using: &random))
      check(digits, Int.random(in: -330...320, using: &random))
      // The shortest digits of a random Double, which must read back as it.
      let value = Double(bitPattern: random.next() & ~(1 << 63))
      if value.isNormal {
        let (shortest, exponent) = DoubleText.shortestDecimal(value)
        check(shortest, exponent)
        #expect(
          DoubleText.value(digits: shortest, exponent: exponent).map { $0 == value } ?? true,
          "seed \(seed)")
      }
    }
    // Halfway between two Doubles: 2^53 + 1 and the like, which round to even.
    for k: UInt64 in 0..<2_000 {
      let odd = 1 << 53 + 2 * k + 1
      check(odd, 0)
      check(odd * 10 + 5, -1)
      check(odd * 5, -1)
    }
    for exponent in -30...30 {
      for digits: UInt64 in [1, 5, 25, 125, 9_007_199_254_740_993, 4_503_599_627_370_497] {
        check(digits, exponent)
      }
    }
  }

  @Test("numbers in the text of a line read in place as Double(text) reads them")
  func readingInPlace() {
    let seed = testSeed("DoubleTextTests.readingInPlace")
    var random = SplitMix64(seed: seed)
    var storage: [JSONField] = []
    for _ in 0..<20_000 {
      // A number as a person or a program writes it: a sign, digits with a point
      // somewhere, leading zeros after the point, an exponent.
      var text = Bool.random(using: &random) ? "-" : ""
      let whole = Int.random(in: 0...3, using: &random)
      text += whole == 0 ? "0" : String(UInt64.random(in: 1...UInt64(1e15), using: &random))
      if Bool.random(using: &random) {
        text += "." + String(repeating: "0", count: Int.random(in: 0...6, using: &random))
        text += String(UInt64.random(in: 0...UInt64.max / 2, using: &random))
      }
      if Int.random(in: 0...3, using: &random) == 0 {
        text += ["e", "E", "e+", "e-"].randomElement(using: &random)!
        text += String(Int.random(in: 0...330, using: &random))
      }
      let line = #"{"offset":"# + text + "}"
      let expected = Double(text)!
      let read = Array(line.utf8).withUnsafeBufferPointer { bytes -> Double?? in
        guard JSONFields.parse(bytes, into: &storage) else { return .some(nil) }
        return storage[0].double
      }
      if expected.isFinite {
        // An integer is read as an Int64 (so -0 as 0), what the full parser reads too.
        let integer = !text.contains(".") && !text.lowercased().contains("e")
        guard case .some(.some(let value)) = read else {
          Issue.record("\(text) was not read in place, seed \(seed)")
          continue
        }
        #expect(
          value.bitPattern == expected.bitPattern || (integer && value == expected),
          "\(text), seed \(seed)")
      } else {
        #expect(read == .some(nil), "\(text) is left to the full parser, seed \(seed)")
      }
    }
  }

  @Test("integers written as String(value) writes them: digits, and the writer's int")
  func integers() {
    let seed = testSeed("DoubleTextTests.integers")
    var random = SplitMix64(seed: seed)
    var values: [Int64] = [0, 1, -1, 9, 10, 99, 100, .max, .min, .max - 1, .min + 1]
    var power: Int64 = 1
    for _ in 0..<18 {
      power *= 10
      values += [power - 1, power, power + 1, -power, -power + 1]
    }
    for _ in 0..<20_000 {
      // Any size: a random value shifted right by a random amount.
      values.append(Int64(bitPattern: random.next()) >> Int.random(in: 0...63, using: &random))
    }
    var writer = JSONWriter()
    for value in values {
      writer.removeAll()
      writer.int(value)
      #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value), "seed \(seed)")
      let magnitude = value.magnitude
      let text = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
        let count = DoubleText.writeDigits(magnitude, to: buffer.baseAddress!)
        return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
      }
      #expect(text == String(magnitude), "seed \(seed)")
    }
    let largest = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
      let count = DoubleText.writeDigits(.max, to: buffer.baseAddress!)
      return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
    }
    #expect(largest == String(UInt64.max))
  }

  @Test("the digit counts and the logarithm estimates hold over their ranges")
  func estimates() {
    var power: UInt64 = 1
    for digits in 1...19 {
      #expect(DoubleText.digitCount(power) == digits)
      #expect(DoubleText.digitCount(power - 1) == max(digits - 1, 1))
      #expect(DoubleText.digitCount(power * 9) == digits)
      power *= 10
    }
    #expect(DoubleText.digitCount(.max) == 20)
    #expect(DoubleText.digitCount(0) == 1)
    // ⌊log₁₀ 2^q⌋ against the powers of ten as Doubles, which are exact far enough to
    // tell; the exponents of the table's use are checked through the table below.
    for q in -1100...1100 {
      let log = Double(q) * 0.301_029_995_663_981_2
      let estimate = DoubleText.floorLog10Pow2(q)
      #expect(Double(estimate) <= log + 1e-9 && log < Double(estimate + 1), "q \(q)")
    }
  }

  @Test("the table of powers of ten is ⌊10^e × 2^(127 − ⌊log₂ 10^e⌋)⌋ + 1, to the bit")
  func table() {
    for e in -292...324 {
      let (high, low) = DoubleText.tenToThe(e)
      let expected = BigNumber.tableEntry(e)
      #expect(high == expected.high && low == expected.low, "10^\(e)")
      // The binary exponent the printer takes with it.
      #expect(DoubleText.floorLog2Pow10(e) == BigNumber.floorLog2PowerOfTen(e), "10^\(e)")
    }
  }
}

/// Unsigned integers of any size, little-endian 32-bit limbs: just enough to compute the
/// printer's table from its definition.
private struct BigNumber {
  var limbs: [UInt32]

  init(_ value: UInt32) { limbs = [value] }

  static func powerOfTen(_ exponent: Int) -> BigNumber {
    var number = BigNumber(1)
    for _ in 0..<exponent { number.multiply(by: 10) }
    return number
  }

  var bitLength: Int {
    guard let index = limbs.lastIndex(where: { $0 != 0 }) else { return 0 }
    return index * 32 + (32 - limbs[index].leadingZeroBitCount)
  }

  func bit(_ index: Int) -> Bool {
    index / 32 < limbs.count && limbs[index / 32] >> (index % 32) & 1 == 1
  }

  mutating func multiply(by factor: UInt32) {
    var carry: UInt64 = 0
    for index in limbs.indices {
      let product = UInt64(limbs[index]) * UInt64(factor) + carry
      limbs[index] = UInt32(truncatingIfNeeded: product)
      carry = product >> 32
    }
    if carry != 0 { limbs.append(UInt32(carry)) }
  }

  /// 2 × self + bit.
  mutating func double(adding bit: Bool) {
    var carry: UInt32 = bit ? 1 : 0
    for index in limbs.indices {
      let next = limbs[index] >> 31
      limbs[index] = limbs[index] << 1 | carry
      carry = next
    }
    if carry != 0 { limbs.append(carry) }
  }

  static func >= (a: BigNumber, b: BigNumber) -> Bool {
    let count = max(a.limbs.count, b.limbs.count)
    for index in stride(from: count - 1, through: 0, by: -1) {
      let x = index < a.limbs.count ? a.limbs[index] : 0
      let y = index < b.limbs.count ? b.limbs[index] : 0
      if x != y { return x > y }
    }
    return true
  }

  mutating func subtract(_ other: BigNumber) {
    var borrow: Int64 = 0
    for index in limbs.indices {
      let y = index < other.limbs.count ? Int64(other.limbs[index]) : 0
      var difference = Int64(limbs[index]) - y - borrow
      borrow = 0
      if difference < 0 {
        difference += 1 << 32
        borrow = 1
      }
      limbs[index] = UInt32(difference)
    }
  }

  /// ⌊log₂ 10^e⌋.
  static func floorLog2PowerOfTen(_ e: Int) -> Int {
    // 10^e for e ≥ 0 has bitLength − 1; for e < 0, 10^-e is no power of two, so
    // ⌊−log₂ 10^-e⌋ = −⌈log₂ 10^-e⌉ = −bitLength.
    e >= 0 ? powerOfTen(e).bitLength - 1 : -powerOfTen(-e).bitLength
  }

  /// ⌊10^e × 2^(127 − ⌊log₂ 10^e⌋)⌋ + 1, in two halves.
  static func tableEntry(_ e: Int) -> (high: UInt64, low: UInt64) {
    var bits: [Bool] = []  // the 128 bits of the floor, highest first
    if e >= 0 {
      // The top 128 bits of 10^e (zeros below it when it has fewer).
      let power = powerOfTen(e)
      let top = power.bitLength - 1
      bits = (0..<128).map { offset in top - offset >= 0 && power.bit(top - offset) }
    } else {
      // 2^(127 + b) ÷ 10^-e, b the bit length of 10^-e: long division, bit by bit.
      let divisor = powerOfTen(-e)
      let numeratorBits = 128 + divisor.bitLength
      var remainder = BigNumber(0)
      for index in stride(from: numeratorBits - 1, through: 0, by: -1) {
        remainder.double(adding: index == numeratorBits - 1)
        let fits = remainder >= divisor
        if fits { remainder.subtract(divisor) }
        if index < 128 { bits.append(fits) }
      }
    }
    var high: UInt64 = 0
    var low: UInt64 = 0
    for (offset, bit) in bits.enumerated() where bit {
      if offset < 64 { high |= 1 << (63 - offset) } else { low |= 1 << (127 - offset) }
    }
    let (sum, carry) = low.addingReportingOverflow(1)
    return (high &+ (carry ? 1 : 0), sum)
  }
}
