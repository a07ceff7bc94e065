import Foundation
import Navigation
import RewindCore
import RewindJournal
import TestSupport
import Testing

/// `rewind check`: expected states written with --update, partial ones, missing ones.
@Suite("rewind check: expected states")
struct CheckCommandTests {
  static let stems = ["day-menu", "two-column", "rejected-interactions"]

  /// Copies sample journals into a directory of their own, without their expected states.
  func copies(in directory: TemporaryDirectory) throws -> [String] {
    try Self.stems.map { stem in
      let copy = directory.file(stem + ".journal")
      try FileManager.default.copyItem(atPath: sample(stem + ".journal"), toPath: copy)
      return copy
    }
  }

  /// NAME.state.json, a link leading nowhere (a fixture not checked out), fails its
  /// journal, naming where it leads: it read as no expected state, and the journal passed.
  @Test func aLinkToNoExpectedStateFailsTheJournal() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("day-menu.journal")
    try FileManager.default.copyItem(atPath: sample("day-menu.journal"), toPath: journal)
    let link = directory.file("day-menu.state.json")
    try FileManager.default.createSymbolicLink(
      atPath: link, withDestinationPath: "fixtures/day-menu.state.json")
    let noFile = try rewind("check", journal)
    #expect(noFile.status == 1)
    #expect(
      noFile.stdout.hasPrefix(
        "FAIL \(journal): \(link) is a symbolic link that leads to \(directory.file("fixtures/day-menu.state.json")), whose directory is not there: the expected state cannot be read"
      ), "\(noFile.stdout)")
    try FileManager.default.createDirectory(
      atPath: directory.file("fixtures"), withIntermediateDirectories: false)
    let inDirectory = try rewind("check", journal, "--json")
    #expect(inDirectory.status == 1)
    #expect(
      inDirectory.stdout.contains(
        "is a symbolic link to \(directory.file("fixtures/day-menu.state.json")), which does not exist"
      ), "\(inDirectory.stdout)")
    // --update writes it there, keeping the link.
    #expect(try rewind("check", journal, "--update").status == 0)
    #expect(try rewind("check", journal).status == 0)
  }

  @Test("--update through a symbolic link writes the file it leads to, and keeps the link")
  func updateThroughLink() throws {
    let directory = TemporaryDirectory()
    let journal = try copies(in: directory)[0]
    let fixtures = directory.file("fixtures")
    try FileManager.default.createDirectory(atPath: fixtures, withIntermediateDirectories: false)
    let fixture = fixtures + "/day.json"
    "{\"split\": {\"overlay\": true}}\n".writeFixture(to: fixture)
    let link = directory.file("day-menu.state.json")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: fixture)
    #expect(try rewind("check", journal).status == 1)
    let updated = try rewind("check", journal, "--update")
    #expect(updated.status == 0, "\(updated.stderr)")
    #expect(
      updated.stdout.contains(
        "expected state \(link) through the link to \(fixture) (updated; partial: 1 of"),
      "\(updated.stdout)")
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: link) == fixture)
    #expect(try String(contentsOfFile: fixture, encoding: .utf8).contains("\"overlay\": false"))
    #expect(try rewind("check", journal).status == 0)

    // A link to a fixture not written yet (relative, through a second link): the fixture is
    // written where it leads, and both links are kept (the first was replaced by a file).
    try FileManager.default.removeItem(atPath: link)
    try FileManager.default.createSymbolicLink(
      atPath: fixtures + "/next.json", withDestinationPath: "new.json")
    try FileManager.default.createSymbolicLink(
      atPath: link, withDestinationPath: "fixtures/next.json")
    let created = try rewind("check", journal, "--update")
    #expect(created.status == 0, "\(created.stderr)")
    let new = fixtures + "/new.json"
    #expect(
      created.stdout.contains("expected state \(link) through the link to \(new) (written)"),
      "\(created.stdout)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "fixtures/next.json")
    #expect(
      try String(contentsOfFile: new, encoding: .utf8)
        == (try rewind("state", journal, "--json")).stdout)
    #expect(try rewind("check", journal).status == 0)

    // A link into a directory that is not there (a volume not mounted): the journal fails,
    // saying so, and the link stays.
    try FileManager.default.removeItem(atPath: link)
    try FileManager.default.createSymbolicLink(
      atPath: link, withDestinationPath: "elsewhere/day.json")
    let nowhere = try rewind("check", journal, "--update")
    #expect(nowhere.status == 1)
    #expect(
      nowhere.stdout.contains(
        "\(link) is a symbolic link that leads to \(directory.file("elsewhere/day.json")), whose directory is not there; --update writes the file a link leads to, and wrote nothing"
      ), "\(nowhere.stdout)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "elsewhere/day.json")
  }

  @Test(
    "--update and recover do not follow a link another user made in a sticky directory others can write (root wrote any file such a link led to)",
    .enabled(if: geteuid() == 0, "only root makes a link another user's"))
  func plantedLinkNotFollowed() throws {
    let directory = TemporaryDirectory()
    let shared = directory.file("shared")
    let guarded = directory.file("private")
    #expect(mkdir(shared, 0o777) == 0 && chmod(shared, 0o1777) == 0)
    #expect(mkdir(guarded, 0o700) == 0)
    let journal = shared + "/day.journal"
    try FileManager.default.copyItem(atPath: sample("day-menu.journal"), toPath: journal)
    let settings = guarded + "/settings.json"
    "{}\n".writeFixture(to: settings)
    // Another user's links: to a file not there yet, and to one there.
    let link = shared + "/day.state.json"
    for (target, arguments) in [
      (guarded + "/planted.json", ["--update"]), (settings, ["--update"]), (settings, []),
    ] {
      try? FileManager.default.removeItem(atPath: link)
      try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
      #expect(lchown(link, 65534, 65534) == 0)
      // Not read either: a plain check printed what the file held (its fields).
      let update = try rewind(["check", journal] + arguments)
      #expect(update.status == 1)
      #expect(
        update.stdout.contains(
          "\(link) is a symbolic link that leads to \(target), as another user (uid 65534) made it in \(shared), a sticky directory that others can write, where a link is followed only when this user or the directory's owner made it (as the system follows links there: protected_symlinks)"
        ), "\(update.stdout)")
    }
    #expect(!FileManager.default.fileExists(atPath: guarded + "/planted.json"))
    #expect(try String(contentsOfFile: settings, encoding: .utf8) == "{}\n")
    // This user's own link elsewhere, through a directory link another user made there:
    // not followed either (only the last link was judged).
    let mine = directory.file("mine")
    #expect(mkdir(mine, 0o755) == 0)
    let ownJournal = mine + "/day.journal"
    try FileManager.default.copyItem(atPath: sample("day-menu.journal"), toPath: ownJournal)
    let evil = shared + "/evil"
    try FileManager.default.createSymbolicLink(atPath: evil, withDestinationPath: guarded)
    #expect(lchown(evil, 65534, 65534) == 0)
    try FileManager.default.createSymbolicLink(
      atPath: mine + "/day.state.json", withDestinationPath: "../shared/evil/settings.json")
    let through = try rewind("check", ownJournal, "--update")
    #expect(through.status == 1)
    #expect(
      through.stdout.contains(
        "is a symbolic link that leads to \(guarded), as another user (uid 65534) made it in \(shared)"
      ), "\(through.stdout)")
    #expect(try String(contentsOfFile: settings, encoding: .utf8) == "{}\n")
    // This user's own link there is followed.
    #expect(lchown(link, 0, 0) == 0)
    let own = try rewind("check", journal, "--update")
    #expect(own.status == 0, "\(own.stdout)")
    #expect(own.stdout.contains("through the link to \(settings) (updated"), "\(own.stdout)")
    // recover in place: a journal that is another user's link there is not repaired.
    let repaired = guarded + "/theirs.journal"
    try FileManager.default.copyItem(atPath: sample("day-menu.journal"), toPath: repaired)
    let named = shared + "/theirs.journal"
    try FileManager.default.createSymbolicLink(atPath: named, withDestinationPath: repaired)
    #expect(lchown(named, 65534, 65534) == 0)
    expectFailure(
      try rewind("recover", named),
      containing:
        "\(named) is a symbolic link that leads to \(repaired), as another user (uid 65534) made it in \(shared)"
    )
  }

  @Test(
    "NAME.state.json that is a named pipe or a device fails its journal at once (a pipe held the check until something wrote to it; /dev/zero was read to the line limit)"
  )
  func expectedStateNotAFile() throws {
    let directory = TemporaryDirectory()
    let journal = try copies(in: directory)[0]
    let expected = directory.file("day-menu.state.json")
    for make in ["pipe", "device"] {
      try? FileManager.default.removeItem(atPath: expected)
      if make == "pipe" {
        #expect(mkfifo(expected, 0o644) == 0)
      } else {
        try FileManager.default.createSymbolicLink(
          atPath: expected, withDestinationPath: "/dev/zero")
      }
      for update in [false, true] {
        let result = try run(
          "/usr/bin/timeout", ["20", rewindBinary, "check", journal] + (update ? ["--update"] : []))
        #expect(result.status == 1, "\(make): \(result.stdout)")
        #expect(
          result.stdout.hasPrefix(
            "FAIL \(journal): \(expected) is not a regular file (a device, pipe or socket): the expected state beside a journal is read from a file (--expect reads another)\n"
          ), "\(make): \(result.stdout)")
      }
    }
    // A directory is said to be one.
    try? FileManager.default.removeItem(atPath: expected)
    #expect(mkdir(expected, 0o755) == 0)
    let folder = try rewind("check", journal)
    #expect(
      folder.stdout.hasPrefix(
        "FAIL \(journal): \(expected) is a directory: the expected state beside a journal is read from a file (--expect reads another)\n"
      ), "\(folder.stdout)")
    // Given with --expect, a pipe is read (what a script pipes in).
    let state = try rewind("state", journal, "--json").stdout
    let piped = try run(
      "/bin/sh",
      [
        "-c", #"printf '%s' "$2" | "$0" check "$1" --expect /dev/stdin"#, rewindBinary, journal,
        state,
      ])
    #expect(piped.status == 0, "\(piped.stdout)\(piped.stderr)")
  }

  @Test("--update writes NAME.state.json as `rewind state --json` prints it, and refreshes it")
  func update() throws {
    let directory = TemporaryDirectory()
    let journals = try copies(in: directory)
    let missing = try rewind(["check"] + journals)
    #expect(missing.status == 0)
    #expect(missing.lines.filter { $0.contains("no expected state: ") }.count == 3)
    #expect(
      missing.stdout.contains(
        "does not exist; no state is compared (no snapshot after the first event either): only each event's outcome and changed fields are"
      ))
    let required = try rewind(["check", "--require-expected"] + journals)
    #expect(required.status == 1)
    #expect(required.lines.last == "0 passed, 3 failed")
    // In JSON, the reason too (a consumer had `expectedState: null` to guess from).
    let requiredJSON = try parseObject(
      try rewind(["check", "--require-expected", "--json"] + journals).stdout)
    let reports = try #require(requiredJSON["journals"] as? [[String: Any]])
    #expect(
      reports.map { $0["noExpectedState"] as? String }
        == Self.stems.map {
          directory.file($0 + ".state.json") + " does not exist (--require-expected)"
        })
    #expect(
      try parseObject(try rewind(["check", "--json", journals[0]]).stdout)["journals"]
        .flatMap { ($0 as? [[String: Any]])?.first?["noExpectedState"] } == nil)
    let updated = try rewind(["check", "--update"] + journals)
    #expect(updated.status == 0, "\(updated.stderr)")
    for (stem, journal) in zip(Self.stems, journals) {
      let written = directory.file(stem + ".state.json")
      #expect(updated.stdout.contains("expected state \(written) (written)"))
      let text = try String(contentsOfFile: written, encoding: .utf8)
      #expect(text == (try rewind("state", journal, "--json")).stdout)
      #expect(text == (try String(contentsOfFile: sample(stem + ".state.json"), encoding: .utf8)))
    }
    // Written again, the files already hold the states: none is written (the same inode).
    let inodes = try zip(Self.stems, journals).map { stem, _ in
      try FileManager.default.attributesOfItem(atPath: directory.file(stem + ".state.json"))[
        .systemFileNumber] as? Int
    }
    let again = try rewind(["check", "--update", "--json"] + journals)
    #expect(again.status == 0, "\(again.stderr)")
    let results = try #require(try parseObject(again.stdout)["journals"] as? [[String: Any]])
    #expect(results.map { $0["updated"] as? Bool } == [false, false, false], "\(again.stdout)")
    let unchanged = try rewind(["check", "--update", journals[0]])
    #expect(
      unchanged.stdout.contains(
        "expected state \(directory.file(Self.stems[0] + ".state.json")) (unchanged)"),
      "\(unchanged.stdout)")
    #expect(
      try zip(Self.stems, journals).map { stem, _ in
        try FileManager.default.attributesOfItem(atPath: directory.file(stem + ".state.json"))[
          .systemFileNumber] as? Int
      } == inodes)
    // Laid out otherwise, every field as expected: rewritten, and said to be only that.
    let reformatted = directory.file(Self.stems[0] + ".state.json")
    let pretty = try rewind("state", journals[0], "--json")
    #expect(pretty.status == 0, "\(pretty.stderr)")
    // Tabs for the indentation's pairs of spaces: the same JSON value.
    pretty.stdout.replacingOccurrences(of: "  ", with: "\t").writeFixture(to: reformatted)
    let relaid = try rewind(["check", "--update", journals[0]])
    #expect(
      relaid.stdout.contains(
        "expected state \(reformatted) (updated: reformatted, no field changed)"),
      "\(relaid.stdout)")
    #expect(!relaid.stdout.contains("updated the fields"), "\(relaid.stdout)")
    #expect(
      try String(contentsOfFile: reformatted, encoding: .utf8) == pretty.stdout)
    // A stale expected state is refreshed.
    let stale = directory.file("two-column.state.json")
    "{\"split\": {\"style\": \"balanced\", \"layout\": \"twoColumn\"}, \"menu\": {}}\n"
      .writeFixture(to: stale)
    let failing = try rewind("check", journals[1])
    #expect(failing.status == 1)
    #expect(failing.stdout.contains("    split.style: - \"balanced\"  + \"automatic\""))
    #expect(try rewind("check", journals[1], "--update").status == 0)
    // Partial, it stays partial: the fields it gave, in the state's order.
    #expect(
      try String(contentsOfFile: stale, encoding: .utf8) == """
        {
          "menu": {
            "labels": [
              "Monday",
              "Tuesday",
              "Wednesday",
              "Thursday",
              "Friday",
              "Saturday",
              "Sunday"
            ],
            "selectedIndex": 0,
            "scrollOffset": 0.0,
            "viewportWidth": 1366.0
          },
          "split": {
            "layout": "twoColumn",
            "style": "automatic"
          }
        }

        """)
  }

  @Test("a partial expected state compares only its fields, and says so")
  func partial() throws {
    let directory = TemporaryDirectory()
    let journal = try copies(in: directory)[1]
    let expected = directory.file("two-column.state.json")
    "{\"split\": {\"style\": \"automatic\", \"layout\": \"twoColumn\"}}".writeFixture(to: expected)
    let passing = try rewind("check", journal)
    #expect(passing.status == 0)
    #expect(
      passing.lines.first
        == "PASS \(journal): 17 events, 0 snapshots, expected state \(expected) (partial: 2 of 15 fields)"
    )
    let json = try parseObject(try rewind("check", journal, "--json").stdout)
    let report = try #require((json["journals"] as? [[String: Any]])?.first)
    #expect(report["partial"] as? Bool == true)
    #expect(report["expectedFields"] as? Int == 2)
    "{\"split\": {\"style\": \"balanced\", \"nothing\": 1, \"layot\": 2}}".writeFixture(
      to: expected)
    let failing = try rewind("check", journal)
    #expect(failing.status == 1)
    #expect(failing.stdout.contains("    split.style: - \"balanced\"  + \"automatic\""))
    // A field the state has not (a typo): said as such, with the field most likely meant.
    #expect(failing.stdout.contains("    split.nothing: - 1, a field the state has not\n"))
    #expect(
      failing.stdout.contains(
        "    split.layot: - 2, a field the state has not. Did you mean 'split.layout'?"),
      "\(failing.stdout)")
    // Of the three paths given, one is a field of the state: counted so (it said 3 of 15).
    #expect(failing.stdout.contains("(partial: 1 of 15 fields)"), "\(failing.stdout)")
    let failingJSON = try parseObject(try rewind("check", journal, "--json").stdout)
    let failed = try #require((failingJSON["journals"] as? [[String: Any]])?.first)
    #expect(failed["expectedFields"] as? Int == 1)
  }

  @Test("an expected state of no field is refused, as it would check nothing; --update fills it")
  func emptyExpectedState() throws {
    let directory = TemporaryDirectory()
    let journal = try copies(in: directory)[0]
    let empty = directory.file(Self.stems[0] + ".state.json")
    "{}\n".writeFixture(to: empty)
    let message =
      "\(empty): the expected state gives no field, so it checks nothing; write it as `rewind state --json` prints it, or with the fields to check (`check --update` writes the whole state over it)"
    let adjacent = try rewind("check", journal)
    #expect(adjacent.status == 1)
    #expect(adjacent.stdout.hasPrefix("FAIL \(journal): "), "\(adjacent.stdout)")
    #expect(adjacent.stdout.contains("the expected state gives no field"), "\(adjacent.stdout)")
    expectFailure(try rewind("check", journal, "--expect", empty), containing: message)
    let updated = try rewind("check", journal, "--update")
    #expect(updated.status == 0, "\(updated.stderr)")
    // A file there, filled: updated, not created.
    #expect(updated.stdout.contains("\(empty) (updated)\n"), "\(updated.stdout)")
    #expect(
      try String(contentsOfFile: empty, encoding: .utf8)
        == (try rewind("state", journal, "--json")).stdout)
  }

  @Test("--update refuses a journal without .journal and leaves a malformed state as it was")
  func updateBadInput() throws {
    let directory = TemporaryDirectory()
    let journal = try copies(in: directory)[0]
    let renamed = directory.file("day-menu.session")
    try FileManager.default.copyItem(atPath: journal, toPath: renamed)
    expectUsageError(
      try rewind("check", renamed, "--update"),
      "\(renamed) does not end in .journal, so it has no NAME.state.json; give --expect FILE to update",
      command: "check")
    let expected = directory.file("day-menu.state.json")
    "{\"menu\": ?}".writeFixture(to: expected)
    let malformed = try rewind("check", journal, "--update")
    #expect(malformed.status == 1)
    #expect(
      malformed.lines.first
        == "FAIL \(journal): \(expected): the expected state is not JSON at line 1, column 10: expected a JSON value, found '?'",
      "\(malformed.stdout)")
    #expect(try String(contentsOfFile: expected, encoding: .utf8) == "{\"menu\": ?}")
    // A partial state keeps to its fields: one the state has not is named, not dropped.
    /// `--update` of `journal` with `text` as its expected state fails naming `fields`, and
    /// leaves the file as it was.
    func refusesToDrop(_ text: String, _ fields: String) throws {
      text.writeFixture(to: expected)
      let dropping = try rewind("check", journal, "--update")
      #expect(dropping.status == 1)
      #expect(
        dropping.lines.first
          == "FAIL \(journal): \(expected): the expected state gives \(fields), which the replayed state has not; --update keeps a partial expected state to its fields and would drop them: correct them, or delete the file to write the whole state",
        "\(dropping.stdout)")
      #expect(try String(contentsOfFile: expected, encoding: .utf8) == text)
    }
    try refusesToDrop(
      "{\"menu\": {\"selectedIndex\": 0, \"selected\": 1}, \"mnu\": {}}\n", "'menu.selected', 'mnu'"
    )
    // Members of an object given where the state has a number or an array: fields it has
    // not, as a plain check says (they were written over, said as `+ null`).
    try refusesToDrop(
      "{\"menu\": {\"selectedIndex\": {\"a\": 1}, \"labels\": {\"0\": \"Mon\"}}}\n",
      "'menu.selectedIndex.a', 'menu.labels.0'")
    let given = directory.file("given.json")
    #expect(try rewind("check", renamed, "--update", "--expect", given).status == 0)
    #expect(
      try String(contentsOfFile: given, encoding: .utf8)
        == (try rewind("state", journal, "--json")).stdout)
  }

  @Test(
    "an expected state that cannot be read fails its journal, and the others are checked",
    arguments: ["1", "3"])
  func unreadableExpectedState(jobs: String) throws {
    let directory = TemporaryDirectory()
    let journals = try copies(in: directory)
    let expected = directory.file("two-column.state.json")
    "{\"split\": [}".writeFixture(to: expected)
    let result = try rewind(["check", "--jobs", jobs] + journals)
    #expect(result.status == 1)
    #expect(
      result.lines == [
        "PASS \(journals[0]): 25 events, 0 snapshots",
        "  no expected state: \(directory.file("day-menu.state.json")) does not exist; no state is compared (no snapshot after the first event either): only each event's outcome and changed fields are",
        "FAIL \(journals[1]): \(expected): the expected state is not JSON at line 1, column 12: expected a JSON value, found '}'",
        "PASS \(journals[2]): 16 events, 0 snapshots",
        "  no expected state: \(directory.file("rejected-interactions.state.json")) does not exist; no state is compared (no snapshot after the first event either): only each event's outcome and changed fields are",
        "2 passed, 1 failed",
      ], "\(result.stdout)")
    // The file --expect names is the command's own input: an error of the command.
    let given = try rewind("check", journals[0], "--expect", expected)
    #expect(given.status == 1)
    #expect(given.stdout.isEmpty)
    #expect(given.stderr.contains("\(expected): the expected state is not JSON at line 1"))
  }

  @Test(
    "a journal that cannot be checked is named once on its line, as other commands name it",
    arguments: ["1", "3"])
  func failureNamesThePathOnce(jobs: String) throws {
    let directory = TemporaryDirectory()
    let journals = try copies(in: directory)
    let missing = directory.file("missing.journal")
    let notJournal = directory.file("notes.journal")
    "not a journal\n".writeFixture(to: notJournal)
    let result = try rewind(["check", "--jobs", jobs, journals[0], missing, notJournal])
    #expect(result.status == 1)
    #expect(
      result.lines == [
        "PASS \(journals[0]): 25 events, 0 snapshots",
        "  no expected state: \(directory.file("day-menu.state.json")) does not exist; no state is compared (no snapshot after the first event either): only each event's outcome and changed fields are",
        "FAIL \(missing): no such file (No such file or directory (errno 2))",
        "FAIL \(notJournal): not a Rewind journal (it does not start with a journal header); it is text (if it is a scenario script, `rewind record \(notJournal) -o \(directory.file("notes-recorded.journal"))` records it)",
        "1 passed, 2 failed",
      ], "\(result.stdout)")
    let json = try parseObject(try rewind(["check", "--jobs", jobs, missing, "--json"]).stdout)
    let entry = try #require((json["journals"] as? [[String: Any]])?.first)
    #expect(entry["path"] as? String == missing)
    #expect(
      entry["error"] as? String == "\(missing): no such file (No such file or directory (errno 2))")
  }

  @Test("check --update says the fields it changed, old and new, and lists them in its JSON")
  func updateSaysWhatChanged() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("two-column.journal")
    try FileManager.default.copyItem(atPath: sample("two-column.journal"), toPath: journal)
    let expected = directory.file("two-column.state.json")
    "{\"split\": {\"style\": \"balanced\", \"overlay\": false}}\n".writeFixture(to: expected)
    let updated = try rewind("check", journal, "--update")
    #expect(updated.status == 0, "\(updated.stderr)")
    #expect(
      Array(updated.lines.dropFirst().prefix(2)) == [
        "  updated the fields that differed (- was expected, + written):",
        "    split.style: - \"balanced\"  + \"automatic\"",
      ], "\(updated.stdout)")
    // Written already: nothing to say, and none in the JSON.
    let again = try parseObject(try rewind("check", journal, "--update", "--json").stdout)
    let entry = try #require((again["journals"] as? [[String: Any]])?.first)
    #expect(entry["updated"] as? Bool == false)
    #expect(entry["updatedFields"] == nil)
    "{\"split\": {\"style\": \"balanced\", \"overlay\": false}}\n".writeFixture(to: expected)
    let json = try parseObject(try rewind("check", journal, "--update", "--json").stdout)
    let fields = try #require(
      (json["journals"] as? [[String: Any]])?.first?["updatedFields"] as? [[String: Any]])
    #expect(fields.count == 1)
    #expect(fields.first?["path"] as? String == "split.style")
    #expect(fields.first?["old"] as? String == "balanced")
    #expect(fields.first?["new"] as? String == "automatic")
  }

  /// A torn tail fails the journal: what it holds is not checked (a fixture cut at its
  /// first frame passed with 0 events).
  @Test("a torn tail fails the journal, said with its result and in its JSON")
  func tornTail() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("day-menu.journal")
    let size = try writeTornCopy(of: "day-menu.journal", to: journal)
    for jobs in ["1", "2"] {
      let text = try rewind("check", journal, "--jobs", jobs)
      #expect(text.status == 1, "\(text.stderr)")
      #expect(text.lines.first?.hasPrefix("FAIL ") == true, "\(text.stdout)")
      #expect(
        text.lines.contains(
          "  torn tail: the last 40 bytes (from byte \(size)) are not a whole frame, and what they hold is not checked, so the journal fails; `rewind recover` cuts them (then check what is left)"
        ), "\(text.stdout)")
    }
    let json = try parseObject(try rewind("check", journal, "--json").stdout)
    let entry = try #require((json["journals"] as? [[String: Any]])?.first)
    #expect(entry["passed"] as? Bool == false)
    let torn = try #require(entry["tornTail"] as? [String: Any])
    #expect(torn["offset"] as? Int == size)
    #expect(torn["bytes"] as? Int == 40)
    // A whole journal has none.
    let whole = try parseObject(try rewind("check", sample("day-menu.journal"), "--json").stdout)
    #expect((whole["journals"] as? [[String: Any]])?.first?["tornTail"] == nil)
    // --update writes no expected state of the state at the tear (it wrote it, then failed).
    let update = try rewind("check", journal, "--update")
    #expect(update.status == 1)
    #expect(
      update.stdout.contains("so its last state is not known; --update wrote nothing"),
      "\(update.stdout)")
    #expect(!FileManager.default.fileExists(atPath: directory.file("day-menu.state.json")))
  }

  @Test("a torn tail of one byte is said in the singular: what it holds, cuts it")
  func tornTailOfOneByte() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("day-menu.journal")
    let size = try writeTornCopy(of: "day-menu.journal", to: journal, count: 1)
    let text = try rewind("check", journal)
    #expect(text.status == 1, "\(text.stderr)")
    #expect(
      text.lines.contains(
        "  torn tail: the last 1 byte (from byte \(size)) is not a whole frame, and what it holds is not checked, so the journal fails; `rewind recover` cuts it (then check what is left)"
      ), "\(text.stdout)")
    // The warning of a command that reads the journal without it.
    let log = try rewind("log", journal)
    #expect(log.status == 0)
    #expect(
      log.stderr.hasPrefix(
        "warning: \(journal): the last 1 byte (from byte \(size)) is not a whole frame ("),
      "\(log.stderr)")
    #expect(
      log.stderr.hasSuffix("; it is ignored, and `rewind recover` cuts it\n"), "\(log.stderr)")
  }

  /// A header read from its copy is said with the journal's result, and in its JSON (on
  /// standard error alone, it was lost in CI); every event is checked, and it passes.
  @Test func aDamagedHeaderIsSaidWithTheResult() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("day-menu.journal")
    var content = bytes(of: sample("day-menu.journal"))
    content[0] ^= 0x40
    write(content, to: journal)
    let text = try rewind("check", journal)
    #expect(text.status == 0)
    #expect(
      text.lines.contains {
        $0.hasPrefix("  the journal header is damaged (byte 0 differs from the copy")
          && $0.hasSuffix("it was read from the copy; `rewind recover` rebuilds it")
      }, "\(text.stdout)")
    let json = try parseObject(try rewind("check", journal, "--json").stdout)
    let entry = try #require((json["journals"] as? [[String: Any]])?.first)
    #expect((entry["headerDamage"] as? String)?.hasPrefix("the journal header is damaged") == true)
    let whole = try parseObject(try rewind("check", sample("day-menu.journal"), "--json").stdout)
    #expect((whole["journals"] as? [[String: Any]])?.first?["headerDamage"] == nil)
  }

  /// The copy after a whole header (FORMAT.md, "Copies of the header"), damaged in a
  /// closed journal, is said as a damaged header is: a warning on standard error, a line
  /// with the result and `headerDamage` in its JSON (the index steps over the copy, and
  /// check said nothing). Every event is checked, and it passes.
  @Test func aDamagedHeaderCopyIsSaidAsADamagedHeaderIs() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("day-menu.journal")
    var content = bytes(of: sample("day-menu.journal"))
    // The copy starts where the header ends: its 8-byte prefix, then its payload.
    let copy = 8 + (Int(content[4]) | Int(content[5]) << 8 | Int(content[6]) << 16)
    #expect(content[(copy + 8)..<(copy + 12)] == Array("RWHC".utf8)[...])
    content[copy + 20] ^= 0x40
    write(content, to: journal)
    let said = "the copy of the journal header is damaged: checksum mismatch"
    let text = try rewind("check", journal)
    #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
    #expect(text.lines.first?.hasPrefix("PASS ") == true, "\(text.stdout)")
    #expect(
      text.lines.contains {
        $0.hasPrefix("  \(said)") && $0.hasSuffix("; `rewind recover` rebuilds it")
      }, "\(text.stdout)")
    #expect(
      text.stderr.hasPrefix("warning: \(journal): \(said)")
        && text.stderr.hasSuffix("; `rewind recover` rebuilds it\n"), "\(text.stderr)")
    let json = try parseObject(try rewind("check", journal, "--json").stdout)
    let entry = try #require((json["journals"] as? [[String: Any]])?.first)
    #expect((entry["headerCopyDamage"] as? String)?.hasPrefix(said) == true, "\(entry)")
    #expect(entry["headerDamage"] == nil, "the header itself is whole: \(entry)")
  }

  /// The bytes after the last whole frame of a journal a writer holds are its frame in
  /// progress: the frames sealed are checked, and pass.
  @Test func aJournalBeingWrittenPassesOnItsSealedFrames() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("live.journal")
    try FileManager.default.copyItem(atPath: sample("day-menu.journal"), toPath: journal)
    let writer = try JournalWriter.open(at: journal, domain: "navigation", schemaVersion: 2)
    defer { try? writer.close() }
    let size = bytes(of: journal).count
    let handle = try #require(FileHandle(forWritingAtPath: journal))
    handle.seekToEndOfFile()
    handle.write(Data(repeating: 0x78, count: 40))
    try handle.close()
    let text = try rewind("check", journal)
    #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
    #expect(text.lines.first?.hasPrefix("PASS ") == true, "\(text.stdout)")
    #expect(
      text.lines.contains {
        // The writer's process id when its lock tells it.
        $0.hasPrefix(
          "  torn tail: the last 40 bytes (from byte \(size)) are not a whole frame, and are not checked: the journal is being written"
        )
          && $0.hasSuffix(", and they are the frame in progress")
      }, "\(text.stdout)")
  }

  /// A journal cut at a frame's end (its writer killed before it closed it) passed without
  /// a word, and --update wrote its last state as the session's.
  @Test(
    "a journal that was not closed is said to be, with its result and in its JSON, and --update writes no state of it"
  )
  func notClosed() throws {
    let directory = TemporaryDirectory()
    let held = directory.file("held.journal")
    try FileManager.default.copyItem(atPath: sample("day-menu.journal"), toPath: held)
    let recorder = try JournalRecorder<NavigationDomain>.continuing(at: held)
    try recorder.record(.backTapped, at: recorder.lastTime + 1_000)
    try recorder.flush()
    // A copy of a journal its writer has not closed: the writer of the copy is gone.
    let journal = directory.file("day-menu.journal")
    try FileManager.default.copyItem(atPath: held, toPath: journal)
    let writing = try rewind("check", held)
    try recorder.close()
    #expect(writing.status == 0, "\(writing.stdout)\(writing.stderr)")
    #expect(
      writing.lines.contains {
        // The writer's process id when its lock tells it.
        $0.hasPrefix("  not closed: ")
          && $0.hasSuffix(" is writing it still; so far it holds 26 events, up to event 26")
      }, "\(writing.stdout)")
    let said =
      "not closed: its writer stopped without closing it (killed, crashed, or the machine lost power); it holds 26 events, up to event 26, and the session may have gone on after them; `rewind recover` closes it"
    for jobs in ["1", "2"] {
      let text = try rewind("check", journal, "--jobs", jobs)
      #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
      #expect(text.lines.first?.hasPrefix("PASS ") == true, "\(text.stdout)")
      #expect(text.lines.contains("  " + said), "\(text.stdout)")
      // Said in its result, not again on stderr.
      #expect(text.stderr.isEmpty, "\(text.stderr)")
    }
    // The commands that show "the last" event note it (walk of the query commands, WQ-6:
    // the last state shown as the session's, with no word), as info and verify say it.
    for arguments in [
      ["state"], ["log", "--from", "end-1"], ["blame", "split.style"],
      ["find", "--where", "changed(split.style)"],
    ] {
      let read = try rewind([arguments[0], journal] + arguments.dropFirst())
      #expect(read.status == 0, "\(arguments): \(read.stderr)")
      #expect(read.stderr == "note: \(journal): \(said)\n", "\(arguments)")
      let closedOne = try rewind(
        [arguments[0], sample("day-menu.journal")] + arguments.dropFirst())
      #expect(closedOne.stderr.isEmpty, "\(arguments): \(closedOne.stderr)")
    }
    let json = try parseObject(try rewind("check", journal, "--json").stdout)
    let entry = try #require((json["journals"] as? [[String: Any]])?.first)
    #expect(entry["notClosed"] as? String == said, "\(entry)")
    let whole = try parseObject(try rewind("check", sample("day-menu.journal"), "--json").stdout)
    #expect((whole["journals"] as? [[String: Any]])?.first?["notClosed"] == nil)
    // --update writes no state of it; once it is closed, it does.
    let update = try rewind("check", journal, "--update")
    #expect(update.status == 1)
    #expect(
      update.stdout.contains(
        "\(said), so its last state may not be the session's; --update wrote nothing to"),
      "\(update.stdout)")
    let state = directory.file("day-menu.state.json")
    #expect(!FileManager.default.fileExists(atPath: state))
    #expect(try rewind("recover", journal).status == 0)
    let closed = try rewind("check", journal, "--update")
    #expect(closed.status == 0, "\(closed.stdout)\(closed.stderr)")
    #expect(!closed.stdout.contains("not closed"), "\(closed.stdout)")
    #expect(FileManager.default.fileExists(atPath: state))
  }

  /// Runs writing the same expected state at once: one that finds the file written by
  /// another meanwhile, with the same bytes, failed ("a file appeared there").
  @Test(
    "check --update of one journal by several runs at once: each passes, the state written once or found"
  )
  func concurrentUpdates() async throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("two-column.journal")
    try FileManager.default.copyItem(atPath: sample("two-column.journal"), toPath: journal)
    let state = directory.file("two-column.state.json")
    for round in 0..<4 {
      try? FileManager.default.removeItem(atPath: state)
      let results = try await withThrowingTaskGroup(of: ProcessResult.self) { group in
        for _ in 0..<6 { group.addTask { try rewind("check", journal, "--update") } }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      for result in results {
        #expect(result.status == 0, "round \(round): \(result.stdout)\(result.stderr)")
        #expect(
          result.stdout.contains("(written)") || result.stdout.contains("(unchanged)"),
          "round \(round): \(result.stdout)")
      }
      // A run that made the file (or replaced it after another made it) says it wrote it.
      #expect(results.contains { $0.stdout.contains("(written)") }, "round \(round)")
      #expect(bytes(of: state) == bytes(of: sample("two-column.state.json")), "round \(round)")
    }
  }

  @Test("a session of no events is said to have none, not to have no snapshot after its first")
  func noEvents() throws {
    let directory = TemporaryDirectory()
    write("layout two-column\n", to: directory.file("empty.scenario"))
    let journal = directory.file("empty.journal")
    #expect(try rewind("record", directory.file("empty.scenario"), "-o", journal).status == 0)
    let text = try rewind("check", journal)
    #expect(text.status == 0, "\(text.stderr)")
    #expect(
      text.lines.dropFirst().first
        == "  no expected state: \(directory.file("empty.state.json")) does not exist; the session has no events, and its state is not checked",
      "\(text.stdout)")
  }

  @Test("--jobs does not change what check prints, with partial and missing expected states")
  func jobs() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("generated.journal")
    try FileManager.default.copyItem(atPath: sample("generated-200k.journal"), toPath: journal)
    let partial = directory.file("partial.json")
    "{\"split\": {\"style\": \"automatic\"}}".writeFixture(to: partial)
    for arguments in [
      ["check", journal], ["check", journal, "--require-expected", "--json"],
      ["check", journal, "--expect", partial], ["check", journal, "--expect", partial, "--json"],
    ] {
      let one = try rewind(arguments + ["--jobs", "1"])
      let four = try rewind(arguments + ["--jobs", "4"])
      #expect(one.stdout == four.stdout, "\(arguments)")
      #expect(one.status == four.status)
      #expect(one.status == (arguments.count == 2 ? 0 : 1), "\(arguments)")
    }
  }
}
