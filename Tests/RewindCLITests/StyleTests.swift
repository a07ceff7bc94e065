import RewindCLI
import Testing

@Suite("Colour only on a terminal, never with NO_COLOR")
struct StyleTests {
  @Test(
    "the rules",
    arguments: [
      (true, [:], true),
      (false, [:], false),
      (true, ["NO_COLOR": "1"], false),
      (true, ["NO_COLOR": "anything"], false),
      (true, ["NO_COLOR": ""], true),  // set but empty does not count (no-color.org)
      (false, ["NO_COLOR": ""], false),
      (true, ["TERM": "dumb"], false),
      (true, ["TERM": "xterm-256color"], true),
    ] as [(Bool, [String: String], Bool)])
  func rules(isTerminal: Bool, environment: [String: String], enabled: Bool) {
    #expect(Style(isTerminal: isTerminal, environment: environment).isEnabled == enabled)
    #expect(
      Output.capture(isTerminal: isTerminal, environment: environment).style.isEnabled == enabled)
  }

  @Test("styled text carries ANSI sequences that each end with their own reset")
  func sequences() {
    let style = Style(isEnabled: true)
    #expect(style.bold("b") == "\u{1B}[1mb\u{1B}[22m")
    #expect(style.dim("d") == "\u{1B}[2md\u{1B}[22m")
    #expect(style.red("r") == "\u{1B}[31mr\u{1B}[39m")
    #expect(style.green("g") == "\u{1B}[32mg\u{1B}[39m")
    #expect(style.yellow("y") == "\u{1B}[33my\u{1B}[39m")
    #expect(style.cyan("c") == "\u{1B}[36mc\u{1B}[39m")
    #expect(style.bold(style.red("x") + " y") == "\u{1B}[1m\u{1B}[31mx\u{1B}[39m y\u{1B}[22m")
  }

  @Test("a disabled style returns the text unchanged")
  func plain() {
    let style = Style.plain
    for styled in [style.bold("x"), style.dim("x"), style.red("x"), style.green("x")] {
      #expect(styled == "x")
    }
    #expect(style.yellow("x") == "x")
    #expect(style.cyan("x") == "x")
  }

  @Test("each stream decides for itself")
  func perStream() {
    let context = Context.capture(stdoutIsTerminal: false, stderrIsTerminal: true)
    #expect(!context.stdout.style.isEnabled)
    #expect(context.stderr.style.isEnabled)
  }
}
