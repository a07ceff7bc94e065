import RewindCore

extension Player {
  /// Marks the cursor's point (`m`), or clears the mark when it is already there.
  func markCursor() {
    if mark == cursor {
      mark = nil
      message = PlayerMessage(.info, "Mark cleared.")
    } else {
      mark = cursor
      message = PlayerMessage(.info, "Marked \(Format.point(cursor)); d shows the diff from here.")
    }
  }

  /// Shows every field that differs between the mark and the cursor (`d`), as the
  /// screen shows both points (without the skipped events, if any); `d` again hides it.
  func showDiff() throws {
    if case .diff = overlay {
      overlay = nil
      return
    }
    guard let mark else {
      message = PlayerMessage(.info, "No mark yet: press m at a point, move, then d.")
      return
    }
    let from = min(mark, cursor)
    let to = max(mark, cursor)
    let changes = domain.diff(
      try timeline.state(after: from, skipping: skipped),
      try timeline.state(after: to, skipping: skipped))
    overlay = .diff(PointDiff(from: from, to: to, changes: changes))
  }

  /// Asks to continue the session live from the cursor (`r`). A counterfactual cannot be
  /// continued: the new journal starts with the events as they were recorded.
  func continueHere() -> PlayerOutcome {
    guard skipped.isEmpty else {
      message = PlayerMessage(
        .error,
        "Restore the skipped events first (x on each): continuing starts from the recorded events."
      )
      return .continue
    }
    playback.isPlaying = false
    return .continueFrom(ContinueRequest(parentPath: timeline.path, sequence: cursor))
  }
}
