package import RewindCore
import RewindTerminal

/// ANSI text styling for one output stream, off when colour is not wanted.
///
/// Each ``Output`` has its style, decided once from where the stream goes: styled only
/// when the stream is a terminal, never when `NO_COLOR` is set to a non-empty value
/// (no-color.org), nor when `TERM` is `dumb`; on a terminal without colour (`TERM`
/// naming a monochrome one, `vt100` or `xterm-mono`: `ColorSupport.isMonochrome`) bold
/// and dim only. When off, every method returns its text unchanged, so commands style
/// their output without asking:
///
/// ```swift
/// let style = context.stdout.style
/// context.stdout.print("\(style.bold("seq 1500"))  \(style.dim("+12.5s"))  \(style.green("ok"))")
/// ```
///
/// Styles nest: each one ends with its own reset (`22` for bold and dim, `39` for
/// colours), not the full reset, so `style.bold(style.red("x") + " y")` stays bold.
package struct Style: Sendable, Equatable {
  /// Whether escape sequences are written (bold and dim; colours too when ``hasColour``).
  package var isEnabled: Bool
  /// Whether colours are written (only when ``isEnabled``).
  package var hasColour: Bool

  /// A style writing every sequence when `isEnabled`, the colours when `hasColour` too.
  package init(isEnabled: Bool, hasColour: Bool = true) {
    self.isEnabled = isEnabled
    self.hasColour = isEnabled && hasColour
  }

  /// The style for a stream: enabled when it is a terminal, `NO_COLOR` is unset or
  /// empty, and `TERM` is not `dumb`; with colours unless `TERM` names a monochrome
  /// terminal.
  package init(isTerminal: Bool, environment: [String: String]) {
    let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
    let term = environment["TERM"]
    self.init(
      isEnabled: isTerminal && !noColor && term != "dumb",
      hasColour: !ColorSupport.isMonochrome(term ?? ""))
  }

  /// The sequences the specialised lines of `log` and `find` write.
  package var styling: TextStyling { TextStyling(attributes: isEnabled, colours: hasColour) }

  /// No styling.
  package static let plain = Style(isEnabled: false)

  package func bold(_ text: String) -> String { wrap(text, "1", "22") }
  package func dim(_ text: String) -> String { wrap(text, "2", "22") }
  package func red(_ text: String) -> String { colour(text, "31") }
  package func green(_ text: String) -> String { colour(text, "32") }
  package func yellow(_ text: String) -> String { colour(text, "33") }
  package func cyan(_ text: String) -> String { colour(text, "36") }

  /// What ``bold(_:)``, ``dim(_:)`` and the colours wrap text in, for ``append(_:to:_:)``.
  package typealias Look = TextLook

  /// Appends the UTF-8 bytes `body` appends, styled with `look` as the function of its
  /// name styles text (``dim(_:)``): for a writer of lines into a byte buffer.
  package func append(_ look: Look, to bytes: inout [UInt8], _ body: (inout [UInt8]) -> Void) {
    guard styling.shows(look) else { return body(&bytes) }
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

  /// `text` in the colour `start` (ended by `39`), or as it is without colours.
  private func colour(_ text: String, _ start: String) -> String {
    hasColour ? wrap(text, start, "39") : text
  }
}
