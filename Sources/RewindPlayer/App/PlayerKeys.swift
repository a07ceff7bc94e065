import RewindCore
public import RewindTerminal

/// The player's keys: what each means as a ``PlayerAction``, and the list `?` and
/// `rewind help play` show.
public enum PlayerKeys {
  /// The keys and what they do, in the order the help shows them.
  public static let help: [KeyHelp] = [
    KeyHelp("← →", "one event back or forward"),
    KeyHelp("PgUp PgDn", "a hundred events back or forward"),
    KeyHelp("Home End", "the start or the end of the session"),
    KeyHelp("g", "go to a point: 1500, +12.5s, an ISO time, start, end, end-1"),
    KeyHelp("Space", "play at the recorded speed, or pause"),
    KeyHelp("+ -", "play faster or slower (×0.25 … ×64)"),
    KeyHelp("/", "find where a condition becomes true: split.style == balanced"),
    KeyHelp("n N", "the next or previous match"),
    KeyHelp("m", "mark this point (again: clear the mark)"),
    KeyHelp("d", "the full diff between the mark and here"),
    KeyHelp("↑ ↓", "scroll the diff (PgUp PgDn a page, Home End its ends)"),
    KeyHelp("x", "skip the event here (the state without it); again: restore it"),
    KeyHelp("r", "continue from here: record on, live, in a new journal"),
    KeyHelp("click", "on the timeline bar: go to that time"),
    KeyHelp("?", "show or hide these keys"),
    KeyHelp("Esc", "close the prompt, the diff or the message"),
    KeyHelp("Ctrl-U", "in the prompt: erase what is typed (Backspace: a character)"),
    KeyHelp("q", "quit"),
  ]

  /// The action a key asks for, nil for a key the player does not use. While a prompt is
  /// open, characters are typed into it, `Backspace` and `Ctrl-U` edit it, `Enter` and
  /// `Esc` close it, and no other key does anything: the keys that move the player (← to
  /// reach a typo) closed it, losing what was typed, and moved the cursor.
  public static func action(for key: Key, promptOpen: Bool) -> PlayerAction? {
    if promptOpen {
      switch key {
      case .character(let character): return .type(character)
      case .backspace, .delete: return .erase
      case .control("u"): return .clearPrompt
      case .enter: return .submit
      case .escape: return .dismiss
      default: return nil
      }
    }
    switch key {
    case .left: return .step(-1)
    case .right: return .step(1)
    case .pageUp: return .step(-100)
    case .pageDown: return .step(100)
    case .home: return .go(to: .start)
    case .end: return .go(to: .end)
    case .escape: return .dismiss
    case .character(let character):
      switch character {
      case " ": return .togglePlayback
      case "+", "=": return .faster
      case "-", "_": return .slower
      case "g": return .beginPrompt(.goTo)
      case "/": return .beginPrompt(.find)
      case "n": return .nextMatch
      case "N": return .previousMatch
      case "m": return .mark
      case "d": return .showDiff
      case "x": return .toggleSkip
      case "r": return .continueHere
      case "?": return .toggleHelp
      case "q": return .quit
      default: return nil
      }
    default: return nil
    }
  }
}
