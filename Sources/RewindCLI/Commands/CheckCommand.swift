import RewindArguments
import RewindCore

extension RewindTool {
  struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "check", abstract: "Replay journals as reducer tests against what was recorded.",
      discussion: """
        Replays each journal with the current reducer and compares every event's outcome \
        and changed fields with those recorded, every snapshot's state hash with the one \
        stored (and the snapshot's bytes with that hash), and the final state with an expected state: the file given with --expect, \
        or else NAME.state.json beside NAME.journal when it exists. A journal of an older \
        schema is compared upcast, on the fields its schema had. Exits with 1 if any \
        journal fails.
        """)

    let registry: DomainRegistry

    @Argument(name: "journal", help: "The journals to check.")
    var journals: [String]
    @Option(
      valueName: "state.json",
      help: "The expected final state (JSON, as `rewind state --json` prints it).")
    var expect: String?
    @Flag(help: "Print JSON.")
    var json: Bool
    @Option(
      valueName: "n", help: "Replay parts of a journal on this many threads (default: the cores).",
      transform: Jobs.parse)
    var jobs: Int?

    func run(_ context: Context) throws {
      if expect != nil && journals.count > 1 {
        throw UsageError(
          "--expect applies to one journal; give each journal NAME.state.json instead")
      }
      var results: [CheckResult] = []
      for journal in journals {
        let expectedPath = expect ?? adjacentExpectedState(of: journal)
        var expected: JSONValue?
        if let expectedPath {
          let text: String
          do throws(TextFileError) {
            text = try TextFileReader(path: expectedPath, system: context.fileSystem)
              .remainingText()
          } catch {
            // A problem of a line is named with it; one of the file says what was read.
            guard error.line == nil else { throw error }
            throw CommandError("\(expectedPath): cannot read the expected state: \(error.message)")
          }
          do throws(JSONParseError) {
            expected = try JSONValue(parsing: text)
          } catch {
            throw CommandError(
              "\(expectedPath): the expected state is not JSON at line \(error.line), column \(error.column): \(error.message)"
            )
          }
          switch expected {
          case .object?, nil: break
          case let found?:
            throw CommandError(
              "\(expectedPath): the expected state is \(found.typeName), not an object; write it as `rewind state --json` prints it"
            )
          }
        }
        do {
          results.append(
            try registry.open(
              journal, warnings: context.stderr,
              CheckCommand(
                expected: expected, expectedPath: expectedPath, jobs: Jobs.count(jobs),
                context: context)))
        } catch {
          results.append(
            CheckResult(
              path: journal, passed: false,
              json: .object([
                ("path", .string(journal)), ("passed", false), ("error", .string("\(error)")),
              ]),
              lines: [
                context.stdout.style.red("FAIL")
                  + " \(TerminalText.escaped(journal)): \(TerminalText.escaped("\(error)"))"
              ]))
        }
      }
      let passed = results.filter(\.passed).count
      let failed = results.count - passed
      if json {
        context.stdout.printJSON(
          .object([
            ("journals", .array(results.map(\.json))), ("passed", .int(Int64(passed))),
            ("failed", .int(Int64(failed))),
          ]))
      } else {
        for result in results { for line in result.lines { context.stdout.print(line) } }
        context.stdout.print(context.stdout.style.bold("\(passed) passed, \(failed) failed"))
      }
      if failed > 0 { throw ExitCode.failure }
    }
  }
}

/// `NAME.state.json` beside `NAME.journal`, if it exists.
func adjacentExpectedState(of journal: String) -> String? {
  guard journal.hasSuffix(".journal") else { return nil }
  let candidate = String(journal.dropLast(".journal".count)) + ".state.json"
  return fileExists(candidate) ? candidate : nil
}

struct CheckResult {
  var path: String
  var passed: Bool
  var json: JSONValue
  var lines: [String]
}

struct CheckCommand: TimelineVisitor {
  let expected: JSONValue?
  let expectedPath: String?
  let jobs: Int
  let context: Context

  func visit<D: RecordableDomain>(_ timeline: Timeline<D>) throws -> CheckResult {
    let progress = context.progress("Checking \(timeline.path)")
    let total = Int(timeline.lastSequence)
    let report = try timeline.check(expected: expected, jobs: jobs) { done in
      progress.update(Int(done), of: total)
    }
    progress.finish()
    let style = context.stdout.style
    var lines: [String] = []
    var summary =
      "\(TerminalText.escaped(timeline.path)): \(Format.count(report.eventsReplayed, "event")), \(Format.count(report.snapshotsCompared, "snapshot"))"
    if let expectedPath { summary += ", expected state \(TerminalText.escaped(expectedPath))" }
    lines.append((report.passed ? style.green("PASS") : style.red("FAIL")) + " " + summary)
    var members: [(String, JSONValue)] = [
      ("path", .string(timeline.path)), ("passed", .bool(report.passed)),
      ("events", .int(Int64(report.eventsReplayed))),
      ("snapshots", .int(Int64(report.snapshotsCompared))),
      ("expectedState", .string(expectedPath)),
    ]
    if let divergence = report.eventDivergence {
      lines.append(
        "  event \(divergence.sequence) at \(Format.offset(divergence.time)) (\(TerminalText.escaped(divergence.event))) diverges:"
      )
      lines.append("    recorded: \(describe(divergence.recorded.kind, divergence.recordedPaths))")
      lines.append("    replayed: \(describe(divergence.replayed.kind, divergence.replayedPaths))")
      members.append(
        (
          "eventDivergence",
          .object([
            ("seq", .int(Int64(divergence.sequence))), ("event", .string(divergence.event)),
            ("recordedOutcome", .string("\(divergence.recorded.kind)")),
            ("recordedChanges", .array(divergence.recordedPaths.map(JSONValue.string))),
            ("replayedOutcome", .string("\(divergence.replayed.kind)")),
            ("replayedChanges", .array(divergence.replayedPaths.map(JSONValue.string))),
          ])
        ))
    }
    if let divergence = report.stateDivergence {
      let compared = divergence.differences.isEmpty ? "" : " (- recorded, + replayed)"
      lines.append(
        divergence.problem == .differs
          ? "  the state after event \(divergence.sequence) differs from its snapshot\(compared):"
          : "  the snapshot after event \(divergence.sequence) \(TerminalText.escaped(divergence.problem.description))\(compared)\(compared.isEmpty ? "" : ":")"
      )
      for change in divergence.differences {
        lines.append(
          "    \(TerminalText.escaped(change.path)): - \(change.old.compactText)  + \(change.new.compactText)"
        )
      }
      members.append(
        (
          "stateDivergence",
          .object([
            ("seq", .int(Int64(divergence.sequence))),
            ("problem", .string(divergence.problem.description)),
            ("changes", .array(divergence.differences.map(\.json))),
          ])
        ))
    }
    if !report.expectedStateDifferences.isEmpty {
      lines.append("  the final state differs from the expected state (- expected, + replayed):")
      for change in report.expectedStateDifferences {
        lines.append(
          "    \(TerminalText.escaped(change.path)): - \(change.old.compactText)  + \(change.new.compactText)"
        )
      }
      members.append(
        ("expectedStateDifferences", .array(report.expectedStateDifferences.map(\.json))))
    }
    return CheckResult(
      path: timeline.path, passed: report.passed, json: .object(members), lines: lines)
  }

  private func describe(_ kind: RecordedEffect.Kind, _ paths: [String]) -> String {
    kind == .applied
      ? "applied, changing \(TerminalText.escaped(paths.joined(separator: ", ")))" : "\(kind)"
  }
}
