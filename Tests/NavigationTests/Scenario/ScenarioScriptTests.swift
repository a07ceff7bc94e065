import Foundation
import Navigation
import RewindCore
import TestSupport
import Testing

@Suite("Scenario scripts")
struct ScenarioScriptTests {
  @Test(
    "rewind help scenario gives every setting, interaction and value the parser reads, with its syntax (rotate's compact and regular were missing)"
  )
  func helpCoversTheParser() throws {
    let help = ScenarioScript.help
    for form in [
      "layout three-column|two-column", "size regular|compact", "orientation portrait|landscape",
      "catalog sample|FILE", "device TEXT", "start TIME", "settings JSON", "tap LABEL|INDEX",
      "scroll POINTS", "resize POINTS", "select category NAME|none", "select item NAME|none",
      "expand NAME", "collapse NAME", "visibility automatic|all|double-column|detail-only",
      "style automatic|balanced|prominent-detail", "size compact|regular",
      "rotate portrait|landscape|compact|regular", "back", "id:TEXT", "expect CONDITION",
      "expect changed(PATH)", "expect rejected", "expect unchanged", "+0.8s", "@12.5s", "#",
    ] {
      #expect(help.contains(form), "\(form)")
    }
    // Every interaction the parser knows is a form of the help: at a line's start, or
    // after another on its line.
    for word in ScenarioScript.interactions {
      #expect(
        help.contains("\n  \(word) ") || help.contains("\n  \(word)\n")
          || help.contains(", \(word) "), "\(word)")
    }
    // Each line of the help's forms parses as the help says (the forms with a real value).
    for line in [
      "layout two-column\ntap Tuesday", "tap 1", "scroll 140.5", "resize 834",
      "select category Grinders", "select category none", "select item grinders/swift",
      "expand Leva", "collapse Leva", "visibility double-column", "style prominent-detail",
      "size compact", "rotate landscape", "rotate regular", "back",
      "select item id:no-such-item",
    ] {
      #expect(throws: Never.self, "\(line)") { try ScenarioScript.parse(line) }
    }
  }

  @Test("settings, time steps and every interaction parse to the events they name")
  func everything() throws {
    let script = """
      # A session touching every interaction.
      layout two-column
      size compact
      device iPhone 15 Pro, iOS 18.1
      start 2026-11-30T09:00:00Z

      tap Tuesday                     # tabs by label...
      +0.8s tap 6                     # ...or index
      +250ms scroll 140.5
      select category Grinders
      @5s select item Swift Mini      # items by name...
      select item grinders/lux-d      # ...or id
      select item swift               # ...or the last part of the id
      select item none
      expand leva
      collapse espresso-machines/leva
      visibility detail-only
      style prominentDetail
      size regular
      rotate compact
      back
      select category none
      select item id:no/such/thing
      rotate landscape
      resize 852
      """
    let scenario = try ScenarioScript.parse(script)
    let domain = scenario.domain
    #expect(domain.catalog.layout == .twoColumn)
    #expect(domain.initialSizeClass == .compact)
    // The device's profile: an iPhone, held upright, its strip as wide as its screen.
    #expect(domain.settings.idiom == .phone)
    #expect(domain.settings.orientation == .portrait)
    #expect(domain.settings.menuViewportWidth == 393)
    #expect(domain.settings.scrollsTappedTabIntoView)
    #expect(scenario.device == "iPhone 15 Pro, iOS 18.1")
    #expect(scenario.startTime == ISO8601.parse("2026-11-30T09:00:00Z"))
    let expected: [NavigationEvent] = [
      .menuTabTapped(index: 1), .menuTabTapped(index: 6), .menuScrolled(offset: 140.5),
      .categorySelected(domain.ref("grinders")), .itemSelected(domain.ref("grinders/swift-mini")),
      .itemSelected(domain.ref("grinders/lux-d")), .itemSelected(domain.ref("grinders/swift")),
      .itemSelected(nil), .itemExpanded(domain.ref("espresso-machines/leva")),
      .itemCollapsed(domain.ref("espresso-machines/leva")),
      .columnVisibilityChanged(.detailOnly), .splitStyleChanged(.prominentDetail),
      .sizeClassChanged(.regular), .sizeClassChanged(.compact), .backTapped,
      .categorySelected(nil), .itemSelected(try domain.internedRef("no/such/thing")),
      .orientationChanged(.landscape), .menuViewportResized(width: 852),
    ]
    #expect(scenario.events.map(\.event) == expected)
    #expect(
      scenario.events.map(\.time) == [
        0, 800_000, 1_050_000, 1_550_000, 5_000_000, 5_500_000, 6_000_000, 6_500_000,
        7_000_000, 7_500_000, 8_000_000, 8_500_000, 9_000_000, 9_500_000, 10_000_000,
        10_500_000, 11_000_000, 11_500_000, 12_000_000,
      ])
  }

  @Test(
    "a time step on the first interaction counts from the session start, as in an event script")
  func firstStep() throws {
    let stepped = try ScenarioScript.parse("+5s back\n+1s back\nback\n")
    #expect(stepped.events.map(\.time) == [5_000_000, 6_000_000, 6_500_000])
    // Without one, the first interaction is at the start.
    #expect(try ScenarioScript.parse("back\nback\n").events.map(\.time) == [0, 500_000])
  }

  @Test("the orientation setting, and the device's profile when it names none")
  func orientation() throws {
    let portrait = try ScenarioScript.parse(
      "device iPad Pro 11-inch (M4), iPadOS 18.1\norientation portrait\n")
    #expect(portrait.domain.settings.idiom == .pad)
    #expect(portrait.domain.settings.orientation == .portrait)
    #expect(portrait.domain.settings.menuViewportWidth == 834)
    let landscape = try ScenarioScript.parse("device iPad Pro 11-inch (M4), iPadOS 18.1\n")
    #expect(landscape.domain.settings.orientation == .landscape)
    #expect(landscape.domain.settings.menuViewportWidth == 1210)
    let unknown = try ScenarioScript.parse("device a toaster\n")
    #expect(unknown.domain.settings == NavigationSettings.sample)
  }

  /// An iPhone's script without a size line recorded a regular width in portrait, which
  /// no iPhone has (its back button then rejected).
  @Test("the size class is the device's when no line gives it: an iPhone's compact")
  func deviceSizeClass() throws {
    let phone = try ScenarioScript.parse(
      "device iPhone 15, iOS 18.1\nselect category Grinders\nback")
    #expect(phone.domain.settings.sizeClass == .compact)
    var state = phone.domain.initialState
    let outcomes = phone.events.map { phone.domain.reduce(&state, $0.event) }
    #expect(outcomes.allSatisfy { if case .rejected = $0 { false } else { true } }, "\(outcomes)")
    #expect(
      try ScenarioScript.parse("device iPhone 15\nsize regular\n").domain.settings.sizeClass
        == .regular)
    #expect(
      try ScenarioScript.parse("device iPad Pro 11-inch\n").domain.settings.sizeClass == .regular)
    #expect(try ScenarioScript.parse("tap 1").domain.settings.sizeClass == .regular)
  }

  @Test("an empty script is the sample domain with no events")
  func empty() throws {
    let scenario = try ScenarioScript.parse("# nothing yet\n\n")
    #expect(scenario.events.isEmpty)
    #expect(scenario.domain.catalog.layout == .threeColumn)
    #expect(scenario.domain.initialSizeClass == .regular)
  }

  @Test(
    "mistakes give the line, the column and what was expected",
    arguments: [
      (
        "tap Someday", 1, 5,
        "no tab is labelled 'Someday'; the tabs are Monday, Tuesday, Wednesday, Thursday, Friday, Saturday, Sunday"
      ),
      (
        "tap Monday\njump 3", 2, 1,
        "expected an interaction (tap, scroll, resize, select, expand, collapse, visibility, style, size, rotate, back), found 'jump'"
      ),
      (
        "rotate sideways", 1, 8,
        "expected portrait or landscape (or compact or regular), found 'sideways'"
      ),
      ("resize wide", 1, 8, "expected a width in points such as 834, found 'wide'"),
      ("orientation upside-down", 1, 13, "expected portrait or landscape, found 'upside-down'"),
      (
        "tap 1\norientation portrait", 2, 1,
        "the 'orientation' setting must come before the first interaction"
      ),
      ("select thing grinders", 1, 8, "expected 'category' or 'item', found 'thing'"),
      ("select category", 1, 16, "expected a name, an id or 'none'"),
      (
        "select item Teapot", 1, 13,
        "nothing in the catalog is called 'Teapot'; write its id (e.g. espresso-machines/leva) or id:TEXT for an id the catalog lacks"
      ),
      ("scroll far", 1, 8, "expected an offset in points such as 140.5, found 'far'"),
      ("+2x tap 1", 1, 1, "expected a time step such as +0.8s, +250ms or @12.5s, found '+2x'"),
      // Three of them would not make 1.2 µs (walk of import/export, IO-5).
      ("+0.4us back", 1, 1, "'+0.4us' is finer than a microsecond, the unit of a journal's times"),
      (
        "@1m0.0000005s back", 1, 1,
        "'@1m0.0000005s' is finer than a microsecond, the unit of a journal's times"
      ),
      (
        "tap 1\n@99999999999999999999s tap 2", 2, 1,
        "'@99999999999999999999s' is too large: the session would last longer than 8760000 hours"
      ),
      (
        "tap 1\n+9000000000000s tap 2", 2, 17,
        "the session would last longer than 8760000 hours"
      ),
      ("@2s tap 1\n@1s tap 2", 2, 1, "@1s is before the previous interaction at +2s"),
      ("+1s", 1, 4, "expected an interaction after the time step"),
      ("layout four-column", 1, 8, "expected three-column or two-column, found 'four-column'"),
      (
        "tap 1\nlayout two-column", 2, 1,
        "the 'layout' setting must come before the first interaction"
      ),
      (
        "layout two-column\nsize compact\nlayout three-column", 3, 1,
        "the 'layout' setting is given twice, on line 1 and here"
      ),
      (
        "size compact\nsize regular\ntap 1", 2, 1,
        "the 'size' setting is given twice, on line 1 and here; after the first interaction, 'size' changes the size class"
      ),
      (
        "visibility most", 1, 12,
        "expected automatic, all, double-column or detail-only, found 'most'"
      ),
      ("back now", 1, 6, "unexpected 'now'"),
      ("size medium", 1, 6, "expected compact or regular, found 'medium'"),
      ("start yesterday", 1, 7, "expected an ISO-8601 time such as 2026-11-30T09:00:00Z"),
      (
        "tap 99999999999999999999", 1, 5,
        "99999999999999999999 is not a tab index: the menu has 7 tabs, 0 to 6"
      ),
      (
        "tap -99999999999999999999", 1, 5,
        "-99999999999999999999 is not a tab index: the menu has 7 tabs, 0 to 6"
      ),
      (
        "device iPad\u{9B}2J mini", 1, 8,
        #"the device "iPad\u{9B}2J mini" contains a control character (U+009B)"#
      ),
      (
        "select category id:a\u{2066}b", 1, 17,
        #"the id "a\u{2066}b" contains a control character (U+2066)"#
      ),
      ("settings", 1, 9, "expected the settings' JSON after 'settings'"),
      (
        "layout two-column\nsettings {}", 2, 1,
        "'settings' gives the whole settings, the layout, size, orientation and catalog among them: the 'layout' setting on line 1 and 'settings' here cannot both be given"
      ),
      (
        "catalog sample\nsettings {}", 2, 1,
        "'settings' gives the whole settings, the layout, size, orientation and catalog among them: the 'catalog' setting on line 1 and 'settings' here cannot both be given"
      ),
    ])
  func mistakes(script: String, line: Int, column: Int, message: String) {
    let error = #expect(throws: ScenarioError.self) { try ScenarioScript.parse(script) }
    #expect(error?.line == line)
    #expect(error?.column == column)
    #expect(error?.message == message)
  }

  @Test(
    "a word that is none of the choices comes with them, for the tool to say which was meant",
    arguments: [
      ("selct category grinders", "selct", ScenarioScript.interactions),
      ("style balancd", "balancd", ["automatic", "balanced", "prominent-detail"]),
      ("visibility al", "al", ["automatic", "all", "double-column", "detail-only"]),
      ("size compat", "compat", ["compact", "regular"]),
      ("rotate portrat", "portrat", ["portrait", "landscape", "compact", "regular"]),
      ("orientation landscap", "landscap", ["portrait", "landscape"]),
      ("layout four-column", "four-column", ["three-column", "two-column"]),
      ("select categry grinders", "categry", ["category", "item"]),
      (
        "tap Tuesdy", "Tuesdy",
        ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
      ),
    ])
  func choices(script: String, word: String, choices: [String]) {
    let error = #expect(throws: ScenarioError.self) { try ScenarioScript.parse(script) }
    #expect(error?.word == word)
    #expect(error?.choices == choices)
  }

  @Test(
    "a name the catalog lacks comes with the catalog's names, then its ids",
    arguments: [
      ("select category Grinder", "Grinder", "Grinders"),
      ("select item levva", "levva", "espresso-machines/leva"),
    ])
  func catalogChoices(script: String, word: String, choice: String) throws {
    let error = #expect(throws: ScenarioError.self) { try ScenarioScript.parse(script) }
    #expect(error?.word == word)
    let catalog = Catalog.sample
    #expect(
      error?.choices
        == catalog.allNodes.map { catalog.name(of: $0) }
        + catalog.allNodes.map { catalog.id(of: $0) })
    #expect(error?.choices.contains(choice) == true)
  }

  @Test("a mistake of another kind has no word and no choices")
  func noChoices() {
    let error = #expect(throws: ScenarioError.self) { try ScenarioScript.parse("resize wide") }
    #expect(error?.word == "")
    #expect(error?.choices == [])
  }

  @Test("a custom catalog file is read relative to the script")
  func catalogFile() throws {
    let temporary = TemporaryDirectory()
    let directory = temporary.path
    let catalog = try Catalog(
      layout: .threeColumn, menuLabels: ["One", "Two"],
      categories: [Catalog.Node("Teas", image: "teas", children: [Catalog.Node("Green")])])
    write(catalog.json.compactText, to: temporary.file("teas.json"))
    let scenario = try ScenarioScript.parse(
      "catalog teas.json\nlayout two-column\ntap Two\nselect category teas\nselect item green",
      directory: directory)
    #expect(scenario.domain.catalog.menuLabels == ["One", "Two"])
    #expect(scenario.domain.catalog.layout == .twoColumn)
    #expect(scenario.events.count == 3)
    // The catalog is an input of the recording: `record` never writes over it.
    #expect(scenario.files == [temporary.file("teas.json")])
    #expect(
      throws: ScenarioError(
        line: 1, column: 9,
        "cannot read the catalog file: \(temporary.file("missing.json")): no such file")
    ) {
      try ScenarioScript.parse("catalog missing.json", directory: directory)
    }
  }

  @Test("a catalog file's own layout is the session's unless a layout line gives another")
  func catalogFileLayout() throws {
    let temporary = TemporaryDirectory()
    let catalog = try Catalog(
      layout: .twoColumn, menuLabels: ["One", "Two"],
      categories: [Catalog.Node("Teas", image: "teas", children: [Catalog.Node("Green")])])
    write(catalog.json.compactText, to: temporary.file("two.json"))
    let directory = temporary.path
    #expect(
      try ScenarioScript.parse("catalog two.json\ntap 1", directory: directory).domain.catalog
        .layout == .twoColumn)
    #expect(
      try ScenarioScript.parse("catalog two.json\nlayout three-column\ntap 1", directory: directory)
        .domain.catalog.layout == .threeColumn)
    #expect(try ScenarioScript.parse("tap 1").domain.catalog.layout == .threeColumn)
    // The keywords `sample` and `none` in any case, as the others.
    let sample = try ScenarioScript.parse("catalog Sample\nselect item None\nSELECT CATEGORY NONE")
    #expect(sample.domain.catalog.layout == .threeColumn)
    #expect(sample.events.map(\.event) == [.itemSelected(nil), .categorySelected(nil)])
  }

  @Test("a tab's label as written wins over one in another case; labels alike are refused")
  func tabLabels() throws {
    let temporary = TemporaryDirectory()
    let catalog = try Catalog(
      layout: .threeColumn, menuLabels: ["Mon", "a", "A", "Tue", "TUE"],
      categories: [Catalog.Node("Teas", image: "teas", children: [Catalog.Node("Green")])])
    write(catalog.json.compactText, to: temporary.file("labels.json"))
    func taps(_ script: String) throws -> [NavigationEvent] {
      try ScenarioScript.parse("catalog labels.json\n" + script, directory: temporary.path)
        .events.map(\.event)
    }
    #expect(
      try taps("tap A\ntap a\ntap mon\ntap TUE") == [2, 1, 0, 4].map(NavigationEvent.menuTabTapped))
    #expect(
      throws: ScenarioError(
        line: 2, column: 5, "'tue' labels several tabs: 3 ('Tue'), 4 ('TUE'); tap one by its index")
    ) { try taps("tap tue") }
  }

  @Test(
    "a settings line gives the whole settings as JSON, a # in it being text; bad ones are named")
  func settingsLine() throws {
    let catalog = try Catalog(
      layout: .twoColumn, menuLabels: ["Mon #1", "Tue"],
      categories: [Catalog.Node("Teas", image: "teas", children: [Catalog.Node("Green")])])
    let settings = NavigationSettings(
      catalog: catalog, idiom: .phone, sizeClass: .compact, orientation: .portrait,
      menuViewportWidth: 321.5, scrollsTappedTabIntoView: false)
    let scenario = try ScenarioScript.parse(
      "settings \(settings.json.compactText)\ndevice My Phone\ntap 1\nselect category teas")
    #expect(scenario.domain.settings == settings)
    #expect(scenario.device == "My Phone")
    #expect(scenario.events.count == 2)
    // Written back: one settings line where layout, size and orientation lines would not
    // make them; those lines for the sample's settings on the device named.
    #expect(
      ScenarioScript.preamble(scenario)
        == "settings \(settings.json.compactText)\ndevice My Phone\n\n")
    let sample = try ScenarioScript.parse("device iPhone 15\nsize compact\ntap 1")
    #expect(
      ScenarioScript.preamble(sample)
        == "layout three-column\nsize compact\norientation portrait\ndevice iPhone 15\n\n")
    #expect(
      throws: ScenarioError(
        line: 2, column: 1,
        "'settings' gives the whole settings, the layout, size, orientation and catalog among them: the 'settings' setting on line 1 and 'size' here cannot both be given"
      )
    ) { try ScenarioScript.parse("settings \(settings.json.compactText)\nsize compact") }
    for (text, message) in [
      ("settings {\"catalog\": ", "the settings are not JSON: "),
      ("settings [1]", "the settings are not the navigation domain's: "),
    ] {
      let error = #expect(throws: ScenarioError.self) { try ScenarioScript.parse(text) }
      #expect(error?.message.hasPrefix(message) == true, "\(text): \(error?.message ?? "")")
      #expect(error?.column == 10)
    }
  }

  @Test("CRLF line ends and a byte-order mark read as the same script")
  func crlf() throws {
    let plain = try ScenarioScript.parse("# c\nlayout two-column\ntap 1\n+1s back\n")
    let windows = try ScenarioScript.parse(
      "\u{FEFF}# c\r\nlayout two-column\r\ntap 1\r\n+1s back\r\n")
    #expect(windows.events.count == 2)
    #expect(windows.events.map(\.event) == plain.events.map(\.event))
    #expect(windows.events.map(\.time) == plain.events.map(\.time))
    #expect(windows.domain.catalog.layout == .twoColumn)
    #expect(
      throws: ScenarioError(
        line: 2, column: 1,
        "expected an interaction (tap, scroll, resize, select, expand, collapse, visibility, style, size, rotate, back), found 'jump'",
        word: "jump", choices: ScenarioScript.interactions
      )
    ) {
      try ScenarioScript.parse("tap 1\r\njump\r\n")
    }
  }

  @Test(
    "a size class change first at the session's start is written after @0s, which reads back as it (its line alone reads as the setting)"
  )
  func sizeFirstWritten() throws {
    for text in [
      "size regular\n+0s size compact\n+1s tap 1", "size regular\n@0s size compact\n",
      "tap 1\n+0s size compact", "@2s size compact\n+1s size regular",
    ] {
      let scenario = try ScenarioScript.parse(text)
      let written = ScenarioScript.write(scenario)
      let again = try ScenarioScript.parse(written)
      #expect(again.events.map(\.event) == scenario.events.map(\.event), "\(text) → \(written)")
      #expect(again.events.map(\.time) == scenario.events.map(\.time), "\(text) → \(written)")
      #expect(again.domain.settings == scenario.domain.settings, "\(text) → \(written)")
    }
    let written = ScenarioScript.write(try ScenarioScript.parse("size regular\n+0s size compact"))
    #expect(written.hasSuffix("\n\n@0s size compact\n"), "\(written)")
    // Another first interaction at the start is written with no time, as before.
    let tap = ScenarioScript.write(try ScenarioScript.parse("tap 1\n+0s size compact"))
    #expect(tap.hasSuffix("\n\ntap 1\n+0s size compact\n"), "\(tap)")
  }
}
