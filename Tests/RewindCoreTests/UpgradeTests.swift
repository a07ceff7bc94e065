import Foundation
import TestSupport
import Testing

@testable import RewindCore
@testable import RewindJournal

@Suite("Upgrading a journal of an older schema in the library")
struct UpgradeTests {
  @Test(
    "upgrade writes the journal in the current schema, the same session and states; a Store then continues it (an app had no upgrade but the tool's)"
  )
  func upgradeThenContinue() throws {
    let directory = TemporaryDirectory()
    let old = directory.file("old.journal")
    try recordTally(at: old, count: 2_000)
    #expect(chmod(old, 0o600) == 0)
    let timeline = try Timeline<StandardTallyV2>(path: old)
    #expect(throws: JournalError.self) {
      try Store<StandardTallyV2>(continuing: old, options: RecordingOptions())
    }
    let new = directory.file("new.journal")
    var reported: UInt64 = 0
    let report = try timeline.upgrade(to: FileDestination(new)) { reported = $0 }
    #expect(report.passed)
    #expect(report.snapshotsCompared > 0)
    #expect(reported == 4_000)
    let upgraded = try Timeline<StandardTallyV2>(path: new)
    // As private as the journal it was made from.
    var status = stat()
    #expect(stat(new, &status) == 0 && status.st_mode & 0o077 == 0)
    #expect(upgraded.upcast == nil)
    #expect(upgraded.header.schemaVersion == 2)
    #expect(upgraded.header.sessionID == timeline.header.sessionID)
    #expect(upgraded.header.startTime == timeline.header.startTime)
    for point: UInt64 in [0, 1, 640, 1_999, 2_000] {
      #expect(try upgraded.state(after: point) == timeline.state(after: point), "\(point)")
      if point > 0 { #expect(try upgraded.time(of: point) == timeline.time(of: point)) }
    }
    #expect(try upgraded.check().passed)
    // The app continues the upgraded journal.
    let store = try Store<StandardTallyV2>(continuing: new, options: RecordingOptions())
    store.send(.added(500))
    try store.close()
    let continued = try Timeline<StandardTallyV2>(path: new)
    #expect(continued.lastSequence == 2_001)
    #expect(
      try continued.state(after: 2_001).value == (try timeline.state(after: 2_000)).value + 500)
  }

  @Test("upgrade refuses a journal already current, or one whose replay differs, writing nothing")
  func refusals() throws {
    let directory = TemporaryDirectory()
    let old = directory.file("old.journal")
    try recordTally(at: old, count: 2_000)
    let output = directory.file("out.journal")
    // The reducer of other rules replays another history.
    #expect {
      try Timeline<TallyV2<AlteredRules>>(path: old).upgrade(to: FileDestination(output))
    } throws: { error in
      guard let error = error as? UpgradeDivergence else { return false }
      return !error.report.passed
        && error.message.hasPrefix(
          "\(old): the journal (schema 1) does not replay as it was recorded through the domain's upcast of schema 1 (its decodeEvent and decodeState) and its current reducer: "
        )
        && error.message.hasSuffix("; an upgrade would change its history")
    }
    #expect(!FileManager.default.fileExists(atPath: output))
    // A journal of the current schema has nothing to upgrade.
    let current = directory.file("current.journal")
    _ = try Timeline<StandardTallyV2>(path: old).upgrade(to: FileDestination(current))
    #expect {
      try Timeline<StandardTallyV2>(path: current).upgrade(to: FileDestination(output))
    } throws: { error in
      (error as? RewindError)?.message
        == "\(current): the journal already has schema 2 of 'tally', the current one: there is nothing to upgrade"
    }
    #expect(!FileManager.default.fileExists(atPath: output))
  }
}
