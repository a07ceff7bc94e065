import RewindCore
import TestSupport
import Testing

@testable import RewindCLI

/// An intact journal whose event cannot be decoded (`UpcastFailureTests`' schema-1
/// `reset`, read by schema 2): `log --where` and `find --all` on two threads print what
/// one pass prints before the error (the matches of the events before it), then the error.
@Suite("Parts read on threads hand on what they found before an error")
struct PartsBeforeAnErrorTests {
  let directory = TemporaryDirectory()

  /// A schema-1 counter journal of 600 events, a snapshot every 16, whose `reset` (which
  /// schema 2 does not read) is event `resetAt`: the step changes every 50 events.
  func journal(resetAt: Int) -> String {
    var lines = ["device: test phone", "start: 2026-11-30T09:00:00Z", ""]
    for sequence in 1...600 {
      if sequence == resetAt {
        lines.append("reset")
      } else if sequence % 50 == 0 {
        lines.append("stepChanged to=\(sequence / 50 % 3 + 1)")
      } else {
        lines.append("+0.25s incremented")
      }
    }
    let script = directory.file("c\(resetAt).scenario")
    write(Array(lines.joined(separator: "\n").utf8), to: script)
    let path = directory.file("c\(resetAt).journal")
    let tool = RewindTool.cli(domains: [Counter.self])
    let record = ["record", script, "-o", path, "--snapshot-interval", "16"]
    #expect(tool.run(arguments: record, context: .capture()) == 0)
    return path
  }

  /// What a command's visit printed on standard output, and the error it threw.
  func run(_ visit: (Context) throws -> Void) -> (output: String, error: String?) {
    let context = Context.capture()
    do {
      try visit(context)
      return (context.stdout.text, nil)
    } catch {
      return (context.stdout.text, "\(error)")
    }
  }

  @Test("log --where (lines, JSON, --changes) and find --all: two jobs print what one does")
  func sameAsOnePass() throws {
    var compared = 0
    for resetAt in [37, 290, 555] {
      let timeline = try Timeline<RenamedCounter>(path: journal(resetAt: resetAt))
      // Parts small enough that two jobs split the session.
      timeline.minimumEventsPerPart = 16
      #expect(timeline.parallelRanges(jobs: 2) != nil)
      for text in ["count > 3", "changed(step)"] {
        let condition = try WrittenCondition(parsing: text)
        for (json, changes) in [(false, false), (true, false), (false, true), (true, true)] {
          func log(jobs: Int) -> (output: String, error: String?) {
            run { context in
              try LogCommand(
                from: .start, to: .end, kinds: [], condition: condition, changes: changes,
                json: json, jobs: jobs, context: context
              ).visit(timeline)
            }
          }
          let one = log(jobs: 1)
          let two = log(jobs: 2)
          let label = "reset at \(resetAt), log --where '\(text)' json \(json) changes \(changes)"
          #expect(one.error?.contains("event \(resetAt) cannot be decoded") == true, "\(label)")
          #expect(two.error == one.error, "\(label)")
          #expect(two.output == one.output, "\(label)")
          // The events before the error that pass the condition were printed.
          #expect(!one.output.isEmpty || resetAt < 50, "\(label)")
          compared += 1
        }
        for json in [false, true] {
          func find(jobs: Int) -> (output: String, error: String?) {
            run { context in
              try FindCommand(
                condition: condition, mode: .all, from: .start, to: .end, json: json,
                jobs: jobs, context: context
              ).visit(timeline)
            }
          }
          let one = find(jobs: 1)
          let two = find(jobs: 2)
          let label = "reset at \(resetAt), find --all '\(text)' json \(json)"
          #expect(one.error?.contains("event \(resetAt) cannot be decoded") == true, "\(label)")
          #expect(two.error == one.error, "\(label)")
          #expect(two.output == one.output, "\(label)")
          compared += 1
        }
      }
    }
    #expect(compared == 3 * 2 * (4 + 2))
  }
}
