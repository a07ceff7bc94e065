/// Something the person at the terminal did, or the terminal itself: a key, a mouse
/// action, a new size.
public enum InputEvent: Equatable, Sendable {
  /// A key was pressed.
  case key(Key)
  /// The mouse was pressed, released, dragged or its wheel turned (SGR 1006 reports).
  case mouse(MouseEvent)
  /// The terminal changed size (`SIGWINCH`); the next draw has this size.
  case resize(TerminalSize)
  /// Text pasted (the terminal's bracketed paste, which ``TerminalSession`` turns on):
  /// never read as keys, so that a pasted line feed or letter does not act. A long paste
  /// may come as several.
  case paste(String)
}

/// A key as the terminal reports it. Modifiers are not reported, except in
/// ``backTab`` (Shift-Tab), the ``control(_:)`` letters and the ``alt(_:)`` characters.
public enum Key: Hashable, Sendable {
  case up
  case down
  case left
  case right
  case home
  case end
  case pageUp
  case pageDown
  case insert
  case delete
  /// Return or Enter.
  case enter
  case tab
  /// Shift-Tab.
  case backTab
  case backspace
  /// Esc alone (a lone `ESC` byte that no sequence followed in time).
  case escape
  /// A character typed, space included: `q`, `?`, `é`, `月`.
  case character(Character)
  /// Control and a letter, lowercase: `.control("a")` for Ctrl-A. (Ctrl-I, Ctrl-M and
  /// Ctrl-H arrive as ``tab``, ``enter`` and ``backspace``, the bytes they send.)
  case control(Character)
  /// A function key, F1 to F12.
  case function(Int)
  /// Alt (Meta) and a character, as terminals send it: `ESC` and the character at once.
  /// No app here binds one: read as Esc and then the character, Alt-v was the back
  /// button and then `v`.
  case alt(Character)
}

/// One mouse report: what happened, with which button, where.
public struct MouseEvent: Equatable, Sendable {
  /// What the mouse did.
  public enum Action: Equatable, Sendable {
    /// A button went down.
    case press
    /// A button went up.
    case release
    /// The mouse moved with a button held.
    case drag
    /// The wheel turned up (away from the user): scroll towards the start.
    case wheelUp
    /// The wheel turned down: scroll towards the end.
    case wheelDown
  }

  /// A mouse button.
  public enum Button: Equatable, Sendable {
    case left
    case middle
    case right
    /// No button: the wheel, or a release some terminals report without one.
    case none
  }

  public var action: Action
  public var button: Button
  /// 0-based column of the cell under the pointer.
  public var column: Int
  /// 0-based row of the cell under the pointer.
  public var row: Int

  public init(_ action: Action, button: Button = .left, column: Int, row: Int) {
    self.action = action
    self.button = button
    self.column = column
    self.row = row
  }
}

/// The size of a terminal or of a screen, in character cells.
public struct TerminalSize: Hashable, Sendable, CustomStringConvertible {
  public var columns: Int
  public var rows: Int

  public init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
  }

  /// Whether both dimensions are at least those of `other`.
  public func fits(_ other: TerminalSize) -> Bool {
    columns >= other.columns && rows >= other.rows
  }

  /// `120×40`.
  public var description: String { "\(columns)×\(rows)" }
}
