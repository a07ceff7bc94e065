// The state drawn as plain text for a terminal: the menu strip as its scroll view shows
// it, a status line, and the split view's visible columns in boxes (side by side on a
// regular width, one column with a back affordance on a compact one). No colour: that is
// the command line's business.
//
// Text is measured in terminal columns (`TerminalText.width`), not in characters, so that
// boxes and underlines line up under wide characters (`月曜日`, `🙂`) and combining marks;
// the catalog's texts are shown with `TerminalText.escaped` (the catalog refuses control
// characters, so this only matters for a catalog built around its checks).

import RewindCore

extension NavigationState {
  /// The sidebar's title, the tutorial's `.navigationTitle("Espresso")`.
  public static let sidebarTitle = "Espresso"
  /// The placeholder of the two-column detail while no category is selected.
  public static let selectCategoryPlaceholder = "Please select a category"
  /// The placeholder of the three-column content while no category is selected.
  public static let selectMenuItemPlaceholder = "Please select a menu item"
  /// The placeholder of the three-column detail while no item is selected.
  public static let selectItemPlaceholder = "Please select an item"
  /// The row of a category without items.
  public static let noItemsPlaceholder = "No items"

  /// The state as several lines of plain text (no trailing newline). See
  /// ``NavigationDomain/render(_:)``.
  package func renderedText() -> String {
    var lines = menuLines()
    lines.append("")
    lines.append(statusLine())
    if split.sizeClass == .compact {
      let column = split.compactColumn
      if column != .sidebar { lines.append("‹ " + backTitle(from: column)) }
      lines += TextBoxes.draw([panel(column)])
    } else {
      lines += TextBoxes.draw(split.visibleColumns.columns.map(panel))
    }
    return lines.map { line in
      // No trailing blanks: they are invisible and get lost when pasted.
      String(line[..<(line.lastIndex { $0 != " " }.map(line.index(after:)) ?? line.startIndex)])
    }.joined(separator: "\n")
  }

  // MARK: Menu

  /// The labels, with a heavy underline under the selected one and a light line under the
  /// others, as the tutorial draws them: the part of the strip the scroll view shows, with
  /// `‹` and `›` where the strip goes on out of view (see `MenuStripLayout`).
  private func menuLines() -> [String] {
    let strip = MenuStripLayout(self)
    var labels = ""
    var underline = ""
    for position in strip.visible {
      let character = strip.characters[position]
      let line = strip.labelIndices[position] == menu.selectedIndex ? "━" : "─"
      labels.append(character)
      underline += String(repeating: line, count: TerminalText.width(String(character)))
    }
    let before = strip.isCutBefore
    return [
      (before ? "‹" : "") + labels + (strip.isCutAfter ? "›" : ""),
      (before ? " " : "") + underline,
    ]
  }

  /// The layout, size class, orientation, visibility and style in one line.
  func statusLine() -> String {
    var parts = [
      split.layout.rawValue, split.sizeClass.rawValue, split.orientation.rawValue,
      "visibility \(split.columnVisibility.rawValue)",
      "style \(split.style.rawValue)",
    ]
    if split.overlay { parts.append("leading columns overlay the detail") }
    return parts.joined(separator: " · ")
  }

  // MARK: Columns

  private func panel(_ column: Column) -> TextBoxes.Panel {
    switch column {
    case .sidebar:
      let rows = catalog.categories.map { category in
        (split.selectedCategory == category ? "● " : "  ") + name(of: category)
      }
      return TextBoxes.Panel(title: Self.sidebarTitle, rows: rows)
    case .content:
      guard let category = split.selectedCategory else {
        return TextBoxes.Panel(title: "Items", rows: [Self.selectMenuItemPlaceholder])
      }
      return TextBoxes.Panel(title: name(of: category), rows: itemRows(of: category))
    case .detail where split.layout == .twoColumn:
      guard let category = split.selectedCategory else {
        return TextBoxes.Panel(title: "Detail", rows: [Self.selectCategoryPlaceholder])
      }
      return TextBoxes.Panel(title: name(of: category), rows: itemRows(of: category))
    case .detail:
      guard let item = split.selectedItem else {
        return TextBoxes.Panel(title: "Detail", rows: [Self.selectItemPlaceholder])
      }
      return TextBoxes.Panel(title: name(of: item), rows: photoRows(of: item))
    }
  }

  /// A node's name as it is shown.
  private func name(of ref: NodeRef) -> String {
    TerminalText.escaped(catalog.name(of: ref))
  }

  /// The title of the column a compact back button returns to.
  func backTitle(from column: Column) -> String {
    switch (column, split.layout) {
    case (.detail, .threeColumn): split.selectedCategory.map(name(of:)) ?? "Items"
    default: Self.sidebarTitle
    }
  }

  /// The sub-items of `parent`, expanded ones followed by their children, indented.
  /// `●` marks the selected item, `◦` a collapsed item that hides it; `▸`/`▾` are the
  /// disclosures of items with children.
  private func itemRows(of parent: NodeRef) -> [String] {
    var rows: [String] = []
    appendItemRows(of: parent, indent: "", to: &rows)
    return rows.isEmpty ? [Self.noItemsPlaceholder] : rows
  }

  private func appendItemRows(of parent: NodeRef, indent: String, to rows: inout [String]) {
    let children = catalog.children(of: parent)
    // A disclosure slot only in lists that have a disclosure, so plain lists stay compact.
    let slot = children.contains(where: catalog.hasChildren) ? "  " : ""
    for child in children {
      let expandable = catalog.hasChildren(child)
      let expanded = expandable && split.expanded.contains(child)
      let marker: String
      if split.selectedItem == child {
        marker = "● "
      } else if let item = split.selectedItem, !expanded, catalog.isDescendant(item, of: child) {
        marker = "◦ "
      } else {
        marker = "  "
      }
      let disclosure = expandable ? (expanded ? "▾ " : "▸ ") : slot
      rows.append(marker + indent + disclosure + name(of: child))
      if expanded { appendItemRows(of: child, indent: indent + "  ", to: &rows) }
    }
  }

  /// The detail of the three-column layout: the item's photo, drawn as a framed caption.
  private func photoRows(of item: NodeRef) -> [String] {
    let image = TerminalText.escaped(catalog.image(of: item))
    let caption = image.isEmpty ? "no photo" : "photo: \(image)"
    let bar = String(repeating: "─", count: TerminalText.width(caption) + 2)
    return ["╭\(bar)╮", "│ \(caption) │", "╰\(bar)╯"]
  }
}

/// Draws titled panels side by side in one box with shared borders.
enum TextBoxes {
  struct Panel {
    var title: String
    var rows: [String]
  }

  /// The narrowest and widest a panel's inner width may be, in columns.
  static let minimumWidth = 20
  static let maximumWidth = 34

  static func draw(_ panels: [Panel]) -> [String] {
    guard !panels.isEmpty else { return [] }
    let widths = panels.map { panel in
      let widest = panel.rows.map(TerminalText.width).max() ?? 0
      return min(max(widest, TerminalText.width(panel.title) + 3, minimumWidth), maximumWidth)
    }
    var top = "┌"
    var bottom = "└"
    for (position, panel) in panels.enumerated() {
      let title = fit(panel.title, widths[position] - 3)
      top +=
        "─ \(title) "
        + String(repeating: "─", count: widths[position] - TerminalText.width(title) - 1)
      bottom += String(repeating: "─", count: widths[position] + 2)
      let last = position == panels.count - 1
      top += last ? "┐" : "┬"
      bottom += last ? "┘" : "┴"
    }
    var lines = [top]
    let height = panels.map(\.rows.count).max() ?? 0
    for row in 0..<height {
      var line = "│"
      for (position, panel) in panels.enumerated() {
        let text = row < panel.rows.count ? fit(panel.rows[row], widths[position]) : ""
        line += " " + TerminalText.padded(text, toWidth: widths[position]) + " │"
      }
      lines.append(line)
    }
    lines.append(bottom)
    return lines
  }

  /// `text` cut to `width` columns, with `…` when it was wider. A wide character that
  /// does not fit whole is left out, so the result may be a column narrower.
  static func fit(_ text: String, _ width: Int) -> String {
    guard TerminalText.width(text) > width else { return text }
    var cut = TerminalText.prefix(text, width: max(width - 1, 0))
    while cut.last == " " { cut.removeLast() }
    return cut + "…"
  }
}
