import RewindArguments
import RewindCore
import RewindJournal

extension RewindTool {
  struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "check", abstract: "Replay journals as reducer tests against what was recorded.",
      discussion: """
        Replays each journal with the current reducer and compares every event's outcome \
        and changed fields with those recorded, every snapshot's state hash with the one \
        stored (and the snapshot's bytes with that hash), and the final state with an expected state: the file given with --expect, \
        or else NAME.state.json beside NAME.journal when it exists. An expected state may \
        be partial: only the fields it gives are compared (the output says how many of the \
        state's it gives). A journal without one is reported as such, and fails with \
        --require-expected. Every diverging event is counted, and the first \
        --max-divergences are described. --update writes (or refreshes) each journal's \
        expected state from its replayed final state, atomically; a partial one keeps to \
        the fields it gave. A journal of an older schema is compared upcast, on the fields \
        its schema had. Exits with 1 if any journal fails.
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
    @Option(
      valueName: "n",
      help: "Describe at most this many diverging events per journal (default: 10).",
      transform: parseMaxDivergences)
    var maxDivergences: Int = 10
    @Flag(help: "Fail a journal that has no expected state.")
    var requireExpected: Bool
    @Flag(help: "Write each journal's expected state from its replayed final state.")
    var update: Bool

    func run(_ context: Context) throws {
      if expect != nil && journals.count > 1 {
        throw UsageError(
          "--expect applies to one journal; give each journal NAME.state.json instead")
      }
      var results: [CheckResult] = []
      for journal in journals {
        var expectedPath = expect ?? adjacentExpectedState(of: journal)
        let updatePath = update ? try expect ?? expectedStatePath(of: journal) : nil
        var expected: JSONValue?
        if let expectedPath, !update || fileExists(expectedPath) {
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
        if update { expectedPath = updatePath }
        do {
          results.append(
            try registry.open(
              journal, warnings: context.stderr,
              CheckCommand(
                expected: expected, expectedPath: expectedPath, update: update,
                requireExpected: requireExpected, maxDivergences: maxDivergences,
                jobs: Jobs.count(jobs), context: context)))
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

/// `NAME.state.json` for `NAME.journal`, whether or not it exists: where `--update`
/// writes.
private func expectedStatePath(of journal: String) throws -> String {
  guard journal.hasSuffix(".journal") else {
    throw UsageError(
      "\(journal) does not end in .journal, so it has no NAME.state.json; give --expect FILE to update"
    )
  }
  return String(journal.dropLast(".journal".count)) + ".state.json"
}

/// `--max-divergences`: 1 or more.
private func parseMaxDivergences(_ text: String) throws(InvalidValue) -> Int {
  guard let value = Int(text), value >= 1 else {
    throw InvalidValue("expected a number of divergences, 1 or more")
  }
  return value
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
  /// `--update`: write the replayed final state to `expectedPath` (keeping to the fields
  /// of `expected` when it is partial) instead of comparing with it.
  var update = false
  var requireExpected = false
  var maxDivergences = 10
  let jobs: Int
  let context: Context

  func visit<D: RecordableDomain>(_ timeline: Timeline<D>) throws -> CheckResult {
    let progress = context.progress("Checking \(timeline.path)")
    let total = Int(timeline.lastSequence)
    var report = try timeline.check(
      expected: update ? nil : expected, jobs: jobs, maxDivergences: maxDivergences
    ) { done in
      progress.update(Int(done), of: total)
    }
    progress.finish()
    var written: JSONValue?
    if update, let expectedPath {
      let state = timeline.domain.json(try timeline.state(after: timeline.lastSequence))
      let json = expected.map { Self.keeping(state, fieldsOf: $0) } ?? state
      let file = try TextFileWriter(
        FileDestination(expectedPath, replacingExisting: true, inputs: [timeline.path]),
        system: context.fileSystem)
      try file.write(json.prettyText + "\n")
      try file.commit()
      written = json
      report.expectedFieldCount = json.leaves().count
      report.stateFieldCount = state.leaves().count
    }
    let missing = expectedPath == nil
    let passed = report.passed && !(missing && requireExpected)
    let style = context.stdout.style
    var lines: [String] = []
    var summary =
      "\(TerminalText.escaped(timeline.path)): \(Format.count(report.eventsReplayed, "event")), \(Format.count(report.snapshotsCompared, "snapshot"))"
    let partial = report.expectedFieldCount < report.stateFieldCount
    if let expectedPath {
      summary +=
        ", expected state \(TerminalText.escaped(expectedPath))"
        + (written != nil ? " (updated)" : "")
      if partial {
        summary += " (partial: \(report.expectedFieldCount) of \(report.stateFieldCount) fields)"
      }
    }
    lines.append((passed ? style.green("PASS") : style.red("FAIL")) + " " + summary)
    if missing {
      let name =
        timeline.path.hasSuffix(".journal")
        ? String(timeline.path.dropLast(".journal".count)) + ".state.json" : nil
      lines.append(
        "  no expected state"
          + (name.map { ": \(TerminalText.escaped($0)) does not exist" } ?? " (give --expect FILE)")
          + (requireExpected ? " (--require-expected)" : "; the final state is not checked"))
    }
    var members: [(String, JSONValue)] = [
      ("path", .string(timeline.path)), ("passed", .bool(passed)),
      ("events", .int(Int64(report.eventsReplayed))),
      ("snapshots", .int(Int64(report.snapshotsCompared))),
      ("expectedState", .string(expectedPath)),
    ]
    if expectedPath != nil {
      members.append(("expectedFields", .int(Int64(report.expectedFieldCount))))
      members.append(("stateFields", .int(Int64(report.stateFieldCount))))
      members.append(("partial", .bool(partial)))
    }
    if written != nil { members.append(("updated", true)) }
    if report.eventDivergenceCount > 0 {
      members.append(("eventDivergenceCount", .int(Int64(report.eventDivergenceCount))))
      if let first = report.eventDivergence {
        members.append(("eventDivergence", eventDivergenceJSON(first)))
      }
      members.append(
        ("eventDivergences", .array(report.eventDivergences.map { eventDivergenceJSON($0) })))
    }
    for divergence in report.eventDivergences {
      lines.append(
        "  event \(divergence.sequence) at \(Format.offset(divergence.time)) (\(TerminalText.escaped(divergence.event))) diverges:"
      )
      lines.append("    recorded: \(describe(divergence.recorded.kind, divergence.recordedPaths))")
      lines.append("    replayed: \(describe(divergence.replayed.kind, divergence.replayedPaths))")
    }
    let cut = report.eventDivergenceCount - report.eventDivergences.count
    if cut > 0 {
      lines.append(
        "  … and \(Format.count(cut, "more diverging event")) (--max-divergences \(maxDivergences) describes the first \(Format.count(maxDivergences)))"
      )
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
    return CheckResult(path: timeline.path, passed: passed, json: .object(members), lines: lines)
  }

  private func eventDivergenceJSON(_ divergence: CheckReport.EventDivergence) -> JSONValue {
    .object([
      ("seq", .int(Int64(divergence.sequence))), ("event", .string(divergence.event)),
      ("recordedOutcome", .string("\(divergence.recorded.kind)")),
      ("recordedChanges", .array(divergence.recordedPaths.map(JSONValue.string))),
      ("replayedOutcome", .string("\(divergence.replayed.kind)")),
      ("replayedChanges", .array(divergence.replayedPaths.map(JSONValue.string))),
    ])
  }

  /// `state` with only the members `expected` gives, at every level of objects: a partial
  /// expected state refreshed.
  static func keeping(_ state: JSONValue, fieldsOf expected: JSONValue) -> JSONValue {
    guard case .object(let members) = state, case .object(let given) = expected, !given.isEmpty
    else { return state }
    return .object(
      members.compactMap { key, value in
        guard let wanted = given.first(where: { $0.0 == key })?.1 else { return nil }
        return (key, keeping(value, fieldsOf: wanted))
      })
  }

  private func describe(_ kind: RecordedEffect.Kind, _ paths: [String]) -> String {
    kind == .applied
      ? "applied, changing \(TerminalText.escaped(paths.joined(separator: ", ")))" : "\(kind)"
  }
}
