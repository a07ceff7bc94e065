import Navigation
import RewindCore

/// The hidden child of the peak-memory figure: replays one file and exits, so that its
/// peak resident memory is the replay's alone.
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
    print(count)
  }
}
