import Foundation
import RewindJournal
import Testing

@Suite("Checking and repairing: check, verify, recover, and runtime errors")
struct MaintenanceTests {
  @Test("check passes the sample journals and fails a wrong expected state with exit 1")
  func check() throws {
    let passing = try rewind(
      "check", sample("ipad-three-column.journal"), sample("iphone-compact.journal"))
    #expect(passing.status == 0)
    #expect(passing.lines.last == "2 passed, 0 failed")
    #expect(passing.lines[0].hasPrefix("PASS \(sample("ipad-three-column.journal")): 24 events"))

    let directory = TemporaryDirectory()
    let wrong = directory.file("wrong.state.json")
    var expected = try String(contentsOfFile: sample("iphone-compact.state.json"), encoding: .utf8)
    expected = expected.replacingOccurrences(
      of: "\"selectedIndex\": 0", with: "\"selectedIndex\": 3")
    try expected.write(toFile: wrong, atomically: true, encoding: .utf8)
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
    let okJSON = try parseObject(try rewind("verify", journal, "--json").stdout)
    #expect(okJSON["ok"] as? Bool == true)

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
    #expect(recovered.stdout.contains("events survive (last event \(survivors))"))
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
      refused, containing: "good frames follow it: pass salvage (`rewind recover --salvage`)")
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
  }

  @Test("runtime failures name the file and the problem and exit 1")
  func runtimeErrors() throws {
    let directory = TemporaryDirectory()
    expectFailure(
      try rewind("info", directory.file("missing.journal")),
      containing: "\(directory.file("missing.journal")): no such file")
    let text = directory.file("notes.journal")
    try "not a journal\n".write(toFile: text, atomically: true, encoding: .utf8)
    expectFailure(
      try rewind("state", text),
      containing: "\(text): not a Rewind journal (it does not start with a journal header)")
    expectFailure(try rewind("verify", directory.path), containing: "is a directory")

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
    try "{\"seq\": 1, \"time_us\": 0, \"event\": \"backTapped\"}\n".write(
      toFile: events, atomically: true, encoding: .utf8)
    expectFailure(try rewind("import", events, "-o", journal, "--force"), containing: holder)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
        "events.jsonl", "live.journal",
      ])
  }
}
