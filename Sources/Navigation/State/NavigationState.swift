/// The state of one navigation session: the horizontal menu and the split view.
///
/// A state carries a reference to the ``Catalog`` it lives in, so it can name its nodes
/// and be reduced, encoded and rendered on its own. Every other field is a plain value;
/// the reducer (``apply(_:)``) mutates them in place without allocating.
///
/// The JSON form (``NavigationDomain/json(_:)-(NavigationState)``) has the stable names documented
/// in the article <doc:JSONNames>.
public struct NavigationState: Equatable, Sendable {
  /// The catalog the state's refs point into.
  public let catalog: Catalog
  /// The horizontal menu.
  public var menu: MenuState
  /// The split view.
  public var split: SplitState

  /// The state before any event: first tab, not scrolled, nothing selected or expanded,
  /// automatic visibility and style, the sidebar as the compact column.
  public init(catalog: Catalog, sizeClass: SizeClass = .regular) {
    self.catalog = catalog
    menu = MenuState()
    split = SplitState(layout: catalog.layout, nodeCount: catalog.nodeCount, sizeClass: sizeClass)
  }

  /// The menu's labels (`menu.labels` in JSON), from the catalog: not stored in the state,
  /// so that copying a state costs one reference count, the catalog's.
  @inlinable public var menuLabels: [String] { catalog.menuLabels }
}

/// The horizontal menu: a scrolling strip of labels (``NavigationState/menuLabels``), one of
/// them selected.
public struct MenuState: Equatable, Sendable {
  /// The index of the selected label, always within the labels.
  public var selectedIndex: Int
  /// How far the strip is scrolled, in points: finite and not negative.
  public var scrollOffset: Double

  init() {
    selectedIndex = 0
    scrollOffset = 0
  }
}

/// The navigation split view: selection, expanded items, and how the columns show.
public struct SplitState: Equatable, Sendable {
  /// The layout, from the catalog.
  public let layout: SplitLayout
  /// The category selected in the sidebar: a top-level node of the catalog.
  public var selectedCategory: NodeRef?
  /// The selected item: a descendant (at any depth) of `selectedCategory`.
  public var selectedItem: NodeRef?
  /// The items whose children are shown.
  public var expanded: NodeSet
  /// Which columns show on a regular width.
  public var columnVisibility: ColumnVisibility
  /// How the columns share the width.
  public var style: SplitStyle
  /// The horizontal size class.
  public var sizeClass: SizeClass
  /// The one column shown on a compact width; one of the layout's columns.
  public var compactColumn: Column

  init(layout: SplitLayout, nodeCount: Int, sizeClass: SizeClass) {
    self.layout = layout
    selectedCategory = nil
    selectedItem = nil
    expanded = NodeSet(nodeCount: nodeCount)
    columnVisibility = .automatic
    style = .automatic
    self.sizeClass = sizeClass
    compactColumn = .sidebar
  }
}

// MARK: - Derived fields

extension SplitState {
  /// The columns on screen, leading to trailing.
  ///
  /// Compact: only ``compactColumn``. Regular: `detailOnly` → detail; `all` → every
  /// column of the layout; `doubleColumn` and `automatic` → content and detail (three
  /// columns) or sidebar and detail (two columns).
  @inlinable public var visibleColumns: ColumnSet {
    // Raw bits (sidebar 1, content 2, detail 4) rather than `ColumnSet(...)`, whose
    // variadic argument would allocate on this per-event path.
    if sizeClass == .compact { return ColumnSet(rawValue: compactColumn.bit) }
    switch columnVisibility {
    case .detailOnly: return ColumnSet(rawValue: 4)
    case .all: return ColumnSet(rawValue: layout == .threeColumn ? 7 : 5)
    case .doubleColumn, .automatic: return ColumnSet(rawValue: layout == .threeColumn ? 6 : 5)
    }
  }

  /// The four small enums packed in one byte by their binary codes (visibility in bits
  /// 0–1, style 2–3, size class 4, compact column 5–6), so that whether any of them
  /// changed costs one comparison.
  @inlinable @inline(__always)
  static func presentation(
    _ visibility: ColumnVisibility, _ style: SplitStyle, _ sizeClass: SizeClass,
    _ compactColumn: Column
  ) -> UInt8 {
    visibility.code | style.code << 2 | sizeClass.code << 4 | compactColumn.code << 5
  }

  /// ``visibleColumns`` of a state whose enums ``presentation(_:_:_:_:)`` packed.
  @inlinable
  static func visibleColumns(presentation: UInt8, layout: SplitLayout) -> ColumnSet {
    if presentation & 0x10 != 0 {
      // Compact: the compact column alone (codes 0, 1, 2 are bits 1, 2, 4).
      return ColumnSet(rawValue: 1 << ((presentation >> 5) & 3))
    }
    switch presentation & 0x03 {
    case 3: return ColumnSet(rawValue: 4)  // detailOnly
    case 1: return ColumnSet(rawValue: layout == .threeColumn ? 7 : 5)  // all
    default: return ColumnSet(rawValue: layout == .threeColumn ? 6 : 5)  // automatic, double
    }
  }

  /// Whether the leading columns overlay the detail: the style is `prominentDetail` and
  /// more than one column is visible.
  @inlinable public var overlay: Bool { style == .prominentDetail && visibleColumns.count > 1 }
}
