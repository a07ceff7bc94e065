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

  /// The state before any event of a session with `settings`: first tab, not scrolled,
  /// nothing selected or expanded, automatic visibility and style, the sidebar as the
  /// compact column; the size class, orientation and menu viewport the settings start
  /// with.
  public init(settings: NavigationSettings) {
    catalog = settings.catalog
    menu = MenuState(
      viewportWidth: settings.menuViewportWidth, contentWidth: catalog.menuContentWidth,
      scrollsTappedTabIntoView: settings.scrollsTappedTabIntoView)
    split = SplitState(
      layout: catalog.layout, nodeCount: catalog.nodeCount, idiom: settings.idiom,
      sizeClass: settings.sizeClass, orientation: settings.orientation)
  }

  /// The state before any event of a session browsing `catalog`, starting in `sizeClass`,
  /// otherwise with the sample's settings (``NavigationSettings/sample``).
  public init(catalog: Catalog, sizeClass: SizeClass = .regular) {
    var settings = NavigationSettings.sample
    settings.catalog = catalog
    settings.sizeClass = sizeClass
    self.init(settings: settings)
  }

  /// The menu's labels (`menu.labels` in JSON), from the catalog: not stored in the state,
  /// so that copying a state costs one reference count, the catalog's.
  @inlinable public var menuLabels: [String] { catalog.menuLabels }
}

/// The horizontal menu: a strip of labels (``NavigationState/menuLabels``) in a horizontal
/// scroll view, one of them selected.
///
/// The strip's content is the labels' cells side by side (``Catalog/menuLabelWidths``,
/// ``Catalog/menuContentWidth`` points in all); the scroll view shows ``viewportWidth``
/// points of it from ``scrollOffset`` on.
public struct MenuState: Equatable, Sendable {
  /// The index of the selected label, always within the labels.
  public var selectedIndex: Int
  /// How far the strip is scrolled, in points: from 0 to ``maximumScrollOffset(contentWidth:)``.
  public var scrollOffset: Double
  /// How wide the scroll view is, in points: finite and above 0. Rotations and window
  /// resizes change it (`menuViewportResized`).
  public var viewportWidth: Double {
    didSet { scrollLimit = maximumScrollOffset(contentWidth: contentWidth) }
  }
  /// Whether tapping a tab that is partly out of view scrolls it into view: a setting of
  /// the session (``NavigationSettings/scrollsTappedTabIntoView``).
  public let scrollsTappedTabIntoView: Bool
  /// The strip's content width (the catalog's `menuContentWidth`), kept for
  /// ``scrollLimit``.
  @usableFromInline let contentWidth: Double
  /// ``maximumScrollOffset(contentWidth:)`` of the catalog's content width, kept as the
  /// viewport changes: the scroll rule, run for most events of a session, reads it
  /// instead of computing it from the viewport and the catalog every event.
  @usableFromInline private(set) var scrollLimit: Double

  init(viewportWidth: Double, contentWidth: Double, scrollsTappedTabIntoView: Bool) {
    selectedIndex = 0
    scrollOffset = 0
    self.viewportWidth = viewportWidth
    self.scrollsTappedTabIntoView = scrollsTappedTabIntoView
    self.contentWidth = contentWidth
    scrollLimit = contentWidth > viewportWidth ? contentWidth - viewportWidth : 0
  }

  /// The farthest the strip scrolls: the content's width beyond the viewport, 0 when it
  /// all fits.
  @inlinable public func maximumScrollOffset(contentWidth: Double) -> Double {
    // `>` rather than `max`, which would keep a -0.0.
    contentWidth > viewportWidth ? contentWidth - viewportWidth : 0
  }
}

/// The navigation split view: selection, expanded items, and how the columns show.
public struct SplitState: Equatable, Sendable {
  /// The layout, from the catalog.
  public let layout: SplitLayout
  /// iPhone or iPad, from the session's settings: whether the columns follow the
  /// orientation.
  public let idiom: DeviceIdiom
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
  /// Which way up the device is held.
  public var orientation: Orientation
  /// The one column shown on a compact width; one of the layout's columns.
  public var compactColumn: Column

  init(
    layout: SplitLayout, nodeCount: Int, idiom: DeviceIdiom, sizeClass: SizeClass,
    orientation: Orientation
  ) {
    self.layout = layout
    self.idiom = idiom
    selectedCategory = nil
    selectedItem = nil
    expanded = NodeSet(nodeCount: nodeCount)
    columnVisibility = .automatic
    style = .automatic
    self.sizeClass = sizeClass
    self.orientation = orientation
    compactColumn = .sidebar
  }
}

// MARK: - Derived fields

extension SplitState {
  /// The columns on screen, leading to trailing.
  ///
  /// Compact: only ``compactColumn``. Regular: `detailOnly` → the detail; `all` → every
  /// column of the layout; `doubleColumn` → the two trailing columns (content and detail
  /// in three columns, sidebar and detail in two); `automatic` → the two trailing columns,
  /// except on an iPad in portrait with the `automatic` or `prominentDetail` style, where
  /// the detail takes the whole screen (the leading columns would lie over it, so the
  /// system leaves them hidden until the visibility brings them up).
  @inlinable public var visibleColumns: ColumnSet {
    SplitState.visibleColumns(
      presentation: SplitState.presentation(
        columnVisibility, style, sizeClass, compactColumn, orientation),
      layout: layout, idiom: idiom)
  }

  /// Whether the leading columns lie over the detail rather than beside it: more than one
  /// column is visible, and the style is `prominentDetail` (in either orientation) or
  /// `automatic` on an iPad in portrait. In landscape, on an iPhone and with `balanced`,
  /// the detail shrinks so that they fit beside it.
  @inlinable public var overlay: Bool {
    SplitState.overlay(
      presentation: SplitState.presentation(
        columnVisibility, style, sizeClass, compactColumn, orientation),
      layout: layout, idiom: idiom)
  }

  /// The five small enums packed in one byte by their binary codes (visibility in bits
  /// 0–1, style 2–3, size class 4, compact column 5–6, orientation 7), so that whether
  /// any of them changed costs one comparison.
  @inlinable @inline(__always)
  static func presentation(
    _ visibility: ColumnVisibility, _ style: SplitStyle, _ sizeClass: SizeClass,
    _ compactColumn: Column, _ orientation: Orientation
  ) -> UInt8 {
    visibility.code << ColumnVisibility.presentationShift
      | style.code << SplitStyle.presentationShift
      | sizeClass.code << SizeClass.presentationShift
      | compactColumn.code << Column.presentationShift
      | orientation.code << Orientation.presentationShift
  }

  /// Whether a packed presentation is an iPad's in portrait on a regular width, where
  /// the `automatic` style lays the leading columns over the detail.
  @inlinable @inline(__always)
  static func isPortraitPad(_ presentation: UInt8, idiom: DeviceIdiom) -> Bool {
    idiom == .pad && presentation & 0x90 == 0x80
  }

  /// ``visibleColumns`` of a state whose enums ``presentation(_:_:_:_:_:)`` packed.
  ///
  /// Raw bits (sidebar 1, content 2, detail 4) rather than `ColumnSet(...)`, whose variadic
  /// argument would allocate on this per-event path.
  @inlinable
  static func visibleColumns(presentation: UInt8, layout: SplitLayout, idiom: DeviceIdiom)
    -> ColumnSet
  {
    if presentation & 0x10 != 0 {
      // Compact: the compact column alone (codes 0, 1, 2 are bits 1, 2, 4).
      return ColumnSet(rawValue: 1 << ((presentation >> 5) & 3))
    }
    let trailing = ColumnSet(rawValue: layout == .threeColumn ? 6 : 5)
    switch presentation & 0x03 {
    case 3: return ColumnSet(rawValue: 4)  // detailOnly
    case 1: return ColumnSet(rawValue: layout == .threeColumn ? 7 : 5)  // all
    case 2: return trailing  // doubleColumn
    default:
      // automatic: the detail alone on an iPad in portrait unless the style is balanced
      // (style code 1).
      guard isPortraitPad(presentation, idiom: idiom), presentation & 0x0C != 1 << 2 else {
        return trailing
      }
      return ColumnSet(rawValue: 4)
    }
  }

  /// ``overlay`` of a state whose enums ``presentation(_:_:_:_:_:)`` packed.
  @inlinable
  static func overlay(presentation: UInt8, layout: SplitLayout, idiom: DeviceIdiom) -> Bool {
    let visible = visibleColumns(presentation: presentation, layout: layout, idiom: idiom)
    guard visible.count > 1 else { return false }
    switch presentation & 0x0C {
    case 2 << 2: return true  // prominentDetail
    case 0: return isPortraitPad(presentation, idiom: idiom)  // automatic
    default: return false  // balanced
    }
  }
}
