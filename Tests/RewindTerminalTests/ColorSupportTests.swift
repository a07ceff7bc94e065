import Testing

@testable import RewindTerminal

@Suite("The colours a terminal shows, from its environment")
struct ColorSupportTests {
  private func colors(_ term: String?, colorTerm: String? = nil, noColor: String? = nil)
    -> ColorSupport
  {
    var environment: [String: String] = [:]
    environment["TERM"] = term
    environment["COLORTERM"] = colorTerm
    environment["NO_COLOR"] = noColor
    return ColorSupport(environment: environment)
  }

  @Test(
    "monochrome terminals by their terminfo names get no colour, whatever COLORTERM says",
    arguments: [
      "xterm-mono", "linux-m", "ansi-m", "pcansi-m", "putty-m1", "linux-m1b", "putty-m2",
      "xterm-r5", "xterm-r6", "xterm-old", "rxvt-basic", "vt52", "vt100", "vt102", "vt220",
      "vt320", "vt420",
    ])
  func monochrome(term: String) {
    #expect(colors(term) == .none)
    #expect(colors(term, colorTerm: "truecolor") == .none)
  }

  @Test(
    "terminals with colour keep it, names that only look alike included",
    arguments: [
      ("xterm", ColorSupport.standard), ("xterm-color", .standard), ("xterm-vt220", .standard),
      ("screen-w", .standard), ("rxvt-unicode", .standard), ("linux", .standard),
      ("xterm-256color", .palette), ("tmux-256color", .palette), ("xterm-meta", .standard),
      ("mlterm-color", .standard),
    ])
  func colour(term: String, expected: ColorSupport) {
    #expect(colors(term) == expected)
  }

  @Test("NO_COLOR, an unset TERM and dumb get none; COLORTERM gives 24 bits")
  func environment() {
    #expect(colors("xterm-256color", noColor: "1") == .none)
    #expect(colors("xterm-256color", noColor: "") == .palette)
    #expect(colors(nil) == .none)
    #expect(colors("dumb") == .none)
    #expect(colors("xterm-256color", colorTerm: "truecolor") == .trueColor)
    #expect(colors("unknown-terminal") == .none)
  }
}
