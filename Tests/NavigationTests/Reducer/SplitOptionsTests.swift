import Navigation
import RewindCore
import Testing

@Suite("Reducer: column visibility, style and size class")
struct SplitOptionsTests {
  let three = Fixtures.three
  let two = Fixtures.two

  @Test(
    "column visibility is set; the same again is unchanged", arguments: ColumnVisibility.allCases)
  func visibility(visibility: ColumnVisibility) {
    let start = three.initialState
    if visibility == start.split.columnVisibility {
      expect(from: start, .columnVisibilityChanged(visibility), .unchanged)
    } else {
      let state = expect(from: start, .columnVisibilityChanged(visibility), .applied) {
        $0.split.columnVisibility = visibility
      }
      expect(from: state, .columnVisibilityChanged(visibility), .unchanged)
    }
  }

  @Test("the style is set; the same again is unchanged", arguments: SplitStyle.allCases)
  func style(style: SplitStyle) {
    let start = three.state(after: .columnVisibilityChanged(.all))
    if style == start.split.style {
      expect(from: start, .splitStyleChanged(style), .unchanged)
    } else {
      let state = expect(from: start, .splitStyleChanged(style), .applied) {
        $0.split.style = style
      }
      expect(from: state, .splitStyleChanged(style), .unchanged)
    }
  }

  @Test("the same size class is unchanged, and does not recompute the compact column")
  func sameSizeClass() {
    expect(from: three.initialState, .sizeClassChanged(.regular), .unchanged)
    // Compact on the content with an item kept (the category was selected again).
    let state = three.state(
      after: .sizeClassChanged(.compact), three.category("grinders"), three.item("grinders/swift"),
      three.category("grinders"))
    #expect(state.split.compactColumn == .content)
    expect(from: state, .sizeClassChanged(.compact), .unchanged)
  }

  @Test("becoming compact, three columns: the deepest column with a selection")
  func compactThree() {
    expect(from: three.initialState, .sizeClassChanged(.compact), .applied) {
      $0.split.sizeClass = .compact
      $0.split.compactColumn = .sidebar
    }
    let category = three.state(after: three.category("grinders"))
    expect(from: category, .sizeClassChanged(.compact), .applied) {
      $0.split.sizeClass = .compact
      $0.split.compactColumn = .content
    }
    let item = three.state(after: three.category("grinders"), three.item("grinders/swift"))
    expect(from: item, .sizeClassChanged(.compact), .applied) {
      $0.split.sizeClass = .compact
      $0.split.compactColumn = .detail
    }
  }

  @Test("becoming compact, two columns: detail with a category, else the sidebar")
  func compactTwo() {
    expect(two, from: two.initialState, .sizeClassChanged(.compact), .applied) {
      $0.split.sizeClass = .compact
    }
    let category = two.state(after: two.category("grinders"))
    expect(two, from: category, .sizeClassChanged(.compact), .applied) {
      $0.split.sizeClass = .compact
      $0.split.compactColumn = .detail
    }
    let item = two.state(after: two.category("grinders"), two.item("grinders/swift"))
    expect(two, from: item, .sizeClassChanged(.compact), .applied) {
      $0.split.sizeClass = .compact
      $0.split.compactColumn = .detail
    }
  }

  @Test("becoming compact replaces a stale compact column")
  func staleColumn() {
    // Compact on the detail, then regular, then the selection is cleared.
    let state = three.state(
      after: .sizeClassChanged(.compact), three.category("grinders"), three.item("grinders/swift"),
      .sizeClassChanged(.regular), .categorySelected(nil))
    #expect(state.split.compactColumn == .detail)
    expect(from: state, .sizeClassChanged(.compact), .applied) {
      $0.split.sizeClass = .compact
      $0.split.compactColumn = .sidebar
    }
  }

  @Test("becoming regular keeps the selection and the compact column")
  func regular() {
    let state = three.state(
      after: .sizeClassChanged(.compact), three.category("grinders"), three.item("grinders/swift"))
    expect(from: state, .sizeClassChanged(.regular), .applied) { $0.split.sizeClass = .regular }
  }

  @Test("settings may start a session compact")
  func initiallyCompact() {
    let domain = NavigationDomain(catalog: .sample, sizeClass: .compact)
    #expect(domain.initialState.split.sizeClass == .compact)
    #expect(domain.initialState.split.compactColumn == .sidebar)
    expect(domain, from: domain.initialState, domain.category("grinders"), .applied) {
      $0.split.selectedCategory = domain.ref("grinders")
      $0.split.compactColumn = .content
    }
  }
}
