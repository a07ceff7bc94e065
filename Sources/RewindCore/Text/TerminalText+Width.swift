extension TerminalText {
  /// The number of columns a terminal gives `text`: the sum of the widths of its
  /// characters (see ``width(of:)``), as the C library's `wcswidth` measures it.
  ///
  /// A character count is not a width: `月曜日` is three characters and six columns,
  /// `🙂` one character and two columns, and `e` followed by a combining acute accent is
  /// two characters of Swift's `unicodeScalars` but one column. Text that is lined up in
  /// columns (boxes, underlines, padded tables) is measured with this.
  ///
  /// Unlike `wcswidth`, the answer does not depend on the process's locale: the widths
  /// come from a table of Unicode's East Asian Width property and the standard library's
  /// character properties.
  /// - Complexity: O(*n*) in the UTF-8 length; ASCII is counted without lookups.
  public static func width(_ text: some StringProtocol) -> Int {
    // ASCII (most text) is one column a byte but for the controls: counted from the bytes.
    if let ascii = text.utf8.withContiguousStorageIfAvailable({ bytes -> Int? in
      var columns = 0
      for byte in bytes {
        guard byte < 0x80 else { return nil }
        if byte >= 0x20 && byte != 0x7F { columns += 1 }
      }
      return columns
    }), let columns = ascii {
      return columns
    }
    var columns = 0
    for scalar in text.unicodeScalars {
      columns +=
        scalar.isASCII ? (scalar.value >= 0x20 && scalar.value != 0x7F ? 1 : 0) : width(of: scalar)
    }
    return columns
  }

  /// The columns a terminal gives one code point, as `wcwidth` does: 2 for East Asian
  /// Wide and Fullwidth characters and emoji shown as emoji (`月`, `🙂`, `☕`); 0 for
  /// combining marks, format characters (zero-width joiner, variation selectors are
  /// marks), the medial and final Hangul jamo, and control characters; 0 too for what a
  /// terminal does not show at all (`wcwidth` says -1, and tmux drops it): the line and
  /// paragraph separators U+2028 and U+2029, and code points no character is assigned
  /// to; 1 for the rest.
  public static func width(of scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x7F { return value >= 0x20 ? 1 : 0 }
    if isControl(scalar) { return 0 }
    if value == 0xAD { return 1 }  // the soft hyphen is shown where it breaks a line
    if (0x1160...0x11FF).contains(value) { return 0 }  // jamo that join the one before
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format, .lineSeparator, .paragraphSeparator,
      .unassigned:
      return 0
    default: break
    }
    if isWide(value) || scalar.properties.isEmojiPresentation { return 2 }
    return 1
  }

  /// The longest start of `text`, in whole characters, at most `columns` wide.
  /// - Complexity: O(*n*) in the length of the result.
  public static func prefix(_ text: String, width columns: Int) -> Substring {
    var used = 0
    var end = text.startIndex
    for index in text.indices {
      let characterWidth = width(text[index...index])
      if used + characterWidth > columns { break }
      used += characterWidth
      end = text.index(after: index)
    }
    return text[..<end]
  }

  /// The longest end of `text`, in whole characters, at most `columns` wide.
  /// - Complexity: O(*n*) in the length of the result.
  public static func suffix(_ text: String, width columns: Int) -> Substring {
    var used = 0
    var start = text.endIndex
    for index in text.indices.reversed() {
      let characterWidth = width(text[index...index])
      if used + characterWidth > columns { break }
      used += characterWidth
      start = index
    }
    return text[start...]
  }

  /// `text` when it is at most `columns` wide; else its start and its end around `…`,
  /// together `columns` wide at most: a third of the room for the start, which says what
  /// is being done (`Checking /home/…`), the rest for the end, which names the file
  /// (`…/sessions/monday.journal`). Just the start when `columns` is under 3.
  public static func shortened(_ text: String, width columns: Int) -> String {
    guard width(text) > columns else { return text }
    guard columns >= 3 else { return String(prefix(text, width: max(columns, 0))) }
    let room = columns - 1
    let start = prefix(text, width: room / 3)
    let end = suffix(text, width: room - width(start))
    return start + "…" + end
  }

  /// `text` followed by spaces up to `columns` columns; `text` itself when it is as wide
  /// already.
  public static func padded(_ text: String, toWidth columns: Int) -> String {
    let missing = columns - width(text)
    return missing > 0 ? text + String(repeating: " ", count: missing) : text
  }

  /// Whether `value` lies in one of ``wideRanges``.
  private static func isWide(_ value: UInt32) -> Bool {
    guard value >= wideRanges[0].lowerBound else { return false }
    var low = 0
    var high = wideRanges.count - 1
    while low <= high {
      let middle = (low + high) / 2
      let range = wideRanges[middle]
      if value < range.lowerBound {
        high = middle - 1
      } else if value > range.upperBound {
        low = middle + 1
      } else {
        return true
      }
    }
    return false
  }
}
