import CNatsLibrary
import Foundation
import JournalFixtures
import RewindJournal
import TestSupport
import Testing

@testable import RewindStream

/// The sample journals of `Journals/`.
let sampleJournals: [String] = {
  var url = URL(fileURLWithPath: #filePath)
  for _ in 0..<3 { url.deleteLastPathComponent() }
  let directory = url.path + "/Journals"
  let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
  return names.filter { $0.hasSuffix(".journal") }.sorted().map { directory + "/" + $0 }
}()

/// Writes a journal of `events` test records in frames of about `frameSize` bytes, and a
/// copy of it as it was after `copyAfter` events (sealed, not closed) when asked.
func writeJournal(
  _ path: String, events: UInt64, frameSize: Int = 1024, id: UInt8 = 0,
  copyAfter: (UInt64, String)? = nil
) throws {
  var head = header(interval: 50)
  head.sessionID = SessionID(bytes: (0..<16).map { UInt8($0) &+ id })
  let writer = try JournalWriter.create(
    at: path, header: head, options: JournalWriterOptions(frameSize: frameSize))
  if let (count, copy) = copyAfter {
    try appendEvents(writer, 1...count)
    try writer.flush()
    write(bytes(of: path), to: copy)
    try appendEvents(writer, (count + 1)...events)
  } else {
    try appendEvents(writer, 1...events)
  }
  try writer.close()
}

@Suite(.serialized, .timeLimit(.minutes(3)))
struct StreamStoreTests {
  @Test func samplesRoundTripByteForByte() throws {
    #expect(sampleJournals.count >= 6)
    let server = try NatsServer()
    let store = try StreamStore(StreamServer(url: server.url))
    var ids: [String: String] = [:]
    for path in sampleJournals {
      let report = try store.push(path)
      let reader = try JournalReader(path: path)
      #expect(report.framesSent == reader.frames.count)
      #expect(report.summary.eventCount == reader.recordCount)
      #expect(report.summary.isClosed)
      ids[report.summary.session.description] = path
    }
    let listed = try store.sessions()
    #expect(Set(listed.map(\.session.description)) == Set(ids.keys))
    for summary in listed {
      let path = try #require(ids[summary.session.description])
      let reader = try JournalReader(path: path)
      #expect(summary.domain == reader.header.domain)
      #expect(summary.device == reader.header.device)
      #expect(summary.startTime == reader.header.startTime)
      #expect(summary.lastTime == reader.lastTime)
      #expect(summary.frameCount == reader.frames.count)
      let pulled = server.directory.file("\(summary.session).journal")
      _ = try store.pull(String(summary.session.description.prefix(8)), to: FileDestination(pulled))
      // Written as the original was: the same header, frames, index and trailer.
      #expect(bytes(of: pulled) == bytes(of: path), "\(path)")
    }
  }

  @Test func pushingAgainStoresNothingTwice() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try writeJournal(path, events: 3_000)
    let store = try StreamStore(StreamServer(url: server.url))
    let first = try store.push(path)
    #expect(first.framesSent > 10)
    let second = try store.push(path)
    #expect(second.framesSent == 0)
    #expect(second.framesFound == first.framesSent)
    let messages = try store.storedMessages(of: second.summary)
    #expect(messages.count == first.framesSent + 1)
    #expect(Set(messages.map(\.id)).count == messages.count)
  }

  /// A closed journal continued after it was pushed: the session on the server says it
  /// is open from the first new frame pushed (never closed with frames still to come),
  /// and closed again once the journal is closed and pushed.
  @Test func aContinuedClosedJournalIsOpenOnTheServerUntilClosedAgain() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try writeJournal(path, events: 3_000)
    let store = try StreamStore(StreamServer(url: server.url))
    let first = try store.push(path)
    #expect(first.summary.isClosed)

    let writer = try JournalWriter.open(
      at: path, domain: "test", schemaVersion: 1, options: JournalWriterOptions(frameSize: 1024))
    try appendEvents(writer, 3_001...5_000)
    try writer.flush()
    let observer = try StreamStore(StreamServer(url: server.url))
    var seen: [Bool] = []
    let id = first.summary.session.description
    let open = try store.push(path) { number, _ in
      // Before each frame after the first new one: what a reader sees meanwhile.
      if number > first.summary.frameCount, let summary = try? observer.summary(of: id) {
        seen.append(summary.isClosed)
      }
    }
    #expect(open.framesFound == first.framesSent)
    #expect(!open.summary.isClosed)
    #expect(open.summary.eventCount == 5_000)
    #expect(!seen.isEmpty && !seen.contains(true))

    try writer.close()
    let closed = try store.push(path)
    #expect(closed.summary.isClosed)
    let pulled = directory.file("pulled.journal")
    _ = try store.pull(id, to: FileDestination(pulled))
    #expect(bytes(of: pulled) == bytes(of: path))
  }

  @Test func anInterruptedPushResumes() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    let partial = directory.file("partial.journal")
    try writeJournal(path, events: 3_000, copyAfter: (1_000, partial))
    let store = try StreamStore(StreamServer(url: server.url))
    let early = try store.push(partial)
    #expect(!early.summary.isClosed)
    #expect(early.summary.eventCount == 1_000)
    let pulledEarly = directory.file("early.journal")
    _ = try store.pull(early.summary.session.description, to: FileDestination(pulledEarly))
    #expect(try JournalReader(path: pulledEarly).recordCount == 1_000)

    // A frame published whose index and summary were not written (the pusher was killed
    // between the two): the next push finds it on the subject and sends it no more.
    let reader = try JournalReader(path: path)
    let number = early.summary.frameCount
    let last = try #require(try store.storedMessages(of: early.summary).last)
    _ = try store.connection.publish(
      try reader.frameBytes(number), subject: early.summary.subject,
      id: StreamLayout.frameMessageID(reader.header.sessionID, number),
      headers: [(StreamLayout.frameHeader, "\(number)")], expectedLastSubjectSequence: last.sequence
    )

    let rest = try store.push(path)
    #expect(rest.framesFound == number + 1)
    #expect(rest.framesFound + rest.framesSent == reader.frames.count)
    #expect(rest.summary.isClosed)
    let messages = try store.storedMessages(of: rest.summary)
    #expect(messages.count == reader.frames.count + 1)
    #expect(Set(messages.map(\.id)).count == messages.count)
    let pulled = directory.file("pulled.journal")
    _ = try store.pull(rest.summary.session.description, to: FileDestination(pulled))
    #expect(bytes(of: pulled) == bytes(of: path))
  }

  @Test(
    "a frame the server takes for a duplicate (its message id seen) is compared with the message it has"
  )
  func duplicateFrameIsCompared() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    let partial = directory.file("partial.journal")
    try writeJournal(path, events: 3_000, copyAfter: (1_000, partial))
    let store = try StreamStore(StreamServer(url: server.url))
    let early = try store.push(partial)
    let reader = try JournalReader(path: path)
    let number = early.summary.frameCount
    // Another writer's message with the id of this journal's next frame, in the server's
    // deduplication window (which it checks before the subject's last sequence), as two
    // writers of one session racing leave it: the next frame is acknowledged as a duplicate
    // of that message.
    _ = try store.connection.publish(
      [1, 2, 3], subject: "rewind.test.other",
      id: StreamLayout.frameMessageID(reader.header.sessionID, number), headers: [],
      expectedLastSubjectSequence: nil)
    let error = try #require(throws: StreamError.self) { try store.push(path) }
    #expect(error.kind == .conflict)
    #expect(
      "\(error)".contains(
        "another writer stored frame \(number) of the session meanwhile, with other bytes"),
      "\(error)")
    // Nothing of it was indexed: the session on the server is still the partial journal's.
    let summary = try store.summary(of: early.summary.session.description)
    #expect(summary.frameCount == number)
  }

  @Test(
    "a stream made beforehand whose settings would lose or refuse messages is refused by push, naming them"
  )
  func unsuitableStream() throws {
    let directory = TemporaryDirectory()
    try writeJournal(directory.file("a.journal"), events: 500)
    let cases: [(String, (inout jsStreamConfig) -> Void)] = [
      ("max_msgs_per_subject 10", { $0.MaxMsgsPerSubject = 10 }),
      ("max_age 3 s", { $0.MaxAge = 3_000_000_000 }),
      (
        "retention workqueue, which removes messages once consumed",
        {
          $0.Retention = js_WorkQueuePolicy
        }
      ),
      ("no direct get (allow_direct false)", { $0.AllowDirect = false }),
      ("max_msg_size 1000", { $0.MaxMsgSize = 1000 }),
      ("memory storage, lost when the server restarts", { $0.Storage = js_MemoryStorage }),
      ("max_age 500 ms", { $0.MaxAge = 500_000_000 }),
    ]
    for (problem, configure) in cases {
      let server = try NatsServer()
      let store = try StreamStore(StreamServer(url: server.url))
      try store.connection.createStream(
        StreamLayout.stream, subjects: StreamLayout.subjects, configure: configure)
      let error = try #require(throws: StreamError.self) {
        try store.push(directory.file("a.journal"))
      }
      #expect(
        "\(error)".contains(
          "the stream REWIND exists with settings that would lose or refuse a session's messages (\(problem))"
        ), "\(error)")
      // Nothing was sent.
      #expect(throws: StreamError.self) { try store.sessions() }
    }
    // A bucket made beforehand that drops its values after a while.
    do {
      let server = try NatsServer()
      let store = try StreamStore(StreamServer(url: server.url))
      try store.connection.createStream(
        "KV_" + StreamLayout.sessionsBucket,
        subjects: ["$KV.\(StreamLayout.sessionsBucket).>"]
      ) {
        $0.MaxAge = 60_000_000_000
        $0.MaxMsgsPerSubject = 1
        $0.AllowRollup = true
        $0.DenyDelete = false
      }
      let error = try #require(throws: StreamError.self) {
        try store.push(directory.file("a.journal"))
      }
      #expect(
        "\(error)".contains(
          "the stream KV_REWIND_SESSIONS exists with settings that would lose or refuse a session's messages (max_age 60 s)"
        ), "\(error)")
    }
    // Another stream's subjects.
    let server = try NatsServer()
    let store = try StreamStore(StreamServer(url: server.url))
    try store.connection.createStream(StreamLayout.stream, subjects: ["other.>"])
    let error = try #require(throws: StreamError.self) {
      try store.push(directory.file("a.journal"))
    }
    #expect("\(error)".contains("(subjects other.>, not rewind.>)"), "\(error)")
  }

  @Test("an entry of the sessions' bucket that is no summary is left out of the list, and said")
  func unreadableSummaryIsLeftOut() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    try writeJournal(directory.file("a.journal"), events: 500)
    let store = try StreamStore(StreamServer(url: server.url))
    let pushed = try store.push(directory.file("a.journal"))
    try store.connection.put(Array("hello".utf8), key: "junk", bucket: StreamLayout.sessionsBucket)
    #expect(try store.sessions().map(\.session) == [pushed.summary.session])
    var unreadable: [StreamError] = []
    #expect(try store.sessions(unreadable: &unreadable).count == 1)
    #expect(unreadable.count == 1)
    #expect(unreadable.first?.kind == .invalidData)
    #expect(unreadable.first?.session == "junk")
    // An id's start that the session and a damaged entry share is said to be both (the
    // list shows one session), and one a damaged entry alone has as its damage.
    let id = pushed.summary.session.description
    let twin = String(id.prefix(8)) + "-damaged"
    try store.connection.put(Array("hello".utf8), key: twin, bucket: StreamLayout.sessionsBucket)
    #expect(try store.summary(of: id).session == pushed.summary.session)
    let both = try #require(throws: StreamError.self) {
      try store.summary(of: String(id.prefix(6)))
    }
    #expect(both.kind == .sessionMissing)
    #expect(
      both.message
        == "1 session and 1 damaged entry (which `rewind sessions` leaves out) start with \(id.prefix(6)); give more of the id",
      "\(both)")
    let alone = try #require(throws: StreamError.self) { try store.summary(of: "jun") }
    #expect(alone.kind == .invalidData)
    #expect(alone.message.hasPrefix("its summary is damaged: "), "\(alone)")
    try store.connection.put(Array("hi".utf8), key: "junk-2", bucket: StreamLayout.sessionsBucket)
    let damagedOnly = try #require(throws: StreamError.self) { try store.summary(of: "jun") }
    #expect(
      damagedOnly.message
        == "no session and 2 damaged entries (which `rewind sessions` leaves out) start with jun; give more of the id",
      "\(damagedOnly)")
  }

  @Test("a session whose summary another program deleted is neither listed nor found")
  func deletedSummaryIsNotASession() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    try writeJournal(directory.file("a.journal"), events: 500)
    try writeJournal(directory.file("b.journal"), events: 500, id: 1)
    let store = try StreamStore(StreamServer(url: server.url))
    let kept = try store.push(directory.file("a.journal")).summary.session.description
    let deleted = try store.push(directory.file("b.journal")).summary.session.description
    #expect(kept.hasPrefix("0") && deleted.hasPrefix("0"))
    #expect(throws: StreamError.self) { try store.summary(of: "0") }
    // As `nats kv del` deletes a key: a message with the operation DEL.
    _ = try store.connection.publish(
      [], subject: "$KV.\(StreamLayout.sessionsBucket).\(deleted)", id: "delete-\(deleted)",
      headers: [("KV-Operation", "DEL")], expectedLastSubjectSequence: nil)
    #expect(try store.sessions().map(\.session.description) == [kept])
    #expect(try store.summary(of: "0").session.description == kept)
    let missing = try #require(throws: StreamError.self) {
      try store.summary(of: String(deleted.prefix(4)))
    }
    #expect(missing.kind == .sessionMissing)
    #expect(missing.message.hasPrefix("no such session on the server"), "\(missing)")
  }

  @Test("a journal with a damaged frame is refused before anything is sent")
  func damagedFrameSendsNothing() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try writeJournal(path, events: 3_000)
    var damaged = bytes(of: path)
    #expect(try JournalReader(path: path).frames.count > 4)
    damaged[damaged.count / 2] ^= 0xFF
    write(damaged, to: path)
    let store = try StreamStore(StreamServer(url: server.url))
    // Said of the file, not of the server.
    let error = try #require(throws: JournalError.self) { try store.push(path) }
    #expect(error.code == .corruptFrame)
    #expect("\(error)".hasPrefix("\(path): frame "), "\(error)")
    #expect("\(error)".contains("; `rewind recover` it first, then push"), "\(error)")
    // Nothing was made on the server: not even the stream.
    #expect(throws: StreamError.self) { try store.sessions() }
  }

  @Test("a shorter copy of a journal the server holds more of is refused as such")
  func shorterCopyIsRefused() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    let partial = directory.file("partial.journal")
    try writeJournal(path, events: 3_000, copyAfter: (1_000, partial))
    let store = try StreamStore(StreamServer(url: server.url))
    _ = try store.push(path)
    let frames = try JournalReader(path: partial).frames.count
    let error = try #require(throws: StreamError.self) { try store.push(partial) }
    #expect(error.kind == .conflict)
    #expect(
      "\(error)".contains(
        "the server holds more of this session than this journal has (its \(frames) frames, then more): it was pushed from a longer copy of the journal; nothing was sent"
      ), "\(error)")
  }

  /// A push of many frames writes each chunk of the index once, as it fills, and the
  /// last at the end: the server receives little more than the journal (each chunk was
  /// written again after each frame, 6 KiB a frame on average).
  @Test func aPushSendsLittleMoreThanTheJournal() throws {
    let server = try NatsServer(monitoring: true)
    let directory = TemporaryDirectory()
    let path = directory.file("long.journal")
    try writeJournal(path, events: 80_000)
    let frames = try JournalReader(path: path).frames.count
    #expect(frames > 2 * StreamLayout.indexChunkSize)
    let before = try server.traffic()
    let store = try StreamStore(StreamServer(url: server.url))
    let report = try store.push(path)
    #expect(report.framesSent == frames)
    let received = try server.traffic().received - before.received
    let size = bytes(of: path).count
    // The frames, their messages' headers, the index (48 bytes a frame) and the requests.
    #expect(
      received < size + frames * 400,
      "the server received \(received) bytes of a \(size)-byte journal of \(frames) frames")
    let pulled = directory.file("pulled.journal")
    _ = try store.pull(report.summary.session.description, to: FileDestination(pulled))
    #expect(bytes(of: pulled) == bytes(of: path))
  }

  /// A push that continues from the last one's position (a shipper's round) sends the
  /// new frames and reads back neither the index nor a frame; a journal that is no longer
  /// the one pushed (a shorter copy, other frames under the same id) is pushed as a first
  /// push is, and refused as such.
  @Test func aPushContinuingFromItsPositionSendsTheNewFramesAndReadsNothingBack() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    let partial = directory.file("partial.journal")
    try writeJournal(path, events: 3_000, copyAfter: (1_000, partial))
    let store = try StreamStore(StreamServer(url: server.url))
    let first = try store.push(partial, after: nil)
    #expect(first.report.framesSent == (try JournalReader(path: partial).frames.count))

    let (indexRead, framesRead) = (store.indexChunksFetched, store.framesFetched)
    let next = try store.push(path, after: first.position)
    let frames = try JournalReader(path: path).frames.count
    #expect(next.report.framesFound == first.report.framesSent)
    #expect(next.report.framesSent == frames - first.report.framesSent)
    #expect(next.report.summary.isClosed)
    #expect(store.indexChunksFetched == indexRead)
    #expect(store.framesFetched == framesRead)
    let id = next.report.summary.session.description
    #expect(try store.summary(of: id) == next.report.summary)
    let pulled = directory.file("pulled.journal")
    _ = try store.pull(id, to: FileDestination(pulled))
    #expect(bytes(of: pulled) == bytes(of: path))

    // The shorter copy in the journal's place: the server's index is read, and the push
    // refused.
    let shorter = try #require(throws: StreamError.self) {
      try store.push(partial, after: next.position)
    }
    #expect("\(shorter)".contains("the server holds more of this session"), "\(shorter)")
    #expect(store.indexChunksFetched > indexRead)
    // Other frames under the same id.
    let other = directory.file("other.journal")
    try writeJournal(other, events: 3_500, frameSize: 2048)
    let refused = try #require(throws: StreamError.self) {
      try store.push(other, after: next.position)
    }
    #expect(refused.kind == .conflict)
    #expect("\(refused)".contains("the server holds frames this journal does not have"))
  }

  @Test func anotherJournalUnderTheSameIDIsRefused() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    try writeJournal(directory.file("a.journal"), events: 500)
    try writeJournal(directory.file("b.journal"), events: 600, frameSize: 2048)
    let store = try StreamStore(StreamServer(url: server.url))
    _ = try store.push(directory.file("a.journal"))
    let error = try #require(throws: StreamError.self) {
      try store.push(directory.file("b.journal"))
    }
    #expect(error.kind == .conflict)
    #expect(error.session == "00010203-0405-0607-0809-0a0b0c0d0e0f")
  }

  @Test func errorsNameTheServerAndComePromptly() throws {
    let server = try NatsServer(user: "rewind", password: "secret", maximumPayload: 2048)
    let start = Date()
    let refused = try #require(throws: StreamError.self) {
      try StreamStore(StreamServer(url: server.url, user: "rewind", password: "wrong"))
    }
    #expect(refused.kind == .authorization)
    #expect(refused.description.hasPrefix(server.url + ": "))

    let store = try StreamStore(StreamServer(url: server.url, user: "rewind", password: "secret"))
    let missing = try #require(throws: StreamError.self) { try store.sessions() }
    #expect(missing.kind == .streamMissing)

    let directory = TemporaryDirectory()
    try writeJournal(directory.file("big.journal"), events: 2_000, frameSize: 8192)
    let tooLarge = try #require(throws: StreamError.self) {
      try store.push(directory.file("big.journal"))
    }
    #expect(tooLarge.kind == .tooLarge, "\(tooLarge)")
    // Its headers counted too (walk of the fleet, F3: "12440 bytes is larger than …
    // 12500").
    #expect(
      tooLarge.description.contains(
        "and its headers is more than the server accepts (max_payload, 2048 bytes, counts both; raise it)"
      ), "\(tooLarge)")
    #expect(tooLarge.session == "00010203-0405-0607-0809-0a0b0c0d0e0f")

    // A tls:// address to a server without TLS: refused, never a connection in clear.
    let plain = try #require(throws: StreamError.self) {
      try StreamStore(
        StreamServer(
          url: server.url.replacingOccurrences(of: "nats://", with: "tls://"), user: "rewind",
          password: "secret"))
    }
    #expect(plain.kind == .authorization)
    #expect("\(plain)".hasSuffix("the server does not offer TLS"), "\(plain)")

    let port = NatsServer.freePort()
    let absent = try #require(throws: StreamError.self) {
      try StreamStore(StreamServer(url: "nats://127.0.0.1:\(port)", timeoutMilliseconds: 1000))
    }
    #expect(absent.kind == .noServer)
    #expect(Date().timeIntervalSince(start) < 20)
  }

  /// A server of two accounts whose `no_auth_user` takes connections without credentials
  /// into the second, as shared deployments often do.
  static func serverWithAGuestAccount() throws -> NatsServer {
    try NatsServer(
      configuration: """
        accounts {
          APP { jetstream: enabled, users = [ {user: ci, password: secret} ] }
          GUEST { jetstream: enabled, users = [ {user: guest, password: guest} ] }
        }
        no_auth_user: guest

        """)
  }

  /// A credentials file or an authorities' file that is none (a directory, as a
  /// Kubernetes Secret is mounted; a device; an empty file) is refused before connecting,
  /// naming the file and the variable that named it: it was taken, and the connection
  /// made with no credentials, into the account of the server's `no_auth_user`.
  @Test func aCredentialsFileThatIsNoneIsRefusedBeforeConnecting() throws {
    let server = try StreamStoreTests.serverWithAGuestAccount()
    let directory = TemporaryDirectory()
    let empty = directory.file("empty.creds")
    write([], to: empty)
    let journal = directory.file("shipped.journal")
    try writeJournal(journal, events: 100)
    let plain = StreamServer(url: server.url, timeoutMilliseconds: 2000)
    // Without credentials, the server takes the connection (into GUEST).
    _ = try StreamStore(plain)
    for (file, problem) in [
      (directory.path, "it is a directory, not a file"),
      ("/dev/null", "it is a device, not a file"),
      (empty, "it is empty"),
    ] {
      var given = plain
      given.credentialsFile = file
      let refused = #expect(throws: StreamError.self) { try StreamStore(given) }
      #expect(refused?.kind == .authorization)
      #expect(
        refused?.description == "\(server.url): cannot use the credentials file \(file): \(problem)"
      )
      var authorities = plain
      authorities.certificateAuthorityFile = file
      let untrusted = #expect(throws: StreamError.self) { try StreamStore(authorities) }
      #expect(
        untrusted?.message == "cannot use the certificate authorities' file \(file): \(problem)")
      for variable in ["NATS_CREDS", "NATS_CA"] {
        let named = #expect(throws: StreamError.self) {
          try plain.takingEnvironment([variable: file])
        }
        #expect(named?.kind == .authorization)
        #expect(named?.message.hasSuffix("\(file), which \(variable) names: \(problem)") == true)
      }
      // A shipper says so, as settings to fix, and ships nothing.
      let shipper = SessionShipper(journal: journal, server: given, intervalMilliseconds: 50)
      defer { shipper.stop() }
      let waited = #expect(throws: StreamError.self) {
        try shipper.waitUntilForwarded(timeoutMilliseconds: 2000)
      }
      #expect(waited?.message.contains("cannot use the credentials file \(file)") == true)
      #expect(
        waited?.message.contains("once that is fixed") == true, "\(String(describing: waited))")
    }
    // Nothing reached the guest's account.
    let guest = try StreamStore(plain)
    #expect(throws: StreamError.self) { try guest.sessions() }
  }

  /// A journal of 3,000 events (`a.journal` in the directory) pushed to a server of its
  /// own, through a store that answers within 500 ms and tries again for `retrying` ms.
  private func pushedToALocalServer(retrying: Int64) throws -> (
    NatsServer, TemporaryDirectory, StreamStore, String
  ) {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try writeJournal(path, events: 3_000)
    let store = try StreamStore(StreamServer(url: server.url, timeoutMilliseconds: 500))
    store.retryMilliseconds = retrying
    return (server, directory, store, try store.push(path).summary.session.description)
  }

  /// A server that goes in the middle of a pull: the pull tries again for
  /// ``StreamStore/retryMilliseconds``, then fails with an error that names the session
  /// and the frame it was reading (it named a message of the stream), and the journal the
  /// pull would have replaced is as it was.
  @Test func aServerLostInTheMiddleOfAPull() throws {
    let (server, directory, store, id) = try pushedToALocalServer(retrying: 2000)
    let destination = directory.file("pulled.journal")
    write(Array("precious".utf8), to: destination)
    let start = Date()
    let error = try #require(throws: StreamError.self) {
      _ = try store.pull(
        String(id.prefix(8)), to: FileDestination(destination, replacingExisting: true),
        progress: { number, _ in if number == 3 { server.kill() } })
    }
    #expect(error.session == id, "\(error)")
    #expect(error.message.hasPrefix("cannot read frame 3 (stream sequence "), "\(error)")
    #expect(error.message.hasSuffix(", tried again for 2 s"), "\(error)")
    #expect(bytes(of: destination) == Array("precious".utf8))
    #expect(Date().timeIntervalSince(start) < 10)
  }

  /// A reader of a session whose server goes names the frame it could not read as `pull`
  /// does (it said "frame 2: cannot read the frame at stream sequence …").
  @Test func aServerLostWhileReadingASession() throws {
    let (server, _, store, id) = try pushedToALocalServer(retrying: 1000)
    let reader = try store.reader(session: id)
    #expect(reader.frames.count > 3)
    _ = try reader.loadFrame(1)
    server.kill()
    let error = try #require(throws: JournalError.self) {
      _ = try reader.loadFrame(2)
    }
    #expect(
      error.description.hasPrefix("\(server.url)/\(id): cannot read frame 2 (stream sequence "),
      "\(error)")
    #expect(error.description.hasSuffix(", tried again for 1 s"), "\(error)")
  }

  /// A user the server does not permit to read the stream's messages is told so at once:
  /// the request the server refuses to forward goes unanswered, and was tried again for
  /// 30 s, saying only "no answer".
  @Test func aReadTheServerDoesNotPermitIsSaidAtOnce() throws {
    let server = try NatsServer(
      configuration: """
        authorization { users = [
          { user: admin, password: pw }
          { user: limited, password: pw, permissions: {
            publish: { deny: ["$JS.API.STREAM.MSG.GET.REWIND"] } } }
        ] }

        """)
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try writeJournal(path, events: 500)
    let admin = try StreamStore(
      StreamServer(url: server.url, user: "admin", password: "pw", timeoutMilliseconds: 1000))
    let id = try admin.push(path).summary.session.description
    let limited = try StreamStore(
      StreamServer(url: server.url, user: "limited", password: "pw", timeoutMilliseconds: 1000))
    let start = Date()
    let error = try #require(throws: StreamError.self) { try limited.reader(session: id) }
    #expect(error.kind == .authorization, "\(error)")
    #expect(error.message.hasPrefix("cannot read the header: the server does not permit it ("))
    #expect(error.message.contains("Permissions Violation"), "\(error)")
    #expect(Date().timeIntervalSince(start) < 10)
  }

  /// A server restarted in the middle of a pull, as one starts, and in the middle of a
  /// reader's reads: they wait for it, as a push does, and read the session whole (they
  /// failed at the first read while it was down).
  @Test func readsWaitForAServerRestarted() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try writeJournal(path, events: 3_000)
    let file = try JournalReader(path: path)
    let store = try StreamStore(StreamServer(url: server.url, timeoutMilliseconds: 500))
    let id = try store.push(path).summary.session.description
    /// Stops the server, and starts it again a second later, on another thread.
    func restart() {
      server.stop()
      Thread {
        usleep(1_000_000)
        try? server.start()
      }.start()
    }
    let pulled = directory.file("pulled.journal")
    _ = try store.pull(
      id, to: FileDestination(pulled), progress: { number, _ in if number == 3 { restart() } })
    #expect(bytes(of: pulled) == bytes(of: path))

    // A pull that starts while the server restarts: its lookup waits too.
    restart()
    let again = directory.file("again.journal")
    _ = try store.pull(String(id.prefix(8)), to: FileDestination(again))
    #expect(bytes(of: again) == bytes(of: path))

    // A listing while the server restarts waits for it too (it failed at once).
    restart()
    #expect(try store.sessions().map(\.session.description) == [id])

    let remote = try store.reader(session: id)
    restart()
    for index in file.frames.indices {
      var records = try remote.loadFrame(index).records()
      var fileRecords = try file.loadFrame(index).records()
      while let record = try records.next() {
        let other = try #require(try fileRecords.next())
        #expect(record.sequence == other.sequence && Array(record.payload) == Array(other.payload))
      }
    }
  }

  /// A server that goes in the middle of a push: the push tries again for
  /// ``StreamStore/retryMilliseconds``, then says it did, not only that one request
  /// timed out (after 30 s, it said "no answer within 1000 ms").
  @Test func aServerLostInTheMiddleOfAPush() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try writeJournal(path, events: 3_000)
    let store = try StreamStore(StreamServer(url: server.url, timeoutMilliseconds: 500))
    store.retryMilliseconds = 2000
    let start = Date()
    let error = try #require(throws: StreamError.self) {
      _ = try store.push(path, progress: { number, _ in if number == 3 { server.kill() } })
    }
    #expect(error.session == "00010203-0405-0607-0809-0a0b0c0d0e0f")
    #expect(error.message.hasSuffix(", tried again for 2 s"), "\(error)")
    #expect(Date().timeIntervalSince(start) < 10)
  }
}

@Suite(.serialized, .timeLimit(.minutes(3)))
struct StreamReaderTests {
  /// A reader of a session on the server reads what a reader of the file reads, and
  /// fetches only the frames it reads: the state at an event takes one message.
  @Test func readsLikeTheFileFetchingOnlyWhatItReads() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try writeJournal(path, events: 20_000)
    let store = try StreamStore(StreamServer(url: server.url))
    let pushed = try store.push(path)
    let file = try JournalReader(path: path)
    #expect(file.frames.count > 100)

    let remote = try store.reader(session: pushed.summary.session.description)
    #expect(store.framesFetched == 0)
    #expect(remote.header == file.header)
    #expect(remote.frames == file.frames)
    #expect(remote.condition.isClosed)

    var random = SplitMix64(seed: testSeed("readsLikeTheFile"))
    for round in 1...100 {
      let sequence = UInt64.random(in: 1...file.recordCount, using: &random)
      let before = store.framesFetched
      let start = try remote.startingPoint(for: sequence)
      let expected = try file.startingPoint(for: sequence)
      #expect(start.frameIndex == expected.frameIndex)
      #expect(start.snapshot == expected.snapshot)
      let index = try #require(remote.frameIndex(containing: sequence))
      var records = try remote.loadFrame(index).records()
      var fileRecords = try file.loadFrame(index).records()
      while let record = try records.next() {
        let other = try #require(try fileRecords.next())
        #expect(record.sequence == other.sequence && record.time == other.time)
        #expect(Array(record.payload) == Array(other.payload))
      }
      #expect(try fileRecords.next() == nil)
      #expect(store.framesFetched - before <= 1, "round \(round): event \(sequence)")
    }
  }

  @Test func sessionURLs() {
    let plain = StreamStore.sessionURL("nats://127.0.0.1:4222/6f0c")
    #expect(plain?.server.url == "nats://127.0.0.1:4222")
    #expect(plain?.session == "6f0c")
    #expect(plain?.server.user == nil)
    let secret = StreamStore.sessionURL("tls://ops:pa:ss@host:4443/abc")
    #expect(secret?.server.url == "tls://host:4443")
    #expect(secret?.server.user == "ops")
    #expect(secret?.server.password == "pa:ss")
    #expect(StreamStore.sessionURL("nats://host:4222") == nil)
    #expect(StreamStore.sessionURL("nats://host:4222/") == nil)
    #expect(StreamStore.sessionURL("Journals/a.journal") == nil)
    #expect(StreamStore.sessionURL("nats://host/a/b") == nil)
    // A password with a slash or an `@`, as typed (not decoded, as --server's is not); a
    // point's `@` after the id.
    let slashed = StreamStore.sessionURL("nats://alice:s3cr/t@127.0.0.1:4222/bdc2")
    #expect(slashed?.server.url == "nats://127.0.0.1:4222")
    #expect(slashed?.server.user == "alice")
    #expect(slashed?.server.password == "s3cr/t")
    #expect(slashed?.session == "bdc2")
    let written = StreamStore.sessionURL("nats://al%69ce:s3@cr%2F/t@host:1/ab@+5s")
    #expect(written?.server.url == "nats://host:1")
    #expect(written?.server.user == "al%69ce")
    #expect(written?.server.password == "s3@cr%2F/t")
    #expect(written?.session == "ab@+5s")
    // No session id after the host: a password's slash and `@` are no path, and a path
    // that is no id (hex digits and dashes) is no session.
    let noSession = "nats://rewind:pa/s@s3cr@127.0.0.1:15222"
    #expect(StreamStore.sessionURL(noSession) == nil)
    #expect(StreamStore.displayName(noSession) == "nats://rewind:***@127.0.0.1:15222")
    #expect(StreamStore.sessionURL("nats://host:1/xyz") == nil)
    #expect(StreamStore.sessionURL("nats://host:1/B15EEE87-ed8a@5")?.session == "B15EEE87-ed8a@5")
    // A cluster's nodes, separated by commas as --server takes them: the credentials given
    // with one address, or the same with each; different ones are no session's URL.
    let cluster = StreamStore.sessionURL("nats://ci:pw@h1:1,nats://h2:2,h3:3/bdc2")
    #expect(cluster?.server.url == "nats://h1:1,nats://h2:2,h3:3")
    #expect(cluster?.server.user == "ci")
    #expect(cluster?.server.password == "pw")
    #expect(cluster?.session == "bdc2")
    let each = StreamStore.sessionURL("tls://ci:p/w@h1:1,tls://ci:p/w@h2:2/bdc2@end")
    #expect(each?.server.url == "tls://h1:1,tls://h2:2")
    #expect(each?.server.password == "p/w")
    #expect(each?.session == "bdc2@end")
    #expect(StreamStore.sessionURL("nats://a:1@h1:1,nats://b:2@h2:2/bdc2") == nil)
    #expect(StreamStore.sessionURL("nats://h1:1,h2/x:2/bdc2") == nil)
    #expect(
      StreamStore.displayName("nats://ci:pw@h1:1,nats://h2:2/bdc2")
        == "nats://h1:1,nats://h2:2/bdc2")
  }
}

@Suite struct ServerAddressTests {
  /// Each address of a server's URL is checked before the client library sees it: a
  /// space crashed it, and it took a port out of range or another scheme for a server
  /// that does not answer.
  @Test func addressesAreCheckedBeforeConnecting() throws {
    let good = [
      "nats://127.0.0.1:4222", "tls://host.example:4443", "nats://ops:pa:ss@host:4222",
      "localhost:4222", "localhost", "nats://[::1]:4222", "NATS://a-b_c.d:1",
      " nats://a:1 , nats://b:65535 ",
    ]
    for url in good {
      #expect(StreamServer(url: url).addressProblem == nil, "\(url)")
    }
    let bad: [(String, String)] = [
      ("", "an empty server address"),
      (" ", "an empty server address"),
      ("nats://a:1,", "entry 2 of the list: an empty server address"),
      ("nats://a:1,nats://b:0", "nats://b:0: the port 0 is not a number from 1 to 65535"),
      ("nats://a:65536", "the port 65536 is not a number from 1 to 65535"),
      ("nats://a:+1", "the port +1 is not a number from 1 to 65535"),
      ("nats://a:", "the port after the colon is empty"),
      ("ws://a:1", "the scheme is ws, not nats or tls"),
      ("://a:1", "the scheme is empty, not nats or tls"),
      ("nats://", "no host (nats://HOST:PORT)"),
      ("nats://u:p@:1", "no host (nats://HOST:PORT)"),
      ("nats://a b:1", "the host has a character a host name cannot have: ' '"),
      ("nats://a\u{1B}b:1", "the host has a character a host name cannot have: U+1B"),
      ("nats://[::1", "the IPv6 address has no closing ]"),
      ("nats://[::1]4222", "\"4222\" follows the IPv6 address, where only a colon and a port may"),
      ("nats://[g::1]:1", "the IPv6 address has a character it cannot have: 'g'"),
      ("nats://[]:1", "no host (nats://HOST:PORT)"),
    ]
    for (url, problem) in bad {
      #expect(StreamServer(url: url).addressProblem == problem, "\(url)")
      let error = try #require(throws: StreamError.self) {
        try StreamStore(StreamServer(url: url, timeoutMilliseconds: 100))
      }
      #expect(error.kind == .invalidAddress, "\(url): \(error)")
      #expect(error.message == problem)
    }
  }

  /// libnats' messages lose the place in its sources they start with.
  @Test func libraryMessagesWithoutTheirSourceLocation() {
    #expect(
      NatsConnection.withoutSourceLocation(
        "(opts.c:380): Error loading trusted certificates 'x': no certificate or crl found")
        == "Error loading trusted certificates 'x': no certificate or crl found")
    for kept in ["(a): b", "(opts.c:x): b", "opts.c:380: b", "(opts.c:380) b", "(x.h:1): b"] {
      #expect(NatsConnection.withoutSourceLocation(kept) == kept)
    }
  }

  /// A password in a server's URL is `***` wherever the server is named, and so is a
  /// user without a password, which libnats sends as a token (it was shown).
  @Test func passwordsAreNeverShown() throws {
    #expect(
      StreamServer(url: "nats://ops:pa:ss@host:1, tls://u@h:2,nats://v:w@h:3").displayURL
        == "nats://ops:***@host:1,tls://***@h:2,nats://v:***@h:3")
    #expect(StreamServer(url: "nats://host:1").displayURL == "nats://host:1")
    let error = try #require(throws: StreamError.self) {
      try StreamStore(StreamServer(url: "nats://ops:secret@host:0"))
    }
    #expect(error.server == "nats://ops:***@host:0")
    #expect(!error.description.contains("secret"))
  }
}

@Suite("Session URLs in messages")
struct SessionURLMessageTests {
  @Test("every server URL in a text has its password masked, the rest kept")
  func maskingPasswords() {
    let cases: [(String, String)] = [
      (
        "nats://u:p@127.0.0.1:4222/abc: no such session",
        "nats://u:***@127.0.0.1:4222/abc: no such session"
      ),
      ("see tls://me@host:1/s and nats://a:b@c:2", "see tls://me@host:1/s and nats://a:***@c:2"),
      ("nats://u:p@h1:1,nats://v:q@h2:2/s", "nats://u:***@h1:1,nats://v:***@h2:2/s"),
      ("with @ in it: nats://u:p@ss@h:1/s", "with @ in it: nats://u:***@h:1/s"),
      ("'nats://u:p@h:1' quoted", "'nats://u:***@h:1' quoted"),
      ("nats://h:1/s@end and mail@example.com", "nats://h:1/s@end and mail@example.com"),
      ("no URL: a@b.journal, x://u:p@h", "no URL: a@b.journal, x://u:p@h"),
      ("nats://u:p@[::1]:4222/s", "nats://u:***@[::1]:4222/s"),
      // A password may hold a slash: the credentials end at the last @ a slash follows.
      ("nats://u:pa/ss@h:1/s is neither", "nats://u:***@h:1/s is neither"),
      ("nats://u:p/q@h:1/s@end", "nats://u:***@h:1/s@end"),
      // And an `@` too, with no session after the host.
      ("nats://u:pa/s@x@h:1 failed", "nats://u:***@h:1 failed"),
      ("nats://u:pa/s@x@[::1]:4222", "nats://u:***@[::1]:4222"),
      (
        "nats://[USER:PASSWORD@]HOST:PORT/SESSION-ID, nats://[::1]:4222",
        "nats://[USER:PASSWORD@]HOST:PORT/SESSION-ID, nats://[::1]:4222"
      ),
      ("nats://", "nats://"),
      ("", ""),
    ]
    for (text, expected) in cases {
      #expect(StreamStore.maskingPasswords(in: text) == expected, "\(text)")
    }
    #expect(StreamStore.displayName("nats://u:p@h:1/abc") == "nats://h:1/abc")
    #expect(StreamStore.displayName("tls://u@h:1/abc") == "tls://h:1/abc")
    #expect(StreamStore.displayName("dir/s.journal") == "dir/s.journal")
    #expect(StreamStore.displayName("nats://u:p@h:1") == "nats://u:***@h:1")
  }

  /// NATS_CREDS and NATS_CA give the files a server has none of; an option's file wins, an
  /// empty variable names none, and a file that cannot be read is said with its variable.
  @Test func theEnvironmentNamesTheFilesTheOptionsDoNot() throws {
    let directory = TemporaryDirectory()
    let readable = directory.file("ca.pem")
    write("not read here", to: readable)
    let plain = StreamServer(url: "tls://127.0.0.1:4443")
    let taken = try plain.takingEnvironment(["NATS_CA": readable, "NATS_CREDS": readable])
    #expect(taken.certificateAuthorityFile == readable)
    #expect(taken.credentialsFile == readable)
    #expect(try plain.takingEnvironment(["NATS_CA": "", "NATS_CREDS": ""]) == plain)
    #expect(try plain.takingEnvironment([:]) == plain)
    var given = plain
    given.certificateAuthorityFile = "/given/ca.pem"
    given.credentialsFile = "/given/user.creds"
    #expect(try given.takingEnvironment(["NATS_CA": "/nope", "NATS_CREDS": "/nope"]) == given)
    for variable in ["NATS_CA", "NATS_CREDS"] {
      let error = #expect(throws: StreamError.self) {
        try plain.takingEnvironment([variable: directory.file("missing")])
      }
      #expect(error?.kind == .authorization)
      #expect(
        error?.description.hasSuffix(
          "cannot use \(variable == "NATS_CA" ? "the certificate authorities' file" : "the credentials file") \(directory.file("missing")), which \(variable) names: no such file"
        )
          == true, "\(String(describing: error))")
    }
  }
}
