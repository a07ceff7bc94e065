import Foundation
import Navigation
import RewindCLI
import RewindCore
import RewindJournal
import TestSupport
import Testing

/// `rewind upgrade`, run in-process on every schema-1 journal the repository keeps, the
/// 200,000-event one included: the upgraded journal is of schema 2 and its state after
/// every event is the original's, upcast.
@Suite("Upgrade, state by state")
struct UpgradeTests {
  let tool = RewindTool.cli(domains: [NavigationDomain.self])

  static let journals: [String] = ["schema1", "format-1.0"].flatMap { directory in
    ((try? FileManager.default.contentsOfDirectory(atPath: journalsDirectory + "/" + directory))
      ?? []).filter { $0.hasSuffix(".journal") }.sorted().map { directory + "/" + $0 }
  }

  /// The hash of the state's encoding after every event (index 0: the initial state).
  static func stateHashes(_ timeline: Timeline<NavigationDomain>) throws -> [UInt64] {
    var writer = ByteWriter()
    var hashes: [UInt64] = []
    func add(_ state: NavigationState) {
      writer.removeAll()
      timeline.domain.encode(state, into: &writer)
      hashes.append(XXH64.hash(writer.bytes))
    }
    add(try timeline.state(after: 0))
    try timeline.events(from: 1, through: timeline.lastSequence) { _, _, state in
      add(state)
      return true
    }
    return hashes
  }

  @Test("an upgraded journal equals the upcast original at every point", arguments: journals)
  func everyPoint(journal: String) throws {
    #expect(Self.journals.count == 8)
    let directory = TemporaryDirectory()
    let original = journalsDirectory + "/" + journal
    let upgraded = directory.file("upgraded.journal")
    let context = Context.capture()
    #expect(tool.run(arguments: ["upgrade", original, "-o", upgraded], context: context) == 0)

    let before = try Timeline<NavigationDomain>(path: original)
    let after = try Timeline<NavigationDomain>(path: upgraded)
    #expect(before.upcast?.from == 1)
    #expect(after.upcast == nil)
    #expect(after.header.schemaVersion == 2)
    #expect(after.header.sessionID == before.header.sessionID)
    #expect(after.header.startTime == before.header.startTime)
    #expect(after.header.device == before.header.device)
    #expect(after.header.snapshotInterval == before.header.snapshotInterval)
    #expect(after.domain.settings == before.domain.settings)
    #expect(after.lastSequence == before.lastSequence)
    #expect(after.duration == before.duration)
    let hashes = try Self.stateHashes(after)
    #expect(hashes.count == Int(before.lastSequence) + 1)
    #expect(hashes == (try Self.stateHashes(before)))
    // And through the snapshots, at points spread over the session.
    for sequence in stride(from: UInt64(0), through: after.lastSequence, by: 997) {
      #expect(try after.state(after: sequence) == (try before.state(after: sequence)))
    }
    #expect(try after.check().passed)
    #expect(try before.check().passed)
  }
}
