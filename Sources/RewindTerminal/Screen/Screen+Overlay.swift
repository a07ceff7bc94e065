import RewindCore

extension Screen {
  /// Draws a framed panel in the middle of the screen, over what is there: `title` in
  /// its top edge, then one line per entry, the keys in bold in a column of their own,
  /// then `footer`. Lines that do not fit are cut.
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
    let height = min(entries.count + 2 + (footer == nil ? 0 : 2), size.rows)
    let panel = Rect(
      column: (size.columns - width) / 2, row: (size.rows - height) / 2, width: width,
      height: height)
    fill(panel)
    box(panel, title: title, titleStyle: .bold)
    let inner = Rect(
      column: panel.column + 2, row: panel.row + 1, width: panel.width - 4,
      height: panel.height - 2)
    for (offset, entry) in entries.enumerated() {
      write(entry.keys, column: inner.column, row: inner.row + offset, style: .bold, clip: inner)
      write(
        entry.action, column: inner.column + keysWidth + 2, row: inner.row + offset, clip: inner)
    }
    if let footer {
      write(
        footer, column: inner.column, row: inner.row + entries.count + 1, style: .dim,
        clip: inner)
    }
    return panel
  }
}
