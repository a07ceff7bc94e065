/// A bounds-checked cursor over bytes someone else owns, decoding the encodings that
/// ``ByteWriter`` writes.
///
/// The reader does not own its memory: create it inside `withUnsafeBytes` (or over a
/// buffer whose lifetime you control) and do not let it escape. Every read checks the
/// remaining length first and throws ``CodecError`` on short or malformed input, so a
/// damaged or hostile buffer can never make it read out of bounds or trap.
public struct ByteReader {
  @usableFromInline let base: UnsafeRawPointer?
  /// The number of bytes in the buffer.
  public let count: Int
  @usableFromInline var position: Int

  /// The offset of the next byte to read.
  @inlinable public var offset: Int { position }

  /// Creates a reader over `buffer`, starting at its first byte.
  @inlinable public init(_ buffer: UnsafeRawBufferPointer) {
    base = buffer.baseAddress
    count = buffer.count
    position = 0
  }

  /// The number of bytes not yet read.
  @inlinable public var remaining: Int {
    // `position` never passes `count`: the difference needs no overflow check.
    count &- position
  }

  /// Whether every byte has been read.
  @inlinable public var isAtEnd: Bool { offset >= count }

  /// Reads one byte.
  /// - Throws: ``CodecError/Code/truncated`` at the end of the buffer.
  @inlinable @inline(__always)
  public mutating func readByte() throws(CodecError) -> UInt8 {
    guard _fastPath(position < count) else {
      throw CodecError(.truncated, "expected a byte, found the end of the data", at: offset)
    }
    // A byte before `count` means a non-empty buffer: `base` is not nil.
    let byte = base.unsafelyUnwrapped.load(fromByteOffset: position, as: UInt8.self)
    position &+= 1
    return byte
  }

  /// The byte `index` places after the next one to read (0: the next one), unchecked:
  /// for decoders' fast paths, which check ``remaining`` first and then move past what
  /// they read with ``skip(_:)``.
  /// - Precondition: `0 <= index < remaining`.
  @inlinable @inline(__always)
  package func unsafeByte(at index: Int) -> UInt8 {
    base.unsafelyUnwrapped.load(fromByteOffset: position &+ index, as: UInt8.self)
  }

  /// Moves past `length` bytes read with ``unsafeByte(at:)``.
  /// - Precondition: `0 <= length <= remaining`.
  @inlinable @inline(__always)
  package mutating func skip(_ length: Int) {
    position &+= length
  }

  /// Reads an unsigned LEB128 varint of at most 10 bytes.
  /// - Throws: ``CodecError/Code/truncated`` if the data ends inside the varint,
  ///   ``CodecError/Code/malformedVarint`` if it is longer than 10 bytes or overflows.
  @inlinable @inline(__always)
  public mutating func readVarint() throws(CodecError) -> UInt64 {
    let start = position
    if _fastPath(start < count) {
      // A byte before `count` means a non-empty buffer: `base` is not nil.
      let base = self.base.unsafelyUnwrapped
      // One byte first: most varints of a journal (effects, lengths, small values).
      let b0 = UInt64(base.load(fromByteOffset: start, as: UInt8.self))
      if _fastPath(b0 < 0x80) {
        position = start &+ 1
        return b0
      }
      // Two or three bytes with room for the longest varint, so that no byte needs its
      // own bounds check.
      if _fastPath(count &- start >= 10) {
        let b1 = UInt64(base.load(fromByteOffset: start &+ 1, as: UInt8.self))
        if b1 < 0x80 {
          guard b1 != 0 else { throw Self.redundantZero(at: start) }
          position = start &+ 2
          return (b0 & 0x7F) | b1 &<< 7
        }
        let b2 = UInt64(base.load(fromByteOffset: start &+ 2, as: UInt8.self))
        if b2 < 0x80 {
          guard b2 != 0 else { throw Self.redundantZero(at: start) }
          position = start &+ 3
          return (b0 & 0x7F) | (b1 & 0x7F) &<< 7 | b2 &<< 14
        }
      } else if start &+ 1 < count {
        // Near the end (a short payload): two bytes, each bounds-checked.
        let b1 = UInt64(base.load(fromByteOffset: start &+ 1, as: UInt8.self))
        if b1 < 0x80 {
          guard b1 != 0 else { throw Self.redundantZero(at: start) }
          position = start &+ 2
          return (b0 & 0x7F) | b1 &<< 7
        }
      }
    }
    let (value, end) = try readVarintSlowly()
    position = end
    return value
  }

  /// A varint the fast paths of ``readVarint()`` do not take (longer ones, and the errors
  /// at the end of the data), and the offset after it. Not mutating: a reader passed to
  /// it by address could not stay in registers in the loops that inline ``readVarint()``.
  @usableFromInline @inline(never)
  func readVarintSlowly() throws(CodecError) -> (value: UInt64, end: Int) {
    guard let base else {
      throw CodecError(.truncated, "expected a varint, found the end of the data", at: offset)
    }
    var reader = self
    let value = try reader.readLongVarint(base)
    return (value, reader.position)
  }

  /// The general varint loop: any length up to 10 bytes, every byte bounds-checked.
  @usableFromInline @inline(never)
  mutating func readLongVarint(_ base: UnsafeRawPointer) throws(CodecError) -> UInt64 {
    let start = offset
    var result: UInt64 = 0
    var shift: UInt64 = 0
    var cursor = offset
    while true {
      guard cursor < count else {
        throw CodecError(.truncated, "the data ends inside a varint", at: start)
      }
      let byte = base.load(fromByteOffset: cursor, as: UInt8.self)
      cursor &+= 1
      let payload = UInt64(byte & 0x7F)
      if shift == 63 && payload > 1 {
        throw CodecError(.malformedVarint, "varint overflows 64 bits", at: start)
      }
      result |= payload << shift
      if byte < 0x80 {
        if byte == 0 && shift > 0 { throw Self.redundantZero(at: start) }
        break
      }
      shift &+= 7
      if shift > 63 {
        throw CodecError(.malformedVarint, "varint longer than 10 bytes", at: start)
      }
    }
    position = cursor
    return result
  }

  @usableFromInline static func redundantZero(at offset: Int) -> CodecError {
    CodecError(.malformedVarint, "varint has a redundant trailing zero byte", at: offset)
  }

  /// Reads a varint and checks it against an upper bound before anyone allocates by it.
  /// - Throws: ``CodecError/Code/tooLarge`` when the value is above `limit`; `what` names
  ///   the quantity in the message.
  @inlinable public mutating func readVarint(atMost limit: UInt64, _ what: String)
    throws(CodecError) -> UInt64
  {
    let start = offset
    let value = try readVarint()
    guard value <= limit else {
      throw CodecError(.tooLarge, "\(what) \(value) exceeds the limit of \(limit)", at: start)
    }
    return value
  }

  /// Reads a zigzag-encoded signed varint.
  @inlinable @inline(__always)
  public mutating func readZigZag() throws(CodecError) -> Int64 {
    let raw = try readVarint()
    return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
  }

  /// Reads a little-endian fixed-width integer.
  @inlinable public mutating func readLittleEndian<T: FixedWidthInteger>(
    _ type: T.Type = T.self
  ) throws(CodecError) -> T {
    let size = MemoryLayout<T>.size
    guard remaining >= size, let base else {
      throw CodecError(
        .truncated, "expected a \(size)-byte integer, found \(remaining) bytes", at: offset)
    }
    let value = base.loadUnaligned(fromByteOffset: offset, as: T.self)
    position &+= size
    return T(littleEndian: value)
  }

  /// Reads `length` bytes, returned as a view into the same memory.
  /// - Throws: ``CodecError/Code/truncated`` if fewer remain.
  @inlinable public mutating func readBytes(_ length: Int) throws(CodecError)
    -> UnsafeRawBufferPointer
  {
    guard length >= 0, length <= remaining else {
      throw CodecError(
        .truncated, "expected \(length) bytes, found \(remaining)", at: offset)
    }
    let view = UnsafeRawBufferPointer(start: base.map { $0 + offset }, count: length)
    position &+= length
    return view
  }

  /// Reads a varint length and that many bytes of UTF-8 text.
  /// - Parameter maxLength: the longest string accepted, in bytes.
  /// - Throws: ``CodecError/Code/tooLarge`` above `maxLength`, ``CodecError/Code/invalidText``
  ///   if the bytes are not UTF-8.
  public mutating func readString(maxLength: Int) throws(CodecError) -> String {
    let start = offset
    let length = try readVarint(atMost: UInt64(maxLength), "string length")
    let bytes = try readBytes(Int(length))
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw CodecError(.invalidText, "string is not valid UTF-8", at: start)
    }
    return text
  }

  /// Moves the cursor to `newOffset`, which must lie within the buffer.
  @inlinable public mutating func seek(to newOffset: Int) throws(CodecError) {
    guard newOffset >= 0, newOffset <= count else {
      throw CodecError(.truncated, "offset \(newOffset) is outside the data", at: offset)
    }
    position = newOffset
  }
}

extension ByteReader {
  /// Decodes a value that must fill `bytes` exactly.
  /// - Throws: the decoder's ``CodecError``, or ``CodecError/Code/invalidValue`` when bytes
  ///   are left over.
  public static func decodeAll<Value>(
    _ bytes: [UInt8], _ decode: (inout ByteReader) throws(CodecError) -> Value
  ) throws(CodecError) -> Value {
    try bytes.withBytes { buffer throws(CodecError) in
      var reader = ByteReader(buffer)
      let value = try decode(&reader)
      guard reader.isAtEnd else {
        throw CodecError(
          .invalidValue, "\(reader.remaining) bytes follow the value", at: reader.offset)
      }
      return value
    }
  }
}
