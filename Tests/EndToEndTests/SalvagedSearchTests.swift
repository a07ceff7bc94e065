import Foundation
import TestSupport
import Testing

@testable import RewindJournal

/// `find` and `blame` on a journal damaged in the middle and salvaged: they go on past the
/// events lost to damage as `log` does, and say so with `log`'s warning.
@Suite("find and blame on a salvaged journal go on past the events lost to damage")
struct SalvagedSearchTests {
  /// A 20,000-event journal, the same with its middle frame damaged and salvaged, and
  /// the events that frame held, lost.
  func salvagedJournal(in directory: TemporaryDirectory) throws -> (
    intact: String, salvaged: String, lost: ClosedRange<UInt64>
  ) {
    let intact = directory.file("intact.journal")
    #expect(try rewind("generate", "-o", intact, "--events", "20000", "--seed", "3").status == 0)
    let frames = try JournalReader(path: intact).frames
    try #require(frames.count == 3)
    var damaged = bytes(of: intact)
    damaged[Int(frames[1].dataOffset) + 40] ^= 0x20
    let broken = directory.file("damaged.journal")
    write(damaged, to: broken)
    let salvaged = directory.file("salvaged.journal")
    let recovered = try rewind("recover", broken, "--salvage", "-o", salvaged)
    #expect(recovered.status == 0, "\(recovered.stderr)")
    return (intact, salvaged, frames[1].sequenceRange)
  }

  /// The event a line of `find` names (`  event 12 at …`), nil for a line that names none.
  func event(of line: String) -> UInt64? {
    guard line.hasPrefix("  event ") else { return nil }
    return UInt64(line.dropFirst(8).prefix { $0.isNumber })
  }

  @Test(
    "find --all, --last, --count and the first match: the points on both sides, with log's warning")
  func findGoesOnPast() throws {
    let directory = TemporaryDirectory()
    let (intact, salvaged, lost) = try salvagedJournal(in: directory)
    let warning =
      "warning: \(salvaged): events \(lost.lowerBound)–\(lost.upperBound) were lost to damage and are missing here\n"
    // log goes on past them, and says so: the warning find gives too.
    #expect(try rewind("log", salvaged).stderr == warning)
    for condition in ["split.orientation == portrait", "changed(split.orientation)"] {
      // The intact journal's points, but those the lost events held.
      let whole = try rewind("find", intact, "--where", condition, "--all")
      let kept = whole.lines.filter { line in event(of: line).map { !lost.contains($0) } ?? true }
      #expect(kept.contains { (event(of: $0) ?? 0) > lost.upperBound }, "\(whole.stdout)")
      let all = try rewind("find", salvaged, "--where", condition, "--all")
      #expect(all.status == 0, "\(all.stderr)")
      #expect(all.lines == kept, "\(condition)")
      #expect(all.stderr == warning)
      for jobs in ["1", "2"] {
        let parallel = try rewind("find", salvaged, "--where", condition, "--all", "--jobs", jobs)
        #expect(parallel.stdout == all.stdout, "--jobs \(jobs)")
        #expect(parallel.stderr == warning)
      }
      // The last match: after the lost events, no warning; searched backwards up to the
      // first match after them (excluded), the last before them, the lost events said.
      let last = try rewind("find", salvaged, "--where", condition, "--last")
      #expect(last.status == 0, "\(last.stderr)")
      #expect(last.lines == [kept[0], kept[kept.count - 1]])
      #expect(last.stderr.isEmpty, "\(last.stderr)")
      let firstAfter = try #require(kept.compactMap(event(of:)).first { $0 > lost.upperBound })
      let lastBefore = try #require(kept.last { (event(of: $0) ?? .max) < lost.lowerBound })
      let back = try rewind(
        "find", salvaged, "--where", condition, "--last", "--to", String(firstAfter - 1))
      #expect(back.status == 0, "\(back.stderr)")
      #expect(back.lines == [kept[0], lastBefore])
      #expect(back.stderr == warning)
      let count = try rewind("find", salvaged, "--where", condition, "--count")
      #expect(count.lines == [String(kept.count - 1)])
      #expect(count.stderr == warning)
      // In JSON, the answers the lost events may change name them (`lostEvents`), as the
      // warning does; the others do not.
      let lostJSON = [[Int(lost.lowerBound), Int(lost.upperBound)]]
      func lostEvents(_ arguments: [String]) throws -> [[Int?]]? {
        let result = try rewind(["find", salvaged, "--where", condition, "--json"] + arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        let object = try parseObject(result.stdout)
        return (object["lostEvents"] as? [[String: Any]])?.map {
          [$0["from"] as? Int, $0["to"] as? Int]
        }
      }
      for arguments in [
        ["--all"], ["--all", "--jobs", "1"], ["--all", "--jobs", "2"], ["--count"],
      ] {
        #expect(try lostEvents(arguments) == lostJSON, "\(arguments)")
      }
      #expect(try lostEvents(["--last", "--to", String(firstAfter - 1)]) == lostJSON)
      #expect(try lostEvents(["--last"]) == nil)
      #expect(try lostEvents([]) == nil)
      // The first match: before the lost events, no warning; searched from the event
      // before them, the start when the condition holds there (no lost event searched),
      // else the first after them (the lost events searched, said).
      let first = try rewind("find", salvaged, "--where", condition)
      #expect(first.lines == Array(kept.prefix(2)))
      #expect(first.stderr.isEmpty, "\(first.stderr)")
      let from = String(lost.lowerBound - 1)
      let after = try rewind("find", salvaged, "--where", condition, "--from", from, "--all")
      #expect(after.stderr == warning)
      let next = try rewind("find", salvaged, "--where", condition, "--from", from)
      #expect(next.status == 0, "\(next.stderr)")
      #expect(next.lines == Array(after.lines.prefix(2)))
      #expect(next.stderr == (event(of: after.lines[1]) == nil ? "" : warning), "\(condition)")
      if let point = event(of: after.lines[1]) { #expect(point > lost.upperBound) }
    }
    // A search that starts among the lost events cannot: its start is not known.
    expectFailure(
      try rewind(
        "find", salvaged, "--where", "changed(split.orientation)", "--last", "--from",
        String(lost.lowerBound)),
      containing: "event \(lost.lowerBound) was lost to damage")
  }

  @Test(
    "log --changes and log --where after lost events: the intact journal's lines of the events kept"
  )
  func logComparesTheEventAfterLostEventsWithTheirSnapshot() throws {
    let directory = TemporaryDirectory()
    let (intact, salvaged, lost) = try salvagedJournal(in: directory)
    let warning =
      "warning: \(salvaged): events \(lost.lowerBound)–\(lost.upperBound) were lost to damage and are missing here\n"
    let next = String(lost.upperBound + 1)
    /// The lines of `log --json` whose event was not lost.
    func kept(_ lines: [String]) -> [String] {
      lines.filter { line in
        let sequence = line.dropFirst(7).prefix { $0.isNumber }
        return !lost.contains(UInt64(sequence) ?? 0)
      }
    }
    // The first event after the lost ones changed its fields from the snapshot stored
    // after them: their values before it are known.
    let first = try rewind(
      "log", intact, "--from", String(lost.upperBound), "--to", next, "--json", "--changes")
    #expect(first.lines.count == 1 && first.stdout.contains("\"old\""), "\(first.stdout)")
    let options: [[String]] = [
      ["--changes"], ["--changes", "--where", "changed(menu.scrollOffset)"],
      ["--where", "changed(menu.scrollOffset)"], ["--where", "changed(split.orientation)"],
    ]
    for extra in options {
      let whole = try rewind(["log", intact, "--json"] + extra)
      let log = try rewind(["log", salvaged, "--json"] + extra)
      #expect(log.status == 0, "\(log.stderr)")
      #expect(log.lines == kept(whole.lines), "\(extra)")
      #expect(log.stderr == warning)
    }
    // In text, the old value is shown.
    let text = try rewind(
      "log", salvaged, "--changes", "--from", String(lost.lowerBound - 1), "--to", next)
    let wholeText = try rewind(
      "log", intact, "--changes", "--from", String(lost.upperBound), "--to", next)
    // The lost events are said where they were, in the list.
    let marker =
      String(repeating: " ", count: max(next.count, 3) + 2)
      + "… events \(lost.lowerBound)–\(lost.upperBound) lost to damage, not shown …\n"
    #expect(text.stdout == marker + wholeText.stdout, "\(text.stdout)")
    #expect(text.stderr == warning)
    // A range that ends among them: no event after its end, and the part of them in it
    // said at its end; an empty range before them: nothing said of them.
    let among = String(lost.lowerBound + 5)
    let endMarker =
      "… events \(lost.lowerBound)–\(lost.lowerBound + 5) lost to damage, not shown …"
    for extra in [[], ["--changes"]] {
      let ending = try rewind(
        ["log", salvaged, "--from", String(lost.lowerBound - 2), "--to", among] + extra)
      #expect(ending.status == 0, "\(ending.stderr)")
      #expect(
        ending.lines.last?.drop { $0 == " " } == Substring(endMarker), "\(extra): \(ending.stdout)")
      #expect(
        ending.lines.compactMap(event(of:)).allSatisfy { $0 < lost.lowerBound },
        "\(extra): \(ending.stdout)")
    }
    let scenario = try rewind(
      "export", salvaged, "--from", String(lost.lowerBound - 2), "--to", among, "--scenario")
    #expect(scenario.status == 0, "\(scenario.stderr)")
    #expect(
      scenario.lines.filter { $0.hasPrefix("+") || $0.hasPrefix("@") }.count == 1,
      "\(scenario.stdout)")
    let empty = try rewind(
      "log", salvaged, "--from", String(lost.lowerBound - 1), "--to", String(lost.lowerBound - 1))
    #expect(empty.stdout == "No events between the two points.\n", "\(empty.stdout)")
    // The plain list (the specialised loop's), and one filtered by a condition, too.
    for extra in [[], ["--where", "changed(menu.scrollOffset)"]] {
      let range = ["--from", String(lost.lowerBound - 2), "--to", next]
      let plain = try rewind(["log", salvaged] + range + extra)
      let before = try rewind(
        ["log", intact, "--from", String(lost.lowerBound - 2), "--to", String(lost.lowerBound - 1)]
          + extra)
      let after = try rewind(
        ["log", intact, "--from", String(lost.upperBound), "--to", next] + extra)
      #expect(plain.status == 0, "\(plain.stderr)")
      // (The column of sequence numbers is as wide as the range's last needs.)
      func unpadded(_ text: String) -> [Substring] {
        text.split(separator: "\n").map { $0.drop { $0 == " " } }
      }
      #expect(
        unpadded(plain.stdout) == unpadded(before.stdout + marker + after.stdout),
        "\(extra): \(plain.stdout)")
    }
  }

  @Test(
    "blame --history lists the changes on both sides, as log --changes shows them; blame says when the answer may be lost"
  )
  func blameGoesOnPast() throws {
    let directory = TemporaryDirectory()
    let (intact, salvaged, lost) = try salvagedJournal(in: directory)
    let warning =
      "warning: \(salvaged): events \(lost.lowerBound)–\(lost.upperBound) were lost to damage and are missing here\n"
    let path = "split.orientation"
    let whole = try rewind("blame", intact, path, "--history")
    let history = try rewind("blame", salvaged, path, "--history")
    #expect(history.status == 0, "\(history.stderr)")
    #expect(history.stderr == warning)
    let kept = whole.lines.dropFirst().filter { line in
      event(of: line).map { !lost.contains($0) } ?? true
    }
    #expect(kept.contains { (event(of: $0) ?? 0) > lost.upperBound })
    #expect(kept.contains { (event(of: $0) ?? .max) < lost.lowerBound })
    #expect(
      history.lines.first == "\(path) up to event 20000: \(kept.count) changes, newest first:")
    // Where the lost events fall among the changes, a line says so.
    var expected = Array(kept)
    let newerCount = kept.filter { (event(of: $0) ?? 0) > lost.upperBound }.count
    expected.insert(
      "  … events \(lost.lowerBound)–\(lost.upperBound) lost to damage: changes among them are not known",
      at: newerCount)
    #expect(Array(history.lines.dropFirst()) == expected)
    // The same changes as log --changes shows on both sides of the lost events.
    let log = try rewind("log", salvaged, "--changes", "--json")
    #expect(log.stderr == warning)
    var logged: [(UInt64, String)] = []
    for line in log.lines {
      let object = try parseObject(line)
      let changes = object["changes"] as? [[String: Any]] ?? []
      for change in changes where change["path"] as? String == path {
        logged.append((UInt64(object["seq"] as! Int), change["new"] as! String))
      }
    }
    let json = try parseObject(try rewind("blame", salvaged, path, "--history", "--json").stdout)
    // The JSON names them too.
    #expect(
      (json["lostEvents"] as? [[String: Any]])?.map { [$0["from"] as? Int, $0["to"] as? Int] }
        == [[Int(lost.lowerBound), Int(lost.upperBound)]])
    let listed = (json["history"] as! [[String: Any]]).map {
      (UInt64($0["seq"] as! Int), $0["new"] as! String)
    }
    #expect(listed.reversed().map(\.0) == logged.map(\.0))
    #expect(listed.reversed().map(\.1) == logged.map(\.1))

    // After the lost events, before the first change after them, the event that set the
    // value may have been one of them: blame says so instead of naming an earlier one.
    let firstAfter = try #require(listed.last { $0.0 > lost.upperBound }).0
    try #require(firstAfter > lost.upperBound + 1)
    let point = String(firstAfter - 1)
    let unknown = try rewind("blame", salvaged, path, "--at", point)
    #expect(unknown.status == 0, "\(unknown.stderr)")
    #expect(unknown.stderr == warning)
    #expect(
      unknown.lines.last
        == "  the event that set it cannot be known: no event after \(lost.upperBound) changed it, and events \(lost.lowerBound)–\(lost.upperBound) were lost to damage"
    )
    let unknownJSON = try parseObject(
      try rewind("blame", salvaged, path, "--at", point, "--json").stdout)
    #expect(unknownJSON["changedBy"] is NSNull)
    // An array of ranges, as every command's `lostEvents` (it was the one range alone).
    let lostEvents = unknownJSON["lostEvents"] as? [[String: Any]]
    #expect(lostEvents?.count == 1)
    #expect(lostEvents?.first?["from"] as? Int == Int(lost.lowerBound))
    #expect(lostEvents?.first?["to"] as? Int == Int(lost.upperBound))
    // At the end, the change after the lost events: the answer, no warning.
    let known = try rewind("blame", salvaged, path)
    #expect(known.stderr.isEmpty, "\(known.stderr)")
    #expect(known.lines.last?.hasPrefix("  set by event \(listed[0].0) at ") == true)
    #expect(try rewind("blame", salvaged, path, "--history", "--limit", "1").stderr.isEmpty)
    // A limit of every change: the lost events before the oldest are said, as without one.
    let every = try rewind(
      "blame", salvaged, path, "--history", "--limit", String(listed.count), "--json")
    #expect(every.stderr == warning)
    #expect(
      (try parseObject(every.stdout)["lostEvents"] as? [[String: Any]])?.count == 1)
  }
}
