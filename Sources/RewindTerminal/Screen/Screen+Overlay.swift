import RewindCore

extension Screen {
  /// Draws a framed panel in the middle of the screen, over what is there: `title` in
  /// its top edge, then one line per entry, the keys in bold in a column of their own,
  /// then `footer`. On a screen too narrow, an action goes on under itself; on one too
  /// short, the entries that do not fit are left out, a line saying how many, and the
  /// footer is kept.
  /// - Returns: The panel's rectangle.
  @discardableResult
  public mutating func helpOverlay(title: String, entries: [KeyHelp], footer: String? = nil)
    -> Rect
  {
    let keysWidth = entries.map { TerminalText.width($0.keys) }.max() ?? 0
    let actionWidth = entries.map { TerminalText.width($0.action) }.max() ?? 0
    let contentWidth = max(
      keysWidth + 2 + actionWidth, TerminalText.width(title) + 2,
      footer.map { TerminalText.width($0) } ?? 0)
    let width = min(contentWidth + 4, size.columns)
    // An action wider than the panel goes on under itself, broken at spaces (a word wider
    // than its column ends in `…`).
    let actionColumns = max(width - 4 - keysWidth - 2, 1)
    var lines: [(keys: String, action: String, entry: Int)] = []
    for (index, entry) in entries.enumerated() {
      for (part, text) in Self.wrapped(entry.action, width: actionColumns).enumerated() {
        lines.append((part == 0 ? entry.keys : "", text, index))
      }
    }
    // The footer (what closes the help) is kept, with a blank line before it where there
    // is room; the lines that do not fit end in one saying how many keys are left out.
    let room = max(size.rows - 2, 0)
    let footerLines = footer == nil ? 0 : (lines.count + 2 <= room ? 2 : 1)
    var shown = lines
    if lines.count + footerLines > room {
      let kept = max(room - footerLines - 1, 0)
      shown = Array(lines.prefix(kept))
      // An entry shown in part is left out whole.
      let firstLeftOut = lines[kept].entry
      shown.removeAll { $0.entry >= firstLeftOut }
      let left = entries.count - firstLeftOut
      shown.append(("", "… \(Format.count(left, "more key")): a taller terminal shows them", -1))
    }
    let height = min(shown.count + 2 + footerLines, size.rows)
    let panel = Rect(
      column: (size.columns - width) / 2, row: (size.rows - height) / 2, width: width,
      height: height)
    fill(panel)
    box(panel, title: title, titleStyle: .bold)
    let inner = Rect(
      column: panel.column + 2, row: panel.row + 1, width: panel.width - 4,
      height: panel.height - 2)
    for (offset, line) in shown.enumerated() {
      if line.entry < 0 {
        write(
          Self.fitted(line.action, toWidth: inner.width), column: inner.column,
          row: inner.row + offset, style: .dim, clip: inner)
        continue
      }
      write(line.keys, column: inner.column, row: inner.row + offset, style: .bold, clip: inner)
      write(
        Self.fitted(line.action, toWidth: actionColumns), column: inner.column + keysWidth + 2,
        row: inner.row + offset, clip: inner)
    }
    if let footer {
      write(
        Self.fitted(footer, toWidth: inner.width), column: inner.column,
        row: inner.row + shown.count + footerLines - 1, style: .dim, clip: inner)
    }
    return panel
  }
}
