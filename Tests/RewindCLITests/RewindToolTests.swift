import Foundation
import Navigation
import RewindCLI
import Synchronization
import TestSupport
import Testing

/// The real `rewind` command set, run in-process.
@Suite("The rewind tool in-process")
struct RewindToolTests {
  let tool = RewindTool.cli(domains: [NavigationDomain.self])

  /// A release build runs a command without checking its declarations (a debug build
  /// traps on a bad one): this is where a mistake in one is found.
  @Test("every command's spec is sound")
  func specs() {
    #expect(tool.specProblems() == [])
  }

  @Test("long work shows a progress bar on a terminal's stderr, and none otherwise")
  func progressBar() throws {
    let directory = TemporaryDirectory()
    // A clock that runs fast: every reading is 50 ms after the one before.
    let ticks = Atomic<UInt64>(0)
    let clock: () -> UInt64 = { ticks.add(50_000_000, ordering: .relaxed).newValue }
    let terminal = Context.capture(stderrIsTerminal: true, clock: clock)
    let arguments = [
      "generate", "-o", directory.file("a.journal"), "--events", "300000", "--seed", "1",
    ]
    #expect(tool.run(arguments: arguments, context: terminal) == 0)
    #expect(terminal.stderr.text.contains("Generating"))
    #expect(terminal.stderr.text.contains("%"))

    let piped = Context.capture(stderrIsTerminal: false, clock: clock)
    #expect(
      tool.run(arguments: arguments.dropLast(2) + ["--seed", "2", "--force"], context: piped) == 0)
    #expect(piped.stderr.text.isEmpty)
  }

  @Test("colour on a terminal, none with NO_COLOR")
  func colour() {
    let path = journalsDirectory + "/rejected-interactions.journal"
    let coloured = Context.capture(stdoutIsTerminal: true)
    #expect(tool.run(arguments: ["log", path], context: coloured) == 0)
    #expect(coloured.stdout.text.contains("\u{1B}[31m"))
    let plain = Context.capture(environment: ["NO_COLOR": "1"], stdoutIsTerminal: true)
    #expect(tool.run(arguments: ["log", path], context: plain) == 0)
    #expect(!plain.stdout.text.contains("\u{1B}["))
  }
}

/// The repository's Journals/ directory, found from this file's path.
let journalsDirectory: String = {
  var url = URL(fileURLWithPath: #filePath)
  for _ in 0..<3 { url.deleteLastPathComponent() }
  return url.path + "/Journals"
}()
