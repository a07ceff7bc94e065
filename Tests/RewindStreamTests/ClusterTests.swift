import Foundation
import JournalFixtures
import RewindJournal
import RewindStream
import TestSupport
import Testing

/// Three nodes, the stream replicated three times: the node leading the stream is killed
/// (SIGKILL) in the middle of a push.
@Suite(.serialized, .timeLimit(.minutes(4)))
struct ClusterTests {
  /// Starts three clustered nodes `n1`…`n3` on free loopback ports.
  static func cluster() throws -> [String: NatsServer] {
    let ports = (0..<3).map { _ in NatsServer.freePort() }
    let routes = (0..<3).map { _ in NatsServer.freePort() }
    var nodes: [String: NatsServer] = [:]
    for index in 0..<3 {
      let others = (0..<3).filter { $0 != index }.map { "nats://127.0.0.1:\(routes[$0])" }
      nodes["n\(index + 1)"] = try NatsServer(
        name: "n\(index + 1)", port: ports[index], cluster: (routes[index], others))
    }
    return nodes
  }

  @Test func aPushOutlivesTheLeadersDeath() throws {
    let nodes = try ClusterTests.cluster()
    let url = nodes.values.map(\.url).sorted().joined(separator: ",")
    let server = StreamServer(url: url, timeoutMilliseconds: 2000, replicas: 3)
    let directory = TemporaryDirectory()

    // The cluster is ready once a first push (which creates the stream, R3) succeeds.
    let first = directory.file("first.journal")
    try writeJournal(first, events: 100, id: 100)
    let deadline = Date().addingTimeInterval(60)
    var ready = false
    while !ready, Date() < deadline {
      if let store = try? StreamStore(server), (try? store.push(first)) != nil { ready = true }
      if !ready { usleep(250_000) }
    }
    try #require(ready, "the cluster did not take a push within 60 s")

    let path = directory.file("a.journal")
    try writeJournal(path, events: 40_000)
    let reader = try JournalReader(path: path)
    let store = try StreamStore(server)
    let observer = try StreamStore(server)
    var killed: String?
    let report = try store.push(path) { number, total in
      guard killed == nil, number == total / 3 else { return }
      if let leader = try? observer.streamLeader(), let node = nodes[leader] {
        node.kill()
        killed = leader
      }
    }
    #expect(killed != nil, "no leader was found to kill")
    #expect(report.summary.frameCount == reader.frames.count)
    #expect(report.summary.isClosed)

    // Every frame exactly once, and the session pulled back is the journal.
    let reading = try StreamStore(server)
    let summary = try reading.summary(of: report.summary.session.description)
    let messages = try reading.storedMessages(of: summary)
    #expect(messages.count == reader.frames.count + 1)
    #expect(Set(messages.map(\.id)).count == messages.count)
    let pulled = directory.file("pulled.journal")
    _ = try reading.pull(summary.session.description, to: FileDestination(pulled))
    #expect(bytes(of: pulled) == bytes(of: path))
  }
}
