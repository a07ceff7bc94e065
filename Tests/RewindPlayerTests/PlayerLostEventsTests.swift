import Navigation
import RewindCore
import RewindJournal
import RewindTerminal
import TestSupport
import Testing

@testable import RewindPlayer

/// The player on a salvaged journal: the points on both sides of the events lost to
/// damage are shown as the intact journal's, their neighbours listed up to the lost
/// events; the last lost event's point shows the snapshot stored after them, the other
/// lost events' points are refused, and stepping goes over them.
@Suite("The player on a journal with events lost to damage")
struct PlayerLostEventsTests {
  /// A 1,000-event journal and the same with one frame in the middle dropped by salvage,
  /// and the events that frame held.
  func salvaged(in directory: TemporaryDirectory) throws -> (
    intact: String, salvaged: String, lost: ClosedRange<UInt64>
  ) {
    let intact = directory.file("intact.journal")
    _ = try recordGenerated(at: intact, count: 1_000, seed: testSeed("lost events"))
    let frames = try JournalReader(path: intact).frames
    try #require(frames.count >= 3)
    let victim = frames[frames.count / 2]
    let salvaged = directory.file("salvaged.journal")
    _ = try Journal.recover(
      path: intact, output: salvaged, salvage: true,
      repairs: [victim.offset: .drop(reason: "a test drops it")], system: .live)
    return (intact, salvaged, victim.sequenceRange)
  }

  @Test("the points next to the lost events show the intact journal's states and neighbours")
  func pointsBesideTheLostEvents() throws {
    let directory = TemporaryDirectory()
    let (intact, path, lost) = try salvaged(in: directory)
    let whole = try Timeline<NavigationDomain>(path: intact)
    let player = try Player(timeline: Timeline<NavigationDomain>(path: path))
    let reference = try Player(timeline: whole)
    for target in [
      lost.lowerBound - 3, lost.lowerBound - 1, lost.upperBound + 1, lost.upperBound + 3,
    ] {
      _ = player.perform(.go(to: .sequence(target)))
      _ = reference.perform(.go(to: .sequence(target)))
      #expect(player.message == nil, "\(target): \(String(describing: player.message))")
      #expect(player.cursor == target)
      #expect(player.view.state == reference.view.state)
      // What the cursor's event changed, old values included: after the lost events, from
      // the snapshot stored after them.
      #expect(player.view.event == reference.view.event)
      #expect(player.view.changes == reference.view.changes, "\(target)")
      let listed = player.view.nearby.map(\.sequence)
      #expect(listed.contains(target))
      #expect(!listed.contains { lost.contains($0) }, "\(target): \(listed)")
      #expect(listed == reference.view.nearby.map(\.sequence).filter { !lost.contains($0) })
    }
  }

  @Test("a lost event's point, or a time among theirs, is refused; steps go over them")
  func lostPoints() throws {
    let directory = TemporaryDirectory()
    let (_, path, lost) = try salvaged(in: directory)
    let timeline = try Timeline<NavigationDomain>(path: path)
    let player = try Player(timeline: timeline)
    _ = player.perform(.go(to: .sequence(lost.lowerBound - 1)))
    _ = player.perform(.go(to: .sequence(lost.lowerBound + 1)))
    #expect(player.cursor == lost.lowerBound - 1)
    #expect(player.message?.text.contains("was lost to damage") == true)
    // A time between the last event before them and the first after them.
    let before = try timeline.time(of: lost.lowerBound - 1)
    let after = try timeline.time(of: lost.upperBound + 1)
    _ = player.perform(.go(to: .offset(microseconds: (before + after) / 2)))
    #expect(player.cursor == lost.lowerBound - 1)
    #expect(player.message?.text.contains("lost to damage") == true)
    // Stepping goes over them, both ways, and says so: on to the state after them (the
    // last of them, whose state is the snapshot stored after them), back to the last
    // event kept before them.
    _ = player.perform(.step(1))
    #expect(player.cursor == lost.upperBound)
    #expect(player.message?.text.contains("lost to damage") == true)
    _ = player.perform(.step(1))
    #expect(player.cursor == lost.upperBound + 1)
    _ = player.perform(.step(-2))
    #expect(player.cursor == lost.lowerBound - 1)
    #expect(player.message?.text.contains("lost to damage") == true)
    _ = player.perform(.step(-1))
    #expect(player.cursor == lost.lowerBound - 2)
    #expect(player.message == nil)
  }

  @Test(
    "the last lost event's point shows the snapshot stored after them, as state --at does; steps visit it"
  )
  func lastLostEvent() throws {
    let directory = TemporaryDirectory()
    let (intact, path, lost) = try salvaged(in: directory)
    let last = lost.upperBound
    let timeline = try Timeline<NavigationDomain>(path: path)
    let player = try Player(timeline: timeline, at: .sequence(last))
    let reference = try Player(
      timeline: Timeline<NavigationDomain>(path: intact), at: .sequence(last))
    /// The cursor shows the state after the lost events, and no event of its own.
    func expectAtLast(_ comment: Comment) {
      #expect(player.cursor == last, comment)
      #expect(player.view.lostEvents == lost, comment)
      #expect(player.view.state == reference.view.state, comment)
      #expect(player.view.event == nil, comment)
      #expect(player.view.changes.isEmpty, comment)
      // The events listed are those after it, as at the first event after them.
      #expect(
        player.view.nearby.map(\.sequence)
          == reference.view.nearby.map(\.sequence).filter { $0 > last }, comment)
    }
    expectAtLast("opened there")
    #expect(try player.view.state == timeline.state(after: last))
    // The screen says what the state is.
    var app = PlayerApp(player: player, title: "t")
    var screen = Screen(size: TerminalSize(columns: 160, rows: 32))
    app.draw(on: &screen)
    let text = (0..<32).map { screen.line($0) }.joined(separator: "\n")
    #expect(
      text.contains(
        "State after \(Format.events(lost)) (lost to damage: the snapshot stored after them)"),
      "\(text)")
    // Its time is not known: only the times of the events kept around the lost ones
    // (not the last kept event's, whose state is another).
    let before = Format.readableOffset(try timeline.time(of: lost.lowerBound - 1))
    let after = Format.readableOffset(try timeline.time(of: lost.upperBound + 1))
    #expect(
      text.contains(
        "event \(Format.count(last)) of \(Format.count(timeline.lastSequence)), the last of \(Format.events(lost)) (lost) · time not known, between \(before) and \(after) of \(Format.duration(timeline.duration))"
      ), "\(text)")
    // Any other lost event is refused as before, the cursor left where it was.
    _ = player.perform(.go(to: .sequence(last - 1)))
    expectAtLast("after a refused point")
    #expect(
      player.message?.text
        == "event \(last - 1) was lost to damage (\(JournalError.describe(lost)) were salvaged away)"
    )
    _ = player.perform(.go(to: .sequence(lost.lowerBound - 1)))
    _ = player.perform(.go(to: .sequence(last)))
    #expect(player.message == nil, "\(String(describing: player.message))")
    expectAtLast("gone to")
    // Its event is not known: there is nothing to skip.
    _ = player.perform(.toggleSkip)
    #expect(player.skipped.isEmpty)
    #expect(player.message?.text.contains("lost to damage") == true)
    expectAtLast("after x")
    // Steps visit it, over the other lost events, both ways.
    _ = player.perform(.step(1))
    #expect(player.cursor == last + 1)
    #expect(player.message == nil)
    _ = player.perform(.step(-1))
    expectAtLast("stepped back to")
    #expect(player.message == nil)
    _ = player.perform(.step(-1))
    #expect(player.cursor == lost.lowerBound - 1)
    #expect(player.message?.text.contains("lost to damage: stepped over them") == true)
    _ = player.perform(.step(1))
    expectAtLast("stepped on to")
    #expect(player.message?.text.contains("lost to damage: stepped over them") == true)
    _ = player.perform(.step(-5))
    #expect(player.cursor == lost.lowerBound - 1)
    // A search goes on from it, both ways, to the intact journal's matches among the
    // events kept (the one after it, the one before the lost events).
    let condition: Condition = .changed(path: "menu.scrollOffset")
    let intactTimeline = try Timeline<NavigationDomain>(path: intact)
    let next = try #require(try intactTimeline.find(condition, after: last))
    let previous = try #require(try intactTimeline.find(condition, before: lost.lowerBound))
    for (forward, expected) in [(true, next.sequence), (false, previous.sequence)] {
      _ = player.perform(.go(to: .sequence(last)))
      player.search = condition
      try player.findNext(forward: forward)
      #expect(player.cursor == expected, "\(String(describing: player.message))")
    }
  }

  @Test(
    "r after the lost events says why it cannot continue there; the player stays; before them it can"
  )
  func continuingAfterLostEvents() throws {
    let directory = TemporaryDirectory()
    let (_, path, lost) = try salvaged(in: directory)
    let player = try Player(
      timeline: Timeline<NavigationDomain>(path: path), at: .sequence(lost.upperBound + 2))
    var app = PlayerApp(player: player, title: "t")
    #expect(app.handle(.key(.character("r"))) == .continue)
    #expect(app.continueRequest == nil)
    #expect(app.player.cursor == lost.upperBound + 2)
    #expect(
      app.player.message
        == PlayerMessage(
          .error,
          "Cannot continue from here: \(Format.events(lost)) were lost to damage, and the new journal would replay through them; continue from a point before event \(lost.lowerBound)."
        ))
    _ = app.player.perform(.go(to: .sequence(lost.lowerBound - 1)))
    #expect(app.handle(.key(.character("r"))) == .quit)
    #expect(app.continueRequest?.sequence == lost.lowerBound - 1)
  }

  @Test("playing waits through the lost events' times, then goes on after them")
  func playsAcross() throws {
    let directory = TemporaryDirectory()
    let (intact, path, lost) = try salvaged(in: directory)
    let clock = ManualClock()
    let timeline = try Timeline<NavigationDomain>(path: path)
    let player = try Player(
      timeline: timeline, at: .sequence(lost.lowerBound - 1), clock: { clock.now })
    let before = try timeline.time(of: lost.lowerBound - 1)
    let after = try timeline.time(of: lost.upperBound + 1)
    _ = player.perform(.togglePlayback)
    // Among their times, the cursor stays before them.
    clock.advance(seconds: Double(after - before) / 2_000_000)
    player.tick()
    #expect(player.cursor == lost.lowerBound - 1)
    #expect(player.message == nil)
    // Past them, it shows the intact journal's point.
    clock.advance(seconds: Double(after - before) / 2_000_000 + 0.05)
    player.tick()
    #expect(player.message == nil, "\(String(describing: player.message))")
    #expect(player.cursor > lost.upperBound && player.cursor < timeline.lastSequence)
    let reference = try Player(timeline: Timeline<NavigationDomain>(path: intact))
    _ = reference.perform(.go(to: .sequence(player.cursor)))
    #expect(player.view.state == reference.view.state)
  }

  @Test("the timeline bar marks the lost events' time with ░ where no kept event is")
  func stripMarksTheGap() throws {
    let directory = TemporaryDirectory()
    let (intact, path, lost) = try salvaged(in: directory)
    /// The density strip of the player on `journal`, without its end marks.
    func strip(_ journal: String) throws -> [Character] {
      var app = PlayerApp(
        player: try Player(timeline: Timeline<NavigationDomain>(path: journal)), title: "t")
      var screen = Screen(size: TerminalSize(columns: 120, rows: 32))
      app.draw(on: &screen)
      let line = try #require((0..<32).map { screen.line($0) }.first { $0.hasPrefix("▕") })
      return Array(line.dropFirst().prefix(118))
    }
    #expect(try !strip(intact).contains("░"))
    let timeline = try Timeline<NavigationDomain>(path: path)
    let (start, end) = (
      try timeline.time(of: lost.lowerBound - 1), try timeline.time(of: lost.upperBound + 1)
    )
    let gap =
      DensityStrip.column(
        of: start, in: 118, duration: timeline.duration)...DensityStrip.column(
        of: end, in: 118, duration: timeline.duration)
    let salvaged = try strip(path)
    let marked = salvaged.indices.filter { salvaged[$0] == "░" }
    #expect(marked.count >= 2, "\(String(salvaged))")
    #expect(marked.allSatisfy { gap.contains($0) }, "\(marked) outside \(gap)")
    // Every column of the gap is marked, or holds kept events (the ones at its ends).
    #expect(gap.allSatisfy { salvaged[$0] != " " }, "\(String(salvaged))")
  }
}
