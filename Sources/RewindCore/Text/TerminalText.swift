/// Text from outside (a journal, an import, a scenario, a command line) made safe and
/// visible on a terminal: the one place that decides which characters a terminal would
/// obey instead of show, and how they are written instead.
///
/// A terminal takes some characters as commands: `ESC` starts sequences that set the
/// window title, move the cursor or clear the screen, `BEL` rings, `CR` and `LF` move to
/// another line, the C1 character U+009B is a one-character `ESC [`, the line and
/// paragraph separators (U+2028, U+2029) break a line where a log viewer reads them, and
/// the bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) reorder what
/// follows them so that text reads differently from what it is. ``escaped(_:keepingNewlines:)``
/// writes each of them as a Swift escape, `\u{1B}`, so a journal can never drive the
/// user's terminal and a value with a newline cannot pass for two lines:
///
/// ```swift
/// TerminalText.escaped("a\u{1B}]0;owned\u{07}b")  // a\u{1B}]0;owned\u{7}b
/// ```
///
/// Every writer of human text escapes what it did not write itself with it; JSON output
/// escapes the same characters as JSON does (`\u001b`). Where such characters can never
/// be meant (names, labels, ids and devices read from imports and scenarios), readers
/// refuse them with ``controlCharacterProblem(in:describedAs:)``.
///
/// A backslash is left as it is: the escapes are for reading, not for reading back.
public enum TerminalText {
  /// Whether a terminal would obey `scalar` rather than show it: C0 controls
  /// (U+0000–U+001F, including tab and newline), DEL and the C1 controls
  /// (U+007F–U+009F), the line and paragraph separators (U+2028, U+2029), the
  /// bidirectional embeddings and overrides (U+202A–U+202E) and isolates (U+2066–U+2069).
  @inlinable
  public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x2028...0x2029, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  /// `text` with every control character (see ``isControl(_:)``) written as `\u{…}`,
  /// its code point in uppercase hexadecimal: `\u{1B}`, `\u{9B}`, `\u{202E}`.
  ///
  /// - Parameters:
  ///   - text: Text from outside: an id, a label, a path, a message quoting them.
  ///   - keepingNewlines: Whether line feeds stay line feeds, for text of several lines
  ///     whose lines are the writer's own (a rendered state); every other control
  ///     character is still escaped.
  /// - Returns: `text` itself when it has nothing to escape.
  /// - Complexity: O(*n*) in the UTF-8 length; text without a byte that can start a
  ///   control character (most text) is scanned once and returned as it is.
  public static func escaped(_ text: String, keepingNewlines: Bool = false) -> String {
    guard needsEscaping(text, keepingNewlines: keepingNewlines) else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
      if isControl(scalar) && !(keepingNewlines && scalar == "\n") {
        result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// Whether ``escaped(_:keepingNewlines:)`` would change `text`.
  ///
  /// Reads the UTF-8 bytes once: a control character is a byte below 0x20 (but a kept
  /// line feed), 0x7F, or one of the exact encodings `C2 80`–`C2 9F`, `E2 80 A8`–`A9`,
  /// `E2 80 AA`–`AE` and `E2 81 A6`–`A9`. A `String` always holds valid UTF-8, so those bytes are those code
  /// points and nothing else (`→`, `E2 86 92`, is not one); text that is not stored as
  /// contiguous UTF-8 is read scalar by scalar.
  /// - Complexity: O(*n*) in the UTF-8 length.
  public static func needsEscaping(_ text: String, keepingNewlines: Bool = false) -> Bool {
    if let found = text.utf8.withContiguousStorageIfAvailable({
      hasControlBytes($0, keepingNewlines: keepingNewlines)
    }) {
      return found
    }
    return needsEscapingScalarByScalar(text, keepingNewlines: keepingNewlines)
  }

  /// ``needsEscaping(_:keepingNewlines:)`` on valid UTF-8 bytes (a `String`'s or text
  /// appended to a buffer from `String`s): whether they hold a control character.
  ///
  /// Eight bytes at a time while they are ASCII: a word of ASCII bytes is tested at once
  /// (exactly: no carry crosses a byte), a word with another byte is read byte by byte.
  package static func hasControlBytes(
    _ bytes: UnsafeBufferPointer<UInt8>, keepingNewlines: Bool = false
  ) -> Bool {
    let count = bytes.count
    var index = 0
    var checked = 0
    let ones: UInt64 = 0x0101_0101_0101_0101
    let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    let highs: UInt64 = 0x8080_8080_8080_8080
    while index < count {
      if index >= checked, index &+ 8 <= count, let base = bytes.baseAddress {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        if word & highs == 0 {
          // ASCII: DEL is the byte that adding 1 lifts to 0x80; a byte below 0x20 is one
          // that adding 0x60 leaves below 0x80; a line feed, a zero byte of the word
          // XOR 0x0A bytes.
          if (word &+ ones) & highs != 0 { return true }
          let below = ~(word &+ 0x6060_6060_6060_6060) & highs
          if below != 0 {
            guard keepingNewlines else { return true }
            let feeds = word ^ 0x0A0A_0A0A_0A0A_0A0A
            let isFeed = ~((feeds & lows) &+ lows | feeds) & highs
            if below & ~isFeed != 0 { return true }
          }
          index &+= 8
          continue
        }
        // This word byte by byte (a character's later bytes may be read after it).
        checked = index &+ 8
      }
      let byte = bytes[index]
      index += 1
      if byte >= 0x20 && byte < 0x7F { continue }
      if byte < 0x20 {
        if keepingNewlines && byte == 0x0A { continue }
        return true
      }
      if byte == 0x7F { return true }
      if byte == 0xC2 {
        // U+0080–U+009F: C2 80–C2 9F.
        if index < count && bytes[index] <= 0x9F { return true }
      } else if byte == 0xE2 && index + 1 < count {
        // U+2028–U+2029: E2 80 A8–A9; U+202A–U+202E: E2 80 AA–AE; U+2066–U+2069:
        // E2 81 A6–A9.
        let second = bytes[index]
        let third = bytes[index + 1]
        if second == 0x80 && third >= 0xA8 && third <= 0xAE { return true }
        if second == 0x81 && third >= 0xA6 && third <= 0xA9 { return true }
      }
    }
    return false
  }

  /// ``needsEscaping(_:keepingNewlines:)`` by its definition, one unicode scalar at a
  /// time: what the byte scan must agree with (its tests compare the two).
  package static func needsEscapingScalarByScalar(_ text: String, keepingNewlines: Bool = false)
    -> Bool
  {
    text.unicodeScalars.contains { isControl($0) && !(keepingNewlines && $0 == "\n") }
  }

  /// The first control character (see ``isControl(_:)``) in `text` that a name, label, id
  /// or device cannot hold, or nil: every one but the line and paragraph separators
  /// (U+2028, U+2029), which names in journals written before they were escaped may hold
  /// (refused, such a journal would be read by no command); they are escaped when shown.
  public static func firstControlCharacter(in text: String) -> Unicode.Scalar? {
    guard needsEscaping(text) else { return nil }
    return text.unicodeScalars.first { isControl($0) && !(0x2028...0x2029).contains($0.value) }
  }

  /// Why `text` cannot be a name, label, id or device description, or nil when it can:
  /// `the label "a\u{1B}b" contains a control character (U+001B)`.
  ///
  /// Readers of imports and scenarios refuse such text where it can never be meant,
  /// adding the line it was found on.
  /// - Parameters:
  ///   - text: The text read.
  ///   - what: What the text is, as the sentence starts: `the label`, `the device`.
  public static func controlCharacterProblem(in text: String, describedAs what: String)
    -> String?
  {
    guard let scalar = firstControlCharacter(in: text) else { return nil }
    return "\(what) \"\(escaped(text))\" contains a control character (\(codePoint(scalar)))"
  }

  /// `U+001B`, `U+202E`: a code point as Unicode writes it, at least four hex digits.
  public static func codePoint(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(4 - hex.count, 0)) + hex
  }
}
