public import RewindCore

extension NavigationState {
  /// Applies one event: the navigation reducer.
  ///
  /// Pure and deterministic: the result depends on the state and the event only. A
  /// rejected event leaves the state exactly as it was; an event that is valid but changes
  /// nothing (selecting what is selected) is `unchanged`.
  ///
  /// The rules, event by event:
  /// - `menuTabTapped(index)`: `0 <= index < labels.count` selects it.
  /// - `menuScrolled(offset)`: a finite offset `>= 0` is stored (`-0.0` as `0.0`).
  /// - `categorySelected(nil)`: clears the category and the item; compact: shows the
  ///   sidebar. `categorySelected(id)`: `id` must be a top-level category; a different
  ///   one replaces the selection and clears the item; compact: shows the column after
  ///   the sidebar (content in three columns, detail in two).
  /// - `itemSelected(id)`: `id` must lie below the selected category; compact: shows the
  ///   detail. `itemSelected(nil)` clears the item; compact, three columns, on the detail:
  ///   back to the content.
  /// - `itemExpanded(id)`/`itemCollapsed(id)`: `id` must have children.
  /// - `columnVisibilityChanged`, `splitStyleChanged`: set.
  /// - `sizeClassChanged(c)`: sets it; on becoming compact, the compact column becomes the
  ///   deepest column with a selection.
  /// - `backTapped`: compact and not on the sidebar only. Three columns: detail → content
  ///   (clears the item), content → sidebar (clears category and item). Two columns:
  ///   detail → sidebar (clears category and item).
  ///
  /// - Returns: `applied`, `unchanged`, or `rejected` with the reason.
  /// - Complexity: O(1); no allocation, no hashing, no string work.
  @inlinable @inline(__always)
  public mutating func apply(_ event: NavigationEvent) -> Outcome<NavigationRejection> {
    switch event {
    case .menuTabTapped(let index):
      let count = catalog.menuLabelCount
      guard index >= 0 && index < count else {
        return .rejected(.tabIndexOutOfRange(index: index, count: count))
      }
      if menu.selectedIndex == index { return .unchanged }
      menu.selectedIndex = index
      return .applied

    case .menuScrolled(let offset):
      guard offset.isFinite else { return .rejected(.scrollOffsetNotFinite) }
      guard offset >= 0 else { return .rejected(.scrollOffsetNegative) }
      if menu.scrollOffset == offset { return .unchanged }
      menu.scrollOffset = offset == 0 ? 0 : offset
      return .applied

    case .categorySelected(nil):
      var changed = split.selectedCategory != nil || split.selectedItem != nil
      split.selectedCategory = nil
      split.selectedItem = nil
      if split.sizeClass == .compact && split.compactColumn != .sidebar {
        split.compactColumn = .sidebar
        changed = true
      }
      return changed ? .applied : .unchanged

    case .categorySelected(let category?):
      guard catalog.contains(category) else { return .rejected(.unknownIdentifier) }
      guard catalog.isCategory(category) else { return .rejected(.notATopLevelCategory) }
      var changed = false
      if split.selectedCategory != category {
        split.selectedCategory = category
        split.selectedItem = nil
        changed = true
      }
      if split.sizeClass == .compact {
        let next = split.layout.columnAfterSidebar
        if split.compactColumn != next {
          split.compactColumn = next
          changed = true
        }
      }
      return changed ? .applied : .unchanged

    case .itemSelected(nil):
      var changed = split.selectedItem != nil
      split.selectedItem = nil
      if split.sizeClass == .compact && split.layout == .threeColumn
        && split.compactColumn == .detail
      {
        split.compactColumn = .content
        changed = true
      }
      return changed ? .applied : .unchanged

    case .itemSelected(let item?):
      guard catalog.contains(item) else { return .rejected(.unknownIdentifier) }
      guard let category = split.selectedCategory else {
        return .rejected(.noCategorySelected)
      }
      guard catalog.isDescendant(item, of: category) else {
        return .rejected(.itemNotInSelectedCategory)
      }
      var changed = split.selectedItem != item
      split.selectedItem = item
      if split.sizeClass == .compact && split.compactColumn != .detail {
        split.compactColumn = .detail
        changed = true
      }
      return changed ? .applied : .unchanged

    case .itemExpanded(let item):
      guard catalog.contains(item) else { return .rejected(.unknownIdentifier) }
      guard catalog.hasChildren(item) else { return .rejected(.notExpandable) }
      return split.expanded.insert(item) ? .applied : .unchanged

    case .itemCollapsed(let item):
      guard catalog.contains(item) else { return .rejected(.unknownIdentifier) }
      guard catalog.hasChildren(item) else { return .rejected(.notExpandable) }
      return split.expanded.remove(item) ? .applied : .unchanged

    case .columnVisibilityChanged(let visibility):
      if split.columnVisibility == visibility { return .unchanged }
      split.columnVisibility = visibility
      return .applied

    case .splitStyleChanged(let style):
      if split.style == style { return .unchanged }
      split.style = style
      return .applied

    case .sizeClassChanged(let sizeClass):
      if split.sizeClass == sizeClass { return .unchanged }
      split.sizeClass = sizeClass
      if sizeClass == .compact { split.compactColumn = split.deepestSelectedColumn }
      return .applied

    case .backTapped:
      guard split.sizeClass == .compact else {
        return .rejected(.backNotAvailableOnRegularWidth)
      }
      switch split.compactColumn {
      case .sidebar:
        return .rejected(.backNotAvailableOnSidebar)
      case .detail where split.layout == .threeColumn:
        split.compactColumn = .content
        split.selectedItem = nil
      case .content, .detail:
        split.compactColumn = .sidebar
        split.selectedCategory = nil
        split.selectedItem = nil
      }
      return .applied
    }
  }
}

extension SplitState {
  /// The column a compact split view shows for the current selection: three columns,
  /// detail if an item is selected, else content if a category is, else the sidebar; two
  /// columns, detail if a category is selected, else the sidebar.
  @inlinable public var deepestSelectedColumn: Column {
    switch layout {
    case .threeColumn:
      selectedItem != nil ? .detail : selectedCategory != nil ? .content : .sidebar
    case .twoColumn:
      selectedCategory != nil ? .detail : .sidebar
    }
  }
}
