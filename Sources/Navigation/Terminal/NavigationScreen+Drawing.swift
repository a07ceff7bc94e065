import RewindCore
public import RewindTerminal

extension NavigationScreen {
  /// The widths the leading columns take when they fit, and the least the detail keeps
  /// beside them.
  static let sidebarWidth = 28
  static let contentWidth = 34
  static let minimumDetailWidth = 24

  /// Draws the menu strip, a line with the split view's layout, size class,
  /// orientation, visibility and style, and the shown columns: side by side, or the
  /// leading ones over the detail when they overlay it, or one column with a back button
  /// on a compact width.
  public mutating func draw(
    _ state: NavigationState, in area: Rect, on screen: inout Screen, showsFocus: Bool
  ) {
    sync(with: state)
    hits = []
    listHeights = [:]
    let (strip, rest) = area.splitRows(at: 2)
    drawMenu(state, in: strip, on: &screen, showsFocus: showsFocus)
    let (info, below) = rest.splitRows(at: 1)
    screen.write(
      Screen.fitted(state.statusLine(), toWidth: info.width), column: info.column, row: info.row,
      style: CellStyle.dim, clip: info)
    var columnsArea = below.splitRows(at: 1).rest
    if state.split.sizeClass == .compact {
      let (backRow, body) = columnsArea.splitRows(at: 1)
      columnsArea = body
      if let column = state.shownColumns.first, column != .sidebar {
        let title = "‹ " + state.backTitle(from: column)
        let end = screen.write(
          title, column: backRow.column, row: backRow.row,
          style: CellStyle(foreground: .cyan, bold: true), clip: backRow)
        hits.append(
          (
            Rect(column: backRow.column, row: backRow.row, width: end - backRow.column, height: 1),
            .back
          ))
      }
    }
    for (column, rect) in columnRects(state, in: columnsArea) {
      drawColumn(column, state, in: rect, on: &screen, showsFocus: showsFocus)
    }
  }

  // MARK: Menu

  /// The strip's visible characters, the selected label bold over a heavy line, the
  /// others over a light one; `‹` and `›` where it goes on out of view; the highlight in
  /// reverse when the menu has the focus (on the `‹` or `›` when it lies out of view).
  ///
  /// An area narrower than the device's view shows the part of it that fits, with the
  /// selected label if it can (``MenuStripLayout/window(fittingWidth:keeping:)``), and
  /// `‹` `›` where the strip goes on beyond the area too.
  private mutating func drawMenu(
    _ state: NavigationState, in area: Rect, on screen: inout Screen, showsFocus: Bool
  ) {
    let strip = MenuStripLayout(state)
    let window = strip.window(fittingWidth: area.width, keeping: state.menu.selectedIndex)
    guard !window.isEmpty else { return }
    let highlight = showsFocus && focus == .menu ? menuHighlight : nil
    hits.append((area, .strip))
    var x = area.column
    let arrowStyle = CellStyle(foreground: .gray)
    if window.lowerBound > 0 {
      let beyond = highlight.map { $0 < strip.labelIndices[window.lowerBound] } ?? false
      screen.write(
        "‹", column: x, row: area.row, style: beyond ? .reverse : arrowStyle, clip: area)
      // A click scrolls the device's strip: where it is cut, not only the area.
      if strip.isCutBefore {
        hits.append((Rect(column: x, row: area.row, width: 1, height: 2), .scrollBack))
      }
      x += 1
    }
    var labelStart = x
    for position in window {
      let index = strip.labelIndices[position]
      let selected = index == state.menu.selectedIndex
      var style =
        selected ? CellStyle(foreground: .brightWhite, bold: true) : CellStyle.plain
      if index == highlight { style.reverse = true }
      let next = screen.write(
        String(strip.characters[position]), column: x, row: area.row, style: style, clip: area)
      let line: Character = selected ? "━" : "─"
      screen.write(
        String(repeating: line, count: next - x), column: x, row: area.row + 1,
        style: selected ? CellStyle(foreground: .brightWhite, bold: true) : arrowStyle,
        clip: area)
      let endsLabel =
        position + 1 == window.upperBound || strip.labelIndices[position + 1] != index
      if endsLabel {
        hits.append(
          (
            Rect(column: labelStart, row: area.row, width: next - labelStart, height: 2),
            .label(index)
          ))
        labelStart = next
      }
      x = next
    }
    if window.upperBound < strip.characters.count {
      let beyond = highlight.map { $0 > strip.labelIndices[window.upperBound - 1] } ?? false
      screen.write(
        "›", column: x, row: area.row, style: beyond ? .reverse : arrowStyle, clip: area)
      if strip.isCutAfter {
        hits.append((Rect(column: x, row: area.row, width: 1, height: 2), .scrollForward))
      }
    }
  }

  // MARK: Columns

  /// Where each shown column goes: the leading columns at their widths (narrower when
  /// the area is), the detail in the rest, or in all of it when the leading columns
  /// overlay it (drawn first, so they lie over it).
  func columnRects(_ state: NavigationState, in area: Rect) -> [(Column, Rect)] {
    let shown = state.shownColumns
    guard shown.count > 1 else { return shown.map { ($0, area) } }
    let leading = shown.filter { $0 != .detail }
    let preferred = leading.map { $0 == .sidebar ? Self.sidebarWidth : Self.contentWidth }
    let overlay = state.split.overlay
    let available = area.width - (overlay ? Self.minimumDetailWidth / 2 : Self.minimumDetailWidth)
    let total = preferred.reduce(0, +)
    let widths =
      total <= available ? preferred : preferred.map { max($0 * available / total, 8) }
    var rects: [(Column, Rect)] = []
    var x = area.column
    for (column, width) in zip(leading, widths) {
      rects.append((column, Rect(column: x, row: area.row, width: width, height: area.height)))
      x += width
    }
    guard shown.contains(.detail) else { return rects }
    let detail =
      overlay
      ? area : Rect(column: x, row: area.row, width: area.endColumn - x, height: area.height)
    return overlay ? [(.detail, detail)] + rects : rects + [(.detail, detail)]
  }

  private mutating func drawColumn(
    _ column: Column, _ state: NavigationState, in rect: Rect, on screen: inout Screen,
    showsFocus: Bool
  ) {
    let focused = showsFocus && focus == .column(column)
    screen.fill(rect)
    screen.box(
      rect, title: state.columnTitle(column),
      style: focused ? CellStyle(foreground: .cyan, bold: true) : CellStyle(foreground: .gray),
      titleStyle: CellStyle(bold: true))
    hits.append((rect, .column(column)))
    let inner = Rect(
      column: rect.column + 2, row: rect.row + 1, width: rect.width - 4, height: rect.height - 2)
    guard !inner.isEmpty else { return }
    if column == .detail && state.split.layout == .threeColumn {
      drawPhoto(state, in: inner, on: &screen)
      return
    }
    drawList(column, state, in: inner, on: &screen, focused: focused)
    // Arrows in the frame where the list goes on.
    let list = lists[column] ?? ListPosition()
    let count = state.listRows(of: column).count
    if list.top > 0 {
      screen.write("↑", column: rect.endColumn - 2, row: rect.row, style: .dim)
    }
    if list.top + inner.height < count {
      screen.write("↓", column: rect.endColumn - 2, row: rect.endRow - 1, style: .dim)
    }
  }

  private mutating func drawList(
    _ column: Column, _ state: NavigationState, in inner: Rect, on screen: inout Screen,
    focused: Bool
  ) {
    let rows = state.listRows(of: column)
    var list = lists[column] ?? ListPosition()
    // Keep the highlighted row in view.
    if list.cursor < list.top { list.top = list.cursor }
    if list.cursor >= list.top + inner.height { list.top = list.cursor - inner.height + 1 }
    list.top = min(max(list.top, 0), max(rows.count - inner.height, 0))
    lists[column] = list
    listHeights[column] = inner.height
    for offset in 0..<min(inner.height, rows.count - list.top) {
      let index = list.top + offset
      let row = rows[index]
      let y = inner.row + offset
      let line = inner.row(offset)
      guard row.target != .none else {
        screen.write(row.text, column: inner.column, row: y, style: .dim, clip: inner)
        continue
      }
      let marker =
        switch row.marker {
        case .selected: "● "
        case .holdsSelection: "◦ "
        case .none: "  "
        }
      hits.append((line, .row(column, index: index, row.target)))
      var x = screen.write(
        marker, column: inner.column, row: y, style: CellStyle(foreground: .green), clip: line)
      x += 2 * row.depth
      if let expanded = row.expanded, case .item(let item) = row.target {
        screen.write(
          expanded ? "▾ " : "▸ ", column: x, row: y, style: CellStyle(foreground: .cyan),
          clip: line)
        hits.append(
          (
            Rect(column: x, row: y, width: 2, height: 1).intersection(line),
            .disclosure(column, index: index, item)
          ))
        x += 2
      } else if row.disclosureSlot {
        x += 2
      }
      let style = row.marker == .selected ? CellStyle(bold: true) : CellStyle.plain
      screen.write(
        Screen.fitted(row.text, toWidth: inner.endColumn - x), column: x, row: y,
        style: style, clip: line)
      if focused && index == list.cursor {
        screen.restyle(line) { $0.reverse = true }
      }
    }
  }

  /// The three-column detail: the selected item's photo as a framed placeholder with its
  /// image name, and its id; or the placeholder "Please select an item".
  private func drawPhoto(_ state: NavigationState, in inner: Rect, on screen: inout Screen) {
    guard let item = state.split.selectedItem, state.catalog.contains(item) else {
      let text = NavigationState.selectItemPlaceholder
      screen.write(
        text, column: inner.column + max((inner.width - TerminalText.width(text)) / 2, 0),
        row: inner.row + inner.height / 2, style: .dim, clip: inner)
      return
    }
    let image = state.catalog.image(of: item)
    let caption = image.isEmpty ? "no photo" : "photo: \(image)"
    let width = min(max(TerminalText.width(caption) + 6, 24), inner.width)
    let height = min(7, inner.height)
    let frame = Rect(
      column: inner.column + (inner.width - width) / 2, row: inner.row + 1, width: width,
      height: height)
    let frameStyle = CellStyle(foreground: .gray)
    screen.fill(frame.splitRows(at: 1).top, with: "─", style: frameStyle)
    screen.fill(
      Rect(column: frame.column, row: frame.endRow - 1, width: frame.width, height: 1), with: "─",
      style: frameStyle)
    for y in frame.row..<frame.endRow {
      let corner = y == frame.row || y == frame.endRow - 1
      let left = corner ? (y == frame.row ? "╭" : "╰") : "│"
      let right = corner ? (y == frame.row ? "╮" : "╯") : "│"
      screen.write(left, column: frame.column, row: y, style: frameStyle, clip: inner)
      screen.write(right, column: frame.endColumn - 1, row: y, style: frameStyle, clip: inner)
    }
    let middle = frame.row + frame.height / 2
    screen.write(
      Screen.fitted(caption, toWidth: frame.width - 2),
      column: frame.column + max((frame.width - TerminalText.width(caption)) / 2, 1),
      row: middle, style: CellStyle(foreground: .yellow), clip: frame.inset(by: 1))
    let id = state.catalog.id(of: item)
    screen.write(
      Screen.fitted(id, toWidth: inner.width), column: inner.column, row: frame.endRow + 1,
      style: .dim, clip: inner)
  }
}
