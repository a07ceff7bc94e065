import RewindCore
import Testing

@Suite("Terminal text: control characters escaped, widths in columns")
struct TerminalTextTests {
  @Test(
    "every control character a terminal obeys is escaped, the rest is left as it is",
    arguments: [
      ("plain text, café, 日本, 🙂", "plain text, café, 日本, 🙂"),
      ("a\u{1B}]0;title\u{07}b", #"a\u{1B}]0;title\u{7}b"#),
      ("\u{1B}[2J", #"\u{1B}[2J"#), ("line\nbreak\r", #"line\u{A}break\u{D}"#),
      ("tab\there", #"tab\u{9}here"#), ("\u{0}nul", #"\u{0}nul"#), ("del\u{7F}", #"del\u{7F}"#),
      ("csi\u{9B}2J", #"csi\u{9B}2J"#), ("\u{80}\u{9F}", #"\u{80}\u{9F}"#),
      ("\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}", #"\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}"#),
      ("\u{2066}\u{2067}\u{2068}\u{2069}", #"\u{2066}\u{2067}\u{2068}\u{2069}"#),
      // The line and paragraph separators, which break a line in log viewers.
      ("a\u{2028}b\u{2029}c", #"a\u{2028}b\u{2029}c"#),
      // Neighbours that are not controls: NBSP (C2 A0), en dash (E2 80 93), ⁦ neighbours,
      // the hyphenation point (E2 80 A7) and the narrow no-break space (E2 80 AF).
      ("\u{A0}–\u{2065}\u{206A}\u{2027}\u{202F}", "\u{A0}–\u{2065}\u{206A}\u{2027}\u{202F}"),
      (#"a backslash \u{1B} stays"#, #"a backslash \u{1B} stays"#),
    ])
  func escaped(text: String, shown: String) {
    #expect(TerminalText.escaped(text) == shown)
    #expect(TerminalText.needsEscaping(text) == (text != shown))
  }

  @Test("a text of several lines may keep its line feeds, and only them")
  func keepingNewlines() {
    #expect(
      TerminalText.escaped("one\ntwo\r\n\u{1B}[1m", keepingNewlines: true)
        == "one\ntwo\\u{D}\n\\u{1B}[1m")
    #expect(!TerminalText.needsEscaping("one\ntwo\n", keepingNewlines: true))
    #expect(TerminalText.needsEscaping("one\ntwo\n"))
  }

  @Test("a text that can never hold a control character says which it holds")
  func problems() {
    #expect(TerminalText.controlCharacterProblem(in: "Monday", describedAs: "the label") == nil)
    // The line and paragraph separators are escaped when shown, but a name may hold them:
    // journals written before they were escaped hold such names, refused they would be
    // read by no command.
    #expect(
      TerminalText.controlCharacterProblem(in: "Mon\u{2028}day\u{2029}", describedAs: "the label")
        == nil)
    #expect(
      TerminalText.controlCharacterProblem(in: "a\u{2028}b\u{1B}", describedAs: "the label")
        == #"the label "a\u{2028}b\u{1B}" contains a control character (U+001B)"#)
    #expect(
      TerminalText.controlCharacterProblem(in: "a\u{1B}b", describedAs: "the label")
        == #"the label "a\u{1B}b" contains a control character (U+001B)"#)
    #expect(
      TerminalText.controlCharacterProblem(in: "x\u{202E}y\u{7}", describedAs: "the id")
        == #"the id "x\u{202E}y\u{7}" contains a control character (U+202E)"#)
    #expect(TerminalText.firstControlCharacter(in: "ok\u{9B}\u{1B}") == "\u{9B}")
    #expect(TerminalText.codePoint("\u{7}") == "U+0007")
    #expect(TerminalText.codePoint("\u{1F642}") == "U+1F642")
  }

  @Test(
    "widths in terminal columns: wide East Asian characters and emoji 2, combining marks 0",
    arguments: [
      ("Monday", 6), ("", 0), ("月曜日", 6), ("日本", 4), ("🙂 Emoji day", 12), ("Café ☕", 7),
      ("Cafe\u{301} ☕", 7), ("カフェ", 6), ("ｶﾌｪ", 3), ("ＡＢ", 4), ("한국어", 6),
      ("e\u{301}\u{302}", 1), ("a\u{200D}b", 2), ("❤\u{FE0F}", 1), ("─━┌│●▸…", 7),
      ("\u{1FAE8}", 2), ("\u{AD}", 1), ("\u{1B}", 0), ("Ελληνικά", 8), ("हिन्दी", 5),
      // Not shown by a terminal: the line and paragraph separators, unassigned code points.
      ("a\u{2028}b\u{2029}", 2), ("\u{378}\u{FFFE}x", 1),
    ])
  func width(text: String, columns: Int) {
    #expect(TerminalText.width(text) == columns)
  }

  @Test("a prefix never splits a character and never passes its width; padding fills to it")
  func prefixAndPadding() {
    #expect(TerminalText.prefix("月曜日", width: 5) == "月曜")
    #expect(TerminalText.prefix("月曜日", width: 6) == "月曜日")
    #expect(TerminalText.prefix("Cafe\u{301}s", width: 4) == "Cafe\u{301}")
    #expect(TerminalText.prefix("🙂x", width: 1) == "")
    #expect(TerminalText.prefix("abc", width: -1) == "")
    #expect(TerminalText.padded("日本", toWidth: 6) == "日本  ")
    #expect(TerminalText.padded("日本語", toWidth: 4) == "日本語")
  }

  @Test("a suffix never splits a character; a text too wide is shortened in its middle")
  func suffixAndShortened() {
    #expect(TerminalText.suffix("月曜日", width: 5) == "曜日")
    #expect(TerminalText.suffix("aCafe\u{301}", width: 4) == "Cafe\u{301}")
    #expect(TerminalText.suffix("x🙂", width: 1) == "")
    #expect(TerminalText.suffix("abc", width: -1) == "")
    #expect(TerminalText.shortened("abcdefghij", width: 10) == "abcdefghij")
    // A third of the room for the start, the rest for the end.
    #expect(TerminalText.shortened("abcdefghijk", width: 10) == "abc…fghijk")
    #expect(TerminalText.shortened("月曜日火曜日", width: 7) == "月…曜日")
    #expect(
      TerminalText.shortened("Checking /home/someone/recordings/monday.journal", width: 30)
        == "Checking …dings/monday.journal")
    #expect(TerminalText.shortened("abcdef", width: 3) == "…ef")
    #expect(TerminalText.shortened("abcdef", width: 2) == "ab")
    #expect(TerminalText.shortened("abcdef", width: -1) == "")
  }

  @Test("JSON escapes DEL, C1 and the bidi controls too, and reads them back")
  func json() throws {
    let text = "a\u{1B}b\u{7F}c\u{9B}d\u{202E}e\u{2066}f\u{A0}g日"
    let printed = JSONValue.string(text).compactText
    #expect(printed == #""a\u001bb\u007fc\u009bd\u202ee\u2066f"# + "\u{A0}g日\"")
    #expect(try JSONValue(parsing: printed) == .string(text))
    #expect(
      !TerminalText.needsEscaping(
        JSONValue.object([(text, .string(text))]).prettyText, keepingNewlines: true))
  }
}
