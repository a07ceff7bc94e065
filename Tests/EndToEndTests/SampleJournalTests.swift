import Foundation
import TestSupport
import Testing

/// The journals committed in Journals/ are a promise to old recordings: each must still
/// verify and replay, with the current reducer, to the state saved beside it.
@Suite("The sample journals still replay")
struct SampleJournalTests {
  static let journals =
    (try? FileManager.default.contentsOfDirectory(
      atPath: repositoryRoot + "/Journals"))?.filter { $0.hasSuffix(".journal") }.sorted() ?? []

  @Test("there are sample journals, each with a scenario or a generator and an expected state")
  func present() {
    #expect(Self.journals.count >= 6)
    for journal in Self.journals {
      let stem = String(journal.dropLast(".journal".count))
      #expect(
        stem == "generated-200k"
          || FileManager.default.fileExists(atPath: sample(stem + ".scenario")),
        "\(stem)")
      // Recorded with the current schema.
      let info = try? parseObject(try rewind("info", sample(journal), "--json").stdout)
      #expect(info?["schemaVersion"] as? Int == 2, "\(journal)")
    }
    for journal in Self.journals {
      let stem = String(journal.dropLast(".journal".count))
      #expect(FileManager.default.fileExists(atPath: sample(stem + ".state.json")), "\(stem)")
      #expect(bytes(of: sample(journal)).count < 1 << 20, "\(journal) is over 1 MiB")
    }
  }

  @Test("each verifies and checks against its expected state", arguments: journals)
  func replays(journal: String) throws {
    let path = sample(journal)
    let verify = try rewind("verify", path)
    #expect(verify.status == 0, "\(verify.stdout)")
    let check = try rewind("check", path)
    #expect(check.status == 0, "\(check.stdout)")
    #expect(check.stdout.contains("expected state \(path.dropLast(".journal".count)).state.json"))
    let state = try rewind("state", path, "--json")
    let expected = try String(
      contentsOfFile: String(path.dropLast(".journal".count)) + ".state.json", encoding: .utf8)
    #expect(state.stdout == expected)
  }

  static let scripts = journals.map { String($0.dropLast(".journal".count)) }.filter {
    FileManager.default.fileExists(atPath: sample($0 + ".scenario"))
  }

  /// Journals/README.md says each journal was recorded from the script beside it, and how
  /// to record them again: a change to what a script means (an iPhone's default size
  /// class became compact) recorded another session from `day-menu.scenario`, unnoticed.
  @Test(
    "each script records its journal again: the same events and the same state", arguments: scripts)
  func scriptRecordsItsJournal(stem: String) throws {
    let directory = TemporaryDirectory()
    let recorded = directory.file(stem + ".journal")
    let record = try rewind("record", sample(stem + ".scenario"), "-o", recorded)
    #expect(record.status == 0, "\(record.stderr)")
    #expect(
      try rewind("log", recorded, "--json").stdout
        == rewind("log", sample(stem + ".journal"), "--json").stdout)
    let state = try rewind("state", recorded, "--json").stdout
    #expect(state == (try String(contentsOfFile: sample(stem + ".state.json"), encoding: .utf8)))
  }
}
