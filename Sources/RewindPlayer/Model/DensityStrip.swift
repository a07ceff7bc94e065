public import RewindCore

/// How many events happened when in a session, and what the reducer did with them: what
/// the timeline bar's density strip draws, one column per slice of the session's time.
///
/// Counts are kept in ``bucketCount`` buckets of equal time; when an event comes after
/// the last bucket (a followed journal growing), neighbouring buckets merge in pairs and
/// each covers twice the time, so memory stays fixed however long the session.
public struct DensityStrip: Equatable, Sendable {
  /// The number of buckets.
  public static let bucketCount = 1024

  /// What one bucket or one column counts.
  public struct Counts: Equatable, Sendable {
    public var applied = 0
    public var unchanged = 0
    public var rejected = 0

    public init(applied: Int = 0, unchanged: Int = 0, rejected: Int = 0) {
      self.applied = applied
      self.unchanged = unchanged
      self.rejected = rejected
    }

    /// Every event counted.
    public var total: Int { applied + unchanged + rejected }

    mutating func add(_ other: Counts) {
      applied += other.applied
      unchanged += other.unchanged
      rejected += other.rejected
    }
  }

  /// The microseconds each bucket covers: a power of two.
  public private(set) var bucketWidth: UInt64
  /// The time of the latest event counted.
  public private(set) var lastTime: UInt64 = 0
  private var buckets: [Counts]

  /// An empty strip for a session expected to last about `duration` microseconds.
  public init(expectedDuration duration: UInt64 = 0) {
    var width: UInt64 = 1
    while width < UInt64.max / 2, width * UInt64(Self.bucketCount) <= duration { width *= 2 }
    bucketWidth = width
    buckets = Array(repeating: Counts(), count: Self.bucketCount)
  }

  /// Counts one event at `time` that the reducer applied, found unchanged or rejected.
  public mutating func add(time: UInt64, _ kind: RecordedEffect.Kind) {
    while time / bucketWidth >= UInt64(Self.bucketCount) { widen() }
    let index = Int(time / bucketWidth)
    switch kind {
    case .applied: buckets[index].applied += 1
    case .unchanged: buckets[index].unchanged += 1
    case .rejected: buckets[index].rejected += 1
    }
    lastTime = max(lastTime, time)
  }

  /// Every event counted.
  public var total: Int { buckets.reduce(0) { $0 + $1.total } }

  /// The counts in `count` columns of equal time over `0...duration`; a bucket goes to
  /// the column holding its middle.
  public func columns(_ count: Int, duration: UInt64) -> [Counts] {
    guard count > 0 else { return [] }
    var columns = Array(repeating: Counts(), count: count)
    for (index, bucket) in buckets.enumerated() where bucket.total > 0 {
      let middle = UInt64(index) * bucketWidth + bucketWidth / 2
      columns[Self.column(of: middle, in: count, duration: duration)].add(bucket)
    }
    return columns
  }

  /// The column, of `count` over `0...duration`, that time `time` falls in: where the
  /// bar marks the cursor.
  public static func column(of time: UInt64, in count: Int, duration: UInt64) -> Int {
    guard count > 1, duration > 0 else { return 0 }
    let fraction = Double(min(time, duration)) / Double(duration)
    return min(count - 1, Int(fraction * Double(count)))
  }

  /// Merges the buckets in pairs: each covers twice the time.
  private mutating func widen() {
    for index in 0..<(Self.bucketCount / 2) {
      var merged = buckets[2 * index]
      merged.add(buckets[2 * index + 1])
      buckets[index] = merged
    }
    for index in (Self.bucketCount / 2)..<Self.bucketCount { buckets[index] = Counts() }
    bucketWidth *= 2
  }
}
