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
    // Help is ASCII: a byte is a column there, found without breaking the text into
    // characters (a carriage return stays on the general way: with a line feed after it,
    // the two are one character).
    if text.utf8.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "\r") }) {
      return wrapASCII(Array(text.utf8), room: room, indent: indent)
    }
    return wrapCharacters(text, room: room, indent: indent)
  }

  /// `wrap` of any text, counting characters.
  static func wrapCharacters(_ text: String, room: Int, indent: Int) -> String {
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

  /// `wrap` of ASCII text without carriage returns: the same lines, by byte offsets.
  static func wrapASCII(_ bytes: [UInt8], room: Int, indent: Int) -> String {
    let (newline, space) = (UInt8(ascii: "\n"), UInt8(ascii: " "))
    var lines: [Range<Int>] = []
    var paragraphStart = 0
    while true {
      let paragraphEnd = bytes[paragraphStart...].firstIndex(of: newline) ?? bytes.count
      var start = paragraphStart
      while paragraphEnd - start > room {
        // A space at offset `room` still lets the `room` characters before it fit.
        let windowEnd = start + room + 1
        let cut: Int
        if let found = bytes[start..<windowEnd].lastIndex(of: space), found > start {
          cut = found
        } else if let found = bytes[windowEnd..<paragraphEnd].firstIndex(of: space) {
          cut = found
        } else {
          break
        }
        lines.append(start..<cut)
        start = cut + 1
      }
      lines.append(start..<paragraphEnd)
      guard paragraphEnd < bytes.count else { break }
      paragraphStart = paragraphEnd + 1
    }
    var wrapped: [UInt8] = []
    wrapped.reserveCapacity(bytes.count + lines.count * (indent + 1))
    for (number, line) in lines.enumerated() {
      if number > 0 { wrapped.append(newline) }
      guard !line.isEmpty else { continue }
      wrapped.append(contentsOf: repeatElement(space, count: indent))
      wrapped.append(contentsOf: bytes[line])
    }
    return String(decoding: wrapped, as: UTF8.self)
  }
}
