import Navigation
import RewindCore
import Testing

@Suite("Text rendering")
struct RenderingTests {
  let three = Fixtures.three
  let two = Fixtures.two

  @Test("regular, nothing selected: the placeholders")
  func placeholders() {
    #expect(
      three.render(three.initialState) == """
         Monday  Tuesday  Wednesday  ›
        ━━━━━━━━─────────────────────

        threeColumn · regular · landscape · visibility automatic · style automatic
        ┌─ Items ───────────────────┬─ Detail ──────────────┐
        │ Please select a menu item │ Please select an item │
        └───────────────────────────┴───────────────────────┘
        """)
  }

  @Test("regular, all columns: selection, expanded items, the hidden selection, the overlay")
  func allColumns() {
    let state = three.state(
      after: .columnVisibilityChanged(.all), .splitStyleChanged(.prominentDetail),
      .menuTabTapped(index: 2), .menuScrolled(offset: 120.5), three.category("espresso-machines"),
      .itemExpanded(three.ref("espresso-machines/strada")),
      three.item("espresso-machines/leva/leva-s"))
    #expect(
      three.render(state) == """
        ‹Tuesday  Wednesday  Thursday ›
         ────────━━━━━━━━━━━──────────

        threeColumn · regular · landscape · visibility all · style prominentDetail · leading columns overlay the detail
        ┌─ Espresso ───────────┬─ Espresso Machines ──┬─ Leva S ─────────────┐
        │ ● Espresso Machines  │ ◦ ▸ Leva             │ ╭───────────────╮    │
        │   Grinders           │   ▾ Strada           │ │ photo: leva-s │    │
        │   Other Equipments   │     Strada EP        │ ╰───────────────╯    │
        │                      │     Strada AV        │                      │
        │                      │     Strada MP        │                      │
        │                      │     Strada EE        │                      │
        │                      │     KB90             │                      │
        │                      │   ▸ Linea            │                      │
        │                      │     GB5              │                      │
        │                      │   ▸ Home             │                      │
        └──────────────────────┴──────────────────────┴──────────────────────┘
        """)
  }

  @Test("compact: one column; a back affordance except on the sidebar")
  func compact() {
    let sidebar = three.state(after: .sizeClassChanged(.compact))
    #expect(
      three.render(sidebar).split(separator: "\n", omittingEmptySubsequences: false).suffix(5)
        .joined(separator: "\n")
          == """
          threeColumn · compact · landscape · visibility automatic · style automatic
          ┌─ Espresso ───────────┐
          │   Espresso Machines  │
          │   Grinders           │
          │   Other Equipments   │
          └──────────────────────┘
          """.split(separator: "\n", omittingEmptySubsequences: false).suffix(5).joined(
          separator: "\n"))
    let content = three.state(
      after: three.category("espresso-machines"),
      .itemExpanded(three.ref("espresso-machines/leva")),
      from: sidebar)
    #expect(
      three.render(content).split(separator: "\n", omittingEmptySubsequences: false).dropFirst(3)
        .joined(separator: "\n") == """
          threeColumn · compact · landscape · visibility automatic · style automatic
          ‹ Espresso
          ┌─ Espresso Machines ──┐
          │   ▾ Leva             │
          │     Leva X           │
          │     Leva S           │
          │   ▸ Strada           │
          │     KB90             │
          │   ▸ Linea            │
          │     GB5              │
          │   ▸ Home             │
          └──────────────────────┘
          """)
    let detail = three.state(
      after: three.category("grinders"), three.item("grinders/swift-mini"), from: sidebar)
    #expect(
      three.render(detail).split(separator: "\n", omittingEmptySubsequences: false).dropFirst(4)
        .joined(separator: "\n") == """
          ‹ Grinders
          ┌─ Swift Mini ──────────┐
          │ ╭───────────────────╮ │
          │ │ photo: swift-mini │ │
          │ ╰───────────────────╯ │
          └───────────────────────┘
          """)
  }

  @Test("two columns: the detail lists the category's items")
  func twoColumns() {
    let state = two.state(after: two.category("grinders"), two.item("grinders/lux-d"))
    #expect(
      two.render(state).split(separator: "\n", omittingEmptySubsequences: false).dropFirst(4)
        .joined(separator: "\n") == """
          ┌─ Espresso ───────────┬─ Grinders ───────────┐
          │   Espresso Machines  │   Swift              │
          │ ● Grinders           │   Vulcano            │
          │   Other Equipments   │   Swift Mini         │
          │                      │ ● Lux D              │
          └──────────────────────┴──────────────────────┘
          """)
    let compact = two.state(after: .sizeClassChanged(.compact), two.category("other-equipments"))
    #expect(
      two.render(compact).contains(
        "‹ Espresso\n┌─ Other Equipments ───┐\n│   Espresso AV        │"))
    let placeholder = two.state(after: .columnVisibilityChanged(.detailOnly))
    #expect(
      two.render(placeholder).hasSuffix(
        "│ Please select a category │\n└──────────────────────────┘"))
  }

  @Test("the strip is drawn as its scroll view shows it, cut where it goes on out of view")
  func strip() {
    let end = three.state(after: .menuTabTapped(index: 6))
    #expect(
      three.render(end).hasPrefix(
        """
        ‹ay  Friday  Saturday  Sunday
         ─────────────────────━━━━━━━━

        """))
    // A strip that fits its viewport shows whole, as the tutorial draws it.
    let ipad = NavigationDomain(NavigationSettings(device: DeviceProfile(device: "iPad mini")))
    #expect(
      ipad.render(ipad.state(after: .menuTabTapped(index: 6))).hasPrefix(
        """
         Monday  Tuesday  Wednesday  Thursday  Friday  Saturday  Sunday
        ────────────────────────────────────────────────────────━━━━━━━━

        """))
    // Turned to portrait, the iPad's detail takes the screen.
    let portrait = ipad.state(after: .orientationChanged(.portrait))
    #expect(
      ipad.render(portrait).hasSuffix(
        """
        threeColumn · regular · portrait · visibility automatic · style automatic
        ┌─ Detail ──────────────┐
        │ Please select an item │
        └───────────────────────┘
        """))
  }

  @Test("every state of a random sequence renders with aligned boxes and underline")
  func alignment() {
    for domain in [three, two, Fixtures.large, Fixtures.wide] {
      var state = domain.initialState
      for event in RandomSequenceTests.events(domain, seed: 13, count: 400) {
        _ = domain.reduce(&state, event)
        let lines = domain.render(state).split(separator: "\n", omittingEmptySubsequences: false)
        let box = lines.drop { !$0.hasPrefix("┌") }
        let widths = Set(box.map(TerminalText.width))
        #expect(widths.count == 1, "\(domain.render(state))")
        // The underline is as wide as the labels above it: the label row has a `›` more
        // where the strip goes on out of view, or else loses its last blank (trailing
        // blanks are trimmed).
        let labels = TerminalText.width(lines[0])
        let underline = TerminalText.width(lines[1])
        #expect(
          lines[0].hasSuffix("›") ? labels == underline + 1 : labels + 1 == underline,
          "\(domain.render(state))")
      }
    }
  }

  @Test("wide characters, emoji and combining marks take the columns a terminal gives them")
  func wideCharacters() {
    let wide = Fixtures.wide
    let state = wide.state(
      after: .menuTabTapped(index: 1), wide.category("日本"),
      .itemExpanded(wide.ref("日本/東京都渋谷区神宮前一丁目二番三号のお店")),
      wide.item("日本/東京都渋谷区神宮前一丁目二番三号のお店/カフェ"))
    #expect(
      wide.render(state) == """
         月曜日  🙂 Emoji day  Café ☕  Ca›
        ────────━━━━━━━━━━━━━━────────────

        threeColumn · regular · landscape · visibility automatic · style automatic
        ┌─ 日本 ─────────────────────────────┬─ カフェ ─────────────┐
        │     月曜日                         │ ╭──────────╮         │
        │     🙂 Emoji day                   │ │ no photo │         │
        │   ▾ 東京都渋谷区神宮前一丁目二番…  │ ╰──────────╯         │
        │ ●   カフェ                         │                      │
        └────────────────────────────────────┴──────────────────────┘
        """)
    let cafe = wide.state(after: wide.category("café"), wide.item("café/café-crème"))
    #expect(wide.render(cafe).contains("┬─ Cafe\u{301} crème ─────────┐"))
    #expect(wide.render(cafe).contains("│ ╭──────────────╮     │"))
    #expect(wide.render(cafe).contains("│ │ photo: crème │     │"))
  }

  @Test("long names are cut with an ellipsis")
  func longNames() throws {
    let catalog = try Catalog(
      menuLabels: ["A"],
      categories: [Catalog.Node("A very long category name that does not fit in a column")])
    let domain = NavigationDomain(catalog: catalog)
    let state = domain.state(
      after: domain.category("a-very-long-category-name-that-does-not-fit-in-a-column"),
      .columnVisibilityChanged(.all))
    let text = domain.render(state)
    #expect(text.contains("│ ● A very long category name that…  │ No items"))
    #expect(text.contains("┬─ A very long category name that… ──┬"))
  }
}
