/// Why the reducer refused an event. A rejected event leaves the state untouched.
///
/// The cases carry only plain values, so returning one never allocates; ``description``
/// is a sentence for people.
@frozen public enum NavigationRejection: Hashable, Sendable, CustomStringConvertible {
  /// `menuTabTapped` with an index outside the menu's labels.
  case tabIndexOutOfRange(index: Int, count: Int)
  /// `menuScrolled` with NaN or an infinite offset.
  case scrollOffsetNotFinite
  /// `menuScrolled` with a negative offset.
  case scrollOffsetNegative
  /// `menuViewportResized` with a width that is not finite, not above 0, or beyond
  /// ``NavigationSettings/maximumViewportWidth``.
  case viewportWidthOutOfRange
  /// An id the session's catalog does not have.
  case unknownIdentifier
  /// `categorySelected` with an item instead of a top-level category.
  case notATopLevelCategory
  /// `itemSelected` with an id while no category is selected.
  case noCategorySelected
  /// `itemSelected` with a node that is not below the selected category.
  case itemNotInSelectedCategory
  /// `itemExpanded`/`itemCollapsed` with a node that has no children.
  case notExpandable
  /// `backTapped` on a regular width, where there is no back button.
  case backNotAvailableOnRegularWidth
  /// `backTapped` on the compact sidebar, the first column.
  case backNotAvailableOnSidebar

  /// `7 tabs, 0 to 6`, `1 tab, 0`: how many tabs a menu has and their indices.
  static func tabs(_ count: Int) -> String {
    switch count {
    case 0: "no tabs"
    case 1: "1 tab, 0"
    default: "\(count) tabs, 0 to \(count - 1)"
    }
  }

  public var description: String {
    switch self {
    case .tabIndexOutOfRange(let index, let count):
      "tab index \(index) is out of range: the menu has \(Self.tabs(count))"
    case .scrollOffsetNotFinite: "the scroll offset is not a finite number"
    case .scrollOffsetNegative: "the scroll offset is negative"
    case .viewportWidthOutOfRange:
      "the viewport width must be a number of points above 0 and at most 1,000,000"
    case .unknownIdentifier: "the id is not in the session's catalog"
    case .notATopLevelCategory: "only a top-level category can be selected in the sidebar"
    case .noCategorySelected: "an item can only be selected once a category is selected"
    case .itemNotInSelectedCategory: "the item does not belong to the selected category"
    case .notExpandable: "the item has no children to show or hide"
    case .backNotAvailableOnRegularWidth: "there is no back button on a regular width"
    case .backNotAvailableOnSidebar: "there is no back button on the sidebar, the first column"
    }
  }
}
