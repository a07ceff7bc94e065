import TestSupport
import Testing

@Suite("The command line: help, version and usage errors")
struct HelpAndUsageTests {
  static let commands = [
    "record", "generate", "import", "export", "info", "log", "state", "diff", "blame", "find",
    "check", "verify", "recover", "upgrade", "live", "html",
  ]

  @Test("rewind help and rewind --help list every command")
  func rootHelp() throws {
    for arguments in [["help"], ["--help"], ["-h"]] {
      let result = try rewind(arguments)
      #expect(result.status == 0)
      #expect(result.stderr.isEmpty)
      #expect(result.stdout.hasPrefix("OVERVIEW: Record, replay, inspect and test"))
      #expect(result.stdout.contains("USAGE: rewind <subcommand>"))
      #expect(result.stdout.contains("SUBCOMMANDS:"))
      for command in Self.commands {
        #expect(result.stdout.contains("\n  \(command) "), "\(command) missing from help")
      }
      #expect(result.stdout.contains("See 'rewind help <subcommand>' for detailed help."))
    }
  }

  @Test("every command has help, by help CMD and CMD --help alike", arguments: commands)
  func commandHelp(command: String) throws {
    let viaHelp = try rewind("help", command)
    let viaFlag = try rewind(command, "--help")
    #expect(viaHelp.status == 0 && viaFlag.status == 0)
    #expect(viaHelp.stdout == viaFlag.stdout)
    #expect(viaFlag.stdout.hasPrefix("OVERVIEW: "))
    #expect(viaFlag.stdout.contains("USAGE: rewind \(command)"))
    #expect(viaFlag.stdout.contains("OPTIONS:"))
    #expect(viaFlag.stdout.contains("-h, --help"))
  }

  @Test(
    "every help text fits in 80 columns, its usage too, no code, example or parameter is broken across lines, and no line ends where the next one's first word would fit"
  )
  func helpLayout() throws {
    let root = try rewind("--help")
    // The commands: the lines of SUBCOMMANDS up to the empty line that ends them.
    let listed = root.stdout.split(separator: "\n", omittingEmptySubsequences: false)
      .drop { $0 != "SUBCOMMANDS:" }.dropFirst().prefix { !$0.isEmpty }
      .compactMap { line in
        line.hasPrefix("  ") && line.dropFirst(2).first != " "
          ? line.split(separator: " ").first.map(String.init) : nil
      }
    #expect(listed.count >= 20, "\(listed)")
    var texts = [
      ("rewind --help", root.stdout), ("help conditions", try rewind("help", "conditions").stdout),
      ("help scenario", try rewind("help", "scenario").stdout),
      ("help points", try rewind("help", "points").stdout),
    ]
    for command in listed {
      texts.append(("\(command) --help", try rewind(command, "--help").stdout))
    }
    for (name, text) in texts {
      for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        #expect(line.count <= 80, "\(name): \(line.count) columns: \(line)")
        // A code span (`rewind verify`) or a bracketed example ([{"from": N, "to": M}])
        // ends on the line it starts on.
        #expect(line.filter { $0 == "`" }.count % 2 == 0, "\(name): \(line)")
        var depth = 0
        for character in line {
          if character == "{" || character == "[" { depth += 1 }
          if character == "}" || character == "]" { depth -= 1 }
          if depth < 0 { break }
        }
        #expect(depth == 0, "\(name): \(line)")
      }
      for problem in Self.linesBrokenEarly(text) { Issue.record("\(name): \(problem)") }
    }
  }

  /// The lines of a help text that end where the next line's first word (or code span)
  /// would have fitted in 80 columns: a paragraph's line at the margin (but a heading, a
  /// line ending with a colon, and a line before JSON or a list item), or a table
  /// cell's line of a few words followed by more of the cell. A hard line break left in a
  /// paragraph's source wraps each of its lines apart ("Scenario" alone on a line).
  static func linesBrokenEarly(_ text: String) -> [String] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    func indent(_ line: String) -> Int { line.prefix { $0 == " " }.count }
    /// A table's row: a term, then two spaces or more, then its text.
    func isRow(_ line: String) -> Bool {
      line.drop { $0 == " " }.contains("  ")
    }
    /// Where a line's text starts: a row's after its term (an option's first line, whose
    /// next lines are indented to its text), another's at its indent.
    func textColumn(_ line: String) -> Int {
      guard isRow(line), let gap = line.drop(while: { $0 == " " }).firstRange(of: "  ") else {
        return indent(line)
      }
      return line.distance(
        from: line.startIndex, to: line[gap.lowerBound...].firstIndex { $0 != " " }!)
    }
    func firstUnit(_ line: String) -> String {
      let text = line.drop { $0 == " " }
      if text.hasPrefix("`") || text.hasPrefix("(`"),
        let close = text.dropFirst(2).firstIndex(of: "`")
      {
        return String(text[...close]) + text[text.index(after: close)...].prefix { $0 != " " }
      }
      return String(text.prefix { $0 != " " })
    }
    var problems: [String] = []
    var inExample = false
    for (line, next) in zip(lines, lines.dropFirst()) {
      if !line.isEmpty, indent(line) == 0, line == line.uppercased(),
        line.contains(where: \.isLetter)
      {
        inExample = line.hasPrefix("EXAMPLE")
      }
      guard !inExample, !line.isEmpty, !next.isEmpty, textColumn(line) == indent(next),
        !isRow(next), line.count + 1 + firstUnit(next).count <= 80
      else { continue }
      let content = line.drop { $0 == " " }
      // A paragraph at any indent (an option's text, a table cell's lines), but a
      // heading, a line before JSON, a list item or a usage's next options; a hand-wrapped
      // cell (the topics') may end a few columns short of 80.
      let paragraph =
        line != line.uppercased() && !line.hasSuffix(":")
        && !"{[-".contains(next.drop { $0 == " " }.first!)
        && (indent(line) == 0 || line.count + 1 + firstUnit(next).count <= 72)
      let shortCell = indent(line) > 0 && content.count < 20
      if paragraph || shortCell { problems.append("'\(line)' then '\(next)'") }
    }
    return problems
  }

  @Test(
    "rewind help lists every topic; help scenario (or scripts, script) describes the script language, and its example records; help points the points (help scenario and help points were unknown subcommands)"
  )
  func helpTopics() throws {
    let root = try rewind("help").stdout
    let topics = root.split(separator: "\n", omittingEmptySubsequences: false)
      .drop { $0 != "HELP TOPICS:" }.dropFirst().prefix { !$0.isEmpty }
      .compactMap { line in
        line.hasPrefix("  ") && line.dropFirst(2).first != " "
          ? line.split(separator: " ").first.map(String.init) : nil
      }
    #expect(topics == ["conditions", "scenario", "points"], "\(root)")
    // Each topic listed is one `rewind help` prints.
    for topic in topics { #expect(try rewind("help", topic).status == 0, "\(topic)") }
    let help = try rewind("help", "scenario")
    #expect(help.status == 0)
    #expect(help.stdout.hasPrefix("SCENARIO SCRIPTS\n"))
    // Its other names, as a user may guess them.
    #expect(try rewind("help", "scripts").stdout == help.stdout)
    #expect(try rewind("help", "script").stdout == help.stdout)
    for word in [
      "layout three-column|two-column", "select category", "expect rejected", "settings JSON",
      "rotate portrait|landscape",
    ] {
      #expect(help.stdout.contains(word), "\(word)")
    }
    let record = try rewind("help", "record").stdout
    #expect(record.contains("'rewind help scenario'"), "\(record)")
    #expect(!record.contains("README"))
    // The example, as a user would copy it: it records, its expect line holding.
    let example = help.lines.drop { $0 != "EXAMPLE" }.dropFirst().map { String($0.dropFirst(4)) }
    try #require(example.count >= 5)
    let directory = TemporaryDirectory()
    write(example.joined(separator: "\n") + "\n", to: directory.file("example.scenario"))
    let recorded = try rewind(
      "record", directory.file("example.scenario"), "-o", directory.file("example.journal"))
    #expect(recorded.status == 0, "\(recorded.stderr)")
    #expect(recorded.stdout.hasPrefix("Recorded 4 events (0 rejected)"), "\(recorded.stdout)")
    // The points: every form, and the commands and places that take them.
    let points = try rewind("help", "points")
    #expect(points.status == 0)
    for word in ["1500", "+12.5s", "2026-11-30T12:40:04Z", "start", "end-N", "--from", "@"] {
      #expect(points.stdout.contains(word), "\(word)")
    }
    // A near miss of a topic is suggested, as a command's is.
    expectUsageError(
      try rewind("help", "point"),
      "Unknown subcommand or help topic 'point'. Did you mean 'points'?",
      command: nil)
  }

  @Test(
    "rewind help says the exit statuses every command shares; a command's help only its own"
  )
  func exitStatuses() throws {
    let root = try rewind("help").stdout
    let section = root.split(separator: "\n", omittingEmptySubsequences: false)
      .drop { $0 != "EXIT STATUS:" }.joined(separator: "\n")
    #expect(section.hasPrefix("EXIT STATUS:\n  0       Success."), "\(root)")
    for line in ["\n  1       A failure: a check that did not pass;", "\n  64      A usage error:"]
    {
      #expect(section.contains(line), "\(line): \(section)")
    }
    // The words, however the lines wrap them.
    let flat = section.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    for words in [
      "a file missing, unreadable or damaged", "of several files, any that failed",
      "an -o that is a directory, a device, standard output",
      "empty for a test, or too long for a page or a test",
      "A command's help gives the statuses of its own",
    ] {
      #expect(flat.contains(words), "\(words): \(section)")
    }
    // A command's own lines, and none of the shared ones again.
    let own: [(String, [String])] = [
      (
        "diff",
        [
          "  0       With --exit-code:", "  1       With --exit-code:",
          "  2       With --exit-code:",
        ]
      ),
      ("check", ["  1       Any journal fails"]),
      ("verify", ["  1       Any journal is damaged"]),
      ("find", ["  0       Also when nothing matches"]),
      ("html", ["  64      Also when the part asked for holds more than 200,000 events"]),
      (
        "testgen",
        [
          "  1       Also when the session has no events",
          "  64      Also when the range holds no event, or more than 10,000",
        ]
      ),
      (
        "upgrade",
        [
          "  0       Also when the journal is already of the current schema",
          "  1       Also when the journal cannot be upgraded",
        ]
      ),
      ("live", ["  128+N   A signal N ended it"]),
      ("play", ["  128+N   A signal N ended it"]),
      ("push", ["  1       Any journal was not pushed"]),
    ]
    for (command, lines) in own {
      let help = try rewind(command, "--help").stdout
      #expect(help.contains("\nEXIT STATUS:\n"), "\(command)")
      for line in lines { #expect(help.contains("\n" + line), "\(command): \(line)\n\(help)") }
      #expect(!help.contains("A usage error:"), "\(command)")
    }
    // A command with no status of its own has no section.
    #expect(!(try rewind("state", "--help").stdout.contains("EXIT STATUS")))
  }

  @Test("--version prints the version")
  func version() throws {
    let result = try rewind("--version")
    #expect(result.status == 0)
    #expect(result.stdout == "0.1.0\n")
  }

  @Test("an unknown command suggests the near one")
  func unknownCommand() throws {
    expectUsageError(
      try rewind("stat", sample("day-menu.journal")),
      "Unknown subcommand 'stat'. Did you mean 'state'?", command: nil)
    expectUsageError(try rewind("frobnicate"), "Unknown subcommand 'frobnicate'", command: nil)
  }

  @Test(
    "an option a command does not have but its default does gets a hint: find --first (was 'Unknown option' alone)"
  )
  func hintsForAbsentOptions() throws {
    let journal = sample("ipad-three-column.journal")
    for spelling in ["--first", "--first=1"] {
      expectUsageError(
        try rewind("find", journal, "--where", "changed(split.style)", spelling),
        "Unknown option '--first': find shows the first match by default; --last for the last, --all for every one",
        command: "find")
    }
    // Another command's unknown option is as it was.
    expectUsageError(
      try rewind("log", journal, "--first"), "Unknown option '--first'", command: "log")
  }

  @Test("usage errors name the problem, show the usage and exit 64")
  func usageErrors() throws {
    let journal = sample("day-menu.journal")
    expectUsageError(
      try rewind("log", journal, "--frm", "3"), "Unknown option '--frm'. Did you mean '--from'?",
      command: "log")
    expectUsageError(try rewind("state"), "Missing expected argument '<journal>'", command: "state")
    expectUsageError(
      try rewind("state", journal, "--at"), "Missing value for '--at <point>'", command: "state")
    expectUsageError(
      try rewind("state", journal, "--at", "soon"),
      "The value 'soon' is invalid for '--at <point>': expected a sequence number (1500), an offset (+12.5s, +250ms, +1h 30m), an ISO-8601 time, start, end or end-N (N events before the end)",
      command: "state")
    let beyond = try rewind("state", journal, "--at", "99")
    expectUsageError(
      beyond,
      "The value '99' is invalid for '--at <point>': event 99 is beyond the end of the session (points are 0–25)",
      command: "state")
    // Found wrong against the session, the value's option is helped as the parser helps it.
    #expect(beyond.stderr.contains("\nHelp:  --at <point>  The point in the session.\n"))
    expectUsageError(
      try rewind("state", journal, "extra"), "Unexpected argument 'extra'", command: "state")
    // Digits grouped by threes with one mark, or not at all (1,00 was 100).
    for count in ["many", "1,00", ",100", "10,0,0", "1,000_000", "1,000,", "+,100", "+100", "-5"] {
      expectUsageError(
        try rewind("generate", "-o", "/tmp/x.journal", "--events", count),
        "The value '\(count)' is invalid for '--events <count>': expected a number of events from 1 to 10,000,000,000 (written 1000000, 1,000,000 or 1_000_000)",
        command: "generate")
    }
    let directory = TemporaryDirectory()
    for (count, events) in [("1,200", 1_200), ("1_200", 1_200), ("1200", 1_200), ("12", 12)] {
      let generated = try rewind(
        "generate", "-o", directory.file("g.journal"), "--events", count, "--force", "--json")
      #expect(try parseObject(generated.stdout)["events"] as? Int == events, "\(count)")
    }
    // Every count is written so: a snapshot interval, a window, a limit.
    let grouped = try rewind(
      "generate", "-o", directory.file("i.journal"), "--events", "3,000", "--snapshot-interval",
      "1,024", "--force")
    #expect(grouped.status == 0, "\(grouped.stderr)")
    #expect(try rewind("info", directory.file("i.journal")).stdout.contains("(every 1,024 events)"))
    let window = try rewind("diff", journal, journal, "--align", "--window", "1_024")
    #expect(window.status == 0, "\(window.stderr)")
    expectUsageError(
      try rewind("diff", journal, journal, "--align", "--window", "1,02"),
      "The value '1,02' is invalid for '--window <events>': expected a whole number of events, 1 or more",
      command: "diff")
    expectUsageError(
      try rewind("generate", "-o", "/tmp/x.journal", "--events", "5", "--snapshot-interval", "1,0"),
      "The value '1,0' is invalid for '--snapshot-interval <events>': expected a number of events from 1 to 1,073,741,824",
      command: "generate")
    expectUsageError(
      try rewind("log", journal, "--type", "tapped"),
      "The value 'tapped' is invalid for '--type <kind>': the event kinds are menuTabTapped, menuScrolled, menuViewportResized, categorySelected, itemSelected, itemExpanded, itemCollapsed, columnVisibilityChanged, splitStyleChanged, sizeClassChanged, orientationChanged, backTapped",
      command: "log")
    // An empty one of a list (a comma at its end): said as such.
    expectUsageError(
      try rewind("log", journal, "--type", "itemSelected,"),
      "The value '' is invalid for '--type <kind>': no event kind (an empty one between commas, or a comma at an end); the event kinds are menuTabTapped, menuScrolled, menuViewportResized, categorySelected, itemSelected, itemExpanded, itemCollapsed, columnVisibilityChanged, splitStyleChanged, sizeClassChanged, orientationChanged, backTapped",
      command: "log")
    expectUsageError(
      try rewind("blame", journal, "split.selectedIten"),
      "The value 'split.selectedIten' is invalid for '<path>': 'split.selectedIten' is not a state field; the fields are menu.labels, menu.selectedIndex, menu.scrollOffset, menu.viewportWidth, split.layout, split.selectedCategory, split.selectedItem, split.expanded, split.columnVisibility, split.style, split.sizeClass, split.orientation, split.compactColumn, split.visibleColumns, split.overlay. Did you mean 'split.selectedItem'?",
      command: "blame")
    expectUsageError(
      try rewind("find", journal, "--where", "menu.selectedIndex"),
      "The value 'menu.selectedIndex' is invalid for '--where <condition>': at column 1: menu.selectedIndex is not a boolean (it holds an integer), so it is no condition alone: compare it, e.g. menu.selectedIndex == …",
      command: "find")
    expectUsageError(
      try rewind("log", journal, "--from", "10", "--to", "5"),
      "--from 10 is after --to 5; give the earlier point first", command: "log")
  }

  @Test("colour only on a terminal: piped output has no escape codes")
  func noColourWhenPiped() throws {
    for environment in [[:], ["NO_COLOR": "1"], ["TERM": "xterm-256color"]] {
      let result = try rewind(
        ["log", sample("rejected-interactions.journal")], environment: environment)
      #expect(result.status == 0)
      #expect(!result.stdout.contains("\u{1B}["))
    }
  }
}
