import Foundation
import RewindJournal
import TestSupport
import Testing

@testable import RewindStream

/// What an operator reads of a store: the frames a push counts, the sessions a beginning
/// matches, the error of a frame never acknowledged, and the server's name and
/// credentials as the connection uses them.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct StreamStoreOperatorTests {
  /// Frames another push of the session stored after this one read the server (the
  /// server drops this push's copies as duplicates, by their message ids) are counted as
  /// found, not sent: three pushes of one journal at once each said they sent nearly
  /// every frame.
  @Test func framesAnotherPushStoredMeanwhileAreFoundNotSent() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    let partial = directory.file("partial.journal")
    try writeJournal(path, events: 3_000, copyAfter: (1_000, partial))
    let frames = try JournalReader(path: path).frames.count
    // This store pushes the first frames, and knows the server to hold only those.
    let late = try StreamStore(StreamServer(url: server.url))
    let first = try late.push(partial, after: nil)
    // Another stores the rest meanwhile.
    let other = try StreamStore(StreamServer(url: server.url)).push(path)
    #expect(other.framesFound == first.report.framesSent)
    #expect(other.framesSent == frames - first.report.framesSent)
    // This store sends the rest again: every one a duplicate.
    let next = try late.push(path, after: first.position)
    #expect(next.report.framesSent == 0)
    #expect(next.report.framesFound == frames)
    #expect(next.report.summary == other.summary)
    #expect(try late.storedMessages(of: next.report.summary).count == frames + 1)
  }

  /// A beginning that more than one session's id starts with: the error names them, the
  /// first few in order and how many more.
  @Test func aBeginningSeveralSessionsShareNamesThem() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let store = try StreamStore(StreamServer(url: server.url))
    // Ids 00010203-…, 01020304-…, …: each starts with 0.
    var ids: [String] = []
    for id in 0..<8 {
      let path = directory.file("\(id).journal")
      try writeJournal(path, events: 20, id: UInt8(id))
      ids.append(try store.push(path).summary.session.description)
    }
    let many = try #require(throws: StreamError.self) { try store.summary(of: "0") }
    #expect(many.kind == .sessionMissing)
    #expect(
      many.message
        == "more than one session starts with 0 (\(ids.prefix(5).joined(separator: ", ")), and 3 more); give more of the id"
    )
    // One session's beginning is still that session.
    #expect(try store.summary(of: "01").session.description == ids[1])
  }

  /// A frame the server does not acknowledge within the timeout is sent whole again, so
  /// on a link too slow to carry it within the timeout no try gets through: the error
  /// says that a slow link may need a longer timeout (it said "no answer" alone). The
  /// server stopped (SIGSTOP) stands for the slow link.
  @Test func aFrameNeverAcknowledgedSaysASlowLinkMayNeedALongerTimeout() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try writeJournal(path, events: 3_000)
    let reader = try StreamStore.pushable(path)
    let store = try StreamStore(StreamServer(url: server.url, timeoutMilliseconds: 300))
    store.retryMilliseconds = 1000
    var stuck: Int?
    let error = try withExtendedLifetime(store) {
      // The store is closed once the server goes on and has answered what it was sent
      // (libnats 3.4 was seen to hang closing a connection whose late answers came in).
      defer {
        if stuck != nil {
          server.resume()
          _ = store.connection.serverAnswers()
        }
      }
      return try #require(throws: StreamError.self) {
        try store.push(checked: reader) { number, _ in
          guard number == 1, stuck == nil else { return }
          server.pause()
          stuck = (try? reader.frameBytes(number))?.count
        }
      }
    }
    #expect(error.kind == .timeout)
    #expect(
      error.message.hasSuffix(
        "no answer within 300 ms, tried again for 1 s; on a slow link, a longer --timeout may get it through: each try sends the whole message (\(stuck ?? 0) bytes) again, and must be acknowledged within the timeout"
      ), "\(error)")
  }

  /// An address without a port is named with the one the connection uses, 4222, in every
  /// message; one with a port, or that is no address, as it is given.
  @Test func anAddressWithoutAPortIsNamedWithIt() throws {
    let cases: [(String, String)] = [
      ("nats://127.0.0.1", "nats://127.0.0.1:4222"),
      ("tls://ops:secret@host.example", "tls://ops:***@host.example:4222"),
      ("localhost", "localhost:4222"),
      ("nats://[::1]", "nats://[::1]:4222"),
      (" nats://a:1 , nats://b ", "nats://a:1,nats://b:4222"),
      ("nats://host:1", "nats://host:1"),
      ("nats://ops:secret@host:0", "nats://ops:***@host:0"),
      ("nats://host/path", "nats://host/path"),
    ]
    for (url, shown) in cases {
      #expect(StreamServer(url: url).displayURL == shown, "\(url)")
    }
  }

  /// A user given (`--user`, or in the URL) wins over the credentials file `NATS_CREDS`
  /// names, which is then not looked at; `NATS_CA` still gives the authorities.
  @Test func aUserGivenWinsOverNATS_CREDS() throws {
    let directory = TemporaryDirectory()
    let readable = directory.file("file.pem")
    write("not read here", to: readable)
    let environment = ["NATS_CREDS": "/nonexistent/user.creds", "NATS_CA": readable]
    for server in [
      StreamServer(url: "tls://127.0.0.1:4443", user: "ops", password: "secret"),
      StreamServer(url: "tls://ops:secret@127.0.0.1:4443"),
      StreamServer(url: "tls://127.0.0.1:4443,tls://ops@127.0.0.1:4444"),
    ] {
      let taken = try server.takingEnvironment(environment)
      #expect(taken.credentialsFile == nil, "\(server.url)")
      #expect(!taken.credentialsFromEnvironment)
      #expect(taken.certificateAuthorityFile == readable)
    }
    let plain = StreamServer(url: "tls://127.0.0.1:4443")
    #expect(throws: StreamError.self) { try plain.takingEnvironment(environment) }
  }
}

/// A stream of another program that takes Rewind's subjects: the push that would create
/// Rewind's stream or buckets names it, with its subjects, and says what to do.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct SubjectOverlapTests {
  @Test func anotherStreamOverRewindsSubjectsIsNamed() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try writeJournal(path, events: 100)
    let store = try StreamStore(StreamServer(url: server.url))
    try store.connection.createStream("AUDIT", subjects: ["rewind.navigation.>", "audit.>"])
    let refused = try #require(throws: StreamError.self) { try store.push(path) }
    #expect(refused.kind == .conflict)
    #expect(
      refused.message
        == "cannot create the stream REWIND: its subjects, rewind.>, overlap those of the stream AUDIT (rewind.navigation.>, audit.>); a subject is kept by one stream only, and Rewind keeps sessions in a stream of its own: take rewind.> out of its subjects (nats stream edit), or delete it if nothing needs it (nats stream rm), then push again",
      "\(refused)")
  }

  @Test func anotherStreamOverABucketsSubjectsIsNamed() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try writeJournal(path, events: 100)
    let store = try StreamStore(StreamServer(url: server.url))
    try store.connection.createStream("MIRROR", subjects: ["$KV.REWIND_INDEX.>"])
    let refused = try #require(throws: StreamError.self) { try store.push(path) }
    #expect(
      refused.message.hasPrefix(
        "cannot create the stream KV_REWIND_INDEX: its subjects, $KV.REWIND_INDEX.>, overlap those of the stream MIRROR ($KV.REWIND_INDEX.>); "
      ), "\(refused)")
  }
}
