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

  /// The part of ``visible`` that fits in `width` terminal columns with its `‹` and `›`
  /// (a `‹` where characters of the strip lie before it, a `›` where they lie after it):
  /// ``visible`` when it fits; else as much of it as fits, from its start, or moved on
  /// so that label `keeping` (the selected one) is seen to its end, or from its start
  /// when it is wider than the room. So a pane narrower than the device still says where
  /// the strip goes on, as the device's own view does.
  /// - Complexity: O(``visible``'s characters).
  func window(fittingWidth width: Int, keeping label: Int?) -> Range<Int> {
    // The columns before each character of the view, and after the last.
    var offsets = [0]
    offsets.reserveCapacity(last - first + 1)
    for position in visible {
      offsets.append(offsets[offsets.count - 1] + TerminalText.width(String(characters[position])))
    }
    func columns(_ range: Range<Int>) -> Int {
      offsets[range.upperBound - first] - offsets[range.lowerBound - first]
        + (range.lowerBound > 0 ? 1 : 0) + (range.upperBound < characters.count ? 1 : 0)
    }
    guard columns(visible) > width else { return visible }
    /// The furthest end from `start` that fits.
    func end(from start: Int) -> Int {
      var end = start
      while end < last, columns(start..<(end + 1)) <= width { end += 1 }
      return end
    }
    var start = first
    if let label, let labelStart = visible.first(where: { labelIndices[$0] == label }) {
      let labelEnd = (visible.last { labelIndices[$0] == label } ?? labelStart) + 1
      while start < labelStart, columns(start..<labelEnd) > width { start += 1 }
    }
    return start..<end(from: start)
  }

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
