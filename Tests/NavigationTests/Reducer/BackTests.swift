import Navigation
import RewindCore
import Testing

@Suite("Reducer: backTapped")
struct BackTests {
  let three = Fixtures.three
  let two = Fixtures.two

  @Test("on a regular width there is no back button")
  func regular() {
    let state = three.state(after: three.category("grinders"), three.item("grinders/swift"))
    expect(from: state, .backTapped, .rejected(.backNotAvailableOnRegularWidth))
    expect(two, from: two.initialState, .backTapped, .rejected(.backNotAvailableOnRegularWidth))
  }

  @Test("on the compact sidebar there is nowhere to go back to")
  func sidebar() {
    expect(
      from: three.state(after: .sizeClassChanged(.compact)), .backTapped,
      .rejected(.backNotAvailableOnSidebar))
    expect(
      two, from: two.state(after: .sizeClassChanged(.compact)), .backTapped,
      .rejected(.backNotAvailableOnSidebar))
  }

  @Test("three columns: detail → content, clearing the item")
  func detailToContent() {
    let state = three.state(
      after: .sizeClassChanged(.compact), three.category("grinders"), three.item("grinders/swift"))
    expect(from: state, .backTapped, .applied) {
      $0.split.compactColumn = .content
      $0.split.selectedItem = nil
    }
  }

  @Test("three columns: content → sidebar, clearing category and item")
  func contentToSidebar() {
    let state = three.state(after: .sizeClassChanged(.compact), three.category("grinders"))
    expect(from: state, .backTapped, .applied) {
      $0.split.compactColumn = .sidebar
      $0.split.selectedCategory = nil
    }
    // With an item kept on the content (the category was selected again).
    let kept = three.state(
      after: three.item("grinders/swift"), three.category("grinders"), from: state)
    expect(from: kept, .backTapped, .applied) {
      $0.split.compactColumn = .sidebar
      $0.split.selectedCategory = nil
      $0.split.selectedItem = nil
    }
  }

  @Test("two columns: detail → sidebar, clearing the category (and its item)")
  func twoColumns() {
    let state = two.state(after: .sizeClassChanged(.compact), two.category("grinders"))
    expect(two, from: state, .backTapped, .applied) {
      $0.split.compactColumn = .sidebar
      $0.split.selectedCategory = nil
    }
    let item = two.state(after: two.item("grinders/vulcano"), from: state)
    expect(two, from: item, .backTapped, .applied) {
      $0.split.compactColumn = .sidebar
      $0.split.selectedCategory = nil
      $0.split.selectedItem = nil
    }
  }

  @Test("back leaves expansion, menu and options alone")
  func leavesTheRest() {
    let state = three.state(
      after: .menuTabTapped(index: 3), .itemExpanded(three.ref("espresso-machines/leva")),
      .splitStyleChanged(.balanced), .sizeClassChanged(.compact),
      three.category("espresso-machines"),
      three.item("espresso-machines/leva/leva-x"))
    expect(from: state, .backTapped, .applied) {
      $0.split.compactColumn = .content
      $0.split.selectedItem = nil
    }
  }
}
