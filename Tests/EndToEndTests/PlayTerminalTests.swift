import Foundation
import Navigation
import RewindCore
import RewindJournal
import TestSupport
import Testing

/// `rewind play` in a real terminal: tmux (``Tmux``) runs the built binary, the tests
/// send keys and clicks, read the screen, and check what `r` wrote with `rewind info`
/// and `rewind log`.
@Suite("rewind play in tmux", .enabled(if: Tmux.isAvailable, "tmux is not installed"))
struct PlayTerminalTests {
  let journal = sample("iphone-compact.journal")

  /// Records at `path` the events `events` makes for the domain of `catalog` (the sample
  /// catalog when nil), a millisecond apart.
  private func record(
    at path: String, catalog: Catalog? = nil,
    _ events: (NavigationDomain) throws -> [NavigationEvent]
  ) throws {
    let domain = catalog.map { NavigationDomain(catalog: $0) } ?? NavigationDomain()
    let recorder = try JournalRecorder.create(
      at: path, domain: domain, session: SessionInfo(startTime: 0, device: "test"))
    for (index, event) in try events(domain).enumerated() {
      _ = try recorder.record(event, at: UInt64(index + 1) * 1_000)
    }
    try recorder.close()
  }

  @Test("steps, a find, a skip and a resize show on the screen; q quits and restores the terminal")
  func scrub() throws {
    let directory = TemporaryDirectory()
    let terminal = try Tmux(
      script: "\"$REWIND\" play '\(journal)'", in: directory.path, columns: 120, rows: 32)
    defer { terminal.kill() }
    var screen = try terminal.waitFor("event 0 of 20")
    #expect(terminal.alternateScreen)
    #expect(screen.contains("rewind play"))
    #expect(screen.contains("Initial state"))
    #expect(screen.contains("Monday"))
    terminal.send("Right", "Right", "Right")
    screen = try terminal.waitUntil("three steps") {
      $0.contains("event 3 of 20") && $0.contains("Event 3 changed")
    }
    #expect(screen.contains("State after event 3"))
    #expect(screen.contains(" 3   +4.500s  backTapped"))
    #expect(screen.contains("split.selectedItem: \"grinders/swift\" → null"))
    // Find: the next point where the column is the sidebar again.
    terminal.send("/")
    terminal.type("split.compactColumn == sidebar")
    try terminal.waitFor("find: split.compactColumn == sidebar")
    terminal.send("Enter")
    screen = try terminal.waitUntil("the match") {
      $0.contains("event 6 of 20") && $0.contains("at event 6")
    }
    #expect(screen.contains("split.compactColumn == \"sidebar\" at event 6"))
    // Skip event 6 (the back to the sidebar): a counterfactual, later events flagged.
    terminal.send("x")
    screen = try terminal.waitUntil("the skip") {
      $0.contains("COUNTERFACTUAL") && $0.contains("Skipping event 6.")
    }
    #expect(screen.contains("WITHOUT event 6 (counterfactual)"))
    #expect(screen.contains("skipped"))
    #expect(screen.contains("skipping 6"))
    // Narrower: the panel goes under the state.
    terminal.resize(columns: 80, rows: 26)
    screen = try terminal.waitUntil("the narrow layout") { screen in
      screen.split(separator: "\n").contains { $0.hasPrefix("┌ Events") }
        && screen.contains("event 6 of 20")
    }
    #expect(screen.split(separator: "\n").allSatisfy { TerminalText.width($0) <= 80 })
    #expect(screen.contains("COUNTERFACTUAL"))
    // Too small: the size it needs; larger again: the player.
    terminal.resize(columns: 50, rows: 12)
    try terminal.waitFor("Make it at least 60×16")
    terminal.resize(columns: 120, rows: 32)
    try terminal.waitUntil("the wide layout") {
      $0.contains("event 6 of 20") && $0.contains("┐┌ Events")
    }
    terminal.send("q")
    try terminal.waitFor("DONE 0")
    #expect(!terminal.alternateScreen)
    try terminal.waitFor(Tmux.prompt.trimmingCharacters(in: .whitespaces))
  }

  @Test(
    "pasted text goes into a prompt as typed, a line break as a space; outside one it does nothing")
  func paste() throws {
    let directory = TemporaryDirectory()
    let terminal = try Tmux(
      script: "\"$REWIND\" play '\(journal)'", in: directory.path, columns: 120, rows: 32)
    defer { terminal.kill() }
    try terminal.waitFor("event 0 of 20")
    // Outside a prompt: neither x (skip) nor q (quit) acts.
    terminal.paste("xq\n")
    var screen = try terminal.waitFor("Pasted text goes into a prompt only")
    #expect(screen.contains("event 0 of 20") && !screen.contains("COUNTERFACTUAL"))
    // In the find prompt: the text, its line break a space, and nothing submitted.
    terminal.send("/")
    try terminal.waitFor("find:")
    terminal.paste("split.compactColumn\n== sidebar")
    screen = try terminal.waitFor("find: split.compactColumn == sidebar")
    #expect(screen.contains("event 0 of 20"))
    terminal.send("Enter")
    try terminal.waitUntil("the match") { $0.contains("event 6 of 20") }
    terminal.send("q")
    try terminal.waitFor("DONE 0")
  }

  @Test(
    "Ctrl-Z and SIGTSTP put the terminal back and stop the player; fg takes it again, keys work"
  )
  func suspendAndResume() throws {
    let directory = TemporaryDirectory()
    // A shell with job control, as a user's: it stops the job and continues it with fg.
    let terminal = try Tmux(
      script: "PS1='job$ ' exec bash --norc --noprofile -i", in: directory.path, columns: 120,
      rows: 32)
    defer { terminal.kill() }
    try terminal.waitFor("job$")
    terminal.type("\"$REWIND\" play '\(journal)'")
    terminal.send("Enter")
    try terminal.waitFor("event 0 of 20")
    let program = try #require(terminal.programIDs().first)
    /// Whether the program is stopped (`T` in /proc/PID/stat, after the command's name).
    func stopped() -> Bool {
      guard let stat = try? String(contentsOfFile: "/proc/\(program)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return false }
      return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("T")
    }
    for (round, stop) in ["C-z", "SIGTSTP", "SIGSTOP"].enumerated() {
      switch stop {
      case "C-z": terminal.send("C-z")
      case "SIGTSTP": kill(program, SIGTSTP)
      default: kill(program, SIGSTOP)
      }
      let screen = try terminal.waitUntil("\(stop) stops the player") {
        stopped() && $0.contains("Stopped")
      }
      // The player put the terminal back before it stopped (SIGSTOP gives it no chance).
      if stop != "SIGSTOP" {
        #expect(!terminal.alternateScreen, "\(stop)")
        #expect(screen.contains("job$"), "\(screen)")
      }
      terminal.type("fg")
      terminal.send("Enter")
      try terminal.waitUntil("fg after \(stop) gives the player the terminal again") {
        !stopped() && terminal.alternateScreen && $0.contains("event \(round) of 20")
      }
      // Raw mode again: an arrow key moves, unechoed, without Enter.
      terminal.send("Right")
      let moved = try terminal.waitFor("event \(round + 1) of 20")
      #expect(!moved.contains("^[[C"), "\(moved)")
    }
    terminal.send("q")
    try terminal.waitUntil("the shell's prompt after q") {
      !terminal.alternateScreen && $0.contains("job$")
    }
  }

  @Test(
    "--at starts at a point; ? shows the keys; a click on the bar goes there; Ctrl-C ends with 130")
  func keysClicksAndInterrupt() throws {
    let directory = TemporaryDirectory()
    let terminal = try Tmux(
      script: "\"$REWIND\" play '\(journal)' --at +17.5s", in: directory.path, columns: 120,
      rows: 32)
    defer { terminal.kill() }
    try terminal.waitFor("event 13 of 20")
    terminal.send("?")
    let help = try terminal.waitFor("rewind play: keys")
    #expect(help.contains("skip the event here"))
    terminal.send("Escape")
    try terminal.waitUntil("the keys gone") { !$0.contains("rewind play: keys") }
    // The strip is the third row from the bottom, columns 1…118: its last column is the end.
    terminal.click(column: 118, row: 29)
    try terminal.waitFor("event 20 of 20")
    terminal.send("Home")
    try terminal.waitFor("event 0 of 20")
    terminal.send("C-c")
    try terminal.waitFor("DONE 130")
    #expect(!terminal.alternateScreen)
  }

  @Test(
    "names a terminal may measure otherwise than Rewind move no column after them",
    arguments: [
      // U+2028 and U+2029, which tmux, as wcwidth, does not show at all: escaped.
      (
        ["Mon\u{2028}day", "Tue\u{2029}sday"], "Line\u{2028}and\u{2029}paragraph", "One\u{2028}item"
      ),
      // Emoji newer than the C library's tables, which tmux then drops.
      (
        ["\u{1FA75} Blue", "\u{1FAE8}"], "\u{1FA75} Light blue \u{1FAE8} shaking", "Item \u{1FA75}"
      ),
    ])
  func namesMeasuredOtherwise(labels: [String], category name: String, item: String) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("names.journal")
    let catalog = try Catalog(
      layout: .threeColumn, menuLabels: labels + ["Wed"],
      categories: [Catalog.Node(name, children: [Catalog.Node(item), Catalog.Node("Two")])])
    let category = catalog.categories[0]
    try record(at: path, catalog: catalog) { _ in
      [.categorySelected(category), .itemSelected(catalog.children(of: category)[0])]
    }

    let terminal = try Tmux(
      script: "\"$REWIND\" play '\(path)' --at end", in: directory.path, columns: 100, rows: 30)
    defer { terminal.kill() }
    let screen = try terminal.waitFor("event 2 of 2")
    // Every row of the state's box still ends at the window's right edge (the characters
    // tmux does not show are not in its capture, so they count no column here either).
    let rows = screen.split(separator: "\n").filter { $0.hasPrefix("│") || $0.hasPrefix("┌") }
    #expect(!rows.isEmpty)
    for row in rows {
      #expect(TerminalText.width(row) == 100, "\(row)\n\(screen)")
    }
    terminal.send("q")
    try terminal.waitFor("DONE 0")
  }

  @Test("an id and a file name full of escape sequences show escaped, cut to their room")
  func escapeSequencesCut() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("t\u{1B}]0;owned\u{07}.journal")
    let hostile = String(repeating: "\u{1B}]0;x\u{07}", count: 100)
    try record(at: path) { domain in
      [.categorySelected(try domain.internedRef(hostile)), .menuTabTapped(index: 1)]
    }

    let terminal = try Tmux(
      script: "\"$REWIND\" play \"$JOURNAL\" --at 1", in: directory.path, columns: 100, rows: 30,
      environment: ["JOURNAL": "t\u{1B}]0;owned\u{07}.journal"])
    defer { terminal.kill() }
    let screen = try terminal.waitFor("event 1 of 2")
    let row = try #require(
      screen.split(separator: "\n").first { $0.contains("categorySelected \\u{1B}]0;x") },
      "\(screen)")
    // Cut before the outcome, which follows it whole, and the panel's edge.
    #expect(row.contains("… rejected │"), "\(row)")
    let header = try #require(screen.split(separator: "\n").first)
    #expect(header.contains(#"t\u{1B}]0;owned\u{7}.journal · navigation"#), "\(header)")
    terminal.send("q")
    try terminal.waitFor("DONE 0")
  }

  @Test(
    "--follow shows the events another process flushes, the cursor at the end; then that the journal is closed, or removed"
  )
  func follow() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("recording.journal")
    let domain = NavigationDomain()
    let recorder = try JournalRecorder.create(
      at: path, domain: domain,
      session: SessionInfo(startTime: 1_764_500_000_000_000, device: "test writer"))
    var user = SimulatedUser(seed: 11, domain: domain)
    func record(_ count: Int) throws {
      for _ in 0..<count {
        let (time, event) = user.next()
        try recorder.record(event, at: time)
      }
      try recorder.flush()
    }
    try record(10)
    let terminal = try Tmux(
      script: "\"$REWIND\" play --follow recording.journal", in: directory.path, columns: 120,
      rows: 32)
    defer { terminal.kill() }
    var screen = try terminal.waitFor("event 10 of 10")
    #expect(screen.contains("FOLLOWING"))
    try record(15)
    try terminal.waitFor("event 25 of 25")
    // Moved back, the cursor stays while events come.
    terminal.send("Left", "Left")
    try terminal.waitFor("event 23 of 25")
    try record(5)
    try terminal.waitFor("event 23 of 30")
    terminal.send("End")
    try terminal.waitFor("event 30 of 30")
    // Closed: the header and the message line say that nothing more will come.
    try recorder.close()
    screen = try terminal.waitUntil("the journal closed") {
      $0.contains("The journal is closed: nothing more will come.")
    }
    #expect(screen.split(separator: "\n").first?.hasSuffix("CLOSED") == true, "\(screen)")
    #expect(!screen.contains("FOLLOWING"))
    // Removed: said too; what was read stays on the screen.
    #expect(unlink(path) == 0)
    screen = try terminal.waitUntil("the file removed") {
      $0.contains("recording.journal was removed: nothing more will come")
    }
    #expect(screen.contains("FILE REMOVED"))
    #expect(screen.contains("event 30 of 30"))
    terminal.send("q")
    try terminal.waitFor("DONE 0")
  }

  @Test("r continues from the cursor live, in a journal that names its parent")
  func continueFromHere() throws {
    let directory = TemporaryDirectory()
    let terminal = try Tmux(
      script: "\"$REWIND\" play '\(journal)' --at 10", in: directory.path, columns: 120, rows: 40)
    defer { terminal.kill() }
    try terminal.waitFor("event 10 of 20")
    terminal.send("r")
    try terminal.waitFor("● REC  10 + 0 events")
    terminal.send("c")  // the size class: regular
    try terminal.waitFor("last: sizeClassChanged regular → applied")
    terminal.send("q")
    let screen = try terminal.waitFor("DONE 0")
    #expect(screen.contains("Continuing \(journal) after event 10 in session-"))
    #expect(
      screen.filter { !$0.isWhitespace }.contains(".journal(writingits10eventsfirst)"),
      "\(screen)")
    #expect(screen.contains("Recorded 1 event (0 rejected)"))
    #expect(screen.contains(", after the 10 events it continues"))
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    let child = try #require(names.first { $0.hasPrefix("session-") && $0.hasSuffix(".journal") })
    let info = try parseObject(try rewind("info", directory.file(child), "--json").stdout)
    let parent = try #require(info["parent"] as? [String: Any])
    #expect(parent["path"] as? String == journal)
    #expect(parent["seq"] as? Int == 10)
    let parentInfo = try parseObject(try rewind("info", journal, "--json").stdout)
    #expect(parent["session"] as? String == parentInfo["session"] as? String)
    #expect(info["events"] as? Int == 11)
    // The first ten events are the parent's; the eleventh was recorded live.
    let original = try rewind("log", journal, "--to", "10").stdout
    let continued = try rewind("log", directory.file(child)).stdout
    #expect(continued.hasPrefix(original))
    #expect(continued.contains("sizeClassChanged regular"))
    let text = try rewind("info", directory.file(child)).stdout
    #expect(
      text.contains(
        "Branched   from \(journal) (session \(parentInfo["session"] as? String ?? "")) after event 10: its events 1–10 are that session's"
      ))
  }

  @Test("without a terminal play refuses, exit 1; its help lists the keys")
  func notATerminalAndHelp() throws {
    let result = try rewind("play", journal)
    #expect(result.status == 1)
    #expect(result.stderr.contains("`rewind play` needs a terminal"))
    let outside = try rewind("play", journal, "--at", "21")
    #expect(outside.status == 64)
    #expect(outside.stderr.contains("'--at <point>'"))
    let help = try rewind("help", "play")
    #expect(help.status == 0)
    #expect(help.stdout.contains("USAGE: rewind play <journal> [--at <point>] [--follow]"))
    #expect(help.stdout.contains("Keys (also shown by `?`):"))
    #expect(help.stdout.contains("  x          skip the event here"))
  }

  @Test("--follow of a journal not there yet says to start the recording first, exit 1")
  func followBeforeRecording() throws {
    let directory = TemporaryDirectory()
    let missing = directory.file("later.journal")
    let result = try rewind("play", "--follow", missing)
    expectFailure(
      result,
      containing:
        "\(missing): no such file; --follow watches a journal another process is recording: start the recording first (`rewind live -o \(missing)`), then play it"
    )
    // Without --follow, a missing journal is only missing.
    let plain = try rewind("play", missing)
    expectFailure(plain, containing: "\(missing): no such file")
    #expect(!plain.stderr.contains("--follow"))
  }
}
