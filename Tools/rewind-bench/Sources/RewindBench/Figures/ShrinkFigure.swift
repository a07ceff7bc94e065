import Navigation
import RewindCore

extension Bench {
  /// `rewind shrink --where` on a workload's session with one event appended, as a child
  /// process of the release `rewind` with its output to /dev/null: the time to cut a whole
  /// session down to the events a condition needs, when the condition first holds at its
  /// very end.
  ///
  /// The simulated user reaches every value of the fields early (within the first few
  /// ten thousand events), so the session is continued with a menu viewport resized to a
  /// width it never had (777.25 points), and the condition is `menu.viewportWidth ==
  /// 777.25`: the search starts from the whole session.
  func measureShrink(_ workload: Workload) throws {
    let binary = try rewindBinary()
    let journal = workload.scratchPath + ".shrink.journal"
    try? FileSystem.remove(journal)
    let copy = try ChildProcess.shell("cp '\(workload.journalPath)' '\(journal)'")
    guard copy.status == 0 else { throw BenchError("cannot copy the journal: \(copy.output)") }
    let recorder = try JournalRecorder<NavigationDomain>.continuing(at: journal)
    _ = try recorder.record(
      .menuViewportResized(width: 777.25), at: recorder.lastTime + 1_000_000)
    try recorder.close()
    let condition = "menu.viewportWidth == 777.25"
    let timeline = try Timeline<NavigationDomain>(path: journal)
    let first = try timeline.find(Condition(parsing: condition), all: false).first?.sequence
    guard first == timeline.lastSequence,
      let result = try timeline.shrink(where: Condition(parsing: condition))
    else {
      throw BenchError("\(workload.name): \(condition) does not first hold at the last event")
    }
    let command = "'\(binary)' shrink '\(journal)' --where '\(condition)' > /dev/null"
    log(
      "\(workload.name): shrink --where '\(condition)' (first true at event \(timeline.lastSequence)), \(options.runs) runs after a warm-up"
    )
    let summary = try timed("rewind shrink", runs: options.runs) {
      let run = try ChildProcess.shell(command)
      guard run.status == 0 else {
        throw BenchError("`\(command)` exited with \(run.status): \(run.output)")
      }
      return run.seconds
    }
    try? FileSystem.remove(journal)
    addRow(
      "shrink", "`shrink --where '\(condition)'`", workload: workload, unit: "s",
      higherIsBetter: false, rewind: summary,
      note:
        "wall clock of the child process, process start included; the workload's session continued with one event (a resize to 777.25 points), where the condition first holds: \(timeline.lastSequence) events searched (less those rejected), shrunk to \(result.events.count) in \(result.replays) replays of \(result.eventsReplayed) events in all"
    )
  }
}
