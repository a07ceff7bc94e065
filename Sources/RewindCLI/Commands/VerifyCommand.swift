import RewindArguments
import RewindCore
import RewindJournal

extension RewindTool {
  struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "verify", abstract: "Check every frame, checksum and index entry of a journal.",
      discussion: """
        Checks the header and its copies, decompresses every frame and checks its \
        checksums, that sequence numbers follow each other, that times never go back, that \
        snapshots sit on event boundaries and that the index matches the frames. Exits with \
        1 and each problem's location when the journal is damaged. With --json the report \
        is JSON whatever happens, each problem an object (kind, frame, offset, sequences, \
        message).
        """)

    let registry: DomainRegistry

    @Argument(help: "The journal to verify.")
    var journal: String
    @Flag(help: "Print JSON.")
    var json: Bool

    func run(_ context: Context) throws {
      let report: VerificationReport
      do throws(JournalError) {
        report = try context.withProgress("Verifying") { bar throws(JournalError) in
          try Journal.verify(path: journal, progress: bar.update)
        }
      } catch {
        // A file that cannot be verified at all still answers in JSON; the error goes
        // to stderr too.
        if json {
          context.stdout.printJSON(
            .object([
              ("path", .string(journal)), ("ok", .bool(false)),
              ("error", .string(error.description)),
            ]))
        }
        throw error
      }
      if json {
        context.stdout.printJSON(VerifyOutput.json(report))
      } else {
        VerifyOutput.print(report, to: context.stdout)
      }
      if !report.isClean { throw ExitCode.failure }
    }
  }
}

/// How `verify` shows its report.
enum VerifyOutput {
  static func json(_ report: VerificationReport) -> JSONValue {
    .object([
      ("path", .string(report.path)), ("ok", .bool(report.isClean)),
      ("formatVersion", report.header.map { .string($0.formatVersion.description) } ?? .null),
      ("frames", .int(Int64(report.frameCount))),
      ("damagedFrames", .int(Int64(report.damagedFrameCount))),
      ("events", .int(Int64(report.recordCount))),
      ("damagedEvents", .int(Int64(report.damagedRecordCount))),
      ("snapshots", .int(Int64(report.snapshotCount))),
      ("closed", .bool(report.hasIndex)),
      ("problems", .array(report.problems.map(json))),
    ])
  }

  static func json(_ problem: VerificationProblem) -> JSONValue {
    .object([
      ("kind", .string(problem.kind.rawValue)),
      ("frame", problem.frame.map { .int(Int64($0)) } ?? .null),
      ("offset", problem.offset.map { .int(Int64($0)) } ?? .null),
      (
        "sequences",
        problem.sequences.map {
          .object([("from", .int(Int64($0.lowerBound))), ("to", .int(Int64($0.upperBound)))])
        } ?? .null
      ),
      ("message", .string(problem.message)),
    ])
  }

  static func print(_ report: VerificationReport, to output: Output) {
    let style = output.style
    let path = TerminalText.escaped(report.path)
    let contents =
      "\(Format.count(report.recordCount, "event")), \(Format.count(report.snapshotCount, "snapshot"))"
    if report.isClean {
      let state = report.hasIndex ? "closed" : "not closed (no index), intact"
      output.print(
        "\(style.green("OK")) \(path): \(Format.count(report.frameCount, "frame")), \(contents), \(state)"
      )
      return
    }
    let readable = report.frameCount - report.damagedFrameCount
    var summary = "\(Format.count(report.problems.count, "problem")); "
    summary +=
      report.damagedFrameCount == 0
      ? "\(Format.count(report.frameCount, "frame")) readable (\(contents))"
      : "\(Format.count(readable)) of \(Format.count(report.frameCount, "frame")) readable (\(contents)); \(Format.count(report.damagedFrameCount, "frame")) damaged"
    if report.damagedRecordCount > 0 {
      summary += ", \(Format.count(report.damagedRecordCount, "event")) unreadable"
    }
    output.print("\(style.red("DAMAGED")) \(path): \(summary)")
    for problem in report.problems {
      output.print("  \(TerminalText.escaped("\(problem)"))")
    }
    if report.header == nil {
      output.print(
        style.dim("  No intact copy of the header is left: the journal cannot be repaired."))
    } else {
      output.print(
        style.dim(
          "  `rewind recover \(path)` repairs it (with --salvage when damaged events have good frames after them)."
        ))
    }
  }
}
