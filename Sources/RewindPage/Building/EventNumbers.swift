/// The page's four numbers of each event (its time's delta, its code, the numbers of its
/// body and of its change list) as they are met, a row of four words an event, written as
/// four lines of text (`NumberLine`, a column each) once, straight into the page's data
/// when it is put together.
///
/// One buffer and one count for the four, not a `RawNumbers` each: the common event's
/// step in the replay's inner loop (`SessionPage.Payload.Builder.addCommon`) reads one
/// buffer's start and count and writes one count, where four would be read and written
/// through the builder each event. It cannot be copied (its buffer is its own); pass it
/// `inout`.
@usableFromInline struct EventNumbers: ~Copyable {
  /// The numbers of an event, in this order: its row's words.
  @usableFromInline enum Column: Int, CaseIterable {
    case time, code, body, changes
  }

  /// The rows, four words each.
  @usableFromInline var start: UnsafeMutablePointer<UInt64>
  /// The rows there is room for.
  @usableFromInline var capacity: Int
  /// The rows appended.
  @usableFromInline var count = 0

  /// No rows, with room for `capacity` before the buffer grows.
  @usableFromInline init(capacity: Int) {
    self.capacity = max(capacity, 16)
    start = .allocate(capacity: self.capacity * 4)
  }

  @inlinable deinit { start.deallocate() }

  /// Whether there is room for one more row without growing.
  @inlinable @inline(__always) var hasRoom: Bool { count < capacity }

  /// Appends an event's row.
  @inlinable @inline(__always) mutating func append(
    time: UInt64, code: UInt64, body: UInt64, changes: UInt64
  ) {
    if !hasRoom { grow() }
    append(withinRoom: time, code: code, body: body, changes: changes)
  }

  /// Appends an event's row (`hasRoom` true: no call).
  @inlinable @inline(__always) mutating func append(
    withinRoom time: UInt64, code: UInt64, body: UInt64, changes: UInt64
  ) {
    assert(count < capacity, "a row appended past the room")
    let row = start + count &* 4
    row[0] = time
    row[1] = code
    row[2] = body
    row[3] = changes
    count &+= 1
  }

  /// The number of `column` of row `index`.
  func number(_ column: Column, of index: Int) -> UInt64 {
    precondition(index >= 0 && index < count, "row \(index) of \(count)")
    return start[index * 4 + column.rawValue]
  }

  /// Appends the rows of `other`, each number mapped by its column's function: a part's
  /// rows renumbered to the tables of the page it joins (`SessionPage+Parts.swift`).
  mutating func append(
    _ other: borrowing EventNumbers, code: (UInt64) -> UInt64, body: (UInt64) -> UInt64,
    changes: (UInt64) -> UInt64
  ) {
    while capacity - count < other.count { grow() }
    for index in 0..<other.count {
      let row = other.start + index * 4
      append(withinRoom: row[0], code: code(row[1]), body: body(row[2]), changes: changes(row[3]))
    }
  }

  /// At least the bytes ``writeLines(to:)`` writes and stores: the four lines'
  /// `NumberLine.bound(count:all:)`, from one pass over the rows.
  /// - Complexity: O(`count`), an OR of the rows (no division).
  @usableFromInline var linesBound: Int {
    var all = SIMD4<UInt64>()
    var row = UnsafeRawPointer(start)
    for _ in 0..<count {
      all |= row.loadUnaligned(as: SIMD4<UInt64>.self)
      row += 32
    }
    var bound = 0
    for column in all.indices { bound += NumberLine.bound(count: count, all: all[column]) }
    return bound
  }

  /// Writes the four lines, a column each in ``Column``'s order, as `NumberLine` writes
  /// them, at `position`, which has room for ``linesBound`` bytes; returns the position
  /// after them.
  @usableFromInline func writeLines(to position: UnsafeMutablePointer<UInt8>)
    -> UnsafeMutablePointer<UInt8>
  {
    var end = position
    for column in Column.allCases {
      end = NumberLine.write(
        UnsafePointer(start + column.rawValue), count: count, stride: 4, to: end)
    }
    return end
  }

  @usableFromInline mutating func grow() {
    start = start.doubled(keeping: count * 4, of: capacity * 4)
    capacity *= 2
  }
}
