import Foundation
import RewindJournal
import TestSupport
import Testing

/// Journals of schema 1 of the navigation domain (Journals/schema1/, Journals/format-1.0/)
/// open in every command upcast to schema 2; `upgrade` rewrites them in schema 2; a
/// journal of a newer schema is refused.
@Suite("Schema 1 journals read upcast, upgrade rewrites them, newer schemas are refused")
struct SchemaTests {
  /// Every journal of schema 1 the repository keeps, with its expected state.
  static let schema1Journals: [String] =
    ["schema1", "format-1.0"].flatMap { directory in
      ((try? FileManager.default.contentsOfDirectory(
        atPath: repositoryRoot + "/Journals/" + directory)) ?? [])
        .filter { $0.hasSuffix(".journal") }.sorted().map { directory + "/" + $0 }
    }

  @Test("today's samples are kept as schema 1, beside their schema-2 recordings")
  func kept() {
    #expect(Self.schema1Journals.count == 8)
    for name in [
      "day-menu", "generated-200k", "ipad-three-column", "iphone-compact",
      "rejected-interactions", "two-column",
    ] {
      #expect(Self.schema1Journals.contains("schema1/\(name).journal"))
      #expect(FileManager.default.fileExists(atPath: sample("\(name).journal")))
    }
  }

  @Test("every schema-1 sample opens, verifies, replays and checks", arguments: schema1Journals)
  func opens(journal: String) throws {
    let path = sample(journal)
    let info = try rewind("info", path)
    #expect(info.status == 0)
    #expect(info.stdout.contains("navigation (schema 1, format"), "\(info.stdout)")
    #expect(
      info.stdout.contains(
        "Upcast     schema 1 is read as schema 2; `rewind upgrade` rewrites the journal in schema 2"
      ))
    let json = try parseObject(try rewind("info", path, "--json").stdout)
    #expect(json["schemaVersion"] as? Int == 1)
    #expect(json["readAsSchemaVersion"] as? Int == 2)
    #expect(json["upcast"] as? Bool == true)
    #expect(try rewind("verify", path).status == 0)
    let check = try rewind("check", path)
    #expect(check.status == 0, "\(check.stdout)")
    #expect(check.stdout.hasPrefix("PASS "))
    #expect(check.stdout.contains("expected state \(path.dropLast(".journal".count)).state.json"))
    // The state at the end has schema 2's fields, the orientation and viewport upcast.
    let state = try parseObject(try rewind("state", path, "--json").stdout)
    let split = try #require(state["split"] as? [String: Any])
    let menu = try #require(state["menu"] as? [String: Any])
    #expect(["landscape", "portrait"].contains(split["orientation"] as? String))
    #expect((menu["viewportWidth"] as? Double ?? 0) > 0)
    #expect(try rewind("log", path, "--to", "5").status == 0)
  }

  @Test("the device's profile gives an upcast session its orientation and viewport")
  func upcastFromDevice() throws {
    let iphone = try parseObject(
      try rewind("info", sample("schema1/day-menu.journal"), "--json").stdout)
    let settings = try #require(iphone["settings"] as? [String: Any])
    #expect(settings["idiom"] as? String == "phone")
    #expect(settings["orientation"] as? String == "portrait")
    let menu = try #require(settings["menu"] as? [String: Any])
    #expect(menu["viewportWidth"] as? Double == 393)
    #expect(menu["scrollsTappedTabIntoView"] as? Bool == false)
    let ipad = try parseObject(
      try rewind("state", sample("schema1/ipad-three-column.journal"), "--json").stdout)
    #expect((ipad["split"] as? [String: Any])?["orientation"] as? String == "landscape")
    #expect((ipad["menu"] as? [String: Any])?["viewportWidth"] as? Double == 1210)
  }

  @Test("exporting a schema-1 journal writes schema 2 JSON Lines and says so")
  func export() throws {
    let directory = TemporaryDirectory()
    let original = sample("schema1/ipad-three-column.journal")
    let exported = try rewind("export", original)
    #expect(exported.status == 0)
    #expect(
      exported.stderr.contains(
        "note: \(original) has schema 1 of 'navigation'; it is exported upcast to schema 2"),
      "\(exported.stderr)")
    let header = try #require(
      try parseObject(exported.lines[0])["header"] as? [String: Any])
    #expect(header["schemaVersion"] as? Int == 2)
    let settings = try #require(header["settings"] as? [String: Any])
    #expect(settings["orientation"] as? String == "landscape")
    #expect(settings["idiom"] as? String == "pad")
    #expect(exported.lines.count == 25)
    // A journal of schema 2 exports without a note; the import of the upcast export is a
    // journal of schema 2 in the same states.
    let lines = directory.file("ipad.jsonl")
    exported.stdout.writeFixture(to: lines)
    let imported = directory.file("imported.journal")
    #expect(try rewind("import", lines, "-o", imported).status == 0)
    #expect(try rewind("export", imported).stderr.isEmpty)
    #expect(
      try parseObject(try rewind("info", imported, "--json").stdout)["schemaVersion"] as? Int == 2)
    #expect(
      try rewind("state", imported, "--json").stdout
        == (try rewind("state", original, "--json").stdout))
  }

  @Test("upgrade rewrites a schema-1 journal in schema 2: same session, times, states, check")
  func upgrade() throws {
    let directory = TemporaryDirectory()
    for journal in Self.schema1Journals where !journal.contains("generated") {
      let original = sample(journal)
      let upgraded = directory.file(journal.replacingOccurrences(of: "/", with: "-"))
      let result = try rewind("upgrade", original, "-o", upgraded)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout.contains("from schema 1 to schema 2 of 'navigation'"))
      // These samples store no snapshot: the upgrade says what it could not compare.
      #expect(
        result.stderr
          == "note: \(original) stores no snapshot: the upgrade compared each event's outcome and changed fields with the recording, not the values of its states (an upcast that gives a field a wrong value, a unit changed, passes); compare a state you know with `rewind state` of the new journal\n",
        "\(result.stderr)")
      let before = try parseObject(try rewind("info", original, "--json").stdout)
      let after = try parseObject(try rewind("info", upgraded, "--json").stdout)
      #expect(after["schemaVersion"] as? Int == 2)
      #expect(after["upcast"] as? Bool == false)
      for key in ["session", "start", "device", "events", "durationMicroseconds"] {
        #expect("\(before[key] ?? "")" == "\(after[key] ?? "")", "\(journal): \(key)")
      }
      // The same events at the same times, the same upcast settings: the exports match.
      #expect(try rewind("export", upgraded).stdout == (try rewind("export", original).stdout))
      // Every point: the upgraded journal's state is the original's, upcast.
      let count = try #require(before["events"] as? Int)
      for point in 0...count {
        #expect(
          try rewind("state", upgraded, "--at", "\(point)", "--json").stdout
            == (try rewind("state", original, "--at", "\(point)", "--json").stdout),
          "\(journal) at \(point)")
      }
      // check of the upgraded journal equals check of the original: the original against
      // its schema-1 expected state, the upgraded one against the same state in schema 2
      // (the original's end, upcast), which must agree with it.
      let expected = directory.file("expected.state.json")
      try rewind("state", original, "--json").stdout.writeFixture(to: expected)
      let checkBefore = try parseObject(try rewind("check", original, "--json").stdout)
      let checkAfter = try parseObject(
        try rewind("check", upgraded, "--expect", expected, "--json").stdout)
      #expect(try rewind("check", original, "--expect", expected).status == 0)
      #expect(checkBefore["passed"] as? Int == 1)
      #expect(checkAfter["passed"] as? Int == 1)
      let a = try #require((checkBefore["journals"] as? [[String: Any]])?.first)
      let b = try #require((checkAfter["journals"] as? [[String: Any]])?.first)
      #expect(a["events"] as? Int == b["events"] as? Int)
      #expect(a["snapshots"] as? Int == b["snapshots"] as? Int)
      #expect(a["passed"] as? Bool == b["passed"] as? Bool)
    }
  }

  @Test("upgrade refuses its input as output (64) and an existing output")
  func upgradeRefusals() throws {
    let directory = TemporaryDirectory()
    let original = directory.file("old.journal")
    write(bytes(of: sample("schema1/two-column.journal")), to: original)
    let pristine = bytes(of: original)
    let link = directory.file("link.journal")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: original)
    for output in [original, link] {
      let result = try rewind("upgrade", original, "-o", output, "--force")
      expectUsageError(
        result,
        "-o \(output): the output would overwrite the input \(original) (the same file\(output == link ? " under another name" : "")); choose another output file",
        command: "upgrade")
      #expect(bytes(of: original) == pristine)
    }
    let taken = directory.file("taken.journal")
    write([1, 2, 3], to: taken)
    expectFailure(
      try rewind("upgrade", original, "-o", taken),
      containing: "\(taken): the file exists; pass --force to replace it")
    #expect(bytes(of: taken) == [1, 2, 3])
  }

  @Test(
    "upgrade of a journal already current is no failure (0): it says so on stderr and writes nothing, -o neither created nor changed"
  )
  func upgradeCurrent() throws {
    let directory = TemporaryDirectory()
    let journal = sample("two-column.journal")
    let current = directory.file("current.journal")
    let said =
      "note: \(journal): the journal already has schema 2 of 'navigation', the current one; there is nothing to upgrade, so nothing was written"
    let result = try rewind("upgrade", journal, "-o", current)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.isEmpty, "\(result.stdout)")
    #expect(result.stderr == said + " (\(current) was not created)\n", "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: current))
    // A file already there is left as it was, and not called in the way: nothing is written.
    write([1, 2, 3], to: current)
    let there = try rewind("upgrade", journal, "-o", current)
    #expect(there.status == 0, "\(there.stderr)")
    #expect(there.stderr == said + " (\(current) is left as it was)\n", "\(there.stderr)")
    #expect(bytes(of: current) == [1, 2, 3])
    // In JSON too, on standard output.
    let json = try rewind("upgrade", journal, "-o", directory.file("j.journal"), "--json")
    #expect(json.status == 0)
    let object = try parseObject(json.stdout)
    #expect(object["upgraded"] as? Bool == false)
    #expect(object["journal"] is NSNull)
    #expect(object["schemaVersion"] as? Int == 2)
    #expect(!FileManager.default.fileExists(atPath: directory.file("j.journal")))
    // One that needs an upgrade still refuses a file already there.
    expectFailure(
      try rewind("upgrade", sample("schema1/two-column.journal"), "-o", current),
      containing: "\(current): the file exists; pass --force to replace it")
    #expect(bytes(of: current) == [1, 2, 3])
  }

  @Test(
    "upgrade refuses a torn journal, naming the tail and recover, writing nothing; the input untouched"
  )
  func upgradeTorn() throws {
    let directory = TemporaryDirectory()
    let whole = bytes(of: sample("schema1/generated-200k.journal"))
    let original = directory.file("whole.journal")
    write(whole, to: original)
    let frames = try JournalReader(path: original).frames
    let last = try #require(frames.last)
    // A crash while writing the last frame: its events are in the torn tail. And a tail
    // that holds no whole frame header, whose events (if any) are not known.
    let cuts = [
      (Int(last.dataOffset) + 100, " (events \(last.firstSequence)–\(last.lastSequence))"),
      (whole.count - 30, ""),
    ]
    for (cut, events) in cuts {
      let torn = directory.file("torn.journal")
      write(Array(whole[..<cut]), to: torn)
      let before = bytes(of: torn)
      let output = directory.file("up.journal")
      let result = try rewind("upgrade", torn, "-o", output)
      // The tail readers report (a cut index is walked past to the last whole frame).
      let tail = try #require(try JournalReader(path: torn).condition.tornTail)
      expectFailure(
        result,
        containing:
          "\(torn): the last \(grouped(Int(tail.length))) bytes (from byte \(tail.offset)) are not a whole frame (\(tail.reason)); an upgrade would leave out what they hold\(events), so nothing was written."
      )
      #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
      #expect(result.stdout.isEmpty, "\(result.stdout)")
      #expect(
        result.stderr.contains(
          "`rewind recover \(torn) -o RECOVERED.journal` cuts them, says what it drops and leaves \(torn) as it is; then upgrade RECOVERED.journal"
        ), "\(result.stderr)")
      #expect(!FileManager.default.fileExists(atPath: output))
      #expect(bytes(of: torn) == before)
      // Recovered first, the journal upgrades: the events recover kept.
      let recovered = directory.file("recovered.journal")
      #expect(try rewind("recover", torn, "-o", recovered).status == 0)
      let upgraded = try rewind("upgrade", recovered, "-o", output)
      #expect(upgraded.status == 0, "\(upgraded.stderr)")
      // Its snapshots compared the upcast states' values: no note.
      #expect(upgraded.stderr.isEmpty, "\(upgraded.stderr)")
      let kept = events.isEmpty ? frames.count : frames.count - 1
      #expect(
        upgraded.stdout.hasPrefix(
          "Upgraded \(grouped(Int(frames[kept - 1].lastSequence))) events of \(recovered)"),
        "\(upgraded.stdout)")
      #expect(bytes(of: torn) == before)
      try FileManager.default.removeItem(atPath: output)
      try FileManager.default.removeItem(atPath: recovered)
    }
    // A damaged trailer holds no event: the journal upgrades, every event kept.
    var damagedEnd = whole
    damagedEnd[whole.count - 10] ^= 0x01
    let ended = directory.file("ended.journal")
    write(damagedEnd, to: ended)
    let output = directory.file("up.journal")
    let upgraded = try rewind("upgrade", ended, "-o", output)
    #expect(upgraded.status == 0, "\(upgraded.stderr)")
    #expect(
      upgraded.stdout.hasPrefix("Upgraded \(grouped(Int(last.lastSequence))) events of \(ended)"),
      "\(upgraded.stdout)")
    #expect(try rewind("verify", output).status == 0)
  }

  @Test(
    "upgrade refuses a salvaged journal, writing nothing, and names the way out, which works"
  )
  func upgradeSalvaged() throws {
    let directory = TemporaryDirectory()
    // A byte of the second frame damaged, and the journal salvaged: that frame's events
    // are lost.
    var damaged = bytes(of: sample("schema1/generated-200k.journal"))
    let original = directory.file("whole.journal")
    write(damaged, to: original)
    let frame = try JournalReader(path: original).frames[1]
    damaged[Int(frame.offset) + 40] ^= 0xFF
    let broken = directory.file("damaged.journal")
    write(damaged, to: broken)
    let salvaged = directory.file("salvaged.journal")
    #expect(try rewind("recover", broken, "--salvage", "-o", salvaged).status == 0)
    let lost = try #require(try JournalReader(path: salvaged).lostRanges.first)
    #expect(lost == frame.sequenceRange)
    let before = bytes(of: salvaged)
    let output = directory.file("up.journal")
    // info does not offer it an upgrade it refuses.
    #expect(
      try rewind("info", salvaged).stdout.contains(
        "Upcast     schema 1 is read as schema 2; `rewind upgrade` cannot rewrite it whole, as events were lost to damage, and says which part it can"
      ))
    let result = try rewind("upgrade", salvaged, "-o", output)
    let kept = lost.lowerBound - 1
    expectFailure(
      result,
      containing:
        "\(salvaged): \(JournalError.describe(lost)) were lost to damage; an upgrade replays and records the whole session, which cannot cross them, so nothing was written."
    )
    #expect(
      result.stderr.contains(
        "Every command reads \(salvaged) as it is (schema 1 upcast to 2). To rewrite events 1–\(kept), before the lost ones, in schema 2: `rewind export \(salvaged) --to \(kept) -o BEFORE.jsonl`, then `rewind import BEFORE.jsonl -o UPGRADED.journal`"
      ), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    #expect(result.stdout.isEmpty, "\(result.stdout)")
    #expect(!FileManager.default.fileExists(atPath: output))
    #expect(bytes(of: salvaged) == before)
    // The way out, as the message words it: the events before the lost ones, in schema 2,
    // ending in the state the salvaged journal has there.
    let lines = directory.file("BEFORE.jsonl")
    #expect(
      try rewind("export", salvaged, "--to", String(kept), "-o", lines).status == 0)
    let upgraded = directory.file("UPGRADED.journal")
    let imported = try rewind("import", lines, "-o", upgraded)
    #expect(imported.status == 0, "\(imported.stderr)")
    let info = try parseObject(try rewind("info", upgraded, "--json").stdout)
    #expect(info["schemaVersion"] as? Int == 2)
    #expect(info["events"] as? Int == Int(kept))
    #expect(
      try rewind("state", upgraded, "--json").stdout
        == rewind("state", salvaged, "--at", String(kept), "--json").stdout)
    #expect(try rewind("check", upgraded).status == 0)
  }

  @Test("upgrade refuses a journal the current reducer replays otherwise, writing nothing")
  func upgradeDivergent() throws {
    let directory = TemporaryDirectory()
    // Schema 1's recording says the tap on Tuesday changed nothing: today it selects it.
    let settings = #"{"catalog":{"menuLabels":["Monday","Tuesday"],"categories":[{"name":"A"}]}}"#
    let path = try Self.handMade(
      schemaVersion: 1, settings: settings, payloads: [[0x01, 0x00, 0x02]], in: directory)
    let check = try rewind("check", path)
    #expect(check.status == 1)
    #expect(check.stdout.contains("FAIL"))
    let output = directory.file("up.journal")
    expectFailure(
      try rewind("upgrade", path, "-o", output),
      containing:
        "the journal (schema 1) does not replay as it was recorded through the domain's upcast of schema 1 (its decodeEvent and decodeState) and its current reducer: event 1 replays with another outcome or other changed fields than recorded; an upgrade would change its history, so nothing was written"
    )
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test("import reads JSON Lines of schema 1 upcast, into a journal of schema 2")
  func importSchema1() throws {
    let directory = TemporaryDirectory()
    let lines = directory.file("old.jsonl")
    let header =
      #"{"header":{"domain":"navigation","schemaVersion":1,"session":"00000000-0000-4000-8000-000000000001","start":"2026-11-30T07:30:00Z","device":"iPhone 15, iOS 18.1","snapshotInterval":1024,"settings":{"catalog":{"menuLabels":["Monday","Tuesday","Wednesday","Thursday","Friday","Saturday","Sunday"],"categories":[{"name":"Grinders"}]},"sizeClass":"regular"}}}"#
    (header + "\n" + #"{"seq":1,"time_us":0,"event":"menuTabTapped","index":6}"# + "\n")
      .writeFixture(to: lines)
    let imported = directory.file("imported.journal")
    #expect(try rewind("import", lines, "-o", imported).status == 0)
    // Upcast from the iPhone 15: portrait, a 393-point strip, and taps that do not scroll.
    let state = try parseObject(try rewind("state", imported, "--json").stdout)
    let menu = try #require(state["menu"] as? [String: Any])
    #expect(menu["selectedIndex"] as? Int == 6)
    #expect(menu["scrollOffset"] as? Double == 0)
    #expect(menu["viewportWidth"] as? Double == 393)
    #expect(
      try parseObject(try rewind("info", imported, "--json").stdout)["schemaVersion"] as? Int == 2)
    // Schema 1 had no orientationChanged.
    (header + "\n"
      + #"{"seq":1,"time_us":0,"event":"orientationChanged","orientation":"portrait"}"# + "\n")
      .writeFixture(to: lines)
    expectFailure(
      try rewind("import", lines, "-o", directory.file("other.journal")),
      containing: "orientationChanged is an event of schema 2 of 'navigation'")
    // A header of schema 1 with no settings: the sample's, read as schema 1's (they were
    // read as schema 2's, and the line imported as a schema-2 event).
    (#"{"header":{"domain":"navigation","schemaVersion":1}}"# + "\n"
      + #"{"seq":1,"time_us":0,"event":"orientationChanged","orientation":"portrait"}"# + "\n")
      .writeFixture(to: lines)
    expectFailure(
      try rewind("import", lines, "-o", directory.file("other.journal")),
      containing: "orientationChanged is an event of schema 2 of 'navigation'")
    (#"{"header":{"domain":"navigation","schemaVersion":1}}"# + "\n"
      + #"{"seq":1,"time_us":0,"event":"menuTabTapped","index":6}"# + "\n").writeFixture(to: lines)
    let sampled = directory.file("sampled.journal")
    #expect(try rewind("import", lines, "-o", sampled).status == 0)
    #expect(
      try parseObject(try rewind("info", sampled, "--json").stdout)["schemaVersion"] as? Int == 2)
  }

  /// A navigation journal whose header says `schemaVersion`, holding `payloads` (each a
  /// recorded effect and an event) as they are.
  static func handMade(
    schemaVersion: UInt32,
    settings: String = #"{"catalog":{"menuLabels":["A"],"categories":[{"name":"A"}]}}"#,
    payloads: [[UInt8]] = [[0x00, 0xFF, 0x42]], in directory: TemporaryDirectory
  ) throws -> String {
    let path = directory.file("schema-\(schemaVersion).journal")
    let header = JournalHeader(
      domain: "navigation", schemaVersion: schemaVersion,
      sessionID: SessionID(bytes: Array(repeating: 9, count: 16)),
      startTime: 1_764_500_000_000_000, device: "a future phone", settings: Array(settings.utf8),
      snapshotInterval: 64)
    let writer = try JournalWriter.create(at: path, header: header)
    for payload in payloads { _ = try writer.append(time: 0, payload: payload) }
    try writer.close()
    return path
  }

  @Test("a hand-made schema-99 header is refused with both versions named, exit 1")
  func newer() throws {
    let directory = TemporaryDirectory()
    let path = try Self.handMade(schemaVersion: 99, in: directory)
    let message =
      "\(path): the journal's schema version 99 of 'navigation' is newer than version 2, the newest this rewind reads; read it with a newer rewind"
    for arguments in [
      ["info", path], ["state", path], ["log", path], ["export", path], ["check", path],
      ["upgrade", path, "-o", directory.file("up.journal")],
    ] {
      let result = try rewind(arguments)
      #expect(result.status == 1, "\(arguments): \(result.stderr)")
      // check reports each journal on stdout; the others fail with an error on stderr.
      let text = arguments[0] == "check" ? result.stdout : result.stderr
      #expect(text.contains(message), "\(arguments): \(result.stdout)\(result.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: directory.file("up.journal")))
    // A JSON Lines header of schema 99 is refused the same way by import.
    let lines = directory.file("future.jsonl")
    #"{"header":{"domain":"navigation","schemaVersion":99}}"#.writeFixture(to: lines)
    expectFailure(
      try rewind("import", lines, "-o", directory.file("future.journal")),
      containing: "schema version 99 of 'navigation' is newer than version 2")
  }
}
