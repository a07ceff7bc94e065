import Navigation
import RewindCore

/// The hidden child of the peak-memory figure: replays one file, then prints the number
/// of events and its own peak resident memory (`VmHWM` of /proc/self/status, in KiB).
///
/// The child reads its own high-water mark because `ru_maxrss` of a child started with
/// `posix_spawn` counts the parent's memory from before `exec` (Linux carries the old
/// address space's high-water mark over), which here holds the workloads.
enum ChildMode {
  static func run(_ arguments: [String]) throws {
    let kind = arguments.first ?? ""
    let path = arguments.count > 1 ? arguments[1] : ""
    let expected = arguments.count > 2 ? Int(arguments[2]) : nil
    let domain = NavigationDomain.sample
    var count = 0
    switch kind {
    case "idle":
      break
    case "replay-rewind":
      let timeline = try Timeline<NavigationDomain>(path: path)
      blackHole(try timeline.replayedState(after: timeline.lastSequence))
      count = Int(timeline.eventCount)
    case "replay-jsonl":
      count = try JSONLinesBaseline.replay(path, domain: domain).count
    case "replay-sqlite":
      count = try SQLiteBaseline.replay(path, domain: domain).count
    default:
      throw BenchError("unknown child command '\(kind)'")
    }
    if let expected, expected != count {
      throw BenchError("the child replayed \(count) events, not \(expected)")
    }
    print(count, peakResidentKiB())
  }

  /// `VmHWM` of /proc/self/status: this process's peak resident set, in KiB.
  static func peakResidentKiB() -> Int {
    let status = FileSystem.text("/proc/self/status") ?? ""
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else {
      return -1
    }
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
  }
}
