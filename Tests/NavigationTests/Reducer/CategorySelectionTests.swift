import Navigation
import RewindCore
import Testing

@Suite("Reducer: categorySelected")
struct CategorySelectionTests {
  let three = Fixtures.three
  let two = Fixtures.two

  @Test("a top-level category is selected; on a regular width the compact column stays")
  func selected() {
    expect(from: three.initialState, three.category("grinders"), .applied) {
      $0.split.selectedCategory = three.ref("grinders")
    }
  }

  @Test("a different category replaces the selection and clears the item (no stale photo)")
  func differentCategoryClearsItem() {
    let state = three.state(
      after: three.category("espresso-machines"), three.item("espresso-machines/leva/leva-x"))
    expect(from: state, three.category("grinders"), .applied) {
      $0.split.selectedCategory = three.ref("grinders")
      $0.split.selectedItem = nil
    }
  }

  @Test("the selected category again keeps the item: unchanged on a regular width")
  func sameCategory() {
    let state = three.state(after: three.category("grinders"), three.item("grinders/vulcano"))
    expect(from: state, three.category("grinders"), .unchanged)
  }

  @Test(
    "an item is not a category: rejected",
    arguments: [
      "espresso-machines/leva", "espresso-machines/leva/leva-s", "grinders/swift",
    ])
  func notTopLevel(id: String) {
    let state = three.state(after: three.category("other-equipments"))
    expect(from: state, three.category(id), .rejected(.notATopLevelCategory))
  }

  @Test("an id the catalog lacks is rejected")
  func unknown() {
    let state = three.state(after: three.category("grinders"))
    expect(from: state, three.category("teapots"), .rejected(.unknownIdentifier))
  }

  @Test("nil clears the category and the item")
  func cleared() {
    let state = three.state(after: three.category("grinders"), three.item("grinders/lux-d"))
    expect(from: state, .categorySelected(nil), .applied) {
      $0.split.selectedCategory = nil
      $0.split.selectedItem = nil
    }
  }

  @Test("nil with nothing selected on a regular width is unchanged")
  func clearedNothing() {
    expect(from: three.initialState, .categorySelected(nil), .unchanged)
  }

  @Test("nil on a compact width shows the sidebar")
  func clearedCompact() {
    let state = three.state(
      after: .sizeClassChanged(.compact), three.category("grinders"), three.item("grinders/swift"))
    #expect(state.split.compactColumn == .detail)
    expect(from: state, .categorySelected(nil), .applied) {
      $0.split.selectedCategory = nil
      $0.split.selectedItem = nil
      $0.split.compactColumn = .sidebar
    }
  }

  @Test("compact, three columns: a valid selection shows the content")
  func compactThreeColumns() {
    let state = three.state(after: .sizeClassChanged(.compact))
    expect(from: state, three.category("grinders"), .applied) {
      $0.split.selectedCategory = three.ref("grinders")
      $0.split.compactColumn = .content
    }
  }

  @Test("compact, two columns: a valid selection shows the detail")
  func compactTwoColumns() {
    let state = two.state(after: .sizeClassChanged(.compact))
    expect(two, from: state, two.category("grinders"), .applied) {
      $0.split.selectedCategory = two.ref("grinders")
      $0.split.compactColumn = .detail
    }
  }

  @Test("compact: the same category from the detail shows the content again, item kept")
  func compactSameCategory() {
    let state = three.state(
      after: .sizeClassChanged(.compact), three.category("grinders"), three.item("grinders/swift"))
    expect(from: state, three.category("grinders"), .applied) {
      $0.split.compactColumn = .content
    }
    let twoState = two.state(after: .sizeClassChanged(.compact), two.category("grinders"))
    expect(two, from: twoState, two.category("grinders"), .unchanged)
  }

  @Test("compact: a rejected selection does not move the column")
  func compactRejected() {
    let state = three.state(after: .sizeClassChanged(.compact))
    expect(from: state, three.category("grinders/swift"), .rejected(.notATopLevelCategory))
  }
}
