/// The page's rows (its time's delta, its code, the numbers of its body and of its change
/// list, for each event) as the page carries them, written as they are met: each number an
/// unsigned LEB128 varint (seven bits a byte, the low bits first, the high bit set on every
/// byte of a number but its last), one buffer for all the rows.
///
/// The common event's step in the replay's inner loop
/// (`SessionPage.Payload.Builder.addCommon`) writes its row here with no call but for a
/// number of 2^21 or more: its time's delta, then its code, body and change list as one
/// word it wrote before (``append(withinRoom:rest:length:)``), or each number with no
/// branch on its length (``append(withinRoom:code:body:changes:)``). The buffer is
/// the page's rows, with no pass over raw rows at the end and no raw rows in memory (a
/// page of 200,000 events touched 3.2 MB of them, BENCHMARKS.md). The page's first builder
/// leaves room before the rows for the page's lines, so that the buffer becomes the page's
/// data (``data(head:writing:)``) without a copy. It cannot be copied (its buffer is its
/// own); pass it `inout`.
@usableFromInline struct EventNumbers: ~Copyable {
  /// The bytes a row may need, beyond the ones it takes: a time's delta of 10 bytes, three
  /// numbers below 2^32 of 5, and 3 written past the last number (a short number is written
  /// as a 32-bit word, its unused bytes overwritten by the next one's). A row of the common
  /// step takes less: a time's delta of at most 5 bytes and an 8-byte word
  /// (``append(withinRoom:rest:length:)``).
  @usableFromInline static let rowRoom = 28

  /// A time's delta the common step takes (``append(withinRoom:code:body:changes:)``) is
  /// below this: a longer one (a pause of 72 minutes or more), and an earlier time, whose
  /// delta wraps around, go through ``append(time:code:body:changes:)``.
  @usableFromInline static let longTime = UInt64(UInt32.max)

  /// The buffer: ``headRoom`` bytes for the page's lines, then the rows.
  @usableFromInline var base: UnsafeMutablePointer<UInt8>
  /// The bytes before the rows, for the page's lines (``data(head:writing:)``).
  @usableFromInline let headRoom: Int
  /// The rows' bytes.
  @usableFromInline var start: UnsafeMutablePointer<UInt8>
  /// The bytes there is room for after ``start``.
  @usableFromInline var capacity: Int
  /// The bytes written.
  @usableFromInline var byteCount = 0

  /// No rows, with room for about `rows` rows of a page before the buffer grows, and
  /// `headRoom` bytes before them for the page's lines.
  @usableFromInline init(capacity rows: Int, headRoom: Int = 0) {
    // A page's row takes about 8 bytes (BENCHMARKS.md). The room past the bytes written
    // is only reserved: its pages are not touched, and a large buffer's are not given
    // memory until they are, a huge page at a time (`LargeBuffer`).
    capacity = max(rows, 16) * 10 + Self.rowRoom
    self.headRoom = max(headRoom, 0)
    base = LargeBuffer.allocate(self.headRoom + capacity)
    start = base + self.headRoom
  }

  @inlinable deinit { base.deallocate() }

  /// Whether there is room for one more row without growing.
  @inlinable @inline(__always) var hasRoom: Bool { capacity &- byteCount >= Self.rowRoom }

  /// How many rows can be appended without growing.
  @inlinable @inline(__always) var roomRows: Int {
    Swift.max(capacity &- byteCount, 0) / Self.rowRoom
  }

  /// The rows' bytes, as the page carries them.
  func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
    try body(UnsafeRawBufferPointer(start: start, count: byteCount))
  }

  /// Appends an event's row. `code`, `body` and `changes` are below 2^32.
  @inlinable @inline(__always) mutating func append(
    time: UInt64, code: UInt64, body: UInt64, changes: UInt64
  ) {
    if time < Self.longTime, hasRoom {
      append(withinRoom: time, code: code, body: body, changes: changes)
    } else {
      appendGrowing(time: time, code: code, body: body, changes: changes)
    }
  }

  /// Appends an event's row: ``hasRoom`` true, `time` below ``longTime`` and `code`,
  /// `body` and `changes` below 2^32. No call in the replay's inner loop but for a row with
  /// a number of 2^21 or more (a time's delta over two seconds).
  @inlinable @inline(__always) mutating func append(
    withinRoom time: UInt64, code: UInt64, body: UInt64, changes: UInt64
  ) {
    assert(hasRoom, "a row appended past the room")
    assert(time < Self.longTime, "a long time's delta appended within room")
    assert(code >> 32 == 0 && body >> 32 == 0 && changes >> 32 == 0)
    // One test for the four numbers: all below 2^21 (most rows), or the longer writes.
    guard _fastPath((time | code | body | changes) < 0x20_0000) else {
      return appendGrowing(time: time, code: code, body: body, changes: changes)
    }
    var position = start + byteCount
    position = Self.writeShort(time, to: position)
    position = Self.writeShort(code, to: position)
    position = Self.writeShort(body, to: position)
    position = Self.writeShort(changes, to: position)
    byteCount = position - start
  }

  /// The varints of a row's code, body and change list, one after the other in a word's
  /// bytes (from the lowest), and their length: what
  /// ``append(withinRoom:rest:length:)`` writes after a time's delta. Nil when a number is
  /// 2^21 or more, or the three take more than 8 bytes.
  @inlinable static func rest(code: UInt64, body: UInt64, changes: UInt64) -> (
    word: UInt64, length: Int
  )? {
    guard (code | body | changes) < 0x20_0000 else { return nil }
    let (codeWord, codeLength) = short(code)
    let (bodyWord, bodyLength) = short(body)
    let (changesWord, changesLength) = short(changes)
    let length = codeLength + bodyLength + changesLength
    guard length <= 8 else { return nil }
    let word =
      UInt64(codeWord) | UInt64(bodyWord) << UInt64(8 * codeLength)
      | UInt64(changesWord) << UInt64(8 * (codeLength + bodyLength))
    return (word, length)
  }

  /// Appends a row: its time's delta, then the `length` bytes of `rest` (``rest(code:body:changes:)``).
  /// ``hasRoom`` true and `time` below ``longTime``.
  @inlinable @inline(__always) mutating func append(
    withinRoom time: UInt64, rest: UInt64, length: Int
  ) {
    assert(hasRoom, "a row appended past the room")
    assert(time < Self.longTime, "a long time's delta appended within room")
    var position = start + byteCount
    position = Self.write(time, to: position)
    // Eight bytes stored, `length` kept: the room holds them (``rowRoom``).
    UnsafeMutableRawPointer(position).storeBytes(of: rest.littleEndian, as: UInt64.self)
    byteCount = position + length - start
  }

  /// ``append(time:code:body:changes:)`` of a row with no room left, a time's delta of
  /// ``longTime`` µs or more, or a number of 2^21 or more.
  @usableFromInline @inline(never) mutating func appendGrowing(
    time: UInt64, code: UInt64, body: UInt64, changes: UInt64
  ) {
    precondition(
      code >> 32 == 0 && body >> 32 == 0 && changes >> 32 == 0,
      "a page's code or number above 2^32 − 1")
    if !hasRoom { grow() }
    var position = start + byteCount
    for number in [time, code, body, changes] { position = Self.write(number, to: position) }
    byteCount = position - start
  }

  /// Writes `value` as a varint at `position`; returns the position after it.
  @inlinable @inline(__always) static func write(
    _ value: UInt64, to position: UnsafeMutablePointer<UInt8>
  ) -> UnsafeMutablePointer<UInt8> {
    value < 0x20_0000 ? writeShort(value, to: position) : writeLong(value, to: position)
  }

  /// Writes `value`, below 2^21 (a time's delta up to two seconds, the numbers of the
  /// page's tables), as a varint at `position`; returns the position after it. One 32-bit
  /// word with no branch on the number's length: its three 7-bit groups spread over three
  /// bytes, the high bit of the first set when there is a second and of the second when
  /// there is a third (up to 3 bytes past the number are written, within ``rowRoom``).
  @inlinable @inline(__always) static func writeShort(
    _ value: UInt64, to position: UnsafeMutablePointer<UInt8>
  ) -> UnsafeMutablePointer<UInt8> {
    let (word, length) = short(value)
    UnsafeMutableRawPointer(position).storeBytes(of: word.littleEndian, as: UInt32.self)
    return position + length
  }

  /// The varint of `value`, below 2^21, in a 32-bit word's bytes (from the lowest; the
  /// bytes past it zero), and its length: ``writeShort(_:to:)``'s, with no branch.
  @inlinable @inline(__always) static func short(_ value: UInt64) -> (word: UInt32, length: Int) {
    assert(value < 0x20_0000)
    let number = UInt32(truncatingIfNeeded: value)
    // Bit 21 of each sum is set when the number has a second byte, and a third.
    let second = (number &+ (0x20_0000 &- 0x80)) &>> 21
    let third = (number &+ (0x20_0000 &- 0x4000)) &>> 21
    // Bits 7 and up moved up one, bits 14 and up one more: three 7-bit groups in bytes.
    let groups = number &+ (number & 0x1F_FF80) &+ (number & 0x1F_C000) &<< 1
    return (groups | second &<< 7 | third &<< 15, Int(1 &+ second &+ third))
  }

  /// ``write(_:to:)`` of a number of 2^21 or more.
  @usableFromInline @inline(never) static func writeLong(
    _ value: UInt64, to position: UnsafeMutablePointer<UInt8>
  ) -> UnsafeMutablePointer<UInt8> {
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

  /// Calls `body` with each row's four numbers, in order.
  func forEachRow(_ body: (_ row: (UInt64, UInt64, UInt64, UInt64)) -> Void) {
    var position = UnsafePointer(start)
    let end = position + byteCount
    /// The varint at `position`, moved past.
    func read() -> UInt64 {
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while true {
        let byte = position.pointee
        position += 1
        value |= UInt64(byte & 0x7F) &<< shift
        if byte < 0x80 { return value }
        shift += 7
      }
    }
    while position < end { body((read(), read(), read(), read())) }
  }

  /// The rows, each number read back (for the tests).
  var rows: [[UInt64]] {
    var rows: [[UInt64]] = []
    forEachRow { rows.append([$0.0, $0.1, $0.2, $0.3]) }
    return rows
  }

  /// Appends the rows of `other`, each number but the time's mapped by its column's
  /// function: a part's rows renumbered to the tables of the page it joins
  /// (`SessionPage+Parts.swift`).
  mutating func append(
    _ other: borrowing EventNumbers, code: (UInt64) -> UInt64, body: (UInt64) -> UInt64,
    changes: (UInt64) -> UInt64
  ) {
    other.forEachRow { row in
      append(time: row.0, code: code(row.1), body: body(row.2), changes: changes(row.3))
    }
  }

  @usableFromInline mutating func grow() {
    let grown = LargeBuffer.allocate(headRoom + capacity * 2)
    (grown + headRoom).initialize(from: start, count: byteCount)
    base.deallocate()
    base = grown
    start = grown + headRoom
    capacity *= 2
  }

  /// The page's data: its lines, `head` bytes that `write` writes into the buffer of that
  /// many bytes it is given (returning how many it wrote), then the rows. The lines are
  /// written in the room before the rows when they fit there, and the buffer becomes the
  /// data's; else the two are copied into a buffer of the data's size.
  consuming func data(
    head: Int, writing write: (UnsafeMutableBufferPointer<UInt8>) -> Int
  ) -> PageData {
    let (base, start, headRoom, byteCount) = (self.base, self.start, self.headRoom, self.byteCount)
    // The buffer is the data's now (or freed below), not this one's to deallocate.
    discard self
    if head <= headRoom {
      let written = write(UnsafeMutableBufferPointer(start: start - head, count: head))
      precondition(written == head, "the page's lines took \(written) bytes, not \(head)")
      return PageData(
        taking: UnsafeMutableRawPointer(base), offset: headRoom - head, count: head + byteCount)
    }
    let data = UnsafeMutablePointer<UInt8>.allocate(capacity: head + byteCount)
    let written = write(UnsafeMutableBufferPointer(start: data, count: head))
    precondition(written == head, "the page's lines took \(written) bytes, not \(head)")
    (data + head).initialize(from: start, count: byteCount)
    base.deallocate()
    return PageData(taking: UnsafeMutableRawPointer(data), offset: 0, count: head + byteCount)
  }
}
