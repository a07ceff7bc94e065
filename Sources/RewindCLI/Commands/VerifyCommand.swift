import RewindArguments
import RewindCore
import RewindJournal

extension RewindTool {
  struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "verify", abstract: "Check every frame, checksum and index entry of a journal.",
      discussion: """
        Decompresses every frame and checks its checksums, that sequence numbers follow \
        each other, that times never go back, that snapshots sit on event boundaries and \
        that the index matches the frames. Exits with 1 and the first problem's location \
        when the journal is damaged.
        """)

    let registry: DomainRegistry

    @Argument(help: "The journal to verify.")
    var journal: String
    @Flag(help: "Print JSON.")
    var json: Bool

    func run(_ context: Context) throws {
      let path = journal
      let progress = context.progress("Verifying")
      let report = try Journal.verify(path: path) { done, total in
        progress.update(done, of: total)
      }
      progress.finish()
      if json {
        context.stdout.printJSON(
          .object([
            ("path", .string(path)), ("ok", .bool(report.isClean)),
            ("frames", .int(Int64(report.frameCount))),
            ("events", .int(Int64(report.recordCount))),
            ("snapshots", .int(Int64(report.snapshotCount))),
            ("closed", .bool(report.hasIndex)),
            ("problems", .array(report.problems.map { .string("\($0)") })),
          ]))
      } else {
        let style = context.stdout.style
        let counts =
          "\(Format.count(report.frameCount, "frame")), \(Format.count(report.recordCount, "event")), \(Format.count(report.snapshotCount, "snapshot"))"
        if report.isClean {
          let state = report.hasIndex ? "closed" : "not closed (no index), intact"
          context.stdout.print("\(style.green("OK")) \(path): \(counts), \(state)")
        } else {
          context.stdout.print(
            "\(style.red("DAMAGED")) \(path): \(report.problems.count) problem\(report.problems.count == 1 ? "" : "s") (\(counts) readable)"
          )
          for problem in report.problems {
            context.stdout.print("  \(problem)")
          }
          if report.problems.contains(where: { $0.code == .tornTail || $0.code == .corruptFrame }) {
            context.stdout.print(style.dim("  `rewind recover \(path)` repairs it."))
          }
        }
      }
      if !report.isClean { throw ExitCode.failure }
    }
  }
}
