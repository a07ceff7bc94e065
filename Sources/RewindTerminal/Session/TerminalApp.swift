/// A full-screen program run by a ``TerminalSession``: it handles input and draws
/// itself; the session owns the terminal.
///
/// An app is a model: it never touches the terminal, so it is tested by handing it
/// events and drawing it into a ``Screen`` of any size. Only ``handle(_:)`` and
/// ``draw(on:)`` are required.
///
/// ```swift
/// struct Counter: TerminalApp {
///   var count = 0
///   mutating func handle(_ event: InputEvent) -> TerminalAppAction {
///     if event == .key(.character("q")) { return .quit }
///     if event == .key(.up) { count += 1 }
///     return .continue
///   }
///   mutating func draw(on screen: inout Screen) {
///     screen.write("count: \(count)", column: 0, row: 0)
///   }
/// }
/// ```
public protocol TerminalApp {
  /// Handles one input: a key, a mouse report, a new size. The session draws after the
  /// events of each read.
  mutating func handle(_ event: InputEvent) -> TerminalAppAction
  /// Draws the whole app on `screen`, which is blank and of the terminal's current
  /// size (at least ``minimumSize``).
  ///
  /// Mutating, so that an app can remember where it drew what, for clicks.
  mutating func draw(on screen: inout Screen)
  /// The smallest terminal the app draws in; below it the session shows the size it
  /// needs instead. By default 40×10.
  var minimumSize: TerminalSize { get }
  /// How often ``tick()`` is called, or nil for never (the default). Read again after
  /// every event and tick, so that an app starts and stops ticking (playback, watching a
  /// file) by changing it.
  var tickInterval: Duration? { get }
  /// Called every ``tickInterval``; the session draws after it.
  mutating func tick() -> TerminalAppAction
  /// Whether the app takes `event` while the terminal is smaller than ``minimumSize``,
  /// when the session shows the size it needs instead of the app (and calls no
  /// ``tick()``): what a key or a click does there cannot be seen. By default only `q`.
  func takesWhileTooSmall(_ event: InputEvent) -> Bool
  /// Called before the process stops (Ctrl-Z, `SIGTSTP`), the terminal not yet put back:
  /// what must not wait for `fg` is done here (a recording made durable), since a
  /// stopped job is the one that gets killed. By default nothing.
  mutating func willSuspend()
}

/// Whether a ``TerminalApp`` goes on after an event.
public enum TerminalAppAction: Equatable, Sendable {
  case `continue`
  case quit
}

extension TerminalApp {
  public var minimumSize: TerminalSize { TerminalSize(columns: 40, rows: 10) }
  public var tickInterval: Duration? { nil }
  public mutating func tick() -> TerminalAppAction { .continue }
  public func takesWhileTooSmall(_ event: InputEvent) -> Bool { event == .key(.character("q")) }
  public mutating func willSuspend() {}
}
