import Foundation
import JournalFixtures
import Navigation
import RewindCore
import RewindJournal
import RewindStream
import TestSupport
import Testing

/// The permissions the README gives Rewind's users on a server with authorization: its
/// `conf` block, used as the server's configuration as it is, lets each user do what the
/// README says it may, and no more.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct PermissionTests {
  /// The README's block of users' permissions (the fenced `conf` block starting with
  /// `# Rewind's users`); nil when it has none.
  static func readmeUsers() throws -> String? {
    let text = try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(where: { $0.hasPrefix("# Rewind's users") }),
      start > 0, lines[start - 1] == "```conf",
      let end = lines[start...].firstIndex(of: "```")
    else { return nil }
    return lines[start..<end].joined(separator: "\n") + "\n"
  }

  /// A server with the README's users, their passwords given as the block expects them.
  static func server() throws -> NatsServer {
    let passwords = """
      REWIND_READER_PASSWORD: "reader-secret"
      REWIND_APP_PASSWORD: "app-secret"
      REWIND_ADMIN_PASSWORD: "admin-secret"

      """
    let users = try #require(try readmeUsers(), "README.md has no ```conf block of Rewind's users")
    return try NatsServer(configuration: passwords + users)
  }

  /// A store connected to `server` as `user` (`rewind-USER`).
  static func store(_ server: NatsServer, as user: String) throws -> StreamStore {
    try StreamStore(
      StreamServer(
        url: server.url, user: "rewind-\(user)", password: "\(user)-secret",
        timeoutMilliseconds: 3000))
  }

  /// What pushing `path` as `store`'s user fails with; nil when it succeeds.
  static func pushError(_ path: String, _ store: StreamStore) -> String? {
    do {
      _ = try store.push(path)
      return nil
    } catch {
      return "\(error)"
    }
  }

  @Test func eachUserDoesWhatTheReadmeSaysAndNoMore() throws {
    let server = try Self.server()
    let directory = TemporaryDirectory()
    let first = directory.file("first.journal")
    let second = directory.file("second.journal")
    try writeJournal(first, events: 600, id: 1)
    try writeJournal(second, events: 600, id: 2)

    // The app's user does not create the stream: the first push is the administrator's.
    let app = try Self.store(server, as: "app")
    let refused = try #require(Self.pushError(first, app))
    #expect(
      refused.contains("cannot create the stream REWIND: the server does not permit it")
        && refused.contains("$JS.API.STREAM.CREATE.REWIND"), "\(refused)")
    let admin = try Self.store(server, as: "admin")
    let created = try admin.push(first)
    #expect(created.framesSent == created.summary.frameCount)

    // The app pushes (again: nothing sent) and ships.
    let pushed = try app.push(second)
    #expect(pushed.framesSent == pushed.summary.frameCount && pushed.framesSent > 1)
    #expect(try app.push(second).framesSent == 0)
    let live = directory.file("live.journal")
    let shipper = SessionShipper(
      server: StreamServer(
        url: server.url, user: "rewind-app", password: "app-secret", timeoutMilliseconds: 3000),
      intervalMilliseconds: 100)
    defer { shipper.stop() }
    let recording = try shippedStore(live, shipper)
    var user = SimulatedUser(seed: 3, domain: recording.domain)
    for _ in 0..<1_000 { recording.send(user.next().event) }
    try recording.close()
    #expect(shipper.waitUntilShipped(timeoutMilliseconds: 20_000), "\(shipper.lastError ?? "")")

    // The reader lists and pulls every session, and pushes none.
    let reader = try Self.store(server, as: "reader")
    let ids = try reader.sessions().map(\.session.description)
    let journals = [first, second, live]
    let expected = try journals.map { try JournalReader(path: $0).header.sessionID.description }
    #expect(Set(ids) == Set(expected))
    for (path, id) in zip(journals, expected) {
      let pulled = directory.file("pulled-\(id).journal")
      _ = try reader.pull(id, to: FileDestination(pulled))
      #expect(bytes(of: pulled) == bytes(of: path), "\(path)")
    }
    let third = directory.file("third.journal")
    try writeJournal(third, events: 100, id: 3)
    let readOnly = try #require(Self.pushError(third, reader))
    #expect(
      readOnly.contains("the server does not permit it (Permissions Violation"), "\(readOnly)")
    #expect(try reader.sessions().count == 3)
  }
}
