public import RewindCore

/// Bytes that tell JSON values apart, cheaper to write than their text: how the page
/// builder recognises a change list it has met before without writing it (see
/// `SessionPage.Payload.build`).
///
/// Each value is a tag byte and its bits: a number's 64 bits (a double's bit pattern, so
/// `-0.0` and `0.0` are told apart, and `1` and `1.0` by their tags), a string's length
/// and UTF-8 bytes, an array's or object's count and members; or, for a field whose domain
/// gives its value as a word (`Domain.fieldValueWord(_:of:)`), tag 8 and the word. The
/// encoding is injective: two lists of values with the same bytes are the same values (a
/// word stands for one value of its field in a session), so their JSON text is the same;
/// the page looks the text up only for bytes it has not met. No digit of a number is
/// written. It cannot be copied (its buffer is its own); pass it `inout`.
@usableFromInline struct ValueKey: ~Copyable {
  @usableFromInline var start: UnsafeMutableRawPointer
  @usableFromInline var capacity: Int
  /// The bytes written.
  @usableFromInline var count = 0

  /// An empty key, whose buffer holds `capacity` bytes before it grows.
  @usableFromInline init(capacity: Int = 256) {
    self.capacity = max(capacity, 64)
    start = .allocate(byteCount: self.capacity, alignment: 8)
  }

  @inlinable deinit { start.deallocate() }

  /// Forgets the bytes written, keeping the buffer.
  @inlinable mutating func removeAll() { count = 0 }

  /// Calls `body` with the bytes written, valid only during the call.
  @inlinable func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try body(UnsafeRawBufferPointer(start: start, count: count))
  }

  /// Appends a field's index (below 64: a `FieldSet`'s).
  @inlinable @inline(__always) mutating func append(field: Int) {
    reserve(1)
    start.storeBytes(of: UInt8(truncatingIfNeeded: field), toByteOffset: count, as: UInt8.self)
    count += 1
  }

  /// Appends a field's index and its value's word (`Domain.fieldValueWord(_:of:)`): tag 8,
  /// which no JSON value's encoding starts with, and the word's 64 bits.
  @inlinable @inline(__always) mutating func append(field: Int, word: UInt64) {
    reserve(10)
    start.storeBytes(of: UInt8(truncatingIfNeeded: field), toByteOffset: count, as: UInt8.self)
    start.storeBytes(of: 8, toByteOffset: count + 1, as: UInt8.self)
    start.storeBytes(of: word, toByteOffset: count + 2, as: UInt64.self)
    count += 10
  }

  /// Appends `value`.
  @usableFromInline mutating func append(_ value: JSONValue) {
    switch value {
    case .null: tagged(0)
    case .bool(let value): tagged(value ? 2 : 1)
    case .int(let value): tagged(3, UInt64(bitPattern: value))
    case .double(let value): tagged(4, value.bitPattern)
    case .string(let text):
      tagged(5)
      append(text)
    case .array(let elements):
      tagged(6, UInt64(elements.count))
      for element in elements { append(element) }
    case .object(let members):
      tagged(7, UInt64(members.count))
      for (key, member) in members {
        append(key)
        append(member)
      }
    }
  }

  /// A tag byte alone.
  @inlinable @inline(__always) mutating func tagged(_ tag: UInt8) {
    reserve(1)
    start.storeBytes(of: tag, toByteOffset: count, as: UInt8.self)
    count += 1
  }

  /// A tag byte and a 64-bit word.
  @inlinable @inline(__always) mutating func tagged(_ tag: UInt8, _ word: UInt64) {
    reserve(9)
    start.storeBytes(of: tag, toByteOffset: count, as: UInt8.self)
    start.storeBytes(of: word, toByteOffset: count + 1, as: UInt64.self)
    count += 9
  }

  /// A string's length (eight bytes) and UTF-8 bytes.
  @usableFromInline mutating func append(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      reserve(8 + bytes.count)
      start.storeBytes(of: UInt64(bytes.count), toByteOffset: count, as: UInt64.self)
      if let base = bytes.baseAddress {
        (start + count + 8).copyMemory(from: base, byteCount: bytes.count)
      }
      count += 8 + bytes.count
    }
  }

  @inlinable @inline(__always) mutating func reserve(_ bytes: Int) {
    if capacity - count < bytes { grow(to: count + bytes) }
  }

  @usableFromInline mutating func grow(to needed: Int) {
    var size = capacity * 2
    while size < needed { size *= 2 }
    let grown = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
    grown.copyMemory(from: start, byteCount: count)
    start.deallocate()
    start = grown
    capacity = size
  }
}
