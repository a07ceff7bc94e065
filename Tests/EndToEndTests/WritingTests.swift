import Foundation
import TestSupport
import Testing

@Suite("Writing sessions: record, generate, import, export")
struct WritingTests {
  @Test("record runs a scenario script into a journal, and never overwrites silently")
  func record() throws {
    let directory = TemporaryDirectory()
    let output = directory.file("ipad.journal")
    let result = try rewind("record", sample("ipad-three-column.scenario"), "-o", output)
    #expect(result.status == 0)
    #expect(result.stdout == "Recorded 32 events (0 rejected) over 1m 07.1s to \(output)\n")
    let state = try rewind("state", output, "--json")
    let expected = try String(
      contentsOfFile: sample("ipad-three-column.state.json"), encoding: .utf8)
    #expect(state.stdout == expected)
    expectFailure(
      try rewind("record", sample("ipad-three-column.scenario"), "-o", output),
      containing: "\(output): the file exists; pass --force to replace it")
    let forced = try rewind(
      "record", sample("iphone-compact.scenario"), "-o", output, "--force", "--json")
    let json = try parseObject(forced.stdout)
    #expect(json["events"] as? Int == 20)
    #expect(json["rejected"] as? Int == 2)
  }

  @Test("record says the rejected count as every count is said, with a thousands separator")
  func rejectedCountGrouped() throws {
    let directory = TemporaryDirectory()
    let script = directory.file("back.scenario")
    // On a regular width there is no back button: every tap on it is rejected.
    write(
      "layout three-column\n" + String(repeating: "+0.1s back\n", count: 1_200), to: script)
    let output = directory.file("back.journal")
    let result = try rewind("record", script, "-o", output)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout == "Recorded 1,200 events (1,200 rejected) over 2m 00.0s to \(output)\n",
      "\(result.stdout)")
  }

  @Test("a scenario error names the file, line and column, and writes nothing")
  func scenarioError() throws {
    let directory = TemporaryDirectory()
    let script = directory.file("bad.scenario")
    write("layout three-column\ntap Monday\n+0.5s select item Teapot\n", to: script)
    let output = directory.file("bad.journal")
    let result = try rewind("record", script, "-o", output)
    expectFailure(
      result,
      containing:
        "\(script):3:19: nothing in the catalog is called 'Teapot'; write its id (e.g. espresso-machines/leva) or id:TEXT for an id the catalog lacks"
    )
    #expect(!FileManager.default.fileExists(atPath: output))
    // A name or an interaction misspelt: the one most likely meant.
    write("tap Monday\nselect category Grinder\n", to: script)
    expectFailure(
      try rewind("record", script, "-o", output),
      containing:
        "\(script):2:17: nothing in the catalog is called 'Grinder'; write its id (e.g. espresso-machines/leva) or id:TEXT for an id the catalog lacks. Did you mean 'Grinders'?"
    )
    write("tap Monday\nselct category grinders\n", to: script)
    expectFailure(
      try rewind("record", script, "-o", output),
      containing: "found 'selct'. Did you mean 'select'?")
    expectFailure(
      try rewind("record", directory.file("missing.scenario"), "-o", output),
      containing: "missing.scenario: cannot read the scenario script")
    // A device line longer than a journal holds, at its line and column.
    write("device " + String(repeating: "é", count: 2_049) + "\nback\n", to: script)
    let device = try rewind("record", script, "-o", output)
    #expect(
      device.stderr
        == "Error: \(script):1:8: the device is 4,098 bytes long; a journal holds at most 4,096\n")
    #expect(device.status == 1)
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  #if os(Linux)
    @Test(
      "record reads a script as it comes: a named pipe's first lines are recorded before it ends")
    func recordStreams() throws {
      let directory = TemporaryDirectory()
      let fifo = directory.file("script.fifo")
      try #require(mkfifo(fifo, 0o644) == 0)
      let first = directory.file("first.scenario")
      let rest = directory.file("rest.scenario")
      // 20,000 lines (about 170 KB, more than a batch), then the script's last lines.
      write(
        "start 2026-11-30T09:00:00Z\n"
          + (0..<10_000).map { "scroll \($0 % 997).5\n+0.3s tap \($0 % 7)\n" }.joined(),
        to: first)
      write("select category Grinders\nexpect split.selectedCategory == grinders\n", to: rest)
      let journals = directory.file("out")
      try FileManager.default.createDirectory(atPath: journals, withIntermediateDirectories: false)
      let output = journals + "/s.journal"
      // `$1` the FIFO, `$2` and `$3` the script's two parts, `$4` the output's directory,
      // then the command. The first part is written and the pipe kept open until the
      // command has a file open in the output's directory (the journal it writes, unnamed
      // until it is complete), for at most 20 s; then the rest, and the pipe is closed.
      let script = """
        fifo=$1 first=$2 rest=$3 journals=$4; shift 4
        "$@" & pid=$!
        exec 3>"$fifo"
        cat "$first" >&3
        i=0
        while ! ls -l /proc/$pid/fd 2>/dev/null | grep -q "$journals/" && [ $i -lt 200 ]; do
          sleep 0.1; i=$((i + 1))
        done
        ls -l /proc/$pid/fd 2>/dev/null | grep -q "$journals/" && echo "writing before the script ended" >&2
        cat "$rest" >&3
        exec 3>&-
        wait $pid
        """
      let result = try run(
        "/bin/sh",
        [
          "-c", script, "sh", fifo, first, rest, journals, rewindBinary, "record", fifo, "-o",
          output,
        ],
        environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stderr == "writing before the script ended\n")
      #expect(
        result.stdout == "Recorded 20,001 events (0 rejected) over 2h 13m 20.0s to \(output)\n")
    }
  #endif

  @Test("generate is reproducible byte for byte for the same seed")
  func generate() throws {
    let directory = TemporaryDirectory()
    let first = directory.file("a.journal")
    let second = directory.file("b.journal")
    let other = directory.file("c.journal")
    let result = try rewind("generate", "-o", first, "--events", "50000", "--seed", "9")
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("Generated 50,000 events ("))
    #expect(result.stderr.isEmpty, "no progress bar when stderr is not a terminal")
    _ = try rewind("generate", "-o", second, "--events", "50000", "--seed", "9")
    _ = try rewind("generate", "-o", other, "--events", "50000", "--seed", "10")
    #expect(bytes(of: first) == bytes(of: second))
    #expect(bytes(of: first) != bytes(of: other))
    let json = try parseObject(
      try rewind("generate", "-o", other, "--events", "1000", "--seed", "3", "--force", "--json")
        .stdout)
    #expect(json["events"] as? Int == 1_000)
    #expect(try rewind("check", first).status == 0)
  }

  @Test("export writes JSON Lines that import reads back into the same session")
  func exportImport() throws {
    let directory = TemporaryDirectory()
    let exported = directory.file("ipad.jsonl")
    let export = try rewind("export", sample("ipad-three-column.journal"), "-o", exported)
    #expect(export.status == 0)
    let lines = try String(contentsOfFile: exported, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 33)
    let header = try parseObject(String(lines[0]))
    #expect((header["header"] as? [String: Any])?["domain"] as? String == "navigation")
    let first = try parseObject(String(lines[1]))
    #expect(first["seq"] as? Int == 1)
    #expect(first["time_us"] as? Int == 0)
    #expect(first["event"] as? String == "categorySelected")
    #expect(first["id"] as? String == "espresso-machines")

    let imported = directory.file("imported.journal")
    let result = try rewind("import", exported, "-o", imported)
    #expect(result.status == 0)
    #expect(result.stdout == "Imported 32 events from \(exported) to \(imported)\n")
    let again = try rewind("export", imported)
    #expect(again.stdout == (try String(contentsOfFile: exported, encoding: .utf8)))
    #expect(
      try rewind("state", imported, "--json").stdout
        == (try String(contentsOfFile: sample("ipad-three-column.state.json"), encoding: .utf8)))

    let partial = try rewind("export", sample("ipad-three-column.journal"), "--from", "20")
    #expect(partial.lines.count == 13)
    #expect(partial.lines[1].hasPrefix("{\"seq\":21,"))
    // A range export does not import: the error says what it looks like.
    let range = directory.file("range.jsonl")
    write(partial.stdout, to: range)
    let refused = try rewind("import", range, "-o", directory.file("range.journal"))
    #expect(refused.status == 1)
    #expect(
      refused.stderr.contains(
        "range.jsonl:2: \"seq\" is 21, expected 1: a session starts at event 1; this looks like the events after 20 that `rewind export --from 20` writes"
      ))
    #expect(!FileManager.default.fileExists(atPath: directory.file("range.journal")))
  }

  @Test("import without a header uses the sample catalog")
  func importWithoutHeader() throws {
    let directory = TemporaryDirectory()
    let input = directory.file("events.jsonl")
    write(
      """
      {"seq": 1, "time_us": 250000, "event": "categorySelected", "id": "grinders"}
      {"seq": 2, "time_us": 900000, "event": "itemSelected", "id": "grinders/vulcano"}
      {"seq": 3, "time_us": 900000, "event": "menuTabTapped", "index": 12}

      {"seq": 4, "time_us": 1500000, "event": "itemSelected", "id": null}
      """, to: input)
    let output = directory.file("events.journal")
    #expect(try rewind("import", input, "-o", output).status == 0)
    let log = try rewind("log", output)
    #expect(log.lines.count == 4)
    #expect(
      log.lines[2].hasSuffix("rejected: tab index 12 is out of range: the menu has 7 tabs, 0 to 6"))
  }

  @Test(
    "import rejects a bad line with its number and what is wrong, and writes nothing",
    arguments: [
      (
        "{\"seq\": 1, \"time_us\": 0, \"event\": \"backTapped\"}\n{\"seq\": 3, \"time_us\": 5, \"event\": \"backTapped\"}",
        "events.jsonl:2: \"seq\" is 3, expected 2 (seq counts from 1 without gaps)"
      ),
      (
        "{\"seq\": 1, \"time_us\": 50, \"event\": \"backTapped\"}\n{\"seq\": 2, \"time_us\": 5, \"event\": \"backTapped\"}",
        "events.jsonl:2: \"time_us\" 5 is before the previous event's 50"
      ),
      (
        "{\"seq\": 1, \"time_us\": 0, \"event\": \"teleported\"}",
        "events.jsonl:1: unknown event kind \"teleported\""
      ),
      (
        "{\"seq\": 1, \"time_us\": 0, \"event\": \"menuScroled\", \"offset\": 3}",
        "events.jsonl:1: unknown event kind \"menuScroled\" (did you mean \"menuScrolled\"?); the kinds are menuTabTapped,"
      ),
      (
        "{\"seq\": 1, \"time_us\": 0, \"event\": \"categorySelected\", \"idd\": \"grinders\"}",
        "events.jsonl:1: categorySelected needs an \"id\": a string, or null to clear (\"idd\" is given: did you mean \"id\"?)"
      ),
      (
        "{\"seq\": 1, \"time_us\": 0, \"evnt\": \"backTapped\"}",
        "events.jsonl:1: an event needs a string \"event\" naming its kind (\"evnt\" is given: did you mean \"event\"?)"
      ),
      (
        "{\"seq\": 1, \"time_us\": 0, \"event\": \"menuScrolled\", \"offset\": 3, \"ofset\": 4}",
        "events.jsonl:1: unknown key \"ofset\" in the event \"menuScrolled\""
      ),
      (
        "{\"seq\": 1, \"time_us\": 0, \"event\": \"menuTabTapped\"}",
        "events.jsonl:1: menuTabTapped needs an integer \"index\""
      ),
      (
        "{\"seq\": 1, \"time_us\": 0, \"event\": \"backTapped\"\n",
        "events.jsonl:1: not JSON: column 47: expected ',' or '}' in an object, found the end of the text"
      ),
      ("[1, 2]", "events.jsonl:1: expected a JSON object"),
      (
        "{\"time_us\": 0, \"event\": \"backTapped\"}",
        "events.jsonl:1: missing \"seq\" (an integer); the line's members are \"time_us\", \"event\""
      ),
      // A member named otherwise shows among the line's.
      (
        "{\"seq\": 1, \"time\": 0, \"event\": \"backTapped\"}",
        "events.jsonl:1: missing \"time_us\" (microseconds since the session's start, a whole number ≥ 0) (\"time\" is given: did you mean \"time_us\"?); the line's members are \"seq\", \"time\", \"event\"; nothing was written"
      ),
      ("{}", "events.jsonl:1: missing \"seq\" (an integer); the line is an empty object"),
    ])
  func importErrors(content: String, message: String) throws {
    let directory = TemporaryDirectory()
    let input = directory.file("events.jsonl")
    write(content, to: input)
    let output = directory.file("out.journal")
    let result = try rewind("import", input, "-o", output)
    expectFailure(result, containing: message)
    #expect(result.stderr.contains("nothing was written"))
    #expect(!FileManager.default.fileExists(atPath: output))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["events.jsonl"])
  }
}
