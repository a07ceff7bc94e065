import RewindTerminal
import Testing

@Suite("Screen drawing")
struct ScreenTests {
  private func screen(_ columns: Int, _ rows: Int) -> Screen {
    Screen(size: TerminalSize(columns: columns, rows: rows))
  }

  @Test("text is written by display width and clipped to the rectangle and the screen")
  func clipping() {
    var screen = screen(10, 3)
    let end = screen.write("hello world", column: 2, row: 0)
    #expect(end == 13)
    #expect(screen.line(0) == "  hello wo")
    screen.write("abcdef", column: 0, row: 1, clip: Rect(column: 1, row: 1, width: 3, height: 1))
    #expect(screen.line(1) == " bcd")
    // Outside the clip's rows: nothing.
    screen.write("zzz", column: 0, row: 2, clip: Rect(column: 0, row: 0, width: 10, height: 2))
    #expect(screen.line(2) == "")
    // Starting left of the screen: the visible part only.
    screen.write("123456", column: -3, row: 2)
    #expect(screen.line(2) == "456")
  }

  @Test("wide characters take two cells and are never split")
  func wideCharacters() {
    var screen = screen(7, 3)
    screen.write("月曜日x", column: 0, row: 0)
    #expect(screen.line(0) == "月曜日x")
    #expect(screen[0, 0].width == 2)
    #expect(screen[1, 0].isContinuation)
    #expect(screen[6, 0].character == "x")
    // Cut by the right edge: the wide character that does not fit leaves a space.
    screen.write("ab月曜日", column: 0, row: 1, clip: Rect(column: 0, row: 1, width: 5, height: 1))
    #expect(screen.line(1) == "ab月")
    #expect(screen[4, 1].character == " " && screen[4, 1].width == 1)
    // Cut by the left edge: its visible half is blank.
    screen.write("月x", column: -1, row: 2)
    #expect(screen.line(2) == " x")
    // Emoji and combining marks.
    var other = self.screen(6, 1)
    other.write("🙂e\u{301}!", column: 0, row: 0)
    #expect(other.line(0) == "🙂e\u{301}!")
    #expect(other[3, 0].character == "!")
  }

  @Test("writing over half of a wide character blanks its other half")
  func overwritingHalves() {
    var screen = screen(6, 2)
    screen.write("月曜", column: 0, row: 0)
    screen.write("x", column: 1, row: 0)  // the right half of 月
    #expect(screen.line(0) == " x曜")
    #expect(screen[0, 0].width == 1)
    screen.write("y", column: 2, row: 0)  // the left half of 曜
    #expect(screen.line(0) == " xy")
    #expect(screen[3, 0].width == 1 && !screen[3, 0].isContinuation)
    // A wide character over a narrow one and the left half of another wide one.
    screen.write("ab月", column: 0, row: 1)
    screen.write("日", column: 1, row: 1)
    #expect(screen.line(1) == "a日")
    #expect(screen[3, 1].width == 1 && screen[3, 1].character == " ")
  }

  @Test("control characters in text are escaped, never stored")
  func escaping() {
    var screen = screen(30, 1)
    screen.write("a\u{1B}]0;x\u{07}b", column: 0, row: 0)
    #expect(screen.line(0) == "a\\u{1B}]0;x\\u{7}b")
  }

  @Test("fill, restyle and box")
  func shapes() {
    var screen = screen(8, 4)
    screen.box(Rect(column: 0, row: 0, width: 8, height: 4), title: "Espresso machines")
    #expect(screen.lines == ["┌ Esp… ┐", "│      │", "│      │", "└──────┘"])
    screen.fill(Rect(column: 1, row: 1, width: 6, height: 2), with: "·")
    #expect(screen.line(1) == "│······│")
    screen.restyle(Rect(column: 1, row: 1, width: 2, height: 1)) { $0.reverse = true }
    #expect(screen[1, 1].style == .reverse)
    #expect(screen[3, 1].style == .plain)
    #expect(screen[1, 1].character == "·")
    // Filling with a wide character leaves a space where a last half would not fit.
    var wide = self.screen(5, 1)
    wide.fill(wide.bounds, with: "月")
    #expect(wide.line(0) == "月月")
    #expect(wide[4, 0].character == " ")
  }

  @Test("fitted text is cut with an ellipsis by display width")
  func fitted() {
    #expect(Screen.fitted("Monday", toWidth: 10) == "Monday")
    #expect(Screen.fitted("Wednesday", toWidth: 5) == "Wedn…")
    #expect(Screen.fitted("月曜日です", toWidth: 6) == "月曜…")
    #expect(Screen.fitted("abc", toWidth: 0) == "")
    // Measured as it is drawn, its control characters escaped: `\u{1B}` is six columns.
    #expect(Screen.fitted("a\u{1B}]0;x\u{07}b", toWidth: 9) == "a\\u{1B}]…")
    var screen = screen(12, 1)
    screen.write(Screen.fitted("\u{1B}[2J\u{1B}[2J", toWidth: 10), column: 0, row: 0)
    screen.write("|", column: 10, row: 0)
    #expect(screen.line(0) == "\\u{1B}[2J…|")
  }

  @Test("the help overlay lists keys and actions in a centred frame")
  func helpOverlay() {
    var screen = screen(40, 8)
    let panel = screen.helpOverlay(
      title: "Keys", entries: [KeyHelp("q", "quit"), KeyHelp("Tab", "next column")],
      footer: "any key closes")
    #expect(panel.width == 20 && panel.height == 6)
    #expect(screen.line(panel.row).contains("┌ Keys ─"))
    #expect(screen.line(panel.row + 1).hasSuffix("│ q    quit        │"))
    #expect(screen.line(panel.row + 2).hasSuffix("│ Tab  next column │"))
    #expect(screen.line(panel.row + 4).contains("any key closes"))
  }

  @Test(
    "the help overlay on a small screen: actions go on under themselves, the keys left out are counted, the footer stays"
  )
  func helpOverlaySmall() {
    let entries = [
      KeyHelp("a", "one two three four five six"), KeyHelp("b", "seven"),
      KeyHelp("c", "eight nine ten eleven"), KeyHelp("d", "twelve"),
    ]
    // Narrow: every action whole, broken at spaces under its column.
    var narrow = screen(20, 12)
    var panel = narrow.helpOverlay(title: "Keys", entries: entries, footer: "Esc closes")
    #expect(panel.width == 20)
    let lines = (panel.row..<panel.endRow).map { narrow.line($0) }
    #expect(lines[1] == "│ a  one two three │")
    #expect(lines[2] == "│    four five six │")
    #expect(lines[3] == "│ b  seven         │")
    #expect(lines[4] == "│ c  eight nine    │")
    #expect(lines[5] == "│    ten eleven    │")
    #expect(lines[6] == "│ d  twelve        │")
    #expect(lines[8] == "│ Esc closes       │")
    // Short too: the entries that do not fit whole are left out and counted; the footer
    // is the last line.
    var short = screen(20, 7)
    panel = short.helpOverlay(title: "Keys", entries: entries, footer: "Esc closes")
    #expect(panel.height == 7)
    #expect(short.line(1) == "│ a  one two three │")
    #expect(short.line(2) == "│    four five six │")
    #expect(short.line(3) == "│ b  seven         │")
    #expect(short.line(4) == "│ … 2 more keys: … │")
    #expect(short.line(5) == "│ Esc closes       │")
  }
}
