import Foundation
import TestSupport
import Testing

/// The sorted names in a directory.
private func listing(_ path: String) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
}

/// Runs `rewind` with writes limited to `blocks` of 512 bytes per file (`ulimit -f`) and
/// `SIGXFSZ` ignored: a write past the limit fails with `EFBIG`, as one fails on a full
/// disk, without needing a small file system.
private func rewindOnFullDisk(blocks: Int, _ arguments: [String]) throws -> ProcessResult {
  let script = "trap '' XFSZ; ulimit -f \(blocks) && exec \"$0\" \"$@\""
  return try run(
    "/bin/sh", ["-c", script, rewindBinary] + arguments,
    environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
}

/// Runs `rewind` as a user whom permissions stop: this one, or `nobody` (`setpriv`) when
/// the tests run as root, who writes into any directory.
private func rewindAsUnprivilegedUser(_ arguments: [String], currentDirectory: String? = nil)
  throws -> ProcessResult
{
  let environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
  guard getuid() == 0 else {
    return try run(
      rewindBinary, arguments, environment: environment, currentDirectory: currentDirectory)
  }
  return try run(
    "/usr/bin/setpriv",
    ["--reuid=65534", "--regid=65534", "--clear-groups", rewindBinary] + arguments,
    environment: environment, currentDirectory: currentDirectory)
}

@Suite("File safety: text inputs, import validation, atomic outputs, inputs never overwritten")
struct FileSafetyTests {
  // MARK: One text reader

  @Test("a scenario with CRLF line ends and a byte-order mark records every line")
  func crlfScenario() throws {
    let directory = TemporaryDirectory()
    let script = directory.file("crlf.scenario")
    write("# c\r\ntap 1\r\n", to: script)
    let output = directory.file("crlf.journal")
    let result = try rewind("record", script, "-o", output)
    #expect(result.stdout == "Recorded 1 event (0 rejected) over 0.0s to \(output)\n")
    let bom = directory.file("bom.scenario")
    write("\u{FEFF}layout two-column\r\nselect category Grinders\r\n+1s tap 2\r\n", to: bom)
    let recorded = try rewind("record", bom, "-o", directory.file("bom.journal"), "--json")
    #expect(try parseObject(recorded.stdout)["events"] as? Int == 2)
    let state = try parseObject(try rewind("state", directory.file("bom.journal"), "--json").stdout)
    #expect((state["split"] as? [String: Any])?["layout"] as? String == "twoColumn")
  }

  @Test("JSON Lines and expected states with CRLF line ends and a byte-order mark are read")
  func crlfInputs() throws {
    let directory = TemporaryDirectory()
    let events = directory.file("events.jsonl")
    write(
      "\u{FEFF}{\"seq\":1,\"time_us\":0,\"event\":\"categorySelected\",\"id\":\"grinders\"}\r\n"
        + "{\"seq\":2,\"time_us\":10,\"event\":\"menuTabTapped\",\"index\":3}\r\n", to: events)
    let journal = directory.file("events.journal")
    #expect(try rewind("import", events, "-o", journal).status == 0)
    let expected = directory.file("expected.json")
    let state = try rewind("state", journal, "--json").stdout
    write("\u{FEFF}" + state.replacingOccurrences(of: "\n", with: "\r\n"), to: expected)
    let check = try rewind("check", journal, "--expect", expected)
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
  }

  @Test("NUL bytes and invalid UTF-8 are refused with the file, line and column")
  func refusedBytes() throws {
    let directory = TemporaryDirectory()
    let script = directory.file("nul.scenario")
    write(Array("tap 1\ntap\u{0}2\n".utf8), to: script)
    let output = directory.file("out.journal")
    expectFailure(
      try rewind("record", script, "-o", output),
      containing: "\(script):2: a NUL byte at column 4; this is not a text file")
    let events = directory.file("bad.jsonl")
    write(
      Array("{\"seq\":1,\"time_us\":0,\"event\":\"back".utf8) + [0xFF] + Array("\"}\n".utf8),
      to: events)
    expectFailure(
      try rewind("import", events, "-o", output),
      containing:
        "\(events):1: invalid UTF-8 at column 35 (byte 0xFF); the file must be UTF-8 text; nothing was written"
    )
    let expected = directory.file("expected.json")
    write(Array("{\n\u{0}}\n".utf8), to: expected)
    expectFailure(
      try rewind("check", sample("day-menu.journal"), "--expect", expected),
      containing: "\(expected):2: cannot read the expected state: a NUL byte at column 1")
    #expect(listing(directory.path) == ["bad.jsonl", "expected.json", "nul.scenario"])

    // A journal given where a script or JSON Lines are read: said to be one.
    let journal = sample("two-column.journal")
    expectFailure(
      try rewind("record", journal, "-o", output),
      containing:
        "\(journal) is a journal, not a scenario script: `rewind export --scenario \(journal)` writes its script"
    )
    expectFailure(
      try rewind("import", journal, "-o", output),
      containing:
        "\(journal) is a journal already, not JSON Lines: `rewind export` writes its events as JSON Lines; nothing was written"
    )
    #expect(listing(directory.path) == ["bad.jsonl", "expected.json", "nul.scenario"])

    // JSON Lines given for a scenario script: said to be, with the command that takes them.
    let lines = directory.file("export.jsonl")
    _ = try rewind("export", journal, "-o", lines)
    expectFailure(
      try rewind("record", lines, "-o", output),
      containing:
        "; it reads as JSON Lines, as `rewind export` writes: `rewind import \(lines) -o \(directory.file("export.journal"))` makes a journal of it\n"
    )
    // The same after blank lines.
    let spaced = directory.file("spaced.jsonl")
    write(Array("\n  \n".utf8) + bytes(of: lines), to: spaced)
    expectFailure(
      try rewind("record", spaced, "-o", output),
      containing:
        "; it reads as JSON Lines, as `rewind export` writes: `rewind import \(spaced) -o ")
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  // MARK: import validation

  @Test(
    "import refuses a bad line with the file, the line and what is wrong",
    arguments: [
      (
        #"{"seq":1,"time_us":-5,"event":"backTapped"}"#,
        #"events.jsonl:1: "time_us" is -5; a time is microseconds since the session's start, never negative"#
      ),
      (
        #"{"seq":1,"time_us":9223372036854775808,"event":"backTapped"}"#,
        #"events.jsonl:1: "time_us" is 9.223372036854776e+18, beyond the largest time a journal holds (2^63 − 1 µs)"#
      ),
      (
        #"{"seq":99999999999999999999999999,"time_us":0,"event":"backTapped"}"#,
        #"events.jsonl:1: "seq" is about 1e+26, too large for a sequence number (64 bits), expected 1 (seq counts from 1 without gaps)"#
      ),
      (
        #"{"seq":1.5,"time_us":0,"event":"backTapped"}"#,
        #"events.jsonl:1: "seq" must be an integer, found 1.5 (seq counts from 1 without gaps)"#
      ),
      (
        "{\"seq\":1,\"time_us\":0,\"event\":\"backTapped\"}\n{\"header\":{\"domain\":\"navigation\"}}",
        #"events.jsonl:2: a header line after events; the header ({"header": …}) may only be the first line"#
      ),
      (
        #"{"seq":1,"time_us":0,"event":"categorySelected","id":"grinders","colour":"red"}"#,
        #"events.jsonl:1: unknown key "colour" in the event "categorySelected"; its keys are seq, time_us, event, id"#
      ),
      (
        "{\"header\":{\"snapshotInterval\":64,\"colour\":\"red\"}}",
        #"events.jsonl:1: unknown key "colour" in the header; its keys are domain, schemaVersion, session, start, device, snapshotInterval, parent, settings"#
      ),
      (
        "\n{\"header\":{\"snapshotInterval\":0}}",
        #"events.jsonl:2: the header's "snapshotInterval" must be a whole number of events from 1 to 1073741824, found 0"#
      ),
      (
        "{\"header\":{\"snapshotInterval\":-1}}",
        "events.jsonl:1: the header's \"snapshotInterval\""
      ),
      (
        "{\"header\":{\"snapshotInterval\":\"x\"}}",
        "events.jsonl:1: the header's \"snapshotInterval\""
      ),
      (
        "{\"header\":{\"snapshotInterval\":1.5}}",
        "events.jsonl:1: the header's \"snapshotInterval\""
      ),
      (
        "{\"header\":{\"snapshotInterval\":2e9}}",
        "events.jsonl:1: the header's \"snapshotInterval\""
      ),
      (
        "{\"header\":{\"domain\":\"checkout\"}}",
        "events.jsonl:1: the session's domain 'checkout' is not one this rewind knows ('navigation')"
      ),
    ])
  func importErrors(content: String, message: String) throws {
    let directory = TemporaryDirectory()
    let input = directory.file("events.jsonl")
    write(content + "\n{\"seq\":1,\"time_us\":0,\"event\":\"backTapped\"}\n", to: input)
    let output = directory.file("out.journal")
    let result = try rewind("import", input, "-o", output)
    expectFailure(result, containing: "\(directory.path)/\(message)")
    #expect(result.stderr.hasSuffix("; nothing was written\n"), "\(result.stderr)")
    #expect(listing(directory.path) == ["events.jsonl"])
  }

  @Test("import accepts blank lines, and --snapshot-interval wins over the header's")
  func importAccepts() throws {
    let directory = TemporaryDirectory()
    let input = directory.file("events.jsonl")
    write(
      "\n{\"header\":{\"snapshotInterval\":7}}\n\n"
        + "{\"seq\":1,\"time_us\":0,\"event\":\"backTapped\"}\n  \n\t\n"
        + "{\"seq\":2,\"time_us\":5,\"event\":\"menuTabTapped\",\"index\":2}\n\n", to: input)
    let fromHeader = directory.file("header.journal")
    #expect(try rewind("import", input, "-o", fromHeader).stdout.hasPrefix("Imported 2 events"))
    #expect(
      try parseObject(try rewind("info", fromHeader, "--json").stdout)["snapshotInterval"] as? Int
        == 7)
    let fromOption = directory.file("option.journal")
    #expect(try rewind("import", input, "-o", fromOption, "--snapshot-interval", "3").status == 0)
    #expect(
      try parseObject(try rewind("info", fromOption, "--json").stdout)["snapshotInterval"] as? Int
        == 3)
    let help = try rewind("import", "--help").stdout
    #expect(
      help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        .contains(
          "(default: the header's snapshotInterval, else 1024); given, it wins over the header"))
  }

  // MARK: Atomic outputs

  @Test("a journal that is no regular file (a FIFO, a pipe, a device) is refused at once")
  func notARegularFile() throws {
    let directory = TemporaryDirectory()
    // A FIFO nobody writes to: opening it to read would wait for a writer forever.
    let fifo = directory.file("fifo.journal")
    try #require(mkfifo(fifo, 0o644) == 0)
    for path in [fifo, "/dev/zero"] {
      for arguments in [
        ["info", path], ["log", path], ["verify", path, "--deep"], ["recover", path],
        ["export", path], ["html", path, "-o", directory.file("page.html")],
      ] {
        // `timeout` ends a command that hangs (killed: status 9) instead of the test; with SIGKILL,
        // since the test runner starts processes with the other signals blocked.
        let result = try run(
          "/usr/bin/timeout", ["-s", "KILL", "20", rewindBinary] + arguments,
          environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        let said = "\(path): is not a regular file (a device, pipe or socket), not a journal file\n"
        // verify says it in its place, on standard output.
        if arguments[0] == "verify" {
          #expect(result.stdout == "UNREADABLE " + said, "\(arguments)")
          #expect(result.stderr.isEmpty)
        } else {
          #expect(result.stderr == "Error: " + said, "\(arguments)")
          #expect(result.stdout.isEmpty)
        }
        #expect(result.status == 1, "\(arguments)")
      }
    }
    let check = try run(
      "/usr/bin/timeout", ["-s", "KILL", "20", rewindBinary, "check", fifo],
      environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
    #expect(check.status == 1)
    #expect(
      check.stdout.hasPrefix("FAIL \(fifo): is not a regular file"), "\(check.stdout)")
    #expect(listing(directory.path) == ["fifo.journal"])
  }

  @Test("a missing directory is named in the error, never a temporary file")
  func missingDirectory() throws {
    let directory = TemporaryDirectory()
    let events = directory.file("events.jsonl")
    write("{\"seq\":1,\"time_us\":0,\"event\":\"backTapped\"}\n", to: events)
    let imported = try run(
      rewindBinary, ["import", "events.jsonl", "-o", "nodir/x.journal"],
      environment: ["PATH": "/usr/bin:/bin"], currentDirectory: directory.path)
    #expect(imported.status == 1)
    #expect(
      imported.stderr
        == "Error: nodir/x.journal: cannot create the file: there is no directory nodir (No such file or directory (errno 2))\n"
    )
    let exported = try rewind(
      "export", sample("day-menu.journal"), "-o", directory.file("missing/day.jsonl"))
    expectFailure(
      exported,
      containing:
        "\(directory.file("missing/day.jsonl")): cannot create the file: there is no directory")
    // Said before the work: pull before it connects, generate before it generates.
    let pulled = try rewind(
      "pull", "6f0c", "--server", "nats://127.0.0.1:1", "-o", directory.file("missing/p.journal"))
    expectFailure(
      pulled,
      containing:
        "\(directory.file("missing/p.journal")): cannot create the file: there is no directory")
    expectUsageError(
      try rewind("pull", "", "--server", "nats://127.0.0.1:1", "-o", directory.file("p.journal")),
      "the session's id is empty; give it, or its unique beginning", command: "pull")
    let generated = try rewind(
      "generate", "--events", "100000000", "-o", directory.file("missing/g.journal"))
    expectFailure(
      generated,
      containing:
        "\(directory.file("missing/g.journal")): cannot create the file: there is no directory")
    for result in [imported, exported, pulled, generated] {
      #expect(!result.stderr.contains(".tmp") && !result.stderr.contains("importing"))
    }
    #expect(listing(directory.path) == ["events.jsonl"])
  }

  @Test("an argument that is not UTF-8 is refused, never read as another file's name")
  func nonUTF8Argument() throws {
    let directory = TemporaryDirectory()
    // 'café' in Latin-1 (é is the byte 0xE9): the shell passes the bytes as they are.
    for command in [
      "exec \"$0\" generate -o \"$(printf 'caf\\351.journal')\" --events 3",
      "exec \"$0\" info \"$(printf 'caf\\351.journal')\"",
    ] {
      let result = try run(
        "/bin/sh", ["-c", command, rewindBinary],
        environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], currentDirectory: directory.path)
      #expect(result.status == 64)
      #expect(
        result.stderr
          == "Error: the argument 'caf\\xE9.journal' is not UTF-8 text; rewind reads its arguments, paths included, as UTF-8\n"
      )
      #expect(result.stdout.isEmpty)
    }
    // generate wrote no file under a name it made up ('caf\u{FFFD}.journal').
    #expect(listing(directory.path).isEmpty)
  }

  /// One file name that is not UTF-8 among several journals (a glob over a directory
  /// that holds one) refused the whole run: check and verify say it in its place, as a
  /// journal that cannot be read, and read the others.
  @Test("check and verify fail a journal whose path is not UTF-8 in its place, and read the others")
  func nonUTF8JournalAmongSeveral() throws {
    let directory = TemporaryDirectory()
    let first = directory.file("a.journal")
    let last = directory.file("b.journal")
    try FileManager.default.copyItem(atPath: sample("day-menu.journal"), toPath: first)
    try FileManager.default.copyItem(atPath: sample("two-column.journal"), toPath: last)
    // 'été' in Latin-1 (é is the byte 0xE9), made and named by the shell.
    let odd = "\"$(printf '\\351t\\351.journal')\""
    func shell(_ command: String) throws -> ProcessResult {
      try run(
        "/bin/sh", ["-c", command, rewindBinary],
        environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], currentDirectory: directory.path)
    }
    #expect(try shell("cp a.journal \(odd)").status == 0)
    let name = "\\xE9t\\xE9.journal"
    let reason =
      "the path is not UTF-8 text, and rewind reads its arguments, paths included, as UTF-8: it cannot open the file (rename it to read it)"

    let checked = try shell("exec \"$0\" check a.journal \(odd) b.journal --jobs 1")
    #expect(checked.status == 1, "\(checked.stderr)")
    #expect(checked.lines.first?.hasPrefix("PASS a.journal: ") == true, "\(checked.stdout)")
    #expect(checked.lines.contains("FAIL \(name): \(reason)"), "\(checked.stdout)")
    #expect(checked.lines.contains { $0.hasPrefix("PASS b.journal: ") }, "\(checked.stdout)")
    #expect(checked.lines.last == "2 passed, 1 failed")
    let json = try parseObject(
      try shell("exec \"$0\" check a.journal \(odd) b.journal --json --jobs 2").stdout)
    let entries = try #require(json["journals"] as? [[String: Any]])
    #expect(entries.map { $0["path"] as? String } == ["a.journal", name, "b.journal"])
    #expect(entries.map { $0["passed"] as? Bool } == [true, false, true])
    #expect(entries[1]["error"] as? String == "\(name): \(reason)")
    #expect(json["failed"] as? Int == 1)

    let verified = try shell("exec \"$0\" verify a.journal \(odd) b.journal")
    #expect(verified.status == 1, "\(verified.stderr)")
    #expect(verified.lines.count == 4, "\(verified.stdout)")
    #expect(verified.lines[1] == "UNREADABLE \(name): \(reason)", "\(verified.stdout)")
    #expect(verified.lines.last == "2 journals whole, 1 not")
    let reports = try verifyReports(
      try shell("exec \"$0\" verify a.journal \(odd) b.journal --json").stdout)
    #expect(reports.map { $0["path"] as? String } == ["a.journal", name, "b.journal"])
    #expect(reports.map { $0["ok"] as? Bool } == [true, false, true])

    // As an option's value it is refused, as every other command refuses it.
    let expected = try shell("exec \"$0\" check a.journal --expect \(odd)")
    #expect(expected.status == 64)
    #expect(
      expected.stderr.hasPrefix(
        "Error: the argument '\(name)' is not UTF-8 text; rewind reads its arguments, paths included, as UTF-8\n"
      ), "\(expected.stderr)")
  }

  @Test("an empty output path is a usage error that says so, and nothing is written")
  func emptyOutputPath() throws {
    let directory = TemporaryDirectory()
    let journal = sample("day-menu.journal")
    for (command, arguments) in [
      ("generate", ["generate", "-o", "", "--events", "10"]),
      ("record", ["record", sample("day-menu.scenario"), "-o", ""]),
      ("export", ["export", journal, "--output", ""]), ("recover", ["recover", journal, "-o", ""]),
      ("html", ["html", journal, "-o", ""]), ("testgen", ["testgen", journal, "-o", ""]),
      ("state", ["state", journal, "--skip", "3", "-o", ""]),
    ] {
      let result = try run(
        rewindBinary, arguments, environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"],
        currentDirectory: directory.path)
      expectUsageError(
        result, "the output path (-o) is empty; give the path of a file to write", command: command)
    }
    #expect(listing(directory.path).isEmpty)
  }

  @Test(
    "export, testgen and shrink say a wrong range or condition before a file already there (--force asked for only then)"
  )
  func wrongArgumentsBeforeExistingOutput() throws {
    let journal = sample("day-menu.journal")
    let directory = TemporaryDirectory()
    let output = directory.file("there")
    try Data("kept\n".utf8).write(to: URL(fileURLWithPath: output))
    for command in ["export", "testgen"] {
      let wrong = try rewind(command, journal, "--from", "10", "--to", "5", "-o", output)
      #expect(wrong.status == 64, "\(command): \(wrong.stderr)")
      #expect(wrong.stderr.hasPrefix("Error: --from 10 is after --to 5"), "\(wrong.stderr)")
      let outside = try rewind(command, journal, "--to", "99", "-o", output)
      #expect(outside.stderr.contains("99"), "\(command): \(outside.stderr)")
      #expect(!outside.stderr.contains("the file exists"), "\(command): \(outside.stderr)")
      // A right range meets the file, which is kept.
      expectFailure(
        try rewind(command, journal, "--to", "5", "-o", output),
        containing: "\(output): the file exists; pass --force to replace it")
    }
    let condition = try rewind("shrink", journal, "--where", "menu.selectedIndx == 3", "-o", output)
    #expect(condition.status == 64, "\(condition.stderr)")
    #expect(condition.stderr.contains("Did you mean 'menu.selectedIndex'?"), "\(condition.stderr)")
    expectFailure(
      try rewind("shrink", journal, "--where", "menu.selectedIndex == 3", "-o", output),
      containing: "\(output): the file exists; pass --force to replace it")
    #expect(try String(contentsOfFile: output, encoding: .utf8) == "kept\n")
  }

  @Test("--force without -o is a usage error where -o is optional and standard output the default")
  func forceWithoutOutput() throws {
    let journal = sample("day-menu.journal")
    for (command, arguments) in [
      ("export", ["export", journal, "--force"]), ("testgen", ["testgen", journal, "--force"]),
      ("shrink", ["shrink", journal, "--where", "menu.selectedIndex == 3", "--force"]),
      ("state", ["state", journal, "--force"]),
    ] {
      expectUsageError(try rewind(arguments), "--force applies to -o", command: command)
    }
  }

  /// A directory the user cannot write to is named, with what could not be created in
  /// it: the file, or the new file that replaces the journal `recover` repairs in place
  /// (`torn.journal: cannot create the file`, of a file that is there, left the directory
  /// to be guessed). Run as `nobody` when the tests run as root, whom permissions do not
  /// stop.
  @Test("writing into a read-only directory fails, naming the directory, and leaves nothing")
  func readOnlyDirectory() throws {
    let directory = TemporaryDirectory()
    let locked = directory.file("locked")
    try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
    let torn = locked + "/torn.journal"
    let whole = bytes(of: sample("day-menu.journal"))
    write(Array(whole.prefix(whole.count * 3 / 4)), to: torn)
    // The journal may be written, its directory not.
    chmod(torn, 0o666)
    chmod(locked, 0o555)
    defer { chmod(locked, 0o755) }
    let output = locked + "/out.file"
    let cannotWrite = "the directory \(locked) cannot be written to (Permission denied"
    for arguments in [
      ["record", sample("day-menu.scenario"), "-o", output],
      ["generate", "-o", output, "--events", "100"],
      ["export", sample("day-menu.journal"), "-o", output],
      ["export", torn, "-o", output],
    ] {
      // After the torn journal's warning, for its export.
      let result = try rewindAsUnprivilegedUser(arguments)
      #expect(result.status == 1)
      #expect(
        result.stderr.contains("Error: \(output): cannot create the file: \(cannotWrite)"),
        "\(result.stderr)")
    }
    let recovered = try rewindAsUnprivilegedUser(["recover", torn])
    expectFailure(
      recovered,
      containing:
        "\(torn): cannot create the new file that replaces it (written beside it first): \(cannotWrite)"
    )
    // A relative path's directory, the working one, is said as such.
    let here = try rewindAsUnprivilegedUser(
      ["export", "torn.journal", "-o", "out.jsonl"], currentDirectory: locked)
    #expect(here.status == 1)
    #expect(
      here.stderr.contains(
        "Error: out.jsonl: cannot create the file: the working directory cannot be written to (Permission denied"
      ), "\(here.stderr)")
    #expect(listing(locked) == ["torn.journal"])
    #expect(bytes(of: torn) == Array(whole.prefix(whole.count * 3 / 4)))
  }

  @Test(
    "on a full disk each writing command fails whole: the previous file stays, nothing is left",
    arguments: ["record", "generate", "import", "export"], [false, true])
  func fullDisk(command: String, replacing: Bool) throws {
    let directory = TemporaryDirectory()
    let scenario = directory.file("long.scenario")
    // 20,000 events that compress to about 8 KB.
    write(
      (0..<10_000).map { "scroll \($0 * 37 % 997).5\n+0.3s tap \($0 % 7)\n" }.joined(),
      to: scenario)
    let journal = directory.file("long.journal")
    #expect(try rewind("generate", "-o", journal, "--events", "50000").status == 0)
    let events = directory.file("long.jsonl")
    #expect(try rewind("export", journal, "-o", events).status == 0)
    let output = directory.file("out.file")
    let previous = Array("the previous file\n".utf8)
    if replacing { write(previous, to: output) }
    let before = listing(directory.path)
    var arguments: [String]
    switch command {
    case "record": arguments = ["record", scenario, "-o", output]
    case "generate": arguments = ["generate", "-o", output, "--events", "200000"]
    case "import": arguments = ["import", events, "-o", output]
    default: arguments = ["export", journal, "-o", output]
    }
    if replacing { arguments.append("--force") }
    // 5 KiB per file: room for a journal's header, not for the events; 512 bytes: not for
    // the header either (which said "at byte 0" of the new file).
    for blocks in [10, 1] {
      let result = try rewindOnFullDisk(blocks: blocks, arguments)
      #expect(!result.signalled)
      expectFailure(result, containing: "\(output): ")
      #expect(result.stderr.contains("File too large"), "\(result.stderr)")
      // It says what became of the destination, and names no place in the new file (as if
      // a file of the user's were damaged there).
      #expect(
        result.stderr.hasSuffix(
          replacing ? "; the previous file is left as it was\n" : "; nothing is written there\n"),
        "\(result.stderr)")
      #expect(!result.stderr.contains("at byte"), "\(result.stderr)")
      #expect(listing(directory.path) == before)
      if replacing { #expect(bytes(of: output) == previous) }
    }
  }

  @Test("generate --force that fails keeps the old journal whole")
  func generateForceKeepsOld() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("old.journal")
    #expect(try rewind("generate", "-o", journal, "--events", "1000", "--seed", "1").status == 0)
    let old = bytes(of: journal)
    let result = try rewindOnFullDisk(
      blocks: 40, ["generate", "-o", journal, "--events", "300000", "--seed", "2", "--force"])
    expectFailure(result, containing: "\(journal): ")
    // The error says what became of the journal, not that events wait to be written.
    #expect(
      result.stderr.contains(
        "(File too large (errno 27)); the journal is not written; the previous file is left as it was"
      ),
      "\(result.stderr)")
    #expect(!result.stderr.contains("stay buffered"))
    #expect(bytes(of: journal) == old)
    #expect(try rewind("verify", journal).status == 0)
    #expect(listing(directory.path) == ["old.journal"])
  }

  // MARK: Inputs are never outputs

  /// Three names of one file: itself, a symbolic link to it, a hard link to it.
  private func names(of path: String, in directory: TemporaryDirectory) throws -> [String] {
    let symbolic = directory.file("symbolic-" + (path as NSString).lastPathComponent)
    let hard = directory.file("hard-" + (path as NSString).lastPathComponent)
    try FileManager.default.createSymbolicLink(atPath: symbolic, withDestinationPath: path)
    try FileManager.default.linkItem(atPath: path, toPath: hard)
    return [path, symbolic, hard]
  }

  /// Checks that the command refused with exit 64, naming the output and the input, and
  /// that the input is as it was.
  private func expectRefused(
    _ result: ProcessResult, output: String, input: String, bytes before: [UInt8],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(result.status == 64, "\(result.stderr)", sourceLocation: sourceLocation)
    let first = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
    #expect(
      first.hasPrefix(
        "Error: -o \(output): the output would overwrite the input \(input) (the same file"),
      "\(first)", sourceLocation: sourceLocation)
    #expect(bytes(of: input) == before, "the input changed", sourceLocation: sourceLocation)
  }

  @Test("export, import, record and recover refuse to write over an input, by any name")
  func selfOverwrite() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("self.journal")
    #expect(try rewind("record", sample("day-menu.scenario"), "-o", journal).status == 0)
    let events = directory.file("self.jsonl")
    #expect(try rewind("export", journal, "-o", events).status == 0)
    let script = directory.file("self.scenario")
    write("tap 1\ntap 2\n", to: script)
    let journalBytes = bytes(of: journal)
    let eventBytes = bytes(of: events)
    let scriptBytes = bytes(of: script)
    for output in try names(of: journal, in: directory) {
      expectRefused(
        try rewind("export", journal, "-o", output, "--force"), output: output, input: journal,
        bytes: journalBytes)
      expectRefused(
        try rewind("recover", journal, "-o", output), output: output, input: journal,
        bytes: journalBytes)
    }
    for output in try names(of: events, in: directory) {
      expectRefused(
        try rewind("import", events, "-o", output, "--force"), output: output, input: events,
        bytes: eventBytes)
    }
    for output in try names(of: script, in: directory) {
      expectRefused(
        try rewind("record", script, "-o", output, "--force"), output: output, input: script,
        bytes: scriptBytes)
    }
    // A file the script reads is an input too.
    let catalog = directory.file("teas.json")
    write(
      #"{"menuLabels":["One","Two"],"categories":[{"name":"Teas","image":"teas"}]}"#, to: catalog)
    let teas = directory.file("teas.scenario")
    write("catalog \(catalog)\ntap Two\n", to: teas)
    expectRefused(
      try rewind("record", teas, "-o", catalog, "--force"), output: catalog, input: catalog,
      bytes: bytes(of: catalog))
    // Nothing else was written.
    #expect(
      listing(directory.path) == [
        "hard-self.journal", "hard-self.jsonl", "hard-self.scenario", "self.journal",
        "self.jsonl", "self.scenario", "symbolic-self.journal", "symbolic-self.jsonl",
        "symbolic-self.scenario", "teas.json", "teas.scenario",
      ])
  }

  // MARK: Nothing left behind

  @Test("a batch of commands leaves nothing in the temporary directory")
  func temporaryDirectory() throws {
    let directory = TemporaryDirectory()
    let temporary = directory.file("tmp")
    try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
    let environment = ["TMPDIR": temporary]
    func rewindHere(_ arguments: String...) throws -> ProcessResult {
      try rewind(arguments, environment: environment)
    }
    let journal = directory.file("a.journal")
    let events = directory.file("a.jsonl")
    #expect(
      try rewindHere("record", sample("ipad-three-column.scenario"), "-o", journal).status == 0)
    #expect(try rewindHere("generate", "-o", journal, "--events", "20000", "--force").status == 0)
    #expect(try rewindHere("export", journal, "-o", events).status == 0)
    #expect(try rewindHere("import", events, "-o", journal, "--force").status == 0)
    #expect(try rewindHere("recover", journal).status == 0)
    #expect(try rewindHere("check", journal).status == 0)
    #expect(try rewindHere("verify", journal).status == 0)
    #expect(try rewindHere("import", directory.file("missing.jsonl"), "-o", journal).status == 1)
    #expect(listing(temporary).isEmpty)
  }
}
