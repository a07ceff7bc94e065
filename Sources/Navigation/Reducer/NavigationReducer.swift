public import RewindCore

extension NavigationState {
  /// Applies one event: the navigation reducer.
  ///
  /// Pure and deterministic: the result depends on the state and the event only. A
  /// rejected event leaves the state exactly as it was; an event that is valid but changes
  /// nothing (selecting what is selected) is `unchanged`.
  ///
  /// The rules, event by event:
  /// - `menuTabTapped(index)`: `0 <= index < labels.count` selects it. The strip is a
  ///   scroll view: a tab partly or wholly out of view is scrolled into view, as the
  ///   least scrolling that shows it (its leading edge at the viewport's when it lies
  ///   before the viewport or is wider than it, else its trailing edge at the viewport's),
  ///   within the strip's range. (A choice: a tap on a half-hidden tab in a tab strip
  ///   brings it into view in most apps.) Sessions whose settings say otherwise
  ///   (``MenuState/scrollsTappedTabIntoView``, false for schema 1's) only select.
  /// - `menuScrolled(offset)`: a finite offset `>= 0` is stored (`-0.0` as `0.0`), clamped
  ///   to the strip: at most the content's width beyond the viewport (0 when it fits).
  /// - `menuViewportResized(width)`: a finite width above 0 (at most 1,000,000 points) is
  ///   stored; the offset is clamped to the new range.
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
  ///   deepest column with a selection. (An iPhone's rotation is a size-class change:
  ///   compact in portrait, regular in landscape on the large models.)
  /// - `orientationChanged(o)`: sets it; on an iPad it changes how the columns show
  ///   (``SplitState/visibleColumns``, ``SplitState/overlay``).
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
      var changed = menu.selectedIndex != index
      menu.selectedIndex = index
      if menu.scrollsTappedTabIntoView {
        let offset = offsetShowing(tab: index)
        if menu.scrollOffset != offset {
          menu.scrollOffset = offset
          changed = true
        }
      }
      return changed ? .applied : .unchanged

    case .menuScrolled(let offset):
      guard offset.isFinite else { return .rejected(.scrollOffsetNotFinite) }
      guard offset >= 0 else { return .rejected(.scrollOffsetNegative) }
      let limit = menu.maximumScrollOffset(contentWidth: catalog.menuContentWidth)
      // `+ 0` turns -0.0 into 0.0.
      let clamped = offset < limit ? offset + 0 : limit
      if menu.scrollOffset == clamped { return .unchanged }
      menu.scrollOffset = clamped
      return .applied

    case .menuViewportResized(let width):
      guard width > 0 && width <= NavigationSettings.maximumViewportWidth else {
        return .rejected(.viewportWidthOutOfRange)
      }
      if menu.viewportWidth == width { return .unchanged }
      menu.viewportWidth = width
      let limit = menu.maximumScrollOffset(contentWidth: catalog.menuContentWidth)
      if menu.scrollOffset > limit { menu.scrollOffset = limit }
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

    case .orientationChanged(let orientation):
      if split.orientation == orientation { return .unchanged }
      split.orientation = orientation
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

extension NavigationState {
  /// The scroll offset that shows tab `index` whole, moving the strip as little as
  /// possible, within `0...maximumScrollOffset`; the current offset when it shows already.
  /// - Precondition: `index` is within the labels.
  @inlinable func offsetShowing(tab index: Int) -> Double {
    let start = catalog.menuLabelStarts[index]
    let end = start + catalog.menuLabelWidths[index]
    var offset = menu.scrollOffset
    if start < offset || end - start > menu.viewportWidth {
      offset = start
    } else if end > offset + menu.viewportWidth {
      offset = end - menu.viewportWidth
    }
    let limit = menu.maximumScrollOffset(contentWidth: catalog.menuContentWidth)
    return offset < limit ? offset : limit
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
