import RewindCore
import RewindTerminal
import Testing

@testable import Navigation

@Suite("Navigation screen: keys")
struct NavigationScreenKeyTests {
  @Test("focus starts on the menu strip, its highlight on the selected label")
  func initialFocus() {
    let harness = ScreenHarness()
    #expect(harness.screen.focus == .menu)
    #expect(harness.screen.menuHighlight == 0)
    #expect(harness.isHighlighted("Monday"))
    #expect(!harness.isHighlighted("Tuesday"))
  }

  @Test("the status line under the menu ends in … where the screen is narrower")
  func statusLineFitted() {
    let wide = ScreenHarness()
    #expect(
      wide.canvas.line(2).hasPrefix(
        "threeColumn · regular · landscape · visibility automatic · style automatic"))
    let narrow = ScreenHarness(size: TerminalSize(columns: 60, rows: 17))
    #expect(
      narrow.canvas.line(2) == "threeColumn · regular · landscape · visibility automatic · …")
  }

  @Test("in the menu, ← → move the highlight without events; Enter and Space tap it")
  func menuKeys() {
    var harness = ScreenHarness()
    #expect(harness.keys(.right, .right).isEmpty)
    #expect(harness.screen.menuHighlight == 2)
    #expect(harness.isHighlighted("Wednesday"))
    #expect(harness.keys(.enter) == [.menuTabTapped(index: 2)])
    #expect(harness.keys(.left) == [])
    #expect(harness.keys(.character(" ")) == [.menuTabTapped(index: 1)])
    #expect(harness.keys(.left, .left, .left) == [])
    #expect(harness.screen.menuHighlight == 0)
    #expect(harness.keys(.end, .enter) == [.menuTabTapped(index: 6)])
    // The reducer scrolled Sunday into view: the strip is cut before it.
    #expect(harness.canvas.line(0).hasPrefix("‹"))
    #expect(harness.canvas.line(0).contains("Sunday"))
  }

  @Test("< and > scroll the strip, within its range; labels are cut at the edges")
  func stripScrolling() {
    var harness = ScreenHarness()
    #expect(harness.canvas.line(0) == " Monday  Tuesday  Wednesday  ›")
    #expect(harness.keys(.character("<")) == [])  // at the start already
    #expect(harness.keys(.character(">")) == [.menuScrolled(offset: 125)])
    #expect(harness.canvas.line(0).hasPrefix("‹"))
    #expect(!harness.canvas.line(0).contains("Monday"))
    #expect(harness.keys(.character(">"), .character(">"), .character(">")).count == 3)
    // At the end: 830 points of labels, 375 of viewport.
    #expect(harness.state.menu.scrollOffset == 455)
    #expect(harness.keys(.character(">")) == [])
    #expect(harness.canvas.line(0).hasSuffix("Sunday"))
    #expect(harness.keys(.character("<")) == [.menuScrolled(offset: 330)])
  }

  @Test(
    "an area narrower than the device's view cuts the strip with ‹ ›, keeping the selected label"
  )
  func stripNarrowerThanTheDevice() {
    // The device shows the whole strip (830 points in a 932-point viewport): no arrows.
    var harness = ScreenHarness(
      size: TerminalSize(columns: 120, rows: 30), events: [.menuViewportResized(width: 932)])
    #expect(harness.canvas.line(0) == Self.wholeStrip)
    // In 40 columns: the start of the view, cut with `›`, not mid-label with nothing.
    harness.canvas = Screen(size: TerminalSize(columns: 40, rows: 30))
    harness.draw()
    var line = harness.canvas.line(0)
    #expect(line == " Monday  Tuesday  Wednesday  Thursday  ›", "\(line)")
    #expect(TerminalText.width(line) == 40)
    // Sunday selected: the strip moves on to show it whole, `‹` before it; its thick
    // underline under it.
    harness.keys(.end, .enter)
    #expect(harness.state.menu.selectedIndex == 6)
    line = harness.canvas.line(0)
    #expect(line.hasPrefix("‹"), "\(line)")
    #expect(line.hasSuffix(" Sunday"), "\(line)")
    #expect(!line.contains("›"))
    let underline = harness.canvas.line(1)
    #expect(underline.hasSuffix("━━━━━━━━"), "\(underline)")
    // A label in the middle: arrows on both sides, the label whole at the right.
    harness.keys(.left, .left, .enter)
    #expect(harness.state.menu.selectedIndex == 4)
    #expect(harness.canvas.line(0) == "‹ Tuesday  Wednesday  Thursday  Friday ›")
  }

  static let wholeStrip = " Monday  Tuesday  Wednesday  Thursday  Friday  Saturday  Sunday"

  @Test("the highlight out of view shows on the edge arrow; tapping it scrolls it into view")
  func highlightOutOfView() {
    var harness = ScreenHarness()
    harness.keys(.right, .right, .right, .right)
    #expect(harness.screen.menuHighlight == 4)
    #expect(harness.canvas[harness.find("›")!.column, 0].style.reverse)
    #expect(harness.keys(.enter) == [.menuTabTapped(index: 4)])
    #expect(harness.canvas.line(0).contains("Friday"))
    #expect(harness.isHighlighted("Friday"))
  }

  @Test("Tab and Shift-Tab: the menu strip, then each visible column, round")
  func tabOrder() {
    var harness = ScreenHarness(events: [.columnVisibilityChanged(.all)])
    var order: [NavigationScreen.Focus] = []
    for _ in 0..<4 {
      harness.keys(.tab)
      order.append(harness.screen.focus)
    }
    #expect(order == [.column(.sidebar), .column(.content), .column(.detail), .menu])
    harness.keys(.backTab)
    #expect(harness.screen.focus == .column(.detail))
    // Automatic visibility in three columns: content and detail only.
    var automatic = ScreenHarness()
    automatic.keys(.tab)
    #expect(automatic.screen.focus == .column(.content))
  }

  @Test("in a column, ↑ ↓ move, Enter selects, → expands and ← collapses")
  func columnKeys() {
    var harness = ScreenHarness(events: [.columnVisibilityChanged(.all)])
    harness.keys(.tab)
    #expect(harness.isHighlighted("  Espresso Machines"))
    #expect(harness.keys(.down, .enter) == [.categorySelected(harness.ref("grinders"))])
    #expect(harness.keys(.up, .enter) == [.categorySelected(harness.ref("espresso-machines"))])
    harness.keys(.tab)
    #expect(harness.screen.focus == .column(.content))
    #expect(harness.keys(.right) == [.itemExpanded(harness.ref("espresso-machines/leva"))])
    #expect(harness.lines.contains("▾ Leva"))
    // Expanded already: → goes to the first child.
    #expect(harness.keys(.right) == [])
    #expect(harness.keys(.enter) == [.itemSelected(harness.ref("espresso-machines/leva/leva-x"))])
    #expect(harness.lines.contains("photo: leva-x"))
    // ← on a child: to its parent; ← again collapses.
    #expect(harness.keys(.left) == [])
    #expect(harness.keys(.left) == [.itemCollapsed(harness.ref("espresso-machines/leva"))])
    #expect(harness.lines.contains("◦ ▸ Leva"))
    // A row without children: → and ← do nothing.
    #expect(harness.keys(.down, .down, .right, .left) == [])
    #expect(harness.keys(.end, .enter) == [.itemSelected(harness.ref("espresso-machines/home"))])
    // Backspace on a regular width: no back button, the key is not used.
    #expect(harness.screen.handle(.key(.backspace), state: harness.state).handled == false)
  }

  @Test("v, s and c cycle the visibility and the style and toggle the size class")
  func optionKeys() {
    var harness = ScreenHarness()
    let v = [harness.keys(.character("v")), harness.keys(.character("v"))]
    #expect(v == [[.columnVisibilityChanged(.all)], [.columnVisibilityChanged(.doubleColumn)]])
    harness.keys(.character("v"))
    #expect(harness.keys(.character("v")) == [.columnVisibilityChanged(.automatic)])
    #expect(harness.keys(.character("s")) == [.splitStyleChanged(.balanced)])
    #expect(harness.keys(.character("s")) == [.splitStyleChanged(.prominentDetail)])
    #expect(harness.keys(.character("s")) == [.splitStyleChanged(.automatic)])
    #expect(harness.keys(.character("c")) == [.sizeClassChanged(.compact)])
    #expect(harness.keys(.character("c")) == [.sizeClassChanged(.regular)])
  }

  @Test("compact: one column, the focus follows it, Backspace and Esc are the back button")
  func compact() {
    var harness = ScreenHarness(events: [.sizeClassChanged(.compact)])
    #expect(!harness.lines.contains("‹ Espresso"))
    harness.keys(.tab)
    #expect(harness.screen.focus == .column(.sidebar))
    #expect(harness.keys(.down, .enter) == [.categorySelected(harness.ref("grinders"))])
    // The sidebar went away: the focus is on the content it showed.
    #expect(harness.screen.focus == .column(.content))
    #expect(harness.lines.contains("‹ Espresso"))
    #expect(harness.keys(.enter) == [.itemSelected(harness.ref("grinders/swift"))])
    #expect(harness.screen.focus == .column(.detail))
    #expect(harness.lines.contains("‹ Grinders"))
    #expect(harness.lines.contains("photo: swift"))
    #expect(harness.keys(.backspace) == [.backTapped])
    #expect(harness.screen.focus == .column(.content))
    #expect(harness.keys(.escape) == [.backTapped])
    #expect(harness.screen.focus == .column(.sidebar))
    // On the sidebar there is no back button.
    #expect(harness.screen.handle(.key(.escape), state: harness.state).handled == false)
    // The back button answers whatever has the focus.
    harness.keys(.enter)
    harness.keys(.tab)
    #expect(harness.screen.focus == .menu)
    #expect(harness.keys(.backspace) == [.backTapped])
  }
}

@Suite("Navigation screen: mouse")
struct NavigationScreenMouseTests {
  @Test("a click on a label taps it; on a cut label too, which scrolls it into view")
  func labels() {
    var harness = ScreenHarness()
    #expect(harness.click("Tuesday") == [.menuTabTapped(index: 1)])
    #expect(harness.screen.menuHighlight == 1)
    // Scrolled a third of the viewport, the strip shows the first cell of Friday's label
    // at its trailing edge; a click there taps Friday, which scrolls into view.
    harness.input(.key(.character(">")))
    #expect(harness.canvas.line(0) == "‹Tuesday  Wednesday  Thursday  ›")
    let edge = harness.find("›")!
    #expect(
      harness.input(.mouse(MouseEvent(.press, column: edge.column - 1, row: 0)))
        == [.menuTabTapped(index: 4)])
    #expect(harness.canvas.line(0) == "‹ Wednesday  Thursday  Friday ›")
  }

  @Test("the edge arrows and the wheel over the strip scroll it")
  func stripScrolling() {
    var harness = ScreenHarness()
    #expect(harness.click("›") == [.menuScrolled(offset: 125)])
    #expect(harness.click("‹") == [.menuScrolled(offset: 0)])
    let strip = harness.find("Monday")!
    let wheelDown = MouseEvent(.wheelDown, button: .none, column: strip.column, row: 0)
    #expect(harness.input(.mouse(wheelDown)) == [.menuScrolled(offset: 40)])
    #expect(harness.input(.mouse(wheelDown)) == [.menuScrolled(offset: 80)])
    let wheelUp = MouseEvent(.wheelUp, button: .none, column: 3, row: 1)
    #expect(harness.input(.mouse(wheelUp)) == [.menuScrolled(offset: 40)])
  }

  @Test("a click on a row selects it, on a triangle expands or collapses, and focuses the column")
  func rows() {
    var harness = ScreenHarness(events: [.columnVisibilityChanged(.all)])
    #expect(
      harness.click("Other Equipments") == [.categorySelected(harness.ref("other-equipments"))])
    #expect(harness.screen.focus == .column(.sidebar))
    #expect(
      harness.click("Espresso Machines") == [.categorySelected(harness.ref("espresso-machines"))])
    #expect(harness.click("▸") == [.itemExpanded(harness.ref("espresso-machines/leva"))])
    #expect(harness.screen.focus == .column(.content))
    #expect(
      harness.click("Leva S") == [.itemSelected(harness.ref("espresso-machines/leva/leva-s"))])
    #expect(harness.click("▾") == [.itemCollapsed(harness.ref("espresso-machines/leva"))])
    // A click on the row's name, not its triangle, selects.
    #expect(harness.click("Strada") == [.itemSelected(harness.ref("espresso-machines/strada"))])
    // A placeholder, a frame, empty space: no event.
    #expect(harness.click("┌ Espresso ").isEmpty)
    #expect(harness.screen.focus == .column(.sidebar))
    #expect(harness.input(.mouse(MouseEvent(.press, column: 119, row: 29))).isEmpty)
    // Releases and right clicks do nothing.
    let at = harness.find("Grinders")!
    #expect(harness.input(.mouse(MouseEvent(.release, column: at.column, row: at.row))).isEmpty)
    #expect(
      harness.input(.mouse(MouseEvent(.press, button: .right, column: at.column, row: at.row)))
        .isEmpty)
  }

  @Test("a click on the back button of a compact split view taps it")
  func backButton() {
    var harness = ScreenHarness(
      events: [.sizeClassChanged(.compact), .categorySelected(Fixtures.three.ref("grinders"))])
    #expect(harness.click("‹ Espresso") == [.backTapped])
    #expect(harness.state.split.compactColumn == .sidebar)
  }

  @Test("the wheel over a long list scrolls it, without events")
  func listScrolling() {
    var harness = ScreenHarness(
      size: TerminalSize(columns: 80, rows: 12),
      events: [
        .columnVisibilityChanged(.all), .categorySelected(Fixtures.three.ref("espresso-machines")),
        .itemExpanded(Fixtures.three.ref("espresso-machines/leva")),
        .itemExpanded(Fixtures.three.ref("espresso-machines/strada")),
      ])
    #expect(harness.lines.contains("▾ Leva"))
    let at = harness.find("Leva X")!
    let wheel = MouseEvent(.wheelDown, button: .none, column: at.column, row: at.row)
    #expect(harness.input(.mouse(wheel)).isEmpty)
    #expect(!harness.lines.contains("▾ Leva"))
    #expect(harness.lines.contains("↑"))
  }
}

@Suite("Navigation screen: drawing")
struct NavigationScreenDrawingTests {
  @Test("three columns: titles, placeholders, disclosure triangles, selection, the photo")
  func threeColumns() {
    var harness = ScreenHarness(events: [.columnVisibilityChanged(.all)])
    #expect(harness.lines.contains("┌ Espresso ─"))
    #expect(harness.lines.contains("┌ Items ─"))
    #expect(harness.lines.contains(NavigationState.selectMenuItemPlaceholder))
    #expect(harness.lines.contains(NavigationState.selectItemPlaceholder))
    #expect(harness.lines.contains("threeColumn · regular · landscape · visibility all"))
    harness.click("Espresso Machines")
    #expect(harness.lines.contains("● Espresso Machines"))
    #expect(harness.lines.contains("┌ Espresso Machines ─"))
    #expect(harness.lines.contains("▸ Leva"))
    #expect(harness.lines.contains("  KB90"))
    harness.click("KB90")
    #expect(harness.lines.contains("┌ KB90 ─"))
    #expect(harness.lines.contains("photo: kb90"))
    #expect(harness.lines.contains("espresso-machines/kb90"))
  }

  @Test("two columns: the detail lists the category's items, or asks for a category")
  func twoColumns() {
    var harness = ScreenHarness(Fixtures.two)
    #expect(harness.lines.contains(NavigationState.selectCategoryPlaceholder))
    #expect(harness.lines.contains("twoColumn"))
    harness.click("Grinders")
    #expect(harness.lines.contains("┌ Grinders ─"))
    #expect(harness.click("Vulcano") == [.itemSelected(harness.ref("grinders/vulcano"))])
    #expect(harness.lines.contains("● Vulcano"))
  }

  @Test("wide characters are measured by display width and clipped whole")
  func wideCharacters() {
    var harness = ScreenHarness(
      Fixtures.wide, size: TerminalSize(columns: 60, rows: 14),
      events: [.columnVisibilityChanged(.all)])
    #expect(harness.lines.contains("月曜日"))
    harness.click("日本")
    #expect(harness.lines.contains("● 日本"))
    // The long name is cut with an ellipsis inside its column's frame.
    let line = harness.canvas.lines.first { $0.contains("東京都") }!
    #expect(line.contains("…"))
    #expect(line.hasSuffix("│"))
  }

  @Test("a player draws without focus or highlight")
  func withoutFocus() {
    let domain = Fixtures.three
    var screen = domain.makeScreen()
    var canvas = Screen(size: TerminalSize(columns: 100, rows: 20))
    screen.draw(domain.initialState, in: canvas.bounds, on: &canvas, showsFocus: false)
    #expect(canvas.lines[0].contains("Monday"))
    let reversed = (0..<20).contains { row in
      (0..<100).contains { canvas[$0, row].style.reverse }
    }
    #expect(!reversed)
  }

  @Test("the screen draws only inside its area")
  func clipping() {
    let domain = Fixtures.three
    var screen = domain.makeScreen()
    var canvas = Screen(size: TerminalSize(columns: 100, rows: 30))
    let area = Rect(column: 10, row: 5, width: 70, height: 15)
    screen.draw(domain.initialState, in: area, on: &canvas, showsFocus: true)
    for row in 0..<30 {
      for column in 0..<100 where !area.contains(column: column, row: row) {
        #expect(canvas[column, row] == Cell.blank, "cell (\(column),\(row)) drawn outside")
      }
    }
  }

  @Test("live options: layout, device and size class; bad values named")
  func liveOptions() throws {
    let defaults = try NavigationDomain.liveSession(LiveOptions())
    #expect(defaults.domain.catalog.layout == .threeColumn)
    #expect(defaults.domain.settings.sizeClass == .regular)
    #expect(defaults.domain.settings.menuViewportWidth == 375)
    for (text, layout) in [
      ("three-column", SplitLayout.threeColumn), ("threeColumn", .threeColumn),
      ("two-column", .twoColumn), ("TwoColumn", .twoColumn),
    ] {
      #expect(
        try NavigationDomain.liveSession(LiveOptions(layout: text)).domain.catalog.layout == layout)
    }
    let phone = try NavigationDomain.liveSession(LiveOptions(layout: "twoColumn", device: "iphone"))
    #expect(phone.domain.catalog.layout == .twoColumn)
    #expect(phone.domain.settings.idiom == .phone)
    #expect(phone.domain.settings.sizeClass == .compact)
    #expect(phone.domain.settings.orientation == .portrait)
    #expect(phone.device == "iPhone (rewind live)")
    #expect(DeviceProfile(device: phone.device).idiom == .phone)
    let pad = try NavigationDomain.liveSession(LiveOptions(device: "ipad", sizeClass: "compact"))
    #expect(pad.domain.settings.idiom == .pad && pad.domain.settings.sizeClass == .compact)
    #expect(pad.domain.settings.menuViewportWidth == 1180)
    #expect(
      throws: LiveOptionError(
        option: "--layout", value: "four",
        expected: "expected twoColumn or threeColumn (or two-column, three-column)")
    ) {
      try NavigationDomain.liveSession(LiveOptions(layout: "four"))
    }
    #expect(
      throws: LiveOptionError(
        option: "--device", value: "Pixel", expected: "expected iphone or ipad")
    ) {
      try NavigationDomain.liveSession(LiveOptions(device: "Pixel"))
    }
    #expect(
      throws: LiveOptionError(
        option: "--size-class", value: "wide", expected: "expected regular or compact")
    ) {
      try NavigationDomain.liveSession(LiveOptions(sizeClass: "wide"))
    }
  }
}
