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
}
