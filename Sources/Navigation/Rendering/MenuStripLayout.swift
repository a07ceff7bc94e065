import RewindCore

/// The menu strip in character cells, as both the text rendering and the interactive
/// screen draw it: each label's cell written ` label `, and the part of the strip the
/// scroll view shows.
///
/// The strip's points (``Catalog/menuLabelWidths``, ``MenuState/scrollOffset``,
/// ``MenuState/viewportWidth``) map onto characters proportionally within each label's
/// cell, so a half-scrolled label shows half its characters: labels that do not fit are
/// cut at the edges, as a scroll view cuts them.
struct MenuStripLayout {
  /// The strip's characters, label after label.
  let characters: [Character]
  /// The label each character belongs to.
  let labelIndices: [Int]
  /// The first character the viewport shows.
  let first: Int
  /// One past the last character the viewport shows.
  let last: Int

  init(_ state: NavigationState) {
    var characters: [Character] = []
    var labelIndices: [Int] = []
    // Where each label's cell starts, in characters, and the point it stands for.
    var stops: [(column: Int, point: Double)] = []
    let catalog = state.catalog
    for (index, label) in state.menuLabels.enumerated() {
      stops.append((characters.count, catalog.menuLabelStarts[index]))
      for character in " \(TerminalText.escaped(label)) " {
        characters.append(character)
        labelIndices.append(index)
      }
    }
    stops.append((characters.count, catalog.menuContentWidth))
    let menu = state.menu
    // At least the last character shows, however narrow the viewport (an offset at the
    // very end of the strip, with a viewport of a fraction of a point, is one).
    let first = min(Self.column(at: menu.scrollOffset, stops), characters.count - 1)
    self.characters = characters
    self.labelIndices = labelIndices
    self.first = first
    self.last = min(
      max(Self.column(at: menu.scrollOffset + menu.viewportWidth, stops), first + 1),
      characters.count)
  }

  /// Whether the strip goes on out of view before the viewport.
  var isCutBefore: Bool { first > 0 }
  /// Whether the strip goes on out of view after the viewport.
  var isCutAfter: Bool { last < characters.count }
  /// The characters the viewport shows.
  var visible: Range<Int> { first..<last }

  /// The character column that shows the strip's point `point`: proportionally within
  /// the label's cell that holds it.
  private static func column(at point: Double, _ stops: [(column: Int, point: Double)]) -> Int {
    guard let end = stops.last, point < end.point else { return stops.last?.column ?? 0 }
    var index = 0
    while stops[index + 1].point <= point { index += 1 }
    let (column, start) = stops[index]
    let fraction = (point - start) / (stops[index + 1].point - start)
    return column + Int((fraction * Double(stops[index + 1].column - column)).rounded())
  }
}
