import Testing

@testable import RewindJournal

/// Runs `body` with a reader over `bytes`.
func decode<T>(_ bytes: [UInt8], _ body: (inout ByteReader) throws -> T) throws -> T {
  try bytes.withUnsafeBytes { buffer in
    var reader = ByteReader(buffer)
    return try body(&reader)
  }
}

@Suite("Byte codec primitives")
struct ByteCodecTests {
  @Test(
    "varints round-trip and have the documented length",
    arguments: [
      (UInt64(0), 1), (1, 1), (127, 1), (128, 2), (16_383, 2), (16_384, 3),
      (UInt64(UInt32.max), 5), (1 << 62, 9), (1 << 63, 10), (UInt64.max, 10),
    ])
  func varintRoundTrip(value: UInt64, length: Int) throws {
    var writer = ByteWriter()
    writer.writeVarint(value)
    #expect(writer.count == length)
    #expect(ByteWriter.varintSize(of: value) == length)
    try decode(writer.bytes) { reader throws in
      #expect(try reader.readVarint() == value)
      #expect(reader.isAtEnd)
    }
  }

  @Test("zigzag keeps small negatives short", arguments: [Int64(0), -1, 1, -64, 63, .min, .max])
  func zigzag(value: Int64) throws {
    var writer = ByteWriter()
    writer.writeZigZag(value)
    if (-64...63).contains(value) { #expect(writer.count == 1) }
    try decode(writer.bytes) { reader throws in
      #expect(try reader.readZigZag() == value)
    }
  }

  @Test("little-endian integers and strings round-trip")
  func fixedAndStrings() throws {
    var writer = ByteWriter()
    writer.writeLittleEndian(UInt32(0x0102_0304))
    writer.writeLittleEndian(UInt64.max - 5)
    writer.writeString("Linea Mini ☕︎")
    #expect(Array(writer.bytes.prefix(4)) == [4, 3, 2, 1])
    try decode(writer.bytes) { reader throws in
      #expect(try reader.readLittleEndian(UInt32.self) == 0x0102_0304)
      #expect(try reader.readLittleEndian(UInt64.self) == UInt64.max - 5)
      #expect(try reader.readString(maxLength: 100) == "Linea Mini ☕︎")
      #expect(reader.isAtEnd)
    }
  }

  @Test("malformed and truncated input throws instead of trapping")
  func malformed() {
    let cases: [([UInt8], CodecError.Code)] = [
      ([], .truncated),
      ([0x80], .truncated),
      ([0xFF, 0xFF], .truncated),
      ([0x80, 0x00], .malformedVarint),
      (Array(repeating: 0xFF, count: 10) + [0x01], .malformedVarint),
      (Array(repeating: 0xFF, count: 9) + [0x02], .malformedVarint),
    ]
    for (bytes, code) in cases {
      let error = #expect(throws: CodecError.self) {
        try decode(bytes) { reader in try reader.readVarint() }
      }
      #expect(error?.code == code, "\(bytes)")
    }
  }

  @Test("declared lengths are checked before they are used")
  func boundedLengths() {
    var writer = ByteWriter()
    writer.writeVarint(1_000_000)
    writer.write(contentsOf: [0x41, 0x42])
    writer.bytes.withUnsafeBytes { buffer in
      var reader = ByteReader(buffer)
      #expect(throws: CodecError.self) { _ = try reader.readString(maxLength: 1024) }
      var second = ByteReader(buffer)
      #expect(throws: CodecError.self) { _ = try second.readString(maxLength: 2_000_000) }
    }
    #expect(throws: CodecError(.invalidText, "string is not valid UTF-8", at: 0)) {
      try decode([0x02, 0xC3, 0x28]) { reader in try reader.readString(maxLength: 10) }
    }
  }

  @Test("XXH64 matches the reference implementation")
  func xxh64Vectors() {
    // Values computed with the reference xxHash (python-xxhash 3.x, seed 0).
    #expect(XXH64.hash([]) == 0xEF46_DB37_51D8_E999)
    #expect(XXH64.hash(Array("a".utf8)) == 0xD24E_C4F1_A98C_6E5B)
    #expect(XXH64.hash(Array("abc".utf8)) == 0x44BC_2CF5_AD77_0999)
    #expect(
      XXH64.hash(Array("Nobody inspects the spammish repetition".utf8)) == 0xFBCE_A83C_8A37_8BF1)
    let long = (0..<3).flatMap { _ in (0...255).map { UInt8($0) } }
    #expect(XXH64.hash(long) == 0x8E03_C838_C596_036F)
  }
}
