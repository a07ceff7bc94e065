import RewindCore

extension Screen {
  /// Writes `text` on one row from `column` on, clipped to `clip` and to the screen.
  ///
  /// Characters are measured by display width; one that starts left of the clip or
  /// does not fit whole before its right edge is left out (a wide character cut by the
  /// right edge leaves a space). Control characters are escaped first
  /// (`TerminalText.escaped(_:keepingNewlines:)`), so text from outside shows as text.
  /// - Parameters:
  ///   - text: One line of text.
  ///   - column: Where the first character goes; may lie left of the clip (text
  ///     scrolled out of view).
  ///   - row: The row.
  ///   - style: The style of every cell written.
  ///   - clip: Where drawing may happen; the whole screen when nil.
  /// - Returns: The column after the text, as if nothing was clipped.
  /// - Complexity: O(*n*) in the text's length.
  @discardableResult
  public mutating func write(
    _ text: String, column: Int, row: Int, style: CellStyle = .plain, clip: Rect? = nil
  ) -> Int {
    let area = (clip ?? bounds).intersection(bounds)
    var x = column
    guard row >= area.row && row < area.endRow else {
      return column + TerminalText.width(TerminalText.escaped(text))
    }
    for character in TerminalText.escaped(text) {
      let width = Self.width(of: character)
      if width == 0 { continue }
      defer { x += width }
      if x < area.column {
        // A wide character half left of the clip: its visible half is blank.
        if x + width > area.column && area.column < area.endColumn {
          put(" ", width: 1, style: style, column: area.column, row: row)
        }
        continue
      }
      if x + width > area.endColumn {
        if x < area.endColumn { put(" ", width: 1, style: style, column: x, row: row) }
        continue
      }
      put(character, width: width, style: style, column: x, row: row)
    }
    return x
  }

  /// Fills `rect` (clipped to the screen) with `character` in `style`.
  public mutating func fill(
    _ rect: Rect, with character: Character = " ", style: CellStyle = .plain
  ) {
    let area = rect.intersection(bounds)
    let width = Self.width(of: character)
    guard width >= 1 else { return }
    for row in area.row..<area.endRow {
      var x = area.column
      while x + width <= area.endColumn {
        put(character, width: width, style: style, column: x, row: row)
        x += width
      }
      if x < area.endColumn { put(" ", width: 1, style: style, column: x, row: row) }
    }
  }

  /// Changes the style of every cell of `rect` (clipped to the screen), keeping the
  /// characters: a highlight over text already drawn.
  public mutating func restyle(_ rect: Rect, _ change: (inout CellStyle) -> Void) {
    let area = rect.intersection(bounds)
    for row in area.row..<area.endRow {
      for column in area.column..<area.endColumn {
        change(&cells[row * size.columns + column].style)
      }
    }
  }

  /// Draws a frame of light box-drawing lines around `rect`'s edge, with `title` in the
  /// top edge (cut with `…` when it does not fit).
  public mutating func box(
    _ rect: Rect, title: String? = nil, style: CellStyle = .plain, titleStyle: CellStyle? = nil
  ) {
    guard rect.width >= 2 && rect.height >= 2 else { return }
    let right = rect.endColumn - 1
    let bottom = rect.endRow - 1
    fill(
      Rect(column: rect.column + 1, row: rect.row, width: rect.width - 2, height: 1),
      with: "─", style: style)
    fill(
      Rect(column: rect.column + 1, row: bottom, width: rect.width - 2, height: 1),
      with: "─", style: style)
    fill(
      Rect(column: rect.column, row: rect.row + 1, width: 1, height: rect.height - 2),
      with: "│", style: style)
    fill(
      Rect(column: right, row: rect.row + 1, width: 1, height: rect.height - 2),
      with: "│", style: style)
    write("┌", column: rect.column, row: rect.row, style: style)
    write("┐", column: right, row: rect.row, style: style)
    write("└", column: rect.column, row: bottom, style: style)
    write("┘", column: right, row: bottom, style: style)
    if let title, rect.width > 4 {
      let text = " " + Self.fitted(title, toWidth: rect.width - 4) + " "
      write(text, column: rect.column + 1, row: rect.row, style: titleStyle ?? style, clip: rect)
    }
  }

  /// `text` cut to `width` columns with `…` at the end when it is wider, measured as
  /// ``write(_:column:row:style:clip:)`` draws it: its control characters escaped
  /// (`\u{1B}`, six columns), which the result holds already.
  public static func fitted(_ text: String, toWidth width: Int) -> String {
    guard width > 0 else { return "" }
    let text = TerminalText.escaped(text)
    guard TerminalText.width(text) > width else { return text }
    return TerminalText.prefix(text, width: width - 1) + "…"
  }

  /// `text` in lines of at most `width` columns, broken at spaces; a word wider than the
  /// width is a line of its own (wider than the width).
  static func wrapped(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    var lineWidth = 0
    for word in text.split(separator: " ") {
      let wordWidth = TerminalText.width(word)
      if line.isEmpty {
        (line, lineWidth) = (String(word), wordWidth)
      } else if lineWidth + 1 + wordWidth <= width {
        line += " " + word
        lineWidth += 1 + wordWidth
      } else {
        lines.append(line)
        (line, lineWidth) = (String(word), wordWidth)
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }

  /// The columns `character` takes: 1 for ASCII, else its display width, at most 2.
  static func width(of character: Character) -> Int {
    if character.isASCII { return 1 }
    return min(TerminalText.width(String(character)), 2)
  }
}
