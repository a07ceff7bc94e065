/// The page's numbers of one line (the numbers of the rejected events' reasons; the four
/// numbers every event has are an `EventNumbers`) as they are met, one word each, written
/// as text (`NumberLine`) once, straight into the page's data when it is put together.
///
/// Kept raw, not written as digits each event: an append is one store, and the parts of a
/// page built on several threads are merged by renumbering words, not by reading text
/// back. It cannot be copied (its buffer is its own); pass it `inout`.
@usableFromInline struct RawNumbers: ~Copyable {
  @usableFromInline var start: UnsafeMutablePointer<UInt64>
  @usableFromInline var capacity: Int
  /// The numbers appended.
  @usableFromInline var count = 0

  /// No numbers, with room for `capacity` before the buffer grows.
  @usableFromInline init(capacity: Int) {
    self.capacity = max(capacity, 16)
    start = .allocate(capacity: self.capacity)
  }

  @inlinable deinit { start.deallocate() }

  /// Whether there is room for one more number without growing.
  @inlinable @inline(__always) var hasRoom: Bool { count < capacity }

  /// Appends `value`.
  @inlinable @inline(__always) mutating func append(_ value: UInt64) {
    if !hasRoom { grow() }
    append(withinRoom: value)
  }

  /// Appends `value` (`hasRoom` true: no call).
  @inlinable @inline(__always) mutating func append(withinRoom value: UInt64) {
    assert(count < capacity, "a number appended past the room")
    start[count] = value
    count &+= 1
  }

  /// The numbers, in order.
  @usableFromInline var numbers: UnsafeBufferPointer<UInt64> {
    UnsafeBufferPointer(start: start, count: count)
  }

  /// Appends `body(n)` for each number `n` of `other`, in order.
  mutating func append(_ other: borrowing RawNumbers, mapping body: (UInt64) -> UInt64) {
    while capacity - count < other.count { grow() }
    for index in 0..<other.count { start[count + index] = body(other.start[index]) }
    count += other.count
  }

  /// At least the bytes ``writeLine(to:)`` writes and stores (`NumberLine.bound(of:)`).
  @usableFromInline var lineBound: Int { NumberLine.bound(of: numbers) }

  /// Writes the line of the numbers, as `NumberLine` writes it, at `position`, which has
  /// room for ``lineBound`` bytes; returns the position after the line.
  @usableFromInline func writeLine(to position: UnsafeMutablePointer<UInt8>)
    -> UnsafeMutablePointer<UInt8>
  {
    NumberLine.write(numbers, to: position)
  }

  @usableFromInline mutating func grow() {
    start = start.doubled(keeping: count, of: capacity)
    capacity *= 2
  }
}
