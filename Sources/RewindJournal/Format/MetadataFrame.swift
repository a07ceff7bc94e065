/// Encoding and decoding of Rewind's metadata frames: zstd skippable frames whose
/// payload is a four-byte tag, a body, and a checksum.
///
/// ```
/// u32 magic 0x184D2A5B | u32 payload size | u32 tag | body … | u32 XXH64-low32(tag + body)
/// ```
enum MetadataFrame {
  /// Builds a whole metadata frame.
  static func encode(_ tag: JournalFormat.Tag, body: (inout ByteWriter) -> Void) -> [UInt8] {
    var writer = ByteWriter(capacity: 256)
    writer.writeLittleEndian(JournalFormat.metadataMagic)
    writer.writeLittleEndian(UInt32(0))  // patched below
    writer.writeLittleEndian(tag.rawValue)
    body(&writer)
    var bytes = writer.bytes
    let checksum = bytes.withUnsafeBytes { all in
      XXH64.checksum32(UnsafeRawBufferPointer(rebasing: all[JournalFormat.framePrefixSize...]))
    }
    withUnsafeBytes(of: checksum.littleEndian) { bytes.append(contentsOf: $0) }
    let payloadSize = UInt32(bytes.count - JournalFormat.framePrefixSize)
    withUnsafeBytes(of: payloadSize.littleEndian) { size in
      bytes.replaceSubrange(4..<8, with: size)
    }
    return bytes
  }

  /// Builds a whole metadata frame around a body already encoded.
  static func encode(_ tag: JournalFormat.Tag, body: [UInt8]) -> [UInt8] {
    encode(tag) { writer in writer.write(contentsOf: body) }
  }

  /// Reads the magic and payload size at the start of `prefix` (at least 8 bytes).
  static func prefix(_ prefix: UnsafeRawBufferPointer) -> (magic: UInt32, payloadSize: UInt32) {
    (
      UInt32(littleEndian: prefix.loadUnaligned(fromByteOffset: 0, as: UInt32.self)),
      UInt32(littleEndian: prefix.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
    )
  }

  /// Checks a metadata payload's checksum and returns its tag and body.
  /// - Parameter payload: the bytes after the 8-byte prefix.
  /// - Throws: ``CodecError`` if the payload is too short or its checksum does not match.
  static func open(_ payload: UnsafeRawBufferPointer) throws(CodecError) -> (
    tag: UInt32, body: UnsafeRawBufferPointer
  ) {
    guard payload.count >= 8 else {
      throw CodecError(.truncated, "metadata frame of \(payload.count) bytes is too short", at: 0)
    }
    let checked = UnsafeRawBufferPointer(rebasing: payload[..<(payload.count - 4)])
    let stored = UInt32(
      littleEndian: payload.loadUnaligned(fromByteOffset: payload.count - 4, as: UInt32.self))
    let actual = XXH64.checksum32(checked)
    guard stored == actual else {
      throw CodecError(
        .invalidValue,
        "checksum mismatch (stored \(hex(stored)), computed \(hex(actual)))", at: payload.count - 4)
    }
    let tag = UInt32(littleEndian: payload.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
    return (tag, UnsafeRawBufferPointer(rebasing: checked[4...]))
  }

  static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
  }
}
