public import RewindCore

/// One thing the person at the player asked for: what a key (or a click) means, before
/// the model does it. The terminal app maps keys to actions (see ``PlayerKeys``); tests
/// hand actions to the model directly.
public enum PlayerAction: Equatable, Sendable {
  /// Move the cursor by this many events (`←` `→`: one, `PgUp` `PgDn`: a hundred).
  case step(Int)
  /// Move the cursor to a point of the session (`Home`: start, `End`: end, a click on
  /// the timeline bar: a time).
  case go(to: Point)
  /// Start or stop playing at the recorded speed times the current factor (`Space`).
  case togglePlayback
  /// Play faster (`+`) or slower (`-`): the factor doubles or halves, ×0.25 … ×64.
  case faster
  case slower
  /// Open the prompt of `g` (a point) or `/` (a condition).
  case beginPrompt(Prompt.Kind)
  /// Type a character into the open prompt.
  case type(Character)
  /// Erase the prompt's last character (`Backspace`).
  case erase
  /// Erase the prompt's whole text (`Ctrl-U`).
  case clearPrompt
  /// Do what the prompt says (`Enter`).
  case submit
  /// Close the prompt, the overlay or the message (`Esc`).
  case dismiss
  /// The next (`n`) or previous (`N`) point where the last search's condition becomes
  /// true.
  case nextMatch
  case previousMatch
  /// Mark the cursor's point (`m`).
  case mark
  /// Show the full diff between the mark and the cursor (`d`).
  case showDiff
  /// Skip the event at the cursor, or restore it when it is skipped (`x`).
  case toggleSkip
  /// Continue from here: record on, live, from the cursor's point (`r`).
  case continueHere
  /// Show or hide the keys (`?`).
  case toggleHelp
  /// Scroll the open diff by this many lines (`↑` `↓`: one; `PgUp` `PgDn`: a page).
  case scrollOverlay(Int)
  /// Quit (`q`).
  case quit
}

/// What the player asks of the program running it after an action.
public enum PlayerOutcome: Equatable, Sendable {
  /// Go on: draw and wait for the next key.
  case `continue`
  /// Leave the player.
  case quit
  /// Leave the player and continue the session live from a point (``ContinueRequest``).
  case continueFrom(ContinueRequest)
}

/// What `r` asks for: a new journal that starts with the events of `parentPath` up to
/// `sequence`, recorded on live. The command writes it with
/// `Timeline.writeContinuation(through:to:parentPath:sessionID:options:)` and hands it
/// to `rewind live`.
public struct ContinueRequest: Equatable, Sendable {
  /// The journal being played.
  public var parentPath: String
  /// The point continued from: the new journal holds events 1…`sequence`.
  public var sequence: UInt64

  public init(parentPath: String, sequence: UInt64) {
    self.parentPath = parentPath
    self.sequence = sequence
  }
}

/// The line where a point (`g`) or a condition (`/`) is typed.
public struct Prompt: Equatable, Sendable {
  /// What the typed text is for.
  public enum Kind: Equatable, Sendable {
    /// A point in the usual syntax (`1500`, `+12.5s`, an ISO time, `start`, `end`,
    /// `end-1`).
    case goTo
    /// A condition of the `find` language (`split.style == balanced`).
    case find
  }

  public var kind: Kind
  /// What was typed so far.
  public var text: String

  public init(_ kind: Kind, text: String = "") {
    self.kind = kind
    self.text = text
  }

  /// The prompt's label: `go to` or `find`.
  public var label: String {
    switch kind {
    case .goTo: "go to"
    case .find: "find"
    }
  }
}

/// A line the player shows under the timeline: what an action did, or why it could not.
public struct PlayerMessage: Equatable, Sendable {
  public enum Kind: Equatable, Sendable {
    case info
    case error
  }

  public var kind: Kind
  public var text: String

  public init(_ kind: Kind, _ text: String) {
    self.kind = kind
    self.text = text
  }
}
