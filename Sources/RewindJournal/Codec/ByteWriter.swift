/// An append-only byte buffer with the encodings the journal and the domain codecs
/// share: LEB128 varints, zigzag signed varints, little-endian fixed-width integers and
/// length-prefixed UTF-8 strings.
///
/// Reuse one writer across many values with ``removeAll()`` so that encoding does not
/// allocate once the buffer has grown to its working size. A writer is a value: copies
/// share their bytes until one of them writes (copy on write).
///
/// Every write reserves its room once (a capacity and uniqueness check) and then stores
/// through a pointer, so that encoding an event costs a few instructions a field: the
/// recorder encodes every event of a journal through one of these.
public struct ByteWriter: Sendable {
  @usableFromInline var storage: ByteStorage
  @usableFromInline var length: Int

  /// Creates an empty writer with room for `capacity` bytes.
  public init(capacity: Int = 64) {
    storage = ByteStorage(capacity: Swift.max(capacity, 16))
    length = 0
  }

  /// The bytes written so far (a copy).
  public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

  /// The number of bytes written so far.
  @inlinable public var count: Int { length }

  /// Calls `body` with the bytes written so far, without copying them; the buffer is
  /// valid only inside `body`.
  @inlinable public func withUnsafeBytes<Result, Failure: Error>(
    _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try withExtendedLifetime(storage) { () throws(Failure) -> Result in
      try body(UnsafeRawBufferPointer(start: storage.base, count: length))
    }
  }

  /// Forgets the bytes written, keeping the storage.
  @inlinable public mutating func removeAll() {
    length = 0
  }

  /// Makes room for `extra` more bytes in storage this writer owns alone, and returns
  /// the storage's first byte.
  @inlinable @inline(__always)
  mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
    if _slowPath(length &+ extra > storage.capacity || !isKnownUniquelyReferenced(&storage)) {
      grow(toHold: extra)
    }
    return storage.base
  }

  /// Moves the bytes to new storage with room for `extra` more (at least twice the
  /// current capacity when it must grow).
  @usableFromInline mutating func grow(toHold extra: Int) {
    let needed = length + extra
    let capacity =
      needed > storage.capacity ? Swift.max(needed, storage.capacity * 2) : storage.capacity
    let replacement = ByteStorage(capacity: capacity)
    replacement.base.update(from: storage.base, count: length)
    storage = replacement
  }

  /// Overwrites the byte at `offset`, which must have been written.
  @inlinable mutating func storeByte(_ byte: UInt8, at offset: Int) {
    let base = reserve(0)
    base[offset] = byte
  }

  /// Overwrites the bytes at `first` and `second`, which must have been written: one
  /// uniqueness check for both.
  @inlinable @inline(__always)
  mutating func storeBytes(_ a: UInt8, at first: Int, _ b: UInt8, at second: Int) {
    let base = reserve(0)
    base[first] = a
    base[second] = b
  }

  /// Forgets the bytes from `offset` on.
  @inlinable mutating func truncate(to offset: Int) {
    length = Swift.min(length, offset)
  }

  /// Replaces the one byte at `offset` with the varint encoding of `value`, moving the
  /// bytes after it along: how a length written as a one-byte placeholder grows.
  @usableFromInline mutating func replaceByte(at offset: Int, withVarint value: UInt64) {
    let extra = Self.varintSize(of: value) - 1
    let base = reserve(extra)
    let tail = length - offset - 1
    // copyMemory is a memmove: the regions overlap.
    UnsafeMutableRawPointer(base + offset + 1 + extra).copyMemory(
      from: base + offset + 1, byteCount: tail)
    _ = Self.storeVarint(value, to: base, at: offset)
    length += extra
  }

  /// Appends one byte.
  @inlinable @inline(__always)
  public mutating func write(_ byte: UInt8) {
    let base = reserve(1)
    base[length] = byte
    length &+= 1
  }

  /// Appends raw bytes.
  @inlinable public mutating func write(contentsOf source: some Sequence<UInt8>) {
    let copied: Void? = source.withContiguousStorageIfAvailable { buffer in
      write(contentsOf: UnsafeRawBufferPointer(buffer))
    }
    if copied == nil {
      for byte in source { write(byte) }
    }
  }

  /// Appends raw bytes from a buffer.
  @inlinable public mutating func write(contentsOf source: UnsafeRawBufferPointer) {
    let count = source.count
    guard count > 0, let from = source.baseAddress else { return }
    let base = reserve(count)
    UnsafeMutableRawPointer(base + length).copyMemory(from: from, byteCount: count)
    length &+= count
  }

  /// Appends an unsigned LEB128 varint: seven bits a byte, least significant first, the
  /// high bit set on every byte but the last. Values below 128 take one byte.
  ///
  /// - Complexity: O(1); at most 10 bytes.
  @inlinable @inline(__always)
  public mutating func writeVarint(_ value: UInt64) {
    let base = reserve(10)
    length = Self.storeVarint(value, to: base, at: length)
  }

  /// Appends a tag byte followed by a varint: one capacity check for both.
  @inlinable @inline(__always)
  public mutating func write(_ tag: UInt8, varint value: UInt64) {
    let base = reserve(11)
    base[length] = tag
    length = Self.storeVarint(value, to: base, at: length &+ 1)
  }

  /// Appends a tag byte followed by a zigzag varint: one capacity check for both.
  @inlinable @inline(__always)
  public mutating func write(_ tag: UInt8, zigZag value: Int64) {
    write(tag, varint: UInt64(bitPattern: (value &<< 1) ^ (value &>> 63)))
  }

  /// Appends a varint followed by one byte: one capacity check for both.
  @inlinable @inline(__always)
  mutating func write(varint value: UInt64, then byte: UInt8) {
    let base = reserve(11)
    let position = Self.storeVarint(value, to: base, at: length)
    base[position] = byte
    length = position &+ 1
  }

  /// Appends a varint followed by two zero bytes: one capacity check for all three.
  @inlinable @inline(__always)
  mutating func writeVarintThenTwoZeros(_ value: UInt64) {
    let base = reserve(12)
    let position = Self.storeVarint(value, to: base, at: length)
    base[position] = 0
    base[position &+ 1] = 0
    length = position &+ 2
  }

  /// The bytes ``writeVarint(_:)`` takes for `value`: 1 to 10.
  @inlinable public static func varintSize(of value: UInt64) -> Int {
    (70 &- (value | 1).leadingZeroBitCount) / 7
  }

  /// Stores a varint at `position` (room for 10 bytes reserved) and returns the position
  /// after it.
  @inlinable @inline(__always)
  static func storeVarint(_ value: UInt64, to base: UnsafeMutablePointer<UInt8>, at position: Int)
    -> Int
  {
    var value = value
    var position = position
    while value >= 0x80 {
      base[position] = UInt8(truncatingIfNeeded: value) | 0x80
      value &>>= 7
      position &+= 1
    }
    base[position] = UInt8(truncatingIfNeeded: value)
    return position &+ 1
  }

  /// Appends a signed integer as a zigzag varint (0, -1, 1, -2, … become 0, 1, 2, 3, …)
  /// so that small negative numbers stay short.
  @inlinable @inline(__always)
  public mutating func writeZigZag(_ value: Int64) {
    writeVarint(UInt64(bitPattern: (value &<< 1) ^ (value &>> 63)))
  }

  /// Appends a fixed-width integer, little-endian.
  @inlinable public mutating func writeLittleEndian<T: FixedWidthInteger>(_ value: T) {
    let size = MemoryLayout<T>.size
    let base = reserve(size)
    UnsafeMutableRawPointer(base + length).storeBytes(of: value.littleEndian, as: T.self)
    length &+= size
  }

  /// Appends a varint byte count followed by the UTF-8 bytes of `text`.
  @inlinable public mutating func writeString(_ text: String) {
    var text = text
    text.withUTF8 { utf8 in
      writeVarint(UInt64(utf8.count))
      write(contentsOf: UnsafeRawBufferPointer(utf8))
    }
  }
}

/// The memory of a ``ByteWriter``: allocated once, freed with the last writer using it,
/// never written while shared (the writer copies it first).
@usableFromInline final class ByteStorage: @unchecked Sendable {
  @usableFromInline let base: UnsafeMutablePointer<UInt8>
  @usableFromInline let capacity: Int

  @usableFromInline init(capacity: Int) {
    self.capacity = capacity
    base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
  }

  deinit { base.deallocate() }
}
