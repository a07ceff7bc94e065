import Testing

@testable import RewindJournal

/// `ByteReader.readVarint()` reads one, two and three bytes without the general loop;
/// these tests hold it to the general loop (`readVarintSlowly()`, which every other varint
/// takes) on varints of every length, well formed or not, at every distance from the end
/// of the data.
@Suite("Varint fast paths")
struct VarintFastPathTests {
  /// What a read gives: the value and the offset after it, or the error.
  enum Outcome: Equatable {
    case value(UInt64, end: Int)
    case error(CodecError)
  }

  /// `bytes` read from `start` by the fast paths and by the general loop.
  static func both(_ bytes: [UInt8], from start: Int) -> (fast: Outcome, general: Outcome) {
    bytes.withUnsafeBytes { buffer in
      var fast = ByteReader(buffer)
      var general = ByteReader(buffer)
      try? fast.seek(to: start)
      try? general.seek(to: start)
      let fastOutcome: Outcome
      do throws(CodecError) {
        let value = try fast.readVarint()
        fastOutcome = .value(value, end: fast.offset)
      } catch {
        fastOutcome = .error(error)
      }
      let generalOutcome: Outcome
      do throws(CodecError) {
        let (value, end) = try general.readVarintSlowly()
        generalOutcome = .value(value, end: end)
      } catch {
        generalOutcome = .error(error)
      }
      return (fastOutcome, generalOutcome)
    }
  }

  @Test("every value's encoding reads the same at every distance from the end")
  func everyLength() {
    // Values at the edges of every length, 1 to 10 bytes.
    var values: [UInt64] = [0, 1, UInt64.max]
    for bits in stride(from: 7, through: 63, by: 7) {
      values += [(1 << UInt64(bits)) - 1, 1 << UInt64(bits), (1 << UInt64(bits)) + 1]
    }
    for value in values {
      var writer = ByteWriter()
      writer.writeVarint(value)
      let encoded = writer.bytes
      for lead in [0, 1, 5] {
        for trail in 0...12 {
          let bytes =
            Array(repeating: 0x80, count: lead) + encoded + Array(repeating: 0xFF, count: trail)
          let (fast, general) = Self.both(bytes, from: lead)
          #expect(fast == general, "\(value) after \(lead), \(trail) bytes after it")
          #expect(fast == .value(value, end: lead + encoded.count))
        }
      }
    }
  }

  @Test("malformed, truncated and random bytes fail or read the same")
  func malformedAndRandom() {
    var cases: [[UInt8]] = [[]]
    // A redundant zero after 1 to 10 bytes, and the data ending inside the varint.
    for length in 1...11 {
      cases.append(Array(repeating: 0x80, count: length) + [0x00])
      cases.append(Array(repeating: 0xFF, count: length))
      cases.append(Array(repeating: 0xFF, count: length) + [0x01])
      cases.append(Array(repeating: 0xFF, count: length) + [0x02])
    }
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> UInt64 {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return state
    }
    for _ in 0..<20_000 {
      let count = Int(next() % 14)
      cases.append(
        (0..<count).map { _ in
          // Continuation bits most of the time, zeros and small bytes often.
          let roll = next() % 8
          return roll < 4 ? UInt8(0x80 | next() % 128) : roll == 4 ? 0 : UInt8(next() % 128)
        })
    }
    for bytes in cases {
      for start in 0...min(bytes.count, 3) {
        let (fast, general) = Self.both(bytes, from: start)
        #expect(fast == general, "\(bytes) from \(start)")
      }
    }
  }

  @Test(
    "three-byte varints near the end of the data (a short payload) read as the general loop reads them"
  )
  func threeBytesNearTheEnd() {
    // Continuation bytes with small and large payloads, then a last byte that ends the
    // varint (zero: redundant), goes on (the data ending inside it or a fourth byte), or
    // is missing; before and after it up to 9 bytes, so that the varint lies both within
    // and beyond 10 bytes of the end.
    let continuing: [UInt8] = [0x80, 0x81, 0xC0, 0xFF]
    let last: [UInt8?] = [nil, 0x00, 0x01, 0x40, 0x7F, 0x80, 0xFF]
    for b0 in continuing {
      for b1 in continuing {
        for b2 in last {
          let varint = [b0, b1] + (b2.map { [$0] } ?? [])
          for lead in 0...2 {
            for trail in 0...9 where b2 != nil || trail == 0 {
              let bytes =
                Array(repeating: 0x05, count: lead) + varint + Array(repeating: 0x03, count: trail)
              let (fast, general) = Self.both(bytes, from: lead)
              #expect(fast == general, "\(bytes) from \(lead)")
            }
          }
        }
      }
    }
  }

  @Test("an empty buffer without memory says so as it always did")
  func noMemory() {
    var reader = ByteReader(UnsafeRawBufferPointer(start: nil, count: 0))
    let error = #expect(throws: CodecError.self) { try reader.readVarint() }
    #expect(error?.message == "expected a varint, found the end of the data")
    #expect(error?.code == .truncated)
  }
}
