import Navigation
import RewindCore
import Testing

/// The reducer's invariants, checked after every step of the property tests. Returns the
/// violations, empty when the state is sound.
func invariantViolations(of state: NavigationState) -> [String] {
  var problems: [String] = []
  let catalog = state.catalog
  let split = state.split
  if !(0..<state.menuLabels.count).contains(state.menu.selectedIndex) {
    problems.append("selectedIndex \(state.menu.selectedIndex) is outside the labels")
  }
  let offset = state.menu.scrollOffset
  if !offset.isFinite || offset < 0 || offset.sign == .minus {
    problems.append("scrollOffset \(offset) is not finite and non-negative")
  }
  let width = state.menu.viewportWidth
  if !(width > 0 && width <= NavigationSettings.maximumViewportWidth) {
    problems.append("viewportWidth \(width) is not above 0 and at most 1,000,000")
  }
  let limit = max(catalog.menuContentWidth - width, 0)
  if offset > limit {
    problems.append("scrollOffset \(offset) is beyond the strip's range, 0 to \(limit)")
  }
  if let category = split.selectedCategory, !catalog.isCategory(category) {
    problems.append("selectedCategory \(category.index) is not a top-level category")
  }
  if let item = split.selectedItem {
    if let category = split.selectedCategory {
      if !catalog.isDescendant(item, of: category) {
        problems.append("selectedItem \(item.index) is not below the selected category")
      }
    } else {
      problems.append("an item is selected without a category")
    }
  }
  for ref in split.expanded.refs where !catalog.hasChildren(ref) {
    problems.append("expanded node \(ref.index) has no children")
  }
  if !split.layout.columns.contains(split.compactColumn) {
    problems.append("compactColumn \(split.compactColumn) is not a column of \(split.layout)")
  }
  if split.sizeClass == .compact {
    // On a compact width the column follows the selection.
    if (split.compactColumn == .sidebar) != (split.selectedCategory == nil) {
      problems.append(
        "compact on \(split.compactColumn) with category \(String(describing: split.selectedCategory))"
      )
    }
    if split.layout == .threeColumn && split.compactColumn == .detail && split.selectedItem == nil {
      problems.append("compact on the three-column detail without an item")
    }
    if split.visibleColumns.columns != [split.compactColumn] {
      problems.append("compact but visibleColumns is \(split.visibleColumns.columns)")
    }
  }
  return problems
}
