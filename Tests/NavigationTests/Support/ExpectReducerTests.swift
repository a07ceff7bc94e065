import Navigation
import RewindCore
import Testing

@Suite("The exhaustive reducer expectation")
struct ExpectReducerTests {
  let three = Fixtures.three

  @Test("an unstated change fails, and so does a stated change that did not happen")
  func failsOnAnyDifference() {
    let state = three.state(after: three.category("grinders"), three.item("grinders/swift"))
    withKnownIssue {
      // Forgets that the item is cleared.
      expect(from: state, three.category("other-equipments"), .applied) {
        $0.split.selectedCategory = three.ref("other-equipments")
      }
    }
    withKnownIssue {
      // States a change that the reducer does not make.
      expect(from: state, .menuTabTapped(index: 1), .applied) {
        $0.menu.selectedIndex = 1
        $0.split.selectedItem = nil
      }
    }
    withKnownIssue {
      expect(from: state, .backTapped, .unchanged)
    }
  }

  @Test("the diff names each differing path with both values")
  func readableDiff() {
    let state = three.state(after: three.category("grinders"), three.item("grinders/swift"))
    var other = state
    other.split.selectedItem = nil
    other.menu.scrollOffset = 12.5
    #expect(
      stateDiff(expected: state, actual: other) == """
          menu.scrollOffset
            expected: 0.0
            actual:   12.5
          split.selectedItem
            expected: "grinders/swift"
            actual:   null
        """)
  }
}
