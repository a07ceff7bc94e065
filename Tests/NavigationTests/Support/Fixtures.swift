import Navigation
import RewindCore
import Testing

/// The domains the tests run against.
enum Fixtures {
  /// The sample catalog, three columns.
  static let three = NavigationDomain()
  /// The sample catalog, two columns.
  static let two = NavigationDomain(catalog: .sample(layout: .twoColumn))
  /// A catalog of 5 × 8 × 4 items (205 nodes): beyond the first 64, so the expanded
  /// set's heap words are exercised.
  static let large = NavigationDomain(catalog: largeCatalog)
  /// A catalog of wide characters, emoji and combining marks, whose names take more
  /// columns (or fewer) than they have characters.
  static let wide = NavigationDomain(catalog: wideCatalog)

  static let wideCatalog = try! Catalog(
    menuLabels: ["月曜日", "🙂 Emoji day", "Café ☕", "Cafe\u{301} crème"],
    categories: [
      Catalog.Node(
        "日本", image: "富士山",
        children: [
          Catalog.Node("月曜日"), Catalog.Node("🙂 Emoji day", image: "🙂"),
          Catalog.Node("東京都渋谷区神宮前一丁目二番三号のお店", children: [Catalog.Node("カフェ")]),
        ]),
      Catalog.Node("Café ☕", children: [Catalog.Node("Cafe\u{301} crème", image: "crème")]),
    ])

  /// The sample's settings as schema 1 wrote them: the catalog without label widths, and
  /// the size class.
  static let schema1Settings: JSONValue = {
    guard case .object(let members) = Catalog.sample.json else { preconditionFailure() }
    let catalog = JSONValue.object(members.filter { $0.0 != "menuLabelWidths" })
    return .object([("catalog", catalog), ("sizeClass", "regular")])
  }()

  static let largeCatalog = try! Catalog(
    menuLabels: ["One", "Two", "Three"], categories: largeCatalogCategories)

  /// The categories of ``largeCatalog``: 5 × 8 × 4 items.
  static let largeCatalogCategories = (1...5).map { category in
    Catalog.Node(
      "Category \(category)",
      children: (1...8).map { item in
        Catalog.Node(
          "Item \(category).\(item)",
          children: item % 2 == 0 ? [] : (1...4).map { Catalog.Node("Part \($0)") })
      })
  }
}

extension NavigationDomain {
  /// The state after `events`, each of which must be applied or unchanged.
  func state(
    after events: NavigationEvent..., from start: NavigationState? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> NavigationState {
    var state = start ?? initialState
    for event in events {
      let outcome = reduce(&state, event)
      if outcome.isRejected {
        Issue.record(
          "fixture event \(describe(event)) was rejected: \(outcome)",
          sourceLocation: sourceLocation)
      }
    }
    return state
  }

  /// Shorthand for `.categorySelected(ref(id))`.
  func category(_ id: String) -> NavigationEvent { .categorySelected(ref(id)) }
  /// Shorthand for `.itemSelected(ref(id))`.
  func item(_ id: String) -> NavigationEvent { .itemSelected(ref(id)) }
}
