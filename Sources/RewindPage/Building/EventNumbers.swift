/// The page's four numbers of each event (its time's delta, its code, the numbers of its
/// body and of its change list) as they are met, a row of four 32-bit words an event,
/// written once as the page's rows (four varints an event, ``rowBytes``) when the page's
/// data is put together.
///
/// One buffer and one count for the four, not a `RawNumbers` each: the common event's
/// step in the replay's inner loop (`SessionPage.Payload.Builder.addCommon`) reads one
/// buffer's start and count and writes one count, where four would be read and written
/// through the builder each event. It cannot be copied (its buffer is its own); pass it
/// `inout`.
///
/// A row is 16 bytes, not the 32 of four 64-bit words: a page of 200,000 events touches
/// 3.2 MB of rows, not 6.4 (780 page faults fewer, BENCHMARKS.md). A code and the numbers
/// of a body and a change list are below 2^32 − 1 (a page's are below three times its
/// events and kinds; the rows are fewer than 2^28); a time's delta may not be (a pause of
/// 72 minutes is 2^32 µs), and one at least 2^32 − 1 is stored as 2^32 − 1 (``longTime``),
/// its value in ``longTimes``, in the rows' order.
@usableFromInline struct EventNumbers: ~Copyable {
  /// The numbers of an event, in this order: its row's words.
  @usableFromInline enum Column: Int, CaseIterable {
    case time, code, body, changes
  }

  /// The word of a time's delta that is in ``longTimes``.
  @usableFromInline static let longTime = UInt32.max

  /// The most rows: a code (three times a kind's index, plus an outcome) and a number of a
  /// body or change list (below the rows) are then below 2^32 − 1.
  static let maximumRows = 1 << 28

  /// The rows, four words each.
  @usableFromInline var start: UnsafeMutablePointer<UInt32>
  /// The rows there is room for.
  @usableFromInline var capacity: Int
  /// The rows appended.
  @usableFromInline var count = 0
  /// The times' deltas of 2^32 − 1 µs or more, in the rows' order.
  @usableFromInline var longTimes: [UInt64] = []

  /// No rows, with room for `capacity` before the buffer grows.
  @usableFromInline init(capacity: Int) {
    self.capacity = min(max(capacity, 16), Self.maximumRows)
    start = .allocate(capacity: self.capacity * 4)
  }

  @inlinable deinit { start.deallocate() }

  /// Whether there is room for one more row without growing.
  @inlinable @inline(__always) var hasRoom: Bool { count < capacity }

  /// Appends an event's row. `code`, `body` and `changes` are below 2^32 − 1.
  @inlinable @inline(__always) mutating func append(
    time: UInt64, code: UInt64, body: UInt64, changes: UInt64
  ) {
    if time < UInt64(Self.longTime), hasRoom {
      append(withinRoom: time, code: code, body: body, changes: changes)
    } else {
      appendGrowing(time: time, code: code, body: body, changes: changes)
    }
  }

  /// Appends an event's row: `hasRoom` true, `time` below 2^32 − 1 (a time's delta too
  /// long is ``append(time:code:body:changes:)``'s), `code`, `body` and `changes` below
  /// 2^32 − 1. Stores only: no call in the replay's inner loop.
  @inlinable @inline(__always) mutating func append(
    withinRoom time: UInt64, code: UInt64, body: UInt64, changes: UInt64
  ) {
    assert(count < capacity, "a row appended past the room")
    assert(time < Self.longTime, "a long time's delta appended within room")
    assert(code < Self.longTime && body < Self.longTime && changes < Self.longTime)
    let row = start + count &* 4
    row[0] = UInt32(truncatingIfNeeded: time)
    row[1] = UInt32(truncatingIfNeeded: code)
    row[2] = UInt32(truncatingIfNeeded: body)
    row[3] = UInt32(truncatingIfNeeded: changes)
    count &+= 1
  }

  /// ``append(time:code:body:changes:)`` of a row with no room left or a time's delta of
  /// 2^32 − 1 µs or more (``longTime``, the delta noted in ``longTimes``).
  @usableFromInline @inline(never) mutating func appendGrowing(
    time: UInt64, code: UInt64, body: UInt64, changes: UInt64
  ) {
    if !hasRoom { grow() }
    guard time >= UInt64(Self.longTime) else {
      return append(withinRoom: time, code: code, body: body, changes: changes)
    }
    longTimes.append(time)
    append(withinRoom: 0, code: code, body: body, changes: changes)
    start[(count - 1) * 4] = Self.longTime
  }

  /// The number of `column` of row `index`.
  /// - Complexity: O(`index`) for a long time's delta (its place in ``longTimes`` is
  ///   counted), else O(1).
  func number(_ column: Column, of index: Int) -> UInt64 {
    precondition(index >= 0 && index < count, "row \(index) of \(count)")
    let word = start[index * 4 + column.rawValue]
    guard column == .time, word == Self.longTime else { return UInt64(word) }
    let before = (0..<index).filter { start[$0 * 4] == Self.longTime }.count
    return longTimes[before]
  }

  /// Appends the rows of `other`, each number mapped by its column's function: a part's
  /// rows renumbered to the tables of the page it joins (`SessionPage+Parts.swift`).
  mutating func append(
    _ other: borrowing EventNumbers, code: (UInt64) -> UInt64, body: (UInt64) -> UInt64,
    changes: (UInt64) -> UInt64
  ) {
    while capacity - count < other.count { grow() }
    longTimes += other.longTimes
    for index in 0..<other.count {
      let from = other.start + index * 4
      let (code, body, changes) = (
        code(UInt64(from[1])), body(UInt64(from[2])), changes(UInt64(from[3]))
      )
      precondition(
        code < Self.longTime && body < Self.longTime && changes < Self.longTime,
        "a page's code or number above 2^32 − 2")
      let row = start + count * 4
      row[0] = from[0]
      row[1] = UInt32(code)
      row[2] = UInt32(body)
      row[3] = UInt32(changes)
      count += 1
    }
  }

  /// The rows as the page carries them: each row's four numbers in ``Column``'s order, each
  /// an unsigned LEB128 varint (seven bits a byte, the low bits first, the high bit set on
  /// every byte of a number but its last).
  /// - Complexity: O(`count`), one pass over the rows into a buffer sized for the longest
  ///   rows (25 bytes: a time's delta of 10, three numbers below 2^32 of 5).
  @usableFromInline var rowBytes: [UInt8] {
    [UInt8](unsafeUninitializedCapacity: count * 25) { buffer, written in
      guard let base = buffer.baseAddress else { return }
      var out = base
      var row = UnsafePointer(start)
      let end = row + count * 4
      var long = 0
      while row < end {
        if _fastPath(row[0] != Self.longTime) {
          out = Self.writeVarint(row[0], to: out)
        } else {
          out = Self.writeVarint(longTimes[long], to: out)
          long += 1
        }
        out = Self.writeVarint(row[1], to: out)
        out = Self.writeVarint(row[2], to: out)
        out = Self.writeVarint(row[3], to: out)
        row += 4
      }
      written = out - base
    }
  }

  /// Writes `value` as an unsigned LEB128 varint at `position`; returns the position
  /// after it. The page's numbers are short: up to three bytes take no loop.
  @inline(__always) static func writeVarint<Word: FixedWidthInteger & UnsignedInteger>(
    _ value: Word, to position: UnsafeMutablePointer<UInt8>
  ) -> UnsafeMutablePointer<UInt8> {
    if value < 0x80 {
      position[0] = UInt8(truncatingIfNeeded: value)
      return position + 1
    }
    if value < 0x4000 {
      position[0] = UInt8(truncatingIfNeeded: value) | 0x80
      position[1] = UInt8(truncatingIfNeeded: value &>> 7)
      return position + 2
    }
    if value < 0x20_0000 {
      // A time's delta of a frame at 60 Hz (16,667 µs) up to two seconds.
      position[0] = UInt8(truncatingIfNeeded: value) | 0x80
      position[1] = UInt8(truncatingIfNeeded: value &>> 7) | 0x80
      position[2] = UInt8(truncatingIfNeeded: value &>> 14)
      return position + 3
    }
    var value = value
    var position = position
    while value >= 0x80 {
      position.pointee = UInt8(truncatingIfNeeded: value) | 0x80
      value &>>= 7
      position += 1
    }
    position.pointee = UInt8(truncatingIfNeeded: value)
    return position + 1
  }

  @usableFromInline mutating func grow() {
    precondition(capacity * 2 <= Self.maximumRows, "a page of more than 2^28 events")
    start = start.doubled(keeping: count * 4, of: capacity * 4)
    capacity *= 2
  }
}
