import RewindArguments
import RewindCore
import RewindJournal

extension RewindTool {
  struct Recover: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "recover", abstract: "Repair a journal after a crash or damage.",
      discussion: """
        Cuts a torn tail (an incomplete frame left by a crash, or garbage at the end) back \
        to the last whole frame whose checksums verify, and writes a fresh index. Damage \
        with good frames after it stops recovery unless --salvage is given: the damaged \
        frames are then dropped, the events they held are marked lost, and the events \
        after them are kept. With -o the repaired journal is written there and the \
        original is left as it is.
        """)

    let registry: DomainRegistry

    @Argument(help: "The journal to repair.")
    var journal: String
    @Option(short: "o", valueName: "journal", help: "Write the repaired journal here.")
    var output: String?
    @Flag(help: "Drop damaged frames in the middle and keep what follows.")
    var salvage: Bool
    @Flag(help: "Print JSON.")
    var json: Bool

    func run(_ context: Context) throws {
      let path = journal
      let progress = context.progress("Checking frames")
      let report = try Journal.recover(
        path: path, output: output,
        salvage: salvage
      ) { done, total in progress.update(done, of: total) }
      progress.finish()
      if json {
        var members: [(String, JSONValue)] = [
          ("path", .string(report.source)), ("output", .string(report.output)),
          ("changed", .bool(report.changed)), ("events", .int(Int64(report.keptRecords))),
          ("lastSequence", .int(Int64(report.lastSequence))),
          ("frames", .int(Int64(report.keptFrames))),
        ]
        members.append(
          (
            "cutTail",
            report.cutTail.map {
              .object([
                ("offset", .int(Int64($0.offset))), ("bytes", .int(Int64($0.length))),
                ("reason", .string($0.reason)),
              ])
            } ?? .null
          ))
        members.append(("droppedFrames", .array(report.droppedFrames.map { .string("\($0)") })))
        members.append(
          (
            "lostEvents",
            .array(
              report.lostRanges.map {
                .object([
                  ("from", .int(Int64($0.lowerBound))), ("to", .int(Int64($0.upperBound))),
                ])
              })
          ))
        context.stdout.printJSON(.object(members))
        return
      }
      let style = context.stdout.style
      guard report.changed else {
        context.stdout.print(
          "\(style.green("OK")) \(path) is whole: \(Format.count(report.keptRecords, "event")); nothing to do."
        )
        return
      }
      if let tail = report.cutTail {
        context.stdout.print(
          "Cut \(Format.count(tail.length)) bytes at byte \(tail.offset): \(tail.reason).")
      }
      for range in report.lostRanges {
        context.stdout.print(
          style.yellow(
            "Dropped damaged events \(range.lowerBound)–\(range.upperBound) (marked lost)."))
      }
      context.stdout.print(
        "\(style.green("Recovered")) \(report.output): \(Format.count(report.keptRecords, "event")) survive (last event \(report.lastSequence)), in \(report.keptFrames) frames."
      )
    }
  }
}
