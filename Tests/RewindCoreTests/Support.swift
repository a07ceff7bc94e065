import Foundation
import RewindCore
import RewindJournal
import TestSupport

let testSession = SessionInfo(
  id: SessionID(bytes: Array(repeating: 7, count: 16)), startTime: 1_764_500_000_000_000,
  device: "test")

/// Records `count` seeded tally events and returns them with the states after each
/// (index 0: the initial state), computed by folding from the start.
@discardableResult
func recordTally(
  at path: String, count: Int, seed: UInt64 = 1, interval: UInt32 = 64, frameSize: Int = 1024
) throws -> (events: [(time: UInt64, event: StandardTally.Event)], states: [StandardTally.State]) {
  let domain = StandardTally()
  let recorder = try JournalRecorder.create(
    at: path, domain: domain, session: testSession,
    options: RecordingOptions(
      snapshotInterval: interval,
      journal: JournalWriterOptions(frameSize: frameSize, durability: .none)))
  var events: [(time: UInt64, event: StandardTally.Event)] = []
  var states = [domain.initialState]
  var state = domain.initialState
  for item in TallyEvents(seed: seed).prefix(count) {
    try recorder.record(item.event, at: item.time)
    _ = domain.reduce(&state, item.event)
    events.append(item)
    states.append(state)
  }
  try recorder.close()
  return (events, states)
}
