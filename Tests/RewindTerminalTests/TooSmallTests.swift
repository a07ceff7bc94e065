import Testing

@testable import RewindTerminal

@Suite("What a terminal below the app's size shows")
struct TooSmallTests {
  let needs = TerminalSize(columns: 60, rows: 16)

  func lines(_ columns: Int, _ rows: Int) -> [String] {
    TerminalSession.tooSmallLines(size: TerminalSize(columns: columns, rows: rows), needs: needs)
  }

  @Test("three lines where they fit, the sentence wrapped at its words where they do not")
  func wrapped() {
    #expect(
      lines(50, 12) == ["This terminal is 50×12.", "Make it at least 60×16", "(columns × rows)."])
    #expect(
      lines(20, 8) == ["This terminal is", "20×8. Make it at", "least 60×16 (columns", "× rows)."])
    #expect(lines(20, 3) == ["Make it at least", "60×16"])
    #expect(lines(10, 5) == ["Make it at", "least", "60×16"])
  }

  @Test("the size needed, never cut short where it fits; in fewer columns, what fits of it")
  func smallest() {
    #expect(lines(10, 2) == ["60×16"])
    #expect(lines(5, 1) == ["60×16"])
    #expect(lines(2, 1) == ["60"])
    #expect(lines(1, 1) == ["6"])
    for columns in 1...80 {
      for rows in 1...20 {
        let shown = lines(columns, rows)
        #expect(shown.count <= rows)
        #expect(shown.allSatisfy { $0.count <= columns }, "\(columns)×\(rows): \(shown)")
        #expect(shown.joined(separator: " ").contains("60×16") || columns < 5)
      }
    }
  }
}
