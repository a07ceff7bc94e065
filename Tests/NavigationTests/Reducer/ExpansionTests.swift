import Navigation
import RewindCore
import Testing

@Suite("Reducer: itemExpanded and itemCollapsed")
struct ExpansionTests {
  let three = Fixtures.three

  @Test(
    "an item with children expands; a category too; selection does not matter",
    arguments: [
      "espresso-machines/leva", "espresso-machines/home", "grinders", "espresso-machines",
    ])
  func expanded(id: String) {
    let state = three.state(after: three.category("other-equipments"))
    expect(from: state, .itemExpanded(three.ref(id)), .applied) {
      $0.split.expanded.insert(three.ref(id))
    }
  }

  @Test("expanding an expanded item is unchanged")
  func expandedTwice() {
    let state = three.state(after: .itemExpanded(three.ref("espresso-machines/strada")))
    expect(from: state, .itemExpanded(three.ref("espresso-machines/strada")), .unchanged)
  }

  @Test("an expanded item collapses; collapsing again is unchanged")
  func collapsed() {
    let leva = three.ref("espresso-machines/leva")
    let state = three.state(
      after: .itemExpanded(leva), .itemExpanded(three.ref("espresso-machines/linea")))
    let collapsed = expect(from: state, .itemCollapsed(leva), .applied) {
      $0.split.expanded.remove(leva)
    }
    expect(from: collapsed, .itemCollapsed(leva), .unchanged)
    expect(from: three.initialState, .itemCollapsed(leva), .unchanged)
  }

  @Test(
    "an item without children is rejected",
    arguments: ["espresso-machines/kb90", "espresso-machines/leva/leva-x", "grinders/swift"])
  func leaf(id: String) {
    let state = three.state(after: .itemExpanded(three.ref("grinders")))
    expect(from: state, .itemExpanded(three.ref(id)), .rejected(.notExpandable))
    expect(from: state, .itemCollapsed(three.ref(id)), .rejected(.notExpandable))
  }

  @Test("an id the catalog lacks is rejected")
  func unknown() {
    let ref = three.ref("espresso-machines/leva/leva-z")
    expect(from: three.initialState, .itemExpanded(ref), .rejected(.unknownIdentifier))
    expect(from: three.initialState, .itemCollapsed(ref), .rejected(.unknownIdentifier))
  }

  @Test("expansion beyond the first 64 nodes (a larger catalog)")
  func largeCatalog() {
    let large = Fixtures.large
    let ids = ["category-5/item-5-7", "category-1/item-1-1", "category-3"]
    var state = large.initialState
    for id in ids {
      state = expect(large, from: state, .itemExpanded(large.ref(id)), .applied) {
        $0.split.expanded.insert(large.ref(id))
      }
    }
    #expect(
      NavigationField.splitExpanded.value(in: state) == .array(ids.sorted().map { .string($0) }))
    expect(large, from: state, .itemCollapsed(large.ref("category-5/item-5-7")), .applied) {
      $0.split.expanded.remove(large.ref("category-5/item-5-7"))
    }
    expect(
      large, from: state, .itemExpanded(large.ref("category-5/item-5-8")), .rejected(.notExpandable)
    )
  }
}
