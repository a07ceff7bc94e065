import Foundation
import TestSupport
import Testing

/// `log --changes/--outcome/--where`, `blame --history` and array elements, counterfactual
/// `state` edits written as journals, `diff --align`: the questions a debugger asks.
@Suite("Debugging sessions: log filters, blame history, counterfactual edits, aligned diff")
struct DebuggerTests {
  let ipad = sample("ipad-three-column.journal")
  let iphone = sample("iphone-compact.journal")
  let rejected = sample("rejected-interactions.journal")

  /// A generated navigation session of `events` events.
  func generated(_ directory: TemporaryDirectory, events: Int, seed: Int = 7) throws -> String {
    let journal = directory.file("generated-\(seed).journal")
    let result = try rewind(
      "generate", "-o", journal, "--events", String(events), "--seed", String(seed),
      "--snapshot-interval", "256")
    #expect(result.status == 0, "\(result.stderr)")
    return journal
  }

  @Test("log --changes prints each event's changed fields, old → new, as text and JSON")
  func logChanges() throws {
    let text = try rewind("log", iphone, "--from", "6", "--to", "9", "--changes")
    #expect(text.status == 0)
    #expect(
      text.lines == [
        "  7    +10.400s  categorySelected espresso-machines                 applied",
        "     split.selectedCategory: null → \"espresso-machines\"",
        "     split.compactColumn: \"sidebar\" → \"content\"",
        "     split.visibleColumns: [\"sidebar\"] → [\"content\"]",
        "  8    +11.600s  itemExpanded espresso-machines/kb90                rejected: the item has no children to show or hide",
        "  9    +12.400s  itemExpanded espresso-machines/strada              applied",
        "     split.expanded: [] → [\"espresso-machines/strada\"]",
      ])
    let json = try rewind("log", iphone, "--to", "3", "--changes", "--json").lines.map(parseObject)
    #expect(json.count == 3)
    let changes = try #require(json[2]["changes"] as? [[String: Any]])
    #expect(
      changes.map { $0["path"] as? String } == [
        "split.selectedItem", "split.compactColumn", "split.visibleColumns",
      ])
    #expect(changes[0]["old"] as? String == "grinders/swift")
    #expect(changes[0]["new"] is NSNull)
    // A rejected event changed nothing: an empty list.
    let none = try rewind("log", iphone, "--from", "7", "--to", "8", "--changes", "--json")
    #expect((try parseObject(none.stdout)["changes"] as? [Any])?.isEmpty == true)
  }

  @Test("log --changes agrees with diff between each event's two points, on a generated session")
  func logChangesAgreeWithDiff() throws {
    let directory = TemporaryDirectory()
    let journal = try generated(directory, events: 600)
    let lines = try rewind("log", journal, "--from", "500", "--changes", "--json").lines
      .map(parseObject)
    #expect(lines.count == 100)
    for line in lines.prefix(40) {
      let sequence = try #require(line["seq"] as? Int)
      let diff = try parseObject(
        try rewind(
          "diff", journal, "--from", String(sequence - 1), "--to", String(sequence), "--json"
        ).stdout)
      let expected = try #require(diff["changes"] as? [[String: Any]])
      let logged = try #require(line["changes"] as? [[String: Any]])
      #expect(NSArray(array: logged).isEqual(to: expected), "event \(sequence)")
    }
  }

  @Test("log --outcome keeps the events with that outcome; the outcomes partition the log")
  func logOutcome() throws {
    let rejectedOnly = try rewind("log", rejected, "--outcome", "rejected")
    #expect(rejectedOnly.status == 0)
    #expect(rejectedOnly.lines.allSatisfy { $0.contains("rejected: ") })
    let counts = try ["applied", "unchanged", "rejected"].map {
      try rewind("log", rejected, "--outcome", $0).lines.count
    }
    #expect(counts.allSatisfy { $0 > 0 })
    #expect(counts.reduce(0, +) == 16)
    let two = try rewind("log", rejected, "--outcome", "rejected", "--outcome", "unchanged")
    #expect(two.lines.count == counts[1] + counts[2])
    // Several in one option, separated by commas, as --skip takes them.
    #expect(try rewind("log", rejected, "--outcome", "rejected,unchanged").stdout == two.stdout)
    let kinds = try rewind("log", ipad, "--type", "categorySelected", "--type", "itemSelected")
    #expect(!kinds.lines.isEmpty)
    #expect(
      try rewind("log", ipad, "--type", "categorySelected,itemSelected").stdout == kinds.stdout)
    // With a range and a kind: all filters apply.
    let combined = try rewind(
      "log", rejected, "--outcome", "rejected", "--type", "menuTabTapped", "--from", "1", "--json")
    let objects = try combined.lines.map(parseObject)
    #expect(!objects.isEmpty)
    #expect(objects.allSatisfy { $0["event"] as? String == "menuTabTapped" })
    #expect(objects.allSatisfy { $0["outcome"] as? String == "rejected" })
    #expect(objects.allSatisfy { ($0["seq"] as? Int ?? 0) > 1 })
    let none = try rewind("log", iphone, "--outcome", "rejected", "--type", "categorySelected")
    #expect(none.stdout == "No events of kind 'categorySelected' rejected in events 1–20.\n")
  }

  @Test("log --where lists the events after which a condition holds, as find does")
  func logWhere() throws {
    let changed = try rewind("log", ipad, "--where", "changed(split.style)", "--json")
    #expect(try changed.lines.map(parseObject).map { $0["seq"] as? Int } == [14, 18, 25, 30])
    let holds = try rewind(
      "log", ipad, "--where", "split.selectedItem == espresso-machines/leva", "--json")
    let sequences = try holds.lines.map(parseObject).compactMap { $0["seq"] as? Int }
    #expect(sequences.first == 2)
    // Every listed point has the value; every other one does not.
    for sequence in 1...32 {
      let state = try parseObject(
        try rewind("state", ipad, "--at", String(sequence), "--json").stdout)
      let item = (state["split"] as? [String: Any])?["selectedItem"] as? String
      #expect(sequences.contains(sequence) == (item == "espresso-machines/leva"), "\(sequence)")
    }
    let ranged = try rewind(
      "log", ipad, "--where", "changed(split.style)", "--from", "15", "--to", "26", "--changes")
    // Event lines, not their changes (indented past the sequence numbers).
    let events = ranged.lines.filter { !$0.hasPrefix("     ") }
    #expect(events.compactMap { $0.split(separator: " ").first }.map(String.init) == ["18", "25"])
    #expect(ranged.stdout.contains("split.style: "))
  }

  @Test("log --where agrees with find --all for changed(), on a generated session")
  func logWhereAgreesWithFind() throws {
    let directory = TemporaryDirectory()
    let journal = try generated(directory, events: 3_000, seed: 11)
    for condition in ["changed(split.selectedItem)", "changed(menu.selectedIndex)"] {
      let logged = try rewind("log", journal, "--where", condition, "--json").lines
        .map(parseObject).map { $0["seq"] as? Int }
      let found = try parseObject(
        try rewind("find", journal, "--where", condition, "--all", "--json").stdout)
      let matches = try #require(found["matches"] as? [[String: Any]])
      #expect(!logged.isEmpty)
      #expect(logged == matches.map { $0["seq"] as? Int })
    }
  }

  @Test("log refuses a malformed condition, an unknown field or outcome, with a usage error")
  func logBadInput() throws {
    expectUsageError(
      try rewind("log", ipad, "--outcome", "rejectd"),
      "The value 'rejectd' is invalid for '--outcome <outcome>': the outcomes are applied, unchanged, rejected. Did you mean 'rejected'?",
      command: "log")
    let unknown = try rewind("log", ipad, "--where", "split.stlye == balanced")
    #expect(unknown.status == 64)
    #expect(unknown.stdout.isEmpty)
    #expect(unknown.stderr.contains("'split.stlye' is not a state field"))
    #expect(unknown.stderr.contains("Did you mean 'split.style'?"))
    let badValue = try rewind("log", ipad, "--where", "split.style == Balanced")
    #expect(badValue.status == 64)
    #expect(badValue.stderr.contains("Did you mean 'balanced'?"))
    let malformed = try rewind("log", ipad, "--where", "split.style = balanced")
    #expect(malformed.status == 64)
    #expect(malformed.stderr.contains("at column 13: expected ==, !=, <, <=, >, >= or contains"))
    let none = try rewind("log", ipad, "--where", "menu.selectedIndex == 6")
    #expect(none.status == 0)
    #expect(none.stdout == "No events after which menu.selectedIndex == 6 in events 1–32.\n")
  }

  @Test("blame --history lists every change of a field, newest first, old → new")
  func blameHistory() throws {
    let text = try rewind("blame", ipad, "split.style", "--history")
    #expect(text.status == 0)
    #expect(
      text.lines == [
        "split.style up to event 32: 4 changes, newest first:",
        "  event 30 at +65.100s: splitStyleChanged balanced  \"automatic\" → \"balanced\"",
        "  event 25 at +57.100s: splitStyleChanged automatic  \"balanced\" → \"automatic\"",
        "  event 18 at +41.100s: splitStyleChanged balanced  \"prominentDetail\" → \"balanced\"",
        "  event 14 at +32.800s: splitStyleChanged prominentDetail  \"automatic\" → \"prominentDetail\"",
      ])
    let limited = try rewind(
      "blame", ipad, "split.style", "--history", "--limit", "2", "--at", "29")
    #expect(
      limited.lines.first == "split.style up to event 29, the newest 2 changes, newest first:")
    #expect(
      limited.lines.dropFirst().compactMap { $0.split(separator: " ").dropFirst().first } == [
        "25", "18",
      ])
    // As many changes as the limit: all of them, said as such.
    let exactly = try rewind("blame", ipad, "split.style", "--history", "--limit", "4")
    #expect(exactly.lines == text.lines)
    let json = try parseObject(
      try rewind("blame", ipad, "split.selectedItem", "--history", "--json").stdout)
    let history = try #require(json["history"] as? [[String: Any]])
    // The same events as find's changed(), in reverse.
    let found = try parseObject(
      try rewind("find", ipad, "--where", "changed(split.selectedItem)", "--all", "--json").stdout)
    let matches = try #require(found["matches"] as? [[String: Any]])
    #expect(history.map { $0["seq"] as? Int } == matches.reversed().map { $0["seq"] as? Int })
    #expect(
      history.map { $0["new"] as? String } == matches.reversed().map { $0["value"] as? String })
    let initial = try rewind("blame", ipad, "menu.selectedIndex", "--history")
    #expect(
      initial.stdout == "menu.selectedIndex: no event up to 32 changed it; its initial value is 0\n"
    )
  }

  @Test("blame --history on a generated session agrees with log --where changed()")
  func blameHistoryGenerated() throws {
    let directory = TemporaryDirectory()
    let journal = try generated(directory, events: 2_000, seed: 5)
    let history = try parseObject(
      try rewind("blame", journal, "split.selectedCategory", "--history", "--at", "1500", "--json")
        .stdout)
    let logged = try rewind(
      "log", journal, "--to", "1500", "--where", "changed(split.selectedCategory)", "--changes",
      "--json"
    ).lines.map(parseObject)
    let entries = try #require(history["history"] as? [[String: Any]])
    #expect(entries.count > 3)
    #expect(entries.map { $0["seq"] as? Int } == logged.reversed().map { $0["seq"] as? Int })
    for (entry, line) in zip(entries, logged.reversed()) {
      let change = try #require(
        (line["changes"] as? [[String: Any]])?.first {
          $0["path"] as? String == "split.selectedCategory"
        })
      #expect(String(describing: entry["old"]) == String(describing: change["old"]))
      #expect(String(describing: entry["new"]) == String(describing: change["new"]))
    }
  }

  @Test("blame of an array element says when it was added or removed; --history lists each")
  func blameElement() throws {
    let element = "split.expanded[espresso-machines/leva]"
    let now = try rewind("blame", ipad, element)
    #expect(now.status == 0)
    #expect(
      now.lines == [
        "espresso-machines/leva is not in split.expanded after event 32",
        "  removed by event 6 at +9.700s: itemCollapsed espresso-machines/leva",
      ])
    let before = try rewind("blame", ipad, element, "--at", "4")
    #expect(
      before.lines.last == "  added by event 3 at +3.500s: itemExpanded espresso-machines/leva")
    let history = try rewind("blame", ipad, element, "--history")
    #expect(
      history.lines == [
        "split.expanded[espresso-machines/leva] up to event 32: 2 changes, newest first:",
        "  event 6 at +9.700s: itemCollapsed espresso-machines/leva  removed",
        "  event 3 at +3.500s: itemExpanded espresso-machines/leva  added",
      ])
    let json = try parseObject(try rewind("blame", ipad, element, "--at", "4", "--json").stdout)
    #expect(json["present"] as? Bool == true)
    #expect(json["change"] as? String == "added")
    #expect((json["changedBy"] as? [String: Any])?["seq"] as? Int == 3)
    let never = try rewind("blame", ipad, "split.expanded[espresso-machines/home]", "--at", "5")
    #expect(never.lines.last == "  never added: no event up to 5 added it")
    // At the start: the initial state, not "after event 0", and no event to speak of.
    #expect(
      try rewind("blame", ipad, element, "--at", "0").lines == [
        "espresso-machines/leva is not in split.expanded at the start (the initial state)",
        "  never added",
      ])
    #expect(
      try rewind("blame", ipad, "split.selectedItem", "--at", "start").lines == [
        "split.selectedItem = null at the start (the initial state)", "  its initial value",
      ])
  }

  @Test("blame refuses a malformed path or element with a usage error")
  func blameBadInput() throws {
    expectUsageError(
      try rewind("blame", ipad, "split.style[balanced]"),
      "The value 'split.style[balanced]' is invalid for '<path>': split.style holds one of automatic, balanced, prominentDetail, which has no elements: only a list field has; blame split.style itself",
      command: "blame")
    expectUsageError(
      try rewind("blame", ipad, "split.expanded[x"),
      "The value 'split.expanded[x' is invalid for '<path>': 'split.expanded[x' is not a field or an element: write PATH or PATH[ELEMENT], the element between [ and ] at the end",
      command: "blame")
    let wrongId = try rewind("blame", ipad, "split.expanded[Leva]", "--history")
    #expect(wrongId.status == 64)
    #expect(wrongId.stderr.contains("Did you mean 'split.expanded[espresso-machines/leva]'?"))
    let unknown = try rewind("blame", ipad, "split.expandd[x]")
    #expect(unknown.status == 64)
    #expect(unknown.stderr.contains("Did you mean 'split.expanded'?"))
    expectUsageError(
      try rewind("blame", ipad, "split.style", "--limit", "2"), "--limit applies to --history",
      command: "blame")
    let zero = try rewind("blame", ipad, "split.style", "--history", "--limit", "0")
    #expect(zero.status == 64)
    #expect(zero.stderr.contains("expected a whole number of changes, 1 or more"))
    // The field and the journal the wrong way round: said as such, not as no such file.
    expectUsageError(
      try rewind("blame", "split.style", ipad),
      "split.style is no file and \(ipad) is one: the journal comes first, then the field (rewind blame JOURNAL FIELD)",
      command: "blame")
    // Points given to diff as journals: where they go.
    expectUsageError(
      try rewind("diff", ipad, "14", "15"),
      "14 and 15 are points, not a journal: diff takes one journal's points as --from and --to (rewind diff JOURNAL --from 14 --to 15), or two journals written JOURNAL@POINT",
      command: "diff")
    expectUsageError(
      try rewind("diff", ipad + "@14", "--to", "15"),
      "The value '\(ipad)@14' is invalid for '<journal>': JOURNAL@POINT names a point of one of two journals compared; for one journal's points give --from and --to",
      command: "diff")
    // A point nearly written: what was most likely meant.
    let offset = try rewind("blame", ipad, "split.style", "--at", "12s")
    #expect(offset.status == 64)
    #expect(offset.stderr.contains("; an offset starts with +: +12s"), "\(offset.stderr)")
  }

  @Test(
    "state --replace and --insert replay an edited session and list the later events that changed")
  func stateEdits() throws {
    let replaced = try rewind(
      "state", ipad, "--at", "20", "--replace",
      #"15:{"event":"categorySelected","id":"espresso-machines"}"#)
    #expect(replaced.status == 0)
    #expect(replaced.stdout.hasPrefix("State after event 20 (+44.300s), replacing 15"))
    // What the event put in did: here nothing, as the category was selected already.
    #expect(
      replaced.stdout.contains(
        """
        The events the edits put in:
          event 15 (replaced) at +34.300s: categorySelected espresso-machines  → unchanged

        """), "\(replaced.stdout)")
    // One the reducer rejects is said to be, where the state alone said nothing changed.
    let rejected = try rewind(
      "state", ipad, "--at", "20", "--replace", #"15:{"event":"categorySelected","id":"nope"}"#,
      "--insert", #"0:{"event":"menuTabTapped","index":99}"#)
    #expect(rejected.status == 0)
    #expect(
      rejected.stdout.contains(
        """
          after event 0 (inserted) at +0.000s: menuTabTapped 99  → rejected: tab index 99 is out of range: the menu has 7 tabs, 0 to 6
          event 15 (replaced) at +34.300s: categorySelected nope  → rejected: the id is not in the session's catalog
        """), "\(rejected.stdout)")
    #expect(
      replaced.stdout.contains(
        """
        2 later events do something else than recorded:
          event 16 at +35.600s: itemSelected grinders/vulcano  recorded applied → rejected: the item does not belong to the selected category
          event 17 at +38.000s: itemSelected grinders/swift-mini  recorded applied → rejected: the item does not belong to the selected category
        """))
    // Applied as recorded, other fields: both sides' fields, the difference being in them.
    let skipped = try rewind("state", iphone, "--skip", "3", "--at", "12")
    #expect(
      skipped.stdout.contains(
        "  event 4 at +5.400s: itemSelected grinders/lux-d  recorded applied, changing split.selectedItem, split.compactColumn, split.visibleColumns → applied, changing split.selectedItem\n"
      ), "\(skipped.stdout)")
    // An event inserted at the point is included; seq and time_us of an exported line are
    // not used.
    let inserted = try parseObject(
      try rewind(
        "state", ipad, "--at", "4", "--insert",
        #"4:{"seq":99,"time_us":1,"event":"itemCollapsed","id":"espresso-machines/leva"}"#,
        "--json"
      ).stdout)
    #expect((inserted["split"] as? [String: Any])?["expanded"] as? [String] == [])
    let recorded = try parseObject(try rewind("state", ipad, "--at", "4", "--json").stdout)
    #expect(
      (recorded["split"] as? [String: Any])?["expanded"] as? [String] == [
        "espresso-machines/leva"
      ])
    // Two inserts at one point apply in the order given.
    let ordered = try parseObject(
      try rewind(
        "state", ipad, "--at", "0", "--insert",
        #"0:{"event":"splitStyleChanged","style":"balanced"}"#,
        "--insert", #"0:{"event":"splitStyleChanged","style":"prominentDetail"}"#, "--json"
      ).stdout)
    #expect((ordered["split"] as? [String: Any])?["style"] as? String == "prominentDetail")
    let nothing = try rewind("state", ipad, "--at", "16", "--skip", "32", "-o", "/dev/null/x")
    #expect(nothing.status != 0)
  }

  @Test("state -o writes the edited session as a journal that replays to the same state")
  func stateOutput() throws {
    let directory = TemporaryDirectory()
    let output = directory.file("counterfactual.journal")
    let edits = [
      "--skip", "3", "--replace", #"15:{"event":"categorySelected","id":"espresso-machines"}"#,
      "--insert", #"20:{"event":"backTapped"}"#, "--insert",
      #"0:{"event":"menuTabTapped","index":2}"#,
    ]
    let written = try rewind(["state", ipad, "--at", "end"] + edits + ["-o", output])
    #expect(written.status == 0, "\(written.stderr)")
    #expect(written.stdout.hasSuffix("Wrote the edited session to \(output)\n"))
    let info = try parseObject(try rewind("info", output, "--json").stdout)
    #expect(info["events"] as? Int == 32 - 1 + 2)
    let parent = try #require(info["parent"] as? [String: Any])
    #expect(parent["seq"] as? Int == 0)
    #expect((parent["path"] as? String)?.hasSuffix("Journals/ipad-three-column.journal") == true)
    // Said as a branch, not as a continuation of the session.
    #expect(
      try rewind("info", output).stdout.contains(
        "at the start: none of its events is that session's"))
    // Given through `..`, the parent is named as the file it is, `..` resolved.
    let through = directory.file("through.journal")
    let roundabout = sample("ipad-three-column.journal")
      .replacingOccurrences(of: "/Journals/", with: "/Journals/../Journals/")
    #expect(roundabout.contains("/../"))
    let viaDots = try rewind("state", roundabout, "--skip", "3", "-o", through)
    #expect(viaDots.status == 0, "\(viaDots.stderr)")
    #expect(
      try rewind("info", through).stdout.contains(
        "after event 2: its events 1–2 are that session's"))
    let throughInfo = try parseObject(try rewind("info", through, "--json").stdout)
    let throughParent = try #require(throughInfo["parent"] as? [String: Any])
    #expect(
      throughParent["path"] as? String
        == URL(fileURLWithPath: sample("ipad-three-column.journal")).resolvingSymlinksInPath().path)
    // The new journal's end state is the edited state; it checks clean.
    let editedState = try rewind(["state", ipad, "--json"] + edits).stdout
    #expect(try rewind("state", output, "--json").stdout == editedState)
    #expect(try rewind("check", output).status == 0)
    let log = try rewind("log", output, "--json").lines.map(parseObject)
    #expect(log.first?["event"] as? String == "menuTabTapped")
    #expect(log.first?["time_us"] as? Int == 0)
    #expect(
      log.map { $0["time_us"] as? Int ?? -1 } == log.map { $0["time_us"] as? Int ?? -1 }.sorted())
    // An existing file is kept without --force; with it, replaced.
    let refused = try rewind(["state", ipad, "--skip", "1", "-o", output])
    expectFailure(refused, containing: "the file exists; pass --force to replace it")
    // A wrong edit is said first, not after --force was given.
    let wrong = try rewind(["state", ipad, "--skip", "99", "-o", output])
    #expect(wrong.status == 64)
    #expect(wrong.stderr.contains("'99' is invalid for '--skip <seq,...>'"), "\(wrong.stderr)")
    #expect(try parseObject(try rewind("info", output, "--json").stdout)["events"] as? Int == 33)
    #expect(try rewind(["state", ipad, "--skip", "1", "-o", output, "--force"]).status == 0)
    #expect(try parseObject(try rewind("info", output, "--json").stdout)["events"] as? Int == 31)
    let same = try rewind(["state", ipad, "--skip", "1", "-o", ipad])
    #expect(same.status == 64)
    #expect(same.stderr.contains("the output would overwrite the input"))
  }

  @Test(
    "a branch's parent goes through export and import; a parent the events cannot have is refused")
  func parentThroughJSONLines() throws {
    let directory = TemporaryDirectory()
    let branch = directory.file("branch.journal")
    #expect(try rewind("state", ipad, "--skip", "3,6", "-o", branch).status == 0)
    let exported = try rewind("export", branch)
    let header = try #require(try parseObject(exported.lines[0])["header"] as? [String: Any])
    let parent = try #require(header["parent"] as? [String: Any])
    #expect(parent["seq"] as? Int == 2)
    #expect(parent["session"] as? String == "d55e25a3-5beb-4c6b-b15d-629434eea694")
    let lines = directory.file("branch.jsonl")
    write(exported.stdout, to: lines)
    let imported = directory.file("imported.journal")
    #expect(try rewind("import", lines, "-o", imported).status == 0)
    #expect(
      try rewind("info", imported).stdout.contains(
        "(session d55e25a3-5beb-4c6b-b15d-629434eea694) after event 2: its events 1–2 are that session's"
      ))
    #expect(try rewind("export", imported).stdout == exported.stdout)
    // A prefix of the branch shares all its events (the review of session 68: its export
    // said it shared 2, and could not be imported).
    let prefix = try rewind("export", branch, "--to", "1")
    let prefixParent = try parseObject(prefix.lines[0])["header"] as? [String: Any]
    #expect((prefixParent?["parent"] as? [String: Any])?["seq"] as? Int == 1)
    let prefixLines = directory.file("prefix.jsonl")
    write(prefix.stdout, to: prefixLines)
    #expect(
      try rewind("import", prefixLines, "-o", directory.file("prefix.journal")).status == 0)
    // A parent sharing more events than the session has, or with a key it lacks.
    for (old, new, message) in [
      (
        #""seq":2}"#, #""seq":99}"#,
        "the header's \"parent\" says the session shares its first 99 events with its parent, but it has 30 events; nothing was written"
      ),
      (
        #""seq":2}"#, #""sq":2}"#,
        #"unknown key "sq" (did you mean "seq"?) in the header's "parent""#
      ),
      (
        #""parent":{"#, #""parent":{"x":1,"#,
        #"unknown key "x" in the header's "parent"; its keys are path, session, seq"#
      ),
    ] {
      let bad = directory.file("bad.jsonl")
      write(exported.stdout.replacingOccurrences(of: old, with: new), to: bad)
      let refused = try rewind("import", bad, "-o", directory.file("bad.journal"))
      expectFailure(refused, containing: message)
      #expect(!FileManager.default.fileExists(atPath: directory.file("bad.journal")))
    }
  }

  @Test("state -o on a generated session: the copy differs only where it was edited")
  func stateOutputGenerated() throws {
    let directory = TemporaryDirectory()
    let journal = try generated(directory, events: 1_500, seed: 3)
    let output = directory.file("edited.journal")
    let result = try rewind(
      "state", journal, "--replace", #"700:{"event":"backTapped"}"#, "--skip", "900", "-o", output)
    #expect(result.status == 0, "\(result.stderr)")
    let original = try rewind("export", journal).lines.dropFirst().map(parseObject)
    let edited = try rewind("export", output).lines.dropFirst().map(parseObject)
    #expect(edited.count == 1_499)
    func event(_ object: [String: Any]) -> NSDictionary {
      NSDictionary(dictionary: object.filter { $0.key != "seq" })
    }
    for index in 0..<699 { #expect(event(edited[index]) == event(original[index]), "\(index + 1)") }
    #expect(edited[699]["event"] as? String == "backTapped")
    #expect(edited[699]["time_us"] as? Int == original[699]["time_us"] as? Int)
    for index in 700..<899 { #expect(event(edited[index]) == event(original[index])) }
    for index in 899..<1_499 { #expect(event(edited[index]) == event(original[index + 1])) }
    #expect(
      try rewind("state", output, "--json").stdout
        == rewind(
          "state", journal, "--replace", #"700:{"event":"backTapped"}"#, "--skip", "900", "--json"
        ).stdout)
  }

  @Test("state refuses malformed edits with a usage error naming the option")
  func stateBadEdits() throws {
    expectUsageError(
      try rewind("state", ipad, "--replace", "15{}"),
      #"The value '15{}' is invalid for '--replace <seq:event>': expected SEQ:EVENT, a sequence number, a colon and the event's JSON, e.g. 3:{"event":"backTapped"}"#,
      command: "state")
    expectUsageError(
      try rewind("state", ipad, "--replace", #"15:{"event":"backTapped","id":"x"}"#),
      #"The value '15:{"event":"backTapped","id":"x"}' is invalid for '--replace <seq:event>': unknown key "id" in the event "backTapped"; its keys are event"#,
      command: "state")
    expectUsageError(
      try rewind("state", ipad, "--insert", #"20:{"event":"backTapped"}"#, "--at", "10"),
      #"The value '20:{"event":"backTapped"}' is invalid for '--insert <seq:event>': events can be inserted at points 0–10, up to the point"#,
      command: "state")
    for (option, value, problem) in [
      ("--replace", "0:{}", "there is no event 0"),
      ("--replace", #"15:{"event":"teleported"}"#, "unknown event kind \"teleported\""),
      ("--insert", #"3:{"event""#, "not JSON: column 9"),
      ("--replace", "40:{\"event\":\"backTapped\"}", "only events 1–32, up to the point,"),
    ] {
      let result = try rewind("state", ipad, option, value)
      #expect(result.status == 64, "\(value)")
      #expect(result.stdout.isEmpty)
      #expect(result.stderr.contains(problem), "\(result.stderr)")
    }
    let both = try rewind("state", ipad, "--skip", "4", "--replace", #"4:{"event":"backTapped"}"#)
    #expect(both.status == 64)
    #expect(both.stderr.contains("event 4 is already skipped or replaced"))
    for skips in [["--skip", "3,3"], ["--skip", "3", "--skip", "4,3"]] {
      let twice = try rewind(["state", ipad] + skips)
      #expect(twice.status == 64, "\(skips)")
      #expect(
        twice.stderr.hasPrefix(
          "Error: The value '3' is invalid for '--skip <seq,...>': event 3 is already skipped"),
        "\(twice.stderr)")
    }
    expectUsageError(
      try rewind("state", ipad, "--force"), "--force applies to -o", command: "state")
    expectUsageError(
      try rewind("state", ipad, "-o", "x.journal"),
      "-o writes an edited session: give --skip, --insert or --replace", command: "state")
  }

  @Test("diff --align finds where two recordings first took different paths, and the rejoin")
  func alignedDiff() throws {
    let directory = TemporaryDirectory()
    // The same session without expanding and collapsing Leva (events 3 and 6).
    let skipped = directory.file("skipped.journal")
    #expect(try rewind("state", ipad, "--skip", "3,6", "-o", skipped).status == 0)
    let text = try rewind("diff", ipad, skipped, "--align")
    #expect(text.status == 0)
    #expect(
      text.lines == [
        "The sessions take the same path for 2 events, then differ at event 3:",
        "  \(ipad): event 3 at +3.500s: itemExpanded espresso-machines/leva  applied",
        "  \(skipped): event 3 at +4.400s: itemSelected espresso-machines/leva/leva-x  applied",
        "2 fields differ there (- \(ipad), + \(skipped)):",
        "split.selectedItem",
        "  - \"espresso-machines/leva\"",
        "  + \"espresso-machines/leva/leva-x\"",
        "split.expanded",
        "  - [\"espresso-machines/leva\"]",
        "  + []",
        "They rejoin after event 6 of \(ipad) and event 4 of \(skipped): the states are equal there.",
        "The end states are equal (\(ipad) has 32 events, \(skipped) 30 events).",
      ])
    let json = try parseObject(try rewind("diff", ipad, skipped, "--align", "--json").stdout)
    #expect(json["commonEvents"] as? Int == 2)
    #expect(json["samePath"] as? Bool == false)
    let divergence = try #require(json["divergence"] as? [String: Any])
    #expect((divergence["left"] as? [String: Any])?["event"] as? String == "itemExpanded")
    #expect((divergence["right"] as? [String: Any])?["event"] as? String == "itemSelected")
    #expect((json["rejoin"] as? [String: Any])?["right"] as? Int == 4)
    #expect((json["endChanges"] as? [Any])?.isEmpty == true)

    let same = try rewind("diff", ipad, ipad, "--align")
    #expect(
      same.stdout
        == "The sessions take the same path: 32 events, the same events with the same states after each.\n"
    )
    let layouts = try rewind("diff", ipad, sample("two-column.journal"), "--align")
    #expect(
      layouts.lines.first == "The sessions differ from the start: their initial states differ.")
    #expect(layouts.stdout.contains("They do not rejoin"))
  }

  @Test("diff --align on generated sessions: a replaced event parts them there")
  func alignedDiffGenerated() throws {
    let directory = TemporaryDirectory()
    let journal = try generated(directory, events: 2_000, seed: 21)
    let edited = directory.file("edited.journal")
    let replaced = try rewind(
      "state", journal, "--replace", #"1200:{"event":"menuTabTapped","index":99}"#, "-o", edited)
    #expect(replaced.status == 0, "\(replaced.stderr)")
    let json = try parseObject(try rewind("diff", journal, edited, "--align", "--json").stdout)
    let divergence = try #require(json["divergence"] as? [String: Any])
    #expect(json["commonEvents"] as? Int == 1_199)
    #expect((divergence["right"] as? [String: Any])?["index"] as? Int == 99)
    #expect((divergence["right"] as? [String: Any])?["outcome"] as? String == "rejected")
    let other = try generated(directory, events: 2_000, seed: 22)
    let unrelated = try parseObject(try rewind("diff", journal, other, "--align", "--json").stdout)
    #expect((unrelated["commonEvents"] as? Int ?? 0) < 2_000)
    #expect(unrelated["samePath"] as? Bool == false)
  }

  @Test("diff --align refuses points, a single journal and stray options")
  func alignedDiffBadInput() throws {
    expectUsageError(
      try rewind("diff", ipad, "--align"), "--align compares two journals: give two",
      command: "diff")
    expectUsageError(
      try rewind("diff", "\(ipad)@5", ipad, "--align"),
      "The value '\(ipad)@5' is invalid for '<journal>': --align compares whole sessions; give the journal without @POINT",
      command: "diff")
    expectUsageError(
      try rewind("diff", ipad, ipad, "--window", "3"), "--window applies to --align",
      command: "diff")
    let zero = try rewind("diff", ipad, ipad, "--align", "--window", "0")
    #expect(zero.status == 64)
    #expect(zero.stderr.contains("expected a whole number of events, 1 or more"))
    let missing = try rewind("diff", ipad, "/nonexistent/x.journal", "--align")
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("/nonexistent/x.journal"))
  }
}
