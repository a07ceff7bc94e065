import Foundation
import TestSupport
import Testing

@testable import RewindJournal

/// Where the index of a closed journal starts, from its trailer (FORMAT.md: the last 36
/// bytes, whose body starts with `u64 indexOffset`).
private func indexOffset(of journal: [UInt8]) -> Int {
  let body = journal.count - 36 + 12
  return (0..<8).reduce(0) { $0 | Int(journal[body + $1]) << (8 * $1) }
}

/// Problems of issue 9 found by auditing the built `rewind` as a new user would, after the
/// first round of fixes: each test failed before its fix.
@Suite("Audit of issue 9: verify, recover, check and scenarios on damaged or odd input")
struct AuditTests {
  /// A closed journal of 40,000 events in several frames, and its frames.
  private func closedJournal(in directory: TemporaryDirectory) throws -> (String, [FrameInfo]) {
    let journal = directory.file("g.journal")
    _ = try rewind("generate", "-o", journal, "--events", "40000", "--seed", "12")
    let frames = try JournalReader(path: journal).frames
    try #require(frames.count >= 3, "the test needs a frame in the middle")
    return (journal, frames)
  }

  @Test("one flipped byte in a frame header is one damaged frame, not also a wrong index")
  func damagedFrameHeader() throws {
    let directory = TemporaryDirectory()
    let (journal, frames) = try closedJournal(in: directory)
    let frame = frames[1]
    var damaged = bytes(of: journal)
    damaged[Int(frame.offset) + 20] ^= 0x01  // inside firstSequence
    write(damaged, to: journal)
    let range = "events \(frame.firstSequence)–\(frame.lastSequence)"

    let verify = try rewind("verify", journal)
    #expect(verify.status == 1)
    #expect(
      verify.lines[0].hasPrefix(
        "DAMAGED \(journal): 1 problem; \(frames.count - 1) of \(frames.count) frames readable (\(grouped(40_000 - Int(frame.recordCount))) events, "
      ), "\(verify.stdout)")
    #expect(
      verify.lines[0].hasSuffix(
        "; 1 frame damaged, \(grouped(Int(frame.recordCount))) events unreadable"),
      "\(verify.stdout)")
    #expect(verify.lines[1].hasPrefix("  frame 1 (\(range)) at byte \(frame.offset): "))
    #expect(!verify.stdout.contains("index"), "\(verify.stdout)")

    let json = try verifyReport(try rewind("verify", journal, "--json").stdout)
    #expect(json["frames"] as? Int == frames.count)
    #expect(json["damagedFrames"] as? Int == 1)
    #expect(json["damagedEvents"] as? Int == Int(frame.recordCount))
    let problems = try #require(json["problems"] as? [[String: Any]])
    #expect(problems.count == 1)
    #expect(problems.first?["frame"] as? Int == 1)
    #expect(problems.first?["offset"] as? Int == Int(frame.offset))
  }

  @Test("a damaged last frame header in a closed journal: its events are named and counted")
  func damagedLastFrameHeader() throws {
    let directory = TemporaryDirectory()
    let (journal, frames) = try closedJournal(in: directory)
    let last = frames[frames.count - 1]
    var damaged = bytes(of: journal)
    damaged[Int(last.offset) + 20] ^= 0x01
    write(damaged, to: journal)
    let range = "events \(last.firstSequence)–\(last.lastSequence)"

    let verify = try rewind("verify", journal)
    #expect(verify.status == 1)
    #expect(verify.lines[0].hasPrefix("DAMAGED \(journal): 1 problem; "), "\(verify.stdout)")
    #expect(
      verify.lines[0].contains(
        "; 1 frame damaged, \(grouped(Int(last.recordCount))) events unreadable"))
    #expect(
      verify.lines[1].hasPrefix("  frame \(frames.count - 1) (\(range)) at byte \(last.offset): "))
    #expect(verify.lines[1].contains("which the index lists there"), "\(verify.stdout)")
    #expect(!verify.stdout.contains("if any, were not durable"))

    let repaired = directory.file("repaired.journal")
    let recover = try rewind("recover", journal, "-o", repaired)
    #expect(recover.status == 0, "\(recover.stderr)")
    #expect(recover.stdout.contains("at byte \(last.offset) (\(range))"), "\(recover.stdout)")
    #expect(
      recover.stdout.contains(
        "kept \(grouped(Int(last.firstSequence) - 1)) events (last event \(last.firstSequence - 1)) in \(frames.count - 1) frames, dropped \(grouped(Int(last.recordCount))) events."
      ), "\(recover.stdout)")
    let json = try parseObject(
      try rewind("recover", journal, "-o", directory.file("again.journal"), "--json").stdout)
    #expect(json["droppedEvents"] as? Int == Int(last.recordCount))
  }

  @Test("a damaged index or trailer is one problem, the index's, not also a torn tail")
  func damagedIndexOrTrailer() throws {
    let directory = TemporaryDirectory()
    let (journal, _) = try closedJournal(in: directory)
    let pristine = bytes(of: journal)
    let index = indexOffset(of: pristine)
    let trailer = pristine.count - 36
    for (offset, what) in [
      (index + 40, "the index"), (index + 4, "the index"), (trailer + 14, "the trailer"),
    ] {
      var damaged = pristine
      damaged[offset] ^= 0x01
      let path = directory.file("damaged-\(offset).journal")
      write(damaged, to: path)
      let verify = try rewind("verify", path)
      #expect(verify.status == 1)
      #expect(verify.lines[0].hasPrefix("DAMAGED \(path): 1 problem; "), "\(verify.stdout)")
      #expect(
        verify.lines[1].hasPrefix(
          "  at byte \(offset < trailer ? index : trailer): \(what) is damaged"), "\(verify.stdout)"
      )
      #expect(verify.lines[1].hasSuffix("; readers walk the frames instead"), "\(verify.stdout)")
      // Said as a closed journal's end, damaged: not a crash, not a frame cut short.
      let end = offset < trailer ? index : trailer
      if what == "the trailer" {
        #expect(
          verify.lines[2].hasPrefix(
            "  Not closed: its index or trailer is damaged or cut short (a byte changed, or its writer stopped while closing it); it holds 40,000 events"
          ), "\(verify.stdout)")
      }
      let info = try rewind("info", path)
      #expect(
        info.stdout.contains(
          "damaged end: \(Journal.count(UInt64(pristine.count - end), "byte")) at byte \(end), its index or trailer (\(what) is damaged"
        ), "\(info.stdout)")
      #expect(!info.stdout.contains("torn tail") && !info.stdout.contains("crashed"))
      #expect(
        try rewind("log", path).stderr.contains(
          "(from byte \(end)) are its index or trailer, damaged or cut short (\(what) is damaged"))
      let json = try verifyReport(try rewind("verify", path, "--json").stdout)
      let problems = try #require(json["problems"] as? [[String: Any]])
      #expect(problems.map { $0["kind"] as? String } == ["index"], "\(problems)")
      // recover still writes a fresh index, and keeps every event.
      let repaired = directory.file("repaired-\(offset).journal")
      let recover = try rewind("recover", path, "-o", repaired)
      #expect(recover.stdout.contains("kept 40,000 events"), "\(recover.stdout)")
      #expect(
        recover.stdout.hasPrefix(
          "Wrote a new index and trailer in place of the damaged end (\(Journal.count(UInt64(pristine.count - end), "byte")) at byte \(end)): \(what) is damaged"
        ), "\(recover.stdout)")
      #expect(try rewind("verify", repaired).status == 0)
    }
  }

  @Test("check --expect names an expected state that is JSON but not an object")
  func expectedStateNotAnObject() throws {
    let directory = TemporaryDirectory()
    for (text, kind) in [("[]", "an array"), ("\"state\"", "a string"), ("3", "a number")] {
      let expected = directory.file("expected.json")
      write(text + "\n", to: expected)
      let result = try rewind("check", sample("day-menu.journal"), "--expect", expected)
      expectFailure(
        result,
        containing:
          "\(expected): the expected state is \(kind), not an object; write it as `rewind state --json` prints it"
      )
      #expect(result.stdout.isEmpty)
    }
  }

  @Test("a scenario refuses a control character in a name it would otherwise match")
  func controlCharacterInName() throws {
    let directory = TemporaryDirectory()
    for (line, column, scalar) in [
      ("select category \u{202E}Grinders", 17, "U+202E"),
      ("expand Leva\u{1B}[2J", 8, "U+001B"),
    ] {
      let script = directory.file("s.scenario")
      write("select category espresso-machines\n\(line)\n", to: script)
      let journal = directory.file("s.journal")
      let result = try rewind("record", script, "-o", journal)
      expectFailure(result, containing: "\(script):2:\(column): the name \"")
      #expect(
        result.stderr.contains("contains a control character (\(scalar))"), "\(result.stderr)")
      #expect(!FileManager.default.fileExists(atPath: journal))
    }
  }
}
