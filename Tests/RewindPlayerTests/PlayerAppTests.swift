import Navigation
import RewindCore
import RewindJournal
import RewindTerminal
import TestSupport
import Testing

@testable import RewindPlayer

/// The player as a terminal app: keys to actions, and what it draws.
@Suite("Player app: keys and the screen")
struct PlayerAppTests {
  func app(_ name: String = "iphone-compact.journal", at point: Point? = nil) throws
    -> PlayerApp<NavigationDomain>
  {
    PlayerApp(player: try player(name, at: point), title: name)
  }

  func draw(_ app: inout PlayerApp<NavigationDomain>, columns: Int = 120, rows: Int = 32)
    -> Screen
  {
    var screen = Screen(size: TerminalSize(columns: columns, rows: rows))
    app.draw(on: &screen)
    return screen
  }

  @Test("keys map to actions; in a prompt, characters are typed")
  func keys() {
    let expected: [(Key, PlayerAction)] = [
      (.left, .step(-1)), (.right, .step(1)), (.pageUp, .step(-100)), (.pageDown, .step(100)),
      (.home, .go(to: .start)), (.end, .go(to: .end)), (.character(" "), .togglePlayback),
      (.character("+"), .faster), (.character("-"), .slower),
      (.character("g"), .beginPrompt(.goTo)), (.character("/"), .beginPrompt(.find)),
      (.character("n"), .nextMatch), (.character("N"), .previousMatch), (.character("m"), .mark),
      (.character("d"), .showDiff), (.character("x"), .toggleSkip),
      (.character("r"), .continueHere), (.character("?"), .toggleHelp), (.character("q"), .quit),
      (.escape, .dismiss),
    ]
    for (key, action) in expected {
      #expect(PlayerKeys.action(for: key, promptOpen: false) == action, "\(key)")
    }
    #expect(PlayerKeys.action(for: .character("z"), promptOpen: false) == nil)
    #expect(PlayerKeys.action(for: .character("q"), promptOpen: true) == .type("q"))
    #expect(PlayerKeys.action(for: .backspace, promptOpen: true) == .erase)
    #expect(PlayerKeys.action(for: .enter, promptOpen: true) == .submit)
    #expect(PlayerKeys.action(for: .escape, promptOpen: true) == .dismiss)
    #expect(PlayerKeys.action(for: .control("u"), promptOpen: true) == .clearPrompt)
    // The keys that move the player wait while a prompt is open: nothing is lost.
    for key: Key in [.left, .right, .up, .down, .home, .end, .pageUp, .pageDown, .tab] {
      #expect(PlayerKeys.action(for: key, promptOpen: true) == nil, "\(key)")
    }
    // The help lists every key the player maps.
    let listed = PlayerKeys.help.map(\.keys).joined(separator: " ")
    for word in [
      "←", "→", "PgUp", "PgDn", "Home", "End", "g", "Space", "+", "-", "/", "n", "N",
      "m", "d", "↑", "↓", "x", "r", "?", "Esc", "q",
    ] {
      #expect(listed.split(separator: " ").contains(Substring(word)), "\(word) is not in the help")
    }
  }

  @Test("a diff longer than the screen scrolls: ↑ ↓ a line, PgUp PgDn a page, Home End its ends")
  func diffScrolls() throws {
    var app = try app("ipad-three-column.journal")
    _ = app.handle(.key(.character("m")))
    _ = app.handle(.key(.end))
    _ = app.handle(.key(.character("d")))
    guard case .diff(let diff) = app.player.overlay else {
      Issue.record("no diff shown")
      return
    }
    // A field's name, its old value and its new one, each on one line at 80 columns
    // but for `split.expanded`'s new value, which wraps onto a second (see
    // `diffWrapsLongValues`).
    let lineCount = diff.changes.count * 3 + 1
    #expect(lineCount > 12, "a diff longer than the screen")
    func shown() -> [String] { draw(&app, columns: 80, rows: 16).lines }
    var lines = shown()
    #expect(lines.contains { $0.contains(diff.changes[0].path) })
    #expect(lines.contains { $0.contains("more lines") })
    #expect(!lines.contains { $0.contains("above") })
    #expect(lines.contains { $0.contains("↑ ↓ PgUp PgDn scroll · d or Esc closes this") })
    _ = app.handle(.key(.home))
    lines = shown()
    let page = app.diffPage
    #expect(page > 0 && page < lineCount)
    _ = app.handle(.key(.down))
    lines = shown()
    #expect(app.player.overlayScroll == 1)
    #expect(lines.contains { $0.contains("… 1 line above") })
    _ = app.handle(.key(.pageDown))
    _ = shown()
    #expect(app.player.overlayScroll == min(1 + page, lineCount - page))
    // The end: the last field's new value shown, nothing more below; scrolling on stays.
    _ = app.handle(.key(.end))
    lines = shown()
    #expect(app.player.overlayScroll == lineCount - page)
    #expect(!lines.contains { $0.contains("more line") })
    #expect(lines.contains { $0.contains("\(lineCount - page) lines above") })
    _ = app.handle(.key(.down))
    _ = shown()
    #expect(app.player.overlayScroll == lineCount - page)
    _ = app.handle(.key(.up))
    _ = shown()
    #expect(app.player.overlayScroll == lineCount - page - 1)
    _ = app.handle(.key(.home))
    _ = shown()
    #expect(app.player.overlayScroll == 0)
    // The keys still move the cursor once the diff is closed; it opens at its top.
    _ = app.handle(.key(.escape))
    _ = app.handle(.key(.home))
    #expect(app.player.cursor == 0)
    _ = app.handle(.key(.character("d")))
    #expect(app.player.overlayScroll == 0)
  }

  @Test(
    "the full diff wraps a value wider than its panel onto further lines: all of it is seen"
  )
  func diffWrapsLongValues() throws {
    let expanded =
      "[\"espresso-machines/home\",\"espresso-machines/linea\",\"espresso-machines/strada\"]"
    for (columns, rows) in [(80, 30), (60, 16)] {
      var app = try app("ipad-three-column.journal")
      _ = app.handle(.key(.character("m")))
      _ = app.handle(.key(.end))
      _ = app.handle(.key(.character("d")))
      // Every line of the diff, page after page, read off the screen.
      var seen: [String] = []
      var previous = -1
      while app.player.overlayScroll != previous {
        previous = app.player.overlayScroll
        seen += draw(&app, columns: columns, rows: rows).lines
        _ = app.handle(.key(.pageDown))
      }
      // The panel's lines between its borders, without their padding.
      let inside = seen.compactMap { line -> String? in
        guard let open = line.firstIndex(of: "│"), let close = line.lastIndex(of: "│"),
          open < close
        else { return nil }
        var text = line[line.index(after: open)..<close]
        while text.last == " " { text.removeLast() }
        return String(text.drop { $0 == " " })
      }
      #expect(!inside.contains { $0.hasSuffix("…") }, "\(columns)×\(rows): \(inside)")
      // The new value of `split.expanded`: `+ ` then its pieces, which make it whole.
      let start = try #require(
        inside.firstIndex { $0.hasPrefix("+ [\"espresso-machines/home\"") }, "\(inside)")
      var value = String(inside[start].dropFirst(2))
      for piece in inside[(start + 1)...] {
        guard !value.hasSuffix("]") else { break }
        value += piece
      }
      #expect(value == expanded, "\(columns)×\(rows)")
    }
    // Wrapped between the array's elements where it can be, at the width where not.
    #expect(
      PlayerApp<NavigationDomain>.wrapped(expanded, width: 60) == [
        "[\"espresso-machines/home\",\"espresso-machines/linea\",",
        "\"espresso-machines/strada\"]",
      ])
    #expect(PlayerApp<NavigationDomain>.wrapped("abcdefgh", width: 3) == ["abc", "def", "gh"])
    #expect(PlayerApp<NavigationDomain>.wrapped("short", width: 10) == ["short"])
  }

  @Test("the Changes pane says how to see a value it cuts: the full diff of the event")
  func changesPaneSaysWhereTheRestIs() throws {
    var app = try app("ipad-three-column.journal", at: .sequence(23))
    var lines = draw(&app, columns: 80, rows: 30).lines
    #expect(
      lines.contains { $0.contains("│ … cut: m ← d shows all ") }, "\(lines)")
    // Those keys show the event's diff: every element of the new value.
    for key in [Key.character("m"), .left, .character("d")] { _ = app.handle(.key(key)) }
    lines = draw(&app, columns: 80, rows: 30).lines
    #expect(lines.contains { $0.contains("1 field differs: event 22 (-) → event 23 (+)") })
    #expect(lines.contains { $0.contains("\"espresso-machines/strada\"]") }, "\(lines)")
    // A change that fits says nothing of the kind.
    var short = try self.app("ipad-three-column.journal", at: .sequence(3))
    #expect(
      !draw(&short, columns: 200, rows: 40).lines.contains { $0.contains("m ← d shows all") })
  }

  @Test("a menu strip wider than the state's pane is cut with ›, the selected label kept")
  func menuStripInANarrowPane() throws {
    var app = try app("day-menu.journal", at: .sequence(24))
    let lines = draw(&app, columns: 110, rows: 30).lines
    // The state's pane: 110 - 49 columns (the panel), a border on each side.
    let strip = try #require(lines.first { $0.contains("Monday") })
    let pane = try #require(
      strip.split(separator: "│", omittingEmptySubsequences: false).dropFirst().first)
    #expect(pane.hasSuffix("›"), "\(pane)")
    #expect(!pane.hasSuffix("Su"))
    // The selected label (Thursday, at event 24) is in view, over its thick line.
    let selected = app.player.view.state.menu.selectedIndex
    let label = app.player.view.state.menuLabels[selected]
    #expect(pane.contains(" \(label) "), "\(pane)")
  }

  @Test(
    "the position line: numbers grouped, long offsets in hours and minutes as the duration"
  )
  func positionFormats() throws {
    #expect(Format.readableOffset(0) == "+0.000s")
    #expect(Format.readableOffset(4_500_000) == "+4.500s")
    #expect(Format.readableOffset(59_999_600) == "+1m 00.000s")
    #expect(Format.readableOffset(67_100_000) == "+1m 07.100s")
    #expect(Format.readableOffset(157_349_247_000) == "+43h 42m 29.247s")
    #expect(Format.readableOffset(3_600_000_000) == "+1h 00m 00.000s")
    // The position line's offset, typed into `g` (or `--at`), leads back to the events
    // shown at it: it was no point.
    var random = SplitMix64(seed: testSeed("PlayerAppTests.positionFormats"))
    for index in 0..<4_000 {
      // Half a millisecond, a hair either side, or any time.
      let millisecond = random.next() % 200_000_000
      let time =
        index % 2 == 0
        ? millisecond * 1_000 + [499, 500, 501][Int(random.next() % 3)]
        : random.next() % 200_000_000_000
      #expect(
        Format.readableOffset(time).hasSuffix(Format.offset(time).split(separator: ".").last!),
        "\(time) µs: the milliseconds as log shows them")
      let shown = Format.readableOffset(time)
      guard case .offset(let last) = try Point(parsingAsShown: shown) else {
        Issue.record("\(shown) is no offset")
        continue
      }
      #expect(last >= time && Format.readableOffset(last) == shown, "\(time) µs, \(shown)")
      #expect(Format.readableOffset(last + 1) != shown, "\(time) µs, \(shown)")
    }
    #expect(Format.point(0) == "the start")
    #expect(Format.point(3_041) == "event 3,041")
    // A session of 44 hours, one event an hour.
    let directory = TemporaryDirectory()
    let path = directory.file("long.journal")
    let domain = NavigationDomain()
    let recorder = try JournalRecorder.create(
      at: path, domain: domain, session: SessionInfo(startTime: 0, device: "test"))
    var user = SimulatedUser(seed: 3, domain: domain)
    for hour in 1...44 {
      _ = try recorder.record(user.next().1, at: UInt64(hour) * 3_600_000_000 + 247_000)
    }
    try recorder.close()
    var app = PlayerApp(
      player: try Player(timeline: Timeline<NavigationDomain>(path: path), at: .sequence(43)),
      title: "long.journal")
    let lines = draw(&app).lines
    #expect(
      lines[30].hasPrefix(" event 43 of 44 · +43h 00m 00.247s of 44h 00m 00.2s"), "\(lines[30])")
  }

  @Test("the screen: header, the state's box, events with the cursor's, changes, the bar")
  func screen() throws {
    var app = try app()
    for key in [Key.right, .right, .right] { _ = app.handle(.key(key)) }
    let screen = draw(&app)
    let lines = screen.lines
    #expect(lines[0].hasPrefix(" rewind play  iphone-compact.journal · navigation"))
    #expect(lines[1].hasPrefix("┌ State after event 3 "))
    #expect(screen.lines.contains { $0.contains("Monday") })
    #expect(lines[1].contains("┌ Events "))
    // The cursor's event is reversed; its line reads number, time, event, outcome.
    let cursorRow = try #require(lines.firstIndex { $0.contains("3   +4.500s  backTapped") })
    let cursorLine = lines[cursorRow]
    let event = try #require(cursorLine.range(of: "+4.500s  backTapped"))
    let cursorColumn = TerminalText.width(cursorLine[..<event.upperBound]) - 1
    #expect(screen[cursorColumn, cursorRow].style.reverse)
    #expect(lines[cursorRow].hasSuffix("applied │"))
    #expect(lines.contains { $0.contains("Event 3 changed") })
    #expect(lines.contains { $0.contains("split.selectedItem: \"grinders/swift\" → null") })
    let strip = lines[29]
    #expect(strip.hasPrefix("▕") && strip.hasSuffix("▏"))
    #expect(lines[30].hasPrefix(" event 3 of 20 · +4.500s of 26.8s · ❚❚ paused ×1"))
    #expect(
      lines[31]
        == " ← → step · Space play · g go to · / find · x skip · m d diff · r continue · ? keys · q quit"
    )
    // Narrower, the last of the keys give way to `? keys` and `q quit`.
    #expect(
      draw(&app, columns: 60, rows: 16).lines[15]
        == " ← → step · Space play · g go to · / find · ? keys · q quit")
    // The rejected expansion of KB90 is red; the strip's cursor column is reversed.
    _ = app.player.perform(.go(to: .sequence(8)))
    let later = draw(&app)
    let row = try #require(later.lines.firstIndex { $0.contains(" 8  +11.600s  itemExpanded") })
    let label = try #require(later.lines[row].range(of: "rejected"))
    let column = later.lines[row].distance(from: later.lines[row].startIndex, to: label.lowerBound)
    #expect(later[column, row].style.foreground == .red)
    let stripColumn =
      1
      + DensityStrip.column(
        of: app.player.view.time, in: 118, duration: app.player.timeline.duration)
    #expect(later[stripColumn, 29].style.reverse)
    // Without colours, the columns of a rejected event stand out: the others are dim.
    let stripCells = { (screen: Screen) in
      (1..<119).map { screen[$0, 29] }.filter { $0.character != " " }
    }
    #expect(stripCells(later).allSatisfy { !$0.style.dim })
    app.showsColour = false
    let plain = stripCells(draw(&app))
    let rejected = plain.filter { $0.style.foreground == .red }
    #expect(!rejected.isEmpty && rejected.allSatisfy { !$0.style.dim })
    #expect(plain.filter { $0.style.foreground != .red }.allSatisfy { $0.style.dim })
  }

  @Test("a counterfactual is marked in the header, over the state and on later events")
  func counterfactual() throws {
    var app = try app(at: .sequence(1))
    _ = app.handle(.key(.character("x")))
    let lines = draw(&app).lines
    #expect(lines[0].hasSuffix("COUNTERFACTUAL"))
    #expect(lines[1].contains("State after event 1 WITHOUT event 1 (counterfactual)"))
    #expect(
      lines.contains { $0.contains(" 1   +0.000s  categorySelected") && $0.contains("skipped") })
    #expect(
      lines.contains { $0.contains(" 2   +1.100s  itemSelected") && $0.contains("≠ rejected │") })
    // Wide enough, the flag says what the recording said.
    let wide = draw(&app, columns: 200, rows: 32).lines
    #expect(
      wide.contains {
        $0.contains("itemSelected grinders/swift") && $0.contains("≠ rejected (was applied)")
      })
    #expect(wide.contains { $0.contains("backTapped") && $0.contains("≠ rejected (was applied)") })
    #expect(lines.contains { $0.contains("Differs from the recording (recorded → now):") })
    #expect(lines.contains { $0.contains("skipping 1 · ") && $0.contains("later events differ") })
  }

  @Test("narrow terminals put the panel under the state; the prompt shows what is typed")
  func narrowAndPrompt() throws {
    var app = try app(at: .sequence(5))
    for key in [Key.character("g"), .character("1"), .character("2")] { _ = app.handle(.key(key)) }
    let lines = draw(&app, columns: 80, rows: 24).lines
    #expect(lines.allSatisfy { $0.count <= 80 })
    let events = try #require(lines.firstIndex { $0.hasPrefix("┌ Events") })
    #expect(events > 5)
    #expect(lines[events].contains("┌ Event 5 changed"))
    #expect(lines[23] == " go to: 12")
    _ = app.handle(.key(.enter))
    #expect(app.player.cursor == 12)
  }

  @Test("g takes end-N, N events before the end; one before the start says so and stays")
  func goToFromTheEnd() throws {
    var app = try app(at: .sequence(5))
    func goTo(_ text: String) {
      for key in [Key.character("g")] + text.map(Key.character) + [.enter] {
        _ = app.handle(.key(key))
      }
    }
    goTo("end-3")
    #expect(app.player.cursor == 17)
    goTo("end-21")
    #expect(app.player.cursor == 17)
    #expect(
      app.player.message?.text.contains(
        "end-21 is before the start of the session (points are 0–20; end-20 is the start)")
        == true, "\(String(describing: app.player.message))")
  }

  @Test("? draws the keys over the screen; d draws the diff")
  func overlays() throws {
    var app = try app()
    _ = app.handle(.key(.character("?")))
    var lines = draw(&app).lines
    #expect(lines.contains { $0.contains("rewind play: keys") })
    #expect(lines.contains { $0.contains("skip the event here") })
    _ = app.handle(.key(.escape))
    _ = app.handle(.key(.character("m")))
    _ = app.handle(.key(.end))
    _ = app.handle(.key(.character("d")))
    lines = draw(&app).lines
    // The start named as `rewind diff` names it.
    #expect(lines.contains { $0.contains("┌ 1 field differs: the start (-) → event 20 (+) ") })
    #expect(lines.contains { $0.contains("│ split.expanded ") })
    #expect(lines.contains { $0.contains("│   - [] ") })
    #expect(lines.contains { $0.contains("│   + [\"espresso-machines/strada\"] ") })
    _ = app.handle(.key(.character("d")))
    #expect(!draw(&app).lines.contains { $0.contains("field differs") })
  }

  @Test("a click on the strip goes to that time; the wheel steps; r quits with a request")
  func mouseAndContinue() throws {
    var app = try app()
    _ = draw(&app)
    let duration = app.player.timeline.duration
    // The last column of the strip (118 wide, from column 1) is the end of the session.
    _ = app.handle(.mouse(MouseEvent(.press, column: 118, row: 29)))
    #expect(app.player.cursor == 20)
    _ = app.handle(.mouse(MouseEvent(.press, column: 1, row: 29)))
    #expect(
      app.player.cursor == (try app.player.timeline.resolve(.offset(microseconds: duration / 118))))
    _ = app.handle(.mouse(MouseEvent(.wheelDown, button: .none, column: 10, row: 10)))
    _ = app.handle(.mouse(MouseEvent(.wheelDown, button: .none, column: 10, row: 10)))
    #expect(app.player.cursor == 3)
    _ = app.handle(.mouse(MouseEvent(.press, column: 10, row: 10)))
    #expect(app.player.cursor == 3, "a click outside the strip does nothing")
    #expect(app.handle(.key(.character("r"))) == .quit)
    #expect(
      app.continueRequest
        == ContinueRequest(parentPath: sample("iphone-compact.journal"), sequence: 3))
  }

  @Test("r where the session cannot be continued says why on the message line; the player stays")
  func continuingRefused() throws {
    var app = PlayerApp(
      player: try player("iphone-compact.journal", at: .sequence(3)),
      title: "iphone-compact.journal"
    ) { "Cannot continue here: the new journal goes in this folder, which cannot be written." }
    #expect(app.handle(.key(.character("r"))) == .continue)
    #expect(app.continueRequest == nil)
    #expect(app.player.cursor == 3)
    #expect(
      app.player.message
        == PlayerMessage(
          .error,
          "Cannot continue here: the new journal goes in this folder, which cannot be written."))
  }

  @Test("behind the too-small notice it takes q, or Esc to close a prompt (q would be typed)")
  func whileTooSmall() throws {
    var app = try app()
    #expect(app.takesWhileTooSmall(.key(.character("q"))))
    #expect(app.takesWhileTooSmall(.key(.escape)))
    #expect(!app.takesWhileTooSmall(.key(.character("j"))))
    #expect(!app.takesWhileTooSmall(.key(.enter)))
    #expect(!app.takesWhileTooSmall(.mouse(MouseEvent(.press, column: 1, row: 1))))
    _ = app.handle(.key(.character("/")))
    #expect(app.player.prompt != nil)
    #expect(!app.takesWhileTooSmall(.key(.character("q"))))
    #expect(app.takesWhileTooSmall(.key(.escape)))
  }

  /// ← reached for to fix a typo closed the prompt, lost the condition and stepped back.
  @Test("a prompt keeps what is typed through the keys that move the player; Ctrl-U erases it")
  func promptKeepsItsText() throws {
    var app = try app()
    _ = app.handle(.key(.character("g")))
    for character in "12" { _ = app.handle(.key(.character(character))) }
    _ = app.handle(.key(.enter))
    let cursor = app.player.cursor
    _ = app.handle(.key(.character("/")))
    for character in "split.stlye" { _ = app.handle(.key(.character(character))) }
    for key: Key in [.left, .home, .end, .pageDown, .up] { _ = app.handle(.key(key)) }
    _ = app.handle(.mouse(MouseEvent(.wheelDown, column: 10, row: 5)))
    _ = app.handle(.mouse(MouseEvent(.wheelUp, column: 10, row: 5)))
    #expect(app.player.prompt?.text == "split.stlye")
    #expect(app.player.cursor == cursor)
    _ = app.handle(.key(.control("u")))
    #expect(app.player.prompt?.text == "")
    #expect(app.player.prompt != nil)
  }

  @Test("ticks run while playing and while following, not otherwise")
  func ticks() throws {
    var app = try app()
    #expect(app.tickInterval == nil)
    _ = app.handle(.key(.character(" ")))
    #expect(app.tickInterval == .milliseconds(33))
    #expect(app.tick() == .continue)
  }
}
