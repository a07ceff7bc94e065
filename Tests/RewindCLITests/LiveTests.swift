import Foundation
import Navigation
import RewindCLI
import RewindCore
import RewindJournal
import RewindTerminal
import Synchronization
import TestSupport
import Testing

@Suite("rewind live: the app")
struct LiveAppTests {
  /// A live app over an in-memory store, with a clock the test moves.
  private func makeApp(_ domain: NavigationDomain = NavigationDomain(), earlierEvents: UInt64 = 0)
    -> (LiveApp<NavigationDomain>, ManualClock)
  {
    let clock = ManualClock()
    let app = LiveApp(
      store: Store(domain: domain), screen: domain.makeScreen(), journal: "s.journal",
      earlierEvents: earlierEvents, clock: clock.read)
    return (app, clock)
  }

  private func draw(_ app: inout LiveApp<NavigationDomain>, columns: Int = 120, rows: Int = 30)
    -> Screen
  {
    var screen = Screen(size: TerminalSize(columns: columns, rows: rows))
    app.draw(on: &screen)
    return screen
  }

  @Test("keys become events sent through the store; the status line counts them")
  func eventsThroughTheStore() {
    var (app, now) = makeApp()
    #expect(app.handle(.key(.character("v"))) == .continue)
    #expect(app.handle(.key(.tab)) == .continue)
    #expect(app.handle(.key(.down)) == .continue)
    #expect(app.handle(.key(.enter)) == .continue)
    #expect(app.store.state.split.columnVisibility == .all)
    #expect(app.store.state.split.selectedCategory == app.store.domain.ref("grinders"))
    #expect(app.eventCount == 2)
    now.advance(65_000_000_000)
    let status = draw(&app).line(29)
    #expect(
      status.hasPrefix(
        " ● REC  2 events  01:05  s.journal  last: categorySelected grinders → applied"))
    #expect(status.hasSuffix("? help  q quit"))
    // Moving the focus sends nothing.
    #expect(app.handle(.key(.tab)) == .continue)
    #expect(app.eventCount == 2)
  }

  @Test("continuing a session, the status line counts its events before the ones sent")
  func continuing() {
    var (app, _) = makeApp(earlierEvents: 1_200)
    #expect(draw(&app).line(29).hasPrefix(" ● REC  1,200 + 0 events  00:00  s.journal "))
    app.send(.backTapped)
    #expect(draw(&app).line(29).hasPrefix(" ● REC  1,200 + 1 event  00:00  s.journal "))
  }

  @Test("a rejected event is counted and shown with its reason")
  func rejection() {
    var (app, _) = makeApp()
    app.send(.backTapped)
    #expect(app.rejectedCount == 1)
    #expect(
      draw(&app, columns: 160).line(29).contains(
        "last: backTapped → rejected: \(NavigationRejection.backNotAvailableOnRegularWidth)"))
    // Cut with an ellipsis when the line is short, the keys still at its end.
    let short = draw(&app, columns: 100).line(29)
    #expect(short.contains("rejected: there is no back b…  ? help"))
    #expect(short.hasSuffix("? help  q quit"))
  }

  @Test("at 80 columns a long label is cut with an ellipsis, its outcome kept")
  func longLabelAtEightyColumns() {
    var (app, _) = makeApp()
    app.send(.categorySelected(app.store.domain.ref("espresso-machines")))
    let status = draw(&app, columns: 80).line(29)
    #expect(
      status == " ● REC  1 event  00:00  s.journal  last: categorySel… → applied  ? help  q quit")
    // Where the whole label fits, it is whole.
    #expect(draw(&app).line(29).contains("last: categorySelected espresso-machines → applied"))
  }

  /// A live app over a store recording to `path` through `faults`, its durability left
  /// to flushes (none of the store's own second).
  private func makeRecordingApp(_ path: String, _ faults: FaultyFileSystem) throws
    -> LiveApp<NavigationDomain>
  {
    var journal = JournalWriterOptions()
    journal.system = faults.calls
    let domain = NavigationDomain()
    let store = try Store(
      domain: domain, recordingTo: path,
      options: RecordingOptions(snapshotInterval: 64, journal: journal, durableWithin: nil))
    return LiveApp(
      store: store, screen: domain.makeScreen(), journal: "full.journal",
      clock: ManualClock().read)
  }

  @Test("before the process stops (Ctrl-Z), the events sent are made durable")
  func durableBeforeSuspending() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("z.journal")
    var app = try makeRecordingApp(path, FaultyFileSystem())
    for key in ["v", "s", "c"] { _ = app.handle(.key(.character(Character(key)))) }
    #expect(app.eventCount == 3)
    app.willSuspend()
    // Read by another reader while the store is open: durable, not only written.
    #expect(try Timeline<NavigationDomain>(path: path).lastSequence == 3)
    try app.store.close()
  }

  @Test("? shows the keys over the screen; any key closes them without acting")
  func help() {
    var (app, _) = makeApp()
    #expect(app.handle(.key(.character("?"))) == .continue)
    let shown = draw(&app).lines.joined(separator: "\n")
    #expect(shown.contains("rewind live: keys"))
    #expect(shown.contains("cycle the column visibility"))
    #expect(shown.contains("quit: close the journal"))
    #expect(app.handle(.key(.character("q"))) == .continue)
    #expect(!app.showsHelp)
    #expect(app.eventCount == 0)
    #expect(!draw(&app).lines.joined().contains("rewind live: keys"))
    #expect(app.handle(.key(.character("q"))) == .quit)
  }

  @Test("clicks reach the screen at the places it drew")
  func clicks() {
    var (app, _) = makeApp()
    let screen = draw(&app)
    let row = screen.lines[0]
    let column = TerminalText.width(row[..<row.range(of: "Tuesday")!.lowerBound])
    #expect(app.handle(.mouse(MouseEvent(.press, column: column, row: 0))) == .continue)
    #expect(app.store.state.menu.selectedIndex == 1)
  }

  @Test("the minimum size leaves a row for the status line")
  func minimumSize() {
    let (app, _) = makeApp()
    #expect(app.minimumSize == TerminalSize(columns: 60, rows: 13))
    #expect(app.tickInterval == .seconds(1))
  }

  @Test(
    "the events sent are durable within a second, the store's doing: no tick waits for the disk")
  func durableWithinASecond() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("live.journal")
    let domain = NavigationDomain()
    let store = try Store(domain: domain, recordingTo: path)
    var app = LiveApp(
      store: store, screen: domain.makeScreen(), journal: path, clock: MonotonicClock.now)
    _ = app.handle(.key(.character("s")))
    _ = app.handle(.key(.character("c")))
    // Durable before the journal is closed, with no flush and no other event: another
    // reader sees both events (the store's default is a second; bounded here at ten).
    let deadline = ContinuousClock.now + .seconds(10)
    var seen: UInt64 = 0
    while seen < 2, ContinuousClock.now < deadline {
      Thread.sleep(forTimeInterval: 0.05)
      seen = (try? Timeline<NavigationDomain>(path: path).lastSequence) ?? 0
    }
    #expect(seen == 2)
    try store.close()
  }
}

@Suite("rewind live: the command in-process")
struct LiveCommandTests {
  let tool = RewindTool.cli(domains: [NavigationDomain.self])

  @Test("not a terminal: exit 1, the message, no journal")
  func notATerminal() {
    let directory = TemporaryDirectory()
    let context = Context.capture(currentDirectory: directory.path)
    let path = directory.file("x.journal")
    #expect(tool.run(arguments: ["live", "-o", path], context: context) == 1)
    #expect(context.stderr.text.hasPrefix("Error: `rewind live` needs a terminal"))
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test("bad option values are usage errors, before anything else")
  func badOptions() {
    let context = Context.capture()
    #expect(tool.run(arguments: ["live", "--layout", "four"], context: context) == 64)
    #expect(
      context.stderr.text.hasPrefix(
        "Error: The value 'four' is invalid for '--layout <layout>': expected twoColumn or threeColumn (or two-column, three-column)"
      ))
    let device = Context.capture()
    #expect(tool.run(arguments: ["live", "--device", "pixel"], context: device) == 64)
    #expect(device.stderr.text.contains("'--device <device>': expected iphone or ipad"))
  }

  @Test(
    "--layout takes the scenario setting's words: three-column and threeColumn alike",
    arguments: ["three-column", "threeColumn", "two-column", "twoColumn"])
  func layoutSpellings(layout: String) {
    let directory = TemporaryDirectory()
    let context = Context.capture(currentDirectory: directory.path)
    let path = directory.file("x.journal")
    // Accepted: the command goes on to find it has no terminal (not a usage error).
    #expect(tool.run(arguments: ["live", "--layout", layout, "-o", path], context: context) == 1)
    #expect(context.stderr.text.hasPrefix("Error: `rewind live` needs a terminal"))
  }

  @Test("help lists the screen's keys and the app's")
  func help() {
    let context = Context.capture()
    #expect(tool.run(arguments: ["help", "live"], context: context) == 0)
    let text = context.stdout.text
    #expect(text.contains("Keys (also shown by `?`):"))
    #expect(text.contains("Tab  Shift-Tab"))
    #expect(text.contains("cycle the column visibility"))
    #expect(text.contains("quit: close the journal and print its name"))
    #expect(text.contains("--size-class <class>"))
  }

  @Test("the default journal name is the local time of the start")
  func defaultName() {
    let name = LiveCommand.defaultJournalName(at: 1_767_225_600_000_000)
    #expect(name.hasPrefix("session-2026") || name.hasPrefix("session-2025"))
    #expect(name.hasSuffix(".journal"))
    #expect(name.count == "session-YYYYMMDD-HHMMSS.journal".count)
  }

  @Test("a default name that is taken (two sessions in one second) gets -2, -3, …")
  func freeName() throws {
    let directory = TemporaryDirectory()
    let start: Int64 = 1_767_225_600_000_000
    let here = directory.path + "/"
    let name = LiveCommand.defaultJournalName(at: start)
    #expect(LiveCommand.freeJournalName(at: start, in: here) == here + name)
    "".writeFixture(to: here + name)
    let stem = name.dropLast(".journal".count)
    #expect(LiveCommand.freeJournalName(at: start, in: here) == here + "\(stem)-2.journal")
    // A link that leads nowhere takes its name too.
    try FileManager.default.createSymbolicLink(
      atPath: here + "\(stem)-2.journal", withDestinationPath: "nowhere")
    #expect(LiveCommand.freeJournalName(at: start, in: here) == here + "\(stem)-3.journal")
  }
}

/// A monotonic clock that moves only when told.
final class ManualClock: Sendable {
  private let nanoseconds = Atomic<UInt64>(1_000_000_000)
  func read() -> UInt64 { nanoseconds.load(ordering: .relaxed) }
  func advance(_ amount: UInt64) { nanoseconds.add(amount, ordering: .relaxed) }
}
