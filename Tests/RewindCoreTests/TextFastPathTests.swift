import RewindCore
import TestSupport
import Testing

/// The byte-level fast paths of the text a command prints (`TerminalText.needsEscaping`,
/// `TerminalText.width`, `Format.offset`) against their definitions, on random text.
@Suite("Text fast paths: the same answers as the definitions")
struct TextFastPathTests {
  /// Scalars near every edge the byte scan looks at: the C0 and C1 controls and DEL, the
  /// bidi controls and their neighbours (`E2 80 A9`, `E2 80 AF`, `E2 81 A5`, `E2 81 AA`),
  /// other `C2` and `E2` characters (NBSP, `–`, `→`, `…`), wide and combining characters,
  /// emoji, and plain ASCII.
  static let alphabet: [Unicode.Scalar] = [
    "a", "Z", " ", "~", "0", "\n", "\t", "\r", "\u{0}", "\u{1B}", "\u{1F}", "\u{7F}", "\u{80}",
    "\u{9B}", "\u{9F}", "\u{A0}", "\u{AD}", "é", "\u{2013}", "\u{2192}", "\u{2026}",
    "\u{2029}", "\u{202A}", "\u{202C}", "\u{202E}", "\u{202F}", "\u{2065}", "\u{2066}",
    "\u{2068}", "\u{2069}", "\u{206A}", "\u{20AC}", "月", "日", "\u{301}", "\u{200D}", "🙂",
    "☕", "\u{FFFD}", "\u{E2}", "\u{C2}", "\u{1160}", "\u{FE0F}",
  ]

  static func randomText(_ random: inout SplitMix64) -> String {
    if random.next() % 4 == 0 {
      // Random bytes, with the lead bytes of the controls often: invalid sequences are
      // repaired to U+FFFD when decoded, as every String from outside is.
      let leads: [UInt8] = [0xC2, 0xE2, 0x80, 0x81, 0x86, 0x92, 0x9F, 0xAA, 0xAE, 0xA6, 0xA9]
      let bytes = (0..<Int(random.next() % 24)).map { _ in
        random.next() % 2 == 0
          ? leads[Int(random.next() % UInt64(leads.count))]
          : UInt8(truncatingIfNeeded: random.next())
      }
      return String(decoding: bytes, as: UTF8.self)
    }
    var text = String.UnicodeScalarView()
    for _ in 0..<Int(random.next() % 20) {
      text.append(alphabet[Int(random.next() % UInt64(alphabet.count))])
    }
    return String(text)
  }

  @Test("needsEscaping reads the bytes as the scalar definition reads the scalars")
  func needsEscaping() {
    var random = SplitMix64(seed: testSeed("TextFastPathTests.needsEscaping"))
    var found = (escaped: 0, plain: 0)
    for _ in 0..<soakCount("TEXT_FAST_PATH", standard: 40_000) {
      let text = Self.randomText(&random)
      for keepingNewlines in [false, true] {
        let fast = TerminalText.needsEscaping(text, keepingNewlines: keepingNewlines)
        let slow = TerminalText.needsEscapingScalarByScalar(text, keepingNewlines: keepingNewlines)
        #expect(fast == slow, "\(Array(text.utf8)) keepingNewlines: \(keepingNewlines)")
        let bytes = Array(text.utf8).withUnsafeBufferPointer {
          TerminalText.hasControlBytes($0, keepingNewlines: keepingNewlines)
        }
        #expect(bytes == slow, "\(Array(text.utf8)) keepingNewlines: \(keepingNewlines)")
        #expect((TerminalText.escaped(text, keepingNewlines: keepingNewlines) != text) == slow)
        if slow { found.escaped += 1 } else { found.plain += 1 }
      }
    }
    // Both answers are common, so the comparison means something.
    #expect(found.escaped > 1000 && found.plain > 1000)
  }

  @Test("every control character is found at every place, `→` and its neighbours are not")
  func everyControl() {
    let controls =
      (0...0x9F).filter { $0 < 0x20 || $0 >= 0x7F } + Array(0x2028...0x202E)
      + Array(0x2066...0x2069)
    for value in controls {
      let scalar = Unicode.Scalar(UInt32(value))!
      for text in ["\(scalar)", "a\(scalar)", "→\(scalar)→", "日本\(scalar)"] {
        #expect(TerminalText.needsEscaping(text) == true)
        #expect(TerminalText.needsEscaping(text, keepingNewlines: true) == (scalar != "\n"))
      }
    }
    for value in [0xA0, 0xBF, 0x2027, 0x2030, 0x202F, 0x2065, 0x206A, 0x2192, 0x2080, 0x20AC] {
      let text = "x\(Unicode.Scalar(UInt32(value))!)y"
      #expect(!TerminalText.needsEscaping(text), "U+\(String(value, radix: 16))")
    }
  }

  @Test("width counts ASCII from the bytes as it counts scalars")
  func width() {
    var random = SplitMix64(seed: testSeed("TextFastPathTests.width"))
    for _ in 0..<soakCount("TEXT_FAST_PATH", standard: 40_000) {
      var text = Self.randomText(&random)
      if random.next() % 2 == 0 {
        text = String(String.UnicodeScalarView(text.unicodeScalars.filter(\.isASCII)))
      }
      let bySc = text.unicodeScalars.reduce(0) { $0 + TerminalText.width(of: $1) }
      #expect(TerminalText.width(text) == bySc, "\(Array(text.utf8))")
      #expect(
        TerminalText.width(text.dropFirst()) == bySc
          - (text.first.map { TerminalText.width(String($0)) } ?? 0))
    }
  }

  @Test("offset writes what the decimal arithmetic writes")
  func offset() {
    var random = SplitMix64(seed: testSeed("TextFastPathTests.offset"))
    var times: [UInt64] = [
      0, 1, 499, 500, 501, 999, 1000, 1499, 1500, 2500, 999_499, 999_500, 59_999_999, 1 << 40,
      (1 << 50) - 1,
    ]
    for _ in 0..<20_000 {
      times.append(random.next() >> (14 + random.next() % 50))
    }
    for time in times {
      #expect(
        Format.offset(time) == "+" + Format.decimal(Double(time) / 1_000_000, places: 3) + "s",
        "\(time)")
    }
  }

  @Test("offset and appendOffset near Int64.max and Int64.min's magnitude, the largest times")
  func offsetAtTheEnds() {
    var random = SplitMix64(seed: testSeed("TextFastPathTests.offsetAtTheEnds"))
    let largest = UInt64(Int64.max)
    var times: [UInt64] = []
    for distance in UInt64(0)..<2_000 {
      times += [largest - distance, largest + 1 + distance]
    }
    for _ in 0..<20_000 {
      // Within 2^52 µs either side of 2^63.
      times.append(largest - (1 << 52) + random.next() % (1 << 53))
    }
    for time in times {
      let expected = "+" + Format.decimal(Double(time) / 1_000_000, places: 3) + "s"
      #expect(Format.offset(time) == expected, "\(time)")
      var bytes: [UInt8] = [0x41]
      Format.appendOffset(time, to: &bytes)
      #expect(bytes == [0x41] + Array(expected.utf8), "\(time)")
    }
    // 2^63 − 1 µs is 9,223,372,036,854.775807 s: to the millisecond, .776.
    #expect(Format.offset(largest) == "+9223372036854.776s")
    #expect(Format.offset(largest + 1) == "+9223372036854.776s")
  }

  @Test("digits are String's digits")
  func digits() {
    var random = SplitMix64(seed: testSeed("TextFastPathTests.digits"))
    for value in [0, 9, 10, 99, 100, UInt64.max, UInt64.max / 10]
      + (0..<5000).map({ _ in random.next() >> (random.next() % 64) })
    {
      var bytes: [UInt8] = [0x41]
      Format.appendDigits(value, to: &bytes)
      #expect(bytes == [0x41] + Array(String(value).utf8))
    }
  }
}
