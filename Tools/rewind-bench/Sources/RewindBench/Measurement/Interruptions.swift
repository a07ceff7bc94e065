/// The queries of a latency series that something outside them slowed: those that took
/// more than ``threshold`` times the median, and how far apart they started.
///
/// A query of the same work takes about the same time unless the machine takes the core
/// away (a timer tick, another virtual machine, a page of the kernel's): those queries
/// are the tail of the series. When the slowed queries start a fixed time apart (the
/// commonest gap), the tail is a periodic interruption, and a query is hit by it with a
/// chance of its own length over that period: the p99 then stays at the median plus the
/// interruption's cost until fewer than 1 % of the queries are hit.
struct Interruptions {
  /// How many times the median makes a query slowed.
  static let threshold = 1.3

  /// The number of queries, and of those slowed.
  let count: Int
  let slowed: Int
  /// What a slowed query took beyond the median, in nanoseconds: median, least, most.
  let extra: (median: Double, least: Double, most: Double)
  /// The commonest gap of a millisecond or more between the starts of two slowed queries
  /// in a row, to 0.1 ms, and how many of those gaps are within 0.1 ms of a multiple of it
  /// (shorter gaps are one interruption that slowed queries in a row).
  let period: (milliseconds: Double, gaps: Int, of: Int)?

  /// - Parameters:
  ///   - samples: each query's time, in nanoseconds.
  ///   - starts: each query's start on the monotonic clock, in nanoseconds.
  init(samples: [Double], starts: [UInt64]) {
    precondition(samples.count == starts.count, "a start for each sample")
    count = samples.count
    let median = samples.isEmpty ? 0 : samples.sorted()[samples.count / 2]
    let hit = samples.indices.filter { samples[$0] > median * Self.threshold }
    slowed = hit.count
    let extras = hit.map { samples[$0] - median }.sorted()
    extra =
      extras.isEmpty
      ? (0, 0, 0) : (extras[extras.count / 2], extras[0], extras[extras.count - 1])
    // Gaps in tenths of a millisecond (100,000 ns).
    let gaps = zip(hit, hit.dropFirst()).map { first, next in
      Int((Double(starts[next] - starts[first]) / 100_000).rounded())
    }
    var counts: [Int: Int] = [:]
    // Gaps under a millisecond are one interruption that slowed queries in a row.
    for gap in gaps where gap >= 10 { counts[gap, default: 0] += 1 }
    // The commonest gap; of two as common, the shorter.
    guard let common = counts.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) })?.key
    else {
      period = nil
      return
    }
    let near = gaps.filter { gap in
      let remainder = gap % common
      return gap >= 10 && (remainder <= 1 || remainder >= common - 1)
    }.count
    period = (Double(common) / 10, near, gaps.filter { $0 >= 10 }.count)
  }

  /// One line for a report: "slowed: 83 of 2000 (4.2 %) by 48 µs (31–194) ...".
  var line: String {
    let share = count == 0 ? 0 : Double(slowed) / Double(count) * 100
    var text =
      "slowed (over \(Format.number(Self.threshold))× the median): \(slowed) of \(count) (\(Format.number(share)) %), by \(Format.number(extra.median / 1e3)) µs (\(Format.number(extra.least / 1e3))–\(Format.number(extra.most / 1e3)))"
    if let period {
      text +=
        "; commonest gap of 1 ms or more between them \(Format.number(period.milliseconds)) ms, \(period.gaps) of \(period.of) gaps within 0.1 ms of a multiple of it"
    }
    return text
  }
}
