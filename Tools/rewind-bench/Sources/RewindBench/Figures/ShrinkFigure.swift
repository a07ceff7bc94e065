import Navigation
import RewindCore

extension Bench {
  /// `rewind shrink --where` on a workload's journal, as a child process of the release
  /// `rewind` with its output to /dev/null: the time to cut the session down to the events
  /// a condition needs.
  ///
  /// The condition is `FIELD == VALUE` for the value of `split.selectedItem` or
  /// `menu.scrollOffset` that the session reaches first latest (found with
  /// `Timeline.find`): the search starts from as long a prefix as the session offers.
  func measureShrink(_ workload: Workload) throws {
    let binary = try rewindBinary()
    let timeline = try Timeline<NavigationDomain>(path: workload.journalPath)
    var first: [String: UInt64] = [:]
    for field in ["split.selectedItem", "menu.scrollOffset"] {
      for hit in try timeline.find(Condition(parsing: "changed(\(field))"), all: true)
      where hit.value != .null {
        let condition = "\(field) == \(hit.value.compactText)"
        if first[condition] == nil { first[condition] = hit.sequence }
      }
    }
    guard let (condition, sequence) = first.max(by: { $0.value < $1.value }) else {
      throw BenchError("\(workload.name): nothing ever changes; nothing to shrink")
    }
    guard let result = try timeline.shrink(where: Condition(parsing: condition)) else {
      throw BenchError("\(workload.name): \(condition) never holds")
    }
    let command =
      "'\(binary)' shrink '\(workload.journalPath)' --where '\(condition)' > /dev/null"
    log(
      "\(workload.name): shrink --where '\(condition)' (first true at event \(sequence)), \(options.runs) runs after a warm-up"
    )
    let summary = try timed("rewind shrink", runs: options.runs) {
      let run = try ChildProcess.shell(command)
      guard run.status == 0 else {
        throw BenchError("`\(command)` exited with \(run.status): \(run.output)")
      }
      return run.seconds
    }
    addRow(
      "shrink", "`shrink --where '\(condition)'`", workload: workload, unit: "s",
      higherIsBetter: false, rewind: summary,
      note:
        "wall clock of the child process, process start included; the condition first holds at event \(sequence), and the session shrinks to \(result.events.count) events in \(result.replays) replays"
    )
  }
}
