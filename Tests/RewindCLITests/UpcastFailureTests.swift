import Foundation
import RewindCLI
import RewindCore
import RewindJournal
import TestSupport
import Testing

/// Schema 2 of the counter (`SmallDomainTests`' `Counter` is schema 1), as a user
/// following the docs' upcasting example writes one: `reset` is renamed `cleared`, and its
/// decoding of schema 1's events reads today's `Event`, so that a schema-1 `reset` does
/// not read. Its journals of schema 1 are intact: schema 1's tool reads them.
struct RenamedCounter: RecordableDomain, Codable {
  typealias State = Counter.State

  enum Event: Codable, Equatable, Sendable {
    case incremented
    case decremented
    case stepChanged(to: Int)
    case cleared
  }

  static let identifier = "counter"
  static let schemaVersion: UInt32 = 2
  static let readableSchemaVersions: ClosedRange<UInt32> = 1...2

  var initialState: State { State() }

  func reduce(_ state: inout State, _ event: Event) -> Outcome<DomainRejection> {
    switch event {
    case .incremented: state.count += state.step
    case .decremented:
      guard state.count >= state.step else { return .rejected("the count cannot go below 0") }
      state.count -= state.step
    case .stepChanged(let step):
      guard step != state.step else { return .unchanged }
      state.step = step
    case .cleared:
      guard state.count != 0 else { return .unchanged }
      state.count = 0
    }
    return .applied
  }
}

@Suite("An event the domain's upcast does not read, in an intact journal, is no damage")
struct UpcastFailureTests {
  let directory = TemporaryDirectory()

  /// Runs a `rewind` of `domain` in-process; paths in the output are shortened to their
  /// file names.
  func rewind(_ domain: any RecordableDomain.Type, _ arguments: String...) -> (
    status: Int32, output: String
  ) {
    runInProcess(RewindTool.cli(domains: [domain]), arguments, shortening: directory)
  }

  /// A journal of schema 1 holding a `reset` (event 2), recorded by schema 1's tool.
  func schema1Journal() -> String {
    let script = directory.file("counter.scenario")
    write(Array("incremented\nreset\nincremented\n".utf8), to: script)
    let journal = directory.file("counter.journal")
    let recorded = rewind(Counter.self, "record", script, "-o", journal)
    #expect(recorded.status == 0, "\(recorded.output)")
    #expect(rewind(Counter.self, "verify", "--deep", journal).status == 0)
    return journal
  }

  /// What schema 2 says of event 2, after "event 2 cannot be decoded as schema 2 of
  /// 'counter'" and the decoder's error.
  static let note =
    "its bytes are intact (its frame's checksums verify), so this is not damage: the journal is schema 1, and the domain's upcast of schema 1 (its decodeEvent for a journal of schema 1) does not read it; make that upcast read schema 1's events, or read the journal with the tool of schema 1"

  @Test("the commands name the event, the journal's schema and the domain's, and what to do")
  func commands() {
    let journal = schema1Journal()
    let error =
      "counter.journal: event 2 cannot be decoded as schema 2 of 'counter': 'reset' is not a known case (at byte 7); \(Self.note)\n"
    let state = rewind(RenamedCounter.self, "state", journal)
    #expect(state.status == 1)
    #expect(state.output == "Error: " + error, "state: \(state.output)")
    // log, after the event before it.
    let log = rewind(RenamedCounter.self, "log", journal)
    #expect(log.status == 1)
    let logLines = log.output.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(logLines.count == 3, "log: \(log.output)")
    #expect(logLines.first?.contains("incremented") == true, "log: \(log.output)")
    #expect(log.output.hasSuffix("\nError: " + error), "log: \(log.output)")
    // export, after its note on the upcast, the header and the event before it.
    let export = rewind(RenamedCounter.self, "export", journal)
    #expect(export.status == 1)
    #expect(
      export.output.contains(
        "note: counter.journal has schema 1 of 'counter'; it is exported upcast to schema 2\n"),
      "\(export.output)")
    #expect(export.output.contains(#"{"seq":1,"#), "\(export.output)")
    #expect(export.output.hasSuffix("\nError: " + error), "\(export.output)")
    // check says it as its verdict on the journal.
    let check = rewind(RenamedCounter.self, "check", journal)
    #expect(check.status == 1)
    #expect(check.output == "FAIL " + error + "0 passed, 1 failed\n", "\(check.output)")
  }

  @Test("verify --deep says it is no damage and does not advise salvage")
  func deepVerify() throws {
    let journal = schema1Journal()
    let reader = try JournalReader(path: journal)
    let offset = reader.frames[0].offset
    let verified = rewind(RenamedCounter.self, "verify", "--deep", journal)
    #expect(verified.status == 1)
    #expect(
      verified.output == """
        INVALID counter.journal: 1 problem; 1 frame readable (3 events, 0 snapshots)
          frame 0 (events 2–3) at byte \(offset): event 2 cannot be decoded as schema 2 of 'counter' ('reset' is not a known case (at byte 7)); the rest of its run (event 3) is read relative to it and cannot be read either; \(Self.note)
          Content: 1 event decoded, no snapshot.

        """)
    #expect(!verified.output.contains("salvage"))
    #expect(!verified.output.contains("DAMAGED"))
  }

  @Test("recover --salvage keeps the journal as it was, says why, and exits with 1")
  func salvage() throws {
    let journal = schema1Journal()
    let before = bytes(of: journal)
    let offset = try JournalReader(path: journal).frames[0].offset
    let salvaged = rewind(RenamedCounter.self, "recover", "--salvage", journal)
    #expect(salvaged.status == 1)
    #expect(
      salvaged.output == """
        Kept frame 0 (events 1–3) at byte \(offset), whose content this domain does not read as recorded: event 2 cannot be decoded as schema 2 of 'counter' ('reset' is not a known case (at byte 7)); the rest of its run (event 3) is read relative to it and cannot be read either; \(Self.note).
        Salvage drops damage, never intact events: the frame above is kept, and counter.journal is left as it was, holding events this domain does not read as recorded.

        """)
    #expect(bytes(of: journal) == before)
    #expect(!FileManager.default.fileExists(atPath: journal + ".damaged"))
    // Written elsewhere, the copy holds every event, none marked lost.
    let copy = directory.file("copy.journal")
    let written = rewind(RenamedCounter.self, "recover", "--salvage", journal, "-o", copy, "--json")
    #expect(written.status == 1)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(written.output.utf8)) as? [String: Any])
    #expect(json["droppedEvents"] as? Int == 0)
    #expect((json["lostEvents"] as? [Any])?.isEmpty == true)
    let kept = try #require((json["keptForContent"] as? [[String: Any]])?.first)
    #expect(kept["from"] as? Int == 1 && kept["to"] as? Int == 3)
    #expect(
      (kept["reason"] as? String)?.hasPrefix("event 2 cannot be decoded as schema 2 of 'counter'")
        == true)
    #expect(try JournalReader(path: copy).lostRanges.isEmpty)
    // Schema 1's tool still reads the original, as it always did.
    #expect(rewind(Counter.self, "log", journal).status == 0)
  }
}
