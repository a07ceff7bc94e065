extension Bench {
  /// Append throughput, batched and one event at a time (Rewind's runs measured
  /// beforehand, alternating between workloads), against the baselines writing the same
  /// events; leaves each format's file of the workload for the reading figures.
  func measureAppend(_ workload: Workload, baselines: Bool, single: Summary, batched: Summary)
    throws
  {
    let events = Double(workload.count)
    func rate(_ seconds: Summary) -> Summary { seconds.mapped { events / $0 / 1e6 } }
    let name = workload.name
    try FileSystem.remove(workload.scratchPath)
    var compared: [(String, Summary)] = []
    if baselines {
      let jsonLines = try timed("\(name): JSON Lines append", runs: options.baselineRuns) {
        try JSONLinesBaseline.write(workload, to: workload.jsonLinesPath)
      }
      let sqlite = try timed("\(name): SQLite append", runs: options.baselineRuns) {
        try SQLiteBaseline.write(workload, to: workload.sqlitePath)
      }
      compared = [(Baseline.jsonLines, rate(jsonLines)), (Baseline.sqlite, rate(sqlite))]
    }
    addRow(
      "append.batched", "append, batched", workload: workload, unit: "M events/s",
      higherIsBetter: true, rewind: rate(batched), baselines: compared,
      note:
        "record(contentsOf:) in batches of \(RewindRuns.batchSize); reduce, effect, encode, frame, zstd, write; no fsync"
    )
    addRow(
      "append.single", "append, one event at a time", workload: workload, unit: "M events/s",
      higherIsBetter: true, rewind: rate(single), baselines: compared,
      note: "record(_:at:) per event; the baselines always write one event at a time")
  }

  /// Bytes per event of each format's file.
  func measureSize(_ workload: Workload, baselines: Bool) throws {
    let events = Double(workload.count)
    func perEvent(_ path: String) throws -> Summary {
      let bytes = Double(try FileSystem.size(path)) / events
      return Summary(median: bytes, min: bytes, max: bytes, runs: 1)
    }
    var compared: [(String, Summary)] = []
    if baselines {
      compared = [
        (Baseline.jsonLines, try perEvent(workload.jsonLinesPath)),
        (Baseline.sqlite, try perEvent(workload.sqlitePath)),
      ]
    }
    addRow(
      "size", "size on disk", workload: workload, unit: "bytes/event", higherIsBetter: false,
      rewind: try perEvent(workload.journalPath), baselines: compared,
      note: "whole files: the journal with its header, frame headers, snapshots and index")
  }
}
