import Navigation
import RewindCore
import RewindJournal
import TestSupport
import Testing

@testable import RewindPlayer

/// `x` (skip and restore), `m` and `d` (the diff from a mark), `r` (continue from here).
@Suite("Player: skip, mark and diff, continue")
struct PlayerCounterfactualTests {
  @Test("a list of events is written as --skip takes it: 1,200, 1,350 read as four numbers")
  func eventLists() {
    #expect(Player<NavigationDomain>.list([3, 1_200, 1_350]) == "3, 1200, 1350")
  }

  @Test("x skips the event at the cursor: the state without it, later events flagged; x restores")
  func skip() throws {
    let player = try player("iphone-compact.journal")
    let timeline = player.timeline
    let recorded = player.view
    _ = player.perform(.step(1))
    _ = player.perform(.toggleSkip)  // without selecting Grinders
    #expect(player.skipped == [1])
    #expect(player.view.event?.fate == .skipped)
    #expect(player.view.state == timeline.domain.initialState)
    #expect(player.view.changes.isEmpty)
    #expect(
      player.view.differencesFromRecording
        == timeline.domain.diff(try timeline.state(after: 1), timeline.domain.initialState))
    // Selecting Swift without its category is rejected now: flagged, as are the others
    // whose effect differs from the recording's.
    let line2 = try #require(player.view.nearby.first { $0.sequence == 2 })
    #expect(line2.differsFromRecording)
    #expect(line2.recordedOutcome == "applied")
    guard case .rejected = line2.fate else {
      Issue.record("event 2 is \(line2.fate) without event 1")
      return
    }
    // The flags agree with a replay compared event by event with the recording.
    var expected: [UInt64] = []
    try timeline.events(from: 1, through: 20, skipping: [1]) { event, changed, _ in
      if let outcome = event.outcome,
        RecordedEffect(outcome, changed: changed) != event.recorded
      {
        expected.append(event.sequence)
      }
      return true
    }
    #expect(!expected.isEmpty)
    #expect(player.view.nearby.filter(\.differsFromRecording).map(\.sequence) == expected)
    #expect(player.divergence?.events == expected)
    #expect(player.divergence?.count == expected.count)
    #expect(player.message?.text.hasPrefix("Skipping event 1. ") == true)
    // Moving on keeps showing the counterfactual.
    _ = player.perform(.go(to: .end))
    #expect(player.view.state == (try timeline.state(after: 20, skipping: [1])))
    #expect(
      player.view.differencesFromRecording.isEmpty == (player.divergence?.endStateDiffers == false))
    // x on the skipped event restores it.
    _ = player.perform(.go(to: .sequence(1)))
    _ = player.perform(.toggleSkip)
    #expect(player.skipped.isEmpty)
    #expect(player.divergence == nil)
    #expect(player.message == PlayerMessage(.info, "Event 1 restored."))
    _ = player.perform(.go(to: .start))
    #expect(player.view.nearby == recorded.nearby)
    #expect(player.view.state == recorded.state)
    _ = player.perform(.toggleSkip)
    #expect(player.skipped.isEmpty)
    #expect(player.message?.text.hasPrefix("No event at the start to skip") == true)
  }

  @Test("skipping an event that changed nothing leaves every later event as recorded")
  func harmlessSkip() throws {
    let player = try player("iphone-compact.journal", at: .sequence(8))
    _ = player.perform(.toggleSkip)  // the rejected expansion of KB90
    #expect(player.divergence?.count == 0)
    #expect(player.divergence?.endStateDiffers == false)
    #expect(
      player.message
        == PlayerMessage(
          .info, "Skipping event 8. No later event does anything else; the end state is the same."
        ))
    #expect(player.view.nearby.allSatisfy { !$0.differsFromRecording })
  }

  @Test("m marks, d shows every field that differs between the mark and the cursor")
  func markAndDiff() throws {
    let player = try player("iphone-compact.journal")
    let timeline = player.timeline
    _ = player.perform(.showDiff)
    #expect(player.overlay == nil)
    #expect(player.message?.text.hasPrefix("No mark yet") == true)
    _ = player.perform(.go(to: .sequence(14)))
    _ = player.perform(.mark)
    #expect(player.mark == 14)
    _ = player.perform(.go(to: .sequence(3)))
    _ = player.perform(.showDiff)
    let changes = timeline.domain.diff(try timeline.state(after: 3), try timeline.state(after: 14))
    #expect(!changes.isEmpty)
    #expect(player.overlay == .diff(PointDiff(from: 3, to: 14, changes: changes)))
    _ = player.perform(.showDiff)
    #expect(player.overlay == nil)
    _ = player.perform(.go(to: .sequence(14)))
    _ = player.perform(.mark)
    #expect(player.mark == nil, "m on the mark clears it")
  }

  @Test("r asks to continue from the cursor, but not from a counterfactual")
  func continueHere() throws {
    let player = try player("iphone-compact.journal", at: .sequence(9))
    #expect(
      player.perform(.continueHere)
        == .continueFrom(
          ContinueRequest(parentPath: sample("iphone-compact.journal"), sequence: 9)))
    _ = player.perform(.toggleSkip)
    #expect(player.perform(.continueHere) == .continue)
    #expect(player.message?.kind == .error)
  }

  @Test("? shows the keys, Esc or ? hides them")
  func help() throws {
    let player = try player("iphone-compact.journal")
    _ = player.perform(.toggleHelp)
    #expect(player.overlay == .help)
    _ = player.perform(.toggleHelp)
    #expect(player.overlay == nil)
    _ = player.perform(.toggleHelp)
    _ = player.perform(.dismiss)
    #expect(player.overlay == nil)
  }
}
