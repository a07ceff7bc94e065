/// One thing that happened in the navigation UI, named in the past tense.
///
/// Events are trivially copyable (no strings, arrays or classes in their payloads):
/// identifiers are ``NodeRef`` indices into the catalog, so decoding and reducing an event
/// never allocates or counts references. Any payload is a legal event, even one the
/// reducer will reject (a negative tab index, a NaN offset, an unknown id): a journal
/// records what happened, the reducer decides what it means.
@frozen public enum NavigationEvent: Sendable {
  /// A label of the horizontal menu was tapped.
  case menuTabTapped(index: Int)
  /// The horizontal menu scrolled to `offset` points (one event per display frame).
  case menuScrolled(offset: Double)
  /// The horizontal menu's scroll view became `width` points wide (a rotation, a window
  /// resize). Schema 2.
  case menuViewportResized(width: Double)
  /// A category was selected in the sidebar, or the selection cleared (nil).
  case categorySelected(NodeRef?)
  /// An item was selected in the content (or two-column detail) list, or cleared (nil).
  case itemSelected(NodeRef?)
  /// An item's disclosure was opened, showing its children.
  case itemExpanded(NodeRef)
  /// An item's disclosure was closed.
  case itemCollapsed(NodeRef)
  /// The split view's column visibility changed.
  case columnVisibilityChanged(ColumnVisibility)
  /// The split view's style changed.
  case splitStyleChanged(SplitStyle)
  /// The horizontal size class changed (an iPhone's rotation, a window resize).
  case sizeClassChanged(SizeClass)
  /// The device was turned to portrait or landscape. Schema 2.
  case orientationChanged(Orientation)
  /// The back button of the compact split view was tapped.
  case backTapped

  /// The kinds of events, with their stable names.
  public enum Kind: String, CaseIterable, Sendable {
    case menuTabTapped
    case menuScrolled
    case menuViewportResized
    case categorySelected
    case itemSelected
    case itemExpanded
    case itemCollapsed
    case columnVisibilityChanged
    case splitStyleChanged
    case sizeClassChanged
    case orientationChanged
    case backTapped
  }

  /// The event's kind.
  @inlinable public var kind: Kind {
    switch self {
    case .menuTabTapped: .menuTabTapped
    case .menuScrolled: .menuScrolled
    case .menuViewportResized: .menuViewportResized
    case .categorySelected: .categorySelected
    case .itemSelected: .itemSelected
    case .itemExpanded: .itemExpanded
    case .itemCollapsed: .itemCollapsed
    case .columnVisibilityChanged: .columnVisibilityChanged
    case .splitStyleChanged: .splitStyleChanged
    case .sizeClassChanged: .sizeClassChanged
    case .orientationChanged: .orientationChanged
    case .backTapped: .backTapped
    }
  }
}

/// Events are equal when their payloads are identical; offsets and widths compare by bit
/// pattern, so that an event equals itself even with a NaN offset and `-0.0` differs from
/// `0.0`: a round trip through a codec must give back exactly what was recorded.
extension NavigationEvent: Equatable {
  public static func == (lhs: NavigationEvent, rhs: NavigationEvent) -> Bool {
    switch (lhs, rhs) {
    case (.menuTabTapped(let a), .menuTabTapped(let b)): a == b
    case (.menuScrolled(let a), .menuScrolled(let b)): a.bitPattern == b.bitPattern
    case (.menuViewportResized(let a), .menuViewportResized(let b)): a.bitPattern == b.bitPattern
    case (.categorySelected(let a), .categorySelected(let b)): a == b
    case (.itemSelected(let a), .itemSelected(let b)): a == b
    case (.itemExpanded(let a), .itemExpanded(let b)): a == b
    case (.itemCollapsed(let a), .itemCollapsed(let b)): a == b
    case (.columnVisibilityChanged(let a), .columnVisibilityChanged(let b)): a == b
    case (.splitStyleChanged(let a), .splitStyleChanged(let b)): a == b
    case (.sizeClassChanged(let a), .sizeClassChanged(let b)): a == b
    case (.orientationChanged(let a), .orientationChanged(let b)): a == b
    case (.backTapped, .backTapped): true
    default: false
    }
  }
}
