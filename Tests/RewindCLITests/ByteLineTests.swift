import RewindCore
import TestSupport
import Testing

@testable import RewindCLI

/// Lines appended as bytes (`Output.print(utf8:)`, `Style.append(_:to:_:)`) against the
/// same lines built as text and printed with `Output.print(_:)`.
@Suite("Lines written as bytes")
struct ByteLineTests {
  static let pieces: [String] = [
    "  event 12 at +1.234s: ", "→ ", "\"grinders/vulcano\"", "月曜日 🙂", "a\u{1B}]0;x\u{7}b",
    "\u{1B}[2m", "\u{1B}[22m", "\u{9B}2J", "\u{202E}evil", "\u{2066}", "\n", "\r", "tab\t",
    "–…€", "\u{FFFD}", "plain", "",
  ]

  @Test("print(utf8:) writes what print(_:) writes, plain and styled")
  func printBytes() {
    var random = SplitMix64(seed: testSeed("ByteLineTests.printBytes"))
    let looks: [(Style.Look, (Style) -> (String) -> String)] = [
      (.bold, Style.bold), (.dim, Style.dim), (.red, Style.red), (.green, Style.green),
      (.yellow, Style.yellow), (.cyan, Style.cyan),
    ]
    for terminal in [false, true] {
      let environment = ["TERM": "xterm-256color"]
      let text = Output.capture(isTerminal: terminal, environment: environment)
      let bytes = Output.capture(isTerminal: terminal, environment: environment)
      #expect(text.style.isEnabled == terminal)
      for _ in 0..<3000 {
        var line = ""
        var lineBytes: [UInt8] = []
        for _ in 0..<Int(random.next() % 6) {
          let piece = Self.pieces[Int(random.next() % UInt64(Self.pieces.count))]
          if random.next() % 2 == 0 {
            let (look, styled) = looks[Int(random.next() % UInt64(looks.count))]
            line += styled(text.style)(piece)
            bytes.style.append(look, to: &lineBytes) { $0.append(contentsOf: piece.utf8) }
          } else {
            line += piece
            lineBytes.append(contentsOf: piece.utf8)
          }
        }
        text.print(line)
        bytes.print(utf8: lineBytes)
      }
      #expect(text.text == bytes.text)
      #expect(text.text.contains("\\u{1B}") && text.text.contains("\\u{202E}"))
    }
  }
}
