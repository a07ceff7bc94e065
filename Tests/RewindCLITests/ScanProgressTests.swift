import Foundation
import Navigation
import RewindCLI
import TestSupport
import Testing

/// The progress bars of the commands that walk a whole session, run in-process.
@Suite("Progress bars of the scanning commands")
struct ScanProgressTests {
  let tool = RewindTool.cli(domains: [NavigationDomain.self])

  @Test(
    "find (--last too), log --where, check of one and of several journals, verify --deep, export, import and html show a bar on a terminal, none otherwise"
  )
  func scans() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("a.journal")
    let copy = directory.file("b.journal")
    let generate = ["generate", "-o", journal, "--events", "30000", "--seed", "7"]
    #expect(tool.run(arguments: generate, context: .capture()) == 0)
    try FileManager.default.copyItem(atPath: journal, toPath: copy)
    let condition = ["--where", "changed(split.style)"]
    let runs: [(label: String, arguments: [String])] = [
      ("Searching", ["find", journal] + condition + ["--all"]),
      ("Searching", ["find", journal] + condition + ["--count", "--jobs", "2"]),
      // Backwards through every interval: the condition never becomes true.
      ("Searching", ["find", journal, "--where", "menu.selectedIndex > 1000", "--last"]),
      ("Reading events", ["log", journal] + condition),
      ("Checking \(journal)", ["check", journal]),
      ("Checking \(journal)", ["check", journal, copy, "--jobs", "1"]),
      ("Checking 2 journals", ["check", journal, copy, "--jobs", "2"]),
      ("Verifying", ["verify", journal, "--deep"]),
      ("Verifying", ["verify", journal, "--deep", "--jobs", "2"]),
      ("Exporting", ["export", journal, "-o", directory.file("a.jsonl"), "--force"]),
      (
        "Importing",
        ["import", directory.file("a.jsonl"), "-o", directory.file("c.journal"), "--force"]
      ),
      ("Writing the page", ["html", journal, "-o", directory.file("a.html"), "--force"]),
    ]
    for (label, arguments) in runs {
      // Every reading of the clock is a second after the one before: the bar shows at its
      // first update, and each update after draws it again.
      var ticks: UInt64 = 0
      let terminal = Context.capture(stderrIsTerminal: true) {
        ticks += 1_000_000_000
        return ticks
      }
      #expect(tool.run(arguments: arguments, context: terminal) == 0, "\(arguments)")
      let shown = terminal.stderr.text
      // The label whole, or, a path too long for the terminal's 80 columns (a long
      // TMPDIR), its start and its file name around `…`.
      let whole = shown.contains("\r\(label) ")
      let shortened =
        label.hasSuffix("a.journal") && shown.contains("\rChecking ")
        && shown.contains("…") && shown.contains("a.journal  ")
      #expect(whole || shortened, "\(arguments): \(shown.prefix(300))")
      #expect(shown.contains("%"), "\(arguments)")
      // Erased when done: nothing is left on the line.
      #expect(shown.hasSuffix("\r\u{1B}[K"), "\(arguments)")

      let piped = Context.capture(stderrIsTerminal: false) {
        ticks += 1_000_000_000
        return ticks
      }
      #expect(tool.run(arguments: arguments, context: piped) == 0, "\(arguments)")
      #expect(piped.stderr.text.isEmpty, "\(arguments): \(piped.stderr.text)")
      #expect(piped.stdout.text == terminal.stdout.text, "\(arguments)")
    }
  }
}
