import Foundation
import RewindCore
import RewindJournal
import TestSupport
import Testing

@Suite("Batch recordings appear only when closed")
struct BatchRecordingTests {
  @Test("the journal is at its path after close, with every event; dropped before, nothing")
  func batch() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("batch.journal")
    let domain = StandardTally()
    do {
      let abandoned = try JournalRecorder.create(
        FileDestination(path), domain: domain, session: testSession)
      for item in TallyEvents(seed: 2).prefix(100) {
        try abandoned.record(item.event, at: item.time)
      }
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    let recorder = try JournalRecorder.create(
      FileDestination(path), domain: domain, session: testSession,
      options: RecordingOptions(snapshotInterval: 16))
    var state = domain.initialState
    for item in TallyEvents(seed: 2).prefix(500) {
      try recorder.record(item.event, at: item.time)
      _ = domain.reduce(&state, item.event)
    }
    #expect(!FileManager.default.fileExists(atPath: path))
    try recorder.close()
    let timeline = try Timeline<StandardTally>(path: path)
    #expect(timeline.lastSequence == 500)
    #expect(try timeline.state(after: 500) == state)
    #expect(try Journal.verify(path: path).isClean)
  }
}
