import Navigation
import RewindCore
import Testing

@Suite("State JSON and fields")
struct StateJSONTests {
  let three = Fixtures.three

  @Test("the initial state has the documented JSON")
  func initialJSON() {
    #expect(
      three.json(three.initialState).compactText
        == #"{"menu":{"labels":["Monday","Tuesday","Wednesday","Thursday","Friday","Saturday","Sunday"],"selectedIndex":0,"scrollOffset":0.0,"viewportWidth":375.0},"split":{"layout":"threeColumn","selectedCategory":null,"selectedItem":null,"expanded":[],"columnVisibility":"automatic","style":"automatic","sizeClass":"regular","orientation":"landscape","compactColumn":"sidebar","visibleColumns":["content","detail"],"overlay":false}}"#
    )
  }

  @Test("ids, sorted expanded ids and derived fields")
  func populatedJSON() {
    let state = three.state(
      after: .itemExpanded(three.ref("grinders")),
      .itemExpanded(three.ref("espresso-machines/strada")),
      .itemExpanded(three.ref("espresso-machines/home")), three.category("espresso-machines"),
      three.item("espresso-machines/strada/strada-av"), .splitStyleChanged(.prominentDetail),
      .columnVisibilityChanged(.all), .menuScrolled(offset: 33.5))
    let json = three.json(state)
    #expect(json.value(atPath: "split.selectedCategory") == "espresso-machines")
    #expect(json.value(atPath: "split.selectedItem") == "espresso-machines/strada/strada-av")
    #expect(
      json.value(atPath: "split.expanded")
        == ["espresso-machines/home", "espresso-machines/strada", "grinders"])
    #expect(json.value(atPath: "split.visibleColumns") == ["sidebar", "content", "detail"])
    #expect(json.value(atPath: "split.overlay") == true)
    #expect(json.value(atPath: "menu.scrollOffset") == 33.5)
  }

  @Test("fields are the JSON's leaves, in order, with the same values")
  func fieldsAreLeaves() {
    let paths = [
      "menu.labels", "menu.selectedIndex", "menu.scrollOffset", "menu.viewportWidth",
      "split.layout", "split.selectedCategory", "split.selectedItem", "split.expanded",
      "split.columnVisibility", "split.style", "split.sizeClass", "split.orientation",
      "split.compactColumn", "split.visibleColumns", "split.overlay",
    ]
    #expect(three.fields.map(\.path) == paths)
    #expect(NavigationField.allCases.map(\.path) == paths)
    var state = three.initialState
    for event in RandomSequenceTests.events(three, seed: 3, count: 300) {
      _ = three.reduce(&state, event)
      let leaves = three.json(state).leaves()
      #expect(leaves.map(\.path) == paths)
      #expect(leaves.map(\.value) == three.fields.map { $0.value(state) })
    }
  }

  @Test("schema 1's fields are today's without menu.viewportWidth and split.orientation")
  func schema1Fields() {
    let paths = three.fieldPaths(schemaVersion: 1)
    #expect(paths.count == 13)
    #expect(
      paths
        == three.fields.map(\.path).filter {
          $0 != "menu.viewportWidth" && $0 != "split.orientation"
        })
    #expect(three.fieldPaths(schemaVersion: 2) == three.fields.map(\.path))
    let upcast = SchemaUpcast(from: 1, domain: three)
    #expect(upcast.addedPaths == ["menu.viewportWidth", "split.orientation"])
    // Schema 1's split.compactColumn (10) is today's 12.
    #expect(upcast.currentFields(FieldSet(field: 10)) == FieldSet(field: 12))
  }

  @Test("the domain's identity")
  func identity() {
    #expect(NavigationDomain.identifier == "navigation")
    #expect(NavigationDomain.schemaVersion == 2)
    #expect(NavigationDomain.readableSchemaVersions == 1...2)
    #expect(NavigationDomain.eventKinds.count == 12)
    #expect(_isPOD(NavigationEvent.self), "events must be trivially copyable")
    #expect(_isPOD(NavigationRejection.self))
    #expect(MemoryLayout<NavigationEvent>.size <= 9)
  }
}
