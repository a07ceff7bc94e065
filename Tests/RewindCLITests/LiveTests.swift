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
    // Nor does an Alt key (it came as Esc, the back button, and then the key).
    for character: Character in ["v", "s", "q", "c"] {
      #expect(app.handle(.key(.alt(character))) == .continue)
    }
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

  @Test(
    "a long journal name is cut with an ellipsis, the last event keeping its room (the name ran under the keys, the event gone)"
  )
  func longJournalName() {
    let domain = NavigationDomain()
    let name = "a-very-long-journal-name-for-the-status-line-that-goes-on-and-on-and-on.journal"
    var app = LiveApp(
      store: Store(domain: domain), screen: domain.makeScreen(), journal: name,
      earlierEvents: 0, clock: ManualClock().read)
    // Before the first event, the whole room.
    #expect(draw(&app, columns: 140).line(29).contains(" \(name) "))
    _ = app.handle(.key(.character("v")))
    for columns in [120, 100, 80] {
      let status = draw(&app, columns: columns).line(29)
      #expect(status.contains(" a-very-long-journa"), "\(status)")
      #expect(status.contains("…  last: c"), "\(status)")
      #expect(status.contains("→ applied"), "\(status)")
      #expect(status.hasSuffix("? help  q quit"), "\(status)")
    }
    // A short name stays whole.
    var short = makeApp().0
    #expect(draw(&short).line(29).contains(" s.journal "))
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

  @Test(
    "on a full disk the status line says it first, q asks, and once space is freed q writes every event"
  )
  func fullDiskThenFreed() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("full.journal")
    let faults = FaultyFileSystem()
    var app = try makeRecordingApp(path, faults)
    faults.fail(.write, with: ENOSPC)
    for key in ["v", "s", "c"] { _ = app.handle(.key(.character(Character(key)))) }
    #expect(throws: RewindError.self) { try app.store.flushAndWait() }
    let status = draw(&app).line(29)
    #expect(
      status.hasPrefix(
        " ! REC  3 events  00:00  full.journal  disk full: 3 events not written yet "),
      "\(status)")
    // On a narrow line the journal's name gives way, then the end of the sentence.
    #expect(
      draw(&app, columns: 80).line(29)
        == " ! REC  3 events  00:00  disk full: 3 events not written yet     ? help  q quit"
    )
    #expect(
      draw(&app, columns: 60).line(29)
        == " ! REC  3 events  00:00  disk full: 3 even…  ? help  q quit")

    #expect(app.handle(.key(.character("q"))) == .continue)
    #expect(app.asksBeforeQuitting)
    let asked = draw(&app).lines.joined(separator: "\n")
    #expect(asked.contains("3 events are not written yet: disk full"), "\(asked)")
    #expect(asked.contains("free space, q  writes them, closes the journal and quits"))
    #expect(asked.contains("Q, Ctrl-C      quit without them: they are lost"))
    #expect(
      asked.contains(
        "No space left on device (errno 28). Any other key goes back: they are retried."))
    // q with the disk still full does not quit (it lost the events): the box stays, and
    // says they are still not written.
    #expect(app.handle(.key(.character("q"))) == .continue)
    #expect(app.asksBeforeQuitting)
    let again = draw(&app).lines.joined(separator: "\n")
    #expect(again.contains("3 events are not written yet: disk full"), "\(again)")
    #expect(again.contains("Still not written: No space left on device (errno 28)."), "\(again)")
    #expect(app.store.pendingCount == 3)
    // Any other key goes back to the session, and does nothing else.
    #expect(app.handle(.key(.character("s"))) == .continue)
    #expect(!app.asksBeforeQuitting)
    #expect(app.eventCount == 3)
    // Asked again, the box no longer says "still".
    #expect(app.handle(.key(.character("q"))) == .continue)
    #expect(!draw(&app).lines.joined().contains("Still not written"))
    #expect(app.handle(.key(.character("s"))) == .continue)

    faults.heal()
    try app.store.flushAndWait()
    #expect(app.store.lastError == nil)
    #expect(draw(&app).line(29).contains("last: sizeClassChanged compact → applied"))
    // Nothing left to lose: q quits at once.
    #expect(app.handle(.key(.character("q"))) == .quit)
    try app.store.close()
    #expect(try Timeline<NavigationDomain>(path: path).lastSequence == 3)
  }

  @Test(
    "q asked on a full disk: freed space meanwhile is said, q writes the events then quits, Q quits without them"
  )
  func fullDiskQuestion() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("full.journal")
    let faults = FaultyFileSystem()
    var app = try makeRecordingApp(path, faults)
    faults.fail(.write, with: ENOSPC)
    _ = app.handle(.key(.character("v")))
    #expect(throws: RewindError.self) { try app.store.flushAndWait() }
    #expect(app.handle(.key(.character("q"))) == .continue)
    #expect(draw(&app).lines.joined().contains("1 event is not written yet: disk full"))
    faults.heal()
    try app.store.flushAndWait()
    let freed = draw(&app).lines.joined(separator: "\n")
    #expect(freed.contains("Every event is written now"), "\(freed)")
    #expect(freed.contains("close the journal with every event, and quit"))
    #expect(app.handle(.key(.character("q"))) == .quit)
    try app.store.close()

    // Space freed and the store not retried yet: q writes the events, then quits.
    let third = directory.file("third.journal")
    let freedLater = FaultyFileSystem()
    var waiting = try makeRecordingApp(third, freedLater)
    freedLater.fail(.write, with: ENOSPC)
    _ = waiting.handle(.key(.character("v")))
    #expect(throws: RewindError.self) { try waiting.store.flushAndWait() }
    #expect(waiting.handle(.key(.character("q"))) == .continue)
    freedLater.heal()
    #expect(waiting.handle(.key(.character("q"))) == .quit)
    #expect(waiting.store.pendingCount == 0)
    try waiting.store.close()
    #expect(try Timeline<NavigationDomain>(path: third).lastSequence == 1)

    // Still full: q stays, Q quits without them, and the message says they are lost.
    let second = directory.file("second.journal")
    let full = FaultyFileSystem()
    var stuck = try makeRecordingApp(second, full)
    full.fail(.write, with: ENOSPC)
    for key in ["v", "s"] { _ = stuck.handle(.key(.character(Character(key)))) }
    #expect(throws: RewindError.self) { try stuck.store.flushAndWait() }
    #expect(stuck.handle(.key(.character("q"))) == .continue)
    #expect(stuck.handle(.key(.character("q"))) == .continue)
    #expect(stuck.handle(.key(.character("Q"))) == .quit)
    let error = try #require(throws: RewindError.self) { try stuck.store.close() }
    #expect("\(error)".contains("stay buffered"), "the store's own words, for a library")
    let reader = try JournalReader(path: second)
    let message = LiveJournalFailure.closingFailed(
      error, path: "second.journal", sent: 2, pending: stuck.store.pendingCount,
      held: (reader.lastSequence, reader.condition.isClosed))
    #expect(
      message
        == "second.journal: 2 events were lost (events 1–2), not written: disk full (No space left on device (errno 28)); the journal holds no event and is not closed: `rewind recover second.journal` closes it"
    )
  }

  @Test("the message of a close that failed: what was lost, what the journal holds, recover")
  func closingFailedMessages() {
    let cause = JournalError(
      .io, "cannot write 1017 bytes; events 12201–15201 are not written yet and stay buffered",
      path: "s.journal", byteOffset: 8192, cause: .errno(ENOSPC, name: "No space left on device"))
    let error = RewindError(.recording, "s.journal: closing the journal failed", cause: cause)
    #expect(
      LiveJournalFailure.closingFailed(
        error, path: "s.journal", sent: 15_201, pending: 3_001, held: (12_200, false))
        == "s.journal: 3,001 events were lost (events 12201–15201), not written: disk full (No space left on device (errno 28)); the journal holds the 12,200 events before them and is not closed: `rewind recover s.journal` closes it"
    )
    #expect(
      LiveJournalFailure.closingFailed(
        error, path: "my s.journal", sent: 15_201, pending: 1, held: nil)
        == "my s.journal: the last 1 event was lost, not written: disk full (No space left on device (errno 28)); `rewind verify 'my s.journal'` says what the journal holds, and `rewind recover 'my s.journal'` closes it if it is not"
    )
    // Every event in the journal: the store's message, and recover when it is not closed.
    #expect(
      LiveJournalFailure.closingFailed(
        error, path: "s.journal", sent: 12_200, pending: 0, held: (12_200, false))
        == "\(error); the journal is not closed: `rewind recover s.journal` closes it")
    let status = LiveJournalFailure.status(error, pending: 3_000, recording: true)
    #expect(status == "disk full: 3,000 events not written yet")
    #expect(
      LiveJournalFailure.status(error, pending: 0, recording: false)
        == "recording stopped: disk full")
  }

  @Test("before the process stops (Ctrl-Z), the events sent are made durable")
  func durableBeforeSuspending() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("z.journal")
    let faults = FaultyFileSystem()
    var app = try makeRecordingApp(path, faults)
    for key in ["v", "s", "c"] { _ = app.handle(.key(.character(Character(key)))) }
    #expect(app.eventCount == 3)
    // The store makes nothing durable by itself here (`durableWithin: nil`).
    #expect(try Timeline<NavigationDomain>(path: path).lastSequence == 0)
    let synced = faults.count(.syncFile)
    app.willSuspend()
    // Written (another reader sees them while the store is open) and synced to the disk.
    #expect(try Timeline<NavigationDomain>(path: path).lastSequence == 3)
    #expect(faults.count(.syncFile) > synced, "the journal is synced before the stop")
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
    // What a full disk does to the keys, as the box and the exit say (the help said that
    // q again, or Ctrl-C, kept every event).
    let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(flat.contains("press q again to write them (with the disk still full, q stays); Q,"))
    #expect(flat.contains("quits without them: they are lost, and the message says so (exit 1)"))
    #expect(flat.contains("stop at once (the journal keeps every event the disk took)"))
    #expect(!flat.contains("keeps every event)"))
    #expect(text.contains("\n  1       The journal did not take every event"), "\(text)")
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
