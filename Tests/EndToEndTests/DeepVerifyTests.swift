import Foundation
import Navigation
import RewindCore
import TestSupport
import Testing

@testable import RewindJournal

// Journals whose checksums are all right but whose content is wrong: what a writer bug, a
// future version or a crafted file leaves. Each is built from a generated journal, either
// by changing bytes and making the checksum over them verify again, or by copying it
// through a `JournalWriter` with one thing changed (a payload, a snapshot, the header).

/// The journal at `path` with frame `index`'s header written again after `change`, its
/// check32 made to verify. The header must keep its size (the index stays true).
func rewriteFrameHeader(
  _ path: String, frame index: Int, _ change: (inout [StoredSnapshot]) -> Void
) throws {
  let reader = try JournalReader(path: path)
  let old = try reader.frameHeader(index)
  let content = try reader.decompressedContent(ofFrame: index)
  var snapshots = old.snapshots
  change(&snapshots)
  let header = FrameHeader(
    info: old.info, rawSize: UInt32(content.count),
    compressedChecksum: try #require(
      try reader.file.read(count: Int(old.info.compressedSize), at: old.info.dataOffset)
    ).withUnsafeBytes { XXH64.checksum32($0) }, snapshots: snapshots)
  let encoded = header.encoded()
  try #require(encoded.count == Int(old.info.headerSize), "the frame header changed its size")
  var bytes = bytes(of: path)
  bytes.replaceSubrange(Int(old.info.offset)..<Int(old.info.dataOffset), with: encoded)
  write(bytes, to: path)
}

/// A 300-event journal with a snapshot every 64 events (one frame: snapshots after events
/// 64, 128, 192 and 256), as issue 15 reproduced the blind trust in snapshots with.
func issueJournal(in directory: TemporaryDirectory, _ name: String = "g.journal") throws -> String {
  let journal = directory.file(name)
  let result = try rewind(
    "generate", "-o", journal, "--events", "300", "--seed", "15", "--snapshot-interval", "64")
  #expect(result.status == 0, "\(result.stderr)")
  return journal
}

/// A 30,000-event journal of four frames (a snapshot every 1,024 events, and one at the
/// start of each frame but the first).
func fourFrameJournal(in directory: TemporaryDirectory, _ name: String = "big.journal") throws
  -> String
{
  let journal = directory.file(name)
  let result = try rewind("generate", "-o", journal, "--events", "30000", "--seed", "4")
  #expect(result.status == 0, "\(result.stderr)")
  #expect(try JournalReader(path: journal).frames.count == 4)
  return journal
}

/// `journal` copied to `name` in `directory` with `change` made on the way.
func crafted(
  _ journal: String, in directory: TemporaryDirectory, _ name: String,
  _ change: (inout JournalChanges) -> Void
) throws -> String {
  var changes = JournalChanges()
  change(&changes)
  let path = directory.file(name)
  try copyJournal(journal, to: path, changes: changes)
  return path
}

/// A snapshot whose state is `state`, its hash made to match.
func consistent(_ snapshot: Snapshot, state: [UInt8]) -> Snapshot {
  Snapshot(sequence: snapshot.sequence, stateHash: XXH64.hash(state), state: state)
}

/// The problems of a `verify --json` report.
func problems(_ result: ProcessResult) throws -> [[String: Any]] {
  try #require(try verifyReport(result.stdout)["problems"] as? [[String: Any]])
}

/// Checks one problem of `verify --json`.
func expectProblem(
  _ problem: [String: Any]?, kind: String, frame: Int?, offset: UInt64,
  sequences: ClosedRange<UInt64>?, message: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(problem?["kind"] as? String == kind, sourceLocation: sourceLocation)
  #expect(
    problem?["frame"] as? Int == frame && (frame != nil || problem?["frame"] is NSNull),
    "\(String(describing: problem?["frame"]))", sourceLocation: sourceLocation)
  #expect(problem?["offset"] as? Int == Int(offset), sourceLocation: sourceLocation)
  let range = problem?["sequences"] as? [String: Int]
  #expect(
    range.map { UInt64($0["from"] ?? 0)...UInt64($0["to"] ?? 0) } == sequences,
    sourceLocation: sourceLocation)
  #expect(
    (problem?["message"] as? String)?.hasPrefix(message) == true,
    "\(String(describing: problem?["message"]))", sourceLocation: sourceLocation)
}

@Suite("Trusted snapshots: a snapshot that does not match its state hash is never used")
struct TrustedSnapshotTests {
  @Test(
    "a bit of the last snapshot's flags changed, the checksum recomputed: state --at 256 replays instead"
  )
  func flippedFlagsBit() throws {
    let directory = TemporaryDirectory()
    let journal = try issueJournal(in: directory)
    let replayed = try rewind("state", journal, "--at", "256", "--json")
    #expect(replayed.status == 0 && replayed.stderr.isEmpty, "\(replayed.stderr)")
    #expect(replayed.stdout.contains("\"columnVisibility\": \"automatic\""))
    let info = try JournalReader(path: journal).frames[0]
    // The flags byte is the state's first: bit 0 is the low bit of the column visibility.
    try rewriteFrameHeader(journal, frame: 0) { snapshots in
      snapshots[snapshots.count - 1].snapshot.state[0] ^= 0x01
    }
    #expect(try rewind("verify", journal).status == 0, "the storage check cannot see it")

    let state = try rewind("state", journal, "--at", "256", "--json")
    #expect(state.status == 0)
    #expect(state.stdout == replayed.stdout, "a wrong state: \(state.stdout)")
    let warning =
      "warning: \(journal): frame 0 (events 1–300) at byte \(info.offset): the snapshot after event 256 does not match its stored state hash; it is not used, and the state is replayed from an earlier snapshot\n"
    #expect(state.stderr == warning)
    // Said once per command, however many times the snapshot would serve.
    let diff = try rewind("diff", journal, "--from", "260", "--to", "280")
    #expect(diff.status == 0)
    #expect(diff.stderr == warning)

    let check = try rewind("check", journal)
    #expect(check.status == 1)
    #expect(
      check.lines.contains(
        "  the snapshot after event 256 does not match its stored state hash (- recorded, + replayed):"
      ), "\(check.stdout)")
    #expect(
      check.lines.contains("    split.columnVisibility: - \"all\"  + \"automatic\""),
      "\(check.stdout)")

    let deep = try rewind("verify", journal, "--deep", "--json")
    #expect(deep.status == 1)
    let found = try problems(deep)
    #expect(found.count == 1)
    expectProblem(
      found.first, kind: "snapshot", frame: 0, offset: info.offset, sequences: 1...300,
      message: "the snapshot after event 256 does not match its stored state hash")
  }

  @Test(
    "a damaged snapshot at a frame's start: replay starts from the frame before, and log goes on")
  func frameStartSnapshot() throws {
    let directory = TemporaryDirectory()
    let journal = try fourFrameJournal(in: directory)
    let reader = try JournalReader(path: journal)
    let frame = reader.frames[2]
    let start = frame.firstSequence - 1
    let point = String(frame.firstSequence + 10)
    let expected = try rewind("state", journal, "--at", point, "--json")
    let log = try rewind("log", journal, "--from", String(start - 5), "--to", point, "--json")
    try rewriteFrameHeader(journal, frame: 2) { snapshots in
      #expect(snapshots[0].snapshot.sequence == start)
      snapshots[0].snapshot.state[1] ^= 0x01
    }
    let state = try rewind("state", journal, "--at", point, "--json")
    #expect(state.stdout == expected.stdout)
    #expect(
      state.stderr.hasPrefix(
        "warning: \(journal): frame 2 (events \(frame.firstSequence)–\(frame.lastSequence)) at byte \(frame.offset): the snapshot after event \(start) does not match its stored state hash"
      ), "\(state.stderr)")
    let again = try rewind("log", journal, "--from", String(start - 5), "--to", point, "--json")
    #expect(again.stdout == log.stdout)
  }
}

@Suite("verify --deep: journals whose checksums are right but whose content is wrong")
struct DeepVerifyTests {
  @Test("an intact journal: the fast check and the deep one both pass, as text and JSON")
  func intact() throws {
    let directory = TemporaryDirectory()
    let journal = try fourFrameJournal(in: directory)
    let text = try rewind("verify", journal, "--deep")
    #expect(text.status == 0)
    #expect(
      text.lines == [
        "OK \(journal): 4 frames, 30,000 events, 32 snapshots, closed",
        "  Content: 30,000 events decoded, 32 snapshots read, each equal to the state replayed up to it.",
      ], "\(text.stdout)")
    let json = try verifyReport(try rewind("verify", journal, "--deep", "--json").stdout)
    #expect(json["ok"] as? Bool == true)
    #expect(json["deep"] as? Bool == true)
    let content = try #require(json["content"] as? [String: Any])
    #expect(content["checked"] as? Bool == true)
    #expect(content["eventsDecoded"] as? Int == 30_000)
    #expect(content["snapshotsChecked"] as? Int == 32)
    #expect(content["snapshotsMatchingReplay"] as? Int == 32)
    // Without --deep, the storage check only.
    let fast = try verifyReport(try rewind("verify", journal, "--json").stdout)
    #expect(fast["deep"] as? Bool == false)
    #expect(fast["content"] is NSNull)
  }

  @Test("a wrong snapshot, its hash recomputed: it decodes, but differs from the replayed state")
  func wrongSnapshot() throws {
    let directory = TemporaryDirectory()
    let source = try issueJournal(in: directory)
    let journal = try crafted(source, in: directory, "wrong.journal") { changes in
      changes.snapshot = { snapshot in
        guard snapshot.sequence == 128 else { return }
        var state = snapshot.state
        state[0] ^= 0x01
        snapshot = consistent(snapshot, state: state)
      }
    }
    let info = try JournalReader(path: journal).frames[0]
    #expect(try rewind("verify", journal).status == 0)
    let text = try rewind("verify", journal, "--deep")
    #expect(text.status == 1)
    #expect(
      text.lines.prefix(3) == [
        "INVALID \(journal): 1 problem; 1 frame readable (300 events, 4 snapshots)",
        "  frame 0 (events 1–300) at byte \(info.offset): the snapshot after event 128 differs from the state replayed up to it",
        "  Content: 300 events decoded, 4 snapshots read: 3 equal to the state replayed up to them, 1 wrong.",
      ], "\(text.stdout)")
    #expect(
      text.lines.last
        == "  `rewind recover --salvage \(journal)` writes the wrong snapshots again from the replayed state.",
      "\(text.stdout)")
    let found = try problems(try rewind("verify", journal, "--deep", "--json"))
    #expect(found.count == 1)
    expectProblem(
      found.first, kind: "snapshot", frame: 0, offset: info.offset, sequences: 1...300,
      message: "the snapshot after event 128 differs from the state replayed up to it")
  }

  @Test(
    "an event payload the domain does not decode: the event and the rest of its run, no damage")
  func undecodableEvent() throws {
    let directory = TemporaryDirectory()
    let source = try issueJournal(in: directory)
    let journal = try crafted(source, in: directory, "event.journal") { changes in
      // Effect 0 (applied, nothing changed), then an event code no event has.
      changes.payload = { sequence, payload in if sequence == 100 { payload = [0x00, 0x7F] } }
    }
    let info = try JournalReader(path: journal).frames[0]
    #expect(try rewind("verify", journal).status == 0)
    let deep = try rewind("verify", journal, "--deep", "--json")
    #expect(deep.status == 1)
    let json = try verifyReport(deep.stdout)
    #expect(json["ok"] as? Bool == false)
    let content = try #require(json["content"] as? [String: Any])
    #expect(content["eventsDecoded"] as? Int == 300 - 29)
    #expect(content["snapshotsChecked"] as? Int == 4)
    // The snapshot after event 128 cannot be compared: replay starts again from it.
    #expect(content["snapshotsMatchingReplay"] as? Int == 3)
    #expect(content["snapshotsRestartingReplay"] as? Int == 1)
    let found = try problems(deep)
    #expect(found.count == 1)
    expectProblem(
      found.first, kind: "event", frame: 0, offset: info.offset, sequences: 100...128,
      message: "event 100 cannot be decoded as schema 2 of 'navigation' (")
    // The frame's checksums verify: the bytes are as written, which is no damage.
    let note =
      "its bytes are intact (its frame's checksums verify), so this is not damage: the journal is schema 2, the domain's own, and the domain's decodeEvent does not read what was written; make it read them (a change to how events are written needs a new schema version, whose decoding upcasts the older one), or read the journal with the tool that wrote it"
    #expect(
      (found.first?["message"] as? String)?.hasSuffix(
        "; the rest of its run (events 101–128) is read relative to it and cannot be read either; \(note)"
      ) == true, "\(String(describing: found.first?["message"]))")
    let text = try rewind("verify", journal, "--deep")
    #expect(text.lines.count > 1)
    #expect(
      text.lines[1].hasPrefix(
        "  frame 0 (events 100–128) at byte \(info.offset): event 100 cannot be decoded as schema 2 of 'navigation' ("
      ), "\(text.stdout)")
    // Salvage keeps such a frame: it is not offered.
    #expect(!text.stdout.contains("--salvage"), "\(text.stdout)")
    // Time travel across it names the event, from the snapshot before it (the replay
    // loop of `state --at`) and one event at a time (`log`).
    for arguments in [["state", journal, "--at", "110"], ["log", journal, "--from", "90"]] {
      let replayed = try rewind(arguments)
      #expect(replayed.status == 1, "\(arguments)")
      #expect(
        replayed.stderr.hasPrefix(
          "Error: \(journal): event 100 cannot be decoded as schema 2 of 'navigation': "),
        "\(replayed.stderr)")
      #expect(replayed.stderr.hasSuffix("; \(note)\n"), "\(replayed.stderr)")
    }
  }

  @Test(
    "a snapshot that does not decode, its hash recomputed: verify names it, state replays around it"
  )
  func undecodableSnapshot() throws {
    let directory = TemporaryDirectory()
    let source = try issueJournal(in: directory)
    let journal = try crafted(source, in: directory, "snapshot.journal") { changes in
      changes.snapshot = { snapshot in
        if snapshot.sequence == 192 { snapshot = consistent(snapshot, state: [0xFF]) }
      }
    }
    let info = try JournalReader(path: journal).frames[0]
    #expect(try rewind("verify", journal).status == 0)
    let found = try problems(try rewind("verify", journal, "--deep", "--json"))
    #expect(found.count == 1)
    expectProblem(
      found.first, kind: "snapshot", frame: 0, offset: info.offset, sequences: 1...300,
      message: "the snapshot after event 192 cannot be decoded (")
    let expected = try rewind("state", source, "--at", "200", "--json")
    let state = try rewind("state", journal, "--at", "200", "--json")
    #expect(state.status == 0)
    #expect(state.stdout == expected.stdout)
    #expect(
      state.stderr.hasPrefix(
        "warning: \(journal): frame 0 (events 1–300) at byte \(info.offset): the snapshot after event 192 cannot be decoded ("
      ), "\(state.stderr)")
  }

  @Test(
    "a header no domain of this rewind reads: unknown domain, newer schema, invalid settings",
    arguments: ["domain", "schema", "settings"])
  func unreadableHeader(field: String) throws {
    let directory = TemporaryDirectory()
    let source = try issueJournal(in: directory)
    let message: String
    let change: (inout JournalHeader) -> Void
    switch field {
    case "domain":
      change = { $0.domain = "sudoku" }
      message =
        "the journal records the 'sudoku' domain, which this rewind does not know (it knows 'navigation'): no command of this build can read it"
    case "schema":
      change = { $0.schemaVersion = 99 }
      message =
        "the journal's schema version 99 of 'navigation' is newer than version 2, the newest this rewind reads; read it with a newer rewind; no command of this build can read it"
    default:
      change = { $0.settings = Array(#"{"catalog":5}"#.utf8) }
      message = "the journal's 'navigation' settings are invalid: "
    }
    let journal = try crafted(source, in: directory, "\(field).journal") { $0.header = change }
    #expect(try rewind("verify", journal).status == 0, "the storage check cannot see it")
    let deep = try rewind("verify", journal, "--deep", "--json")
    #expect(deep.status == 1)
    let json = try verifyReport(deep.stdout)
    #expect((json["content"] as? [String: Any])?["checked"] as? Bool == false)
    let found = try problems(deep)
    #expect(found.count == 1)
    expectProblem(
      found.first, kind: "domain", frame: nil, offset: 0, sequences: 1...300, message: message)
    let text = try rewind("verify", journal, "--deep")
    #expect(text.status == 1)
    #expect(
      text.lines.first
        == "INVALID \(journal): 1 problem; 1 frame readable (300 events, 4 snapshots)",
      "\(text.stdout)")
    #expect(
      text.lines.dropFirst().first?.hasPrefix("  events 1–300 at byte 0: \(message)") == true,
      "\(text.stdout)")
    #expect(!text.stdout.contains("--salvage"), "salvage cannot help: \(text.stdout)")
  }
}

@Suite("Journals that were not closed: info and verify say so, and how many events they hold")
struct NotClosedTests {
  @Test("a journal whose writer was killed after its last frame")
  func killedWriter() throws {
    let directory = TemporaryDirectory()
    let journal = try issueJournal(in: directory)
    try cutIndex(journal)
    let sentence =
      "not closed: its writer stopped without closing it (killed, crashed, or the machine lost power); it holds 300 events, up to event 300, and the session may have gone on after them; `rewind recover` closes it"
    let info = try rewind("info", journal)
    #expect(info.status == 0)
    #expect(info.stdout.contains("Integrity  \(sentence)\n"), "\(info.stdout)")
    let infoJSON = try parseObject(try rewind("info", journal, "--json").stdout)
    #expect(infoJSON["closed"] as? Bool == false)
    #expect(infoJSON["writing"] as? Bool == false)
    #expect(infoJSON["writerPid"] is NSNull)
    #expect(infoJSON["events"] as? Int == 300)
    #expect((infoJSON["integrity"] as? [String])?.first == sentence)

    let verify = try rewind("verify", journal)
    #expect(verify.status == 0)
    #expect(
      verify.lines == [
        "OK \(journal): 1 frame, 300 events, 4 snapshots, not closed",
        "  \(sentence.prefix(1).uppercased() + sentence.dropFirst()).",
      ], "\(verify.stdout)")
    let json = try verifyReport(try rewind("verify", journal, "--json").stdout)
    #expect(json["closed"] as? Bool == false)
    #expect(json["writing"] as? Bool == false)
    #expect(json["events"] as? Int == 300)
    #expect(json["lastSequence"] as? Int == 300)
    #expect(json["notClosed"] as? String == sentence)
    // Recovered (closed), its original is kept, and not called damaged: it was not.
    let copy = directory.file("copy.journal")
    try FileManager.default.copyItem(atPath: journal, toPath: copy)
    let recovered = try rewind("recover", copy)
    #expect(recovered.status == 0, "\(recovered.stderr)")
    #expect(
      recovered.stdout.contains("The original is kept as \(copy).damaged."), "\(recovered.stdout)")

    // A closed journal says so.
    let closed = try verifyReport(
      try rewind("verify", try issueJournal(in: directory, "c.journal"), "--json").stdout)
    #expect(closed["closed"] as? Bool == true)
    #expect(closed["notClosed"] is NSNull)
  }

  @Test("a journal being written: info and verify name the writer's process")
  func liveWriter() throws {
    let directory = TemporaryDirectory()
    let journal = try issueJournal(in: directory)
    let recorder = try JournalRecorder<NavigationDomain>.continuing(at: journal)
    defer { try? recorder.close() }
    try recorder.record(.backTapped, at: recorder.lastTime + 1_000)
    try recorder.flush()
    let pid = ProcessInfo.processInfo.processIdentifier
    let sentence =
      "not closed: process \(pid) is writing it still; so far it holds 301 events, up to event 301"
    let info = try rewind("info", journal)
    #expect(info.stdout.contains("Integrity  \(sentence)\n"), "\(info.stdout)")
    let infoJSON = try parseObject(try rewind("info", journal, "--json").stdout)
    #expect(infoJSON["writing"] as? Bool == true)
    #expect(infoJSON["writerPid"] as? Int == Int(pid))
    let verify = try rewind("verify", journal)
    #expect(
      verify.lines.last == "  \(sentence.prefix(1).uppercased() + sentence.dropFirst()).",
      "\(verify.stdout)")
    let json = try verifyReport(try rewind("verify", journal, "--json").stdout)
    #expect(json["writing"] as? Bool == true)
    #expect(json["writerPid"] as? Int == Int(pid))
  }

  @Test(
    "a writer closed but not yet released, then released while another writes the journal: info still names the writer's process"
  )
  func closedWriterReleasedLater() throws {
    let directory = TemporaryDirectory()
    let journal = try issueJournal(in: directory)
    var first: JournalRecorder<NavigationDomain>? = try .continuing(at: journal)
    try first?.record(.backTapped, at: (first?.lastTime ?? 0) + 1_000)
    try first?.close()
    // The journal continued by a second writer of this process while the first, closed,
    // is still held; then the first is released. (Its descriptor, had the close left it
    // open, would drop this process's lock marking the writer when it closed.)
    let second = try JournalRecorder<NavigationDomain>.continuing(at: journal)
    defer { try? second.close() }
    try second.record(.backTapped, at: second.lastTime + 1_000)
    try second.flush()
    first = nil
    let infoJSON = try parseObject(try rewind("info", journal, "--json").stdout)
    #expect(infoJSON["writing"] as? Bool == true)
    #expect(infoJSON["writerPid"] as? Int == Int(ProcessInfo.processInfo.processIdentifier))
  }
}

@Suite("recover --salvage keeps what the deep check finds right and repairs or drops the rest")
struct ContentSalvageTests {
  @Test("a snapshot whose bytes were changed is written again from the replayed state")
  func snapshotWrittenAgain() throws {
    let directory = TemporaryDirectory()
    let journal = try issueJournal(in: directory)
    let pristine = bytes(of: journal)
    try rewriteFrameHeader(journal, frame: 0) { snapshots in
      snapshots[snapshots.count - 1].snapshot.state[0] ^= 0x01
    }
    // Without --salvage, recovery keeps whole frames as they are.
    let plain = try rewind("recover", journal)
    #expect(plain.status == 0)
    #expect(plain.stdout.contains("is whole"), "\(plain.stdout)")

    let output = directory.file("salvaged.journal")
    let salvaged = try rewind("recover", journal, "--salvage", "-o", output)
    #expect(salvaged.status == 0, "\(salvaged.stderr)")
    #expect(
      salvaged.lines.contains(
        "Wrote the snapshot after event 256 (frame 0) again from the replayed state."),
      "\(salvaged.stdout)")
    #expect(
      salvaged.stdout.contains("kept 300 events (last event 300) in 1 frame, dropped 0 events."))
    // The journal's bytes are the original's again.
    #expect(bytes(of: output) == pristine)
    let deep = try rewind("verify", output, "--deep")
    #expect(deep.status == 0, "\(deep.stdout)")
    let json = try parseObject(
      try rewind("recover", journal, "--salvage", "-o", directory.file("again.journal"), "--json")
        .stdout)
    #expect((json["replacedSnapshots"] as? [[String: Int]])?.first == ["frame": 0, "seq": 256])
  }

  @Test(
    "a frame whose recorded effect does not read is dropped and its events marked lost; the others are kept"
  )
  func frameDropped() throws {
    let directory = TemporaryDirectory()
    let source = try fourFrameJournal(in: directory)
    let victim = try JournalReader(path: source).frames[1]
    let bad = victim.firstSequence + 50
    let journal = try crafted(source, in: directory, "event.journal") { changes in
      // A recorded effect of kind 3, which Rewind never writes.
      changes.payload = { sequence, payload in if sequence == bad { payload = [0x03] } }
    }
    let salvaged = try rewind("recover", journal, "--salvage")
    #expect(salvaged.status == 0, "\(salvaged.stderr)")
    let frame = try JournalReader(path: journal + ".damaged").frames[1]
    #expect(
      salvaged.lines.contains(
        "Dropped frame 1 (events \(frame.firstSequence)–\(frame.lastSequence)) at byte \(frame.offset), whose content is wrong: event \(bad) cannot be decoded."
      ), "\(salvaged.stdout)")
    #expect(
      salvaged.lines.contains(
        "Dropped damaged events \(frame.firstSequence)–\(frame.lastSequence) (marked lost)."),
      "\(salvaged.stdout)")
    let dropped = Int(frame.recordCount)
    #expect(
      salvaged.stdout.contains(
        "kept \(grouped(30_000 - dropped)) events (last event 30000) in 3 frames, dropped \(grouped(dropped)) events."
      ), "\(salvaged.stdout)")
    let deep = try rewind("verify", journal, "--deep")
    #expect(deep.status == 0, "\(deep.stdout)")
    // The events after the lost ones replay from the snapshot that starts their frame.
    let end = try rewind("state", journal, "--json")
    #expect(end.status == 0)
    #expect(end.stdout == (try rewind("state", source, "--json")).stdout)
  }

  @Test(
    "a frame whose events the domain does not decode is kept as it is: salvage says why and exits with 1"
  )
  func frameKept() throws {
    let directory = TemporaryDirectory()
    let source = try fourFrameJournal(in: directory)
    let victim = try JournalReader(path: source).frames[1]
    let bad = victim.firstSequence + 50
    let journal = try crafted(source, in: directory, "event.journal") { changes in
      // Effect 0 (applied, nothing changed), then an event code no event has.
      changes.payload = { sequence, payload in if sequence == bad { payload = [0x00, 0x7F] } }
    }
    let before = bytes(of: journal)
    let salvaged = try rewind("recover", journal, "--salvage")
    #expect(salvaged.status == 1)
    #expect(
      salvaged.lines.first?.hasPrefix(
        "Kept frame 1 (events \(victim.firstSequence)–\(victim.lastSequence)) at byte \(victim.offset), whose content this domain does not read as recorded: event \(bad) cannot be decoded as schema 2 of 'navigation' ("
      ) == true, "\(salvaged.stdout)")
    #expect(
      salvaged.lines.dropFirst().first
        == "Salvage drops damage, never intact events: the frame above is kept, and \(journal) is left as it was, holding events this domain does not read as recorded.",
      "\(salvaged.stdout)")
    #expect(salvaged.lines.count == 2, "\(salvaged.stdout)")
    #expect(bytes(of: journal) == before)
    #expect(!FileManager.default.fileExists(atPath: journal + ".damaged"))
  }
}

@Suite("verify's help names --deep")
struct DeepVerifyHelpTests {
  @Test("rewind help verify")
  func help() throws {
    let help = try rewind("help", "verify")
    #expect(help.status == 0)
    #expect(help.stdout.contains("--deep"))
    #expect(help.stdout.contains("Says when the journal was not closed"))
  }
}
