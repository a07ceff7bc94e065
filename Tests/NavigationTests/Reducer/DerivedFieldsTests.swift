import Navigation
import RewindCore
import Testing

@Suite("Derived fields: visibleColumns and overlay")
struct DerivedFieldsTests {
  /// The rules restated from the split-view tutorial, for a regular width: "on an iPad in
  /// portrait, with the automatic style, the detail takes the whole screen and bringing up
  /// the leading columns lays them over it; with balanced the detail shrinks so they fit
  /// beside it"; in landscape (and on an iPhone, which follows its size class) they are
  /// beside the detail; prominentDetail lays them over it in both orientations.
  static func expected(
    layout: SplitLayout, idiom: DeviceIdiom, orientation: Orientation, style: SplitStyle,
    visibility: ColumnVisibility
  ) -> (columns: [Column], overlay: Bool) {
    let all = layout.columns
    let trailing = Array(all.suffix(2))
    let portraitPad = idiom == .pad && orientation == .portrait
    let columns: [Column]
    switch visibility {
    case .detailOnly: columns = [.detail]
    case .all: columns = all
    case .doubleColumn: columns = trailing
    case .automatic: columns = portraitPad && style != .balanced ? [.detail] : trailing
    }
    let overlay =
      columns.count > 1
      && (style == .prominentDetail || (style == .automatic && portraitPad))
    return (columns, overlay)
  }

  static func domain(_ layout: SplitLayout, _ idiom: DeviceIdiom, _ orientation: Orientation)
    -> NavigationDomain
  {
    NavigationDomain(
      NavigationSettings(
        catalog: .sample(layout: layout), idiom: idiom, orientation: orientation))
  }

  @Test(
    "regular: every layout, idiom, orientation, style and visibility",
    arguments: SplitLayout.allCases, DeviceIdiom.allCases)
  func regular(layout: SplitLayout, idiom: DeviceIdiom) {
    for orientation in Orientation.allCases {
      let domain = Self.domain(layout, idiom, orientation)
      for style in SplitStyle.allCases {
        for visibility in ColumnVisibility.allCases {
          let state = domain.state(
            after: .splitStyleChanged(style), .columnVisibilityChanged(visibility))
          let (columns, overlay) = Self.expected(
            layout: layout, idiom: idiom, orientation: orientation, style: style,
            visibility: visibility)
          let what = "\(layout) \(idiom) \(orientation) \(style) \(visibility)"
          #expect(state.split.visibleColumns.columns == columns, "\(what)")
          #expect(state.split.overlay == overlay, "\(what)")
          #expect(
            NavigationField.splitVisibleColumns.value(in: state)
              == .array(columns.map { .string($0.rawValue) }), "\(what)")
          #expect(NavigationField.splitOverlay.value(in: state) == .bool(overlay), "\(what)")
        }
      }
    }
  }

  @Test("the tutorial's iPad in portrait, step by step")
  func portraitPad() {
    let domain = Self.domain(.threeColumn, .pad, .landscape)
    // Landscape, automatic: content and detail side by side.
    let landscape = domain.initialState
    #expect(landscape.split.visibleColumns.columns == [.content, .detail])
    #expect(!landscape.split.overlay)
    // Turned to portrait: the detail takes the whole screen.
    let portrait = expect(domain, from: landscape, .orientationChanged(.portrait), .applied) {
      $0.split.orientation = .portrait
    }
    #expect(portrait.split.visibleColumns.columns == [.detail])
    // The leading columns brought up lie over it…
    let shown = expect(domain, from: portrait, .columnVisibilityChanged(.all), .applied) {
      $0.split.columnVisibility = .all
    }
    #expect(shown.split.visibleColumns.columns == [.sidebar, .content, .detail])
    #expect(shown.split.overlay)
    // …and with balanced, the detail shrinks so that they fit beside it.
    let balanced = expect(domain, from: shown, .splitStyleChanged(.balanced), .applied) {
      $0.split.style = .balanced
    }
    #expect(!balanced.split.overlay)
  }

  @Test(
    "compact: only the compact column, whatever the visibility and orientation",
    arguments: ColumnVisibility.allCases, Orientation.allCases)
  func compact(visibility: ColumnVisibility, orientation: Orientation) {
    let three = Self.domain(.threeColumn, .pad, orientation)
    var state = three.state(
      after: .columnVisibilityChanged(visibility), .sizeClassChanged(.compact))
    #expect(state.split.visibleColumns.columns == [.sidebar])
    #expect(!state.split.overlay)
    state = three.state(after: three.category("grinders"), from: state)
    #expect(state.split.visibleColumns.columns == [.content])
    state = three.state(after: three.item("grinders/swift"), from: state)
    #expect(state.split.visibleColumns.columns == [.detail])
    #expect(!state.split.overlay)
  }

  @Test("an iPhone's split view follows its size class, not its orientation")
  func phone() {
    let phone = Self.domain(.threeColumn, .phone, .portrait)
    let portrait = phone.state(after: .sizeClassChanged(.compact))
    #expect(portrait.split.visibleColumns.columns == [.sidebar])
    // A large iPhone turned to landscape: regular, columns side by side.
    let landscape = phone.state(after: .sizeClassChanged(.regular), from: portrait)
    #expect(landscape.split.visibleColumns.columns == [.content, .detail])
    #expect(!landscape.split.overlay)
    // Its orientation, were it recorded, changes nothing else.
    expect(phone, from: landscape, .orientationChanged(.landscape), .applied) {
      $0.split.orientation = .landscape
    }
  }

  @Test("the orientation is set; the same again is unchanged", arguments: Orientation.allCases)
  func orientation(orientation: Orientation) {
    let three = Fixtures.three
    let start = three.initialState
    #expect(start.split.orientation == .landscape)
    if orientation == .landscape {
      expect(from: start, .orientationChanged(orientation), .unchanged)
    } else {
      let state = expect(from: start, .orientationChanged(orientation), .applied) {
        $0.split.orientation = orientation
      }
      expect(from: state, .orientationChanged(orientation), .unchanged)
    }
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
    let automatic = three.state(after: .columnVisibilityChanged(.all))
    var portrait = automatic
    _ = three.reduce(&portrait, .orientationChanged(.portrait))
    #expect(
      three.changedFields(from: automatic, to: portrait)
        == [NavigationField.splitOrientation.rawValue, NavigationField.splitOverlay.rawValue])
  }
}
