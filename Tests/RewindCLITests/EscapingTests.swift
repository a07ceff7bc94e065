import Navigation
import RewindCore
import TestSupport
import Testing

@testable import RewindCLI

@Suite("Escaping what the tool shows")
struct EscapingTests {
  let tool = RewindTool.cli(domains: [NavigationDomain.self])

  @Test(
    "a word for the shell: itself when plain, else single-quoted",
    arguments: [
      ("Journals/day-menu.journal", "Journals/day-menu.journal"), ("+4.5s", "+4.5s"),
      ("dayMenu_première", "dayMenu_première"), ("日本.journal", "日本.journal"),
      ("my journal", "'my journal'"), ("it's", #"'it'\''s'"#), ("$HOME", "'$HOME'"),
      ("a`b", "'a`b'"), ("", "''"), ("x;rm", "'x;rm'"), ("*", "'*'"),
    ])
  func shellWords(word: String, expected: String) {
    #expect(Format.shellWord(word) == expected)
  }

  @Test(
    "a path in a suggested command: a relative one starting with - after ./, any other as its shell word",
    arguments: [
      ("-x.journal", "./-x.journal"), ("--force", "./--force"), ("-my x", "'./-my x'"),
      ("a-b.journal", "a-b.journal"), ("/tmp/-x.journal", "/tmp/-x.journal"),
      ("my journal", "'my journal'"),
    ])
  func shellPaths(path: String, expected: String) {
    #expect(Format.shellPath(path) == expected)
  }

  @Test("a stream escapes any control character that reaches it, but line feeds")
  func plainStream() {
    let output = Output.capture()
    output.write("a\u{1B}[2Jb\n")
    output.print("\u{9B}c\u{202E}\r")
    #expect(output.text == "a\\u{1B}[2Jb\n\\u{9B}c\\u{202E}\\u{D}\n")
  }

  @Test("on a colour terminal, the stream keeps its own styling and escapes the rest")
  func styledStream() {
    let output = Output.capture(isTerminal: true)
    let style = output.style
    #expect(style.isEnabled)
    output.print(style.red("x") + " \u{1B}]0;title\u{7}" + style.bold(style.dim("y")))
    #expect(
      output.text
        == "\u{1B}[31mx\u{1B}[39m \\u{1B}]0;title\\u{7}\u{1B}[1m\u{1B}[2my\u{1B}[22m\u{1B}[22m\n")
  }

  @Test("ids are escaped where they become text, so a colour terminal gets no colour of theirs")
  func boundary() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("s.journal")
    let domain = NavigationDomain()
    let id = "a\u{1B}[31mb\nc"
    let recorder = try JournalRecorder.create(
      at: path, domain: domain, session: SessionInfo(startTime: 0, device: "d\u{1B}[32m"))
    _ = try recorder.record(.categorySelected(domain.internedRef(id)), at: 1)
    try recorder.close()
    let terminal = Context.capture(stdoutIsTerminal: true)
    #expect(tool.run(arguments: ["log", path], context: terminal) == 0)
    #expect(terminal.stdout.text.contains(#"categorySelected a\u{1B}[31mb\u{A}c "#))
    // The one red in the line is the outcome's.
    #expect(terminal.stdout.text.components(separatedBy: "\u{1B}[31m").count == 2)
    #expect(terminal.stdout.text.split(separator: "\n").count == 1)
    #expect(tool.run(arguments: ["info", path], context: terminal) == 0)
    #expect(terminal.stdout.text.contains(#" on d\u{1B}[32m"#))
  }

  @Test("error messages are escaped, on one line")
  func errors() {
    let context = Context.capture(stderrIsTerminal: true)
    #expect(tool.run(arguments: ["log", "x\u{1B}[2J\ny.journal"], context: context) == 1)
    #expect(
      context.stderr.text.hasSuffix(
        #"x\u{1B}[2J\u{A}y.journal: no such file (No such file or directory (errno 2))"# + "\n"))
    #expect(context.stderr.text.filter { $0 == "\n" }.count == 1)
    let usage = Context.capture()
    #expect(tool.run(arguments: ["\u{9B}2J"], context: usage) == 64)
    #expect(usage.stderr.text.hasPrefix(#"Error: Unknown subcommand '\u{9B}2J'"#))
  }

  @Test("a progress bar's label is shown escaped and measured in columns")
  func progressLabel() {
    let bar = ProgressBar(label: "Checking a\u{1B}[2J.journal", output: .capture(), now: { 0 })
    #expect(bar.label == #"Checking a\u{1B}[2J.journal"#)
    let frame = ProgressBar.render(
      label: "月曜日", done: 1, total: 2, elapsed: 0, columns: 30, style: .plain)
    #expect(TerminalText.width(frame) <= 29)
  }

  @Test("counts and ranges are singular for one")
  func singular() {
    #expect(Format.events(3...3) == "event 3")
    #expect(Format.events(3...5) == "events 3–5")
    #expect(Format.bytes(1) == "1 byte")
    #expect(Format.bytes(2) == "2 bytes")
    #expect(Format.capitalized("events 1–2") == "Events 1–2")
    #expect(Format.padded("日本", to: 6) == "日本  ")
    #expect(Format.rightAligned("日本", to: 6) == "  日本")
  }
}
