import RewindCore
import RewindSpelling

extension Player {
  /// Handles an action while the prompt is open: typing edits it, `submit` does what it
  /// says, `dismiss` closes it. Other actions close it and go on as usual (nil).
  func performInPrompt(_ action: PlayerAction) -> PlayerOutcome? {
    guard var prompt else { return nil }
    switch action {
    case .type(let character):
      // Text from the keyboard is data: no control character goes into a prompt.
      guard !character.unicodeScalars.contains(where: TerminalText.isControl) else {
        return .continue
      }
      prompt.text.append(character)
      self.prompt = prompt
    case .erase:
      if !prompt.text.isEmpty { prompt.text.removeLast() }
      self.prompt = prompt
    case .clearPrompt:
      prompt.text = ""
      self.prompt = prompt
    case .dismiss:
      self.prompt = nil
    case .submit:
      self.prompt = nil
      message = nil
      do {
        switch prompt.kind {
        case .goTo: try submitPoint(prompt.text)
        case .find: try submitSearch(prompt.text)
        }
      } catch {
        playback.isPlaying = false
        message = PlayerMessage(.error, Self.describe(error))
      }
    default:
      self.prompt = nil
      return nil
    }
    return .continue
  }

  /// Goes to a point written in the usual syntax.
  private func submitPoint(_ text: String) throws {
    guard !text.trimmingWhitespace().isEmpty else { return }
    let point: Point
    do throws(RewindError) {
      point = try Point(parsingAsShown: text)
    } catch {
      message = PlayerMessage(.error, error.message)
      return
    }
    // A point among lost events is said as typed (not as the time it stands for).
    try go(to: point, written: text.trimmingWhitespace())
  }

  /// Reads a condition (the language of `find`: see `rewind help conditions`), checks
  /// it against the domain's fields and looks for its next match after the cursor.
  private func submitSearch(_ text: String) throws {
    guard !text.trimmingWhitespace().isEmpty else { return }
    do throws(ConditionError) {
      let written = try WrittenCondition(parsing: text)
      _ = try domain.check(written)
      search = written.condition
    } catch {
      // A near miss among the words the mistake may be a slip of, as `find` suggests it:
      // first, where the one line the message has shows it (the list of the fields or
      // values after it runs past the screen's width). Without one, the reason comes
      // before the condition typed, for the same line: what to write instead ends it
      // (`… single quotes do not quote a value: write "…"`).
      let meant = error.suggestion ?? closestName(to: error.word, among: error.choices)
      let reason = "at column \(error.column): \(error.message)"
      message = PlayerMessage(
        .error,
        meant.map { "\(text): Did you mean '\($0)'? (\(reason))" } ?? "\(reason) (in \(text))")
      return
    }
    try findNext(forward: true)
  }

  /// Moves to the next (or previous) point where the search's condition becomes true.
  func findNext(forward: Bool) throws {
    guard let search else {
      message = PlayerMessage(.info, "No search yet: press / and type a condition.")
      return
    }
    let hit =
      forward
      ? try timeline.find(search, after: cursor) : try timeline.find(search, before: cursor)
    guard let hit else {
      message = PlayerMessage(
        .info,
        "No point \(forward ? "after" : "before") \(Format.point(cursor)) where \(phrase(search)).")
      return
    }
    try move(to: hit.sequence)
    let place = "at \(Format.point(hit.sequence))"
    // A condition on the event alone reads no field: the match shows the event.
    let readsFields = (try? domain.check(WrittenCondition(search)))?.fields.isEmpty == false
    let shown =
      readsFields ? hit.value.compactText : hit.event.map { domain.describe($0.event) } ?? ""
    message = PlayerMessage(
      .info, "\(search) \(place) (\(forward ? "n: next" : "N: previous")): \(shown)")
  }

  /// `split.style == balanced becomes true`, `split.style changes`, `outcome ==
  /// rejected holds` (a condition on the event holds after an event; one on the state
  /// becomes true).
  func phrase(_ condition: Condition) -> String {
    if case .changed(let path) = condition { return "\(path) changes" }
    let aboutEvents = (try? domain.check(WrittenCondition(condition)))?.isAboutEvents ?? false
    return "\(condition) \(aboutEvents ? "holds" : "becomes true")"
  }
}

extension String {
  /// The text without whitespace at either end.
  func trimmingWhitespace() -> String {
    var text = Substring(self)
    while text.first?.isWhitespace == true { text.removeFirst() }
    while text.last?.isWhitespace == true { text.removeLast() }
    return String(text)
  }
}
