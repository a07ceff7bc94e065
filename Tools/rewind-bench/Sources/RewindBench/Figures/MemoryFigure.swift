extension Bench {
  /// Peak resident memory of a streaming full replay, measured in a child process (this
  /// program run again with a hidden command) so that building the workload does not
  /// count; against the same child doing nothing and the baselines' streaming replays.
  func measurePeakMemory(_ workload: Workload, baselines: Bool) throws {
    let me = ChildProcess.selfPath
    let name = workload.name
    func peak(_ arguments: [String]) throws -> Summary {
      let result = try ChildProcess.run([me, "__child"] + arguments, capture: true)
      guard result.status == 0 else {
        throw BenchError("the \(arguments[0]) child exited with \(result.status)")
      }
      let fields = result.output.split(whereSeparator: { $0 == " " || $0 == "\n" })
      guard fields.count == 2, let kibibytes = Int(fields[1]), kibibytes > 0 else {
        throw BenchError("the \(arguments[0]) child printed '\(result.output)'")
      }
      let mebibytes = Double(kibibytes) / 1024
      return Summary(median: mebibytes, min: mebibytes, max: mebibytes, runs: 1)
    }
    log("  \(name): peak memory of a streaming replay (child processes)")
    let rewind = try peak(["replay-rewind", workload.journalPath, String(workload.count)])
    var compared = [("process floor (the child doing nothing)", try peak(["idle"]))]
    if baselines {
      compared.append(
        (
          Baseline.jsonLines,
          try peak(["replay-jsonl", workload.jsonLinesPath, String(workload.count)])
        ))
      compared.append(
        (Baseline.sqlite, try peak(["replay-sqlite", workload.sqlitePath, String(workload.count)])))
    }
    addRow(
      "peakMemory", "peak memory, streaming replay", workload: workload, unit: "MiB",
      higherIsBetter: false, rewind: rewind, baselines: compared,
      note:
        "VmHWM (peak resident set) of a child process that opens the file and folds every event, read by the child itself; the floor is the same binary (Swift runtime, Foundation, SQLite, zstd loaded) exiting at once"
    )
  }
}
