import Testing

@testable import RewindArguments

@Suite("Wrapping help text")
struct WrappingTests {
  @Test("lines are filled up to the width, breaking at spaces")
  func fill() {
    #expect(HelpFormatter.wrap("aaa bbb ccc", width: 7) == "aaa bbb\nccc")
    #expect(HelpFormatter.wrap("aaa bbb ccc", width: 6) == "aaa\nbbb\nccc")
    #expect(HelpFormatter.wrap("aaa bbb", width: 80) == "aaa bbb")
    #expect(HelpFormatter.wrap("", width: 10) == "")
  }

  @Test("every line is indented, and the caller drops the first line's indent")
  func indent() {
    #expect(HelpFormatter.wrap("aaa bbb ccc", width: 11, indent: 4) == "    aaa bbb\n    ccc")
  }

  @Test("line breaks are kept, and empty lines stay empty")
  func lineBreaks() {
    #expect(
      HelpFormatter.wrap("one\n\ntwo three", width: 6, indent: 2) == "  one\n\n  two\n  three")
  }

  @Test("a word longer than the room is left whole on its own line")
  func longWord() {
    #expect(HelpFormatter.wrap("a abcdefghij b", width: 5) == "a\nabcdefghij\nb")
    #expect(HelpFormatter.wrap("abcdefghij", width: 5) == "abcdefghij")
  }

  @Test("no line is longer than the width unless a word is")
  func bound() {
    let text = (1...200).map { String(repeating: "x", count: $0 % 9 + 1) }.joined(separator: " ")
    for width in [20, 37, 80] {
      for line in HelpFormatter.wrap(text, width: width, indent: 3).split(separator: "\n") {
        #expect(line.count <= width)
        #expect(line.hasPrefix("   "))
      }
    }
  }

  @Test("code in backticks and bracketed examples are not broken inside when they fit")
  func codeKeptWhole() {
    // info's example of lostEvents: broken after `{"from":` before.
    #expect(
      HelpFormatter.wrap(#"as `verify --json` does: [{"from": N, "to": M}], empty"#, width: 36)
        == "as `verify --json` does:\n" + #"[{"from": N, "to": M}], empty"#)
    #expect(
      HelpFormatter.wrap("see `rewind verify` for it", width: 16) == "see\n`rewind verify`\nfor it")
    // Nested brackets: the outer pair too long for a line, each inner one kept whole.
    #expect(
      HelpFormatter.wrap(#"{"a": [1, 2], "b": [3, 4]}"#, width: 14)
        == #"{"a": [1, 2],"# + "\n" + #""b": [3, 4]}"#)
    // Longer than the room: broken at its spaces, as any text.
    #expect(HelpFormatter.wrap("`aa bb cc dd`", width: 6) == "`aa bb\ncc dd`")
    // A bracket or backtick that is not closed on its line protects nothing.
    #expect(HelpFormatter.wrap("[aa bb cc", width: 6) == "[aa bb\ncc")
    #expect(HelpFormatter.wrap("`aa bb cc", width: 6) == "`aa bb\ncc")
    #expect(HelpFormatter.wrap("a ] b [ c", width: 3) == "a ]\nb [\nc")
  }

  @Test("ASCII text is wrapped by bytes as it is by characters")
  func asciiAsCharacters() {
    var generator = SystemRandomNumberGenerator()
    let pieces = [
      "a", "bc", "defghijklmnopqrst", " ", " ", "  ", "\n", "\n\n", "-", "x y", "`", "{", "}",
      "[", "]",
    ]
    for _ in 0..<500 {
      let text = (0..<Int.random(in: 0...40, using: &generator))
        .map { _ in pieces.randomElement(using: &generator)! }.joined()
      let room = Int.random(in: 1...30, using: &generator)
      let indent = Int.random(in: 0...6, using: &generator)
      #expect(
        HelpFormatter.wrapASCII(Array(text.utf8), room: room, indent: indent)
          == HelpFormatter.wrapCharacters(text, room: room, indent: indent),
        "\(text.debugDescription)")
    }
  }

  @Test("text beyond ASCII and carriage returns are wrapped by characters")
  func beyondASCII() {
    #expect(HelpFormatter.wrap("é é é", width: 3) == "é é\né")
    #expect(HelpFormatter.wrap("ab\r\ncd", width: 80) == "ab\r\ncd")
  }
}
