import Foundation
import TestSupport
import Testing

/// Runs `rewind ARGUMENTS` with `input` a FIFO that nothing writes to until rewind said on
/// standard error that it waits (or 15 seconds passed), then writes `text` to it; returns
/// what rewind did, with its standard error.
private func rewindReadingFIFO(
  _ arguments: [String], fifo: String, text: String, in directory: TemporaryDirectory
) throws -> ProcessResult {
  // Files of their own for each run: a standard error left by another would be read as
  // this one's before the shell empties it.
  let name = URL(fileURLWithPath: fifo).lastPathComponent
  let source = directory.file(name + ".source")
  let errors = directory.file(name + ".stderr")
  write(Array(text.utf8), to: source)
  // `$1` the FIFO, `$2` the text to write to it, `$3` standard error, then the command.
  let script = """
    fifo=$1 source=$2 errors=$3; shift 3
    "$@" 2>"$errors" & pid=$!
    i=0
    while ! grep -q waiting "$errors" && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
    cat "$source" > "$fifo"
    wait $pid
    """
  var result = try run(
    "/bin/sh", ["-c", script, "sh", fifo, source, errors, rewindBinary] + arguments,
    environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
  result.stderr = String(decoding: bytes(of: errors), as: UTF8.self)
  return result
}

@Suite("Hostile input: odd files, paths and values given where rewind expects others")
struct HostileInputTests {
  @Test("import and record from a FIFO nobody writes to say they wait, then read what comes")
  func fifoWithoutWriter() throws {
    let directory = TemporaryDirectory()
    let events = try rewind("export", sample("day-menu.journal")).stdout
    let scenario = "tap 1\n+0.5s tap 2\n"
    for (command, text) in [("import", events), ("record", scenario)] {
      let fifo = directory.file("\(command).fifo")
      try #require(mkfifo(fifo, 0o644) == 0)
      let output = directory.file("\(command).journal")
      let result = try rewindReadingFIFO(
        [command, fifo, "-o", output], fifo: fifo, text: text, in: directory)
      #expect(result.status == 0, "\(command): \(result.stderr)")
      #expect(
        result.stderr
          == "note: \(fifo) is a named pipe (FIFO) and nothing was written to it yet; waiting for a program to write to it (Ctrl-C to stop)\n",
        "\(command)")
      #expect(FileManager.default.fileExists(atPath: output), "\(command)")
    }
  }

  @Test("an empty path is said to be one, never a file named by a bare colon")
  func emptyInputPath() throws {
    let directory = TemporaryDirectory()
    let message = "the path is empty: it names no file; give the path of a file"
    let day = sample("day-menu.journal")
    for arguments in [
      ["info", ""], ["log", ""], ["state", ""], ["export", ""],
      ["html", "", "-o", directory.file("page.html")], ["testgen", ""], ["recover", ""],
      ["find", "", "--where", "menu.selectedIndex == 1"], ["diff", day, ""],
      ["blame", "", "menu.selectedIndex"],
      ["record", "", "-o", directory.file("r.journal")],
    ] {
      let result = try rewind(arguments)
      #expect(result.stderr == "Error: \(message)\n", "\(arguments)")
      #expect(result.status == 1, "\(arguments)")
    }
    // verify says it in its place, on standard output.
    let verified = try rewind("verify", "", "--deep")
    #expect(verified.stdout == "UNREADABLE '': \(message)\n", "\(verified.stdout)")
    #expect(verified.stderr.isEmpty)
    #expect(verified.status == 1)
    let imported = try rewind("import", "", "-o", directory.file("i.journal"))
    #expect(imported.stderr == "Error: \(message); nothing was written\n")
    #expect(imported.status == 1)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
  }

  @Test("- given as a journal is refused as standard input, not called missing")
  func dashInput() throws {
    let directory = TemporaryDirectory()
    let day = sample("day-menu.journal")
    let journal =
      "- is not standard input here: a journal is read from a file; give its path (./- for a file named -)"
    for arguments in [
      ["info", "-"], ["log", "-"], ["state", "-"], ["diff", day + "@5", "-"],
      ["html", "-", "-o", directory.file("page.html")],
    ] {
      expectUsageError(try rewind(arguments), journal, command: arguments[0])
    }
    // (`record -` and `import -` read standard input: BadInputTests.standardInput.)
    // A journal before the @ is needed; its absence is a usage error naming the argument.
    expectUsageError(
      try rewind("diff", "@5", day + "@5"),
      "The value '@5' is invalid for '<journal>': no journal before the @; give JOURNAL@POINT",
      command: "diff")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    // A file named - is read as one.
    try FileManager.default.copyItem(atPath: day, toPath: directory.file("-"))
    let named = try run(
      rewindBinary, ["info", "-"], environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"],
      currentDirectory: directory.path)
    #expect(named.status == 0, "\(named.stderr)")
  }

  @Test(
    "a point that is nearly one says what is wrong with it",
    arguments: [
      (
        "+99999999999999999s",
        "'+99999999999999999s' is too large for an offset: offsets stop below 18,000,000,000,000,000,000us (570,000 years)"
      ),
      (
        "2026-11-30T07:30:00",
        "'2026-11-30T07:30:00' has no time zone: end an ISO-8601 time in Z (UTC) or ±hh:mm, e.g. 2026-11-30T07:30:00Z"
      ),
      (
        "-5",
        "'-5' is negative: the earliest point is 0 (or start), before any event; offsets count from +0s, the session's first moment"
      ),
      (
        "-2.5s",
        "'-2.5s' is negative: the earliest point is 0 (or start), before any event; offsets count from +0s, the session's first moment"
      ),
      // Zero with a sign is not negative (walk of the query commands, WQ-10).
      ("-0", "'-0' has a minus sign: the start is written 0 (or start), an offset from it +0s"),
      (
        "-0.0s",
        "'-0.0s' has a minus sign: the start is written 0 (or start), an offset from it +0s"
      ),
      // A time nearly ISO 8601 says what is wrong (walk of the query commands, WQ-8).
      (
        "2026-02-30T07:30:00Z",
        "expected a sequence number (1500), an offset (+12.5s, +250ms, +1h 30m), an ISO-8601 time, start, end or end-N (N events before the end); there is no day 30 in 2026-02, which has 28 days"
      ),
      (
        "2026-11-30T09:15:01+0100",
        "expected a sequence number (1500), an offset (+12.5s, +250ms, +1h 30m), an ISO-8601 time, start, end or end-N (N events before the end); a zone is written ±hh:mm: +01:00"
      ),
      (
        "2026-11-30T25:15:01Z",
        "expected a sequence number (1500), an offset (+12.5s, +250ms, +1h 30m), an ISO-8601 time, start, end or end-N (N events before the end); there is no hour 25 (00 to 23)"
      ),
      (
        "2026-11-30T09:15Z",
        "expected a sequence number (1500), an offset (+12.5s, +250ms, +1h 30m), an ISO-8601 time, start, end or end-N (N events before the end); a time has its seconds too: hh:mm:ss"
      ),
      (
        "2026-11-30T09:15:01,4Z",
        "expected a sequence number (1500), an offset (+12.5s, +250ms, +1h 30m), an ISO-8601 time, start, end or end-N (N events before the end); decimals of a second follow a point, not a comma"
      ),
    ])
  func nearlyAPoint(point: String, message: String) throws {
    let result = try rewind("state", sample("day-menu.journal"), "--at", point)
    #expect(result.status == 64)
    #expect(
      result.stderr.hasPrefix(
        "Error: The value '\(point)' is invalid for '--at <point>': \(message)\n"),
      "\(result.stderr)")
  }

  @Test(
    "-o at a symbolic link writes the file it leads to and keeps the link; one that leads where no file can be made is refused"
  )
  func linkOutput() throws {
    let directory = TemporaryDirectory()
    let day = sample("day-menu.journal")
    let files = FileManager.default
    for (name, arguments) in [
      ("x.jsonl", ["export", day]), ("x.html", ["html", day]),
      ("x.journal", ["generate", "--events", "3"]),
    ] {
      // To a folder that is not there: nothing to write into (walk of import/export, IO-8:
      // "the file exists", and --force replaced the link).
      let nowhere = directory.file("nowhere-" + name)
      try files.createSymbolicLink(atPath: nowhere, withDestinationPath: "gone/" + name)
      for force in [[], ["--force"]] {
        let refused = try rewind(arguments + ["-o", nowhere] + force)
        expectFailure(
          refused,
          containing:
            "\(nowhere) is a symbolic link that leads to \(directory.file("gone/" + name)), whose directory is not there: nothing was written"
        )
        #expect(try files.destinationOfSymbolicLink(atPath: nowhere) == "gone/" + name)
      }
      // To a file not made yet: made with --force only (nothing new appears through a link
      // without it, as with a shell's noclobber).
      let ahead = directory.file("ahead-" + name)
      try files.createSymbolicLink(atPath: ahead, withDestinationPath: "made-" + name)
      expectFailure(
        try rewind(arguments + ["-o", ahead]),
        containing:
          "\(ahead) is a symbolic link to \(directory.file("made-" + name)), which is not there; pass --force to write it there"
      )
      let made = try rewind(arguments + ["-o", ahead, "--force"])
      #expect(made.status == 0, "\(arguments): \(made.stderr)")
      #expect(try files.destinationOfSymbolicLink(atPath: ahead) == "made-" + name)
      // To a file that is there: kept without --force, replaced with it, the link kept
      // (--force replaced the link, and the file it led to stayed as it was).
      let target = directory.file("made-" + name)
      let before = bytes(of: target)
      let refused = try rewind(arguments + ["-o", ahead])
      // Named as the file it is (and the link, where the command checks it at once).
      expectFailure(refused, containing: "\(target)")
      expectFailure(refused, containing: ": the file exists; pass --force to replace it")
      write([UInt8](), to: target)
      let replaced = try rewind(arguments + ["-o", ahead, "--force"])
      #expect(replaced.status == 0, "\(arguments): \(replaced.stderr)")
      #expect(try files.destinationOfSymbolicLink(atPath: ahead) == "made-" + name)
      if arguments[0] == "export" { #expect(bytes(of: target) == before) }
      #expect(bytes(of: target).count > 0)
    }
    #expect(!files.fileExists(atPath: directory.file("gone")))
    // A link to a file in another folder: that file is written, nothing left beside it.
    let elsewhere = TemporaryDirectory()
    let far = elsewhere.file("far.jsonl")
    let toFar = directory.file("to-far.jsonl")
    try files.createSymbolicLink(atPath: toFar, withDestinationPath: far)
    #expect(try rewind("export", day, "-o", toFar, "--force").status == 0)
    #expect(bytes(of: far) == Array(try rewind("export", day).stdout.utf8))
    #expect(try files.contentsOfDirectory(atPath: elsewhere.path) == ["far.jsonl"])
    // Another user's link is not followed (root runs the tests here: nobody's link).
    if geteuid() == 0 {
      let planted = directory.file("planted.jsonl")
      try files.createSymbolicLink(atPath: planted, withDestinationPath: far)
      #expect(lchown(planted, 65534, 65534) == 0)
      expectFailure(
        try rewind("export", day, "-o", planted, "--force"),
        containing:
          "\(planted) is a symbolic link another user (uid 65534) made, which -o does not follow")
    }
  }

  @Test(
    "an import whose integer is not one a tab index can be says what it found",
    arguments: [
      (
        "123456789012345678901234567890",
        "menuTabTapped needs an integer \"index\", found 1.2345678901234568e+29, beyond the 64-bit integers (-2^63 to 2^63 - 1)"
      ),
      (
        "9223372036854775808",
        "menuTabTapped needs an integer \"index\", found 9.223372036854776e+18, beyond the 64-bit integers (-2^63 to 2^63 - 1)"
      ),
      ("1.5", "menuTabTapped needs an integer \"index\", found 1.5"),
      // Written with an exponent below 2^63 (walk of import/export, IO-4: "beyond the
      // 64-bit integers"), or from 2^53 on, where a double rounds (…993.0 read …992).
      (
        "9.2e18",
        "menuTabTapped needs an integer \"index\", found 9.2e+18, written with a decimal point or an exponent, which a double may have rounded from 2^53 on: write it as digits"
      ),
      (
        "9007199254740993.0",
        "menuTabTapped needs an integer \"index\", found 9007199254740992.0, written with a decimal point or an exponent, which a double may have rounded from 2^53 on: write it as digits"
      ),
      ("\"2\"", "menuTabTapped needs an integer \"index\", found a string"),
    ])
  func importedIndexOutOfRange(index: String, message: String) throws {
    let directory = TemporaryDirectory()
    let events = directory.file("events.jsonl")
    write(
      Array(
        """
        {"seq":1,"time_us":0,"event":"menuTabTapped","index":1}
        {"seq":2,"time_us":5,"event":"menuTabTapped","index":\(index)}

        """.utf8), to: events)
    let result = try rewind("import", events, "-o", directory.file("out.journal"))
    #expect(result.status == 1)
    #expect(result.stderr == "Error: \(events):2: \(message); nothing was written\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["events.jsonl"])
  }

  @Test("generate --seed out of 64 bits says which numbers a seed may be")
  func seedOutOfRange() throws {
    let directory = TemporaryDirectory()
    for seed in ["-1", "18446744073709551616", "1.5"] {
      let result = try rewind(
        "generate", "-o", directory.file("g.journal"), "--events", "3", "--seed", seed)
      #expect(result.status == 64)
      #expect(
        result.stderr.hasPrefix(
          "Error: The value '\(seed)' is invalid for '--seed <number>': expected a whole number from 0 to 18446744073709551615 (2^64 - 1)\n"
        ), "\(result.stderr)")
    }
  }

  @Test("-o - is refused, never a file named - in the working directory")
  func dashOutput() throws {
    let directory = TemporaryDirectory()
    let day = sample("day-menu.journal")
    for arguments in [
      ["export", day, "-o", "-"], ["testgen", day, "-o", "-"], ["html", day, "-o", "-"],
      ["generate", "--events", "3", "-o", "-"], ["recover", day, "-o", "-"],
    ] {
      let result = try run(
        rewindBinary, arguments, environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"],
        currentDirectory: directory.path)
      expectUsageError(
        result,
        "-o - is not standard output here; give the path of a file to write (./- for a file named -)",
        command: arguments[0])
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    let named = try run(
      rewindBinary, ["export", day, "-o", "./-"],
      environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], currentDirectory: directory.path)
    #expect(named.status == 0, "\(named.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["-"])
  }

  @Test("-o through a link to standard output (/dev/stdout) is refused, even with --force")
  func outputThroughStandardOutputLink() throws {
    let directory = TemporaryDirectory()
    let day = sample("day-menu.journal")
    let link = directory.file("stdout")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/stdout")
    for arguments in [
      ["export", day, "-o", link, "--force"], ["html", day, "-o", link, "--force"],
      ["generate", "--events", "3", "-o", link, "--force"], ["export", day, "-o", link],
      ["state", day, "--skip", "2", "-o", "/proc/self/fd/1", "--force"],
    ] {
      let result = try rewind(arguments)
      let name = arguments[arguments.firstIndex(of: "-o")! + 1]
      let what = name == link ? "leads to /proc/self/fd/1," : "is"
      expectUsageError(
        result,
        "-o \(name): \(what) a file this process has open (standard output, say), not a file in a folder; give the path of a file to write",
        command: arguments[0])
      #expect(result.stdout.isEmpty)
    }
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/dev/stdout")
  }

  @Test(
    "an -o that can never be the file written (a device, a directory, standard output, -) is a usage error naming -o, whatever the command, with --force too"
  )
  func unusableOutputPaths() throws {
    let directory = TemporaryDirectory()
    let day = sample("day-menu.journal")
    let events = directory.file("small.jsonl")
    #expect(try rewind("export", day, "-o", events).status == 0)
    let device =
      "is not a regular file (a device, pipe or socket); give the path of a file to write"
    let folder = "is a directory; give the path of a file to write"
    let open =
      "leads to /proc/self/fd/1, a file this process has open (standard output, say), not a file in a folder; give the path of a file to write"
    for (arguments, message) in [
      (["import", events, "-o", "/dev/null"], "-o /dev/null: \(device)"),
      (["import", events, "-o", "/dev/null", "--force"], "-o /dev/null: \(device)"),
      (["export", day, "-o", "/dev/null"], "-o /dev/null: \(device)"),
      (["generate", "--events", "3", "-o", "/dev/null"], "-o /dev/null: \(device)"),
      (["import", events, "-o", directory.path], "-o \(directory.path): \(folder)"),
      (["export", day, "-o", directory.path, "--force"], "-o \(directory.path): \(folder)"),
      (["html", day, "-o", directory.path], "-o \(directory.path): \(folder)"),
      (["recover", day, "-o", directory.path], "-o \(directory.path): \(folder)"),
      (["testgen", day, "-o", directory.path], "-o \(directory.path): \(folder)"),
      (["export", day, "-o", "/dev/stdout"], "-o /dev/stdout: \(open)"),
      (["import", events, "-o", "/dev/stdout"], "-o /dev/stdout: \(open)"),
      (
        ["export", day, "-o", "-"],
        "-o - is not standard output here; give the path of a file to write (./- for a file named -)"
      ),
    ] {
      let result = try rewind(arguments)
      expectUsageError(result, message, command: arguments[0])
    }
    // Nothing was written: the directory holds the events alone.
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["small.jsonl"])
  }

  @Test("-o in a directory that makes no files (/proc) never says the directory is missing")
  func directoryThatMakesNoFiles() throws {
    let result = try rewind("export", sample("day-menu.journal"), "-o", "/proc/rewind.jsonl")
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "Error: /proc/rewind.jsonl: cannot create the file (No such file or directory (errno 2))\n"
    )
  }

  @Test("a file of /proc given as a journal is not called empty")
  func procFileAsJournal() throws {
    for arguments in [["info", "/proc/self/status"], ["log", "/proc/self/status"]] {
      let result = try rewind(arguments)
      #expect(result.status == 1)
      #expect(
        result.stderr
          == "Error: /proc/self/status: the file says its size is 0 but holds bytes (a file of /proc or /sys), not a Rewind journal\n",
        "\(arguments)")
    }
    let directory = TemporaryDirectory()
    let empty = directory.file("empty.journal")
    write([], to: empty)
    let result = try rewind("info", empty)
    #expect(result.stderr == "Error: \(empty): the file is empty, not a Rewind journal\n")
  }

  @Test("a journal named with a newline exports and shrinks to a script that reads back")
  func scenarioOfJournalNamedWithNewline() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("day\nmenu.journal")
    write(bytes(of: sample("day-menu.journal")), to: journal)
    let escaped = directory.path + "/day\\u{A}menu.journal"
    let script = directory.file("day.scenario")
    let exported = try rewind("export", "--scenario", journal, "-o", script)
    #expect(exported.status == 0, "\(exported.stderr)")
    let text = String(decoding: bytes(of: script), as: UTF8.self)
    #expect(text.hasPrefix("# Exported from \(escaped)\n"), "\(text.prefix(200))")
    let recorded = try rewind("record", script, "-o", directory.file("re.journal"))
    #expect(recorded.status == 0, "\(recorded.stderr)")
    let same = try rewind("diff", journal, directory.file("re.journal"))
    #expect(same.stdout.hasPrefix("No differences"), "\(same.stdout)")
    let shrunk = try rewind(
      "shrink", journal, "--where", "menu.selectedIndex == 3", "-o", directory.file("s.journal"))
    #expect(shrunk.status == 0)
    #expect(shrunk.stdout.hasPrefix("# Shrunk from \(escaped): "), "\(shrunk.stdout)")
    #expect(!shrunk.stderr.contains("warning"), "\(shrunk.stderr)")
  }

  @Test(
    "testgen names a test after a journal named in any script, keeping its letters",
    arguments: [
      ("café-menu", "caféMenu"), ("日本", "日本"), ("day-menu", "dayMenu"), ("1", "test1"),
      ("class", "classTest"), ("Ünïcode menu", "ünïcodeMenu"),
    ])
  func testNameOfAnyScript(file: String, name: String) throws {
    let directory = TemporaryDirectory()
    let journal = directory.file(file + ".journal")
    write(bytes(of: sample("day-menu.journal")), to: journal)
    let result = try rewind("testgen", journal)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.contains("\n@Test func \(name)() throws {\n"), "\(result.stdout.prefix(400))")
  }

  @Test("a scenario's catalog that is a device, a FIFO or too large is refused at once")
  func hostileCatalogFile() throws {
    let directory = TemporaryDirectory()
    let fifo = directory.file("catalog.fifo")
    try #require(mkfifo(fifo, 0o644) == 0)
    let large = directory.file("large.json")
    write(Array(repeating: UInt8(ascii: "\n"), count: 9 << 20), to: large)
    let script = directory.file("s.scenario")
    for (catalog, problem) in [
      (
        "/dev/zero",
        "/dev/zero: is not a regular file (a device, pipe or socket), which a catalog file must be"
      ),
      (
        fifo,
        "\(fifo): is not a regular file (a device, pipe or socket), which a catalog file must be"
      ),
      (large, "\(large): is 9,437,184 bytes long; a catalog file holds at most 8 MiB"),
    ] {
      write(Array("catalog \(catalog)\ntap 1\n".utf8), to: script)
      // `timeout` ends a command that hangs (killed: status 9) instead of the test.
      let result = try run(
        "/usr/bin/timeout",
        ["-s", "KILL", "20", rewindBinary, "record", script, "-o", directory.file("s.journal")],
        environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
      #expect(result.status == 1, "\(catalog)")
      #expect(
        result.stderr == "Error: \(script):1:9: cannot read the catalog file: \(problem)\n",
        "\(catalog)")
    }
    #expect(!FileManager.default.fileExists(atPath: directory.file("s.journal")))
  }

  @Test("check names an empty path's failure with quotes, never a bare colon")
  func checkEmptyPath() throws {
    let day = sample("day-menu.journal")
    let result = try rewind("check", day, "")
    #expect(result.status == 1)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.contains("FAIL '': the path is empty: it names no file; give the path of a file"),
      "\(result.stdout)")
    #expect(lines.last == "1 passed, 1 failed")
  }

  @Test("check --expect from a FIFO nobody writes to says it waits, then checks what comes")
  func checkExpectFromFIFO() throws {
    let directory = TemporaryDirectory()
    let day = sample("day-menu.journal")
    let state = try rewind("state", day, "--json").stdout
    let fifo = directory.file("expected.fifo")
    try #require(mkfifo(fifo, 0o644) == 0)
    let result = try rewindReadingFIFO(
      ["check", day, "--expect", fifo], fifo: fifo, text: state, in: directory)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stderr
        == "note: \(fifo) is a named pipe (FIFO) and nothing was written to it yet; waiting for a program to write to it (Ctrl-C to stop)\n"
    )
  }

  @Test(
    "a sequence number that is not one, or too large, is named in state's edits",
    arguments: [
      (
        ["--skip", "99999999999999999999999"], "--skip <seq,...>",
        "'99999999999999999999999' is too large for a sequence number (the largest is 18446744073709551615)"
      ),
      (
        ["--skip", "3,5-7"], "--skip <seq,...>",
        "'5-7' is not a sequence number; expected sequence numbers separated by commas, e.g. 12,40"
      ),
      (
        ["--skip", "3,,4"], "--skip <seq,...>",
        "no sequence number; expected sequence numbers separated by commas, e.g. 12,40"
      ),
      (
        ["--insert", #"99999999999999999999:{"event":"backTapped"}"#], "--insert <seq:event>",
        "'99999999999999999999' is too large for a sequence number (the largest is 18446744073709551615)"
      ),
      (
        ["--replace", #"x:{"event":"backTapped"}"#], "--replace <seq:event>",
        #"'x' is not a sequence number; expected SEQ:EVENT, a sequence number, a colon and the event's JSON, e.g. 3:{"event":"backTapped"}"#
      ),
    ])
  func editSequenceNumbers(arguments: [String], option: String, message: String) throws {
    let result = try rewind(["state", sample("day-menu.journal")] + arguments)
    expectUsageError(
      result, "The value '\(arguments[1])' is invalid for '\(option)': \(message)",
      command: "state")
  }
}
