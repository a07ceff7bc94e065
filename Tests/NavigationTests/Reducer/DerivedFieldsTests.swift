import Navigation
import RewindCore
import Testing

@Suite("Derived fields: visibleColumns and overlay")
struct DerivedFieldsTests {
  /// The rule restated as a table: regular width, by layout and visibility.
  static let regularColumns: [SplitLayout: [ColumnVisibility: [Column]]] = [
    .threeColumn: [
      .detailOnly: [.detail], .all: [.sidebar, .content, .detail],
      .doubleColumn: [.content, .detail], .automatic: [.content, .detail],
    ],
    .twoColumn: [
      .detailOnly: [.detail], .all: [.sidebar, .detail],
      .doubleColumn: [.sidebar, .detail], .automatic: [.sidebar, .detail],
    ],
  ]

  @Test(
    "regular: by visibility and layout", arguments: SplitLayout.allCases, ColumnVisibility.allCases)
  func regular(layout: SplitLayout, visibility: ColumnVisibility) {
    let domain = layout == .threeColumn ? Fixtures.three : Fixtures.two
    let state = domain.state(after: .columnVisibilityChanged(visibility))
    let expected = Self.regularColumns[layout]![visibility]!
    #expect(state.split.visibleColumns.columns == expected)
    #expect(
      NavigationField.splitVisibleColumns.value(in: state)
        == .array(expected.map { .string($0.rawValue) }))
  }

  @Test(
    "compact: only the compact column, whatever the visibility",
    arguments: ColumnVisibility.allCases)
  func compact(visibility: ColumnVisibility) {
    let three = Fixtures.three
    var state = three.state(
      after: .columnVisibilityChanged(visibility), .sizeClassChanged(.compact))
    #expect(state.split.visibleColumns.columns == [.sidebar])
    state = three.state(after: three.category("grinders"), from: state)
    #expect(state.split.visibleColumns.columns == [.content])
    state = three.state(after: three.item("grinders/swift"), from: state)
    #expect(state.split.visibleColumns.columns == [.detail])
  }

  @Test(
    "overlay: prominentDetail with more than one column visible",
    arguments: SplitStyle.allCases, ColumnVisibility.allCases)
  func overlay(style: SplitStyle, visibility: ColumnVisibility) {
    let three = Fixtures.three
    let regular = three.state(
      after: .splitStyleChanged(style), .columnVisibilityChanged(visibility))
    #expect(regular.split.overlay == (style == .prominentDetail && visibility != .detailOnly))
    #expect(NavigationField.splitOverlay.value(in: regular) == .bool(regular.split.overlay))
    let compact = three.state(after: .sizeClassChanged(.compact), from: regular)
    #expect(compact.split.overlay == false)
  }

  @Test("the derived fields change in the same step as what they derive from")
  func changeTogether() {
    let three = Fixtures.three
    let state = three.state(after: .splitStyleChanged(.prominentDetail))
    var after = state
    _ = three.reduce(&after, .columnVisibilityChanged(.detailOnly))
    #expect(
      three.changedFields(from: state, to: after)
        == [
          NavigationField.splitColumnVisibility.rawValue,
          NavigationField.splitVisibleColumns.rawValue, NavigationField.splitOverlay.rawValue,
        ])
  }
}
