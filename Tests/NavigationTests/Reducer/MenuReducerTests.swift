import Navigation
import RewindCore
import Testing

/// The sample's strip: labels of 106, 117, 139, 128, 106, 128 and 106 points (starting at
/// 0, 106, 223, 362, 490, 596 and 724), 830 in all, in a viewport of 375: it scrolls from 0
/// to 455.
@Suite("Reducer: the horizontal menu")
struct MenuReducerTests {
  let domain = Fixtures.three
  var start: NavigationState { domain.initialState }

  @Test("the sample strip's geometry")
  func geometry() {
    #expect(domain.catalog.menuLabelWidths == [106, 117, 139, 128, 106, 128, 106])
    #expect(domain.catalog.menuContentWidth == 830)
    #expect(start.menu.viewportWidth == 375)
    #expect(start.menu.maximumScrollOffset(contentWidth: 830) == 455)
  }

  @Test("a tab in view is selected, and the strip stays", arguments: [1, 2])
  func tabInView(index: Int) {
    expect(from: start, .menuTabTapped(index: index), .applied) {
      $0.menu.selectedIndex = index
    }
  }

  @Test(
    "a tab partly or wholly out of view is selected and scrolled into view, as little as needed",
    arguments: [
      // (offset before, tab, offset after): the trailing edge brought to the viewport's…
      (0.0, 3, 115.0), (0.0, 4, 221.0), (0.0, 5, 349.0), (0.0, 6, 455.0), (100.0, 4, 221.0),
      // …the leading edge to the viewport's.
      (455.0, 0, 0.0), (455.0, 1, 106.0), (300.0, 2, 223.0), (120.5, 1, 106.0),
    ])
  func tabOutOfView(offset: Double, index: Int, after: Double) {
    let state = domain.state(after: .menuScrolled(offset: offset))
    expect(from: state, .menuTabTapped(index: index), .applied) {
      $0.menu.selectedIndex = index
      $0.menu.scrollOffset = after
    }
  }

  @Test("the selected tab tapped again: unchanged in view, scrolled into view when it is not")
  func sameTab() {
    let state = domain.state(after: .menuTabTapped(index: 4))
    expect(from: state, .menuTabTapped(index: 4), .unchanged)
    expect(from: start, .menuTabTapped(index: 0), .unchanged)
    let away = domain.state(after: .menuScrolled(offset: 0), from: state)
    expect(from: away, .menuTabTapped(index: 4), .applied) { $0.menu.scrollOffset = 221 }
  }

  @Test("the rule, for every tab from every offset: the tab ends whole in view, moved least")
  func everyTabEveryOffset() {
    let widths = domain.catalog.menuLabelWidths
    for offset in stride(from: 0.0, through: 455, by: 2.5) {
      let state = domain.state(after: .menuScrolled(offset: offset))
      for index in widths.indices {
        var after = state
        _ = domain.reduce(&after, .menuTabTapped(index: index))
        let start = widths[..<index].reduce(0, +)
        let end = start + widths[index]
        let result = after.menu.scrollOffset
        #expect(after.menu.selectedIndex == index)
        #expect(start >= result && end <= result + 375, "tab \(index) from \(offset): \(result)")
        if start >= offset && end <= offset + 375 {
          #expect(result == offset, "tab \(index) was in view at \(offset)")
        } else {
          #expect(result == start || result == end - 375, "tab \(index) from \(offset): \(result)")
          #expect(abs(result - offset) == min(abs(start - offset), abs(end - 375 - offset)))
        }
      }
    }
  }

  @Test("a tab wider than the viewport shows its leading edge")
  func wideTab() throws {
    let catalog = try Catalog(
      menuLabels: ["Short", "A very long label"], menuLabelWidths: [100, 500],
      categories: Catalog.sampleTree)
    let domain = NavigationDomain(catalog: catalog)
    expect(domain, from: domain.initialState, .menuTabTapped(index: 1), .applied) {
      $0.menu.selectedIndex = 1
      $0.menu.scrollOffset = 100
    }
  }

  @Test("a session whose taps do not scroll only selects")
  func tapsDoNotScroll() {
    var settings = NavigationSettings.sample
    settings.scrollsTappedTabIntoView = false
    let domain = NavigationDomain(settings)
    expect(domain, from: domain.initialState, .menuTabTapped(index: 6), .applied) {
      $0.menu.selectedIndex = 6
    }
    let selected = domain.state(after: .menuTabTapped(index: 6))
    expect(domain, from: selected, .menuTabTapped(index: 6), .unchanged)
  }

  @Test("a tab out of range is rejected", arguments: [-1, 7, 8, Int.min, Int.max])
  func tabOutOfRange(index: Int) {
    let state = domain.state(after: .menuTabTapped(index: 2))
    expect(
      from: state, .menuTabTapped(index: index),
      .rejected(.tabIndexOutOfRange(index: index, count: 7)))
  }

  @Test(
    "an offset within the strip is stored exactly",
    arguments: [120.5, 1.0 / 3.0, Double(2) / 6, 0.1, 1e-300, .leastNonzeroMagnitude, 455])
  func scrolled(offset: Double) {
    let state = expect(from: start, .menuScrolled(offset: offset), .applied) {
      $0.menu.scrollOffset = offset
    }
    #expect(state.menu.scrollOffset.bitPattern == offset.bitPattern)
  }

  @Test(
    "an offset beyond the strip stops at its end",
    arguments: [455.5, 99_999_999_999, .greatestFiniteMagnitude])
  func clamped(offset: Double) {
    expect(from: start, .menuScrolled(offset: offset), .applied) { $0.menu.scrollOffset = 455 }
    let atEnd = domain.state(after: .menuScrolled(offset: 455))
    expect(from: atEnd, .menuScrolled(offset: offset), .unchanged)
  }

  @Test("a strip that fits its viewport does not scroll")
  func fits() {
    let domain = NavigationDomain(NavigationSettings(device: DeviceProfile(device: "iPad mini")))
    #expect(domain.initialState.menu.viewportWidth == 1133)
    expect(domain, from: domain.initialState, .menuScrolled(offset: 120), .unchanged)
    expect(domain, from: domain.initialState, .menuTabTapped(index: 6), .applied) {
      $0.menu.selectedIndex = 6
    }
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

  @Test("a resized viewport is stored, and the offset kept within the new range")
  func resized() {
    let scrolled = domain.state(after: .menuScrolled(offset: 400))
    // Narrower: more to scroll, the offset stays.
    expect(from: scrolled, .menuViewportResized(width: 320), .applied) {
      $0.menu.viewportWidth = 320
    }
    // Wider: the range shrinks to 330, the offset with it.
    expect(from: scrolled, .menuViewportResized(width: 500), .applied) {
      $0.menu.viewportWidth = 500
      $0.menu.scrollOffset = 330
    }
    // Wider than the content: nothing to scroll.
    expect(from: scrolled, .menuViewportResized(width: 1194), .applied) {
      $0.menu.viewportWidth = 1194
      $0.menu.scrollOffset = 0
    }
    expect(from: scrolled, .menuViewportResized(width: 375), .unchanged)
    let resized = domain.state(after: .menuViewportResized(width: 1194))
    expect(from: resized, .menuTabTapped(index: 6), .applied) { $0.menu.selectedIndex = 6 }
  }

  @Test(
    "a viewport width that is not a number of points above 0 is rejected",
    arguments: [0, -0.0, -1, .nan, .infinity, -.infinity, 1_000_000.5])
  func badWidth(width: Double) {
    let state = domain.state(after: .menuScrolled(offset: 10))
    expect(from: state, .menuViewportResized(width: width), .rejected(.viewportWidthOutOfRange))
  }

  @Test("menu events leave the split view alone")
  func independent() {
    let state = domain.state(
      after: domain.category("grinders"), domain.item("grinders/swift"), .sizeClassChanged(.compact)
    )
    expect(from: state, .menuTabTapped(index: 5), .applied) {
      $0.menu.selectedIndex = 5
      $0.menu.scrollOffset = 349
    }
    expect(from: state, .menuScrolled(offset: 7), .applied) { $0.menu.scrollOffset = 7 }
    expect(from: state, .menuViewportResized(width: 320), .applied) {
      $0.menu.viewportWidth = 320
    }
  }
}
