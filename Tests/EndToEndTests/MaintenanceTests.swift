import Foundation
import TestSupport
import Testing

@testable import RewindJournal

/// `12,345`: a count as rewind prints it.
func grouped(_ value: Int) -> String {
  var digits = Array(String(value))
  var index = digits.count - 3
  while index > 0 {
    digits.insert(",", at: index)
    index -= 3
  }
  return String(digits)
}

@Suite("Checking and repairing: check, verify, recover, and runtime errors")
struct MaintenanceTests {
  @Test("check passes the sample journals and fails a wrong expected state with exit 1")
  func check() throws {
    let passing = try rewind(
      "check", sample("ipad-three-column.journal"), sample("iphone-compact.journal"))
    #expect(passing.status == 0)
    #expect(passing.lines.last == "2 passed, 0 failed")
    #expect(passing.lines[0].hasPrefix("PASS \(sample("ipad-three-column.journal")): 32 events"))

    let directory = TemporaryDirectory()
    let wrong = directory.file("wrong.state.json")
    var expected = try String(contentsOfFile: sample("iphone-compact.state.json"), encoding: .utf8)
    expected = expected.replacingOccurrences(
      of: "\"selectedIndex\": 0", with: "\"selectedIndex\": 3")
    write(expected, to: wrong)
    let failing = try rewind("check", sample("iphone-compact.journal"), "--expect", wrong)
    #expect(failing.status == 1)
    #expect(failing.stdout.contains("FAIL \(sample("iphone-compact.journal"))"))
    #expect(failing.stdout.contains("menu.selectedIndex: - 3  + 0"))
    #expect(failing.lines.last == "0 passed, 1 failed")
    let json = try parseObject(
      try rewind("check", sample("iphone-compact.journal"), "--expect", wrong, "--json").stdout)
    #expect(json["failed"] as? Int == 1)
    expectUsageError(
      try rewind(
        "check", sample("iphone-compact.journal"), sample("day-menu.journal"), "--expect", wrong),
      "--expect applies to one journal; give each journal NAME.state.json instead", command: "check"
    )
  }

  @Test("verify reports damage with its location and exits 1; recover repairs a torn tail")
  func verifyAndRecover() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("g.journal")
    _ = try rewind("generate", "-o", journal, "--events", "100000", "--seed", "4")
    let ok = try rewind("verify", journal)
    #expect(ok.status == 0)
    #expect(ok.stdout.hasPrefix("OK \(journal): "))
    let okJSON = try verifyReport(try rewind("verify", journal, "--json").stdout)
    #expect(okJSON["ok"] as? Bool == true)

    // Only the start of the header: nothing can repair it, and verify does not say recover can.
    let stub = directory.file("stub.journal")
    write(Array(bytes(of: journal)[..<8]), to: stub)
    let unrepairable = try rewind("verify", stub)
    #expect(unrepairable.status == 1)
    #expect(
      unrepairable.lines == [
        "DAMAGED \(stub): 1 problem; 0 frames readable (0 events, 0 snapshots)",
        "  at byte 0: the journal header is cut short (the file has 8 bytes); without it the frames can be checked but the journal cannot be read",
        "  Not closed: its writer stopped without closing it (killed, crashed, or the machine lost power); it holds no event.",
        "  No intact copy of the header is left: the journal cannot be repaired.",
      ], "\(unrepairable.stdout)")
    // Fewer bytes than the magic and the size: a journal cut short too, not another file
    // (its first byte is `[`, which JSON starts with).
    for count in [2, 4, 7] {
      write(Array(bytes(of: journal)[..<count]), to: stub)
      for command in ["info", "verify"] {
        let result = try rewind(command, stub)
        #expect(result.status == 1)
        #expect(
          (result.stdout + result.stderr).contains(
            "the journal header is cut short (the file has \(count) bytes)"),
          "\(command) of \(count) bytes: \(result.stdout)\(result.stderr)")
        #expect(!result.stderr.contains("JSON"), "\(result.stderr)")
      }
    }

    // A torn tail: a crash in the middle of writing the last frame.
    let whole = bytes(of: journal)
    let frames = try JournalReader(path: journal).frames
    write(Array(whole[..<Int(frames.last!.dataOffset + 100)]), to: journal)
    let damaged = try rewind("verify", journal)
    #expect(damaged.status == 1)
    #expect(damaged.stdout.hasPrefix("DAMAGED \(journal): 1 problem"))
    #expect(damaged.stdout.contains("bytes at the end are not a whole frame"))
    #expect(try rewind("info", journal).stdout.contains("torn tail"))
    let warned = try rewind("state", journal, "--at", "10")
    #expect(warned.status == 0)
    #expect(warned.stderr.hasPrefix("warning: \(journal): the last "))
    #expect(warned.stderr.contains("are not a whole frame"))
    let recovered = try rewind("recover", journal)
    #expect(recovered.status == 0)
    let survivors = Int(frames.last!.firstSequence - 1)
    #expect(
      recovered.stdout.contains(
        "Recovered \(journal): kept \(grouped(survivors)) events (last event \(survivors))"),
      "\(recovered.stdout)")
    #expect(recovered.stdout.contains("The damaged original is kept as \(journal).damaged."))
    #expect(try rewind("verify", journal).status == 0)
    let again = try rewind("recover", journal, "--json")
    #expect(try parseObject(again.stdout)["changed"] as? Bool == false)

    // Damage in the middle: recover refuses without --salvage, then salvages to a new file.
    #expect(frames.count > 5)
    var middle = bytes(of: journal)
    middle[Int(frames[2].dataOffset) + 40] ^= 0x20
    write(middle, to: journal)
    let refused = try rewind("recover", journal)
    expectFailure(
      refused,
      containing: "good frames follow it: recover with salvage (`rewind recover --salvage`)")
    let salvaged = directory.file("salvaged.journal")
    let salvage = try rewind("recover", journal, "--salvage", "-o", salvaged)
    #expect(salvage.status == 0)
    #expect(
      salvage.stdout.contains(
        "Dropped damaged events \(frames[2].firstSequence)–\(frames[2].lastSequence) (marked lost)."
      ))
    #expect(try rewind("verify", salvaged).status == 0)
    expectFailure(
      try rewind("state", salvaged, "--at", String(frames[2].firstSequence)),
      containing: "was lost to damage")
    #expect(try rewind("state", salvaged, "--at", "end").status == 0)
    // log and export go on past the lost events, and say so.
    let log = try rewind("log", salvaged, "--json")
    #expect(log.status == 0)
    #expect(log.lines.count == survivors - Int(frames[2].recordCount))
    #expect(
      log.stderr
        == "warning: \(salvaged): events \(frames[2].firstSequence)–\(frames[2].lastSequence) were lost to damage and are missing here\n"
    )
    let export = try rewind("export", salvaged)
    #expect(export.lines.count == survivors - Int(frames[2].recordCount) + 1)
    // An export that starts among the lost events is refused before it writes anything.
    let lostStart = try rewind("export", salvaged, "--from", String(frames[2].firstSequence))
    expectFailure(lostStart, containing: "event \(frames[2].firstSequence) was lost to damage")
    #expect(lostStart.stdout.isEmpty, "\(lostStart.stdout.prefix(80))")
  }

  @Test(
    "bytes written after a closed journal: verify names them alone (not an unclosed journal), info says it is closed, recover cuts them"
  )
  func bytesAfterClosing() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("j.journal")
    let size = try writeTornCopy(of: "day-menu.journal", to: journal, count: 24)
    let verified = try rewind("verify", journal)
    #expect(verified.status == 1)
    #expect(
      verified.lines == [
        "DAMAGED \(journal): 1 problem; 1 frame readable (25 events, 0 snapshots)",
        "  at byte \(size): 24 bytes at the end are not a whole frame (written to the file after its trailer, once it was closed); `rewind recover` cuts them",
        "  `rewind recover \(journal)` repairs it (with --salvage when damaged events have good frames after them).",
      ], "\(verified.stdout)")
    let info = try rewind("info", journal)
    #expect(info.status == 0, "\(info.stderr)")
    #expect(
      info.stdout.contains("Integrity  closed, then written past: bytes follow its trailer\n"),
      "\(info.stdout)")
    #expect(!info.stdout.contains("not closed"), "\(info.stdout)")
    let recovered = try rewind("recover", journal)
    #expect(recovered.status == 0, "\(recovered.stderr)")
    #expect(bytes(of: journal) == bytes(of: sample("day-menu.journal")))
  }

  @Test("runtime failures name the file and the problem and exit 1")
  func runtimeErrors() throws {
    let directory = TemporaryDirectory()
    expectFailure(
      try rewind("info", directory.file("missing.journal")),
      containing: "\(directory.file("missing.journal")): no such file")
    let text = directory.file("notes.journal")
    write("not a journal\n", to: text)
    expectFailure(
      try rewind("state", text),
      containing: "\(text): not a Rewind journal (it does not start with a journal header)")
    let folder = try rewind("verify", directory.path)
    #expect(folder.status == 1)
    #expect(folder.stdout.contains("is a directory"), "\(folder.stdout)")

    // A journal of a domain this rewind does not know.
    let foreign = directory.file("foreign.journal")
    let writer = try JournalWriter.create(
      at: foreign,
      header: JournalHeader(
        domain: "checkout", schemaVersion: 1, sessionID: .random(), startTime: 0, device: "",
        settings: [], snapshotInterval: 64))
    try writer.append(time: 0, payload: [0])
    try writer.close()
    expectFailure(
      try rewind("log", foreign),
      containing:
        "\(foreign): the journal records domain 'checkout'; this rewind knows 'navigation'")
    // Verification and recovery work on any domain.
    #expect(try rewind("verify", foreign).status == 0)
  }

  @Test("a journal being written is locked: recover says which process holds it")
  func lockHeld() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("live.journal")
    let writer = try JournalWriter.create(
      at: journal,
      header: JournalHeader(
        domain: "navigation", schemaVersion: 1, sessionID: .random(), startTime: 0, device: "",
        settings: [], snapshotInterval: 64))
    defer { try? writer.close() }
    let result = try rewind("recover", journal)
    let holder =
      "journal is being written by another process (pid \(ProcessInfo.processInfo.processIdentifier))"
    expectFailure(
      result, containing: "\(journal): \(holder); stop it before recovering the journal")
    // Importing over a journal being written is refused too, and writes nothing.
    let events = directory.file("events.jsonl")
    write("{\"seq\": 1, \"time_us\": 0, \"event\": \"backTapped\"}\n", to: events)
    expectFailure(try rewind("import", events, "-o", journal, "--force"), containing: holder)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
        "events.jsonl", "live.journal",
      ])
  }
}

/// The journal at `path` with its last frame compressed again without a content size in
/// its zstd header, the frame's checksums made to verify, and its index cut (the frame is
/// the journal's end).
func rewriteLastFrameWithoutContentSize(_ path: String) throws {
  let reader = try JournalReader(path: path)
  let index = reader.frames.count - 1
  let info = reader.frames[index]
  let raw = try reader.decompressedContent(ofFrame: index)
  let compressor = try ZstdCompressor(level: 3, contentSize: false)
  var data = [UInt8](repeating: 0, count: ZstdCompressor.bound(raw.count))
  let size = try raw.withBytes { source throws(JournalError) in
    try data.withMutableBytes { destination throws(JournalError) in
      try compressor.compress(source, into: destination)
    }
  }
  data.removeLast(data.count - size)
  let old = try reader.frameHeader(index)
  var header = FrameHeader(
    info: old.info, rawSize: UInt32(raw.count),
    compressedChecksum: data.withUnsafeBytes { XXH64.checksum32($0) }, snapshots: old.snapshots)
  header.info.compressedSize = UInt32(size)
  write(Array(bytes(of: path)[..<Int(info.offset)]) + header.encoded() + data, to: path)
}

@Suite("Verify and recover: one message per problem, whole frames kept, headers rebuilt")
struct RepairTests {
  @Test("recover keeps a whole last frame written without a declared content size")
  func frameWithoutContentSize() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("g.journal")
    _ = try rewind("generate", "-o", journal, "--events", "300", "--seed", "8")
    try rewriteLastFrameWithoutContentSize(journal)
    #expect(try rewind("verify", journal).status == 0)
    let recovered = try rewind("recover", journal)
    #expect(recovered.status == 0)
    #expect(
      recovered.stdout.contains("kept 300 events (last event 300) in 1 frame, dropped 0 events."),
      "\(recovered.stdout)")
    #expect(try rewind("log", journal, "--json").lines.count == 300)
  }

  @Test("one flipped byte in the header: info and log warn, verify names it, recover rebuilds it")
  func damagedHeader() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("g.journal")
    _ = try rewind("generate", "-o", journal, "--events", "5000", "--seed", "3")
    let pristine = bytes(of: journal)
    let copyOffset = 8 + Int(pristine[4]) | Int(pristine[5]) << 8 | Int(pristine[6]) << 16
    var damaged = pristine
    damaged[30] ^= 0x01
    write(damaged, to: journal)
    let reason =
      "the journal header is damaged (byte 30 differs from the copy after the header, which starts at byte \(copyOffset)); it was read from the copy"

    let info = try rewind("info", journal)
    #expect(info.status == 0)
    #expect(info.stdout.contains(reason + "; run `rewind recover`"), "\(info.stdout)")
    let log = try rewind("log", journal, "--json")
    #expect(log.status == 0 && log.lines.count == 5000)
    #expect(log.stderr == "warning: \(journal): \(reason); `rewind recover` rebuilds it\n")

    let verify = try rewind("verify", journal)
    #expect(verify.status == 1)
    #expect(
      verify.lines.prefix(2) == [
        "DAMAGED \(journal): 1 problem; 1 frame readable (5,000 events, 4 snapshots)",
        "  at byte 30: \(reason)",
      ], "\(verify.stdout)")
    let json = try verifyReport(try rewind("verify", journal, "--json").stdout)
    #expect(json["ok"] as? Bool == false)
    let problems = try #require(json["problems"] as? [[String: Any]])
    #expect(problems.count == 1)
    #expect(problems.first?["kind"] as? String == "header")
    #expect(problems.first?["offset"] as? Int == 30)
    #expect(problems.first?["frame"] is NSNull)
    #expect(problems.first?["sequences"] is NSNull)
    #expect(problems.first?["message"] as? String == reason)

    let recovered = try rewind("recover", journal)
    #expect(recovered.status == 0)
    #expect(recovered.stdout.hasPrefix("Rebuilt the header from its copy: \(reason)."))
    #expect(
      recovered.stdout.contains("kept 5,000 events (last event 5000) in 1 frame, dropped 0 events.")
    )
    #expect(recovered.stdout.contains("The damaged original is kept as \(journal).damaged."))
    #expect(bytes(of: journal + ".damaged") == damaged)
    #expect(Array(bytes(of: journal)[..<copyOffset]) == Array(pristine[..<copyOffset]))
    #expect(try rewind("verify", journal).status == 0)
  }

  @Test("verify says each problem once, counts damaged frames as damaged, and --json has objects")
  func damagedFrame() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("g.journal")
    _ = try rewind("generate", "-o", journal, "--events", "100000", "--seed", "4")
    let frames = try JournalReader(path: journal).frames
    let victim = frames[2]
    var damaged = bytes(of: journal)
    damaged[Int(victim.dataOffset) + 40] ^= 0x20
    write(damaged, to: journal)
    let readable = 100_000 - Int(victim.recordCount)
    let verify = try rewind("verify", journal)
    #expect(verify.status == 1)
    #expect(
      verify.lines.first?.hasPrefix(
        "DAMAGED \(journal): 1 problem; \(frames.count - 1) of \(frames.count) frames readable (\(grouped(readable)) events, "
      ) == true, "\(verify.stdout)")
    #expect(
      verify.lines.first?.hasSuffix(
        "; 1 frame damaged, \(grouped(Int(victim.recordCount))) events unreadable") == true)
    let problem = verify.lines[1]
    #expect(
      problem.hasPrefix(
        "  frame 2 (events \(victim.firstSequence)–\(victim.lastSequence)) at byte \(victim.offset): checksum mismatch in the compressed data (stored 0x"
      ), "\(problem)")
    #expect(
      problem.components(separatedBy: "checksum mismatch").count == 2, "said twice: \(problem)")
    #expect(problem.components(separatedBy: "at byte").count == 2, "two offsets: \(problem)")

    let json = try verifyReport(try rewind("verify", journal, "--json").stdout)
    #expect(json["damagedFrames"] as? Int == 1)
    #expect(json["events"] as? Int == readable)
    let problems = try #require(json["problems"] as? [[String: Any]])
    #expect(problems.count == 1)
    let object = try #require(problems.first)
    #expect(object["kind"] as? String == "frame")
    #expect(object["frame"] as? Int == 2)
    #expect(object["offset"] as? Int == Int(victim.offset))
    let sequences = try #require(object["sequences"] as? [String: Any])
    #expect(sequences["from"] as? Int == Int(victim.firstSequence))
    #expect(sequences["to"] as? Int == Int(victim.lastSequence))
    #expect(
      (object["message"] as? String)?.hasPrefix("checksum mismatch in the compressed data") == true)

    // A command that meets the damage as it replays says where it is and what to do.
    let hint =
      "; `rewind verify \(journal)` lists the damage, `rewind recover \(journal)` repairs it (with --salvage when good frames follow the damaged ones)\n"
    for arguments in [
      ["state", journal, "--at", String(victim.lastSequence)], ["log", journal],
      ["find", journal, "--where", "changed(split.style)", "--count"], ["play", journal],
    ] {
      let result = try rewind(arguments)
      #expect(result.status == 1, "\(arguments)")
      #expect(
        result.stderr.hasPrefix("Error: \(journal): frame 2 (events \(victim.firstSequence)–"),
        "\(arguments): \(result.stderr)")
      #expect(result.stderr.hasSuffix(hint), "\(arguments): \(result.stderr)")
    }
    // An answer printed as it goes keeps what came before the damage, and its JSON document
    // is left unclosed: no parser takes it for a whole answer (README).
    for arguments in [
      ["diff", journal, "--from", "1", "--to", "99000", "--events", "--json"],
      ["find", journal, "--where", "outcome == applied", "--all", "--json"],
    ] {
      let result = try rewind(arguments)
      #expect(result.status == 1, "\(arguments)")
      #expect(result.stderr.hasSuffix(hint), "\(arguments): \(result.stderr)")
      #expect(result.stdout.contains("\"seq\": \(victim.firstSequence - 1),"), "\(arguments)")
      #expect(
        (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) == nil,
        "\(arguments): a whole document")
    }
  }

  @Test("verify takes several journals: each reported in turn, exit 1 if any is not whole")
  func severalJournals() throws {
    let directory = TemporaryDirectory()
    let whole = sample("day-menu.journal")
    let damaged = directory.file("g.journal")
    _ = try rewind("generate", "-o", damaged, "--events", "20000", "--seed", "4")
    let frame = try JournalReader(path: damaged).frames[1]
    var bytes = bytes(of: damaged)
    bytes[Int(frame.dataOffset) + 40] ^= 0x20
    write(bytes, to: damaged)
    let text = directory.file("notes.journal")
    write(Array("not a journal\n".utf8), to: text)

    let clean = try rewind("verify", whole, sample("two-column.journal"))
    #expect(clean.status == 0)
    #expect(clean.lines.count == 3)
    #expect(clean.lines.dropLast().allSatisfy { $0.hasPrefix("OK ") }, "\(clean.stdout)")
    #expect(clean.lines.last == "2 journals whole, 0 not")

    let mixed = try rewind("verify", whole, text, damaged)
    #expect(mixed.status == 1)
    #expect(mixed.lines.first?.hasPrefix("OK \(whole): ") == true, "\(mixed.stdout)")
    #expect(mixed.stdout.contains("DAMAGED \(damaged): 1 problem; "), "\(mixed.stdout)")
    // One that cannot be verified, in its place on standard output (on standard error,
    // it was away from it in a log of both).
    #expect(
      mixed.lines.dropFirst().first?.hasPrefix("UNREADABLE \(text): not a Rewind journal") == true,
      "\(mixed.stdout)")
    #expect(mixed.stderr.isEmpty, "\(mixed.stderr)")
    #expect(mixed.lines.last == "1 journal whole, 2 not")

    let json = try rewind("verify", whole, text, damaged, "--json")
    #expect(json.status == 1)
    let output = try parseObject(json.stdout)
    #expect(output["whole"] as? Int == 1)
    #expect(output["notWhole"] as? Int == 2)
    let reports = try verifyReports(json.stdout)
    #expect(reports.map { $0["path"] as? String } == [whole, text, damaged])
    #expect(reports.map { $0["ok"] as? Bool } == [true, false, false])
    #expect((reports[1]["error"] as? String)?.contains("not a Rewind journal") == true)
    #expect(reports[2]["damagedFrames"] as? Int == 1)

    // A journal's name reaches the terminal escaped, as every error's does.
    let escape = directory.file("a\u{1B}[31m.journal")
    let named = try rewind("verify", whole, escape)
    #expect(named.status == 1)
    #expect(
      named.stdout.contains("UNREADABLE \(directory.file("a\\u{1B}[31m.journal"))"),
      "\(named.stdout)")
    #expect(!named.stdout.contains("\u{1B}"))
  }

  @Test("verify --json answers in JSON even for a file that is no journal")
  func jsonAlways() throws {
    let directory = TemporaryDirectory()
    let text = directory.file("notes.journal")
    write(Array("not a journal\n".utf8), to: text)
    let result = try rewind("verify", text, "--json")
    #expect(result.status == 1)
    let json = try verifyReport(result.stdout)
    #expect(json["ok"] as? Bool == false)
    #expect((json["error"] as? String)?.contains("not a Rewind journal") == true)
    // Said in the JSON, as among several.
    #expect(result.stderr.isEmpty, "\(result.stderr)")
  }

  @Test("verify --json has one shape whatever the number of journals, the counts as the text's")
  func jsonOneShape() throws {
    let directory = TemporaryDirectory()
    let text = directory.file("notes.journal")
    write(Array("not a journal\n".utf8), to: text)
    let whole = sample("day-menu.journal")
    for (journals, counts) in [
      ([whole], (1, 0)), ([text], (0, 1)), ([whole, text], (1, 1)),
      ([whole, sample("two-column.journal")], (2, 0)),
    ] {
      let result = try rewind(["verify"] + journals + ["--json"])
      let json = try parseObject(result.stdout)
      #expect(Set(json.keys) == ["journals", "whole", "notWhole"], "\(result.stdout)")
      let reports = try verifyReports(result.stdout)
      #expect(reports.map { $0["path"] as? String } == journals)
      #expect(json["whole"] as? Int == counts.0, "\(journals)")
      #expect(json["notWhole"] as? Int == counts.1, "\(journals)")
      #expect(result.status == (counts.1 == 0 ? 0 : 1), "\(journals)")
    }
  }

  @Test("verify says a single journal it cannot read as it says one among several")
  func unreadableAlone() throws {
    let directory = TemporaryDirectory()
    let empty = directory.file("empty.journal")
    write([], to: empty)
    let among = try rewind("verify", empty, sample("day-menu.journal"))
    let line = "UNREADABLE \(empty): the file is empty, not a Rewind journal"
    #expect(among.lines.first == line, "\(among.stdout)")
    let alone = try rewind("verify", empty)
    #expect(alone.status == 1)
    #expect(alone.lines == [line], "\(alone.stdout)")
    #expect(alone.stderr.isEmpty, "\(alone.stderr)")
    // A directory, in its place too.
    let folder = try rewind("verify", directory.path)
    #expect(folder.status == 1)
    #expect(
      folder.lines.first?.hasPrefix("UNREADABLE \(directory.path): ") == true, "\(folder.stdout)")
    #expect(folder.stdout.contains("is a directory"), "\(folder.stdout)")
  }

  @Test("recover -o leaves the original, and may not write over it under any name")
  func recoverToOutput() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("g.journal")
    let torn = try tornJournal(at: journal)
    let hard = directory.file("hard.journal")
    let symbolic = directory.file("symbolic.journal")
    try FileManager.default.linkItem(atPath: journal, toPath: hard)
    try FileManager.default.createSymbolicLink(atPath: symbolic, withDestinationPath: journal)
    for output in [journal, hard, symbolic] {
      let how = output == journal ? "" : " under another name"
      expectUsageError(
        try rewind("recover", journal, "-o", output),
        "-o \(output): the output would overwrite the input \(journal) (the same file\(how)); choose another output file",
        command: "recover")
    }
    #expect(bytes(of: journal) == torn)
    let output = directory.file("repaired.journal")
    let recovered = try rewind("recover", journal, "-o", output)
    #expect(recovered.status == 0)
    #expect(recovered.stdout.contains("The original \(journal) is left as it was."))
    #expect(bytes(of: journal) == torn)
    #expect(try rewind("verify", output).status == 0)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
        "g.journal", "hard.journal", "repaired.journal", "symbolic.journal",
      ])
    let json = try parseObject(
      try rewind("recover", journal, "-o", directory.file("j.journal"), "--json").stdout)
    #expect(json["originalKeptAt"] is NSNull)
    #expect(json["droppedEvents"] as? Int == 0)
  }

  @Test("recover in place through a symbolic link repairs the file it leads to and keeps the link")
  func recoverThroughALink() throws {
    let directory = TemporaryDirectory()
    let fixtures = directory.file("fixtures")
    try FileManager.default.createDirectory(atPath: fixtures, withIntermediateDirectories: true)
    let target = fixtures + "/target.journal"
    var bytes = try Data(contentsOf: URL(fileURLWithPath: sample("two-column.journal")))
    bytes.removeLast(30)
    try bytes.write(to: URL(fileURLWithPath: target))
    let link = directory.file("latest.journal")
    try FileManager.default.createSymbolicLink(
      atPath: link, withDestinationPath: "fixtures/target.journal")
    // The file's path as the system resolves it (on macOS /var is /private/var).
    let resolved = URL(fileURLWithPath: target).resolvingSymlinksInPath().path
    let recovered = try rewind("recover", link)
    #expect(recovered.status == 0, "\(recovered.stderr)")
    #expect(
      recovered.lines.first
        == "\(link) is a symbolic link to \(resolved), which is repaired; the link is kept.",
      "\(recovered.stdout)")
    #expect(recovered.stdout.contains("The damaged original is kept as \(resolved).damaged."))
    // The link leads where it did, to the repaired journal; the original beside it.
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: link) == "fixtures/target.journal")
    #expect(try rewind("verify", link).status == 0)
    #expect(try rewind("verify", target).status == 0)
    #expect(FileManager.default.fileExists(atPath: target + ".damaged"))
    #expect(!FileManager.default.fileExists(atPath: link + ".damaged"))
    // Whole now: nothing to do, nothing said of a repair.
    let again = try rewind("recover", link)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(!again.stdout.contains("which is repaired"), "\(again.stdout)")
  }

  @Test("the commands a message suggests are quoted for a shell: a path with a space or a quote")
  func suggestedCommandsQuoted() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("my it's.journal")
    try writeTornCopy(of: "two-column.journal", to: journal)
    let quoted = "'" + journal.replacingOccurrences(of: "'", with: "'\\''") + "'"
    let verified = try rewind("verify", journal)
    #expect(verified.stdout.contains("`rewind recover \(quoted)` repairs it"), "\(verified.stdout)")
    // A frame damaged in the middle, met by a command that replays it.
    _ = try rewind("generate", "-o", journal, "--events", "20000", "--seed", "4", "--force")
    let frame = try JournalReader(path: journal).frames[1]
    var damaged = bytes(of: journal)
    damaged[Int(frame.dataOffset) + 40] ^= 0x20
    write(damaged, to: journal)
    let logged = try rewind("log", journal)
    #expect(logged.status == 1)
    #expect(
      logged.stderr.contains(
        "; `rewind verify \(quoted)` lists the damage, `rewind recover \(quoted)` repairs it"),
      "\(logged.stderr)")
  }

  @Test("recover -o writes the repaired journal as private as the journal (it was 644 for 600)")
  func recoverKeepsPermissions() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("private.journal")
    try writeTornCopy(of: "two-column.journal", to: journal)
    #expect(chmod(journal, 0o600) == 0)
    let output = directory.file("repaired.journal")
    let recovered = try rewind("recover", journal, "-o", output)
    #expect(recovered.status == 0, "\(recovered.stderr)")
    let permissions = try FileManager.default.attributesOfItem(atPath: output)[.posixPermissions]
    #expect(permissions as? Int == 0o600)
    // Never more than the process's umask grants: a journal open to all stays as private
    // as a new file is.
    #expect(chmod(journal, 0o666) == 0)
    let open = directory.file("open.journal")
    let narrowed = try run(
      "/bin/sh",
      ["-c", "umask 077 && exec \"$0\" recover \"$1\" -o \"$2\"", rewindBinary, journal, open],
      environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
    #expect(narrowed.status == 0, "\(narrowed.stderr)")
    let mode = try FileManager.default.attributesOfItem(atPath: open)[.posixPermissions]
    #expect(mode as? Int == 0o600)
  }

  @Test("recover -o replaces a file already there only with --force")
  func recoverOverExistingOutput() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("g.journal")
    let torn = try tornJournal(at: journal)
    let output = directory.file("repaired.journal")
    write("keep me\n", to: output)
    expectFailure(
      try rewind("recover", journal, "-o", output),
      containing: "\(output): the file exists; pass --force to replace it")
    #expect(bytes(of: output) == Array("keep me\n".utf8))
    #expect(bytes(of: journal) == torn)
    expectUsageError(
      try rewind("recover", journal, "--force"),
      "--force replaces the file -o names; without -o the journal is repaired in place and its original kept as JOURNAL.damaged",
      command: "recover")
    #expect(bytes(of: journal) == torn)
    let replaced = try rewind("recover", journal, "-o", output, "--force")
    #expect(replaced.status == 0, "\(replaced.stderr)")
    #expect(try rewind("verify", output).status == 0)
    #expect(bytes(of: journal) == torn)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
        "g.journal", "repaired.journal",
      ])
  }

  @Test("journals of format 1.0 still verify, replay and check")
  func formatOneZero() throws {
    for name in ["day-menu", "ipad-three-column"] {
      let journal = repositoryRoot + "/Journals/format-1.0/\(name).journal"
      #expect(try rewind("verify", journal).status == 0)
      let check = try rewind("check", journal)
      #expect(check.status == 0, "\(check.stdout)")
      #expect(try rewind("info", journal).stdout.contains("format 1.0"))
      let json = try parseObject(try rewind("info", journal, "--json").stdout)
      #expect(json["intact"] as? Bool == true)
    }
  }
}

/// Writes a generated journal of 2,000 events at `path` with its last 50 bytes cut off (a
/// torn tail for `recover`), and returns its bytes.
private func tornJournal(at path: String) throws -> [UInt8] {
  #expect(try rewind("generate", "-o", path, "--events", "2000", "--seed", "5").status == 0)
  let torn = Array(bytes(of: path).dropLast(50))
  write(torn, to: path)
  return torn
}
