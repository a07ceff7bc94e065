import Foundation
import Navigation
import RewindCore
import RewindJournal
import RewindStream
import TestSupport
import Testing

/// Store and forward: a Store records while its journal is shipped, the server stopped
/// and started again meanwhile.
///
/// Synchronous, as ClusterTests' live test is: an `await` gives the test's thread back to
/// the cooperative pool, which a full suite's synchronous tests can hold for as long as
/// they run, all counted in this suite's time limit. The async flush is StoreTests'.
/// A store recording navigation to `path` in small frames (a snapshot every 64 events,
/// frames of 1 KiB), whose frames `shipper` ships.
func shippedStore(_ path: String, _ shipper: SessionShipper) throws -> Store<NavigationDomain> {
  try Store(
    domain: NavigationDomain(), recordingTo: path,
    options: RecordingOptions(
      snapshotInterval: 64, journal: JournalWriterOptions(frameSize: 1024), forwarder: shipper))
}

@Suite(.serialized, .timeLimit(.minutes(3)))
struct ShipperTests {
  @Test func aRecordingShippedAcrossAServerRestartEndsEqual() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("live.journal")
    let store = try Store(
      domain: NavigationDomain(), recordingTo: path,
      options: RecordingOptions(
        snapshotInterval: 64, journal: JournalWriterOptions(frameSize: 1024)))
    let shipper = SessionShipper(
      journal: path, server: StreamServer(url: server.url, timeoutMilliseconds: 1000),
      intervalMilliseconds: 100)
    defer { shipper.stop() }
    var user = SimulatedUser(seed: 7, domain: store.domain)
    func record(_ count: Int) throws {
      for _ in 0..<count { store.send(user.next().event) }
      try store.flushAndWait()
    }

    try record(2_000)
    #expect(shipper.waitUntilShipped(timeoutMilliseconds: 20_000), "\(shipper.lastError ?? "")")
    let before = shipper.framesOnServer
    #expect(before > 5)

    // The server goes away: recording goes on, rounds fail.
    server.stop()
    try record(2_000)
    #expect(!shipper.waitUntilShipped(timeoutMilliseconds: 500))
    let deadline = Date().addingTimeInterval(15)
    while shipper.lastError == nil, Date() < deadline { usleep(20_000) }
    #expect(shipper.lastError != nil, "no round failed while the server was away")
    #expect(store.lastError == nil)

    // Back: what was recorded meanwhile is sent.
    try server.start()
    try record(1_000)
    #expect(shipper.waitUntilShipped(timeoutMilliseconds: 30_000), "\(shipper.lastError ?? "")")
    #expect(shipper.framesOnServer > before)

    try store.close()
    #expect(shipper.waitUntilShipped(timeoutMilliseconds: 20_000), "\(shipper.lastError ?? "")")
    let reading = try StreamStore(StreamServer(url: server.url))
    let id = try JournalReader(path: path).header.sessionID.description
    let summary = try reading.summary(of: id)
    #expect(summary.isClosed)
    let messages = try reading.storedMessages(of: summary)
    #expect(Set(messages.map(\.id)).count == messages.count)
    let pulled = directory.file("pulled.journal")
    _ = try reading.pull(id, to: FileDestination(pulled))
    #expect(bytes(of: pulled) == bytes(of: path))
  }

  /// The server killed while a store records: the first flush that times out already
  /// has the shipper's reason (`lastError`, and the flush's "last attempt"). The round
  /// under way waited for its request's whole timeout before (5 s here), and tried again,
  /// so that three flushes of 2 s had neither.
  @Test func theFirstFlushAfterAServerIsKilledSaysWhy() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("live.journal")
    let shipper = SessionShipper(server: StreamServer(url: server.url), intervalMilliseconds: 100)
    defer { shipper.stop() }
    let store = try shippedStore(path, shipper)
    var user = SimulatedUser(seed: 11, domain: store.domain)
    for _ in 0..<2_000 { store.send(user.next().event) }
    try store.flushAndWait(waitingForServerWithin: 20_000)
    #expect(shipper.lastError == nil)

    server.kill()
    for _ in 0..<2_000 { store.send(user.next().event) }
    let start = Date()
    let error = #expect(throws: (any Error).self) {
      try store.flushAndWait(waitingForServerWithin: 2000)
    }
    #expect(Date().timeIntervalSince(start) < 10)
    let said = "\(error.map { "\($0)" } ?? "")"
    #expect(said.contains("(last attempt: \(server.url): "), "\(said)")
    #expect(shipper.lastError != nil, "\(said)")
    #expect(said.contains("it is sent when the server is back"), "\(said)")
    try store.close()
  }

  /// A shipper's rounds run on a thread of its own, not on Dispatch's global queues:
  /// while their threads are all busy computing, it still ships at once, and ``stop()``
  /// returns at once (it waited for the pool before, 10 s here).
  @Test func aShipperNeitherShipsNorStopsLateWhileTheGlobalQueuesAreBusy() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("busy.journal")
    try writeJournal(path, events: 2_000)
    let busy = SpinningGlobalQueues(seconds: 10)
    defer { busy.stop() }
    let started = Date()
    let shipper = SessionShipper(
      journal: path, server: StreamServer(url: server.url, timeoutMilliseconds: 1000))
    #expect(shipper.waitUntilShipped(timeoutMilliseconds: 5_000), "\(shipper.lastError ?? "")")
    shipper.stop()
    let idle = SessionShipper(server: StreamServer(url: server.url))
    idle.stop()
    #expect(Date().timeIntervalSince(started) < 6)
  }

  /// Shipping as an option of the recording: the store's writer tells the shipper of
  /// durable frames, and a flush can wait for the server.
  @Test func aStoreRecordingStraightToTheServerAcrossARestartEndsEqual() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("fleet.journal")
    let shipper = SessionShipper(
      server: StreamServer(url: server.url, timeoutMilliseconds: 1000),
      intervalMilliseconds: 100)
    defer { shipper.stop() }
    let store = try shippedStore(path, shipper)
    // The writer thread tells the shipper of the journal as it starts.
    let told = Date().addingTimeInterval(10)
    while shipper.journal == nil, Date() < told { usleep(10_000) }
    #expect(shipper.journal == path)
    var user = SimulatedUser(seed: 11, domain: store.domain)
    func send(_ count: Int) {
      for _ in 0..<count { store.send(user.next().event) }
    }

    send(2_000)
    try store.flushAndWait(waitingForServerWithin: 20_000)
    let before = shipper.framesOnServer
    #expect(before > 5)

    // The server goes away: recording and local flushes go on; a flush waiting for the
    // server fails within its timeout, saying so, with the events durable locally.
    server.stop()
    send(2_000)
    let started = Date()
    do {
      try store.flushAndWait(waitingForServerWithin: 1_500)
      Issue.record("a flush waiting for a stopped server succeeded")
    } catch let error as RewindError {
      #expect(error.code == .recording)
      #expect("\(error)".contains("not acknowledged"), "\(error)")
    }
    #expect(Date().timeIntervalSince(started) < 10)
    try store.flushAndWait()
    #expect(store.lastError == nil)
    send(1_000)

    // Back: what was recorded meanwhile is sent, once.
    try server.start()
    send(1_000)
    try store.flushAndWait(waitingForServerWithin: 30_000)
    #expect(shipper.framesOnServer > before)

    try store.close()
    try shipper.waitUntilForwarded(timeoutMilliseconds: 20_000)
    let reading = try StreamStore(StreamServer(url: server.url))
    let id = try JournalReader(path: path).header.sessionID.description
    let summary = try reading.summary(of: id)
    #expect(summary.isClosed)
    let messages = try reading.storedMessages(of: summary)
    #expect(Set(messages.map(\.id)).count == messages.count)
    let pulled = directory.file("pulled.journal")
    _ = try reading.pull(id, to: FileDestination(pulled))
    #expect(bytes(of: pulled) == bytes(of: path))
  }

  /// A store continuing a journal with a forwarder: the server first gets what it lacks
  /// (here the frames recorded after a push, the journal left not closed), then what
  /// the store records; it ends equal to the local journal, nothing twice.
  @Test func aStoreContinuingAnUnclosedJournalShipsWhatTheServerLacks() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("unclosed.journal")
    let domain = NavigationDomain()
    var user = SimulatedUser(seed: 17, domain: domain)
    do {
      let recorder = try JournalRecorder.create(
        at: path, domain: domain,
        session: SessionInfo(startTime: 1_764_500_000_000_000, device: "test"),
        options: RecordingOptions(
          snapshotInterval: 64, journal: JournalWriterOptions(frameSize: 1024)))
      for _ in 0..<1_500 {
        let (time, event) = user.next()
        try recorder.record(event, at: time)
      }
      try recorder.flush()
      _ = try StreamStore(StreamServer(url: server.url)).push(path)
      for _ in 0..<1_500 {
        let (time, event) = user.next()
        try recorder.record(event, at: time)
      }
      try recorder.flush()
      // Dropped without closing, as a recording whose process ended.
    }
    let local = try JournalReader(path: path)
    #expect(!local.condition.isClosed)
    try expectContinuedAndShipped(path, server, lacking: local)
  }

  /// A closed journal continued with a forwarder, the server lacking what was recorded
  /// while it was away before the close.
  @Test func aStoreContinuingAClosedJournalShipsWhatTheServerLacks() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = directory.file("closed.journal")
    do {
      let shipper = SessionShipper(
        server: StreamServer(url: server.url, timeoutMilliseconds: 1000),
        intervalMilliseconds: 100)
      defer { shipper.stop() }
      let store = try shippedStore(path, shipper)
      var user = SimulatedUser(seed: 19, domain: store.domain)
      for _ in 0..<1_500 { store.send(user.next().event) }
      try store.flushAndWait(waitingForServerWithin: 20_000)
      server.stop()
      for _ in 0..<1_500 { store.send(user.next().event) }
      try store.close()
    }
    try server.start()
    let local = try JournalReader(path: path)
    #expect(local.condition.isClosed)
    try expectContinuedAndShipped(path, server, lacking: local)
  }

  /// One shipper for the stores an app opens one after another: each session reaches the
  /// server (the second was never shipped, while the flushes waiting for the server and
  /// `waitUntilForwarded` said it was); a stopped shipper says so at once (a flush waited
  /// its whole timeout and promised a later send).
  @Test func oneShipperShipsTheSessionsOfStoresOneAfterAnother() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let shipper = SessionShipper(
      server: StreamServer(url: server.url, timeoutMilliseconds: 1000), intervalMilliseconds: 100)
    var paths: [String] = []
    for session in 1...2 {
      let path = directory.file("session-\(session).journal")
      paths.append(path)
      let store = try Store(
        domain: NavigationDomain(), recordingTo: path,
        options: RecordingOptions(
          journal: JournalWriterOptions(frameSize: 1024), forwarder: shipper))
      var user = SimulatedUser(seed: UInt64(30 + session), domain: store.domain)
      for _ in 0..<1_000 { store.send(user.next().event) }
      try store.flushAndWait(waitingForServerWithin: 20_000)
      try store.close()
      try shipper.waitUntilForwarded(timeoutMilliseconds: 20_000)
      #expect(shipper.journal == path)
    }
    let reading = try StreamStore(StreamServer(url: server.url))
    for path in paths {
      let id = try JournalReader(path: path).header.sessionID.description
      let summary = try reading.summary(of: id)
      #expect(summary.isClosed, "\(path)")
      let pulled = path + ".pulled"
      _ = try reading.pull(id, to: FileDestination(pulled))
      #expect(bytes(of: pulled) == bytes(of: path), "\(path)")
    }
    shipper.stop()
    let started = Date()
    #expect {
      try shipper.waitUntilForwarded(timeoutMilliseconds: 5_000)
    } throws: { error in
      "\(error)".hasSuffix("the shipper was stopped: it sends nothing more")
    }
    #expect(Date().timeIntervalSince(started) < 1)
  }

  /// A long recording shipped a frame a round: each round sends the new frame and reads
  /// back its acknowledgements, not the session's index and header (a round read them
  /// whole, and the bytes the server sent grew with the square of the frames).
  @Test func aShippingRoundReadsBackItsAcknowledgementsNotTheSession() throws {
    let server = try NatsServer(monitoring: true)
    let directory = TemporaryDirectory()
    let path = directory.file("long.journal")
    let shipper = SessionShipper(
      server: StreamServer(url: server.url, timeoutMilliseconds: 1000), intervalMilliseconds: 100)
    defer { shipper.stop() }
    let store = try Store(
      domain: NavigationDomain(), recordingTo: path,
      options: RecordingOptions(
        journal: JournalWriterOptions(frameSize: 1024), forwarder: shipper))
    var user = SimulatedUser(seed: 19, domain: store.domain)
    let rounds = 600
    for _ in 0..<rounds {
      for _ in 0..<20 { store.send(user.next().event) }
      try store.flushAndWait(waitingForServerWithin: 20_000)
    }
    try store.close()
    try shipper.waitUntilForwarded(timeoutMilliseconds: 20_000)
    let traffic = try server.traffic()
    let frames = try JournalReader(path: path).frames.count
    #expect(frames >= rounds)
    // A round's acknowledgements (of its frame, its index value, the summary) are about
    // 120 bytes; a round that read the index whole read 48 bytes a frame shipped by then
    // (12 MB in all here).
    #expect(
      traffic.sent < frames * 1_000,
      "the server sent \(traffic.sent) bytes (received \(traffic.received)) to ship \(frames) frames"
    )
    let reading = try StreamStore(StreamServer(url: server.url))
    let id = try JournalReader(path: path).header.sessionID.description
    #expect(try reading.summary(of: id).isClosed)
    let pulled = directory.file("pulled.journal")
    _ = try reading.pull(id, to: FileDestination(pulled))
    #expect(bytes(of: pulled) == bytes(of: path))
  }

  /// Settings no round overcomes (here an address that is none) are said to need fixing,
  /// not promised a send when the server is back.
  @Test func aShipperWithWrongSettingsSaysTheyNeedFixing() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("wrong.journal")
    try writeJournal(path, events: 200)
    let shipper = SessionShipper(
      journal: path, server: StreamServer(url: "nats://127.0.0.1:99999"), intervalMilliseconds: 50)
    defer { shipper.stop() }
    #expect {
      try shipper.waitUntilForwarded(timeoutMilliseconds: 500)
    } throws: { error in
      let text = "\(error)"
      return text.contains(
        "(last attempt: nats://127.0.0.1:99999: the port 99999 is not a number from 1 to 65535)")
        && text.hasSuffix("; it is sent once that is fixed (the shipper tries again every 50 ms)")
    }
  }

  /// Continues `path` with a shipper to `server`, which holds part of `local` only:
  /// checks that the server gets the rest before anything is recorded, then records,
  /// closes, and checks that the session on the server is the journal.
  private func expectContinuedAndShipped(
    _ path: String, _ server: NatsServer, lacking local: JournalReader,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let reading = try StreamStore(StreamServer(url: server.url))
    let id = local.header.sessionID.description
    let before = try reading.summary(of: id)
    #expect(before.frameCount > 5, sourceLocation: sourceLocation)
    #expect(before.frameCount < local.frames.count, sourceLocation: sourceLocation)
    #expect(!before.isClosed, sourceLocation: sourceLocation)

    let shipper = SessionShipper(
      server: StreamServer(url: server.url, timeoutMilliseconds: 1000), intervalMilliseconds: 100)
    defer { shipper.stop() }
    let store = try Store<NavigationDomain>(
      continuing: path,
      options: RecordingOptions(
        journal: JournalWriterOptions(frameSize: 1024), forwarder: shipper))
    // Before anything new: the frames the server lacked.
    try store.flushAndWait(waitingForServerWithin: 20_000)
    #expect(
      try reading.summary(of: id).frameCount == local.frames.count, sourceLocation: sourceLocation)

    var user = SimulatedUser(seed: 23, domain: store.domain)
    for _ in 0..<2_000 { store.send(user.next().event) }
    try store.flushAndWait(waitingForServerWithin: 20_000)
    try store.close()
    try shipper.waitUntilForwarded(timeoutMilliseconds: 20_000)

    let continued = try JournalReader(path: path)
    #expect(continued.recordCount == local.recordCount + 2_000, sourceLocation: sourceLocation)
    let summary = try reading.summary(of: id)
    #expect(summary.isClosed, sourceLocation: sourceLocation)
    #expect(summary.frameCount == continued.frames.count, sourceLocation: sourceLocation)
    let messages = try reading.storedMessages(of: summary)
    #expect(messages.count == continued.frames.count + 1, sourceLocation: sourceLocation)
    #expect(Set(messages.map(\.id)).count == messages.count, sourceLocation: sourceLocation)
    let pulled = path + ".pulled"
    _ = try reading.pull(id, to: FileDestination(pulled))
    #expect(bytes(of: pulled) == bytes(of: path), sourceLocation: sourceLocation)
  }
}
