extension DoubleText {
  /// The `Double` nearest to `digits` × 10^`exponent` (ties to even), as `Double(text)`
  /// reads the decimal; nil when this cannot tell quickly (below 10⁻²⁹², a subnormal or
  /// an overflowing result, or a product too near a halfway point), and the caller reads
  /// the text with the C library instead.
  ///
  /// Clinger's fast path when the digits and the power of ten are both exact Doubles
  /// (one correctly rounded operation), else the Eisel–Lemire method (Daniel Lemire,
  /// "Number Parsing at a Gigabyte per Second", 2021): the digits, shifted to the top of
  /// 64 bits, times the 128-bit truncated power of ten (``powersOfTen``), whose top 54
  /// bits round to the result unless the bits below them are too near a halfway point.
  /// - Complexity: O(1): one or two 64 × 64-bit multiplications.
  static func value(digits: UInt64, exponent: Int) -> Double? {
    if digits == 0 { return 0 }
    if digits <= 1 << 53 && exponent >= -22 && exponent <= 22 {
      let power = exactPowerOfTen(exponent.magnitude)
      return exponent < 0 ? Double(digits) / power : Double(digits) * power
    }
    guard exponent >= -292, exponent <= 308 else { return nil }
    let leadingZeros = digits.leadingZeroBitCount
    let w = digits << leadingZeros
    // The truncated 128-bit power: the table holds ⌊…⌋ + 1; from 10⁻²⁷ to 10⁻¹ the
    // method takes the power rounded up, which that is (none of them is exact).
    var (high, low) = tenToThe(exponent)
    if exponent < -27 || exponent >= 0 {
      if low == 0 { high &-= 1 }
      low &-= 1
    }
    var product = w.multipliedFullWidth(by: high)
    if product.high & 0x1FF == 0x1FF {
      // The bits below the 54 kept are all ones: add the low half's product.
      let lower = w.multipliedFullWidth(by: low)
      let (sum, carry) = product.low.addingReportingOverflow(lower.high)
      product.low = sum
      if carry { product.high &+= 1 }
      if product.low == .max && (exponent < -27 || exponent > 55) { return nil }
    }
    let upperBit = Int(truncatingIfNeeded: product.high >> 63)
    var mantissa = product.high >> (upperBit + 9)
    var biasedExponent = floorLog2Pow10(exponent) + 63 + upperBit - leadingZeros + 1023
    guard biasedExponent > 0 else { return nil }
    // Exactly halfway between two Doubles (possible only for these exponents): round to
    // even rather than up.
    if product.low <= 1 && exponent >= -4 && exponent <= 23 && mantissa & 3 == 1
      && mantissa << (upperBit + 9) == product.high
    {
      mantissa &= ~1
    }
    mantissa += mantissa & 1
    mantissa >>= 1
    if mantissa >= 2 << 52 {
      mantissa = 1 << 52
      biasedExponent += 1
    }
    mantissa &= ~(1 << 52)
    guard biasedExponent < 0x7FF else { return nil }
    return Double(bitPattern: mantissa | UInt64(biasedExponent) << 52)
  }

  /// 10^`exponent` for 0…22, each exact as a Double.
  @inline(__always)
  private static func exactPowerOfTen(_ exponent: UInt) -> Double {
    switch exponent {
    case 0: 1
    case 1: 1e1
    case 2: 1e2
    case 3: 1e3
    case 4: 1e4
    case 5: 1e5
    case 6: 1e6
    case 7: 1e7
    case 8: 1e8
    case 9: 1e9
    case 10: 1e10
    case 11: 1e11
    case 12: 1e12
    case 13: 1e13
    case 14: 1e14
    case 15: 1e15
    case 16: 1e16
    case 17: 1e17
    case 18: 1e18
    case 19: 1e19
    case 20: 1e20
    case 21: 1e21
    default: 1e22
    }
  }
}
