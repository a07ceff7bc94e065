import Foundation
import Navigation
import RewindCore
import RewindJournal
import TestSupport
import Testing

/// Text a terminal would obey rather than show: it sets the window title, rings, clears
/// the screen, returns and breaks the line, and holds DEL, the C1 `CSI` (U+009B) and the
/// bidi override U+202E and isolate U+2066.
private let hostile = "x\u{1B}]0;owned\u{07}\u{1B}[2J\r\nY\u{7F}\u{9B}2J\u{202E}\u{2066}z"
/// `hostile` as the tool shows it in text.
private let hostileShown =
  #"x\u{1B}]0;owned\u{7}\u{1B}[2J\u{D}\u{A}Y\u{7F}\u{9B}2J\u{202E}\u{2066}z"#
/// `hostile` as JSON output writes it.
private let hostileJSON = #"x\u001b]0;owned\u0007\u001b[2J\r\nY\u007f\u009b2J\u202e\u2066z"#

/// The characters of `text` a terminal would obey, other than the line feeds that end
/// lines: written out independently of the tool's own list.
private func rawControls(_ text: String) -> [String] {
  text.unicodeScalars.filter { scalar in
    let value = scalar.value
    return (value < 0x20 && value != 0x0A) || (0x7F...0x9F).contains(value)
      || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
  }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
}

/// Runs `rewind` and checks that neither stream holds a raw control character.
@discardableResult
private func safeRewind(
  _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation
) throws -> ProcessResult {
  let result = try rewind(arguments)
  let shown = arguments.map { $0.debugDescription }.joined(separator: " ")
  #expect(
    rawControls(result.stdout).isEmpty,
    "rewind \(shown): stdout holds \(rawControls(result.stdout))", sourceLocation: sourceLocation)
  #expect(
    rawControls(result.stderr).isEmpty,
    "rewind \(shown): stderr holds \(rawControls(result.stderr))", sourceLocation: sourceLocation)
  return result
}

/// Columns as a terminal shows the characters these tests use: CJK ideographs, kana,
/// emoji and `☕` take two, combining accents none, the rest (box drawing too) one.
private func columns(_ text: some StringProtocol) -> Int {
  text.unicodeScalars.reduce(0) { sum, scalar in
    switch scalar.value {
    case 0x0300...0x036F: sum
    case 0x2615, 0x3040...0x30FF, 0x4E00...0x9FFF, 0x1F300...0x1FAFF: sum + 2
    default: sum + 1
    }
  }
}

@Suite("Terminal safety: text from outside is shown escaped, refused where never meant")
struct TerminalSafetyTests {
  /// A journal (built through the library, as no command writes one) whose device, ids
  /// and path hold `hostile`.
  private func hostileJournal(in directory: TemporaryDirectory) throws -> String {
    let path = directory.file("s\u{1B}[2J\n\u{9B}\u{202E}.journal")
    let domain = NavigationDomain()
    let recorder = try JournalRecorder.create(
      at: path, domain: domain,
      session: SessionInfo(startTime: 1_767_225_600_000_000, device: "dev " + hostile),
      options: RecordingOptions(snapshotInterval: 2))
    _ = try recorder.record(.categorySelected(domain.internedRef(hostile)), at: 1_000)
    _ = try recorder.record(.categorySelected(domain.ref("grinders")), at: 2_000)
    _ = try recorder.record(.itemExpanded(domain.internedRef(hostile)), at: 3_000)
    try recorder.close()
    return path
  }

  @Test("every command shows a journal's ids, device and path escaped, and JSON as JSON")
  func everyCommand() throws {
    let directory = TemporaryDirectory()
    let path = try hostileJournal(in: directory)
    let pathShown = #"s\u{1B}[2J\u{A}\u{9B}\u{202E}.journal"#

    let info = try safeRewind(["info", path])
    #expect(info.status == 0)
    #expect(info.stdout.contains("Journal    \(directory.path)/\(pathShown)\n"))
    #expect(info.stdout.contains(" on dev \(hostileShown)\n"))

    let log = try safeRewind(["log", path])
    #expect(log.status == 0)
    #expect(log.lines.count == 3, "an id with a newline must not split its line: \(log.stdout)")
    #expect(log.lines[0].contains("categorySelected \(hostileShown)"))
    #expect(log.lines[2].contains("itemExpanded \(hostileShown)"))

    let diff = try safeRewind(["diff", path, "--events"])
    #expect(diff.stdout.contains("categorySelected \(hostileShown)"))
    let twoJournals = try safeRewind(["diff", path + "@1", path + "@end"])
    #expect(twoJournals.stdout.contains(pathShown + "@1"))

    for arguments in [
      ["state", path], ["state", path, "--at", "1", "--skip", "1"],
      ["blame", path, "split.selectedCategory"],
      ["find", path, "--where", "changed(split.selectedCategory)"],
      ["help"], ["log", "--help"],
    ] {
      #expect(try safeRewind(arguments).status == 0, "\(arguments)")
    }
    try safeRewind(["find", path, "--where", "split.selectedCategory == \"\(hostileJSON)\""])
    let check = try safeRewind(["check", path])
    #expect(check.stdout.hasPrefix("PASS \(directory.path)/\(pathShown): 3 events"))
    let verify = try safeRewind(["verify", path])
    #expect(verify.stdout.hasPrefix("OK \(directory.path)/\(pathShown): 1 frame"))
    let recover = try safeRewind(["recover", path])
    #expect(recover.stdout.hasPrefix("OK \(directory.path)/\(pathShown) is whole"))

    // JSON output escapes them as JSON does, and reads back to the same text.
    let logJSON = try safeRewind(["log", path, "--json"])
    #expect(logJSON.lines.count == 3)
    #expect(try parseObject(logJSON.lines[0])["id"] as? String == hostile)
    #expect(logJSON.stdout.contains(hostileJSON))
    let infoJSON = try parseObject(try safeRewind(["info", path, "--json"]).stdout)
    #expect(infoJSON["device"] as? String == "dev " + hostile)
    #expect(infoJSON["path"] as? String == path)
    let export = try safeRewind(["export", path])
    #expect(export.lines.count == 4)
    let header = try #require(try parseObject(export.lines[0])["header"] as? [String: Any])
    #expect(header["device"] as? String == "dev " + hostile)
    #expect(try parseObject(export.lines[3])["id"] as? String == hostile)
    for arguments in [
      ["state", path, "--json"], ["diff", path, "--events", "--json"],
      ["blame", path, "split.selectedCategory", "--json"],
      ["find", path, "--where", "changed(split.selectedCategory)", "--json"],
      ["check", path, "--json"], ["verify", path, "--json"], ["recover", path, "--json"],
    ] {
      let result = try safeRewind(arguments)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      _ = try parseJSON(result.stdout)
    }
  }

  @Test("import shows the paths it read and wrote escaped, as the other commands do")
  func importPaths() throws {
    let directory = TemporaryDirectory()
    let lines = directory.file("in\u{1B}[2J\n\u{202E}.jsonl")
    """
    {"seq":1,"time_us":0,"event":"menuTabTapped","index":1}
    {"seq":2,"time_us":5,"event":"categorySelected","id":"grinders"}
    {"seq":3,"time_us":9,"event":"backTapped"}

    """.writeFixture(to: lines)
    let output = directory.file("out\u{9B}\r.journal")
    let imported = try safeRewind(["import", lines, "-o", output])
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(
      imported.stdout
        == "Imported 3 events from \(directory.path)/in\\u{1B}[2J\\u{A}\\u{202E}.jsonl to \(directory.path)/out\\u{9B}\\u{D}.journal\n"
    )
    // As JSON, the path as it is.
    let json = try safeRewind(["import", lines, "-o", output, "--force", "--json"])
    #expect(try parseObject(json.stdout)["journal"] as? String == output)
  }

  @Test("generate and record show the path they wrote escaped")
  func writtenPaths() throws {
    let directory = TemporaryDirectory()
    let generated = directory.file("g\u{1B}[2J\u{202E}.journal")
    let generate = try safeRewind(["generate", "--events", "50", "--seed", "3", "-o", generated])
    #expect(generate.status == 0, "\(generate.stderr)")
    #expect(generate.stdout.contains(" to \(directory.path)/g\\u{1B}[2J\\u{202E}.journal: "))
    let script = directory.file("s.scenario")
    "tap 1\ntap 2\n".writeFixture(to: script)
    let recorded = directory.file("r\u{9B}\r.journal")
    let record = try safeRewind(["record", script, "-o", recorded])
    #expect(record.status == 0, "\(record.stderr)")
    #expect(record.stdout.hasSuffix(" to \(directory.path)/r\\u{9B}\\u{D}.journal\n"))
  }

  @Test("error messages show what they quote escaped: arguments, paths, labels, domains")
  func errors() throws {
    let directory = TemporaryDirectory()
    let path = try hostileJournal(in: directory)

    let blame = try safeRewind(["blame", path, hostile])
    #expect(blame.status == 64)
    #expect(blame.stderr.hasPrefix("Error: The value '\(hostileShown)' is invalid for '<path>'"))
    let missing = try safeRewind(["log", directory.file(hostile)])
    #expect(missing.status == 1)
    #expect(missing.stderr.hasPrefix("Error: \(directory.path)/\(hostileShown): no such file"))
    #expect(missing.stderr.split(separator: "\n").count == 1)
    let command = try safeRewind([hostile])
    #expect(command.status == 64)
    #expect(command.stderr.hasPrefix("Error: Unknown subcommand '\(hostileShown)'"))
    let check = try safeRewind(["check", directory.file(hostile + ".journal")])
    #expect(check.stdout.hasPrefix("FAIL \(directory.path)/\(hostileShown).journal: "))

    // A journal whose catalog (from a foreign writer) has a label that no catalog may
    // have, and one of a domain named with escapes: reading them fails, and says why.
    let settings =
      #"{"catalog":{"menuLabels":["Mon\u001b[2Jday\u202e"],"categories":[{"name":"A"}]}}"#
    let labelled = directory.file("label.journal")
    try writeHeaderOnly(at: labelled, domain: "navigation", settings: settings)
    for command in ["info", "log", "state"] {
      let result = try safeRewind([command, labelled])
      #expect(result.status == 1)
      #expect(
        result.stderr.contains(
          #"the menu label 1 "Mon\u{1B}[2Jday\u{202E}" contains a control character (U+001B)"#),
        "\(result.stderr)")
    }
    let foreign = directory.file("domain.journal")
    try writeHeaderOnly(at: foreign, domain: "nav\u{1B}[2J", settings: "{}")
    let domain = try safeRewind(["info", foreign])
    #expect(domain.status == 1)
    #expect(domain.stderr.contains(#"domain 'nav\u{1B}[2J'"#), "\(domain.stderr)")
  }

  @Test("imports and scenarios refuse control characters in labels, names, ids and devices")
  func refused() throws {
    let directory = TemporaryDirectory()
    let output = directory.file("out.journal")
    func importing(_ lines: [String]) throws -> ProcessResult {
      let input = directory.file("events.jsonl")
      (lines.joined(separator: "\n") + "\n").writeFixture(to: input)
      let result = try safeRewind(["import", input, "-o", output])
      #expect(!FileManager.default.fileExists(atPath: output), "nothing is written")
      return result
    }
    let event = #"{"seq":1,"time_us":0,"event":"menuTabTapped","index":1}"#
    let label = try importing([
      #"{"header":{"settings":{"catalog":{"menuLabels":["Mon\u001bday"],"categories":[{"name":"A"}]}}}}"#,
      event,
    ])
    expectFailure(label, containing: "events.jsonl:1: ")
    expectFailure(
      label,
      containing: #"the menu label 1 "Mon\u{1B}day" contains a control character (U+001B)"#)
    // A raw U+202E is valid JSON, and still no name.
    expectFailure(
      try importing([
        "{\"header\":{\"settings\":{\"catalog\":{\"menuLabels\":[\"Mon\"],\"categories\":[{\"name\":\"ab\u{202E}c\"}]}}}}"
      ]),
      containing:
        #"the name of top-level category 1 "ab\u{202E}c" contains a control character (U+202E)"#
    )
    expectFailure(
      try importing([#"{"header":{"device":"iPad\u001b]0;x\u0007"}}"#, event]),
      containing:
        #"events.jsonl:1: the device "iPad\u{1B}]0;x\u{7}" contains a control character (U+001B)"#
    )
    expectFailure(
      try importing([
        event, #"{"seq":2,"time_us":5,"event":"categorySelected","id":"a\u009b2Jb"}"#,
      ]),
      containing: #"events.jsonl:2: the id "a\u{9B}2Jb" contains a control character (U+009B)"#)

    func recording(_ script: String) throws -> ProcessResult {
      let scenario = directory.file("s.scenario")
      script.writeFixture(to: scenario)
      let result = try safeRewind(["record", scenario, "-o", output])
      #expect(!FileManager.default.fileExists(atPath: output), "nothing is written")
      return result
    }
    expectFailure(
      try recording("layout three-column\ndevice iPad\u{1B}]0;x\u{07}\ntap 1\n"),
      containing:
        #"s.scenario:2:8: the device "iPad\u{1B}]0;x\u{7}" contains a control character (U+001B)"#
    )
    expectFailure(
      try recording("tap 1\nselect category id:a\u{1B}[2Jb\n"),
      containing: #"s.scenario:2:17: "#)
    expectFailure(
      try recording("tap 1\nselect category id:a\u{202E}b\n"),
      containing: #"the id "a\u{202E}b" contains a control character (U+202E)"#)
    #"{"menuLabels":["Mon"],"categories":[{"name":"Tea\u0007"}]}"#.writeFixture(
      to: directory.file("catalog.json"))
    expectFailure(
      try recording("# a catalog of our own\ncatalog catalog.json\ntap 1\n"),
      containing: #"s.scenario:2:9: the catalog file"#)
    expectFailure(
      try recording("catalog catalog.json\ntap 1\n"),
      containing:
        #"the name of top-level category 1 "Tea\u{7}" contains a control character (U+0007)"#
    )
  }

  @Test("wide characters, emoji and combining marks line up in every rendering")
  func wideCharacters() throws {
    let directory = TemporaryDirectory()
    let menu = ["月曜日", "🙂 Emoji day", "Café ☕", "Cafe\u{301} crème", "Sun"]
    let catalog = #"""
      {"menuLabels": ["月曜日", "🙂 Emoji day", "Café ☕", "Cafe\u0301 crème", "Sun"],
       "categories": [
         {"name": "日本", "image": "富士山", "children": [
           {"name": "月曜日"}, {"name": "🙂 Emoji day", "image": "🙂"},
           {"name": "東京都渋谷区神宮前一丁目二番三号のお店", "children": [{"name": "カフェ"}]}]},
         {"name": "Café ☕", "children": [{"name": "Cafe\u0301 crème", "image": "crème"}]}]}
      """#
    catalog.writeFixture(to: directory.file("wide.json"))
    let scenario = directory.file("wide.scenario")
    """
    device iPad Pro 13-inch
    catalog wide.json
    tap 月曜日
    select category 日本
    +1s tap 🙂 Emoji day
    select item 月曜日
    expand 東京都渋谷区神宮前一丁目二番三号のお店
    select item カフェ
    tap Café ☕
    select category Café ☕
    select item café/café-crème
    size compact
    back
    """.writeFixture(to: scenario)
    let journal = directory.file("wide.journal")
    let recorded = try safeRewind(["record", scenario, "-o", journal])
    #expect(recorded.stdout.hasPrefix("Recorded 11 events (0 rejected)"), "\(recorded.stderr)")
    for point in 0...11 {
      let state = try safeRewind(["state", journal, "--at", "\(point)"])
      #expect(state.status == 0, "\(state.stderr)")
      let lines = state.stdout.split(separator: "\n", omittingEmptySubsequences: false)
      // The menu: each label sits over its cell of the underline (the label and a blank
      // on each side), and the heavy line is exactly under the selected one.
      let row = try #require(lines.first { $0.hasPrefix(" 月曜日") })
      let underline = try #require(lines.first { $0.hasPrefix("─") || $0.hasPrefix("━") })
      let cells = menu.map { columns($0) + 2 }
      #expect(columns(underline) == cells.reduce(0, +), "at \(point):\n\(state.stdout)")
      var start = 0
      for (label, cell) in zip(menu, cells) {
        let range = try #require(row.range(of: label))
        #expect(columns(row[..<range.lowerBound]) == start + 1, "\(label) at \(point): \(row)")
        start += cell
      }
      let heavyStart = columns(underline.prefix { $0 != "━" })
      if let selected = cells.indices.first(where: { cells[..<$0].reduce(0, +) == heavyStart }) {
        #expect(underline.filter { $0 == "━" }.count == cells[selected], "\(underline)")
      } else {
        Issue.record("at \(point), no label starts above the heavy line: \(underline)")
      }
      // The boxes: every line from the top border to the bottom one is as wide as the top.
      let top = try #require(lines.firstIndex { $0.hasPrefix("┌") })
      let bottom = try #require(lines.lastIndex { $0.hasPrefix("└") })
      for line in lines[top...bottom] {
        #expect(
          columns(line) == columns(lines[top]), "at \(point), \(line):\n\(state.stdout)")
      }
      #expect(lines[top].hasSuffix("┐") && lines[bottom].hasSuffix("┘"))
    }
    let cafe = try safeRewind(["state", journal, "--at", "9"])
    #expect(cafe.stdout.contains("─ Café crème "), "\(cafe.stdout)")
    #expect(cafe.stdout.contains("│ photo: crème │"), "\(cafe.stdout)")
    // The log's columns line up too: the outcome starts in the same column on every line
    // whose event fits in its column.
    let log = try safeRewind(["log", journal])
    let outcomes = log.lines.filter { !$0.contains("東京都") }.map { line in
      columns(line[..<line.lastIndex(of: " ")!])
    }
    #expect(Set(outcomes).count == 1, "\(log.stdout)")
  }

  @Test("ids keep the letters and digits of any script: 日本, café; a name without any is refused")
  func unicodeIdentifiers() throws {
    let directory = TemporaryDirectory()
    #"""
    {"menuLabels": ["Mon"], "categories": [
      {"name": "日本", "children": [{"name": "東京"}]},
      {"name": "Café ☕", "children": [{"name": "Cafe\u0301 Crème"}, {"name": "Ελληνικά 2"}]}]}
    """#.writeFixture(to: directory.file("unicode.json"))
    let scenario = directory.file("unicode.scenario")
    // Names and ids, typed composed or with combining accents, name the same nodes.
    """
    catalog unicode.json
    select category 日本
    select item 日本/東京
    select category Cafe\u{301} ☕
    select item café/café-crème
    select item CAFÉ CRÈME
    select item café/ελληνικά-2
    """.writeFixture(to: scenario)
    let journal = directory.file("unicode.journal")
    let recorded = try safeRewind(["record", scenario, "-o", journal])
    #expect(recorded.stdout.hasPrefix("Recorded 6 events (0 rejected)"), "\(recorded.stderr)")
    let ids = try rewind("export", journal).lines.dropFirst().map { line in
      try parseObject(line)["id"] as? String
    }
    #expect(
      ids == [
        "日本", "日本/東京", "café", "café/café-crème", "café/café-crème", "café/ελληνικά-2",
      ])
    // The ids are NFC: é is one code point.
    #expect(ids.dropFirst(2).first??.unicodeScalars.count == 4)
    let found = try safeRewind(["find", journal, "--where", "split.selectedCategory == 日本"])
    #expect(found.stdout.contains("event 1 at +0.000s: categorySelected 日本"), "\(found.stdout)")

    #"{"menuLabels": ["Mon"], "categories": [{"name": "☕ ☕"}]}"#.writeFixture(
      to: directory.file("unicode.json"))
    expectFailure(
      try safeRewind(["record", scenario, "-o", directory.file("none.journal")]),
      containing:
        #"the name "☕ ☕" of top-level category 1 has no letter or digit to make an id from"#)
  }

  @Test("messages: whole sentences, singular for one, a directory named as one")
  func messages() throws {
    let directory = TemporaryDirectory()
    let log = try safeRewind(["log", sample("rejected-interactions.journal")])
    #expect(
      log.lines.contains {
        $0.hasSuffix("rejected: an item can only be selected once a category is selected")
      }, "\(log.stdout)")

    let newer = directory.file("newer.journal")
    try writeHeaderOnly(
      at: newer, domain: "navigation", schemaVersion: 99,
      settings: NavigationSettings.sample.json.compactText)
    let info = try safeRewind(["info", newer])
    expectFailure(
      info,
      containing:
        "the journal's schema version 99 of 'navigation' is newer than version 2, the newest this rewind reads; read it with a newer rewind\n"
    )

    let record = try safeRewind(["record", directory.path, "-o", directory.file("x.journal")])
    expectFailure(
      record,
      containing: "\(directory.path): cannot read the scenario script: is a directory, not a file")

    let scenario = directory.file("tap.scenario")
    "tap 1\ntap 99999999999999999999\n".writeFixture(to: scenario)
    expectFailure(
      try safeRewind(["record", scenario, "-o", directory.file("tap.journal")]),
      containing:
        "tap.scenario:2:5: 99999999999999999999 is not a tab index: the menu has 7 tabs, 0 to 6")

    // One event in one frame: every count and range in the singular.
    let one = directory.file("one.scenario")
    "tap 1\n".writeFixture(to: one)
    let journal = directory.file("one.journal")
    #expect(
      try safeRewind(["record", one, "-o", journal]).stdout.hasPrefix(
        "Recorded 1 event (0 rejected)"))
    #expect(try safeRewind(["info", journal]).stdout.contains("Events     1 (1) over"))
    #expect(try safeRewind(["info", journal]).stdout.contains("Storage    1 frame, "))
    #expect(try safeRewind(["check", journal]).stdout.contains(": 1 event, "))
    #expect(try safeRewind(["verify", journal]).stdout.contains(": 1 frame, 1 event, "))
    #expect(
      try safeRewind(["recover", journal]).stdout.contains(": 1 event in 1 frame; nothing to do"))
    let torn = directory.file("torn.journal")
    write(bytes(of: journal) + [0x41], to: torn)
    let tornInfo = try safeRewind(["info", torn])
    #expect(tornInfo.stdout.contains("torn tail: 1 byte at byte "), "\(tornInfo.stdout)")
    #expect(tornInfo.stdout.contains(": 1 byte is too few for a frame)"), "\(tornInfo.stdout)")
    let diff = try safeRewind(["diff", journal, "--from", "0", "--to", "1", "--events"])
    #expect(diff.stdout.contains("\nEvent 1:\n"), "\(diff.stdout)")
    expectUsageError(
      try safeRewind(["state", journal, "--at", "1", "--skip", "2"]),
      "The value '2' is invalid for '--skip <seq,...>': only event 1, up to the point, can be skipped",
      command: "state")
    let single = directory.file("single.scenario")
    let tabs = directory.file("single.journal")
    #"{"menuLabels": ["Only"], "categories": [{"name": "A"}]}"#.writeFixture(
      to: directory.file("single.json"))
    "catalog single.json\ntap 3\n".writeFixture(to: single)
    _ = try safeRewind(["record", single, "-o", tabs])
    #expect(
      try safeRewind(["log", tabs]).stdout.contains(
        "rejected: tab index 3 is out of range: the menu has 1 tab, 0\n"))
  }
}

/// Writes a journal of no events whose header says what a command must refuse to read.
private func writeHeaderOnly(
  at path: String, domain: String, schemaVersion: UInt32 = 1, settings: String
) throws {
  let writer = try JournalWriter.create(
    at: path,
    header: JournalHeader(
      domain: domain, schemaVersion: schemaVersion,
      sessionID: SessionID(randomBytes: Array(repeating: 7, count: 16)),
      startTime: 1_767_225_600_000_000, device: "test", settings: Array(settings.utf8),
      snapshotInterval: 16))
  try writer.close()
}
