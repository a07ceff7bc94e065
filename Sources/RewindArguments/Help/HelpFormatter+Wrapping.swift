extension HelpFormatter {
  /// Wraps `text` so that no line is longer than `width` columns, the first line starting
  /// at column 0 and every line indented by `indent` spaces, as the argument parser lays
  /// out help text.
  ///
  /// Line breaks in `text` are kept, and empty lines stay empty (no indent). A line is
  /// broken at its last space that keeps it within the width; a word longer than the
  /// room left is put on a line of its own, unbroken. The caller drops the first line's
  /// indent when it prints a label there.
  ///
  /// - Complexity: O(*n*) in the length of `text`.
  package static func wrap(_ text: String, width: Int, indent: Int = 0) -> String {
    let room = max(width - indent, 1)
    let padding = String(repeating: " ", count: indent)
    var lines: [Substring] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var rest = paragraph
      while rest.count > room {
        // A space at offset `room` still lets the `room` characters before it fit.
        let window = rest.prefix(room + 1)
        if let space = window.lastIndex(of: " "), space > rest.startIndex {
          lines.append(rest[..<space])
          rest = rest[rest.index(after: space)...]
        } else if let space = rest[window.endIndex...].firstIndex(of: " ") {
          lines.append(rest[..<space])
          rest = rest[rest.index(after: space)...]
        } else {
          break
        }
      }
      lines.append(rest)
    }
    return lines.map { $0.isEmpty ? "" : padding + $0 }.joined(separator: "\n")
  }
}
