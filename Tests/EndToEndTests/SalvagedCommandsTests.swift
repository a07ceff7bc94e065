import Foundation
import TestSupport
import Testing

@testable import RewindJournal

/// The commands other than the scans (`log`, `export`, `find`, `blame --history`) on a
/// journal damaged in the middle and salvaged: a point whose state is not known is
/// refused, naming the journal and the events lost, never shown as another point's.
@Suite("Commands on a salvaged journal refuse the points the lost events hold")
struct SalvagedCommandsTests {
  /// A 20,000-event journal, the same with its middle frame damaged and salvaged, and
  /// the events that frame held, lost: `SalvagedSearchTests`' journals.
  func salvagedJournal(in directory: TemporaryDirectory) throws -> (
    intact: String, salvaged: String, lost: ClosedRange<UInt64>
  ) {
    try SalvagedSearchTests().salvagedJournal(in: directory)
  }

  /// The intact journal of ``salvagedJournal(in:)`` with an event of its last frame that
  /// cannot be decoded, salvaged: that frame dropped, its events the session's last, lost.
  func journalLosingItsEnd(in directory: TemporaryDirectory, from intact: String) throws -> (
    salvaged: String, lost: ClosedRange<UInt64>
  ) {
    let last = try #require(try JournalReader(path: intact).frames.last)
    var changes = JournalChanges()
    changes.payload = { sequence, payload in
      if sequence == last.firstSequence + 5 { payload = [0xFF, 0xFF, 0xFF, 0xFF] }
    }
    let broken = directory.file("undecodable.journal")
    try copyJournal(intact, to: broken, changes: changes)
    let salvaged = directory.file("end-lost.journal")
    let recovered = try rewind("recover", broken, "--salvage", "-o", salvaged)
    #expect(recovered.status == 0, "\(recovered.stderr)")
    #expect(
      try rewind("info", salvaged).stdout.contains(
        "\(JournalError.describe(last.sequenceRange)) lost"))
    return (salvaged, last.sequenceRange)
  }

  /// The time of event `sequence`, in microseconds from the start, as `export` gives it.
  func time(of sequence: UInt64, in journal: String) throws -> UInt64 {
    let exported = try rewind("export", journal, "--to", String(sequence))
    let line = try #require(exported.lines.last)
    let object = try parseObject(line)
    return UInt64(try #require(object["time_us"] as? Int))
  }

  @Test(
    "a time among the lost events' times is refused by state, diff and blame, not shown as the event before them"
  )
  func timesAmongLostEvents() throws {
    let directory = TemporaryDirectory()
    let (intact, salvaged, lost) = try salvagedJournal(in: directory)
    let before = try time(of: lost.lowerBound - 1, in: salvaged)
    let after = try time(of: lost.upperBound + 1, in: salvaged)
    // Halfway between the last event kept before them and the first after them, as an
    // offset and as a wall-clock time (the session starts at 2026-01-01T00:00:00Z).
    let middle = (before + after) / 2
    let offset = "+\(middle / 1_000_000)s"
    let wallClock = String(
      format: "2026-01-01T00:%02d:%02dZ", middle / 60_000_000, middle / 1_000_000 % 60)
    let described = "\(JournalError.describe(lost)) were lost to damage"
    for point in [offset, wallClock] {
      // The intact journal has an event there that the salvaged one lost.
      let whole = try rewind("state", intact, "--at", point)
      #expect(whole.status == 0, "\(whole.stderr)")
      #expect(!whole.lines[0].contains("event \(lost.lowerBound - 1) "), "\(whole.lines[0])")
      expectFailure(try rewind("state", salvaged, "--at", point), containing: described)
      expectFailure(try rewind("state", salvaged, "--at", point, "--json"), containing: point)
      expectFailure(
        try rewind("diff", salvaged, "--from", "start", "--to", point), containing: described)
      expectFailure(
        try rewind("diff", "\(intact)@end", "\(salvaged)@\(point)"), containing: described)
      expectFailure(
        try rewind("blame", salvaged, "split.orientation", "--at", point),
        containing: described)
      // Named once, the salvaged journal, whichever of two comes first.
      let named = "Error: \(salvaged): the state at \(point) is not known: "
      for arguments in [
        ["state", salvaged, "--at", point], ["diff", "\(intact)@\(point)", "\(salvaged)@\(point)"],
        ["diff", "\(salvaged)@\(point)", "\(intact)@\(point)"],
      ] {
        let result = try rewind(arguments)
        #expect(result.stderr.hasPrefix(named), "\(arguments): \(result.stderr)")
      }
    }
    // Times on both sides of them are the intact journal's points.
    for point in ["+\(before / 1_000_000)s", "+\(after / 1_000_000 + 1)s"] {
      let whole = try rewind("state", intact, "--at", point, "--json")
      let kept = try rewind("state", salvaged, "--at", point, "--json")
      #expect(kept.status == 0, "\(kept.stderr)")
      #expect(kept.stdout == whole.stdout, "\(point)")
    }
  }

  @Test(
    "the state after the last lost event is the snapshot stored after them: state, diff and blame show it; the others stay unknown"
  )
  func stateAfterTheLastLostEvent() throws {
    let directory = TemporaryDirectory()
    let (intact, salvaged, lost) = try salvagedJournal(in: directory)
    let last = String(lost.upperBound)
    let whole = try rewind("state", intact, "--at", last, "--json")
    let kept = try rewind("state", salvaged, "--at", last, "--json")
    #expect(kept.status == 0, "\(kept.stderr)")
    #expect(kept.stdout == whole.stdout)
    let text = try rewind("state", salvaged, "--at", last)
    #expect(text.status == 0, "\(text.stderr)")
    #expect(
      text.lines.first
        == "State after event \(last) (the last of \(JournalError.describe(lost)), lost to damage: the snapshot stored after them)"
    )
    #expect(text.lines.dropFirst() == (try rewind("state", intact, "--at", last)).lines.dropFirst())
    let after = String(lost.upperBound + 30)
    #expect(
      try rewind("state", salvaged, "--at", after, "--skip", String(lost.upperBound + 1)).stdout
        == rewind("state", intact, "--at", after, "--skip", String(lost.upperBound + 1)).stdout)
    for range in [["--from", last, "--to", after], ["--from", "start", "--to", last]] {
      let diffKept = try rewind(["diff", salvaged, "--json"] + range)
      #expect(diffKept.status == 0, "\(diffKept.stderr)")
      #expect(diffKept.stdout == (try rewind(["diff", intact, "--json"] + range)).stdout)
    }
    let blame = try rewind("blame", salvaged, "menu.selectedIndex", "--at", last)
    #expect(blame.status == 0, "\(blame.stderr)")
    // Any other lost event's state is not known, and the error names the journal.
    for point in [lost.lowerBound, lost.upperBound - 1] {
      let message = "Error: \(salvaged): event \(point) was lost to damage"
      for arguments in [
        ["state", salvaged, "--at", String(point)],
        ["blame", salvaged, "menu.selectedIndex", "--at", String(point)],
        ["log", salvaged, "--from", String(point)],
        ["find", salvaged, "--where", "changed(menu.selectedIndex)", "--from", String(point)],
      ] {
        let result = try rewind(arguments)
        expectFailure(result, containing: "event \(point) was lost to damage")
        #expect(result.stderr.hasPrefix(message), "\(arguments[0]): \(result.stderr)")
      }
    }
  }

  @Test(
    "a scan may start at the last lost event: log, export, find, diff --events and blame --history from there are the intact journal's"
  )
  func scansFromTheLastLostEvent() throws {
    let directory = TemporaryDirectory()
    let (intact, salvaged, lost) = try salvagedJournal(in: directory)
    let (from, to) = (String(lost.upperBound), String(lost.upperBound + 400))
    let range = ["--from", from, "--to", to]
    for arguments in [
      ["log"] + range, ["log", "--changes", "--json"] + range,
      ["log", "--where", "changed(menu.scrollOffset)"] + range, ["export"] + range,
      ["find", "--where", "changed(menu.scrollOffset)", "--all"] + range,
      ["find", "--where", "changed(menu.scrollOffset)", "--count"] + range,
      ["find", "--where", "split.style == balanced"] + range,
      ["diff", "--events"] + range,
    ] {
      let kept = try rewind([arguments[0], salvaged] + arguments.dropFirst())
      let whole = try rewind([arguments[0], intact] + arguments.dropFirst())
      #expect(kept.status == whole.status, "\(arguments): \(kept.stderr)")
      #expect(kept.stdout == whole.stdout, "\(arguments)")
      #expect(!kept.stderr.contains("Error"), "\(arguments): \(kept.stderr)")
    }
    // blame --history from there goes on before the lost events, as from a later point.
    let history = try rewind("blame", salvaged, "menu.scrollOffset", "--at", from, "--history")
    #expect(history.status == 0, "\(history.stderr)")
    // (Said first: the changes among the lost events, up to the point, are not known.)
    #expect(
      Array(history.lines.dropFirst().prefix(1)) == [
        "  … \(JournalError.describe(lost)) lost to damage: changes among them are not known"
      ], "\(history.stdout)")
    #expect(
      history.lines.dropFirst(2).first?.hasPrefix("  event \(lost.lowerBound - 1) at") == true)
    #expect(history.stderr.contains("\(JournalError.describe(lost)) were lost to damage"))
    // A page's times count from its first point's, which is lost.
    expectFailure(
      try rewind("html", salvaged, "--from", from, "--to", to, "-o", directory.file("p.html")),
      containing:
        "a page cannot start at event \(from): its time was lost to damage with \(JournalError.describe(lost)); start it at the first event kept after them (--from \(lost.upperBound + 1))"
    )
    // Any other lost event is no start.
    expectFailure(
      try rewind("log", salvaged, "--from", String(lost.upperBound - 1)),
      containing: "event \(lost.upperBound - 1) was lost to damage")
  }

  @Test(
    "state with edits before the lost events compares the later events up to them, and says so"
  )
  func editsBeforeLostEvents() throws {
    let directory = TemporaryDirectory()
    let (_, salvaged, lost) = try salvagedJournal(in: directory)
    let point = String(lost.lowerBound - 10)
    let result = try rewind("state", salvaged, "--at", point, "--skip", "5")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty, "\(result.stderr)")
    #expect(
      result.stdout.contains(
        "The later events are compared up to event \(grouped(Int(lost.lowerBound - 1))): \(JournalError.describe(lost)) were lost to damage, and replay cannot cross them."
      ), "\(result.stdout)")
    // After the lost events, nothing is said of them.
    let after = String(lost.upperBound + 10)
    let later = try rewind("state", salvaged, "--at", after, "--skip", String(lost.upperBound + 2))
    #expect(later.status == 0, "\(later.stderr)")
    #expect(!later.stdout.contains("lost to damage"), "\(later.stdout)")
  }

  @Test(
    "state's edits of lost events are refused naming the event given, in text, JSON and with -o alike; edits the replay would carry across them, and -o, say what can be done"
  )
  func editsOfLostEvents() throws {
    let directory = TemporaryDirectory()
    let (_, salvaged, lost) = try salvagedJournal(in: directory)
    let salvagedAway = "(\(JournalError.describe(lost)) were salvaged away)"
    let middle = String(lost.lowerBound + 9)
    let last = String(lost.upperBound)
    let event = #"{"event":"backTapped"}"#
    let cases: [([String], String)] = [
      (
        ["--skip", middle],
        "The value '\(middle)' is invalid for '--skip <seq,...>': event \(middle) was lost to damage \(salvagedAway): it is not there to skip"
      ),
      (
        ["--replace", "\(middle):\(event)"],
        "'--replace <seq:event>': event \(middle) was lost to damage \(salvagedAway): it is not there to replace"
      ),
      // The last lost event's state is known, but not its time, at which one is inserted.
      (
        ["--insert", "\(last):\(event)", "--at", last],
        "'--insert <seq:event>': event \(last) was lost to damage \(salvagedAway): its time, at which the event would be inserted, is not known"
      ),
    ]
    for (edit, message) in cases {
      for extra in [[], ["--json"], ["-o", directory.file("edited.journal")]] {
        let result = try rewind(["state", salvaged] + edit + extra)
        #expect(result.status == 64, "\(edit + extra): \(result.stderr)")
        #expect(result.stdout.isEmpty, "\(edit + extra): \(result.stdout)")
        #expect(result.stderr.contains(message), "\(edit + extra): \(result.stderr)")
      }
    }
    // An edit before them seen after them: replay cannot carry it across.
    let across = try rewind("state", salvaged, "--skip", "5")
    expectFailure(
      across,
      containing:
        "\(salvaged): \(JournalError.describe(lost)) were lost to damage after the first edit, and replay cannot carry the edits across them: see the edited state at a point before them (--at \(lost.lowerBound - 1) or earlier), or edit events after them"
    )
    #expect(across.stdout.isEmpty, "\(across.stdout)")
    // -o replays the whole session: any lost events stop it, whatever is edited.
    let written = try rewind(
      "state", salvaged, "--skip", String(lost.upperBound + 2), "-o", directory.file("o.journal"))
    expectFailure(
      written,
      containing:
        "\(salvaged): \(JournalError.describe(lost)) were lost to damage, and -o writes the whole edited session, replayed from its first event, which cannot cross them"
    )
    #expect(!FileManager.default.fileExists(atPath: directory.file("o.journal")))
  }

  @Test("diff --events lists the events on both sides of the lost ones, with log's warning")
  func diffEventsGoOnPast() throws {
    let directory = TemporaryDirectory()
    let (intact, salvaged, lost) = try salvagedJournal(in: directory)
    let warning =
      "warning: \(salvaged): \(JournalError.describe(lost)) were lost to damage and are missing here\n"
    let range = ["--from", String(lost.lowerBound - 20), "--to", String(lost.upperBound + 20)]
    // The intact journal's lines, but those of the lost events.
    let whole = try rewind(["diff", intact, "--events"] + range)
    let kept = whole.lines.filter { line in
      guard line.hasPrefix("  "), let number = UInt64(line.dropFirst(2).prefix { $0.isNumber })
      else { return true }
      return !lost.contains(number)
    }
    #expect(kept.count == whole.lines.count - lost.count)
    let result = try rewind(["diff", salvaged, "--events"] + range)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.lines == kept)
    #expect(result.stderr == warning)
    let json = try rewind(["diff", salvaged, "--events", "--json"] + range)
    #expect(json.status == 0, "\(json.stderr)")
    let events = try #require(try parseObject(json.stdout)["events"] as? [[String: Any]])
    #expect(events.count == 39)
    #expect(json.stderr == warning)
    let lostEvents = try parseObject(json.stdout)["lostEvents"] as? [[String: Any]]
    #expect(
      lostEvents?.map { [$0["from"] as? Int, $0["to"] as? Int] }
        == [[Int(lost.lowerBound), Int(lost.upperBound)]], "\(json.stdout)")
    // Without lost events in between, no warning.
    let before = try rewind("diff", salvaged, "--events", "--to", String(lost.lowerBound - 1))
    #expect(before.status == 0 && before.stderr.isEmpty, "\(before.stderr)")
  }

  @Test("diff of two journals names the journal whose point was lost")
  func diffNamesTheJournal() throws {
    let directory = TemporaryDirectory()
    let (intact, salvaged, lost) = try salvagedJournal(in: directory)
    let point = String(lost.lowerBound + 7)
    // Named once, the damaged one, whichever comes first (the intact one was put first).
    for pair in [[intact, salvaged], [salvaged, intact]] {
      let result = try rewind("diff", "\(pair[0])@\(point)", "\(pair[1])@\(point)")
      expectFailure(result, containing: "\(salvaged): event \(point) was lost to damage")
      #expect(result.stderr.hasPrefix("Error: \(salvaged): event "), "\(result.stderr)")
      let aligned = try rewind("diff", pair[0], pair[1], "--align")
      expectFailure(
        aligned,
        containing:
          "\(salvaged): \(JournalError.describe(lost)) were lost to damage; replay cannot cross them"
      )
      #expect(aligned.stderr.hasPrefix("Error: \(salvaged): events "), "\(aligned.stderr)")
    }
  }

  @Test("push refuses a salvaged journal with a message that recover cannot make obsolete")
  func pushRefusesLostEvents() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let (_, salvaged, lost) = try salvagedJournal(in: directory)
    // recover has nothing left to do on it…
    let recovered = try rewind("recover", salvaged)
    #expect(recovered.status == 0, "\(recovered.stderr)")
    #expect(recovered.stdout.contains("nothing to do"), "\(recovered.stdout)")
    // …so push does not ask for it: it says why the journal cannot be pushed.
    let pushed = try rewind("push", salvaged, "--server", server.url)
    expectFailure(
      pushed,
      containing:
        "Error: \(salvaged): it lacks \(JournalError.describe(lost)), lost to damage (salvaged away)"
    )
    #expect(!pushed.stderr.contains("recover"), "\(pushed.stderr)")
  }

  @Test(
    "export and log warn of lost events at the end of their range too, and a scenario script says it lacks them"
  )
  func exportNamesLostEvents() throws {
    let directory = TemporaryDirectory()
    let (intact, salvaged, lost) = try salvagedJournal(in: directory)
    let (endLost, lostAtEnd) = try journalLosingItsEnd(in: directory, from: intact)
    func warning(_ path: String, _ lost: ClosedRange<UInt64>) -> String {
      "warning: \(path): \(JournalError.describe(lost)) were lost to damage and are missing here\n"
    }
    let from = String(lostAtEnd.lowerBound - 10)
    for scenario in [[], ["--scenario"]] {
      let tail = try rewind(["export", endLost, "--from", from] + scenario)
      #expect(tail.status == 0, "\(tail.stderr)")
      #expect(tail.stderr == warning(endLost, lostAtEnd), "\(scenario)")
      // The script also says where it records otherwise (below).
      let middle = try rewind(["export", salvaged] + scenario)
      #expect(middle.stderr.hasPrefix(warning(salvaged, lost)), "\(scenario)")
      #expect(scenario.isEmpty == (middle.stderr == warning(salvaged, lost)), "\(scenario)")
    }
    // log, in each of its loops, as export.
    let logs: [[String]] = [
      [], ["--changes"], ["--where", "changed(menu.scrollOffset)"], ["--json"],
    ]
    for options in logs {
      let tail = try rewind(["log", endLost, "--from", from] + options)
      #expect(tail.status == 0, "\(tail.stderr)")
      #expect(tail.stderr == warning(endLost, lostAtEnd), "log \(options)")
    }
    // The script itself says which events it lacks, under the line naming the journal.
    let script = try rewind("export", salvaged, "--scenario")
    #expect(
      Array(script.lines.prefix(2)) == [
        "# Exported from \(salvaged)",
        "# \(JournalError.describe(lost)) were lost to damage and are missing here",
      ])
  }

  /// The session replays the events after lost ones from the snapshot stored after them;
  /// the script, which cannot set a state, from the state before them: export said nothing
  /// of the events that then record otherwise.
  @Test(
    "export --scenario of a salvaged journal names the first event after the lost ones that its script records otherwise"
  )
  func scenarioAcrossLostEvents() throws {
    let directory = TemporaryDirectory()
    let (_, salvaged, lost) = try salvagedJournal(in: directory)
    let script = directory.file("salvaged.scenario")
    let exported = try rewind("export", salvaged, "--scenario", "-o", script)
    #expect(exported.status == 0, "\(exported.stderr)")
    let lines = exported.stderr.split(separator: "\n").map(String.init)
    let prefix =
      "warning: \(salvaged): the script records the events after the lost ones (\(JournalError.describe(lost))) from the state before them, not from the state the journal holds after them, so event "
    let said = try #require(lines.first { $0.hasPrefix(prefix) }, "\(exported.stderr)")
    #expect(
      said.hasSuffix(". No script records the session's state across events lost to damage"),
      "\(said)")
    let named = try #require(UInt64(said.dropFirst(prefix.count).prefix { $0.isNumber }))
    #expect(named > lost.upperBound)
    // Recorded, the script's events are the session's but the lost ones: the event named
    // is the first whose outcome or changes differ from the session's.
    let recorded = directory.file("recorded.journal")
    #expect(try rewind("record", script, "-o", recorded).status == 0)
    // Each event's line but its number and time, with the fields it changed (not their
    // values, which differ with the states).
    func effects(_ journal: String, from: UInt64, count: Int) throws -> [String] {
      var effects: [String] = []
      for line in try rewind("log", journal, "--from", String(from), "--changes").lines {
        let words = line.split(separator: " ")
        if let first = words.first, UInt64(first) != nil {
          guard effects.count < count else { break }
          effects.append(words.dropFirst(2).joined(separator: " "))
        } else if let field = words.first, !effects.isEmpty {
          effects[effects.count - 1] += " " + field
        }
      }
      return effects
    }
    let gap = lost.upperBound - lost.lowerBound + 1
    let count = Int(named - lost.upperBound)
    let session = try effects(salvaged, from: lost.upperBound, count: count)
    let again = try effects(recorded, from: lost.upperBound - gap, count: count)
    #expect(session.count == count && again.count == count)
    #expect(Array(session.dropLast()) == Array(again.dropLast()))
    #expect(session.last != again.last, "\(session.last ?? "") / \(again.last ?? "")")
  }

  @Test("check fails a journal whose last events were lost, as one that lost events in the middle")
  func checkRefusesLostEnd() throws {
    let directory = TemporaryDirectory()
    let (intact, salvaged, lost) = try salvagedJournal(in: directory)
    let (endLost, lostAtEnd) = try journalLosingItsEnd(in: directory, from: intact)
    let middle = try rewind("check", salvaged)
    #expect(middle.status == 1)
    #expect(middle.stdout.contains("\(JournalError.describe(lost)) were lost to damage"))
    for jobs in ["1", "2"] {
      let end = try rewind("check", endLost, "--jobs", jobs)
      #expect(end.status == 1, "\(end.stdout)")
      #expect(
        end.stdout.contains(
          "FAIL \(endLost): \(JournalError.describe(lostAtEnd)) were lost to damage"),
        "\(end.stdout)")
    }
    // --update does not write the state after the events kept as the session's last.
    let update = try rewind("check", endLost, "--update")
    #expect(update.status == 1)
    #expect(!FileManager.default.fileExists(atPath: directory.file("end-lost.state.json")))
  }

  @Test("html and testgen refuse a range the lost events cut, and say which parts they can write")
  func pagesAndTestsSayWhatTheyCanWrite() throws {
    let directory = TemporaryDirectory()
    let (_, salvaged, lost) = try salvagedJournal(in: directory)
    let lostText = "\(salvaged): \(JournalError.describe(lost)) were lost to damage"
    let before = "the events before them (--to \(lost.lowerBound - 1))"
    // A page starts at a point whose time it knows, a test at one whose state it knows:
    // the last lost event's, the snapshot after them (its events start after it).
    let pageAfter = "those after them (--from \(lost.upperBound + 1))"
    let testAfter = "those after them (--from \(lost.upperBound))"
    let page = directory.file("page.html")
    expectFailure(
      try rewind("html", salvaged, "-o", page),
      containing: "\(lostText); a page cannot cross them: write \(before) or \(pageAfter)")
    expectFailure(
      try rewind("testgen", salvaged),
      containing: "\(lostText); a test cannot cross them: write \(before) or \(testAfter)")
    // A range that ends among them: only the part before them.
    let ending = try rewind(
      "testgen", salvaged, "--from", String(lost.lowerBound - 5), "--to",
      String(lost.lowerBound + 5))
    // The part keeps the range's own start (it was the hint's --to alone, and the test
    // written from it started at the session's start).
    expectFailure(
      ending,
      containing:
        "\(lostText); a test cannot cross them: write the events before them (--from \(lost.lowerBound - 5) --to \(lost.lowerBound - 1))"
    )
    #expect(!ending.stderr.contains("after them"), "\(ending.stderr)")
    // A range that starts among them and ends before the session's end: the part after
    // them keeps its end.
    expectFailure(
      try rewind(
        "html", salvaged, "-o", page, "--from", String(lost.lowerBound + 5), "--to",
        String(lost.upperBound + 9)),
      containing:
        "\(lostText); a page cannot cross them: write the events after them (--from \(lost.upperBound + 1) --to \(lost.upperBound + 9))"
    )
    // A range among them: nothing of it is left, the events on either side are.
    let among = try rewind(
      "testgen", salvaged, "--from", String(lost.lowerBound + 5), "--to",
      String(lost.lowerBound + 50))
    expectFailure(
      among,
      containing:
        "\(lostText), and the range asked for lies among them: nothing of it is left; write the events before them (--to \(lost.lowerBound - 1)) or after them (--from \(lost.upperBound))"
    )
    #expect(!FileManager.default.fileExists(atPath: page))
    // Each part is written.
    #expect(
      try rewind("html", salvaged, "-o", page, "--from", String(lost.upperBound + 1)).status == 0)
    #expect(try rewind("testgen", salvaged, "--to", String(lost.lowerBound - 1)).status == 0)
    // The part after them as the hint gives it, from the first event kept.
    let test = try rewind(
      "testgen", salvaged, "--from", String(lost.upperBound), "--to", String(lost.upperBound + 2))
    #expect(test.status == 0, "\(test.stderr)")
    #expect(
      test.stdout.contains("// Events \(lost.upperBound + 1)–\(lost.upperBound + 2) of "),
      "\(test.stdout)")
  }

  @Test("verify says which events a salvaged journal lost, as info does")
  func verifyNamesLostEvents() throws {
    let directory = TemporaryDirectory()
    let (_, salvaged, lost) = try salvagedJournal(in: directory)
    for deep in [[], ["--deep"]] {
      let plain = try rewind(["verify", salvaged] + deep)
      #expect(plain.status == 0, "\(plain.stderr)")
      #expect(plain.lines[0].hasPrefix("OK \(salvaged): "))
      #expect(
        plain.lines.contains(
          "  \("E" + JournalError.describe(lost).dropFirst()) were lost to damage (salvaged away): the journal holds no frame for them."
        ), "\(plain.stdout)")
      let json = try verifyReport(try rewind(["verify", salvaged, "--json"] + deep).stdout)
      let ranges = try #require(json["lostEvents"] as? [[String: Int]])
      #expect(ranges == [["from": Int(lost.lowerBound), "to": Int(lost.upperBound)]])
    }
    let intact = try verifyReport(try rewind("verify", sample("day-menu.journal"), "--json").stdout)
    #expect((intact["lostEvents"] as? [Any])?.isEmpty == true)
  }

  @Test("info --json gives the lost events as verify --json does, and its text as before")
  func infoNamesLostEvents() throws {
    let directory = TemporaryDirectory()
    let (_, salvaged, lost) = try salvagedJournal(in: directory)
    let json = try parseObject(try rewind("info", salvaged, "--json").stdout)
    let ranges = try #require(json["lostEvents"] as? [[String: Int]])
    #expect(ranges == [["from": Int(lost.lowerBound), "to": Int(lost.upperBound)]])
    let verified = try verifyReport(try rewind("verify", salvaged, "--json").stdout)
    #expect(ranges == verified["lostEvents"] as? [[String: Int]])
    #expect(
      (json["integrity"] as? [String])?.last == "\(JournalError.describe(lost)) lost (salvaged)")
    #expect(
      try rewind("info", salvaged).lines.contains(
        "           \(JournalError.describe(lost)) lost (salvaged)"))
    let intact = try parseObject(try rewind("info", sample("day-menu.journal"), "--json").stdout)
    #expect((intact["lostEvents"] as? [Any])?.isEmpty == true)
  }
}
