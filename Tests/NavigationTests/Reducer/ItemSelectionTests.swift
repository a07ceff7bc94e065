import Navigation
import RewindCore
import Testing

@Suite("Reducer: itemSelected")
struct ItemSelectionTests {
  let three = Fixtures.three
  let two = Fixtures.two

  @Test(
    "an item below the selected category, at any depth, is selected",
    arguments: [
      "espresso-machines/leva", "espresso-machines/leva/leva-s", "espresso-machines/gb5",
      "espresso-machines/home/linea-mini",
    ])
  func selected(id: String) {
    let state = three.state(after: three.category("espresso-machines"))
    expect(from: state, three.item(id), .applied) { $0.split.selectedItem = three.ref(id) }
  }

  @Test("another item of the category replaces the selection")
  func replaced() {
    let state = three.state(after: three.category("grinders"), three.item("grinders/swift"))
    expect(from: state, three.item("grinders/lux-d"), .applied) {
      $0.split.selectedItem = three.ref("grinders/lux-d")
    }
  }

  @Test("the selected item again is unchanged")
  func same() {
    let state = three.state(after: three.category("grinders"), three.item("grinders/swift"))
    expect(from: state, three.item("grinders/swift"), .unchanged)
  }

  @Test(
    "an item of another category, or the category itself, is rejected",
    arguments: ["espresso-machines/leva", "other-equipments/steam", "grinders", "other-equipments"])
  func notInCategory(id: String) {
    let state = three.state(after: three.category("grinders"), three.item("grinders/swift"))
    expect(from: state, three.item(id), .rejected(.itemNotInSelectedCategory))
  }

  @Test("an item without a selected category is rejected")
  func noCategory() {
    expect(from: three.initialState, three.item("grinders/swift"), .rejected(.noCategorySelected))
  }

  @Test("an id the catalog lacks is rejected, with or without a category")
  func unknown() {
    expect(from: three.initialState, three.item("grinders/mazzer"), .rejected(.unknownIdentifier))
    let state = three.state(after: three.category("grinders"))
    expect(from: state, three.item("grinders/mazzer"), .rejected(.unknownIdentifier))
  }

  @Test("nil clears the item; on a regular width the compact column stays")
  func cleared() {
    let state = three.state(after: three.category("grinders"), three.item("grinders/swift"))
    expect(from: state, .itemSelected(nil), .applied) { $0.split.selectedItem = nil }
  }

  @Test("nil with no item selected is unchanged, with or without a category")
  func clearedNothing() {
    expect(from: three.initialState, .itemSelected(nil), .unchanged)
    expect(from: three.state(after: three.category("grinders")), .itemSelected(nil), .unchanged)
    let compact = three.state(after: .sizeClassChanged(.compact), three.category("grinders"))
    expect(from: compact, .itemSelected(nil), .unchanged)
  }

  @Test("compact: a valid item shows the detail")
  func compactShowsDetail() {
    let state = three.state(after: .sizeClassChanged(.compact), three.category("grinders"))
    expect(from: state, three.item("grinders/swift"), .applied) {
      $0.split.selectedItem = three.ref("grinders/swift")
      $0.split.compactColumn = .detail
    }
  }

  @Test("compact: the selected item again from the content shows the detail")
  func compactSameItemFromContent() {
    // Reselecting the category goes back to the content, the item kept.
    let state = three.state(
      after: .sizeClassChanged(.compact), three.category("grinders"), three.item("grinders/swift"),
      three.category("grinders"))
    expect(from: state, three.item("grinders/swift"), .applied) {
      $0.split.compactColumn = .detail
    }
  }

  @Test("compact, three columns: nil on the detail goes back to the content")
  func compactClearedThree() {
    let state = three.state(
      after: .sizeClassChanged(.compact), three.category("grinders"), three.item("grinders/swift"))
    expect(from: state, .itemSelected(nil), .applied) {
      $0.split.selectedItem = nil
      $0.split.compactColumn = .content
    }
  }

  @Test("compact, two columns: items are selected on the detail, which stays")
  func compactTwoColumns() {
    let state = two.state(after: .sizeClassChanged(.compact), two.category("grinders"))
    let selected = expect(two, from: state, two.item("grinders/swift"), .applied) {
      $0.split.selectedItem = two.ref("grinders/swift")
    }
    expect(two, from: selected, .itemSelected(nil), .applied) { $0.split.selectedItem = nil }
  }

  @Test("a rejected item does not move the compact column")
  func compactRejected() {
    let state = three.state(after: .sizeClassChanged(.compact), three.category("grinders"))
    expect(from: state, three.item("other-equipments/steam"), .rejected(.itemNotInSelectedCategory))
  }
}
