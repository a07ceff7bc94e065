extension HelpFormatter {
  /// Wraps `text` so that no line is longer than `width` columns, the first line starting
  /// at column 0 and every line indented by `indent` spaces, as the argument parser lays
  /// out help text.
  ///
  /// Line breaks in `text` are kept, and empty lines stay empty (no indent). A line is
  /// broken at its last space that keeps it within the width; a word longer than the
  /// room left is put on a line of its own, unbroken. Code is not broken where it fits
  /// on a line: a span in backticks (`` `rewind verify` ``) and a bracketed example
  /// (`[{"from": N, "to": M}]`, each pair of `{}` or `[]`) go whole to the next line
  /// instead; one longer than the room is broken at its spaces, as any text. The caller
  /// drops the first line's indent when it prints a label there.
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

  /// `wrap` of any text, counting characters: the lines found on each character's
  /// ASCII stand-in (``lines(of:room:)``), then written with the characters.
  static func wrapCharacters(_ text: String, room: Int, indent: Int) -> String {
    let characters = Array(text)
    let standIns = characters.map { character -> UInt8 in
      guard let ascii = character.asciiValue, character != "\r\n" else { return UInt8(ascii: "a") }
      return ascii
    }
    let padding = String(repeating: " ", count: indent)
    return lines(of: standIns, room: room).map { line in
      line.isEmpty ? "" : padding + String(characters[line])
    }.joined(separator: "\n")
  }

  /// `wrap` of ASCII text without carriage returns: the same lines, by byte offsets.
  static func wrapASCII(_ bytes: [UInt8], room: Int, indent: Int) -> String {
    let (newline, space) = (UInt8(ascii: "\n"), UInt8(ascii: " "))
    let lines = lines(of: bytes, room: room)
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

  /// The lines of `text` (ASCII, one byte a column; other characters stand as a letter),
  /// as ranges of its offsets, the spaces they break at and the line feeds left out.
  static func lines(of text: [UInt8], room: Int) -> [Range<Int>] {
    let newline = UInt8(ascii: "\n")
    var lines: [Range<Int>] = []
    var paragraphStart = 0
    while true {
      let paragraphEnd = text[paragraphStart...].firstIndex(of: newline) ?? text.count
      let breakable = breakableSpaces(in: text[paragraphStart..<paragraphEnd], room: room)
      var start = paragraphStart
      while paragraphEnd - start > room {
        // A space at offset `room` still lets the `room` characters before it fit.
        let windowEnd = start + room + 1
        let cut: Int
        if let found = (start..<windowEnd).last(where: { breakable[$0 - paragraphStart] }),
          found > start
        {
          cut = found
        } else if let found = (windowEnd..<paragraphEnd).first(where: {
          breakable[$0 - paragraphStart]
        }) {
          cut = found
        } else {
          break
        }
        lines.append(start..<cut)
        start = cut + 1
      }
      lines.append(start..<paragraphEnd)
      guard paragraphEnd < text.count else { break }
      paragraphStart = paragraphEnd + 1
    }
    return lines
  }

  /// For each offset of `paragraph` (a line of text without line feeds), whether a line
  /// may break there: a space outside the code that fits in `room` columns, a span
  /// between two backticks or a pair of brackets (`{}` or `[]`, matched as nested).
  /// A bracket or backtick left open protects nothing.
  ///
  /// - Complexity: O(*n*): the spans are counted over with a difference array.
  static func breakableSpaces(in paragraph: ArraySlice<UInt8>, room: Int) -> [Bool] {
    let start = paragraph.startIndex
    // +1 where a protected span starts, -1 after it ends.
    var protection = [Int](repeating: 0, count: paragraph.count + 1)
    func protect(_ first: Int, _ last: Int) {
      guard last - first + 1 <= room else { return }
      protection[first - start] += 1
      protection[last - start + 1] -= 1
    }
    var openBacktick: Int?
    var openBrackets: [Int] = []
    for (offset, byte) in zip(paragraph.indices, paragraph) {
      switch byte {
      case UInt8(ascii: "`"):
        if let open = openBacktick {
          protect(open, offset)
          openBacktick = nil
        } else {
          openBacktick = offset
        }
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        openBrackets.append(offset)
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        // A closing bracket with none open is text.
        if let open = openBrackets.popLast() { protect(open, offset) }
      default:
        break
      }
    }
    var breakable = [Bool](repeating: false, count: paragraph.count)
    var depth = 0
    for (index, byte) in paragraph.enumerated() {
      depth += protection[index]
      breakable[index] = byte == UInt8(ascii: " ") && depth == 0
    }
    return breakable
  }
}
