import RewindJournal
import TestSupport
import Testing

@testable import RewindStream

/// A session as a server holds it, read without a server: what a reader takes on trust
/// from the stream is checked as a file's index is.
@Suite struct StoredSessionTests {
  @Test("a session's values and messages read back as the journal pushed")
  func readsBackAsTheJournal() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("s.journal")
    try writeJournal(path, events: 700, frameSize: 1024)
    let file = try JournalReader(path: path)
    let session = try StoredSession(journal: file)
    #expect(session.frames.count == file.frames.count && file.frames.count > 1)
    let reader = try session.reader(name: "nats://test/s")
    #expect(reader.frames.map(\.sequenceRange) == file.frames.map(\.sequenceRange))
    var fromStream = reader.records()
    var fromFile = file.records()
    while let expected = try fromFile.next() {
      let (sequence, payload) = (expected.sequence, Array(expected.payload))
      let record = try #require(try fromStream.next())
      #expect(record.sequence == sequence && Array(record.payload) == payload)
    }
    #expect(try fromStream.next() == nil)
  }

  /// Found by the stream fuzz target (`Fuzz/Regressions/stream/empty-frame-in-index`):
  /// an index entry of no records trapped when the reader described the frame.
  @Test("an index entry of no records, or out of order, is an error, not a trap")
  func inconsistentIndexEntries() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("s.journal")
    try writeJournal(path, events: 300, frameSize: 1024)
    let session = try StoredSession(journal: try JournalReader(path: path))
    let summary = try session.decodedSummary()
    let entries = try session.decodedFrames(summary)
    var empty = entries
    empty[1].recordCount = 0
    var backwards = entries
    backwards[1].firstSequence = 1
    for damaged in [empty, backwards] {
      var copy = session
      copy.indexChunks = [StreamFrame.encode(damaged[...])]
      #expect {
        _ = try copy.reader(name: "nats://test/s")
      } throws: { error in
        (error as? JournalError)?.code == .corruptFrame
      }
    }
  }

  /// The fuzz target's sessions check their index as a reader of a server does
  /// (`StreamFrame.indexed`): a value holding fewer entries than its frames, followed by
  /// another, was read on, the next value's frames taken for its own, and refused only
  /// for the frame missing at the end, where a reader names the value.
  @Test("a value of the index holding fewer frames than it must is refused as a reader refuses it")
  func shortChunkFollowedByAnother() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("s.journal")
    try writeJournal(path, events: 60_000, frameSize: 1024)
    var session = try StoredSession(journal: try JournalReader(path: path))
    try #require(session.indexChunks.count >= 2)
    session.indexChunks[0].removeLast(48)
    let summary = try session.decodedSummary()
    let error = try #require(throws: CodecError.self) { try session.decodedFrames(summary) }
    #expect(
      error.message
        == "index chunk 0 is damaged: it holds \(StreamLayout.indexChunkSize - 1) frames, not \(StreamLayout.indexChunkSize)"
    )
  }

  @Test("a summary or an index cut short is an error")
  func damagedValues() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("s.journal")
    try writeJournal(path, events: 300, frameSize: 1024)
    let session = try StoredSession(journal: try JournalReader(path: path))
    var summary = session
    summary.summary.removeLast(3)
    #expect(throws: CodecError.self) { try summary.reader(name: "nats://test/s") }
    var index = session
    index.indexChunks[0].removeLast(48)
    #expect(throws: CodecError.self) { try index.reader(name: "nats://test/s") }
  }
}
