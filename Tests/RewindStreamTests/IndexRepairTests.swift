import Foundation
import JournalFixtures
import RewindJournal
import Synchronization
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
  /// A message another program published on a session's subject stops a push of the
  /// journal naming it (walk of the fleet, F7: it was taken for a longer copy of the
  /// journal); a pull passes it by.
  @Test func aForeignMessageOnTheSubjectIsNamed() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try writeJournal(path, events: 2_000)
    let store = try StreamStore(StreamServer(url: server.url))
    let pushed = try store.push(path)
    let subject = StreamLayout.subject(
      domain: try JournalReader(path: path).header.domain, session: pushed.summary.session)
    let (sequence, _) = try store.connection.publish(
      Array("rogue message".utf8), subject: subject, id: nil, headers: [],
      expectedLastSubjectSequence: nil)
    let refused = try #require(throws: StreamError.self) { try store.push(path) }
    #expect(refused.kind == .invalidData)
    #expect(
      refused.message
        == "the message at sequence \(sequence) of the stream REWIND, on the session's subject, is no frame of Rewind's (another program published it): delete it (nats stream rmm REWIND \(sequence)) and push again; nothing was sent"
    )
    let pulled = directory.file("pulled.journal")
    _ = try store.pull(pushed.summary.session.description, to: FileDestination(pulled))
    #expect(bytes(of: pulled) == bytes(of: path))
  }

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

/// A server, and a directory holding a journal of 3,000 events (`a.journal`): the
/// directory is removed once the value is let go.
private func serverAndJournal() throws -> (
  server: NatsServer, directory: TemporaryDirectory, path: String
) {
  let server = try NatsServer()
  let directory = TemporaryDirectory()
  let path = directory.file("a.journal")
  try writeJournal(path, events: 3_000)
  return (server, directory, path)
}

/// A server holding the first 1,000 events of a journal of 3,000 (`a.journal`), pushed
/// from its copy then (`partial.journal`, whose push's report is `first`).
private func partlyPushed() throws -> (
  server: NatsServer, directory: TemporaryDirectory, path: String, partial: String,
  first: StreamStore.PushReport
) {
  let server = try NatsServer()
  let directory = TemporaryDirectory()
  let path = directory.file("a.journal")
  let partial = directory.file("partial.journal")
  try writeJournal(path, events: 3_000, copyAfter: (1_000, partial))
  let first = try StreamStore(StreamServer(url: server.url)).push(partial)
  return (server, directory, path, partial, first)
}

/// Pulls the session `id` from `store` into `directory` and expects the journal at `path`,
/// byte for byte.
private func expectPulledBack(
  _ id: String, from store: StreamStore, as path: String, in directory: TemporaryDirectory
) throws {
  let pulled = directory.file("pulled.journal")
  _ = try store.pull(id, to: FileDestination(pulled))
  #expect(bytes(of: pulled) == bytes(of: path))
}

/// Two writers of one session's summary and index: each value is written only over the
/// revision the push read or wrote last, so that one that read the session before the other
/// stored more of it does not write the shorter session it knows over the other's.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ValueRaceTests {
  /// A push rebuilding a damaged index from a shorter copy of the journal, while a push of
  /// the whole journal stores all of it (between the first's reading the session and its
  /// writing the index): the first is refused as a copy the server holds more of, and the
  /// session stays whole (without the revisions, it wrote the shorter index and summary
  /// over the other's, and the session read as the copy, not closed).
  @Test func aStaleRebuildDoesNotShortenTheSession() throws {
    let (server, directory, path, partial, first) = try partlyPushed()
    let url = server.url
    let id = first.summary.session.description
    let key = StreamLayout.indexKey(id, chunk: 0)
    let stale = try StreamStore(StreamServer(url: url))
    try stale.connection.put([1, 2, 3], key: key, bucket: StreamLayout.indexBucket)
    var whole: StreamStore.PushReport?
    stale.beforeStoring = { _ in
      guard whole == nil else { return }
      whole = try? StreamStore(StreamServer(url: url)).push(path)
    }
    let refused = try #require(throws: StreamError.self) { try stale.push(partial) }
    #expect(refused.kind == .conflict, "\(refused)")
    #expect("\(refused)".contains("the server holds more of this session"), "\(refused)")
    let pushed = try #require(whole, "the whole journal was not pushed meanwhile")
    #expect(pushed.summary.isClosed && pushed.rebuiltIndex)
    let reader = try StreamStore(StreamServer(url: url))
    #expect(try reader.summary(of: id) == pushed.summary)
    try expectPulledBack(id, from: reader, as: path, in: directory)
  }

  /// A push whose index another push of the same journal wrote between its reading the
  /// session and its writing the index reads the session again and ends: its frames are
  /// on the server once, counted as sent by this push only, and the session is the journal.
  @Test func aPushReadsTheSessionAgainWhenAnotherIndexedIt() throws {
    let (server, directory, path) = try serverAndJournal()
    let frames = try JournalReader(path: path).frames.count
    let url = server.url
    let store = try StreamStore(StreamServer(url: url))
    var other: StreamStore.PushReport?
    var keys: [String] = []
    store.beforeStoring = { key in
      keys.append(key)
      if other == nil { other = try? StreamStore(StreamServer(url: url)).push(path) }
    }
    let report = try store.push(path)
    let meanwhile = try #require(other, "the other push failed")
    // The other push found this one's frames on the subject and indexed them.
    #expect(meanwhile.framesSent == 0 && meanwhile.framesFound == frames)
    #expect(meanwhile.summary.isClosed)
    // This push's first write found the index changed: it read the session again, found
    // it whole and closed, and wrote nothing more; the frames it sent are its report's.
    #expect(keys.count == 1, "\(keys)")
    #expect(report.summary == meanwhile.summary)
    #expect(report.framesSent == frames && report.framesFound == 0)
    #expect(try store.storedMessages(of: report.summary).count == frames + 1)
    try expectPulledBack(report.summary.session.description, from: store, as: path, in: directory)
  }

  /// Three pushes of a journal of more than 2,000 frames at once, each writing the index
  /// and summary over the others' revisions at every 256 frames, all end: each frame is
  /// stored once and sent once between them, and the session is the journal. (A push that
  /// found the session changed three times was refused, though the others stored more of it
  /// each time.)
  @Test func threePushesOfALongJournalAtOnceAllEnd() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try writeJournal(path, events: 480_000)
    let frames = try JournalReader(path: path).frames.count
    try #require(frames > 2_000, "\(frames) frames")
    let url = server.url
    let results = Mutex<[Result<StreamStore.PushReport, any Error>]>([])
    DispatchQueue.concurrentPerform(iterations: 3) { _ in
      let result = Result { try StreamStore(StreamServer(url: url)).push(path) }
      results.withLock { $0.append(result) }
    }
    let reports = try results.withLock { try $0.map { try $0.get() } }
    #expect(reports.count == 3)
    #expect(reports.map(\.framesSent).reduce(0, +) == frames)
    #expect(reports.allSatisfy { $0.framesSent + $0.framesFound == frames && $0.summary.isClosed })
    let store = try StreamStore(StreamServer(url: url))
    let id = try #require(reports.first).summary.session.description
    #expect(try store.storedMessages(of: try store.summary(of: id)).count == frames + 1)
    try expectPulledBack(id, from: store, as: path, in: directory)
  }

  /// A push that finds the session changed at each of its writes, another writer having
  /// stored more of it each time (five copies of the journal, each longer than the last,
  /// pushed in turn), reads it again each time and ends: only re-reads that find the
  /// session no larger count towards the three it allows.
  @Test func rereadsThatFindMoreDoNotCount() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    var head = header(interval: 50)
    head.sessionID = SessionID(bytes: (0..<16).map { UInt8($0) })
    let writer = try JournalWriter.create(
      at: path, header: head, options: JournalWriterOptions(frameSize: 1024))
    var copies: [String] = []
    var written: UInt64 = 0
    for step in 1...5 {
      try appendEvents(writer, (written + 1)...(written + 70_000))
      written += 70_000
      try writer.flush()
      let copy = directory.file("copy-\(step).journal")
      write(bytes(of: path), to: copy)
      copies.append(copy)
    }
    try appendEvents(writer, (written + 1)...(written + 70_000))
    try writer.close()
    let url = server.url
    let store = try StreamStore(StreamServer(url: url))
    let other = try StreamStore(StreamServer(url: url))
    var pushed: [StreamStore.PushReport] = []
    store.beforeStoring = { _ in
      guard pushed.count < copies.count else { return }
      if let report = try? other.push(copies[pushed.count]) { pushed.append(report) }
    }
    let report = try store.push(path)
    #expect(pushed.count == copies.count)
    #expect(store.sessionsReadAgain >= 4, "\(store.sessionsReadAgain) reads again")
    #expect(report.summary.isClosed)
    let frames = try JournalReader(path: path).frames.count
    #expect(report.framesSent + pushed.map(\.framesSent).reduce(0, +) == frames)
    try expectPulledBack(report.summary.session.description, from: store, as: path, in: directory)
  }

  /// A push whose writes another writer keeps changing under it, the session growing no
  /// more (the summary written again as it is, before each of this push's writes), reads
  /// the session again three times in a row, then stops, saying so.
  @Test func threeRereadsInARowWithoutProgressEndThePush() throws {
    let (server, directory, path, _, first) = try partlyPushed()
    let url = server.url
    let id = first.summary.session.description
    let store = try StreamStore(StreamServer(url: url))
    let other = try StreamStore(StreamServer(url: url))
    store.beforeStoring = { _ in
      _ = try? other.connection.put(
        first.summary.encoded(), key: id, bucket: StreamLayout.sessionsBucket)
    }
    let refused = try #require(throws: StreamError.self) { try store.push(path) }
    #expect(refused.kind == .changedMeanwhile, "\(refused)")
    #expect(
      refused.message.hasSuffix(
        "; read again 3 times in a row, the session had changed again each time, with no more frames: another writer is writing it; push again once it is done"
      ), "\(refused)")
    #expect(store.sessionsReadAgain == StreamStore.readsAgain)
    // Once the other writer stops, the push ends.
    store.beforeStoring = nil
    let report = try store.push(path)
    #expect(report.summary.isClosed)
    try expectPulledBack(id, from: store, as: path, in: directory)
  }

  /// A write of the summary whose acknowledgement was lost (a timeout), though the
  /// server stored it: the next try finds the key changed, and the value there this
  /// push's, which it takes as its own and goes on, reading nothing again.
  @Test func aWriteStoredWithItsAnswerLostIsTakenForThePushs() throws {
    let journal = try serverAndJournal()
    let (server, path) = (journal.server, journal.path)
    let store = try StreamStore(StreamServer(url: server.url))
    var lost: [String] = []
    store.losingAnswer = { key in
      guard !key.contains("."), lost.isEmpty else { return nil }
      lost.append(key)
      return StreamError(.timeout, "no answer (in the test)", server: server.url)
    }
    let report = try store.push(path)
    #expect(lost.count == 1)
    #expect(store.sessionsReadAgain == 0)
    #expect(report.summary.isClosed)
    #expect(report.framesSent == (try JournalReader(path: path).frames.count))
    #expect(try store.summary(of: report.summary.session.description) == report.summary)
  }

  /// A value of the index another program deleted (a deletion marker its key's last
  /// message) is refused by a reader, and a push writes it again over the marker.
  @Test func aDeletedIndexValueIsWrittenAgain() throws {
    let journal = try serverAndJournal()
    let (server, path) = (journal.server, journal.path)
    let store = try StreamStore(StreamServer(url: server.url))
    let pushed = try store.push(path)
    let id = pushed.summary.session.description
    _ = try store.connection.publish(
      [], subject: "$KV.\(StreamLayout.indexBucket).\(StreamLayout.indexKey(id, chunk: 0))",
      id: nil, headers: [("KV-Operation", "DEL")], expectedLastSubjectSequence: nil)
    let refused = try #require(throws: StreamError.self) {
      try store.frames(of: pushed.summary)
    }
    #expect(refused.message.hasPrefix("the index lacks frames from 0 on"), "\(refused)")
    let again = try store.push(path)
    #expect(again.rebuiltIndex && again.framesSent == 0)
    #expect(try store.frames(of: pushed.summary).count == pushed.summary.frameCount)
  }

  /// A session whose summary another program deleted (a deletion marker is the key's last
  /// message) is pushed again: the summary is written over the marker.
  @Test func aDeletedSummaryIsWrittenAgain() throws {
    let journal = try serverAndJournal()
    let (server, path) = (journal.server, journal.path)
    let store = try StreamStore(StreamServer(url: server.url))
    let pushed = try store.push(path)
    let id = pushed.summary.session.description
    _ = try store.connection.publish(
      [], subject: "$KV.\(StreamLayout.sessionsBucket).\(id)", id: nil,
      headers: [("KV-Operation", "DEL")], expectedLastSubjectSequence: nil)
    #expect(try store.connection.value(key: id, bucket: StreamLayout.sessionsBucket) == nil)
    let again = try store.push(path)
    #expect(again.framesSent == 0)
    #expect(again.summary == pushed.summary)
    #expect(try store.summary(of: id) == pushed.summary)
  }
}
