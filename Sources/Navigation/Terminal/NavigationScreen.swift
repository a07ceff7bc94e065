public import RewindTerminal

/// The navigation domain's interactive terminal screen: the horizontal menu as a scroll
/// view and the split view's visible columns, with a focus that keys move and rows that
/// clicks hit.
///
/// The screen keeps what the state does not: which part has the focus (the menu strip
/// or a visible column), the menu label the highlight is on, each column's highlighted
/// row and how far its list is scrolled, and where the last draw put each label, row,
/// disclosure triangle and the back button. Everything else is the state's:
/// ``handle(_:state:)`` turns a tap into the event the app would record
/// (`menuTabTapped`, `categorySelected`, `itemExpanded`, `backTapped`, …) and returns
/// it for the caller to send through the live `Store`.
///
/// Keys (``keyHelp``): `Tab`/`Shift-Tab` move the focus from the menu strip to each
/// visible column in turn; in the menu `←` `→` move the highlight and `Enter` or `Space`
/// taps it; `<` `>` scroll the strip; in a column `↑` `↓` move, `Enter` selects, `→`
/// expands and `←` collapses; `Backspace` or `Esc` is the back button of a compact
/// split view, whatever has the focus; `v`, `s` and `c` cycle the column visibility, the
/// style and the size class. A click on a label, a row, a disclosure triangle or the back button does what
/// a tap does; the wheel over the strip scrolls it, over a column scrolls its list.
public struct NavigationScreen: DomainScreen {
  public typealias Model = NavigationDomain

  /// The part of the screen keys act on.
  public enum Focus: Hashable, Sendable {
    /// The horizontal menu strip.
    case menu
    /// A visible column of the split view.
    case column(Column)
  }

  /// Where keys go.
  public internal(set) var focus: Focus = .menu
  /// The menu label the highlight is on; nil until the screen has seen a state (then
  /// the selected label).
  public internal(set) var menuHighlight: Int?
  /// Each column's list: its highlighted row, its first row shown, and the category its
  /// rows belonged to when the highlight was placed.
  var lists: [Column: ListPosition] = [:]
  /// Where the last draw put what, in drawing order: clicks hit the last match.
  var hits: [(rect: Rect, target: HitTarget)] = []
  /// The number of rows each column's list showed in the last draw (for page keys).
  var listHeights: [Column: Int] = [:]

  /// A screen with the focus on the menu strip.
  public init() {}

  /// How far the strip scrolls for `<` and `>`: a third of its viewport.
  static func keyScrollStep(_ state: NavigationState) -> Double { state.menu.viewportWidth / 3 }
  /// How far the strip scrolls for one notch of the wheel, in points.
  static let wheelScrollStep = 40.0

  public var minimumSize: TerminalSize { TerminalSize(columns: 60, rows: 12) }

  public var keyHelp: [KeyHelp] {
    [
      KeyHelp("Tab  Shift-Tab", "focus the menu strip, then each visible column"),
      KeyHelp("← →", "menu: move the highlight"),
      KeyHelp("Enter  Space", "menu: tap the highlighted label; column: select the row"),
      KeyHelp("< >", "scroll the menu strip"),
      KeyHelp("↑ ↓  PgUp PgDn", "column: move the highlight"),
      KeyHelp("→ ←", "column: expand, collapse a row with children"),
      KeyHelp("Backspace  Esc", "the back button (compact width)"),
      KeyHelp("v", "cycle the column visibility"),
      KeyHelp("s", "cycle the split view style"),
      KeyHelp("c", "toggle the compact and regular width"),
      KeyHelp("mouse", "click a label, row, ▸ or the back button; wheel scrolls"),
    ]
  }
}

/// Where a column's list stands.
struct ListPosition: Equatable {
  /// The highlighted row.
  var cursor = 0
  /// The first row shown.
  var top = 0
  /// The category whose items the list showed when the cursor was placed; when another
  /// one is selected the list starts again at its selected row.
  var owner: NodeRef?
}

/// What a click at a place of the last draw hits.
enum HitTarget: Equatable {
  /// A label of the menu strip.
  case label(Int)
  /// The `‹` at the strip's leading edge.
  case scrollBack
  /// The `›` at the strip's trailing edge.
  case scrollForward
  /// The strip (for the wheel).
  case strip
  /// A column, anywhere in its frame.
  case column(Column)
  /// A row of a column's list.
  case row(Column, index: Int, ListRow.Target)
  /// The disclosure triangle of an item with children.
  case disclosure(Column, index: Int, NodeRef)
  /// The back button of a compact split view.
  case back
}

/// One row of a column's list.
struct ListRow: Equatable {
  enum Target: Equatable {
    case category(NodeRef)
    case item(NodeRef)
    /// A placeholder ("Please select a category", "No items"): nothing to tap.
    case none
  }

  enum Marker: Equatable {
    case none
    /// The selected category or item.
    case selected
    /// A collapsed item that hides the selected one.
    case holdsSelection
  }

  var text: String
  var target: Target
  var depth = 0
  var marker = Marker.none
  /// nil for a row without children; whether it is expanded otherwise.
  var expanded: Bool?
  /// Whether the list has disclosure triangles, so rows without one keep its slot.
  var disclosureSlot = false
}

extension NavigationState {
  /// The rows of `column`'s list: the categories in the sidebar; the selected category's
  /// items (expanded ones followed by their children) in the three-column content and
  /// the two-column detail; nothing in the three-column detail, which shows a photo.
  func listRows(of column: Column) -> [ListRow] {
    switch column {
    case .sidebar:
      return catalog.categories.map { category in
        ListRow(
          text: catalog.name(of: category), target: .category(category),
          marker: split.selectedCategory == category ? .selected : .none)
      }
    case .content, .detail:
      if column == .detail && split.layout == .threeColumn { return [] }
      guard let category = split.selectedCategory, catalog.contains(category) else {
        let placeholder =
          split.layout == .threeColumn
          ? Self.selectMenuItemPlaceholder : Self.selectCategoryPlaceholder
        return [ListRow(text: placeholder, target: .none)]
      }
      var rows: [ListRow] = []
      appendListRows(of: category, depth: 0, to: &rows)
      return rows.isEmpty ? [ListRow(text: Self.noItemsPlaceholder, target: .none)] : rows
    }
  }

  private func appendListRows(of parent: NodeRef, depth: Int, to rows: inout [ListRow]) {
    let children = catalog.children(of: parent)
    let slot = children.contains(where: catalog.hasChildren)
    for child in children {
      let expandable = catalog.hasChildren(child)
      let expanded = expandable && split.expanded.contains(child)
      var marker = ListRow.Marker.none
      if split.selectedItem == child {
        marker = .selected
      } else if let item = split.selectedItem, !expanded, catalog.isDescendant(item, of: child) {
        marker = .holdsSelection
      }
      rows.append(
        ListRow(
          text: catalog.name(of: child), target: .item(child), depth: depth, marker: marker,
          expanded: expandable ? expanded : nil, disclosureSlot: slot))
      if expanded { appendListRows(of: child, depth: depth + 1, to: &rows) }
    }
  }

  /// The title of a column's frame.
  func columnTitle(_ column: Column) -> String {
    switch column {
    case .sidebar: return Self.sidebarTitle
    case .content:
      return split.selectedCategory.flatMap { catalog.contains($0) ? catalog.name(of: $0) : nil }
        ?? "Items"
    case .detail where split.layout == .twoColumn:
      return split.selectedCategory.flatMap { catalog.contains($0) ? catalog.name(of: $0) : nil }
        ?? "Detail"
    case .detail:
      return split.selectedItem.flatMap { catalog.contains($0) ? catalog.name(of: $0) : nil }
        ?? "Detail"
    }
  }

  /// The columns on screen, leading to trailing (the compact column alone on a compact
  /// width).
  var shownColumns: [Column] { split.visibleColumns.columns }
}
