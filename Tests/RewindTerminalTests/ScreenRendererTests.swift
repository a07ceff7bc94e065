import RewindTerminal
import Testing

@Suite("Screen renderer")
struct ScreenRendererTests {
  private let size = TerminalSize(columns: 10, rows: 3)

  private func render(_ previous: Screen?, _ next: Screen, _ colors: ColorSupport = .none)
    -> String
  {
    String(decoding: ScreenRenderer.update(from: previous, to: next, colors: colors), as: UTF8.self)
  }

  @Test("the first draw clears and writes only the cells that are not blank")
  func firstDraw() {
    var screen = Screen(size: size)
    screen.write("ab", column: 1, row: 0)
    screen.write("c", column: 9, row: 2)
    #expect(render(nil, screen) == "\u{1B}[0m\u{1B}[H\u{1B}[2J\u{1B}[1;2Hab\u{1B}[3;10Hc")
  }

  @Test("equal screens give no bytes; a change gives one move and the changed cells")
  func minimalUpdate() {
    var before = Screen(size: size)
    before.write("Monday Tue", column: 0, row: 1)
    var after = before
    #expect(render(before, after).isEmpty)
    after.write("Wed", column: 7, row: 1)
    #expect(render(before, after) == "\u{1B}[2;8HWed")
    // Two changed runs on one row: two moves; a run that continues needs none.
    var third = after
    third.write("X", column: 0, row: 1)
    third.write("Y", column: 5, row: 1)
    #expect(render(after, third) == "\u{1B}[2;1HX\u{1B}[2;6HY")
  }

  @Test("a wide character is written whole, and a change of its right half rewrites it")
  func wideCharacters() {
    var before = Screen(size: size)
    before.write("月曜", column: 0, row: 0)
    var after = before
    after.write("日", column: 2, row: 0)
    #expect(render(before, after) == "\u{1B}[1;3H日")
    // Replacing a wide character by two narrow ones writes both cells.
    var narrow = after
    narrow.write("ab", column: 0, row: 0)
    #expect(render(after, narrow) == "\u{1B}[1;1Hab")
    // After a wide character the cursor is two columns on: no move for the next cell.
    var next = Screen(size: size)
    next.write("月x", column: 0, row: 0)
    #expect(render(Screen(size: size), next) == "\u{1B}[1;1H月x")
  }

  @Test(
    "a character terminals may measure otherwise is written over blanks, and the next cell placed by a move"
  )
  func uncertainWidths() {
    // An emoji newer than a terminal's tables (tmux drops it), an emoji with a variation
    // selector (one column here, two in some terminals), a flag: blanks first, so that a
    // terminal that draws it narrower leaves nothing old there; a move after, so that one
    // that draws it wider or narrower shifts nothing after it.
    var next = Screen(size: size)
    next.write("\u{1FA75}a❤\u{FE0F}b🇫🇷c", column: 0, row: 0)
    #expect(
      render(Screen(size: size), next)
        == "\u{1B}[1;1H  \u{1B}[1;1H\u{1FA75}\u{1B}[1;3Ha \u{1B}[1;4H❤\u{FE0F}\u{1B}[1;5Hb  \u{1B}[1;6H🇫🇷\u{1B}[1;8Hc"
    )
    // What every terminal measures alike needs neither: CJK ideographs, Latin
    // letters with accents, the box drawing and the punctuation the screens are drawn with.
    var certain = Screen(size: size)
    certain.write("日本é─│●·…", column: 0, row: 0)
    #expect(render(Screen(size: size), certain) == "\u{1B}[1;1H日本é─│●·…")
  }

  @Test("styles: one sequence per change of style, a reset at the end")
  func styles() {
    var screen = Screen(size: size)
    screen.write("ab", column: 0, row: 0, style: .bold)
    screen.write("c", column: 2, row: 0, style: CellStyle(underline: true, reverse: true))
    screen.write("d", column: 3, row: 0)
    #expect(
      render(Screen(size: size), screen)
        == "\u{1B}[1;1H\u{1B}[0;1mab\u{1B}[0;4;7mc\u{1B}[0md")
    var dim = Screen(size: size)
    dim.write("e", column: 0, row: 0, style: .dim)
    #expect(render(Screen(size: size), dim) == "\u{1B}[1;1H\u{1B}[0;2me\u{1B}[0m")
  }

  @Test("colours as the terminal has them, none without colour")
  func colors() {
    var screen = Screen(size: size)
    let style = CellStyle(foreground: .rgb(255, 0, 0), background: .standard(12), bold: true)
    screen.write("x", column: 0, row: 0, style: style)
    let blank = Screen(size: size)
    #expect(
      render(blank, screen, .trueColor) == "\u{1B}[1;1H\u{1B}[0;1;38;2;255;0;0;104mx\u{1B}[0m")
    #expect(render(blank, screen, .palette) == "\u{1B}[1;1H\u{1B}[0;1;38;5;196;104mx\u{1B}[0m")
    #expect(render(blank, screen, .standard) == "\u{1B}[1;1H\u{1B}[0;1;91;104mx\u{1B}[0m")
    // No colour: the attributes stay.
    #expect(render(blank, screen, .none) == "\u{1B}[1;1H\u{1B}[0;1mx\u{1B}[0m")
    var palette = Screen(size: size)
    palette.write("y", column: 0, row: 0, style: CellStyle(foreground: .palette(28)))
    #expect(render(blank, palette, .palette) == "\u{1B}[1;1H\u{1B}[0;38;5;28my\u{1B}[0m")
    #expect(render(blank, palette, .standard) == "\u{1B}[1;1H\u{1B}[0;32my\u{1B}[0m")
  }

  @Test("a resize draws everything again")
  func resize() {
    var small = Screen(size: TerminalSize(columns: 4, rows: 1))
    small.write("abcd", column: 0, row: 0)
    var large = Screen(size: size)
    large.write("abcd", column: 0, row: 0)
    #expect(render(small, large) == "\u{1B}[0m\u{1B}[H\u{1B}[2J\u{1B}[1;1Habcd")
  }

  @Test("applying the update to the previous screen gives the next one", arguments: 0..<32)
  func updatesReproduceTheScreen(seed: Int) {
    var random = SplitMixBytes(seed: UInt64(seed) + 1000)
    let pieces = ["月", "a", "🙂", "bc", " ", "曜日", "x"]
    var previous = Screen(size: size)
    for _ in 0..<6 {
      var next = previous
      for _ in 0..<Int(random.next() % 6) {
        let text = pieces[Int(random.next() % UInt64(pieces.count))]
        next.write(
          text, column: Int(random.next() % 11) - 1, row: Int(random.next() % 3),
          style: random.next() % 2 == 0 ? .plain : .bold)
      }
      let bytes = ScreenRenderer.update(from: previous, to: next, colors: .standard)
      var emulated = TerminalEmulator(showing: previous)
      emulated.apply(bytes)
      #expect(emulated.screen.lines == next.lines)
      previous = next
    }
  }
}

/// Plays the renderer's output (cursor moves, styles, text) onto a screen, as a
/// terminal would, for checking that an update turns one screen into the other.
struct TerminalEmulator {
  var screen: Screen
  var column = 0
  var row = 0

  init(showing screen: Screen) { self.screen = screen }

  mutating func apply(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    var index = text.startIndex
    while index < text.endIndex {
      if text[index] == "\u{1B}" {
        let rest = text[text.index(index, offsetBy: 2)...]
        guard let end = rest.firstIndex(where: { $0.isLetter }) else { return }
        let parameters = rest[..<end].split(separator: ";").compactMap { Int($0) }
        if rest[end] == "H" {
          row = (parameters.first ?? 1) - 1
          column = (parameters.count > 1 ? parameters[1] : 1) - 1
        } else if rest[end] == "J" {
          screen = Screen(size: screen.size)
        }
        index = text.index(after: end)
      } else {
        let character = text[index]
        let width = String(character).unicodeScalars.first!.isASCII ? 1 : 2
        screen.write(String(character), column: column, row: row)
        column += width
        index = text.index(after: index)
      }
    }
  }
}
