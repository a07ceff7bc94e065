import Navigation
import RewindCore
import RewindJournal
import TestSupport

/// Records a navigation session of `events` (each with its time) at `path`, in `domain`
/// (which may have interned ids the events name).
func recordNavigation(
  _ events: [(NavigationEvent, UInt64)], in domain: NavigationDomain, to path: String,
  snapshotInterval: UInt32, frameSize: Int
) throws {
  let recorder = try JournalRecorder.create(
    at: path, domain: domain,
    session: SessionInfo(startTime: 1_767_225_600_000_000, device: "iPad Pro 13-inch"),
    options: RecordingOptions(
      snapshotInterval: snapshotInterval, journal: .init(frameSize: frameSize)))
  for (event, time) in events { try recorder.record(event, at: time) }
  try recorder.close()
}
