import Foundation
import TestSupport
import Testing

@Suite("Inspecting sessions: info, log, state, diff, blame, find")
struct InspectionTests {
  let ipad = sample("ipad-three-column.journal")
  let iphone = sample("iphone-compact.journal")

  @Test("info describes the session, as text and as JSON")
  func info() throws {
    let text = try rewind("info", ipad)
    #expect(text.status == 0)
    #expect(text.stdout.contains("Domain     navigation (schema 2, format 1.1)"))
    #expect(!text.stdout.contains("Upcast"))
    #expect(
      text.stdout.contains("Started    2026-11-30T09:15:00Z on iPad Pro 11-inch (M4), iPadOS 18.1"))
    #expect(text.stdout.contains("Events     32 (1–32) over 1m 07.1s"))
    #expect(
      text.stdout.contains(
        "Integrity  closed, index present (frames not checked: `rewind verify` checks them)\n"))
    let json = try parseObject(try rewind("info", ipad, "--json").stdout)
    #expect(json["domain"] as? String == "navigation")
    #expect(json["events"] as? Int == 32)
    #expect(json["schemaVersion"] as? Int == 2)
    #expect(json["upcast"] as? Bool == false)
    #expect(json["closed"] as? Bool == true)
    #expect(json["intact"] as? Bool == true)
    // What opening found: the frames are not read (verify reads them).
    #expect(json["framesChecked"] as? Bool == false)
    #expect(json["start"] as? String == "2026-11-30T09:15:00Z")
    let settings = try #require(json["settings"] as? [String: Any])
    #expect((settings["catalog"] as? [String: Any])?["layout"] as? String == "threeColumn")
    #expect((json["bytes"] as? Int ?? 0) > 0)
  }

  @Test("log lists each event with its outcome; --type filters; --json is one object a line")
  func log() throws {
    let all = try rewind("log", sample("rejected-interactions.journal"))
    #expect(all.status == 0)
    #expect(all.lines.count == 16)
    #expect(all.lines[0].hasPrefix("  1     +0.000s  menuTabTapped 9"))
    #expect(
      all.lines[0].hasSuffix("rejected: tab index 9 is out of range: the menu has 7 tabs, 0 to 6"))
    #expect(all.lines[13].hasSuffix("unchanged"))
    #expect(all.lines[3].hasPrefix("  4     +1.500s  menuScrolled 99999999999.0"))
    #expect(all.lines[3].hasSuffix("unchanged"))
    #expect(
      all.lines[4].hasSuffix(
        "rejected: the viewport width must be a number of points above 0 and at most 1,000,000"))
    let taps = try rewind("log", sample("rejected-interactions.journal"), "--type", "menuTabTapped")
    #expect(taps.lines.count == 4)
    let range = try rewind("log", iphone, "--from", "2", "--to", "+5s")
    #expect(range.lines.map { $0.split(separator: " ").first.map(String.init) } == ["3"])
    let json = try rewind("log", sample("rejected-interactions.journal"), "--json")
    let objects = try json.lines.map(parseObject)
    #expect(objects.count == 16)
    #expect(objects[0]["seq"] as? Int == 1)
    #expect(objects[0]["event"] as? String == "menuTabTapped")
    #expect(objects[0]["index"] as? Int == 9)
    #expect(objects[0]["outcome"] as? String == "rejected")
    #expect((objects[0]["reason"] as? String)?.contains("out of range") == true)
    #expect(objects[7]["id"] as? String == "grinders")
    #expect(objects[7]["time_us"] as? Int == 4_000_000)
  }

  @Test("log says so when no event is shown; in JSON Lines that is no line")
  func emptyLog() throws {
    let directory = TemporaryDirectory()
    let none = try rewind("log", sample("day-menu.journal"), "--type", "itemSelected")
    #expect(none.status == 0)
    #expect(none.stdout == "No events of kind 'itemSelected' in events 1–25.\n")
    let between = try rewind("log", sample("day-menu.journal"), "--from", "3", "--to", "3")
    #expect(between.stdout == "No events between the two points.\n")
    let json = try rewind("log", sample("day-menu.journal"), "--from", "3", "--to", "3", "--json")
    #expect(json.status == 0 && json.stdout.isEmpty)
    let script = directory.file("empty.scenario")
    write("# nothing happens\n", to: script)
    let journal = directory.file("empty.journal")
    #expect(try rewind("record", script, "-o", journal).status == 0)
    #expect(try rewind("log", journal).stdout == "The session has no events.\n")
  }

  @Test("state renders the screens, or prints JSON equal to the expected state")
  func state() throws {
    let end = try rewind("state", ipad)
    #expect(end.status == 0)
    #expect(end.stdout.hasPrefix("State after event 32, the last (+67.100s)"))
    #expect(end.stdout.contains("Linea Mini"))
    let start = try rewind("state", ipad, "--at", "start")
    #expect(start.stdout.contains("Please select a menu item"))
    let json = try rewind("state", ipad, "--json")
    let expected = try String(
      contentsOfFile: sample("ipad-three-column.state.json"), encoding: .utf8)
    #expect(json.stdout == expected)
    let atTime = try parseObject(try rewind("state", iphone, "--at", "+4.6s", "--json").stdout)
    let split = try #require(atTime["split"] as? [String: Any])
    #expect(split["selectedCategory"] as? String == "grinders")
    #expect(split["selectedItem"] is NSNull)
    #expect(split["compactColumn"] as? String == "content")
    let wallClock = try parseObject(
      try rewind("state", iphone, "--at", "2026-11-30T12:40:04.600Z", "--json").stdout)
    #expect(NSDictionary(dictionary: wallClock).isEqual(to: atTime))
  }

  @Test(
    "end-N is N events before the end wherever a point is taken; one past the start is a usage error naming the range (end-1 was refused)"
  )
  func pointsFromTheEnd() throws {
    // The state before the last event, and a range of the last three events.
    #expect(
      try rewind("state", ipad, "--at", "end-1", "--json").stdout
        == (try rewind("state", ipad, "--at", "31", "--json").stdout))
    #expect(
      try rewind("state", ipad, "--at", "end-32", "--json").stdout
        == (try rewind("state", ipad, "--at", "start", "--json").stdout))
    #expect(
      try rewind("log", ipad, "--from", "end-3").stdout
        == (try rewind("log", ipad, "--from", "29", "--to", "32").stdout))
    #expect(
      try rewind("diff", ipad, "--from", "end-2", "--to", "end").stdout
        == (try rewind("diff", ipad, "--from", "30", "--to", "32").stdout))
    let blame = try rewind("blame", ipad, "split.style", "--at", "end-5")
    #expect(blame.stdout == (try rewind("blame", ipad, "split.style", "--at", "27").stdout))
    #expect(
      try rewind("find", ipad, "--where", "changed(split.style)", "--last", "--to", "end-4").stdout
        == (try rewind("find", ipad, "--where", "changed(split.style)", "--last", "--to", "28")
          .stdout))
    // Two sessions at points from their ends.
    let two = try rewind("diff", "\(ipad)@end-1", "\(ipad)@31")
    #expect(two.status == 0, "\(two.stderr)")
    #expect(two.stdout.hasPrefix("No differences"), "\(two.stdout)")
    expectUsageError(
      try rewind("state", ipad, "--at", "end-33"),
      "The value 'end-33' is invalid for '--at <point>': end-33 is before the start of the session (points are 0–32; end-32 is the start)",
      command: "state")
    expectUsageError(
      try rewind("log", ipad, "--from", "end-1", "--to", "end-2"),
      "--from end-1 (event 31) is after --to end-2 (event 30); give the earlier point first",
      command: "log")
    // rewind help points says so.
    let help = try rewind("help", "points")
    #expect(help.status == 0)
    #expect(help.stdout.contains("end-N"), "\(help.stdout)")
  }

  @Test("a time copied from log leads back to its event, which the exact offset does not")
  func timesAsShown() throws {
    // Times with microseconds, shown to the millisecond: event 1003 at 93.485203 s is
    // shown +93.485s, and the exact offset 93.485000 s is the state before it.
    let journal = sample("generated-200k.journal")
    let log = try rewind("log", journal, "--from", "994", "--to", "1010")
    #expect(log.status == 0, "\(log.stderr)")
    let shown = log.lines.map { line in
      line.split(separator: " ", omittingEmptySubsequences: true).prefix(2).map(String.init)
    }
    try #require(shown.count == 16 && shown[8] == ["1003", "+93.485s"])
    for (index, pair) in shown.enumerated() {
      let state = try rewind("state", journal, "--at", pair[1])
      #expect(state.status == 0, "\(state.stderr)")
      #expect(state.stdout.hasPrefix("State after event \(pair[0]) (\(pair[1]))"), "\(pair)")
      // A range between two times shown: the events shown after the first, to the second.
      guard index > 0 else { continue }
      let range = try rewind("log", journal, "--from", shown[index - 1][1], "--to", pair[1])
      #expect(
        range.lines.count == 1 && range.stdout.drop { $0 == " " }.hasPrefix(pair[0] + " "),
        "\(range.stdout)")
    }
    // With its microseconds, a time is exact.
    let exact = try rewind("state", journal, "--at", "+93.485203s")
    #expect(exact.stdout.hasPrefix("State after event 1003 (+93.485s)"))
    let before = try rewind("state", journal, "--at", "+93.485202s")
    #expect(before.stdout.hasPrefix("State after event 1002 (+93.469s)"))
  }

  @Test("state --skip replays as if events had not happened and lists the differences")
  func counterfactual() throws {
    // Without the category change at event 15, Linea Classic stays selected.
    let result = try rewind("state", ipad, "--at", "16", "--skip", "15")
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("State after event 16 (+35.600s), skipping 15"))
    #expect(result.stdout.contains("Compared with the recorded state"))
    #expect(
      result.stdout.contains("split.selectedCategory\n  - \"grinders\"\n  + \"espresso-machines\""))
    let json = try parseObject(
      try rewind("state", ipad, "--at", "16", "--skip", "15,3", "--json").stdout)
    #expect(
      (json["split"] as? [String: Any])?["selectedCategory"] as? String == "espresso-machines")
    expectUsageError(
      try rewind("state", ipad, "--at", "10", "--skip", "12"),
      "The value '12' is invalid for '--skip <seq,...>': only events 1–10, up to the point, can be skipped",
      command: "state")
  }

  @Test("diff shows the changed fields between two points, or two journals")
  func diff() throws {
    let result = try rewind("diff", ipad, "--from", "13", "--to", "16")
    #expect(result.status == 0)
    #expect(
      result.stdout.hasPrefix("4 fields differ between event 13 (-) and event 16 (+):\n"))
    #expect(
      result.stdout.contains(
        "split.selectedItem\n  - \"espresso-machines/linea/linea-classic\"\n  + \"grinders/vulcano\""
      ))
    let same = try rewind("diff", ipad, "--from", "3", "--to", "3")
    #expect(same.stdout == "No differences between event 3 and event 3.\n")
    // Point 0 is the start, no event.
    let fromStart = try rewind("diff", ipad, "--from", "0", "--to", "16")
    #expect(fromStart.stdout.contains(" fields differ between the start (-) and event 16 (+):\n"))
    let atStart = try rewind("diff", ipad, "--from", "0", "--to", "0")
    #expect(atStart.stdout == "No differences between the start and the start.\n")
    let withEvents = try rewind("diff", ipad, "--from", "13", "--to", "15", "--events")
    #expect(withEvents.stdout.contains("Events 14–15:"))
    #expect(withEvents.stdout.contains("categorySelected grinders"))
    let json = try parseObject(
      try rewind("diff", ipad, "--from", "13", "--to", "16", "--json").stdout)
    let changes = try #require(json["changes"] as? [[String: Any]])
    #expect(
      changes.map { $0["path"] as? String } == [
        "split.selectedCategory", "split.selectedItem", "split.style", "split.overlay",
      ])
    let two = try rewind("diff", "\(ipad)@end", "\(sample("two-column.journal"))@end")
    #expect(two.status == 0)
    #expect(two.stdout.contains("split.layout\n  - \"threeColumn\"\n  + \"twoColumn\""))
    let twoJSON = try parseObject(
      try rewind("diff", "\(ipad)@5", "\(ipad)@+54s", "--json").stdout)
    #expect((twoJSON["changes"] as? [Any])?.isEmpty == false)
    // The points as given, and as resolved.
    #expect(twoJSON["to"] as? String == "\(ipad)@+54s")
    #expect(twoJSON["fromEvent"] as? Int == 5)
    #expect(twoJSON["toEvent"] as? Int == 23)
    // Point 0 is the start, however it is given.
    let twoFromStart = try rewind("diff", "\(ipad)@0", "\(ipad)@start")
    #expect(
      twoFromStart.stdout
        == "No differences between \(ipad)@0 (the start) and \(ipad)@start (the start).\n")
    // A point beyond one journal's end is said with that journal.
    let day = sample("day-menu.journal")
    expectUsageError(
      try rewind("diff", "\(ipad)@5", "\(day)@99"),
      "The value '\(day)@99' is invalid for '<journal>': event 99 is beyond the end of the session (points are 0–25)",
      command: "diff")
  }

  /// `diff` exits 0 whatever it finds; `--exit-code` makes the status say whether the
  /// states differ, as `git diff --exit-code` does, with the same output.
  @Test("diff --exit-code: 1 when the states differ, 0 when not, with the same output")
  func diffExitCode() throws {
    let twoColumn = "\(sample("two-column.journal"))@end"
    let cases: [(arguments: [String], differ: Bool)] = [
      (["diff", ipad, "--from", "13", "--to", "16"], true),
      (["diff", ipad, "--from", "3", "--to", "3"], false),
      (["diff", ipad, "--from", "13", "--to", "16", "--json"], true),
      (["diff", ipad, "--from", "13", "--to", "15", "--events"], true),
      (["diff", ipad, "--from", "13", "--to", "15", "--events", "--json"], true),
      (["diff", "\(ipad)@end", twoColumn], true),
      (["diff", "\(ipad)@end", "\(ipad)@end", "--json"], false),
      (["diff", ipad, ipad, "--align"], false),
      (["diff", ipad, sample("two-column.journal"), "--align"], true),
      (["diff", ipad, sample("two-column.journal"), "--align", "--json"], true),
    ]
    for (arguments, differ) in cases {
      let plain = try rewind(arguments)
      let gated = try rewind(arguments + ["--exit-code"])
      #expect(plain.status == 0, "\(arguments): \(plain.stderr)")
      #expect(gated.status == (differ ? 1 : 0), "\(arguments): \(gated.stderr)")
      #expect(gated.stdout == plain.stdout, "\(arguments)")
      #expect(gated.stderr == plain.stderr, "\(arguments)")
    }
    // States that cannot be compared are 2, as diff(1)'s (1 without --exit-code); a usage
    // error is 64 either way.
    let missing = try rewind("diff", "missing.journal", "--exit-code")
    #expect(missing.status == 2)
    #expect(missing.stderr == (try rewind("diff", "missing.journal")).stderr)
    #expect(try rewind("diff", "missing.journal").status == 1)
    #expect(try rewind("diff", "\(ipad)@end", "missing.journal@end", "--exit-code").status == 2)
    #expect(try rewind("diff", ipad, "--window", "3", "--exit-code").status == 64)
  }

  @Test("blame names the event that last changed a field")
  func blame() throws {
    // The category change at event 15 cleared the item the user had selected.
    let result = try rewind("blame", ipad, "split.selectedItem", "--at", "15")
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("split.selectedItem = null after event 15"))
    #expect(result.stdout.contains("set by event 15 at +34.300s: categorySelected grinders"))
    let initial = try rewind("blame", ipad, "menu.selectedIndex")
    #expect(initial.stdout.contains("its initial value"))
    let json = try parseObject(try rewind("blame", ipad, "split.style", "--json").stdout)
    #expect(json["value"] as? String == "balanced")
    #expect((json["changedBy"] as? [String: Any])?["seq"] as? Int == 30)
  }

  @Test("find gives the first or every point where a condition holds or a field changes")
  func find() throws {
    let first = try rewind("find", ipad, "--where", "split.selectedItem == espresso-machines/leva")
    #expect(first.status == 0)
    #expect(first.stdout.contains("event 2 at +1.400s: itemSelected espresso-machines/leva"))
    let changes = try rewind("find", ipad, "--where", "changed(split.columnVisibility)", "--all")
    #expect(changes.lines.count == 5)
    let json = try parseObject(
      try rewind("find", ipad, "--where", "changed(split.style)", "--all", "--json").stdout)
    #expect((json["matches"] as? [[String: Any]])?.map { $0["seq"] as? Int } == [14, 18, 25, 30])
    let none = try rewind("find", ipad, "--where", "menu.selectedIndex == 5")
    #expect(none.status == 0)
    #expect(
      none.stdout.contains("No point in the session where menu.selectedIndex == 5 becomes true"))
  }
}
