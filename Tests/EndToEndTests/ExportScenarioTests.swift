import Foundation
import TestSupport
import Testing

/// `rewind export --scenario`: a journal, or a range of it, as a scenario script that
/// `rewind record` records as the same events at the same times.
@Suite("rewind export --scenario")
struct ExportScenarioTests {
  static let samples = [
    "day-menu", "two-column", "ipad-three-column", "iphone-compact", "rejected-interactions",
    "generated-200k",
  ]

  /// The JSON Lines of a journal: its header without the session id, and its events.
  func lines(_ journal: String) throws -> [String] {
    let exported = try rewind("export", journal)
    #expect(exported.status == 0, "\(exported.stderr)")
    return exported.lines.map {
      $0.replacing(/"session":"[0-9a-f-]+",/, with: "")
    }
  }

  /// Exports `journal` as a script, records it, and compares the two sessions.
  func roundTrip(_ journal: String, in directory: TemporaryDirectory, name: String) throws {
    let script = directory.file(name + ".scenario")
    let exported = try rewind("export", journal, "--scenario", "-o", script)
    #expect(exported.status == 0, "\(name): \(exported.stderr)")
    let recorded = directory.file(name + ".journal")
    let record = try rewind("record", script, "-o", recorded)
    #expect(record.status == 0, "\(name): \(record.stderr)")
    let original = try lines(journal)
    let again = try lines(recorded)
    #expect(original.count == again.count, "\(name)")
    #expect(original == again, "\(name)")
  }

  @Test("the sample journals record again as the same events, times, settings and start")
  func samplesRoundTrip() throws {
    let directory = TemporaryDirectory()
    for stem in Self.samples {
      try roundTrip(sample(stem + ".journal"), in: directory, name: stem)
    }
  }

  @Test(
    "a session of its own catalog, or upcast from schema 1, records again as the same session (they were refused)"
  )
  func ownSettingsRoundTrip() throws {
    let directory = TemporaryDirectory()
    for stem in ["schema1/day-menu", "schema1/ipad-three-column", "format-1.0/day-menu"] {
      try roundTrip(sample(stem + ".journal"), in: directory, name: stem.replacing("/", with: "-"))
    }
    // A script's own catalog file: its export names the settings, catalog and all.
    let info = try parseObject(
      try rewind("info", sample("schema1/day-menu.journal"), "--json").stdout)
    let settings = try #require(info["settings"] as? [String: Any])
    let catalog = try JSONSerialization.data(withJSONObject: try #require(settings["catalog"]))
    write(String(decoding: catalog, as: UTF8.self), to: directory.file("catalog.json"))
    write("catalog catalog.json\ndevice iPhone 15\ntap 2\n", to: directory.file("mine.scenario"))
    let mine = directory.file("mine.journal")
    #expect(try rewind("record", directory.file("mine.scenario"), "-o", mine).status == 0)
    let script = try rewind("export", mine, "--scenario")
    #expect(script.status == 0, "\(script.stderr)")
    #expect(script.lines.dropFirst().first?.hasPrefix("settings {\"catalog\":") == true)
    try roundTrip(mine, in: directory, name: "own")
    // Settings no device gives (a phone's strip of 150 points), ids of its own catalog.
    let lines = directory.file("custom.jsonl")
    """
    {"header":{"domain":"navigation","schemaVersion":2,"session":"11111111-2222-3333-4444-555555555556","start":"2026-11-30T07:30:00Z","device":"Dev","snapshotInterval":1024,"settings":{"catalog":{"layout":"twoColumn","menuLabels":["A","B"],"menuLabelWidths":[100.0,100.0],"categories":[{"name":"Custom","image":"a"}]},"idiom":"phone","sizeClass":"compact","orientation":"portrait","menu":{"viewportWidth":150.0,"scrollsTappedTabIntoView":false}}}}
    {"seq":1,"time_us":0,"event":"categorySelected","id":"custom"}

    """.writeFixture(to: lines)
    let custom = directory.file("imported-custom.journal")
    let imported = try rewind("import", lines, "-o", custom)
    #expect(imported.status == 0, "\(imported.stderr)")
    try roundTrip(custom, in: directory, name: "custom")
  }

  @Test(
    "a session whose first interaction is a size class change at its start records again (its line read as the size setting)"
  )
  func sizeFirstRoundTrip() throws {
    let directory = TemporaryDirectory()
    // With the settings as lines, and as one settings line (a catalog of the script's own).
    let info = try parseObject(
      try rewind("info", sample("schema1/day-menu.journal"), "--json").stdout)
    let settings = try #require(info["settings"] as? [String: Any])
    let catalog = try JSONSerialization.data(withJSONObject: try #require(settings["catalog"]))
    write(String(decoding: catalog, as: UTF8.self), to: directory.file("catalog.json"))
    for (name, preamble) in [
      ("lines", "layout three-column\nsize regular\n"), ("own", "catalog catalog.json\n"),
    ] {
      let script = directory.file(name + "-first.scenario")
      write(preamble + "+0s size compact\n+1s size regular\n", to: script)
      let journal = directory.file(name + "-first.journal")
      let recorded = try rewind("record", script, "-o", journal)
      #expect(recorded.status == 0, "\(name): \(recorded.stderr)")
      let exported = try rewind("export", journal, "--scenario")
      #expect(exported.status == 0, "\(name): \(exported.stderr)")
      #expect(exported.lines.contains("@0s size compact"), "\(name): \(exported.stdout)")
      try roundTrip(journal, in: directory, name: name)
    }
  }

  @Test("a generated journal records again as the same session")
  func generatedRoundTrip() throws {
    let seed = testSeed("exportScenarioGenerated") % 1_000_000
    let directory = TemporaryDirectory()
    let journal = directory.file("generated-source.journal")
    let generated = try rewind("generate", "-o", journal, "--events", "20000", "--seed", "\(seed)")
    #expect(generated.status == 0, "seed \(seed): \(generated.stderr)")
    try roundTrip(journal, in: directory, name: "generated")
  }

  @Test("a range is written from the session start, with its first event's time")
  func range() throws {
    let result = try rewind(
      "export", sample("two-column.journal"), "--scenario", "--from", "3", "--to", "5")
    #expect(result.status == 0)
    #expect(
      result.stdout == """
        # Exported from \(sample("two-column.journal")): events 4 to 5 of 17, recorded from the initial state
        layout two-column
        size regular
        orientation landscape
        device iPad Air 13-inch, iPadOS 18.1
        start 2026-11-30T15:05:00Z

        @7.1s select category espresso-machines
        +1.4s expand espresso-machines/linea

        """)
  }

  @Test(
    "a range's script that records an event otherwise than the session says so, naming the first (it said nothing)"
  )
  func rangeRecordedOtherwise() throws {
    let journal = sample("iphone-compact.journal")
    let directory = TemporaryDirectory()
    let script = directory.file("range.scenario")
    let exported = try rewind("export", journal, "--scenario", "--from", "2", "-o", script)
    #expect(exported.status == 0)
    #expect(
      exported.stderr
        == "warning: \(journal): the script records the range from the initial state, not from the state after event 2, so event 3 (backTapped) records otherwise: in the session it was applied, changing split.selectedItem, split.compactColumn and split.visibleColumns; from the script it is rejected. Export from the start (without --from) to record the same events\n"
    )
    // Applied both ways, changing other fields: each said apart from the sentence.
    let ipad = sample("ipad-three-column.journal")
    #expect(
      try rewind("export", ipad, "--scenario", "--from", "14").stderr
        == "warning: \(ipad): the script records the range from the initial state, not from the state after event 14, so event 15 (categorySelected grinders) records otherwise: in the session it was applied, changing split.selectedCategory and split.selectedItem; from the script it is applied, changing split.selectedCategory. Export from the start (without --from) to record the same events\n"
    )
    // As it says: recorded, the script's first event is rejected.
    let recorded = directory.file("range.journal")
    #expect(try rewind("record", script, "-o", recorded).status == 0)
    #expect(try rewind("log", recorded, "--to", "1").stdout.contains("rejected"))
    // A range whose events do what the session did (the state before it is the initial
    // one, or becomes it), and the whole session: no warning.
    for range in [["--from", "6"], []] {
      let quiet = try rewind(["export", journal, "--scenario"] + range)
      #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(range): \(quiet.stderr)")
    }
  }

  @Test("the first comment names a range of one event, or of none, as it is")
  func oneOrNoEvent() throws {
    let journal = sample("two-column.journal")
    let one = try rewind("export", journal, "--scenario", "--from", "5", "--to", "6")
    #expect(one.status == 0)
    #expect(
      one.lines.first
        == "# Exported from \(journal): event 6 of 17, recorded from the initial state")
    for (from, to) in [("5", "5"), ("17", "end"), ("0", "0")] {
      let none = try rewind("export", journal, "--scenario", "--from", from, "--to", to)
      #expect(none.status == 0)
      #expect(
        none.lines.first
          == "# Exported from \(journal): none of its 17 events (the range after event \(from) holds none)",
        "--from \(from) --to \(to)")
      #expect(none.stdout.hasSuffix("start 2026-11-30T15:05:00Z\n\n"))
    }
  }

  @Test("an existing file needs --force")
  func badInput() throws {
    let directory = TemporaryDirectory()
    let output = directory.file("out.scenario")
    "keep".writeFixture(to: output)
    expectFailure(
      try rewind("export", sample("day-menu.journal"), "--scenario", "-o", output),
      containing: "the file exists; pass --force to replace it")
    #expect(try String(contentsOfFile: output, encoding: .utf8) == "keep")
    #expect(
      try rewind("export", sample("day-menu.journal"), "--scenario", "-o", output, "--force")
        .status == 0)
    #expect(try String(contentsOfFile: output, encoding: .utf8).contains("tap "))
  }

  /// The refusal said "the session's device or start", neither which nor why.
  @Test(
    "a device the script language cannot write is named, with what it would read back as",
    arguments: [("QA rig #3", "'QA rig'"), ("QA rig 3  ", "'QA rig 3'")])
  func deviceNotWritten(device: String, readBack: String) throws {
    let directory = TemporaryDirectory()
    var lines = try rewind("export", sample("iphone-compact.journal")).lines
    lines[0] = lines[0].replacing(
      "\"device\":\"iPhone 15 Pro Max, iOS 18.1\"", with: "\"device\":\"\(device)\"")
    let jsonl = directory.file("qa.jsonl")
    (lines.joined(separator: "\n") + "\n").writeFixture(to: jsonl)
    let journal = directory.file("qa.journal")
    #expect(try rewind("import", jsonl, "-o", journal).status == 0)
    let output = directory.file("qa.scenario")
    expectFailure(
      try rewind("export", journal, "--scenario", "-o", output),
      containing:
        "the script language cannot write the session's device '\(device)': it reads back as \(readBack) (a # starts a comment, spaces at its ends are dropped); export it as JSON Lines (without --scenario)"
    )
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  /// An id the catalog lacks is written `id:TEXT` as it is: a `#` in it starts a comment
  /// and spaces at its ends are dropped, so the script recorded another id. The read-back
  /// took it for the same event (such ids are numbered in the order a session meets them,
  /// and `a` was the first of both), and the export succeeded.
  @Test("an id the script language cannot write is refused by export and said by shrink")
  func idNotWritten() throws {
    let directory = TemporaryDirectory()
    let header = try #require(try rewind("export", sample("iphone-compact.journal")).lines.first)
    let jsonl = directory.file("ids.jsonl")
    let events = [
      "{\"seq\":1,\"time_us\":0,\"event\":\"categorySelected\",\"id\":\"a # b\"}",
      "{\"seq\":2,\"time_us\":1000,\"event\":\"itemSelected\",\"id\":\"  spaced  \"}",
    ]
    ([header] + events).map { $0 + "\n" }.joined().writeFixture(to: jsonl)
    let journal = directory.file("ids.journal")
    #expect(try rewind("import", jsonl, "-o", journal).status == 0)
    expectFailure(
      try rewind("export", journal, "--scenario"),
      containing:
        "event 1 of the script reads back as another event: 'select category id:a # b' reads as 'select category id:a'; export it as JSON Lines (without --scenario)"
    )
    let second = directory.file("second.jsonl")
    ([header, events[1].replacing("\"seq\":2", with: "\"seq\":1")].map { $0 + "\n" }.joined())
      .writeFixture(to: second)
    let spaced = directory.file("spaced.journal")
    #expect(try rewind("import", second, "-o", spaced).status == 0)
    expectFailure(
      try rewind("export", spaced, "--scenario"),
      containing: "event 1 of the script reads back as another event: 'select item id:  spaced  '")
    // An invisible space is shown as such (walk of import/export, IO-9: the two texts
    // of the message looked the same).
    let invisible = directory.file("invisible.jsonl")
    ([header, "{\"seq\":1,\"time_us\":0,\"event\":\"itemSelected\",\"id\":\"x\\u00a0y\"}"]
      .map { $0 + "\n" }.joined()).writeFixture(to: invisible)
    let nbsp = directory.file("nbsp.journal")
    #expect(try rewind("import", invisible, "-o", nbsp).status == 0)
    expectFailure(
      try rewind("export", nbsp, "--scenario"),
      containing:
        "event 1 of the script reads back as another event: 'select item id:x\\u{A0}y' reads as 'select item id:x y'"
    )
    // Ids the catalog lacks, in a script of a part of the session: numbered otherwise
    // when read back (the first it meets is the session's second), the same events.
    let parts = directory.file("parts.jsonl")
    let unknown = [
      "{\"seq\":1,\"time_us\":0,\"event\":\"itemSelected\",\"id\":\"qq1\"}",
      "{\"seq\":2,\"time_us\":1000,\"event\":\"categorySelected\",\"id\":\"grinders\"}",
      "{\"seq\":3,\"time_us\":2000,\"event\":\"itemSelected\",\"id\":\"qq2\"}",
    ]
    ([header] + unknown).map { $0 + "\n" }.joined().writeFixture(to: parts)
    let partial = directory.file("parts.journal")
    #expect(try rewind("import", parts, "-o", partial).status == 0)
    let part = try rewind("export", partial, "--scenario", "--from", "1")
    #expect(part.status == 0, "\(part.stderr)")
    #expect(part.stdout.hasSuffix("+1ms select item id:qq2\n"), "\(part.stdout)")
    // shrink prints the script whole, with the same words in its warning.
    let shrunk = try rewind("shrink", journal, "--where", "outcome == rejected")
    #expect(shrunk.status == 0, "\(shrunk.stderr)")
    #expect(
      shrunk.stderr.contains(
        "the scenario script does not record the same session: event 1 of the script reads back as another event: 'select category id:a # b' reads as 'select category id:a'"
      ), "\(shrunk.stderr)")
  }
}
