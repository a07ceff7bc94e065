import Navigation
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

  @Test(
    "a monochrome terminal (TERM=vt100, xterm-mono, linux-m) gets bold and dim, no colour",
    arguments: ["vt100", "xterm-mono", "linux-m"])
  func monochrome(term: String) {
    let style = Style(isTerminal: true, environment: ["TERM": term])
    #expect(style.isEnabled && !style.hasColour)
    #expect(style.bold("b") == "\u{1B}[1mb\u{1B}[22m")
    #expect(style.dim("d") == "\u{1B}[2md\u{1B}[22m")
    for coloured in [style.red("x"), style.green("x"), style.yellow("x"), style.cyan("x")] {
      #expect(coloured == "x")
    }
    var bytes: [UInt8] = []
    style.append(.red, to: &bytes) { $0.append(contentsOf: "x".utf8) }
    style.append(.dim, to: &bytes) { $0.append(contentsOf: "y".utf8) }
    #expect(String(decoding: bytes, as: UTF8.self) == "x\u{1B}[2my\u{1B}[22m")
    #expect(Style(isTerminal: true, environment: ["TERM": "xterm"]).hasColour)

    // What log and find print there: bold and dim as on any terminal, no colour.
    let journal = journalsDirectory + "/day-menu.journal"
    let tool = RewindTool.cli(domains: [NavigationDomain.self])
    for arguments in [
      ["log", journal, "--changes"], ["find", journal, "--where", "outcome == applied", "--all"],
    ] {
      let context = Context.capture(environment: ["TERM": term], stdoutIsTerminal: true)
      #expect(tool.run(arguments: arguments, context: context) == 0)
      let printed = context.stdout.text
      #expect(
        printed.contains("\u{1B}[2m") || printed.contains("\u{1B}[1m"),
        "\(arguments[0]) writes bold or dim text")
      for colour in ["31", "32", "33", "36", "39"] {
        #expect(!printed.contains("\u{1B}[\(colour)m"), "\(arguments[0]) on \(term): \(colour)")
      }
    }
  }

  @Test("each stream decides for itself")
  func perStream() {
    let context = Context.capture(stdoutIsTerminal: false, stderrIsTerminal: true)
    #expect(!context.stdout.style.isEnabled)
    #expect(context.stderr.style.isEnabled)
  }
}
