import Navigation
import RewindCore
import RewindJournal
import TestSupport
import Testing

@testable import RewindPlayer

/// Playing at the recorded speed on an injected clock.
@Suite("Player: playback")
struct PlayerPlaybackTests {
  @Test("Space plays at the recorded speed: the cursor follows the clock")
  func recordedSpeed() throws {
    let clock = ManualClock()
    let player = try player("iphone-compact.journal", clock: clock)
    let timeline = player.timeline
    #expect(player.tickInterval == nil)
    _ = player.perform(.togglePlayback)
    #expect(player.playback.isPlaying)
    #expect(player.tickInterval == 33_000)
    // Event 1 is at +0s: the first tick shows it.
    #expect(player.tick())
    #expect(player.cursor == 1)
    #expect(!player.tick(), "nothing new without time passing")
    clock.advance(seconds: 4.6)
    player.tick()
    #expect(player.cursor == (try timeline.resolve(.offset(microseconds: 4_600_000))))
    #expect(player.cursor == 3)
    clock.advance(seconds: 0.7)
    player.tick()
    #expect(player.cursor == 3, "event 4 is at +5.4s")
    clock.advance(seconds: 0.1)
    player.tick()
    #expect(player.cursor == 4)
    // Paused, time passes and nothing moves.
    _ = player.perform(.togglePlayback)
    #expect(!player.playback.isPlaying)
    clock.advance(seconds: 10)
    #expect(!player.tick())
    #expect(player.cursor == 4)
    // Playing again goes on from the event shown (+5.4s), not from the clock.
    _ = player.perform(.togglePlayback)
    clock.advance(seconds: 2.8)
    player.tick()
    #expect(player.cursor == 5, "event 5 is at +8.2s")
  }

  @Test("+ and - double and halve the speed, ×0.25 to ×64, without a jump")
  func speeds() throws {
    let clock = ManualClock()
    let player = try player("iphone-compact.journal", clock: clock)
    #expect(player.playback.speedLabel == "×1")
    _ = player.perform(.slower)
    _ = player.perform(.slower)
    #expect(player.playback.speedLabel == "×0.25")
    _ = player.perform(.slower)
    #expect(player.playback.speedLabel == "×0.25")
    #expect(player.message?.text.contains("slowest") == true)
    for _ in 0..<10 { _ = player.perform(.faster) }
    #expect(player.playback.speedLabel == "×64")
    #expect(player.message?.text.contains("fastest") == true)
    for _ in 0..<4 { _ = player.perform(.slower) }
    #expect(player.playback.speed == 4)
    _ = player.perform(.togglePlayback)
    player.tick()
    clock.advance(seconds: 2)  // 8 s of the session
    player.tick()
    #expect(player.cursor == 4, "events up to +8s")
    _ = player.perform(.faster)  // ×8 from +8s on
    clock.advance(seconds: 2)  // +16 s more: +24s
    player.tick()
    #expect(player.cursor == 17, "events up to +24s")
  }

  @Test("playback stops at the end and says so; Space at the end plays from the start")
  func end() throws {
    let clock = ManualClock()
    let player = try player("iphone-compact.journal", clock: clock)
    _ = player.perform(.togglePlayback)
    clock.advance(seconds: 100)
    player.tick()
    #expect(player.cursor == 20)
    #expect(!player.playback.isPlaying)
    #expect(player.message == PlayerMessage(.info, "Played to the end of the session."))
    _ = player.perform(.togglePlayback)
    #expect(player.playback.isPlaying)
    #expect(player.cursor == 0)
  }

  @Test("moving while playing goes on playing from where the cursor went")
  func moveWhilePlaying() throws {
    let clock = ManualClock()
    let player = try player("iphone-compact.journal", clock: clock)
    _ = player.perform(.togglePlayback)
    player.tick()
    _ = player.perform(.go(to: .sequence(10)))  // +13.4s
    #expect(player.playback.isPlaying)
    clock.advance(seconds: 4)
    player.tick()
    #expect(player.cursor == 10, "up to +17.4s: the three events at +17.5s not yet")
    clock.advance(seconds: 0.1)
    player.tick()
    #expect(player.cursor == 13)
  }
}
