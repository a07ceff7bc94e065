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
         Monday  Tuesday  Wednesday  Thursday  Friday  Saturday  Sunday
        ━━━━━━━━────────────────────────────────────────────────────────

        threeColumn · regular · visibility automatic · style automatic
        ┌─ Items ──────────────────┬─ Detail ──────────────┐
        │ Please select a category │ Please select an item │
        └──────────────────────────┴───────────────────────┘
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
         Monday  Tuesday  Wednesday  Thursday  Friday  Saturday  Sunday    ⇠ scrolled 120.5 pt
        ─────────────────━━━━━━━━━━━────────────────────────────────────

        threeColumn · regular · visibility all · style prominentDetail · leading columns overlay the detail
        ┌─ Categories ─────────┬─ Espresso Machines ──┬─ Leva S ─────────────┐
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
          threeColumn · compact · visibility automatic · style automatic
          ┌─ Categories ─────────┐
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
          threeColumn · compact · visibility automatic · style automatic
          ‹ Categories
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
          ┌─ Categories ─────────┬─ Grinders ───────────┐
          │   Espresso Machines  │   Swift              │
          │ ● Grinders           │   Vulcano            │
          │   Other Equipments   │   Swift Mini         │
          │                      │ ● Lux D              │
          └──────────────────────┴──────────────────────┘
          """)
    let compact = two.state(after: .sizeClassChanged(.compact), two.category("other-equipments"))
    #expect(
      two.render(compact).contains(
        "‹ Categories\n┌─ Other Equipments ───┐\n│   Espresso AV        │"))
    let placeholder = two.state(after: .columnVisibilityChanged(.detailOnly))
    #expect(
      two.render(placeholder).hasSuffix(
        "│ Please select a category │\n└──────────────────────────┘"))
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
        // The underline is as wide as the labels; the label row ends with the scroll
        // offset, or else loses its last blank (trailing blanks are trimmed).
        if let scroll = lines[0].range(of: "   ⇠") {
          #expect(
            TerminalText.width(lines[0][..<scroll.lowerBound]) == TerminalText.width(lines[1]),
            "\(domain.render(state))")
        } else {
          #expect(
            TerminalText.width(lines[0]) + 1 == TerminalText.width(lines[1]),
            "\(domain.render(state))")
        }
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
         月曜日  🙂 Emoji day  Café ☕  Cafe\u{301} crème
        ────────━━━━━━━━━━━━━━─────────────────────

        threeColumn · regular · visibility automatic · style automatic
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
