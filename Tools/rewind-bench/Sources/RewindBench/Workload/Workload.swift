import Navigation
import RewindCore
import RewindJournal

/// One workload: `count` events of the seeded realistic user (the model behind
/// `rewind generate`), generated once and kept in memory, and the directory where every
/// format stores them.
///
/// The files are written by the append figures (the last timed run's output stays) and
/// then read by every reading figure, so each format holds exactly these events.
final class Workload {
  /// `1M`, `10M`, …
  let name: String
  let count: Int
  let seed: UInt64
  /// The domain the events were generated against (it interned the few unknown ids the
  /// user taps); every writer encodes with it.
  let domain: NavigationDomain
  let events: [TimedEvent<NavigationEvent>]
  let directory: String

  /// Generates the events.
  /// - Complexity: O(count); a few tens of nanoseconds an event.
  init(count: Int, seed: UInt64, directory: String) {
    self.name = Workload.name(of: count)
    self.count = count
    self.seed = seed
    self.directory = directory
    let domain = NavigationDomain.sample
    self.domain = domain
    var user = domain.simulatedUser(seed: seed)
    var events: [TimedEvent<NavigationEvent>] = []
    events.reserveCapacity(count)
    for _ in 0..<count { events.append(user.next()!) }
    self.events = events
  }

  var journalPath: String { directory + "/events.journal" }
  var jsonLinesPath: String { directory + "/events.jsonl.zst" }
  var sqlitePath: String { directory + "/events.sqlite" }
  /// Where a writer may write and delete freely.
  var scratchPath: String { directory + "/scratch" }

  /// The session header of every journal of a workload: fixed, so runs write the same
  /// bytes.
  var session: SessionInfo {
    SessionInfo(
      id: SessionID(bytes: (0..<16).map { UInt8($0) &* 17 &+ 1 } as [UInt8]),
      startTime: 1_767_225_600_000_000, device: "rewind-bench --seed \(seed)")
  }

  /// `1M` for a million, `250k`, `100M`.
  static func name(of count: Int) -> String {
    if count >= 1_000_000 && count % 1_000_000 == 0 { return "\(count / 1_000_000)M" }
    if count >= 1_000 && count % 1_000 == 0 { return "\(count / 1_000)k" }
    return "\(count)"
  }
}
