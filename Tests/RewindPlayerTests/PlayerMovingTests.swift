import Navigation
import RewindCore
import RewindJournal
import TestSupport
import Testing

@testable import RewindPlayer

/// Moving the cursor: one event, a hundred, the ends, a typed point; what is shown there.
@Suite("Player: moving the cursor")
struct PlayerMovingTests {
  @Test("the view at every point is the timeline's state, the event and what it changed")
  func viewAtEveryPoint() throws {
    let player = try player("iphone-compact.journal")
    let timeline = try Timeline<NavigationDomain>(path: sample("iphone-compact.journal"))
    let domain = timeline.domain
    #expect(player.cursor == 0)
    #expect(player.view.event == nil)
    #expect(player.view.changes.isEmpty)
    #expect(player.view.state == domain.initialState)
    #expect(player.view.nearby.map(\.sequence) == Array(1...20))
    for sequence in 1...timeline.lastSequence {
      #expect(player.perform(.step(1)) == .continue)
      #expect(player.cursor == sequence)
      let state = try timeline.state(after: sequence)
      #expect(player.view.state == state)
      #expect(player.view.changes == domain.diff(try timeline.state(after: sequence - 1), state))
      #expect(player.view.time == (try timeline.time(of: sequence)))
      #expect(player.view.event?.sequence == sequence)
      #expect(player.view.differencesFromRecording.isEmpty)
    }
    // Event 8 (expanding KB90, which has no children) was rejected: it changed nothing.
    _ = player.perform(.go(to: .sequence(8)))
    #expect(player.view.event?.description == "itemExpanded espresso-machines/kb90")
    #expect(
      player.view.event?.fate == .rejected("the item has no children to show or hide"))
    #expect(player.view.changes.isEmpty)
    _ = player.perform(.go(to: .sequence(1)))
    #expect(player.view.event?.fate == .applied)
    #expect(player.view.event?.changedPaths.contains("split.selectedCategory") == true)
    #expect(
      player.view.changes.first { $0.path == "split.selectedCategory" }
        == FieldChange(path: "split.selectedCategory", old: .null, new: "grinders"))
  }

  @Test("steps stop at the ends and say so; a hundred, Home and End")
  func ends() throws {
    let seed = testSeed("ends")
    let directory = TemporaryDirectory()
    let path = directory.file("generated.journal")
    _ = try recordGenerated(at: path, count: 1_000, seed: seed)
    let player = try Player(timeline: Timeline<NavigationDomain>(path: path))
    #expect(player.perform(.step(-1)) == .continue)
    #expect(player.cursor == 0)
    #expect(player.message == PlayerMessage(.info, "At the start of the session."))
    _ = player.perform(.step(100))
    #expect(player.cursor == 100)
    #expect(player.message == nil)
    #expect(player.view.nearby.first?.sequence == 68)
    #expect(player.view.nearby.last?.sequence == 132)
    _ = player.perform(.step(-1))
    #expect(player.cursor == 99)
    _ = player.perform(.go(to: .end))
    #expect(player.cursor == 1_000)
    // At an end, as many events listed as in the middle: the ones before it.
    #expect(player.view.nearby.map(\.sequence) == Array(936...1_000))
    _ = player.perform(.step(100))
    #expect(player.cursor == 1_000)
    #expect(player.message == PlayerMessage(.info, "At the end of the session."))
    _ = player.perform(.step(-100))
    #expect(player.cursor == 900)
    _ = player.perform(.go(to: .start))
    #expect(player.cursor == 0)
    #expect(player.view.nearby.map(\.sequence) == Array(1...65))
    _ = player.perform(.go(to: .sequence(10)))
    #expect(player.view.nearby.map(\.sequence) == Array(1...65))
    // Random moves give the state a full replay gives.
    let timeline = try Timeline<NavigationDomain>(path: path)
    var random = SplitMix64(seed: seed)
    for _ in 0..<50 {
      let target = UInt64.random(in: 0...1_000, using: &random)
      _ = player.perform(.go(to: .sequence(target)))
      #expect(player.cursor == target)
      #expect(player.view.state == (try timeline.replayedState(after: target)))
    }
  }

  @Test("g goes to a point in the usual syntax; a bad one says why and stays")
  func goToPrompt() throws {
    let player = try player("iphone-compact.journal")
    let timeline = try Timeline<NavigationDomain>(path: sample("iphone-compact.journal"))
    func go(_ text: String) {
      _ = player.perform(.beginPrompt(.goTo))
      for character in text { _ = player.perform(.type(character)) }
      #expect(player.prompt == Prompt(.goTo, text: text))
      _ = player.perform(.submit)
      #expect(player.prompt == nil)
    }
    go("12")
    #expect(player.cursor == 12)
    go("+5s")
    #expect(player.cursor == (try timeline.resolve(.offset(microseconds: 5_000_000))))
    #expect(player.cursor == 3, "event 3 is at +4.5s, event 4 at +5.4s")
    go("2026-11-30T12:40:10.5Z")
    #expect(player.cursor == 7)
    // A time as the player shows it (to the millisecond) reaches the event shown at it.
    let generated = try RewindPlayerTests.player("generated-200k.journal")
    _ = generated.perform(.beginPrompt(.goTo))
    for character in "+93.485s" { _ = generated.perform(.type(character)) }
    _ = generated.perform(.submit)
    #expect(generated.cursor == 1_003, "event 1003 is at 93.485203 s")
    go("end")
    #expect(player.cursor == 20)
    go("start")
    #expect(player.cursor == 0)
    go("7")
    go("soon")
    #expect(player.cursor == 7)
    #expect(player.message?.kind == .error)
    #expect(player.message?.text.contains("'soon' is not a point") == true)
    go("21")
    #expect(player.cursor == 7)
    #expect(
      player.message
        == PlayerMessage(
          .error, "event 21 is beyond the end of the session (points are 0–20)"))
    // Typing edits; Esc closes without moving; a control character is not typed.
    _ = player.perform(.beginPrompt(.goTo))
    for character in "15x" { _ = player.perform(.type(character)) }
    _ = player.perform(.erase)
    _ = player.perform(.type("\u{1B}"))
    #expect(player.prompt?.text == "15")
    _ = player.perform(.dismiss)
    #expect(player.prompt == nil)
    #expect(player.cursor == 7)
    // Another action closes the prompt and is done.
    _ = player.perform(.beginPrompt(.goTo))
    _ = player.perform(.step(1))
    #expect(player.prompt == nil)
    #expect(player.cursor == 8)
  }

  @Test("the density strip counts every event by its recorded outcome over time")
  func density() throws {
    let player = try player("iphone-compact.journal")
    #expect(player.density.total == 20)
    let columns = player.density.columns(10, duration: player.timeline.duration)
    #expect(columns.reduce(0) { $0 + $1.total } == 20)
    #expect(columns.reduce(0) { $0 + $1.rejected } == 2)
    // The first event is at +0s, the last two rejected-or-not at the end.
    #expect(columns[0].total >= 1)
    #expect(columns[9].rejected == 1)
  }

  @Test("quit asks to leave")
  func quit() throws {
    let player = try player("day-menu.journal")
    #expect(player.perform(.quit) == .quit)
  }
}
