import Navigation
import RewindCore
import Testing

@Suite("Reducer: the horizontal menu")
struct MenuReducerTests {
  let domain = Fixtures.three
  var start: NavigationState { domain.initialState }

  @Test("a tab in range is selected", arguments: [1, 3, 6])
  func tabSelected(index: Int) {
    expect(from: start, .menuTabTapped(index: index), .applied) {
      $0.menu.selectedIndex = index
    }
  }

  @Test("tapping the selected tab is unchanged")
  func sameTab() {
    let state = domain.state(after: .menuTabTapped(index: 4))
    expect(from: state, .menuTabTapped(index: 4), .unchanged)
    expect(from: start, .menuTabTapped(index: 0), .unchanged)
  }

  @Test("a tab out of range is rejected", arguments: [-1, 7, 8, Int.min, Int.max])
  func tabOutOfRange(index: Int) {
    let state = domain.state(after: .menuTabTapped(index: 2))
    expect(
      from: state, .menuTabTapped(index: index),
      .rejected(.tabIndexOutOfRange(index: index, count: 7)))
  }

  @Test(
    "a finite offset >= 0 is stored exactly",
    arguments: [
      120.5, 1.0 / 3.0, Double(2) / 6, 0.1, 1e-300, .leastNonzeroMagnitude,
      .greatestFiniteMagnitude,
    ])
  func scrolled(offset: Double) {
    let state = expect(from: start, .menuScrolled(offset: offset), .applied) {
      $0.menu.scrollOffset = offset
    }
    #expect(state.menu.scrollOffset.bitPattern == offset.bitPattern)
  }

  @Test("scrolling to the current offset is unchanged; -0.0 is stored as 0.0")
  func sameOffset() {
    let scrolled = domain.state(after: .menuScrolled(offset: 42.5))
    expect(from: scrolled, .menuScrolled(offset: 42.5), .unchanged)
    expect(from: start, .menuScrolled(offset: 0), .unchanged)
    expect(from: start, .menuScrolled(offset: -0.0), .unchanged)
    let back = expect(from: scrolled, .menuScrolled(offset: -0.0), .applied) {
      $0.menu.scrollOffset = 0
    }
    #expect(back.menu.scrollOffset.bitPattern == (0.0).bitPattern)
  }

  @Test("a non-finite offset is rejected", arguments: [Double.nan, .infinity, -.infinity, -.nan])
  func notFinite(offset: Double) {
    let state = domain.state(after: .menuScrolled(offset: 10))
    expect(from: state, .menuScrolled(offset: offset), .rejected(.scrollOffsetNotFinite))
  }

  @Test("a negative offset is rejected", arguments: [-1, -Double.leastNonzeroMagnitude, -1e300])
  func negative(offset: Double) {
    let state = domain.state(after: .menuScrolled(offset: 10))
    expect(from: state, .menuScrolled(offset: offset), .rejected(.scrollOffsetNegative))
  }

  @Test("menu events leave the split view alone")
  func independent() {
    let state = domain.state(
      after: domain.category("grinders"), domain.item("grinders/swift"), .sizeClassChanged(.compact)
    )
    expect(from: state, .menuTabTapped(index: 5), .applied) { $0.menu.selectedIndex = 5 }
    expect(from: state, .menuScrolled(offset: 7), .applied) { $0.menu.scrollOffset = 7 }
  }
}
