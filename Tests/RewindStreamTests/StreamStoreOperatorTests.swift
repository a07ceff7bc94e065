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
}
