/// How many columns the split view has: the catalog decides, a session keeps it.
public enum SplitLayout: String, CaseIterable, Codable, Sendable {
  /// Sidebar and detail; the detail lists the category's sub-items.
  case twoColumn
  /// Sidebar, content (the sub-items) and detail (the selected item's photo).
  case threeColumn

  /// The columns of this layout, leading to trailing.
  @inlinable public var columns: [Column] {
    switch self {
    case .twoColumn: [.sidebar, .detail]
    case .threeColumn: [.sidebar, .content, .detail]
    }
  }

  /// The column a valid category selection reveals on a compact width: the one after the
  /// sidebar.
  @inlinable public var columnAfterSidebar: Column {
    switch self {
    case .twoColumn: .detail
    case .threeColumn: .content
    }
  }
}

/// One column of the split view.
public enum Column: String, CaseIterable, Codable, Sendable, Comparable {
  case sidebar
  case content
  case detail

  /// The column's bit in a ``ColumnSet``.
  @inlinable var bit: UInt8 {
    switch self {
    case .sidebar: 1
    case .content: 2
    case .detail: 4
    }
  }

  public static func < (lhs: Column, rhs: Column) -> Bool { lhs.bit < rhs.bit }
}

/// Which columns the split view shows on a regular width (SwiftUI's
/// `NavigationSplitViewVisibility`).
public enum ColumnVisibility: String, CaseIterable, Codable, Sendable {
  /// The system decides: content and detail (three columns), sidebar and detail (two).
  case automatic
  /// Every column of the layout.
  case all
  /// The two trailing-most columns.
  case doubleColumn
  /// The detail only.
  case detailOnly
}

/// How the split view shares its width (SwiftUI's `NavigationSplitViewStyle`).
public enum SplitStyle: String, CaseIterable, Codable, Sendable {
  /// The system decides.
  case automatic
  /// The detail shrinks so that the leading columns fit beside it.
  case balanced
  /// The leading columns overlay the detail, which keeps its full width.
  case prominentDetail
}

/// The horizontal size class the split view is laid out for.
public enum SizeClass: String, CaseIterable, Codable, Sendable {
  /// Wide (iPad, iPhone landscape): columns side by side.
  case regular
  /// Narrow (iPhone portrait): one column at a time with a back button.
  case compact
}

/// A set of columns, kept in leading-to-trailing order.
///
/// The derived `split.visibleColumns` is computed as a `ColumnSet` so that comparing it
/// between two states costs one byte comparison.
public struct ColumnSet: Hashable, Sendable {
  /// Bit 0 sidebar, bit 1 content, bit 2 detail.
  public var rawValue: UInt8

  @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue & 7 }

  /// The set of the given columns.
  @inlinable public init(_ columns: Column...) {
    var raw: UInt8 = 0
    for column in columns { raw |= column.bit }
    rawValue = raw
  }

  /// Whether the set holds `column`.
  @inlinable public func contains(_ column: Column) -> Bool { rawValue & column.bit != 0 }

  /// The number of columns in the set.
  @inlinable public var count: Int { rawValue.nonzeroBitCount }

  /// The columns, leading to trailing.
  public var columns: [Column] { Column.allCases.filter(contains) }
}
