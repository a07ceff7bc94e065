import Foundation
import Navigation
import RewindCore
import RewindJournal
import TestSupport

@testable import RewindPlayer

/// A sample journal of `Journals/`.
func sample(_ name: String) -> String { repositoryRoot + "/Journals/" + name }

/// A clock the test moves by hand, in microseconds.
final class ManualClock {
  var now: UInt64 = 1_000_000

  func advance(seconds: Double) { now += UInt64(seconds * 1_000_000) }
}

/// A player on a sample journal of the navigation domain, at the start.
func player(
  _ name: String, at point: Point? = nil, clock: ManualClock = ManualClock()
) throws -> Player<NavigationDomain> {
  try Player(
    timeline: Timeline<NavigationDomain>(path: sample(name)), at: point, clock: { clock.now })
}

/// A session of the navigation domain recorded from the simulated user, `count` events.
func recordGenerated(
  at path: String, count: Int, seed: UInt64, interval: UInt32 = 64, close: Bool = true,
  session: SessionID = SessionID(bytes: Array(repeating: 5, count: 16))
) throws -> JournalRecorder<NavigationDomain> {
  let domain = NavigationDomain()
  let recorder = try JournalRecorder.create(
    at: path, domain: domain,
    session: SessionInfo(
      id: session, startTime: 1_764_500_000_000_000,
      device: "test"),
    options: RecordingOptions(
      snapshotInterval: interval,
      journal: JournalWriterOptions(frameSize: 2048, durability: .none)))
  var user = SimulatedUser(seed: seed, domain: domain)
  for _ in 0..<count {
    let (time, event) = user.next()
    try recorder.record(event, at: time)
  }
  if close { try recorder.close() } else { try recorder.flush() }
  return recorder
}
