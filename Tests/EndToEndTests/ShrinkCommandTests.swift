import Foundation
import TestSupport
import Testing

@testable import RewindJournal

/// `rewind shrink`: a session cut down to the events that show a condition or a
/// divergence, printed as a scenario script and written as a journal.
@Suite("rewind shrink")
struct ShrinkCommandTests {
  @Test("a condition first true at event 34,792 of the 200k session shrinks to 2 events")
  func generatedSession() throws {
    let directory = TemporaryDirectory()
    let minimal = directory.file("min.journal")
    let condition = "split.selectedItem == espresso-machines/strada/strada-av"
    let start = Date()
    let result = try rewind(
      "shrink", sample("generated-200k.journal"), "--where", condition, "-o", minimal)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(Date().timeIntervalSince(start) < 60)
    #expect(
      result.stdout.hasSuffix(
        """
        # events of the session: 34790, 34792
        layout three-column
        size regular
        orientation landscape
        device rewind generate --seed 42
        start 2026-01-01T00:00:00Z

        @6156.95647s select category espresso-machines
        +533344us select item espresso-machines/strada/strada-av

        """), "\(result.stdout)")
    #expect(result.stderr == "Wrote 2 events to \(minimal)\n")
    // The journal holds the two events, and the condition holds after the last.
    let found = try rewind("find", minimal, "--where", condition)
    #expect(found.lines.last?.hasPrefix("  event 2 at +6157.490s") == true, "\(found.stdout)")
    // The printed script records the same two events.
    let script = directory.file("min.scenario")
    result.stdout.writeFixture(to: script)
    let recorded = directory.file("recorded.journal")
    #expect(try rewind("record", script, "-o", recorded).status == 0)
    let original = try rewind("export", minimal)
    let again = try rewind("export", recorded)
    #expect(original.lines.dropFirst() == again.lines.dropFirst())
    #expect(original.lines.count == 3)
  }

  @Test(
    "on a salvaged journal: where the condition holds, or that it never does, and why shrinking stops at the lost events"
  )
  func salvaged() throws {
    let directory = TemporaryDirectory()
    let (_, salvaged, lost) = try SalvagedSearchTests().salvagedJournal(in: directory)
    let range = JournalError.describe(lost)
    expectFailure(
      try rewind("shrink", salvaged, "--where", "menu.selectedIndex == 99"),
      containing:
        "menu.selectedIndex == 99 never holds in the session's events but \(range), which were lost to damage; nothing to shrink"
    )
    // A condition first true after the lost events (and among them in the intact
    // journal): where, and why shrink cannot get there.
    let condition = "split.style == balanced && split.columnVisibility == doubleColumn"
    let hits = try rewind("find", salvaged, "--where", condition, "--all", "--json")
    let matches = try #require(try parseObject(hits.stdout)["matches"] as? [[String: Any]])
    let first = try #require(matches.first?["seq"] as? Int)
    try #require(UInt64(first) > lost.upperBound, "\(hits.stdout)")
    expectFailure(
      try rewind("shrink", salvaged, "--where", condition),
      containing:
        "first holds at event \(grouped(first)), after \(range), which were lost to damage; shrinking replays the session from its start and cannot cross them"
    )
    // One true before them shrinks as in an intact journal.
    let before = try rewind("shrink", salvaged, "--where", "changed(split.style)")
    #expect(before.status == 0, "\(before.stderr)")
  }

  @Test("--json lists the kept events with their sequence numbers in the session")
  func json() throws {
    let result = try rewind(
      "shrink", sample("two-column.journal"), "--where", "split.style == prominentDetail",
      "--json")
    #expect(result.status == 0, "\(result.stderr)")
    let object = try parseObject(result.stdout)
    let events = try #require(object["events"] as? [[String: Any]])
    #expect(events.map { $0["seq"] as? Int } == [9])
    #expect((object["scenario"] as? String)?.contains("style prominent-detail") == true)
  }

  @Test("--diverging on a journal that replays as recorded, and bad input")
  func badInput() throws {
    let journal = sample("day-menu.journal")
    expectFailure(
      try rewind("shrink", journal, "--diverging"), containing: "nothing diverges")
    expectFailure(
      try rewind("shrink", journal, "--where", "menu.selectedIndex == 99"),
      containing: "menu.selectedIndex == 99 never holds in the session's")
    let unknown = try rewind("shrink", journal, "--where", "menu.selectedIndx == 1")
    #expect(unknown.status == 64)
    #expect(unknown.stderr.contains("menu.selectedIndx"), "\(unknown.stderr)")
    let malformed = try rewind("shrink", journal, "--where", "menu.selectedIndex = 1")
    #expect(malformed.status == 64)
    #expect(malformed.stderr.contains("a single = does not compare"), "\(malformed.stderr)")
    expectUsageError(
      try rewind("shrink", journal), "give either --where <condition> or --diverging",
      command: "shrink")
    expectUsageError(
      try rewind("shrink", journal, "--diverging", "--where", "changed(menu.selectedIndex)"),
      "--where and --diverging cannot be used together; give one of them", command: "shrink")
    // A condition that holds before any event: no event is needed, and it says so.
    let atStart = try rewind("shrink", journal, "--where", "menu.selectedIndex == 0")
    #expect(atStart.status == 0, "\(atStart.stderr)")
    #expect(
      atStart.stdout.contains(
        "# menu.selectedIndex == 0 holds in the initial state, before any event: no event is needed"
      ), "\(atStart.stdout)")
    let directory = TemporaryDirectory()
    let existing = directory.file("exists.journal")
    "keep".writeFixture(to: existing)
    expectFailure(
      try rewind("shrink", journal, "--where", "changed(menu.selectedIndex)", "-o", existing),
      containing: "the file exists; pass --force to replace it")
    #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep")
    let notJournal = directory.file("not.journal")
    "not a journal".writeFixture(to: notJournal)
    let damaged = try rewind("shrink", notJournal, "--diverging")
    #expect(damaged.status == 1)
    #expect(damaged.stderr.hasPrefix("Error: "))
  }
}
