import Foundation
import TestSupport
import Testing

@testable import RewindPage

@Suite("SHA-256 and HTML text: what names the page's script and escapes its title")
struct EncodingTests {
  private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
  }

  @Test("SHA-256 gives the digests of FIPS 180-4's examples and of sha256sum")
  func sha256() throws {
    #expect(
      hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      hex(SHA256.hash(Array("abc".utf8)))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    let directory = TemporaryDirectory()
    var random = SplitMix64(seed: testSeed("EncodingTests.sha256"))
    for length in [55, 56, 63, 64, 65, 1_000, 100_003] {
      let input = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      write(input, to: directory.file("input"))
      let result = try run("/usr/bin/sha256sum", [directory.file("input")])
      #expect(result.stdout.hasPrefix(hex(SHA256.hash(input))), "\(length) bytes")
    }
  }

  @Test("HTML text escapes markup and quotes, and shows control characters as the terminal does")
  func htmlText() {
    #expect(HTMLText.escaped("plain") == "plain")
    #expect(
      HTMLText.escaped(#"<script>alert("x")</script> & 'y'"#)
        == "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;")
    #expect(HTMLText.escaped("a\u{1B}[2J\u{0}b\u{202E}") == #"a\u{1B}[2J\u{0}b\u{202E}"#)
    #expect(HTMLText.escaped("Café ☕ 月曜日") == "Café ☕ 月曜日")
  }
}
