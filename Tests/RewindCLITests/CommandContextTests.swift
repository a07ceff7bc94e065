import Foundation
import Navigation
import RewindArguments
import Testing

@testable import RewindCLI

/// The tool's `Context` as the argument parser's streams: styling, progress bars, flushing.
@Suite("The context under the runner")
struct CommandContextTests {
  static let tool = CommandLineTool<Context>(
    name: "t", version: "", abstract: "",
    commands: [.command { Count() }, .command { Replay() }])

  @Test("a command's bar is gone when the tool is done")
  func throughTheTool() {
    let clock = SteppingClock(step: 30_000_000)
    let context = Context.capture(stderrIsTerminal: true, clock: clock.read)
    let status = Self.tool.run(arguments: ["count", "200"], context: context)
    #expect(status == 0)
    #expect(context.stdout.text == "counted 200\n")
    #expect(context.stderr.text.contains("\rCounting "))
    #expect(context.stderr.text.hasSuffix("\r\u{1B}[K"))
  }

  @Test("a bar left on screen by a failing command is erased before the error")
  func failureDuringProgress() {
    let clock = SteppingClock(step: 500_000_000)
    let context = Context.capture(stderrIsTerminal: true, clock: clock.read)
    #expect(Self.tool.run(arguments: ["replay"], context: context) == 1)
    #expect(context.stderr.text.hasPrefix("\rReplaying "))
    #expect(
      context.stderr.text.hasSuffix(
        "\u{1B}[K\r\u{1B}[K\u{1B}[1m\u{1B}[31mError:\u{1B}[39m\u{1B}[22m"
          + " frame 3 (events 129–192) is damaged\n"))
  }

  @Test("the error label is bold red on a colour terminal only")
  func colouredLabel() {
    let tool = RewindTool.cli(domains: [NavigationDomain.self])
    let terminal = Context.capture(stderrIsTerminal: true)
    #expect(tool.run(arguments: ["state"], context: terminal) == 64)
    #expect(
      terminal.stderr.text.hasPrefix("\u{1B}[1m\u{1B}[31mError:\u{1B}[39m\u{1B}[22m Missing"))
    let noColor = Context.capture(environment: ["NO_COLOR": "1"], stderrIsTerminal: true)
    #expect(tool.run(arguments: ["state"], context: noColor) == 64)
    #expect(noColor.stderr.text.hasPrefix("Error: Missing"))
  }

  @Test("the process context reads the real environment and directory")
  func standardContext() {
    let context = Context.standard()
    // The variables the tool reads, as the process has them; no other (PATH is set).
    let real = ProcessInfo.processInfo.environment
    #expect(context.environment == real.filter { ProcessCalls.variablesRead.contains($0.key) })
    #expect(real["PATH"] != nil && context.environment["PATH"] == nil)
    #expect(context.currentDirectory.hasPrefix("/"))
    #expect(context.absolutePath("a.journal") == context.currentDirectory + "/a.journal")
    #expect(context.absolutePath("/tmp/a.journal") == "/tmp/a.journal")
    let first = context.clock()
    #expect(context.clock() >= first)
  }
}

/// Counts with a progress bar.
private struct Count: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "count", abstract: "Count events, with a progress bar.")

  @Argument(help: "How many.")
  var events: Int

  func run(_ context: Context) throws {
    let progress = context.progress("Counting")
    for done in 0..<events { progress.update(done, of: events) }
    progress.finish()
    context.stdout.print("counted \(events)")
  }
}

/// Fails with its progress bar on screen.
private struct Replay: ParsableCommand {
  static let configuration = CommandConfiguration(name: "replay", abstract: "")

  func run(_ context: Context) throws {
    let progress = context.progress("Replaying")
    for done in 0..<10 { progress.update(done, of: 100) }
    throw CommandError("frame 3 (events 129–192) is damaged")
  }
}

@Suite("What a command that met damage adds to its error")
struct RepairHintTests {
  @Test("a file: verify and recover it; a session on a server: its copy there is damaged")
  func hints() {
    #expect(
      DomainRegistry.repairHint("s.journal")
        == "; `rewind verify s.journal` lists the damage, `rewind recover s.journal` repairs it (with --salvage when good frames follow the damaged ones)"
    )
    for url in ["nats://127.0.0.1:4222/0123abcd", "tls://host:4443/0123"] {
      let hint = DomainRegistry.repairHint(url)
      #expect(!hint.contains("rewind verify") && !hint.contains("rewind recover"), "\(hint)")
      #expect(hint.hasPrefix("; the session's copy on the server is damaged"))
    }
  }
}
