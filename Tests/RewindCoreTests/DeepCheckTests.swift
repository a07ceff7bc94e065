import Foundation
import TestSupport
import Testing

@testable import RewindCore
@testable import RewindJournal

@Suite("The deep check: the content of a journal read with its domain")
struct DeepCheckTests {
  let domain = StandardTally()

  /// The snapshot the recorder would write of `state` after event `sequence`.
  func snapshot(of state: StandardTally.State, after sequence: UInt64) -> Snapshot {
    var writer = ByteWriter()
    domain.encode(state, into: &writer)
    return Snapshot(sequence: sequence, stateHash: XXH64.hash(writer.bytes), state: writer.bytes)
  }

  @Test("an intact journal: every event decoded, every snapshot equal to the replayed state")
  func intact() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("tally.journal")
    try recordTally(at: path, count: 2_000)
    let timeline = try Timeline<StandardTally>(path: path)
    var progress: [(Int, Int)] = []
    let report = timeline.deepCheck { progress.append(($0, $1)) }
    #expect(report.isClean, "\(report.problems)")
    #expect(report.contentChecked)
    #expect(report.eventsDecoded == 2_000)
    let snapshots = try timeline.reader.frames.indices.reduce(0) {
      $0 + (try timeline.reader.frameHeader($1).snapshots.count)
    }
    #expect(snapshots > 31)
    #expect(report.snapshotsChecked == snapshots)
    #expect(report.snapshotsCompared == snapshots)
    #expect(report.repairs.isEmpty)
    #expect(
      progress.last.map { $0 == (timeline.reader.frames.count, timeline.reader.frames.count) }
        == true)
  }

  @Test("wrong snapshots: each reported, and repaired with the replayed state")
  func wrongSnapshots() throws {
    let directory = TemporaryDirectory()
    var other = StandardTally.State()
    other.value = 99_999
    let wrong = snapshot(of: other, after: 0)
    let (path, states) = try craftedTally(in: directory) { changes in
      changes.snapshot = { snapshot in
        switch snapshot.sequence {
        case 640: snapshot.stateHash ^= 1  // its bytes changed after it was written
        case 1_280:
          snapshot = Snapshot(sequence: 1_280, stateHash: wrong.stateHash, state: wrong.state)
        default: break
        }
      }
    }
    let holders = try frames(holdingSnapshotsAfter: [640, 1_280], in: path)
    let report = try Timeline<StandardTally>(path: path).deepCheck()
    #expect(report.problems.count == 2)
    #expect(report.eventsDecoded == 2_000)
    #expect(report.snapshotsCompared == report.snapshotsChecked - 2)
    for (sequence, problem) in [
      (640, "does not match its stored state hash"),
      (1_280, "differs from the state replayed up to it"),
    ] as [(UInt64, String)] {
      let frame = try #require(holders[sequence])
      let found = try #require(
        report.problems.first { $0.message.contains("after event \(sequence) ") })
      #expect(found.kind == .snapshot)
      #expect(found.frame == frame.number && found.offset == frame.offset)
      #expect(found.sequences == frame.sequenceRange)
      #expect(found.message == "the snapshot after event \(sequence) \(problem)")
      #expect(
        report.repairs[frame.offset]
          == .replaceSnapshots([sequence: snapshot(of: states[Int(sequence)], after: sequence)]))
    }
  }

  @Test(
    "an event that does not decode: it and the rest of its run; replay resumes at the next snapshot",
    arguments: [true, false])
  func undecodableEvent(domainDoesNotRead: Bool) throws {
    let directory = TemporaryDirectory()
    let (path, _) = try craftedTally(in: directory) { changes in
      // The tally's events are an enum case index first: 9 is no case. A recorded effect
      // of kind 3 is none either.
      changes.payload = { sequence, payload in
        if sequence == 1_000 { payload = domainDoesNotRead ? [0x00, 0x09] : [0x03] }
      }
    }
    let timeline = try Timeline<StandardTally>(path: path)
    let reader = timeline.reader
    let frame = reader.frames[try #require(reader.frameIndex(containing: 1_000))]
    let snapshots = try reader.frameHeader(reader.frameIndex(containing: 1_000)!).snapshots
    // The run ends at the next snapshot of the frame, else at the frame's end.
    let runEnd = snapshots.map(\.snapshot.sequence).first { $0 >= 1_000 } ?? frame.lastSequence
    let report = timeline.deepCheck()
    #expect(report.problems.count == 1)
    let problem = try #require(report.problems.first)
    #expect(problem.kind == .event)
    #expect(problem.frame == frame.number && problem.offset == frame.offset)
    #expect(problem.sequences == 1_000...runEnd)
    #expect(report.eventsDecoded == 2_000 - (runEnd - 999))
    if domainDoesNotRead {
      // Its bytes are as written (the frame's checksums verify): the domain's decoder
      // does not read them, which is no damage, and salvage keeps the frame.
      #expect(problem.message.hasPrefix("event 1000 cannot be decoded as schema 1 of 'tally' ("))
      #expect(
        problem.message.hasSuffix(
          "; its bytes are intact (its frame's checksums verify), so this is not damage: the journal is schema 1, the domain's own, and the domain's decodeEvent does not read what was written; make it read them (a change to how events are written needs a new schema version, whose decoding upcasts the older one), or read the journal with the tool that wrote it"
        ), "\(problem.message)")
      #expect(report.repairs.isEmpty)
      #expect(report.kept.map(\.offset) == [frame.offset])
      #expect(report.kept.first?.message == problem.message)
    } else {
      // A recorded effect that does not read is Rewind's own record written wrong.
      #expect(problem.message.hasPrefix("event 1000 cannot be decoded (effect kind 3"))
      #expect(report.repairs[frame.offset] == .drop(reason: "event 1000 cannot be decoded"))
      #expect(report.kept.isEmpty)
    }
    // The snapshot that ends the run restarts replay: it is read, not compared.
    #expect(report.snapshotsCompared == report.snapshotsChecked - 1)
    #expect(report.snapshotsRestartingReplay == 1)
  }

  @Test(
    "a wrong snapshot after an event that does not decode cannot be put right: its frame is dropped"
  )
  func unknownStateBadSnapshot() throws {
    let directory = TemporaryDirectory()
    let source = directory.file("source.journal")
    try recordTally(at: source, count: 2_000)
    let reader = try JournalReader(path: source)
    // An event of frame 3 breaks replay; the snapshot starting frame 4 is then the only
    // way in, and it is damaged.
    let broken = reader.frames[3]
    let next = reader.frames[4]
    var changes = JournalChanges()
    changes.payload = { sequence, payload in
      if sequence == broken.lastSequence - 1 { payload = [0x00, 0x09] }
    }
    changes.snapshot = { snapshot in
      if snapshot.sequence == next.firstSequence - 1 { snapshot.stateHash ^= 1 }
    }
    let path = directory.file("crafted.journal")
    try copyJournal(source, to: path, changes: changes)
    let report = try Timeline<StandardTally>(path: path).deepCheck()
    #expect(report.problems.map(\.kind) == [.event, .snapshot])
    let offsets = try JournalReader(path: path).frames.map(\.offset)
    // The event's bytes are as written: its frame is kept, not dropped.
    #expect(report.repairs[offsets[3]] == nil)
    #expect(report.kept.map(\.offset) == [offsets[3]])
    #expect(
      report.repairs[offsets[4]]
        == .drop(
          reason:
            "the snapshot after event \(next.firstSequence - 1) does not match its stored state hash, and replay cannot tell the right state"
        ))
  }

  @Test("a journal of an older schema: compared upcast; a wrong snapshot drops its frame")
  func olderSchema() throws {
    let directory = TemporaryDirectory()
    let (path, _) = try craftedTally(in: directory) { changes in
      changes.snapshot = { snapshot in if snapshot.sequence == 640 { snapshot.stateHash ^= 1 } }
    }
    let timeline = try Timeline<TallyV2<StandardRules>>(path: path)
    #expect(timeline.upcast != nil)
    let report = timeline.deepCheck()
    #expect(report.problems.count == 1)
    #expect(report.eventsDecoded == 2_000)
    let frame = try #require(try frames(holdingSnapshotsAfter: [640], in: path)[640])
    #expect(
      report.repairs[frame.offset]
        == .drop(
          reason:
            "the snapshot after event 640 is wrong, and this rewind cannot write a state of the journal's older schema"
        ))
    let clean = directory.file("clean.journal")
    try recordTally(at: clean, count: 500)
    let upcast = try Timeline<TallyV2<StandardRules>>(path: clean).deepCheck()
    #expect(upcast.isClean, "\(upcast.problems)")
    #expect(upcast.snapshotsCompared == upcast.snapshotsChecked)
  }

  @Test(
    "a header no known domain reads: one problem, and the content is not read",
    arguments: ["domain", "schema", "settings"])
  func header(field: String) throws {
    let directory = TemporaryDirectory()
    let (path, _) = try craftedTally(in: directory, count: 300) { changes in
      changes.header = { header in
        switch field {
        case "domain": header.domain = "abacus"
        case "schema": header.schemaVersion = 7
        default: header.settings = Array(#"{"start":"ten"}"#.utf8)
        }
      }
    }
    let reader = try JournalReader(path: path)
    let report = DeepCheck.check(reader, domains: [StandardTally.self, Notes.self])
    #expect(!report.contentChecked)
    #expect(report.eventsDecoded == 0)
    #expect(report.problems.count == 1)
    let problem = try #require(report.problems.first)
    #expect(problem.kind == .domain)
    #expect(problem.frame == nil && problem.offset == 0 && problem.sequences == 1...300)
    let expected =
      switch field {
      case "domain":
        "the journal records the 'abacus' domain, which this rewind does not know (it knows 'tally', 'notes'): no command of this build can read it"
      case "schema":
        "the journal's schema version 7 of 'tally' is newer than version 1, the newest this rewind reads; read it with a newer rewind; no command of this build can read it"
      default: "the journal's 'tally' settings are invalid: "
      }
    #expect(problem.message.hasPrefix(expected), "\(problem.message)")
    // The same header with the domain it names reads.
    let intact = directory.file("intact.journal")
    try recordTally(at: intact, count: 300)
    #expect(DeepCheck.check(try JournalReader(path: intact), domains: [StandardTally.self]).isClean)
  }
}
