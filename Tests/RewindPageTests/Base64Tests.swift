import TestSupport
import Testing

@testable import RewindPage

@Suite("Base64: the page's data as text")
struct Base64Tests {
  @Test("encodes RFC 4648's test vectors")
  func vectors() {
    let cases = [
      ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
      ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ]
    for (text, expected) in cases {
      #expect(Base64.encode(Array(text.utf8)) == expected, "\(text)")
    }
    #expect(Base64.encode([0xFB, 0xFF, 0xBF]) == "+/+/")
  }

  @Test("random bytes of every length up to 100, and longer ones: the text of base64 -w0")
  func againstCoreutils() throws {
    let directory = TemporaryDirectory()
    let seed = testSeed("Base64Tests.againstCoreutils")
    var random = SplitMix64(seed: seed)
    // Every remainder of three, the table's every entry (4,096 of 12 bits) many times.
    var inputs = (0...100).map { length in
      (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }
    inputs.append((0..<30_001).map { _ in UInt8(truncatingIfNeeded: random.next()) })
    inputs.append((0..<3_000).map { UInt8(truncatingIfNeeded: $0) })
    // Appended after text already there.
    var output = Array("prefix".utf8)
    Base64.encode([0xFF, 0xEE], into: &output)
    #expect(String(decoding: output, as: UTF8.self) == "prefix/+4=")
    let file = directory.file("input")
    for input in inputs {
      write(input, to: file)
      let result = try run("/usr/bin/base64", ["-w0", file])
      #expect(Base64.encode(input) == result.stdout, "seed \(seed), \(input.count) bytes")
    }
  }
}
