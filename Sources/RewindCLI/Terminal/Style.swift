package import RewindCore

/// ANSI text styling for one output stream, off when colour is not wanted.
///
/// Each ``Output`` has its style, decided once from where the stream goes: colour only
/// when the stream is a terminal, never when `NO_COLOR` is set to a non-empty value
/// (no-color.org), nor when `TERM` is `dumb`. When off, every method returns its text
/// unchanged, so commands style their output without asking:
///
/// ```swift
/// let style = context.stdout.style
/// context.stdout.print("\(style.bold("seq 1500"))  \(style.dim("+12.5s"))  \(style.green("ok"))")
/// ```
///
/// Styles nest: each one ends with its own reset (`22` for bold and dim, `39` for
/// colours), not the full reset, so `style.bold(style.red("x") + " y")` stays bold.
package struct Style: Sendable, Equatable {
  /// Whether escape sequences are written.
  package var isEnabled: Bool

  package init(isEnabled: Bool) {
    self.isEnabled = isEnabled
  }

  /// The style for a stream: enabled when it is a terminal, `NO_COLOR` is unset or
  /// empty, and `TERM` is not `dumb`.
  package init(isTerminal: Bool, environment: [String: String]) {
    let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
    self.isEnabled = isTerminal && !noColor && environment["TERM"] != "dumb"
  }

  /// No styling.
  package static let plain = Style(isEnabled: false)

  package func bold(_ text: String) -> String { wrap(text, "1", "22") }
  package func dim(_ text: String) -> String { wrap(text, "2", "22") }
  package func red(_ text: String) -> String { wrap(text, "31", "39") }
  package func green(_ text: String) -> String { wrap(text, "32", "39") }
  package func yellow(_ text: String) -> String { wrap(text, "33", "39") }
  package func cyan(_ text: String) -> String { wrap(text, "36", "39") }

  /// What ``bold(_:)``, ``dim(_:)`` and the colours wrap text in, for ``append(_:to:_:)``.
  package typealias Look = TextLook

  /// Appends the UTF-8 bytes `body` appends, styled with `look` as the function of its
  /// name styles text (``dim(_:)``): for a writer of lines into a byte buffer.
  package func append(_ look: Look, to bytes: inout [UInt8], _ body: (inout [UInt8]) -> Void) {
    guard isEnabled else { return body(&bytes) }
    let (start, end) = look.sequences
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: start.utf8Start, count: start.utf8CodeUnitCount))
    body(&bytes)
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: end.utf8Start, count: end.utf8CodeUnitCount))
  }

  private func wrap(_ text: String, _ start: String, _ end: String) -> String {
    isEnabled ? "\u{1B}[\(start)m\(text)\u{1B}[\(end)m" : text
  }
}
