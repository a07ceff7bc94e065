import RewindCore

extension Player {
  /// Skips the event at the cursor, or restores it when it is skipped (`x`): the screen
  /// shows the counterfactual, the state as if the skipped events had not happened, and
  /// the later events that then do something else are found and flagged.
  func toggleSkip() throws {
    guard cursor > 0 else {
      message = PlayerMessage(.info, "No event at the start to skip: move to one first.")
      return
    }
    if let lost = view.lostEvents {
      message = PlayerMessage(
        .info,
        "Event \(cursor) was lost to damage, with \(Format.events(lost)): there is no event to skip here."
      )
      return
    }
    let event = cursor
    if skipped.contains(event) {
      skipped.remove(event)
    } else {
      skipped.insert(event)
    }
    do {
      try refresh()
      divergence = try findDivergence()
    } catch {
      // Leave the journal's own view rather than half a counterfactual.
      skipped.formSymmetricDifference([event])
      divergence = try? findDivergence()
      try refresh()
      throw error
    }
    if skipped.contains(event) {
      message = PlayerMessage(.info, "Skipping event \(Format.count(event)). \(divergenceSummary)")
    } else {
      message = PlayerMessage(
        .info,
        "Event \(Format.count(event)) restored."
          + (skipped.isEmpty
            ? "" : " Still skipping \(Self.list(skipped.sorted())). \(divergenceSummary)"))
    }
  }

  /// Replays the session from the first skipped event to its end without the skipped
  /// events and compares each later event's effect with the recording's
  /// (`Timeline.effects(skipping:through:limit:)`, the replay's inner loop).
  ///
  /// - Complexity: O(events after the first skipped one).
  func findDivergence() throws -> SkipDivergence? {
    guard !skipped.isEmpty else { return nil }
    let effects = try timeline.effects(
      skipping: skipped, through: lastSequence, limit: SkipDivergence.listLimit)
    return SkipDivergence(
      skipped: skipped.sorted(), events: effects.differing, count: effects.differingCount,
      endStateDiffers: effects.endState != (try timeline.state(after: lastSequence)))
  }

  /// `No later event does anything else.`, `3 later events do something else (12, 15,
  /// 40); the end state differs.`
  var divergenceSummary: String {
    guard let divergence else { return "" }
    var text: String
    switch divergence.count {
    case 0: text = "No later event does anything else"
    case 1: text = "1 later event does something else (\(Format.count(divergence.events[0])))"
    default:
      let shown = divergence.events.prefix(5)
      text =
        "\(divergence.count) later events do something else (\(Self.list(Array(shown)))\(divergence.count > shown.count ? ", …" : ""))"
    }
    text += divergence.endStateDiffers ? "; the end state differs." : "; the end state is the same."
    return text
  }

  /// `3, 5, 1200`: sequence numbers as `--skip` takes them, not grouped (`1,200, 1,350`
  /// read as four numbers).
  static func list(_ sequences: [UInt64]) -> String {
    sequences.map { String($0) }.joined(separator: ", ")
  }
}
