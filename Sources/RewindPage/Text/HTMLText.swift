import RewindCore

/// Text from outside made safe in HTML: the one function that writes a journal's text
/// (a title, a file name) into a page's markup.
///
/// Everything else a page shows comes from its data, which its script puts into the page
/// as text nodes (`textContent`), never as markup.
package enum HTMLText {
  /// `text` with `&`, `<`, `>`, `"` and `'` written as character references, so that it
  /// stays text in an element or a quoted attribute, and its control characters written
  /// as a terminal shows them, `\u{1B}` (``TerminalText/escaped(_:keepingNewlines:)``), so
  /// that they show as what they are.
  package static func escaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for scalar in TerminalText.escaped(text).unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
