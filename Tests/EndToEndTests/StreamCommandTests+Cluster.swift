import Foundation
import TestSupport
import Testing

/// A session read from a cluster: its URL names the nodes, as `--server` does.
extension StreamCommandTests {
  /// `rewind state` of a session whose URL lists a cluster's three nodes, separated by
  /// commas as `--server` takes them, reads it with a node down (killed, listed first):
  /// the state is the journal's. A URL that named one host was the only way, and the
  /// read failed with that node.
  @Test func aSessionURLListsAClustersNodes() throws {
    let ports = (0..<3).map { _ in NatsServer.freePort() }
    let routes = (0..<3).map { _ in NatsServer.freePort() }
    var nodes: [NatsServer] = []
    defer { for node in nodes { node.stop() } }
    for index in 0..<3 {
      let others = (0..<3).filter { $0 != index }.map { "nats://127.0.0.1:\(routes[$0])" }
      nodes.append(
        try NatsServer(
          name: "n\(index + 1)", port: ports[index], cluster: (routes[index], others)))
    }
    let list = nodes.map(\.url).joined(separator: ",")
    let journal = sample("day-menu.journal")
    // The first push creates the stream, replicated three times, once the cluster is up.
    let deadline = Date().addingTimeInterval(60)
    var pushed = try rewind("push", journal, "--server", list, "--replicas", "3")
    while pushed.status != 0, Date() < deadline {
      usleep(500_000)
      pushed = try rewind("push", journal, "--server", list, "--replicas", "3")
    }
    try #require(pushed.status == 0, "\(pushed.stderr)")
    let expected = try rewind("state", journal, "--at", "end")
    try #require(expected.status == 0, "\(expected.stderr)")
    // The node listed first is gone; the other two keep the stream.
    nodes[0].kill()
    let url = "\(list)/bdc215f2"
    let read = try rewind("state", url, "--at", "end")
    #expect(read.status == 0, "\(read.stderr)")
    #expect(read.stdout == expected.stdout)
    // Each node after the first may leave out its scheme, as in --server.
    let bare = nodes.map { "127.0.0.1:\($0.port)" }.joined(separator: ",")
    let short = try rewind("state", "nats://\(bare)/bdc215f2", "--at", "end")
    #expect(short.status == 0, "\(short.stderr)")
    #expect(short.stdout == expected.stdout)
  }
}
