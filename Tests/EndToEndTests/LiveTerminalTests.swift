import Foundation
import RewindCore
import TestSupport
import Testing

/// `rewind live` in a real terminal: tmux runs the built binary, the tests type keys and
/// click (SGR mouse reports), read the screen, and check the journal it wrote with
/// `rewind log` and `rewind state --json`.
@Suite("rewind live in tmux", .enabled(if: Tmux.isAvailable, "tmux is not installed"))
struct LiveTerminalTests {
  /// Clicks on the first place the screen shows `text` (plus `offset` columns).
  private func click(
    _ text: String, on terminal: Tmux, offset: Int = 0,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let screen = terminal.capture()
    let at = try #require(
      Tmux.position(of: text, in: screen), "\(text) is not on the screen:\n\(screen)",
      sourceLocation: sourceLocation)
    terminal.click(column: at.column + offset, row: at.row)
  }

  /// The kinds and payloads of a journal's events, from `rewind log --json`.
  private func events(_ path: String) throws -> [[String: Any]] {
    let result = try rewind("log", path, "--json")
    #expect(result.status == 0, "\(result.stderr)")
    return try result.lines.map { try parseObject($0) }
  }

  private func state(_ path: String) throws -> [String: Any] {
    let result = try rewind("state", path, "--json")
    #expect(result.status == 0, "\(result.stderr)")
    return try parseObject(result.stdout)
  }

  @Test("a session recorded by keys and clicks: the journal has every event and the state")
  func recordByKeysAndClicks() throws {
    let directory = TemporaryDirectory()
    let terminal = try Tmux(script: "\"$REWIND\" live -o s.journal", in: directory.path)
    defer { terminal.kill() }
    try terminal.waitFor("● REC")
    #expect(terminal.alternateScreen)
    #expect(terminal.capture().contains(" Monday  Tuesday  Wednesday  ›"))

    terminal.send("v")  // visibility: all, the sidebar shows
    try terminal.waitFor("┌ Espresso ─")
    try click("Grinders", on: terminal)
    try terminal.waitFor("● Grinders")
    terminal.send("Tab", "Enter")  // from the sidebar to the content, its first row: Swift
    try terminal.waitFor("photo: swift")
    try click("Tuesday", on: terminal)
    try terminal.waitFor("last: menuTabTapped 1 → applied")
    let strip = try #require(Tmux.position(of: "Monday", in: terminal.capture()))
    terminal.wheel(down: true, column: strip.column, row: strip.row)
    try terminal.waitFor("last: menuScrolled 40")
    terminal.send(">")
    try terminal.waitFor("last: menuScrolled 165")
    terminal.send("c")  // compact: the detail of the selected item, with a back button
    try terminal.waitFor("‹ Grinders")
    terminal.send("BSpace")
    try terminal.waitFor("last: backTapped → applied")
    terminal.send("?")
    try terminal.waitFor("rewind live: keys")
    terminal.send("Escape")  // closes the help, nothing else
    try terminal.waitUntil("the help is closed") { !$0.contains("rewind live: keys") }
    // Durable while the session goes on (its store's doing, within a second): another
    // process reads all eight events before live is quit.
    let path = directory.file("s.journal")
    let deadline = ContinuousClock.now + .seconds(10)
    var durable = 0
    while durable < 8, ContinuousClock.now < deadline {
      Thread.sleep(forTimeInterval: 0.1)
      durable = try rewind("log", path, "--json").lines.count
    }
    #expect(durable == 8)
    terminal.send("q")
    let end = try terminal.waitFor("DONE 0")
    #expect(end.contains("Recorded 8 events (0 rejected) over "))
    #expect(end.contains(" to s.journal"))
    try terminal.waitFor(Tmux.prompt.trimmingCharacters(in: .whitespaces))
    #expect(!terminal.alternateScreen)

    let kinds = try events(path).map { "\($0["event"] ?? "")" }
    #expect(
      kinds == [
        "columnVisibilityChanged", "categorySelected", "itemSelected", "menuTabTapped",
        "menuScrolled", "menuScrolled", "sizeClassChanged", "backTapped",
      ])
    let final = try state(path)
    let split = try #require(final["split"] as? [String: Any])
    let menu = try #require(final["menu"] as? [String: Any])
    #expect(split["selectedCategory"] as? String == "grinders")
    #expect(split["selectedItem"] is NSNull)
    #expect(split["sizeClass"] as? String == "compact")
    #expect(split["compactColumn"] as? String == "content")
    #expect(split["columnVisibility"] as? String == "all")
    #expect(menu["selectedIndex"] as? Int == 1)
    #expect(menu["scrollOffset"] as? Double == 165)
    #expect(try rewind("verify", path).status == 0)
  }

  @Test(
    "Ctrl-C, SIGTERM and SIGHUP put the terminal back and leave the journal with every event",
    arguments: ["C-c", "TERM", "HUP"])
  func endingBySignal(signal: String) throws {
    let directory = TemporaryDirectory()
    let terminal = try Tmux(script: "\"$REWIND\" live -o s.journal", in: directory.path)
    defer { terminal.kill() }
    try terminal.waitFor("● REC")
    terminal.send("v")
    terminal.send("s")
    try terminal.waitFor("2 events")
    let status: Int32
    if signal == "C-c" {
      terminal.send("C-c")
      status = 130
    } else {
      let program = try #require(terminal.programIDs().first, "rewind live is not running")
      #expect(Foundation.kill(program, signal == "TERM" ? SIGTERM : SIGHUP) == 0)
      status = signal == "TERM" ? 143 : 129
    }
    let end = try terminal.waitFor("DONE \(status)")
    #expect(end.contains("Recorded 2 events (0 rejected)"))
    try terminal.waitFor(Tmux.prompt.trimmingCharacters(in: .whitespaces))
    #expect(!terminal.alternateScreen)
    // The terminal is usable: what is typed shows (echo and line editing are back).
    terminal.type("echo usable-$((40+2))")
    terminal.send("Enter")
    try terminal.waitFor("usable-42")
    #expect(terminal.capture().contains("echo usable-$((40+2))"))

    let path = directory.file("s.journal")
    #expect(
      try events(path).map { "\($0["event"] ?? "")" } == [
        "columnVisibilityChanged", "splitStyleChanged",
      ])
    let verify = try rewind("verify", path)
    #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
  }

  @Test(
    "Ctrl-Z makes the events counted durable before the process stops: kill -9 of the stopped job keeps them"
  )
  func suspendMakesDurable() throws {
    let directory = TemporaryDirectory()
    let terminal = try Tmux(
      script: "PS1='job$ ' exec bash --norc --noprofile -i", in: directory.path)
    defer { terminal.kill() }
    try terminal.waitFor("job$")
    terminal.type("\"$REWIND\" live -o z.journal")
    terminal.send("Enter")
    try terminal.waitFor("● REC")
    let program = try #require(terminal.programIDs().first, "rewind live is not running")
    // Stopped at once: within the store's second (on a machine this test does not wait
    // on), only the flush before the stop writes these. That the flush is made, and
    // synced, without a clock: `LiveTests.durableBeforeSuspending`.
    terminal.send("v", "s", "c")
    try terminal.waitFor("3 events")
    terminal.send("C-z")
    try terminal.waitUntil("Ctrl-Z stops live") {
      $0.contains("Stopped") && !terminal.alternateScreen
    }
    let path = directory.file("z.journal")
    #expect(try events(path).count == 3, "durable while it is stopped")
    #expect(Foundation.kill(program, SIGKILL) == 0)
    // Gone: a zombie (Z in /proc/PID/stat, after the command's name) or reaped.
    try terminal.waitUntil("the stopped job is killed") { _ in
      guard let stat = try? String(contentsOfFile: "/proc/\(program)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return true }
      return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }
    #expect(
      try events(path).map { "\($0["event"] ?? "")" } == [
        "columnVisibilityChanged", "splitStyleChanged", "sizeClassChanged",
      ])
    let verify = try rewind("verify", path)
    #expect(verify.stdout.contains("3 events"), "\(verify.stdout)")
  }

  @Test(
    "a stopped live ends on the shell's kill %1 (SIGTERM, then SIGCONT), closing its journal; bg stops it again (it stopped on tty output, the journal open until fg)"
  )
  func stoppedJobEndsOnKill() throws {
    let directory = TemporaryDirectory()
    let terminal = try Tmux(
      script: "PS1='job$ ' exec bash --norc --noprofile -i", in: directory.path)
    defer { terminal.kill() }
    try terminal.waitFor("job$")
    terminal.type("\"$REWIND\" live -o k.journal")
    terminal.send("Enter")
    try terminal.waitFor("● REC")
    let program = try #require(terminal.programIDs().first, "rewind live is not running")
    /// The program's state letter in /proc/PID/stat, after the command's name.
    func state() -> Character? {
      guard let stat = try? String(contentsOfFile: "/proc/\(program)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return nil }
      return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
    }
    terminal.send("v", "s")
    try terminal.waitFor("2 events")
    terminal.send("C-z")
    try terminal.waitUntil("Ctrl-Z stops live") { _ in state() == "T" && !terminal.alternateScreen }
    // bg: stopped again at once, by the session itself (not on tty output), the screen the
    // shell's (which says so at its next prompt).
    terminal.type("bg")
    terminal.send("Enter")
    try terminal.waitFor("k.journal &")
    terminal.send("Enter")
    try terminal.waitUntil("bg stops it again") { screen in
      state() == "T" && screen.components(separatedBy: "Stopped").count >= 3
    }
    #expect(!terminal.alternateScreen)
    #expect(!terminal.capture().contains("tty output"), "\(terminal.capture())")
    // kill %1: SIGTERM, then SIGCONT: it ends (143), its journal closed, the shell's
    // terminal left as the shell set it.
    terminal.type("kill %1")
    terminal.send("Enter")
    try terminal.waitUntil("kill %1 ends it") { _ in state() == nil || state() == "Z" }
    // The shell says how it ended, at its next prompt or in `jobs`.
    terminal.type("jobs; echo listed-$((40+2))")
    terminal.send("Enter")
    let ended = try terminal.waitFor("listed-42")
    #expect(ended.contains("Exit 143"), "\(ended)")
    #expect(!terminal.alternateScreen)
    let verify = try rewind("verify", directory.file("k.journal"))
    #expect(verify.status == 0, "\(verify.stdout)")
    #expect(verify.stdout.contains("2 events"), "\(verify.stdout)")
    #expect(!verify.stdout.contains("not closed"), "\(verify.stdout)")
    // The shell's terminal works: what is typed shows.
    terminal.type("echo usable-$((40+2))")
    terminal.send("Enter")
    try terminal.waitFor("usable-42")
  }

  /// Runs `live -o full.journal` in `directory` with a file size limit of `blocks` blocks
  /// of 512 bytes (`ulimit -S -f`, `SIGXFSZ` ignored): the journal's writes fail with
  /// `EFBIG` once it is that large, as they fail with `ENOSPC` on a full disk; the limit
  /// is soft, so that ``allowLargeFiles(_:)`` lifts it from outside, as freeing space
  /// would. Its header fits in 7 blocks, and the first second of a thousand events not.
  private func liveOnFullDisk(in directory: TemporaryDirectory, blocks: Int = 7) throws -> Tmux {
    try Tmux(
      script: "(trap '' XFSZ; ulimit -S -f \(blocks); exec \"$REWIND\" live -o full.journal)",
      in: directory.path)
  }

  /// Lifts the file size limit of process `program` (`prlimit`), as freeing space on a
  /// full disk lets its writes succeed.
  private func allowLargeFiles(_ program: Int32) throws {
    let prlimit = try #require(executable(named: "prlimit"), "prlimit is not installed")
    let result = try run(prlimit, ["--pid", "\(program)", "--fsize=unlimited"])
    #expect(result.status == 0, "\(result.stderr)")
  }

  /// Types a thousand events (`s` and `c`, the style and the size class) and waits until
  /// the status line says the journal cannot take them.
  @discardableResult
  private func fillTheDisk(_ terminal: Tmux) throws -> String {
    try terminal.waitFor("● REC")
    terminal.type(String(repeating: "sc", count: 500))
    try terminal.waitFor("1,000 events")
    return try terminal.waitFor("file size limit reached: 1,000 events not written yet")
  }

  @Test(
    "on a full disk the status line says why first; q asks; space freed, q again writes every event"
  )
  func fullDiskFreed() throws {
    let directory = TemporaryDirectory()
    let terminal = try liveOnFullDisk(in: directory)
    defer { terminal.kill() }
    let status = try fillTheDisk(terminal)
    #expect(
      status.contains(
        " ! REC  1,000 events  00:0"), "\(status)")
    let program = try #require(terminal.programIDs().first, "rewind live is not running")
    terminal.send("q")
    let asked = try terminal.waitFor("1,000 events are not written yet: file size limit reached")
    #expect(asked.contains("free space, q  writes them, closes the journal and quits"))
    #expect(asked.contains("Q, Ctrl-C      quit without them: they are lost"))
    #expect(asked.contains("File too large (errno 27)"))
    // q with the disk still full stays, and says so.
    terminal.send("q")
    try terminal.waitFor("Still not written: File too large (errno 27)")
    try allowLargeFiles(program)
    // The store retries on its own: the box says so once it wrote them.
    try terminal.waitFor("Every event is written now")
    terminal.send("q")
    let end = try terminal.waitFor("DONE 0")
    #expect(end.contains("Recorded 1,000 events (0 rejected) over "), "\(end)")
    let path = directory.file("full.journal")
    let verify = try rewind("verify", path)
    #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    #expect(verify.stdout.contains("1,000 events"), "\(verify.stdout)")
    #expect(!verify.stdout.contains("not closed"), "\(verify.stdout)")
  }

  @Test(
    "q right after the disk filled, before the store tried to write, asks too (live quit with exit 1, its events lost)"
  )
  func fullDiskFoundAtQuit() throws {
    let directory = TemporaryDirectory()
    let terminal = try liveOnFullDisk(in: directory)
    defer { terminal.kill() }
    try terminal.waitFor("● REC")
    let program = try #require(terminal.programIDs().first, "rewind live is not running")
    // Within the store's second: q finds the journal cannot take them.
    terminal.type(String(repeating: "sc", count: 500) + "q")
    try terminal.waitFor("1,000 events are not written yet: file size limit reached")
    try allowLargeFiles(program)
    try terminal.waitFor("Every event is written now")
    terminal.send("q")
    try terminal.waitFor("DONE 0")
    let verify = try rewind("verify", directory.file("full.journal"))
    #expect(verify.stdout.contains("1,000 events"), "\(verify.stdout)")
    #expect(!verify.stdout.contains("not closed"), "\(verify.stdout)")
  }

  @Test(
    "on a full disk Q quits without the events: lost, it says, and rewind recover closes the journal",
    arguments: ["Q", "C-c"])
  func fullDiskAbandoned(key: String) throws {
    let directory = TemporaryDirectory()
    let terminal = try liveOnFullDisk(in: directory)
    defer { terminal.kill() }
    try fillTheDisk(terminal)
    terminal.send("q")
    try terminal.waitFor("1,000 events are not written yet")
    terminal.send(key)
    let end = try terminal.waitFor("DONE 1")
    let message = end.replacingOccurrences(of: "\n", with: "")
    #expect(
      message.contains(
        "Error: full.journal: 1,000 events were lost (events 1–1000), not written: file size limit reached (File too large (errno 27)); the journal holds no event and is not closed: `rewind recover full.journal` closes it"
      ), "\(end)")
    #expect(!message.contains("stay buffered"), "\(end)")
    try terminal.waitFor(Tmux.prompt.trimmingCharacters(in: .whitespaces))
    #expect(!terminal.alternateScreen)
    let recover = try rewind("recover", directory.file("full.journal"))
    #expect(recover.status == 0, "\(recover.stdout)\(recover.stderr)")
    #expect(try rewind("verify", directory.file("full.journal")).status == 0)
  }

  @Test(
    "a terminal without colours by its name (TERM=xterm-mono, vt100, linux-m) gets no colour in live and play",
    arguments: ["xterm-mono", "vt100", "linux-m"])
  func monochromeTerminal(term: String) throws {
    let directory = TemporaryDirectory()
    let journal = sample("iphone-compact.journal")
    for command in ["\"$REWIND\" live -o s.journal", "\"$REWIND\" play '\(journal)' --at 8"] {
      let terminal = try Tmux(script: command, in: directory.path, environment: ["TERM": term])
      defer { terminal.kill() }
      try terminal.waitUntil("\(command) draws") {
        $0.contains("● REC") || $0.contains("event 8 of 20")
      }
      terminal.send("c")  // live: a last event, its outcome drawn; play: nothing
      Thread.sleep(forTimeInterval: 0.3)
      let styled = terminal.captureWithStyles()
      // SGR colours: 30–38, 40–48, 90–97, 100–107 (attributes such as 7, reverse, stay).
      let colour = try Regex(#"\x1B\[(?:[0-9]*;)*(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])[;m]"#)
      #expect(
        styled.firstMatch(of: colour) == nil,
        "\(command) with TERM=\(term): \(styled.debugDescription.prefix(300))")
      #expect(styled.contains("\u{1B}[7m") || styled.contains(";7m"), "reverse stays")
      terminal.send("q")
      try terminal.waitFor("DONE 0")
    }
  }

  @Test("below the minimum size it says what it needs; back at size it draws again")
  func resize() throws {
    let directory = TemporaryDirectory()
    let terminal = try Tmux(
      script: "\"$REWIND\" live -o s.journal", in: directory.path, columns: 100, rows: 30)
    defer { terminal.kill() }
    try terminal.waitFor("● REC")
    terminal.resize(columns: 50, rows: 10)
    try terminal.waitFor("Make it at least 60×13")
    #expect(terminal.capture().contains("This terminal is 50×10."))
    // Keys and clicks behind the notice do nothing (they recorded what was not seen).
    terminal.send("s", "Tab", "Enter", "c")
    terminal.click(column: 5, row: 5)
    terminal.resize(columns: 120, rows: 40)
    let screen = try terminal.waitFor("● REC")
    #expect(screen.contains(" Monday  Tuesday  Wednesday  ›"))
    #expect(!screen.contains("Make it at least"))
    terminal.send("q")
    let end = try terminal.waitFor("DONE 0")
    #expect(end.contains("Recorded 0 events (0 rejected) over "), "\(end)")
  }

  @Test(
    "started in the background of a shell with job control, it waits, and runs once brought to the foreground (fg)"
  )
  func startedInTheBackground() throws {
    let directory = TemporaryDirectory()
    let terminal = try Tmux(script: "exec bash --norc --noprofile -i", in: directory.path)
    defer { terminal.kill() }
    // The prompt, less the space the screen's capture drops.
    try terminal.waitFor("test-prompt$")
    // The terminal's settings stop it (SIGTTOU) until fg, where the call was interrupted
    // (EINTR) and failed: "the terminal failed: tcsetattr on standard input".
    terminal.type("\"$REWIND\" live -o s.journal &")
    terminal.send("Enter")
    try terminal.waitFor("[1] ")
    // fg once the shell sees it stopped: typed while it still starts, fg races the first
    // call that stops it, as it would for any program (the shell gives it the terminal, it
    // is stopped by a call made just before, and waits for a second fg).
    terminal.type("until [[ $(jobs -s) ]]; do sleep 0.1; done; fg")
    terminal.send("Enter")
    try terminal.waitFor("● REC")
    terminal.send("q")
    try terminal.waitFor("Recorded 0 events (0 rejected) over ")
    terminal.type("echo \"EXIT $?\"")
    terminal.send("Enter")
    let end = try terminal.waitFor("EXIT ")
    #expect(end.contains("EXIT 0"), "\(end)")
    #expect(!end.contains("the terminal failed"), "\(end)")
    #expect(try rewind("verify", directory.file("s.journal")).status == 0)
  }

  @Test("pasted text is no interaction: nothing is recorded, and a pasted q does not quit")
  func pasteRecordsNothing() throws {
    let directory = TemporaryDirectory()
    let terminal = try Tmux(script: "\"$REWIND\" live -o s.journal", in: directory.path)
    defer { terminal.kill() }
    try terminal.waitFor("● REC")
    terminal.paste("ss\t\n q")
    // The paste is handled before the key after it: q quits once, with nothing recorded.
    terminal.send("q")
    let end = try terminal.waitFor("DONE 0")
    #expect(end.contains("Recorded 0 events (0 rejected) over "), "\(end)")
  }

  @Test("without -o the journal is session-YYYYMMDD-HHMMSS.journal here, named on exit")
  func defaultName() throws {
    let directory = TemporaryDirectory()
    let terminal = try Tmux(script: "\"$REWIND\" live --device iphone", in: directory.path)
    defer { terminal.kill() }
    try terminal.waitFor("● REC")
    #expect(terminal.capture().contains("threeColumn · compact · portrait"))
    terminal.send("q")
    let end = try terminal.waitFor("DONE 0")
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
      $0.hasSuffix(".journal")
    }
    #expect(files.count == 1)
    let name = try #require(files.first)
    #expect(name.hasPrefix("session-") && name.count == "session-YYYYMMDD-HHMMSS.journal".count)
    #expect(end.contains("Recorded 0 events (0 rejected) over "))
    #expect(end.contains("to \(name)"))
    let info = try rewind("info", directory.file(name))
    #expect(info.stdout.contains("iPhone (rewind live)"), "\(info.stdout)")
  }

  @Test("an existing file is not replaced without --force")
  func existingFile() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("s.journal")
    "keep me".writeFixture(to: path)
    let terminal = try Tmux(script: "\"$REWIND\" live -o s.journal", in: directory.path)
    defer { terminal.kill() }
    let end = try terminal.waitFor("DONE 1")
    #expect(end.contains("s.journal: the file exists; pass --force to replace it"))
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
  }

  @Test(
    "a terminal that cannot draw a screen (TERM=dumb): live and play exit 1 with the message, and live makes no journal"
  )
  func dumbTerminal() throws {
    let directory = TemporaryDirectory()
    let terminal = try Tmux(
      script: """
        "$REWIND" generate --events 10 --seed 1 -o g.journal > /dev/null
        "$REWIND" live -o s.journal; echo "live $?"
        "$REWIND" play g.journal
        """,
      in: directory.path, environment: ["TERM": "dumb"])
    defer { terminal.kill() }
    let end = try terminal.waitFor("DONE 1")
    #expect(end.contains("live 1"))
    for command in ["live", "play"] {
      #expect(
        end.contains(
          "Error: `rewind \(command)` needs a terminal that can draw a screen: TERM=dumb says this one cannot"
        ), "\(end)")
    }
    #expect(!FileManager.default.fileExists(atPath: directory.file("s.journal")))
  }

  @Test("not a terminal: exit 1, the message, and no journal")
  func notATerminal() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("s.journal")
    let result = try rewind("live", "-o", path)
    expectFailure(result, containing: "`rewind live` needs a terminal")
    #expect(!FileManager.default.fileExists(atPath: path))
    // Without -o, no default journal appears either.
    let result2 = try run(
      rewindBinary, ["live"], environment: ["PATH": "/usr/bin:/bin"],
      currentDirectory: directory.path)
    #expect(result2.status == 1)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
  }
}
