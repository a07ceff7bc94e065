import Foundation
import Navigation
import RewindCore
import RewindJournal
import TestSupport
import Testing

@testable import RewindPlayer

/// `--follow`: a journal another writer is recording.
@Suite("Player: following a journal being recorded")
struct PlayerFollowTests {
  @Test("new flushed events appear; the cursor stays at the end unless moved")
  func follow() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("live.journal")
    let recorder = try recordGenerated(at: path, count: 50, seed: 7, close: false)
    let player = try Player(timeline: Timeline<NavigationDomain>(path: path), following: true)
    #expect(player.cursor == 50)
    #expect(player.tickInterval == 250_000)
    #expect(!player.tick(), "nothing new")
    var user = SimulatedUser(seed: 8, domain: recorder.domain)
    func record(_ count: Int) throws {
      for _ in 0..<count {
        let (time, event) = user.next()
        try recorder.record(event, at: recorder.lastTime + time % 1_000_000)
      }
    }
    try record(30)
    #expect(!player.tick(), "not flushed yet: nothing on disk")
    try recorder.flush()
    #expect(player.tick())
    #expect(player.lastSequence == 80)
    #expect(player.cursor == 80)
    #expect(player.density.total == 80)
    #expect(player.view.state == (try Timeline<NavigationDomain>(path: path).state(after: 80)))
    // Moved away from the end, the cursor stays where it was.
    _ = player.perform(.step(-10))
    try record(20)
    try recorder.flush()
    #expect(player.tick())
    #expect(player.lastSequence == 100)
    #expect(player.cursor == 70)
    // Back at the end, it follows again; closing the journal changes nothing shown.
    _ = player.perform(.go(to: .end))
    try record(5)
    try recorder.close()
    player.tick()
    #expect(player.cursor == 105)
    #expect(player.density.total == 105)
  }

  @Test("a followed path that comes to hold another session: followed from scratch, and said")
  func replacedByAnotherSession() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("live.journal")
    try recordGenerated(at: path, count: 50, seed: 7).close()
    let player = try Player(timeline: Timeline<NavigationDomain>(path: path), following: true)
    _ = player.perform(.step(-5))
    _ = player.perform(.toggleSkip)
    _ = player.perform(.mark)
    _ = player.perform(.go(to: .end))
    #expect(player.skipped == [45])
    #expect(player.mark == 45)
    // Another session written elsewhere and renamed over the path, longer than the first.
    let other = directory.file("other.journal")
    try recordGenerated(
      at: other, count: 80, seed: 9, session: SessionID(bytes: Array(repeating: 6, count: 16))
    ).close()
    #expect(rename(other, path) == 0)
    #expect(player.tick())
    #expect(player.lastSequence == 80)
    #expect(player.cursor == 80)
    #expect(player.density.total == 80)
    #expect(player.skipped.isEmpty)
    #expect(player.divergence == nil)
    #expect(player.mark == nil)
    #expect(
      player.message?.text
        == "\(path) now holds another session (06060606-0606-0606-0606-060606060606): following that one."
    )
    #expect(player.view.state == (try Timeline<NavigationDomain>(path: path).state(after: 80)))
  }

  @Test("a followed journal that starts empty opens at the start and fills")
  func emptyStart() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("live.journal")
    let recorder = try recordGenerated(at: path, count: 0, seed: 1, close: false)
    let player = try Player(timeline: Timeline<NavigationDomain>(path: path), following: true)
    #expect(player.cursor == 0)
    #expect(player.view.nearby.isEmpty)
    var user = SimulatedUser(seed: 2, domain: recorder.domain)
    for _ in 0..<3 {
      let (time, event) = user.next()
      try recorder.record(event, at: time)
    }
    try recorder.flush()
    #expect(player.tick())
    #expect(player.cursor == 3)
    #expect(player.view.nearby.map(\.sequence) == [1, 2, 3])
  }
}
