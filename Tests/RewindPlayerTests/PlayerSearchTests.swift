import Navigation
import RewindCore
import RewindJournal
import TestSupport
import Testing

@testable import RewindPlayer

/// `/`, `n` and `N`: the find language from the cursor, forwards and backwards.
@Suite("Player: find, next and previous")
struct PlayerSearchTests {
  func find(_ player: Player<NavigationDomain>, _ text: String) {
    _ = player.perform(.beginPrompt(.find))
    for character in text { _ = player.perform(.type(character)) }
    _ = player.perform(.submit)
  }

  @Test("messages name points as the position line does: numbers grouped, 0 as the start")
  func pointsInMessages() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("long.journal")
    _ = try recordGenerated(at: path, count: 3_000, seed: 17)
    let player = try Player(
      timeline: Timeline<NavigationDomain>(path: path), at: .sequence(2_000))
    find(player, "outcome == rejected")
    let hit = player.cursor
    #expect(hit > 2_000)
    #expect(
      player.message?.text.hasPrefix("outcome == \"rejected\" at \(Format.point(hit)) (n: next)")
        == true, "\(String(describing: player.message))")
    #expect(player.message?.text.contains(",") == true)
    _ = player.perform(.go(to: .end))
    _ = player.perform(.nextMatch)
    #expect(
      player.message?.text == "No point after event 3,000 where outcome == \"rejected\" holds.")
    // The start is `the start`, as `rewind diff` says.
    _ = player.perform(.go(to: .start))
    _ = player.perform(.mark)
    #expect(player.message?.text == "Marked the start; d shows the diff from here.")
    _ = player.perform(.go(to: .sequence(1_500)))
    _ = player.perform(.mark)
    #expect(player.message?.text == "Marked event 1,500; d shows the diff from here.")
  }

  @Test("/ finds the next point where a condition becomes true; n and N walk the matches")
  func walk() throws {
    let player = try player("iphone-compact.journal")
    find(player, "split.compactColumn == sidebar")
    // At the start the column is the sidebar already; it becomes so again at event 6.
    #expect(player.cursor == 6)
    #expect(player.search == (try Condition(parsing: "split.compactColumn == sidebar")))
    #expect(player.message?.text.hasPrefix("split.compactColumn == \"sidebar\" at event 6") == true)
    let all = try player.timeline.find(
      Condition(parsing: "split.compactColumn == sidebar"), all: true
    ).map(\.sequence)
    #expect(all == [0, 6, 19])
    _ = player.perform(.nextMatch)
    #expect(player.cursor == 19)
    _ = player.perform(.nextMatch)
    #expect(player.cursor == 19)
    #expect(
      player.message?.text
        == "No point after event 19 where split.compactColumn == \"sidebar\" becomes true.")
    _ = player.perform(.previousMatch)
    #expect(player.cursor == 6)
    _ = player.perform(.previousMatch)
    #expect(player.cursor == 0)
    #expect(player.message?.text.contains("at the start") == true)
    _ = player.perform(.previousMatch)
    #expect(player.cursor == 0)
    #expect(player.message?.text.hasPrefix("No point before the start") == true)
  }

  @Test("changed(…) stops at every event that changes the field, both ways")
  func changes() throws {
    let seed = testSeed("changes")
    let directory = TemporaryDirectory()
    let path = directory.file("generated.journal")
    _ = try recordGenerated(at: path, count: 3_000, seed: seed, interval: 128)
    let player = try Player(timeline: Timeline<NavigationDomain>(path: path))
    let condition = try Condition(parsing: "changed(split.selectedCategory)")
    let all = try player.timeline.find(condition, all: true).map(\.sequence)
    #expect(all.count > 3)
    find(player, "changed(split.selectedCategory)")
    var forward = [player.cursor]
    while true {
      let before = player.cursor
      _ = player.perform(.nextMatch)
      if player.cursor == before { break }
      forward.append(player.cursor)
    }
    #expect(forward == all)
    var backward = [player.cursor]
    while true {
      let before = player.cursor
      _ = player.perform(.previousMatch)
      if player.cursor == before { break }
      backward.append(player.cursor)
    }
    #expect(backward == all.reversed())
  }

  @Test("a condition that does not fit the fields says why; n without a search says how")
  func errors() throws {
    let player = try player("iphone-compact.journal")
    _ = player.perform(.nextMatch)
    #expect(player.message == PlayerMessage(.info, "No search yet: press / and type a condition."))
    find(player, "split.style == Balanced")
    #expect(player.cursor == 0)
    #expect(player.message?.kind == .error)
    #expect(player.message?.text.contains("split.style holds") == true)
    find(player, "split.nothing == 3")
    #expect(player.message?.text.contains("'split.nothing' is not a state field") == true)
    find(player, "split.style = balanced")
    #expect(player.message?.text.contains("a single = does not compare") == true)
    #expect(player.search == nil)
  }
}

@Suite("Player: the find language's compound conditions")
struct PlayerCompoundSearchTests {
  @Test("/ takes &&, ||, ! and conditions on the event; n and N walk find's matches")
  func compound() throws {
    let seed = testSeed("compound")
    let directory = TemporaryDirectory()
    let path = directory.file("generated.journal")
    _ = try recordGenerated(at: path, count: 3_000, seed: seed, interval: 128)
    let player = try Player(timeline: Timeline<NavigationDomain>(path: path))
    for text in [
      "outcome == applied && event == itemSelected",
      "menu.selectedIndex >= 2 && !(split.selectedCategory == null)",
      "changed(split.selectedCategory) || event == backTapped",
    ] {
      let all = try player.timeline.find(Condition(parsing: text), all: true).map(\.sequence)
      #expect(all.count > 2, "\(text)")
      _ = player.perform(.beginPrompt(.find))
      for character in text { _ = player.perform(.type(character)) }
      _ = player.perform(.submit)
      var forward = [player.cursor]
      while true {
        let before = player.cursor
        _ = player.perform(.nextMatch)
        if player.cursor == before { break }
        forward.append(player.cursor)
      }
      // From the start, the first match is the first after it (or the start itself).
      #expect(forward.filter { $0 > 0 } == all.filter { $0 > 0 }, "seed \(seed), \(text)")
      var backward = [player.cursor]
      while true {
        let before = player.cursor
        _ = player.perform(.previousMatch)
        if player.cursor == before { break }
        backward.append(player.cursor)
      }
      #expect(backward == Array(all.reversed()), "seed \(seed), \(text)")
      try player.go(to: .sequence(0))
    }
  }

  @Test("a slip in a compound condition is placed, with the word meant")
  func slip() throws {
    let player = try player("iphone-compact.journal")
    _ = player.perform(.beginPrompt(.find))
    for character in "split.overlay == true || event == backTaped" {
      _ = player.perform(.type(character))
    }
    _ = player.perform(.submit)
    #expect(player.message?.kind == .error)
    #expect(player.message?.text.contains("at column 35") == true)
    // The suggestion first: the one line the message has cut the list of kinds after it.
    #expect(
      player.message?.text.hasPrefix(
        "split.overlay == true || event == backTaped: Did you mean 'backTapped'? (at column 35: ")
        == true, "\(player.message?.text ?? "")")
  }

  @Test(
    "a value in single quotes is refused with how to write it, first on the message's one line (it got a \"did you mean\" of what was typed)"
  )
  func singleQuotes() throws {
    let player = try player("iphone-compact.journal")
    _ = player.perform(.beginPrompt(.find))
    let text = "split.selectedItem == 'espresso-machines/strada/strada-mp'"
    for character in text { _ = player.perform(.type(character)) }
    _ = player.perform(.submit)
    #expect(player.message?.kind == .error)
    #expect(
      player.message?.text
        == #"at column 23: single quotes do not quote a value: write "espresso-machines/strada/strada-mp" (in double quotes) or espresso-machines/strada/strada-mp (a bare word) (in "#
        + text + ")")
  }
}
