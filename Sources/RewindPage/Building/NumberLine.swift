/// A line of JSON that is an array of non-negative integers, `[1,22,333]` and a line feed,
/// written straight into a buffer: the numbers of the page's rejected events' reasons,
/// written once, at the end, into the page's data (`SessionPage.Payload.lines`).
///
/// The bytes `JSONWriter` writes for the same array, in fewer instructions: no sign, no
/// state of nested objects and arrays, the digits written three at a time from tables
/// (`DigitGroups`), a number below 1,000 and its comma one eight-byte store, no branch on
/// the first number's comma (each number is written after a comma; the first comma is then
/// overwritten by the `[`), no test of room in the loop (the buffer is sized once for the
/// whole line, ``bound(of:)``).
enum NumberLine {
  /// At least the bytes ``write(_:to:)`` writes for `values`, and at least the bytes it
  /// stores (a store may reach 7 bytes past the line): each number's comma and as many
  /// digits as the widest, the brackets, the line feed and 8 bytes.
  /// - Complexity: O(`values.count`), an OR of the numbers (no division).
  static func bound(of values: UnsafeBufferPointer<UInt64>) -> Int {
    var all: UInt64 = 0
    if var number = values.baseAddress {
      // Eight at a time in vector registers, then the rest one at a time.
      let end = number + values.count
      var eight = SIMD8<UInt64>()
      while end - number >= 8 {
        eight |= UnsafeRawPointer(number).loadUnaligned(as: SIMD8<UInt64>.self)
        number += 8
      }
      for lane in eight.indices { all |= eight[lane] }
      while number < end {
        all |= number.pointee
        number += 1
      }
    }
    return bound(count: values.count, all: all)
  }

  /// ``bound(of:)`` of `count` numbers whose OR is `all`: `all` is at least the largest
  /// number, so it has at least as many digits.
  static func bound(count: Int, all: UInt64) -> Int {
    count * (1 + digitCount(all)) + 11
  }

  /// The number of decimal digits of `value` (1 for 0).
  static func digitCount(_ value: UInt64) -> Int {
    var count = 1
    var power: UInt64 = 10
    while count < 20, value >= power {
      count += 1
      power = power &* 10
    }
    return count
  }

  /// Writes the line of `values` (`[`, the numbers between commas, `]`, a line feed) at
  /// `position`, which has room for ``bound(of:)`` bytes; returns the position after the
  /// line feed. The bytes past it, up to the bound, are left undefined.
  static func write(_ values: UnsafeBufferPointer<UInt64>, to position: UnsafeMutablePointer<UInt8>)
    -> UnsafeMutablePointer<UInt8>
  {
    let groups = DigitGroups.table
    var end = position
    if var number = values.baseAddress {
      // Four at a time: one test of the loop's end for four numbers.
      var left = values.count
      while left >= 4 {
        end = write(number[0], at: end, groups: groups)
        end = write(number[1], at: end, groups: groups)
        end = write(number[2], at: end, groups: groups)
        end = write(number[3], at: end, groups: groups)
        number += 4
        left &-= 4
      }
      while left > 0 {
        end = write(number[0], at: end, groups: groups)
        number += 1
        left &-= 1
      }
    }
    // `,1,22` → `[1,22`; nothing written → `[`.
    position.pointee = UInt8(ascii: "[")
    if end == position { end += 1 }
    end[0] = UInt8(ascii: "]")
    end[1] = UInt8(ascii: "\n")
    return end + 2
  }

  /// Writes a comma and the digits of `value` at `position` (with room for 21 bytes and 7
  /// past them); returns the position after the digits.
  @inline(__always) static func write(
    _ value: UInt64, at position: UnsafeMutablePointer<UInt8>, groups: DigitGroups.Tables
  ) -> UnsafeMutablePointer<UInt8> {
    if value < 1_000 {
      // The page's numbers are short: most are one group of up to three digits.
      return write(lead: Int(truncatingIfNeeded: value), at: position, groups: groups)
    } else if value < 1_000_000 {
      let number = Int(truncatingIfNeeded: value)
      let high = number / 1_000
      let end = write(lead: high, at: position, groups: groups)
      return write(group: number &- high &* 1_000, at: end, groups: groups)
    } else if value < 1_000_000_000 {
      let number = Int(truncatingIfNeeded: value)
      let high = number / 1_000_000
      let rest = number &- high &* 1_000_000
      let middle = rest / 1_000
      var end = write(lead: high, at: position, groups: groups)
      end = write(group: middle, at: end, groups: groups)
      return write(group: rest &- middle &* 1_000, at: end, groups: groups)
    }
    return writeLong(value, at: position)
  }

  /// A comma and the digits of `value` (below 1,000) without leading zeros: one store.
  @inline(__always) static func write(
    lead value: Int, at position: UnsafeMutablePointer<UInt8>, groups: DigitGroups.Tables
  ) -> UnsafeMutablePointer<UInt8> {
    let entry = groups.leads[value]
    UnsafeMutableRawPointer(position).storeBytes(of: entry, as: UInt64.self)
    return position + Int(truncatingIfNeeded: entry >> 56)
  }

  /// The three digits of `value` (below 1,000), with leading zeros.
  @inline(__always) static func write(
    group value: Int, at position: UnsafeMutablePointer<UInt8>, groups: DigitGroups.Tables
  ) -> UnsafeMutablePointer<UInt8> {
    UnsafeMutableRawPointer(position).storeBytes(of: groups.padded[value], as: UInt32.self)
    return position + 3
  }

  /// A comma and the digits of a value of ten digits or more, a digit at a time from the
  /// last.
  @inline(never) static func writeLong(_ value: UInt64, at position: UnsafeMutablePointer<UInt8>)
    -> UnsafeMutablePointer<UInt8>
  {
    position.pointee = UInt8(ascii: ",")
    let digits = digitCount(value)
    var end = position + 1 + digits
    var rest = value
    while end > position + 1 {
      end -= 1
      end.pointee = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
      rest /= 10
    }
    return position + 1 + digits
  }
}

extension UnsafeMutablePointer {
  /// A buffer of twice `capacity` elements that starts with the first `count` of this one,
  /// which is deallocated: how `RawNumbers` grows.
  func doubled(keeping count: Int, of capacity: Int) -> UnsafeMutablePointer {
    let grown = UnsafeMutablePointer.allocate(capacity: capacity * 2)
    grown.moveInitialize(from: self, count: count)
    deallocate()
    return grown
  }
}

/// The digits of the numbers below 1,000 as `NumberLine` writes them.
enum DigitGroups {
  /// The two tables, read without the global's check each time.
  struct Tables {
    /// For each number below 1,000: a comma and its digits without leading zeros, the
    /// first in the low byte (stored at once, the bytes past the digits overwritten by
    /// what follows), and in the high byte the count of the comma and the digits.
    let leads: UnsafePointer<UInt64>
    /// For each number below 1,000: its three digits with leading zeros, the first in the
    /// low byte (a four-byte store, the last byte overwritten by what follows).
    let padded: UnsafePointer<UInt32>
  }

  /// Made once, kept for the process's life.
  nonisolated(unsafe) static let table: Tables = {
    let leads = UnsafeMutablePointer<UInt64>.allocate(capacity: 1_000)
    let padded = UnsafeMutablePointer<UInt32>.allocate(capacity: 1_000)
    let zero = UInt64(UInt8(ascii: "0"))
    for value in 0..<1_000 {
      let (hundreds, tens, ones) = (
        zero + UInt64(value / 100), zero + UInt64(value / 10 % 10), zero + UInt64(value % 10)
      )
      padded[value] = UInt32(hundreds | tens << 8 | ones << 16)
      // A comma, then the digits from the first that is not a leading zero.
      let comma = UInt64(UInt8(ascii: ","))
      leads[value] =
        value < 10
        ? comma | ones << 8 | 2 << 56
        : value < 100
          ? comma | tens << 8 | ones << 16 | 3 << 56
          : comma | hundreds << 8 | tens << 16 | ones << 24 | 4 << 56
    }
    return Tables(leads: UnsafePointer(leads), padded: UnsafePointer(padded))
  }()
}
