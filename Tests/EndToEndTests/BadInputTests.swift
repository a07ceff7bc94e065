import Foundation
import TestSupport
import Testing

/// Bad input gets a precise error (issue 9): strict `find` conditions, points and ranges,
/// `@` in file names, exit codes, unreadable expected states. Each test fails on the
/// behaviour before the fix.
@Suite("Bad input gets a precise error")
struct BadInputTests {
  let ipad = sample("ipad-three-column.journal")

  func find(_ condition: String) throws -> ProcessResult {
    try rewind("find", ipad, "--where", condition)
  }

  func expectConditionError(
    _ condition: String, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    expectUsageError(
      try find(condition),
      "The value '\(condition)' is invalid for '--where <condition>': \(reason)",
      command: "find", sourceLocation: sourceLocation)
  }

  // MARK: - find --where is strict

  @Test("find: an unknown field, with the fields and the near one")
  func unknownField() throws {
    let fields =
      "menu.labels, menu.selectedIndex, menu.scrollOffset, menu.viewportWidth, split.layout, split.selectedCategory, split.selectedItem, split.expanded, split.columnVisibility, split.style, split.sizeClass, split.orientation, split.compactColumn, split.visibleColumns, split.overlay"
    try expectConditionError(
      "split.selectedIten == null",
      "at column 1: 'split.selectedIten' is not a state field; the fields are \(fields) (and event, outcome, reason name the event). Did you mean 'split.selectedItem'?"
    )
    // changed(FIELD) and blame FIELD check the field the same way.
    try expectConditionError(
      "changed(split.stlye)",
      "at column 9: 'split.stlye' is not a state field; the fields are \(fields) (and event, outcome, reason name the event). Did you mean 'split.style'?"
    )
    expectUsageError(
      try rewind("blame", ipad, "split.stlye"),
      "The value 'split.stlye' is invalid for '<path>': 'split.stlye' is not a state field; the fields are \(fields). Did you mean 'split.style'?",
      command: "blame")
  }

  @Test("find: a value of the wrong type, with the value meant")
  func wrongType() throws {
    try expectConditionError(
      "menu.selectedIndex == \"0\"",
      "at column 23: menu.selectedIndex holds an integer, not a string (\"0\"). Did you mean '0'?")
    try expectConditionError(
      "split.overlay == yes",
      "at column 18: split.overlay holds true or false, not a string (\"yes\")")
  }

  @Test("find: a value outside an enum, with the values")
  func outsideEnum() throws {
    try expectConditionError(
      "split.style == Balanced",
      "at column 16: split.style holds one of automatic, balanced, prominentDetail, not 'Balanced'. Did you mean 'balanced'?"
    )
    try expectConditionError(
      "split.columnVisibility != everything",
      "at column 27: split.columnVisibility holds one of automatic, all, doubleColumn, detailOnly, not 'everything'"
    )
  }

  @Test("find: an id the session does not have; a name gets its id suggested")
  func unknownIdentifier() throws {
    try expectConditionError(
      "split.selectedItem == Leva",
      "at column 23: 'Leva' is not the id of an item in this session. Did you mean 'espresso-machines/leva'?"
    )
    try expectConditionError(
      "split.selectedCategory == Grinders",
      "at column 27: 'Grinders' is not the id of a category in this session. Did you mean 'grinders'?"
    )
    try expectConditionError(
      "split.selectedItem == espresso-machines/levva",
      "at column 23: 'espresso-machines/levva' is not the id of an item in this session. Did you mean 'espresso-machines/leva'?"
    )
  }

  @Test("find: a compound condition's mistakes, each at its column, with a suggestion")
  func compoundMistakes() throws {
    try expectConditionError(
      "split.style == balanced && split.overlay == flase",
      "at column 45: split.overlay holds true or false, not a string (\"flase\")")
    try expectConditionError(
      "split.overlay == true || (event == categorySelectd)",
      "at column 36: 'categorySelectd' is not an event kind; they are menuTabTapped, menuScrolled, menuViewportResized, categorySelected, itemSelected, itemExpanded, itemCollapsed, columnVisibilityChanged, splitStyleChanged, sizeClassChanged, orientationChanged, backTapped. Did you mean 'categorySelected'?"
    )
    try expectConditionError(
      "!(outcome == rejectd)",
      "at column 14: 'rejectd' is not an outcome; they are applied, unchanged, rejected. Did you mean 'rejected'?"
    )
    try expectConditionError(
      "split.expanded contains espresso-machines/levva",
      "at column 25: 'espresso-machines/levva' is not the id of an item with children in this session. Did you mean 'espresso-machines/leva'?"
    )
    try expectConditionError(
      "(split.style == balanced",
      "at column 25: expected ')' to close the '(' at column 1, found the end")
    try expectConditionError(
      "split.style == balanced and split.overlay == true",
      "at column 25: expected &&, || or the end of the condition after the value, found 'and' (quote a value with spaces)"
    )
    try expectConditionError(
      "menu.selectedIndex => 2",
      "at column 20: expected ==, !=, <, <=, >, >= or contains after the field path: => is not an operator; write >="
    )
    try expectConditionError(
      "split.style > 2",
      "at column 1: '>' compares numbers, and split.style holds one of automatic, balanced, prominentDetail"
    )
  }

  @Test("find without --where: the help line gives an example and where the language is")
  func findWithoutCondition() throws {
    let missing = try rewind("find", ipad)
    expectUsageError(missing, "Missing expected argument '--where <condition>'", command: "find")
    #expect(
      missing.stderr.contains(
        "Help:  --where <condition>  The condition to find, e.g. 'split.style == balanced' (rewind help conditions).\n"
      ), "\(missing.stderr)")
  }

  @Test("find: an unterminated string, at its opening quote")
  func unterminatedString() throws {
    try expectConditionError(
      "split.style == \"unterminated", "at column 16: the string has no closing quote (\")")
  }

  @Test("find: conditions that fit the fields still find their points")
  func fittingConditions() throws {
    let leva = try find("split.selectedItem == espresso-machines/leva")
    #expect(leva.status == 0)
    #expect(
      leva.lines.last?.hasPrefix("  event 2 at +1.400s: itemSelected espresso-machines/leva")
        == true)
    let none = try find("split.sizeClass == \"compact\"")
    #expect(none.status == 0)
    #expect(
      none.stdout == "No point in the session where split.sizeClass == \"compact\" becomes true.\n")
  }

  // MARK: - Points: a time is never outside the session

  @Test("a time after the last event is the end state, and state says it is the last")
  func timeAfterTheEnd() throws {
    let end = try rewind("state", ipad, "--at", "end")
    for point in ["+67.2s", "+1h", "2030-01-01T00:00:00Z"] {
      let result = try rewind("state", ipad, "--at", point)
      #expect(result.status == 0, "\(point): \(result.stderr)")
      #expect(result.stdout.hasPrefix("State after event 32, the last (+67.100s)\n"))
      #expect(result.stdout == end.stdout)
    }
    let json = try rewind("state", ipad, "--at", "+67.2s", "--json")
    #expect(json.stdout == (try rewind("state", ipad, "--json")).stdout)
  }

  @Test("a time before the first event is the start state; only sequence numbers are outside")
  func timeBeforeTheStart() throws {
    let start = try rewind("state", ipad, "--at", "start")
    let before = try rewind("state", ipad, "--at", "2020-01-01T00:00:00Z")
    #expect(before.status == 0, "\(before.stderr)")
    #expect(before.stdout.hasPrefix("Initial state (before any event)"))
    #expect(before.stdout == start.stdout)
    // The generated session's first event is at +1.917s.
    let generated = try rewind("state", sample("generated-200k.journal"), "--at", "+1s")
    #expect(generated.stdout.hasPrefix("Initial state (before any event)"))
    expectUsageError(
      try rewind("state", ipad, "--at", "33"),
      "The value '33' is invalid for '--at <point>': event 33 is beyond the end of the session (points are 0–32)",
      command: "state")
  }

  @Test("every command taking points reads a time after the end as the end")
  func everyCommandTakesTimesAfterTheEnd() throws {
    let pairs: [([String], [String])] = [
      (["diff", ipad, "--from", "+20s", "--to", "+10m"], ["diff", ipad, "--from", "+20s"]),
      (["log", ipad, "--from", "20", "--to", "+10m"], ["log", ipad, "--from", "20"]),
      (["export", ipad, "--from", "20", "--to", "+10m"], ["export", ipad, "--from", "20"]),
      (["blame", ipad, "split.style", "--at", "+10m"], ["blame", ipad, "split.style"]),
      (
        ["diff", ipad + "@+10m", ipad + "@2020-01-01T00:00:00Z"],
        ["diff", ipad + "@end", ipad + "@start"]
      ),
    ]
    for (withTime, withEnd) in pairs {
      let timed = try rewind(withTime)
      let ended = try rewind(withEnd)
      #expect(timed.status == 0, "\(withTime): \(timed.stderr)")
      #expect(!ended.stdout.isEmpty)
      #expect(
        timed.stdout.replacingOccurrences(of: "+10m", with: "end").replacingOccurrences(
          of: "2020-01-01T00:00:00Z", with: "start") == ended.stdout, "\(withTime)")
    }
    let empty = try rewind("log", ipad, "--from", "+1h")
    #expect(empty.status == 0 && empty.stderr.isEmpty)
    #expect(empty.stdout == "No events between the two points.\n")
  }

  // MARK: - Reversed ranges

  @Test(
    "a reversed range is one error in diff, log and export", arguments: ["diff", "log", "export"])
  func reversedRange(command: String) throws {
    expectUsageError(
      try rewind(command, ipad, "--from", "15", "--to", "12"),
      "--from 15 is after --to 12; give the earlier point first", command: command)
    expectUsageError(
      try rewind(command, ipad, "--from", "+40s", "--to", "+20s"),
      "--from +40s (event 17) is after --to +20s (event 11); give the earlier point first",
      command: command)
    // Point 0 is no event's (walk of the query commands, WQ-10: "start (event 0)").
    expectUsageError(
      try rewind(command, ipad, "--from", "end", "--to", "start"),
      "--from end (event 32) is after --to start; give the earlier point first", command: command)
    expectUsageError(
      try rewind(command, ipad, "--from", "3", "--to", "end-32"),
      "--from 3 is after --to end-32 (the start); give the earlier point first", command: command)
  }

  @Test("diff --events of a reversed range is an error, not 'no events in between'")
  func reversedDiffEvents() throws {
    expectUsageError(
      try rewind("diff", ipad, "--from", "15", "--to", "12", "--events"),
      "--from 15 is after --to 12; give the earlier point first", command: "diff")
    let same = try rewind("diff", ipad, "--from", "12", "--to", "12", "--events")
    #expect(same.status == 0)
    #expect(same.stdout.contains("No events in between."))
  }

  // MARK: - @ in file names

  @Test("diff: an existing file whose name contains @ is that file, and help says so")
  func atInFileName() throws {
    let directory = TemporaryDirectory()
    let odd = directory.file("a@b.journal")
    write(bytes(of: ipad), to: odd)
    let whole = try rewind("diff", odd, ipad)
    #expect(whole.status == 0, "\(whole.stderr)")
    // `end` is said with the event it is.
    #expect(
      whole.stdout == "No differences between \(odd)@end (event 32) and \(ipad)@end (event 32).\n")
    let atPoint = try rewind("diff", odd + "@12", ipad + "@12")
    #expect(atPoint.status == 0, "\(atPoint.stderr)")
    #expect(atPoint.stdout == "No differences between \(odd)@12 and \(ipad)@12.\n")
    let differing = try rewind("diff", odd + "@12", ipad)
    #expect(
      differing.stdout.hasPrefix(
        "5 fields differ between \(odd)@12 (-) and \(ipad)@end (event 32) (+):"))
    let help = try rewind("diff", "--help")
    // However the wrapping falls.
    #expect(
      help.stdout.replacingOccurrences(of: "\n", with: " ").contains(
        "A file whose name contains @ is that file when it exists"))
  }

  // MARK: - Exit codes

  @Test("rewind alone prints its help on stderr and exits 64")
  func noArguments() throws {
    let result = try rewind([])
    #expect(result.status == 64)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("OVERVIEW: Record, replay, inspect and test"))
    #expect(result.stderr.contains("SUBCOMMANDS:"))
  }

  @Test(
    "an unknown --domain is a usage error listing the domains", arguments: ["record", "generate"])
  func unknownDomain(command: String) throws {
    let directory = TemporaryDirectory()
    let script = directory.file("s.scenario")
    write(Array("@1s tap 1\n".utf8), to: script)
    let arguments =
      command == "record"
      ? ["record", script, "-o", directory.file("x.journal"), "--domain", "navigaton"]
      : ["generate", "-o", directory.file("x.journal"), "--events", "5", "--domain", "navigaton"]
    let result = try rewind(arguments)
    expectUsageError(
      result,
      "The value 'navigaton' is invalid for '--domain <name>': the domains are navigation. Did you mean 'navigation'?",
      command: command)
    #expect(!FileManager.default.fileExists(atPath: directory.file("x.journal")))
  }

  @Test("check --expect says why the expected state cannot be read")
  func unreadableExpectedState() throws {
    let directory = TemporaryDirectory()
    let missing = directory.file("missing.json")
    expectFailure(
      try rewind("check", ipad, "--expect", missing),
      containing: "Error: \(missing): cannot read the expected state: no such file\n")
    expectFailure(
      try rewind("check", ipad, "--expect", directory.path),
      containing:
        "Error: \(directory.path): cannot read the expected state: is a directory, not a file\n")
    let broken = directory.file("broken.json")
    write(Array("{\n  \"menu\": ?\n}\n".utf8), to: broken)
    expectFailure(
      try rewind("check", ipad, "--expect", broken),
      containing:
        "Error: \(broken): the expected state is not JSON at line 2, column 11: expected a JSON value, found '?'\n"
    )
    // A journal given as the expected state: named as one, with the line read.
    let result = try rewind("check", ipad, "--expect", ipad)
    expectFailure(result, containing: "Error: \(ipad):1: cannot read the expected state: ")
    expectFailure(
      result,
      containing:
        "(it is a journal; the expected state is JSON, as `rewind state --json` prints it)\n")
  }

  @Test(
    "import - and record - read standard input, a pipe too; ./- names a file called - (import - was refused, record - too)"
  )
  func standardInput() throws {
    let directory = TemporaryDirectory()
    let output = directory.file("x.journal")
    let environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
    // An export piped in: a pipe, which cannot seek, is read to its end.
    let piped = try run(
      "/bin/sh",
      [
        "-c", #""$0" export "$1" | "$0" import - -o "$2""#, rewindBinary,
        sample("day-menu.journal"), output,
      ], environment: environment)
    #expect(piped.status == 0, "\(piped.stderr)")
    #expect(piped.stdout == "Imported 25 events from standard input to \(output)\n")
    let diff = try rewind("diff", sample("day-menu.journal"), output, "--align")
    #expect(diff.status == 0, "\(diff.stderr)")
    // A bad line is named as standard input's, and nothing is written.
    let bad = try run(
      "/bin/sh",
      ["-c", #"printf '{"seq": 1}\n' | "$0" import - -o "$1""#, rewindBinary, output + "2"],
      environment: environment)
    #expect(bad.status == 1)
    #expect(bad.stderr.hasPrefix("Error: standard input:1: "), "\(bad.stderr)")
    #expect(!FileManager.default.fileExists(atPath: output + "2"))
    // Nothing on standard input: empty, as an empty file is.
    expectFailure(
      try rewind("import", "-", "-o", output + "3"),
      containing:
        "Error: standard input is empty: nothing to import (a JSON Lines file of events, as `rewind export` writes); nothing was written"
    )
    // A scenario script piped to record.
    let recorded = try run(
      "/bin/sh",
      [
        "-c",
        #"printf 'select category Grinders\nexpect split.selectedCategory == grinders\n' | "$0" record - -o "$1""#,
        rewindBinary, directory.file("r.journal"),
      ], environment: environment)
    #expect(recorded.status == 0, "\(recorded.stderr)")
    #expect(recorded.stdout.hasPrefix("Recorded 1 event (0 rejected)"), "\(recorded.stdout)")
    let failed = try run(
      "/bin/sh",
      [
        "-c",
        #"printf 'select category Grinders\nexpect split.selectedCategory == null\n' | "$0" record - -o "$1""#,
        rewindBinary, directory.file("f.journal"),
      ], environment: environment)
    #expect(failed.status == 1)
    #expect(failed.stderr.contains("standard input:2: expect failed"), "\(failed.stderr)")
    // A file named - is ./-.
    _ = try rewind("export", sample("day-menu.journal"), "-o", directory.file("-"))
    let named = try run(
      rewindBinary, ["import", "./-", "-o", "y.journal"], environment: environment,
      currentDirectory: directory.path)
    #expect(named.status == 0, "\(named.stderr)")
    #expect(FileManager.default.fileExists(atPath: directory.file("y.journal")))
    // An expected state is a file --update may write: - is refused, saying what reads
    // standard input (it said '-: no such file').
    expectUsageError(
      try rewind("check", sample("day-menu.journal"), "--expect", "-"),
      "The value '-' is invalid for '--expect <state.json>': - is not standard input here: --expect names the expected state's file, which --update writes (/dev/stdin reads standard input; ./- for a file named -)",
      command: "check")
    // A journal is read from a file: - is still refused there, saying so.
    expectUsageError(
      try rewind("info", "-"),
      "- is not standard input here: a journal is read from a file; give its path (./- for a file named -)",
      command: "info")
  }

  @Test(
    "a write past the file size limit (ulimit -f) fails as a full disk does, the previous file left and nothing else (it ended the process without a word, exit 153)"
  )
  func fileSizeLimit() throws {
    let directory = TemporaryDirectory()
    let environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
    for (name, arguments) in [
      ("out.jsonl", #""$0" export "$1" -o "$2" --force"#),
      ("out.journal", #""$0" generate --events 200000 --seed 1 -o "$2" --force"#),
    ] {
      let output = directory.file(name)
      "the previous file\n".writeFixture(to: output)
      // 64 blocks of 512 bytes (or of 1,024, as the shell counts them), and SIGXFSZ's
      // default action (the test runner's children may inherit it ignored).
      let limited = try run(
        "/usr/bin/env",
        [
          "--default-signal=XFSZ", "/bin/sh", "-c", "ulimit -f 64; exec " + arguments, rewindBinary,
          sample("generated-200k.journal"),
          output,
        ],
        environment: environment)
      #expect(!limited.signalled, "\(limited.stderr)")
      #expect(limited.status == 1, "\(limited.stderr)")
      #expect(limited.stderr.hasPrefix("Error: \(output): "), "\(limited.stderr)")
      #expect(limited.stderr.contains("(File too large (errno 27))"), "\(limited.stderr)")
      #expect(try String(contentsOfFile: output, encoding: .utf8) == "the previous file\n")
      #expect(
        (try FileManager.default.contentsOfDirectory(atPath: directory.path)).filter {
          $0.hasPrefix(".")
        }.isEmpty)
    }
  }

  @Test(
    "record of an empty script is refused, writing nothing (it recorded a journal of no events, exit 0); a script of settings or comments alone records the initial state"
  )
  func recordEmptyScript() throws {
    let directory = TemporaryDirectory()
    let output = directory.file("x.journal")
    let message =
      "nothing to record (a scenario script: 'rewind help scenario'); nothing was written"
    let empty = directory.file("empty.scenario")
    "".writeFixture(to: empty)
    expectFailure(
      try rewind("record", empty, "-o", output), containing: "Error: \(empty) is empty: \(message)")
    #expect(!FileManager.default.fileExists(atPath: output))
    let blank = directory.file("blank.scenario")
    "\n  \n\r\n".writeFixture(to: blank)
    expectFailure(
      try rewind("record", blank, "-o", output),
      containing: "Error: \(blank) holds only blank lines: \(message)")
    // Standard input that holds nothing (a pipe whose writer failed), with --force over
    // a journal there: it is kept.
    _ = try rewind("generate", "--events", "5", "--seed", "1", "-o", output)
    let kept = try Data(contentsOf: URL(fileURLWithPath: output))
    expectFailure(
      try rewind("record", "-", "-o", output, "--force"),
      containing: "Error: standard input is empty: \(message)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == kept)
    // A comment alone, or settings alone: the initial state, recorded.
    for (name, text) in [("comment", "# to be written\n"), ("settings", "layout two-column\n")] {
      let script = directory.file("\(name).scenario")
      text.writeFixture(to: script)
      let recorded = try rewind("record", script, "-o", directory.file("\(name).journal"))
      #expect(recorded.status == 0, "\(recorded.stderr)")
      #expect(recorded.stdout.hasPrefix("Recorded 0 events"), "\(recorded.stdout)")
    }
  }

  @Test("import of an empty file is refused, writing nothing (it wrote a journal of no events)")
  func importEmptyFile() throws {
    let directory = TemporaryDirectory()
    let empty = directory.file("events.jsonl")
    "".writeFixture(to: empty)
    let output = directory.file("x.journal")
    expectFailure(
      try rewind("import", empty, "-o", output),
      containing:
        "Error: \(empty) is empty: nothing to import (a JSON Lines file of events, as `rewind export` writes); nothing was written"
    )
    #expect(!FileManager.default.fileExists(atPath: output))
    // Blank lines only: as empty.
    let blank = directory.file("blank.jsonl")
    "\n  \n\r\n".writeFixture(to: blank)
    expectFailure(
      try rewind("import", blank, "-o", output),
      containing:
        "Error: \(blank) holds only blank lines: nothing to import (a JSON Lines file of events, as `rewind export` writes); nothing was written"
    )
    #expect(!FileManager.default.fileExists(atPath: output))
    // Nothing from a device or a pipe: empty, not blank.
    expectFailure(
      try rewind("import", "/dev/null", "-o", output),
      containing:
        "Error: /dev/null is empty: nothing to import (a JSON Lines file of events, as `rewind export` writes); nothing was written"
    )
    #expect(!FileManager.default.fileExists(atPath: output))
    // A header alone (an export of no event) is a session of no event, imported.
    let header = directory.file("header.jsonl")
    let exported = try rewind("export", sample("two-column.journal"), "--from", "5", "--to", "5")
    exported.stdout.writeFixture(to: header)
    let imported = try rewind("import", header, "-o", output)
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(imported.stdout.hasPrefix("Imported 0 events from"))
  }

  @Test("live --force without -o is a usage error: the default name is a free one")
  func liveForceWithoutOutput() throws {
    expectUsageError(
      try rewind("live", "--force"),
      "--force replaces the journal given with -o; without -o, live writes to a free name",
      command: "live")
  }

  @Test("a point given where a journal or field goes says the option it goes after")
  func misplacedPoints() throws {
    expectUsageError(
      try rewind("state", ipad, "15"),
      "Unexpected argument '15'; a point goes after --at: --at 15", command: "state")
    // The point first: the journal is the word left over.
    expectUsageError(
      try rewind("state", "+2s", ipad),
      "Unexpected argument '\(ipad)'; a point goes after --at: --at +2s", command: "state")
    expectUsageError(
      try rewind("blame", ipad, "split.style", "end"),
      "Unexpected argument 'end'; a point goes after --at: --at end", command: "blame")
    expectUsageError(
      try rewind("log", ipad, "5", "9"),
      "2 unexpected arguments: '5', '9'; points go after --from and --to (the events after the first, up to the second): --from 5 --to 9",
      command: "log")
    expectUsageError(
      try rewind("html", ipad, "5"),
      "Unexpected argument '5'; a point goes after --from (the events after it) or --to (up to it): --from 5 or --to 5",
      command: "html")
    // No hint: a word that is no point, more points than the options take, points alone
    // (no journal left), or a file of a point's name.
    expectUsageError(
      try rewind("state", ipad, "x"), "Unexpected argument 'x'", command: "state")
    expectUsageError(
      try rewind("state", ipad, "15", "20"), "2 unexpected arguments: '15', '20'",
      command: "state")
    expectUsageError(
      try rewind("state", "15", "16"), "Unexpected argument '16'", command: "state")
    let directory = TemporaryDirectory()
    let end = directory.file("end")
    try Data().write(to: URL(fileURLWithPath: end))
    expectUsageError(
      try run(
        rewindBinary, ["state", ipad, "end"], environment: ["PATH": "/usr/bin:/bin"],
        currentDirectory: directory.path),
      "Unexpected argument 'end'", command: "state")
  }

  @Test(
    "a Git LFS pointer given as a journal is said to be one, its journal not fetched, by every command that opens a journal, and given as a script by record"
  )
  func gitLFSPointer() throws {
    let directory = TemporaryDirectory()
    let pointer = directory.file("session.journal")
    write(
      """
      version https://git-lfs.github.com/spec/v1
      oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393
      size 12345

      """, to: pointer)
    let said =
      "\(pointer): not a Rewind journal (it does not start with a journal header); it is a Git LFS pointer, not the journal: the journal it points to was not fetched (`git lfs pull` fetches it)"
    let day = sample("day-menu.journal")
    for arguments in [
      ["info", pointer], ["log", pointer], ["state", pointer], ["export", pointer],
      ["blame", pointer, "menu.selectedIndex"], ["diff", day, pointer],
      ["find", pointer, "--where", "menu.selectedIndex == 1"],
      ["html", pointer, "-o", directory.file("page.html")], ["testgen", pointer],
      ["shrink", pointer, "--where", "menu.selectedIndex == 1"],
      ["upgrade", pointer, "-o", directory.file("up.journal")],
      ["recover", pointer, "-o", directory.file("recovered.journal")],
      ["recover", pointer, "--salvage", "-o", directory.file("recovered.journal")],
      ["push", pointer, "--server", "nats://127.0.0.1:1"],
    ] {
      let result = try rewind(arguments)
      #expect(result.status == 1, "\(arguments): \(result.stderr)")
      #expect(result.stderr.hasPrefix("Error: \(said)"), "\(arguments): \(result.stderr)")
      #expect(!result.stderr.contains("scenario"), "\(arguments): \(result.stderr)")
    }
    // check and verify say it in its place, on standard output.
    let check = try rewind("check", pointer)
    #expect(check.status == 1)
    #expect(check.lines.first == "FAIL \(said)", "\(check.stdout)")
    let verify = try rewind("verify", pointer)
    #expect(verify.status == 1)
    #expect(verify.lines == ["UNREADABLE \(said)"], "\(verify.stdout)")
    #expect(
      try FileManager.default.subpathsOfDirectory(atPath: directory.path) == ["session.journal"])

    // A script's pointer, given to record: the script was not fetched either.
    let script = directory.file("session.scenario")
    try FileManager.default.copyItem(atPath: pointer, toPath: script)
    let record = try rewind("record", script, "-o", directory.file("recorded.journal"))
    #expect(record.status == 1, "\(record.stderr)")
    #expect(
      record.stderr.hasSuffix(
        "found 'version'; it is a Git LFS pointer, not the script: the script it points to was not fetched (`git lfs pull` fetches it)\n"
      ), "\(record.stderr)")
    #expect(!FileManager.default.fileExists(atPath: directory.file("recorded.journal")))
  }

  @Test("a file that is no journal says what it reads as and the command that reads it")
  func whatANonJournalIs() throws {
    let directory = TemporaryDirectory()
    let lines = directory.file("session.jsonl")
    try Data(try rewind("export", ipad, "--to", "3").stdout.utf8).write(
      to: URL(fileURLWithPath: lines))
    let notJournal = "not a Rewind journal (it does not start with a journal header)"
    expectFailure(
      try rewind("info", lines),
      containing:
        "\(lines): \(notJournal); it reads as JSON Lines, as `rewind export` writes: `rewind import \(lines) -o \(directory.file("session.journal"))` makes a journal of it"
    )
    // verify says it in its place, on standard output.
    let verified = try rewind("verify", lines)
    #expect(verified.status == 1)
    #expect(
      verified.stdout.contains(
        "; it reads as JSON Lines, as `rewind export` writes: `rewind import"),
      "\(verified.stdout)")
    let script = sample("day-menu.scenario")
    expectFailure(
      try rewind("log", script),
      containing:
        "\(script): \(notJournal); it is text (if it is a scenario script, `rewind record \(script) -o \(sample("day-menu-recorded.journal"))` records it)"
    )
    let state = sample("day-menu.state.json")
    let check = try rewind("check", sample("day-menu.journal"), state)
    #expect(check.status == 1)
    #expect(
      check.stdout.contains(
        "FAIL \(state): \(notJournal); it reads as JSON (an expected state, as `rewind state --json` prints it, is given to check with --expect)"
      ), "\(check.stdout)")
    // JSON Lines without a header (import takes them), after a blank line.
    let events = directory.file("events.txt")
    "\n{\"seq\": 1, \"time_us\": 0, \"event\": \"backTapped\"}\n".writeFixture(to: events)
    expectFailure(
      try rewind("info", events),
      containing:
        "; it reads as JSON Lines, as `rewind export` writes: `rewind import \(events) -o \(directory.file("events.journal"))` makes a journal of it"
    )
    // Bytes that are no text: nothing said of them.
    let binary = directory.file("noise.bin")
    try Data([0x01, 0xFF, 0xFE, 0x80, 0x00, 0x42]).write(to: URL(fileURLWithPath: binary))
    let noise = try rewind("state", binary)
    expectFailure(noise, containing: "\(binary): \(notJournal)")
    #expect(!noise.stderr.contains("; it is"), "\(noise.stderr)")
  }

  @Test("diff with three journals: a message in the style of the others, not capitalised")
  func diffThreeJournals() throws {
    expectUsageError(
      try rewind("diff", ipad, ipad, ipad),
      "diff compares one journal, or two written JOURNAL@POINT: give one or two, not 3",
      command: "diff")
  }

  @Test(
    "blame PATH[0] on an array of strings says an element is written as its value and suggests a whole path"
  )
  func blameElementByPosition() throws {
    let journal = sample("day-menu.journal")
    expectUsageError(
      try rewind("blame", journal, "menu.labels[0]"),
      "The value 'menu.labels[0]' is invalid for '<path>': '0' cannot be an element of menu.labels: an element is written as its value, not its position, and each element of menu.labels is a label, not a number (0). Did you mean 'menu.labels[Monday]' (the element at position 0)?",
      command: "blame")
    expectUsageError(
      try rewind("blame", journal, "menu.labels[99]"),
      "The value 'menu.labels[99]' is invalid for '<path>': '99' cannot be an element of menu.labels: an element is written as its value, not its position, and each element of menu.labels is a label, not a number (99). Did you mean 'menu.labels[Monday]' (the first element)?",
      command: "blame")
    // A label in another case: the label meant (a label is checked, as an id is).
    expectUsageError(
      try rewind("blame", journal, "menu.labels[monday]"),
      "The value 'menu.labels[monday]' is invalid for '<path>': 'monday' cannot be an element of menu.labels: 'monday' is not a label in this session. Did you mean 'menu.labels[Monday]'?",
      command: "blame")
    // The suggestion, typed, works.
    let typed = try rewind("blame", journal, "menu.labels[Monday]")
    #expect(typed.status == 0, "\(typed.stderr)")
    // An array that is empty at the point: the whole field.
    expectUsageError(
      try rewind("blame", ipad, "split.expanded[0]", "--at", "start"),
      "The value 'split.expanded[0]' is invalid for '<path>': '0' cannot be an element of split.expanded: an element is written as its value, not its position, and each element of split.expanded is the id of an item with children, not a number (0); blame split.expanded for the whole array",
      command: "blame")
    // Another wrong element: the suggestion is a whole PATH[ELEMENT] too.
    expectUsageError(
      try rewind("blame", ipad, "split.expanded[Leva]"),
      "The value 'split.expanded[Leva]' is invalid for '<path>': 'Leva' cannot be an element of split.expanded: 'Leva' is not the id of an item with children in this session. Did you mean 'split.expanded[espresso-machines/leva]'?",
      command: "blame")
  }
}
