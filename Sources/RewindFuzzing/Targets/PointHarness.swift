import Navigation
import RewindCore

/// Parses the lines of arbitrary text as points (`--at`, `--from`, `--to`): each must
/// print as text that parses back to the same point, and is resolved against the sample
/// session, where the state there is reached; the first two lines are also a range.
enum PointHarness {
  static func run(_ bytes: [UInt8]) throws(FuzzFailure) {
    let text = String(decoding: bytes, as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(4)
    var resolved: [UInt64?] = []
    let timeline = SampleSession.timeline()
    for line in lines {
      _ = Point.microseconds(inDuration: String(line))
      let point: Point
      do {
        point = try Point(parsing: String(line))
      } catch {
        _ = error.description
        resolved.append(nil)
        continue
      }
      try checkRoundTrip(point, written: String(line))
      let sequence = try? timeline.resolve(point)
      if let sequence { _ = try? timeline.state(after: sequence) }
      resolved.append(sequence)
    }
    if resolved.count >= 2, let from = resolved[0], let to = resolved[1], from <= to {
      _ = try? timeline.events(from: from + 1, through: to) { _, _, _ in true }
    }
  }

  /// Checks that a point prints as text that parses back to the same point.
  static func checkRoundTrip(_ point: Point, written: String) throws(FuzzFailure) {
    let printed = point.description
    let again: Point
    do {
      again = try Point(parsing: printed)
    } catch {
      throw FuzzFailure(
        "the point \(written.debugDescription) prints as \(printed.debugDescription), which does not parse: \(error)"
      )
    }
    guard again == point else {
      throw FuzzFailure(
        "the point \(written.debugDescription) prints as \(printed.debugDescription), which parses as \(again.description.debugDescription)"
      )
    }
  }
}
