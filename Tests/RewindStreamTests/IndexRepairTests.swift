import Foundation
import JournalFixtures
import RewindJournal
import TestSupport
import Testing

@testable import RewindStream

/// A value of a session's index damaged on the server (by another program writing the
/// bucket, or bit rot): a push of the journal, which holds the frames, rebuilds it from
/// the session's messages, each checked against the journal; a read says so.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct IndexRepairTests {
  /// Index values that are no index (bytes that decode to none; no entries where frames
  /// were) block `pull` with an error saying what to do, and a push of the journal
  /// rebuilds them: nothing is sent again, every message stays once, and the session
  /// pulled back is the journal byte for byte.
  @Test func aPushRebuildsADamagedIndex() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try writeJournal(path, events: 60_000)
    let frames = try JournalReader(path: path).frames.count
    try #require(frames > StreamLayout.indexChunkSize + 10, "\(frames) frames: one index value")
    let store = try StreamStore(StreamServer(url: server.url))
    let pushed = try store.push(path)
    let id = pushed.summary.session.description
    for (chunk, damage) in [(0, Array("x".utf8) + [UInt8](repeating: 0x78, count: 56)), (1, [])] {
      try store.connection.put(
        damage, key: StreamLayout.indexKey(id, chunk: chunk), bucket: StreamLayout.indexBucket)
      let pulled = directory.file("pulled-\(chunk).journal")
      let refused = try #require(throws: StreamError.self) {
        try store.pull(id, to: FileDestination(pulled))
      }
      #expect(refused.kind == .invalidData)
      #expect(
        refused.message.hasPrefix("index chunk \(chunk) is damaged: "), "\(refused.message)")
      #expect(
        refused.message.hasSuffix(
          "; a push of the session's journal (a copy holding every frame the server has) rebuilds the index from the session's messages"
        ), "\(refused.message)")
      let repaired = try StreamStore(StreamServer(url: server.url)).push(path)
      #expect(repaired.framesSent == 0)
      #expect(repaired.framesFound == frames)
      #expect(repaired.summary == pushed.summary)
      #expect(repaired.rebuiltIndex && !pushed.rebuiltIndex)
      _ = try store.pull(id, to: FileDestination(pulled))
      #expect(bytes(of: pulled) == bytes(of: path))
      #expect(try store.storedMessages(of: pushed.summary).count == frames + 1)
      #expect(try store.push(path).rebuiltIndex == false)
    }
  }

  /// A push that rebuilds the index checks each message against the journal: another
  /// journal under the same id is refused, and the index is left as it was.
  @Test func aRebuildChecksTheMessagesAgainstTheJournal() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    let other = directory.file("other.journal")
    try writeJournal(path, events: 3_000)
    let store = try StreamStore(StreamServer(url: server.url))
    let pushed = try store.push(path)
    let id = pushed.summary.session.description
    // The same header (id), other events: a journal of its own.
    var head = header(interval: 50)
    head.sessionID = pushed.summary.session
    let writer = try JournalWriter.create(
      at: other, header: head, options: JournalWriterOptions(frameSize: 1024))
    try appendEvents(writer, 1...2_999)
    try writer.close()
    let key = StreamLayout.indexKey(id, chunk: 0)
    try store.connection.put([1, 2, 3], key: key, bucket: StreamLayout.indexBucket)
    let refused = try #require(throws: StreamError.self) {
      try StreamStore(StreamServer(url: server.url)).push(other)
    }
    #expect(refused.kind == .conflict, "\(refused)")
    #expect(try store.connection.value(key: key, bucket: StreamLayout.indexBucket) == [1, 2, 3])
  }
}
