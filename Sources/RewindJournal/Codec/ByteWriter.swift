/// An append-only byte buffer with the encodings the journal and the domain codecs
/// share: LEB128 varints, zigzag signed varints, little-endian fixed-width integers and
/// length-prefixed UTF-8 strings.
///
/// Reuse one writer across many values with ``removeAll()`` so that encoding does not
/// allocate once the buffer has grown to its working size.
public struct ByteWriter: Sendable {
  @usableFromInline var storage: [UInt8]

  /// The bytes written so far.
  @inlinable public var bytes: [UInt8] { storage }

  /// Creates an empty writer with room for `capacity` bytes.
  public init(capacity: Int = 64) {
    storage = []
    storage.reserveCapacity(capacity)
  }

  /// The number of bytes written so far.
  @inlinable public var count: Int { storage.count }

  /// Forgets the bytes written, keeping the storage.
  @inlinable public mutating func removeAll() {
    storage.removeAll(keepingCapacity: true)
  }

  /// Appends one byte.
  @inlinable public mutating func write(_ byte: UInt8) {
    storage.append(byte)
  }

  /// Appends raw bytes.
  @inlinable public mutating func write(contentsOf source: some Sequence<UInt8>) {
    storage.append(contentsOf: source)
  }

  /// Appends raw bytes from a buffer.
  @inlinable public mutating func write(contentsOf source: UnsafeRawBufferPointer) {
    storage.append(contentsOf: source)
  }

  /// Appends an unsigned LEB128 varint: seven bits a byte, least significant first, the
  /// high bit set on every byte but the last. Values below 128 take one byte.
  ///
  /// - Complexity: O(1); at most 10 bytes.
  @inlinable public mutating func writeVarint(_ value: UInt64) {
    var value = value
    while value >= 0x80 {
      storage.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    storage.append(UInt8(value))
  }

  /// Appends a signed integer as a zigzag varint (0, -1, 1, -2, … become 0, 1, 2, 3, …)
  /// so that small negative numbers stay short.
  @inlinable public mutating func writeZigZag(_ value: Int64) {
    writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
  }

  /// Appends a fixed-width integer, little-endian.
  @inlinable public mutating func writeLittleEndian<T: FixedWidthInteger>(_ value: T) {
    var value = value.littleEndian
    withUnsafeBytes(of: &value) { storage.append(contentsOf: $0) }
  }

  /// Appends a varint byte count followed by the UTF-8 bytes of `text`.
  @inlinable public mutating func writeString(_ text: String) {
    var text = text
    text.withUTF8 { utf8 in
      writeVarint(UInt64(utf8.count))
      storage.append(contentsOf: utf8)
    }
  }
}
