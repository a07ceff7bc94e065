/// A line of JSON that is an array of non-negative integers, `[1,22,333]` and a line feed,
/// written straight into a buffer it owns: the page's numbers an event (the times' deltas,
/// the codes, the numbers of the bodies, change lists and reasons).
///
/// The bytes `JSONWriter` writes for the same array, in fewer instructions: no sign, no
/// state of nested objects and arrays, the digits counted by comparisons and written two at
/// a time from the last. It cannot be
/// copied (its buffer is its own); pass it `inout`.
struct NumberLine: ~Copyable {
  private var start: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  /// The bytes written, `[` included.
  private var length = 1

  /// An empty array, whose buffer holds `capacity` bytes before it grows.
  init(capacity: Int) {
    self.capacity = max(capacity, 64)
    start = .allocate(capacity: self.capacity)
    start[0] = UInt8(ascii: "[")
  }

  deinit { start.deallocate() }

  /// The length of the line: the numbers, their commas, the brackets and the line feed.
  var count: Int { length + 2 }

  /// Appends `value`, after a comma when it is not the first.
  @inline(__always) mutating func append(_ value: UInt64) {
    // A comma and at most 20 digits.
    if capacity - length < 21 { grow() }
    if length > 1 {
      start[length] = UInt8(ascii: ",")
      length += 1
    }
    var digits: Int
    // The page's numbers are short: a few comparisons count their digits.
    if value < 10 {
      digits = 1
    } else if value < 100 {
      digits = 2
    } else if value < 1_000 {
      digits = 3
    } else if value < 10_000 {
      digits = 4
    } else if value < 100_000 {
      digits = 5
    } else {
      digits = 6
      var rest = value / 1_000_000
      while rest != 0 {
        digits += 1
        rest /= 10
      }
    }
    var position = length + digits
    length = position
    var value = value
    // Past 32 bits a digit at a time; then two at a time in 32-bit arithmetic.
    while value > UInt64(UInt32.max) {
      position -= 1
      start[position] = UInt8(truncatingIfNeeded: value % 10) &+ UInt8(ascii: "0")
      value /= 10
    }
    var small = UInt32(truncatingIfNeeded: value)
    while small >= 100 {
      let pair = small % 100
      small /= 100
      position -= 2
      start[position] = UInt8(truncatingIfNeeded: pair / 10) &+ UInt8(ascii: "0")
      start[position + 1] = UInt8(truncatingIfNeeded: pair % 10) &+ UInt8(ascii: "0")
    }
    if small >= 10 {
      start[position - 2] = UInt8(truncatingIfNeeded: small / 10) &+ UInt8(ascii: "0")
      start[position - 1] = UInt8(truncatingIfNeeded: small % 10) &+ UInt8(ascii: "0")
    } else {
      start[position - 1] = UInt8(truncatingIfNeeded: small) &+ UInt8(ascii: "0")
    }
  }

  /// Appends the line, closed (`]` and a line feed), to `bytes`.
  func write(to bytes: inout [UInt8]) {
    bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: length))
    bytes.append(UInt8(ascii: "]"))
    bytes.append(UInt8(ascii: "\n"))
  }

  private mutating func grow() {
    let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
    grown.update(from: start, count: length)
    start.deallocate()
    start = grown
    capacity *= 2
  }
}
