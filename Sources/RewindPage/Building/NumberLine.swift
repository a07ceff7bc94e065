/// A line of JSON that is an array of non-negative integers, `[1,22,333]` and a line feed,
/// written straight into a buffer it owns: the page's numbers an event (the times' deltas,
/// the codes, the numbers of the bodies, change lists and reasons).
///
/// The bytes `JSONWriter` writes for the same array, in fewer instructions: no sign, no
/// state of nested objects and arrays, the digits written three at a time, each group of
/// three a four-byte store from a table (`DigitGroups`), no branch on the first number's
/// comma. It cannot be copied (its buffer is its own); pass it `inout`.
@usableFromInline struct NumberLine: ~Copyable {
  /// The numbers, each after a comma: `,1,22,333` (the first comma is left out when the
  /// line is written).
  @usableFromInline var start: UnsafeMutablePointer<UInt8>
  @usableFromInline var capacity: Int
  /// The bytes written.
  @usableFromInline var length = 0
  /// `DigitGroups.table`, read without the global's check each time.
  @usableFromInline let groups: UnsafePointer<UInt32>

  /// An empty array, whose buffer holds `capacity` bytes before it grows.
  @usableFromInline init(capacity: Int) {
    self.capacity = max(capacity, 64)
    start = .allocate(capacity: self.capacity)
    groups = DigitGroups.table
  }

  @inlinable deinit { start.deallocate() }

  /// The length of the line: the numbers, their commas, the brackets and the line feed.
  @usableFromInline var count: Int { max(length, 1) + 2 }

  /// Appends `value`, after a comma when it is not the first.
  @inlinable @inline(__always) mutating func append(_ value: UInt64) {
    if !hasRoom { grow() }
    length = write(value, at: start + length) - start
  }

  /// Appends `values`, each after a comma when it is not the first: the lines of a page,
  /// written at once from its `RawNumbers` (the position kept in a register, not stored
  /// after each number).
  @usableFromInline mutating func append(contentsOf values: UnsafeBufferPointer<UInt64>) {
    // Room for the longest numbers at once (21 bytes each with the comma, and a group's
    // store past the last): no test in the loop.
    while capacity - length < values.count * 21 + 25 { grow() }
    var position = start + length
    for value in values { position = write(value, at: position) }
    length = position - start
  }

  /// Whether the buffer has room for a number's write: a comma, at most 20 digits, and a
  /// group's four-byte store.
  @inlinable @inline(__always) var hasRoom: Bool { capacity &- length >= 25 }

  /// Writes a comma and the digits of `value` at `position` (with room for 25 bytes);
  /// returns the position after them.
  @inlinable @inline(__always) func write(_ value: UInt64, at position: UnsafeMutablePointer<UInt8>)
    -> UnsafeMutablePointer<UInt8>
  {
    var position = position
    position.pointee = UInt8(ascii: ",")
    position += 1
    if value < 1_000 {
      // The page's numbers are short: most are one group of up to three digits.
      return write(lead: Int(value), at: position)
    } else if value < 1_000_000 {
      let high = Int(value / 1_000)
      position = write(lead: high, at: position)
      return write(group: Int(value) - high * 1_000, at: position)
    } else if value < 1_000_000_000 {
      let high = Int(value / 1_000_000)
      let rest = Int(value) - high * 1_000_000
      let middle = rest / 1_000
      position = write(lead: high, at: position)
      position = write(group: middle, at: position)
      return write(group: rest - middle * 1_000, at: position)
    }
    return writeLong(value, at: position)
  }

  /// The digits of `value` (below 1,000) without leading zeros.
  @inlinable @inline(__always) func write(lead value: Int, at position: UnsafeMutablePointer<UInt8>)
    -> UnsafeMutablePointer<UInt8>
  {
    let entry = groups[value]
    UnsafeMutableRawPointer(position).storeBytes(of: entry, as: UInt32.self)
    return position + Int(entry >> 24)
  }

  /// The three digits of `value` (below 1,000), with leading zeros.
  @inlinable @inline(__always) func write(
    group value: Int, at position: UnsafeMutablePointer<UInt8>
  )
    -> UnsafeMutablePointer<UInt8>
  {
    UnsafeMutableRawPointer(position).storeBytes(of: groups[1_000 + value], as: UInt32.self)
    return position + 3
  }

  /// The digits of a value of ten digits or more, a digit at a time from the last.
  @usableFromInline func writeLong(_ value: UInt64, at position: UnsafeMutablePointer<UInt8>)
    -> UnsafeMutablePointer<UInt8>
  {
    var digits = 0
    var rest = value
    while rest != 0 {
      digits += 1
      rest /= 10
    }
    var end = position + digits
    rest = value
    while end > position {
      end -= 1
      end.pointee = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
      rest /= 10
    }
    return position + digits
  }

  /// Appends the line, closed (`]` and a line feed), to `bytes`.
  @usableFromInline func write(to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "["))
    if length > 1 {
      bytes.append(contentsOf: UnsafeBufferPointer(start: start + 1, count: length - 1))
    }
    bytes.append(UInt8(ascii: "]"))
    bytes.append(UInt8(ascii: "\n"))
  }

  @usableFromInline mutating func grow() {
    start = start.doubled(keeping: length, of: capacity)
    capacity *= 2
  }
}

extension UnsafeMutablePointer {
  /// A buffer of twice `capacity` elements that starts with the first `count` of this one,
  /// which is deallocated: how `NumberLine` and `RawNumbers` grow.
  func doubled(keeping count: Int, of capacity: Int) -> UnsafeMutablePointer {
    let grown = UnsafeMutablePointer.allocate(capacity: capacity * 2)
    grown.moveInitialize(from: self, count: count)
    deallocate()
    return grown
  }
}

/// The digits of the numbers below 1,000 as `NumberLine` writes them, four bytes each
/// (stored at once, the bytes past the digits overwritten by what follows): entries
/// 0..<1,000 without leading zeros, their count in the high byte; entries 1,000..<2,000
/// the same numbers as three digits with leading zeros.
enum DigitGroups {
  /// Made once, kept for the process's life.
  nonisolated(unsafe) static let table: UnsafePointer<UInt32> = {
    let table = UnsafeMutablePointer<UInt32>.allocate(capacity: 2_000)
    let zero = UInt32(UInt8(ascii: "0"))
    for value in 0..<1_000 {
      let (hundreds, tens, ones) = (
        UInt32(value / 100), UInt32(value / 10 % 10), UInt32(value % 10)
      )
      // Three digits, the first in the low byte.
      let padded = (zero + hundreds) | (zero + tens) << 8 | (zero + ones) << 16
      table[1_000 + value] = padded
      let leading = value < 10 ? 2 : value < 100 ? 1 : 0
      table[value] = padded >> UInt32(8 * leading) | UInt32(3 - leading) << 24
    }
    return UnsafePointer(table)
  }()
}
