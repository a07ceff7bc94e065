import Foundation
import TestSupport
import Testing

@testable import RewindPage

/// The CRC-32 of gzip (IEEE 802.3, reflected), for wrapping a raw stream in a gzip member.
private func crc32(_ bytes: [UInt8]) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  for byte in bytes {
    crc ^= UInt32(byte)
    for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
  }
  return ~crc
}

/// `deflated` inflated by the system's `gzip -dc` (an inflater of its own, which checks the
/// member's CRC-32 and length), as a gzip member around it.
func gunzip(_ deflated: [UInt8], original: [UInt8], in directory: TemporaryDirectory)
  throws -> [UInt8]
{
  func littleEndian(_ value: UInt32) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
  }
  let member =
    [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF] + deflated + littleEndian(crc32(original))
    + littleEndian(UInt32(truncatingIfNeeded: original.count))
  let zipped = directory.file("data.gz")
  let plain = directory.file("data")
  write(member, to: zipped)
  let result = try run("/bin/sh", ["-c", "gzip -dc '\(zipped)' > '\(plain)'"])
  #expect(result.status == 0, "gzip: \(result.stderr)")
  return bytes(of: plain)
}

@Suite("Deflate: the page's data, compressed as gzip reads it")
struct DeflateTests {
  @Test(
    "the fast match finder and bit writer write the bytes of the simple encoder with the same rule, at most 8 % more than with the rule before (chains of 32, matches put off below 32 bytes), and gzip inflates them"
  )
  func sameBytesAsBefore() throws {
    let directory = TemporaryDirectory()
    let seed = testSeed("DeflateTests.sameBytesAsBefore")
    var random = SplitMix64(seed: seed)
    let words = [
      #"{"seq":"#, #","time_us":"#, #","event":"menuScrolled","offset":"#, "6.333333333333333",
      #","outcome":"applied"}"#, "\n", "[2,", "]", "grinders/vulcano", "0.1", "é", "\u{1B}",
    ].map { Array($0.utf8) }
    var inputs: [[UInt8]] = [
      [], [7], [1, 2], Array(repeating: 0x61, count: 70_000),
      (0..<3_000).map { UInt8(truncatingIfNeeded: $0 &* 31) },
    ]
    for _ in 0..<6 {
      var text: [UInt8] = []
      let length = Int(random.next() % 150_000)
      while text.count < length {
        if random.next() % 10 == 0 {
          text.append(UInt8(truncatingIfNeeded: random.next()))
        } else {
          text += words[Int(random.next() % UInt64(words.count))]
        }
      }
      inputs.append(text)
    }
    // Repeats at the window's edge: 32,768 bytes back may be matched, 32,769 may not.
    for period in [32_767, 32_768, 32_769] {
      let block = (0..<period).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      inputs.append(block + block + block.prefix(1_000))
    }
    // A match put off longer than niceLength, then at the next position a nearer candidate
    // at least niceLength long but no longer and a farther one longer still: the search
    // stops at the nearer one, as it did before it skipped the shorter candidates. At the
    // last `[1, 2, 3] + far`: "1 2 3" matches 3 bytes (put off, under lazyLimit), "2 3 far…"
    // 150 (longer: put off in turn, over niceLength), and "3 far…" the nearer 100 bytes of
    // `[3] + far.prefix(99)` and the farther 258 of `[3] + far`.
    func noise(_ count: Int) -> [UInt8] {
      (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }
    let far = noise(400)
    #expect(Deflate.lazyLimit > 3 && Deflate.niceLength <= 100)
    inputs.append(
      [3] + far + noise(50) + [2, 3] + far.prefix(148) + noise(50) + [3] + far.prefix(99)
        + noise(50) + [1, 2, 3, far[0] ^ 0xFF] + noise(50) + [1, 2, 3] + far)
    for input in inputs {
      let deflated = Deflate.compress(input)
      let same = deflated == ReferenceDeflate.compress(input, rule: .module)
      #expect(same, "seed \(seed), \(input.count) bytes")
      let before = ReferenceDeflate.compress(input, rule: .before)
      #expect(
        deflated.count * 100 <= before.count * 108 + 100,
        "seed \(seed), \(input.count) bytes: \(deflated.count) against \(before.count) before")
      #expect(try gunzip(deflated, original: input, in: directory) == input, "seed \(seed)")
    }
  }

  @Test("gzip inflates what Deflate writes, byte for byte")
  func roundTrips() throws {
    let directory = TemporaryDirectory()
    var random = SplitMix64(seed: testSeed("DeflateTests.roundTrips"))
    let words = ["menuScrolled", "\"seq\":", "applied", "espresso-machines/leva", "0.0", "{", "}"]
    let text = (0..<40_000).map { _ in words[Int(random.next() % UInt64(words.count))] }
      .joined(separator: ",")
    let inputs: [(String, [UInt8])] = [
      ("empty", []), ("one byte", [42]), ("short", Array("hello hello hello!".utf8)),
      ("text", Array(text.utf8)),
      ("noise", (0..<100_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }),
      ("zeros", [UInt8](repeating: 0, count: 300_000)),
      ("long repeats", Array(String(repeating: "abcdefghij", count: 5_000).utf8)),
      (
        "one symbol then others",
        [UInt8](repeating: 7, count: 1_000) + Array(text.utf8.prefix(5_000))
      ),
    ]
    for (name, input) in inputs {
      let deflated = Deflate.compress(input)
      #expect(try gunzip(deflated, original: input, in: directory) == input, "\(name)")
      if name == "text" {
        #expect(deflated.count * 5 < input.count, "text compresses at least 5×: \(deflated.count)")
      }
    }
  }

  @Test("Huffman codes are complete and no longer than the limit, even for skewed frequencies")
  func codeLengths() {
    // Fibonacci frequencies make an unlimited Huffman code as deep as there are symbols.
    var fibonacci = [1, 1]
    while fibonacci.count < 30 {
      fibonacci.append(fibonacci[fibonacci.count - 1] + fibonacci[fibonacci.count - 2])
    }
    for (frequencies, limit) in [
      (fibonacci, 15), (fibonacci.prefix(19).map { $0 }, 7), ([5, 0, 0], 15), ([0, 0, 3], 15),
      ([Int](repeating: 1, count: 286), 15), ([0, 0, 0], 7),
    ] {
      let lengths = Huffman.codeLengths(frequencies, limit: limit)
      #expect(lengths.allSatisfy { $0 <= limit })
      for (symbol, frequency) in frequencies.enumerated() where frequency > 0 {
        #expect(lengths[symbol] > 0, "a used symbol has a code")
      }
      // Kraft: a complete prefix code has Σ 2^-length = 1.
      let kraft = lengths.filter { $0 > 0 }.reduce(0.0) { $0 + 1 / Double(1 << Int($1)) }
      #expect(kraft == 1, "\(frequencies.prefix(4)) limit \(limit): \(kraft)")
    }
  }

  @Test("distance and length codes are those of RFC 1951")
  func codes() {
    let distances = [
      (1, 0), (4, 3), (5, 4), (6, 4), (7, 5), (8, 5), (9, 6), (12, 6), (13, 7), (24_577, 29),
      (32_768, 29), (16_385, 28),
    ]
    for (distance, code) in distances {
      #expect(Symbols.distanceCode(distance) == code, "distance \(distance)")
    }
    for (length, code) in [(3, 0), (10, 7), (11, 8), (12, 8), (13, 9), (257, 27), (258, 28)] {
      #expect(Symbols.lengthCode(length) == code, "length \(length)")
    }
  }
}
