import Navigation
import RewindCore
import Testing

@Suite("Catalog")
struct CatalogTests {
  let catalog = Catalog.sample

  @Test(
    "slugs: letters and digits of any script, lowercased, NFC; runs of anything else become one dash",
    arguments: [
      ("Espresso Machines", "espresso-machines"), ("Linea PB X", "linea-pb-x"), ("KB90", "kb90"),
      ("  Lux D  ", "lux-d"), ("Café Crème", "café-crème"), ("a--b__c", "a-b-c"), ("!!!", ""),
      ("GS3", "gs3"), ("Other Equipments", "other-equipments"), ("x/y", "x-y"),
      ("Café ☕", "café"), ("日本", "日本"), ("月曜日", "月曜日"), ("🙂 Emoji day", "emoji-day"),
      // A combining accent is composed: the same id as the precomposed name.
      ("Cafe\u{301} ☕", "café"), ("ÉCOLE", "école"), ("Straße 3", "straße-3"),
      ("Ελληνικά", "ελληνικά"), ("हिन्दी", "हिन्दी"), ("☕ ☕", ""), ("١٢٣", "١٢٣"),
    ])
  func slug(name: String, slug: String) {
    #expect(Catalog.slug(name) == slug)
  }

  @Test("the sample tree, ids in depth-first order")
  func sampleIDs() {
    #expect(
      catalog.allNodes.map(catalog.id(of:)) == [
        "espresso-machines", "espresso-machines/leva", "espresso-machines/leva/leva-x",
        "espresso-machines/leva/leva-s", "espresso-machines/strada",
        "espresso-machines/strada/strada-ep", "espresso-machines/strada/strada-av",
        "espresso-machines/strada/strada-mp", "espresso-machines/strada/strada-ee",
        "espresso-machines/kb90", "espresso-machines/linea", "espresso-machines/linea/linea-pb-x",
        "espresso-machines/linea/linea-pb", "espresso-machines/linea/linea-classic",
        "espresso-machines/gb5", "espresso-machines/home", "espresso-machines/home/gs3",
        "espresso-machines/home/linea-mini", "grinders", "grinders/swift", "grinders/vulcano",
        "grinders/swift-mini", "grinders/lux-d", "other-equipments",
        "other-equipments/espresso-av", "other-equipments/espresso-ep",
        "other-equipments/pour-over", "other-equipments/steam",
      ])
    #expect(
      catalog.menuLabels == [
        "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
      ])
    #expect(catalog.layout == .threeColumn)
    #expect(Catalog.sample(layout: .twoColumn).layout == .twoColumn)
  }

  @Test("names and images of the sample")
  func sampleNames() throws {
    let leva = try #require(catalog.ref(of: "espresso-machines/leva"))
    #expect(catalog.name(of: leva) == "Leva")
    #expect(catalog.image(of: leva) == "leva-x")
    let machines = try #require(catalog.ref(of: "espresso-machines"))
    #expect(catalog.image(of: machines) == "linea-mini")
    #expect(catalog.image(of: try #require(catalog.ref(of: "grinders"))) == "swift-mini")
    #expect(catalog.image(of: try #require(catalog.ref(of: "other-equipments"))) == "espresso-ep")
    #expect(catalog.image(of: try #require(catalog.ref(of: "espresso-machines/home"))) == "gs3")
    // The tutorial's words: Pour Over's image is `pourover`, and every item has one.
    let pourOver = try #require(catalog.ref(of: "other-equipments/pour-over"))
    #expect(catalog.image(of: pourOver) == "pourover")
    #expect(catalog.allNodes.allSatisfy { !catalog.image(of: $0).isEmpty })
    // The last group of espresso machines keeps La Marzocco's name for it.
    #expect(catalog.name(of: try #require(catalog.ref(of: "espresso-machines/home"))) == "Home")
  }

  @Test("the menu's label widths: 11 points a character and 40 of padding, unless given")
  func labelWidths() throws {
    #expect(Catalog.labelWidth("Monday") == 106)
    #expect(catalog.menuLabelWidths == [106, 117, 139, 128, 106, 128, 106])
    #expect(catalog.menuContentWidth == 830)
    let custom = try Catalog(
      menuLabels: ["A", "B"], menuLabelWidths: [50.5, 60], categories: Catalog.sampleTree)
    #expect(custom.menuContentWidth == 110.5)
    let reread = try Catalog(json: custom.json)
    #expect(reread == custom)
    #expect(reread.menuLabelWidths == [50.5, 60])
    #expect(reread != (try Catalog(menuLabels: ["A", "B"], categories: Catalog.sampleTree)))
    #expect(throws: DomainError.self) {
      try Catalog(menuLabels: ["A"], menuLabelWidths: [0], categories: Catalog.sampleTree)
    }
    #expect(throws: DomainError.self) {
      try Catalog(menuLabels: ["A"], menuLabelWidths: [.infinity], categories: Catalog.sampleTree)
    }
  }

  @Test("lookups: parent, category, depth, children, descendants")
  func lookups() throws {
    func ref(_ id: String) throws -> NodeRef { try #require(catalog.ref(of: id)) }
    let machines = try ref("espresso-machines")
    let leva = try ref("espresso-machines/leva")
    let levaS = try ref("espresso-machines/leva/leva-s")
    let grinders = try ref("grinders")
    #expect(catalog.ref(of: "espresso-machines/leva/leva-z") == nil)
    #expect(catalog.categories == [machines, grinders, try ref("other-equipments")])
    #expect(catalog.parent(of: machines) == nil)
    #expect(catalog.parent(of: levaS) == leva)
    #expect(catalog.category(of: levaS) == machines)
    #expect(catalog.category(of: grinders) == grinders)
    #expect(
      [catalog.depth(of: machines), catalog.depth(of: leva), catalog.depth(of: levaS)] == [0, 1, 2])
    #expect(
      catalog.children(of: leva).map(catalog.id(of:)) == [
        "espresso-machines/leva/leva-x", "espresso-machines/leva/leva-s",
      ])
    #expect(catalog.children(of: grinders).count == 4)
    #expect(catalog.children(of: machines).count == 6)
    #expect(catalog.hasChildren(leva) && !catalog.hasChildren(levaS))
    #expect(!catalog.hasChildren(NodeRef(index: 1_000)))
    #expect(catalog.isCategory(grinders) && !catalog.isCategory(leva))
    #expect(catalog.isDescendant(levaS, of: machines) && catalog.isDescendant(levaS, of: leva))
    #expect(
      !catalog.isDescendant(machines, of: machines) && !catalog.isDescendant(levaS, of: grinders))
    #expect(!catalog.isDescendant(grinders, of: machines))
  }

  @Test("JSON round trip, and the same through Codable")
  func jsonRoundTrip() throws {
    let decoded = try Catalog(json: catalog.json)
    #expect(decoded == catalog)
    #expect(decoded.json.compactText == catalog.json.compactText)
    #expect(Catalog.sample(layout: .twoColumn) != catalog)
  }

  @Test("minimal JSON: layout, image and children are optional")
  func minimalJSON() throws {
    let decoded = try Catalog(
      json: JSONValue(parsing: #"{"menuLabels":["A"],"categories":[{"name":"Tea"}]}"#))
    #expect(decoded.layout == .threeColumn)
    #expect(decoded.nodeCount == 1)
    #expect(decoded.image(of: NodeRef(index: 0)) == "")
  }

  static func node(_ name: String, _ image: String, _ children: [Catalog.Node]) -> Catalog.Node {
    Catalog.Node(name, image: image, children: children)
  }

  @Test(
    "invalid catalogs are refused with a clear message",
    arguments: [
      ([], [node("A", "", [])], "the menu needs 1 to 64 labels, found 0"),
      (["Mon", ""], [node("A", "", [])], "the menu label 2 is empty"),
      (["Mon"], [], "the catalog has no categories"),
      (["Mon"], [node("", "", [])], "the name of top-level category 1 is empty"),
      (
        ["Mon"], [node("Tea", "", [node("", "", [])])],
        #"the name of item 1 of "tea" is empty"#
      ),
      (
        ["Mon"], [node("☕︎", "", [])],
        #"the name "☕︎" of top-level category 1 has no letter or digit to make an id from; give it one"#
      ),
      (
        ["Mon"], [node("Tea", "", [node("Green", "", []), node("green!", "", [])])],
        #"duplicate id "tea/green": the names "Green" and "green!" make the same slug; rename one"#
      ),
      (
        ["Mon"], [node("Tea", "", []), node("TEA", "", [])],
        #"duplicate id "tea": the names "Tea" and "TEA" make the same slug; rename one"#
      ),
      (
        ["Mon"], [node("Te\u{1B}[31ma", "", [])],
        #"the name of top-level category 1 "Te\u{1B}[31ma" contains a control character (U+001B)"#
      ),
      (
        ["Mon\n"], [node("Tea", "", [])],
        #"the menu label 1 "Mon\u{A}" contains a control character (U+000A)"#
      ),
      (
        ["Mon"], [node("Tea", "", [node("a\u{202E}b", "", [])])],
        #"the name of item 1 of "tea" "a\u{202E}b" contains a control character (U+202E)"#
      ),
      (
        ["Mon\u{9B}"], [node("Tea", "", [])],
        #"the menu label 1 "Mon\u{9B}" contains a control character (U+009B)"#
      ),
      (
        ["Mon"], [node("Tea", "a\u{7F}", [])],
        #"the image name of "tea" "a\u{7F}" contains a control character (U+007F)"#
      ),
    ] as [([String], [Catalog.Node], String)])
  func invalid(labels: [String], categories: [Catalog.Node], message: String) {
    #expect(throws: DomainError(message)) {
      try Catalog(menuLabels: labels, categories: categories)
    }
  }

  @Test("size limits: nodes, depth, label count, name length")
  func limits() {
    let many = (0..<Catalog.Limits.maximumNodes).map { Catalog.Node("n\($0)") }
    #expect(throws: Never.self) { try Catalog(menuLabels: ["M"], categories: many) }
    #expect(throws: DomainError("the catalog has more than 4096 nodes")) {
      try Catalog(menuLabels: ["M"], categories: many + [Catalog.Node("one more")])
    }
    var deep = Catalog.Node("leaf")
    for level in 0..<Catalog.Limits.maximumDepth {
      deep = Catalog.Node("l\(level)", children: [deep])
    }
    #expect(throws: Never.self) { try Catalog(menuLabels: ["M"], categories: [deep]) }
    #expect(throws: DomainError.self) {
      try Catalog(menuLabels: ["M"], categories: [Catalog.Node("top", children: [deep])])
    }
    #expect(throws: DomainError("the menu needs 1 to 64 labels, found 65")) {
      try Catalog(menuLabels: Array(repeating: "M", count: 65), categories: [Catalog.Node("A")])
    }
    #expect(
      throws: DomainError("the name of top-level category 1 is 129 bytes long; the limit is 128")
    ) {
      try Catalog(menuLabels: ["M"], categories: [Catalog.Node(String(repeating: "x", count: 129))])
    }
  }

  @Test(
    "bad catalog JSON names the path",
    arguments: [
      (#"[]"#, "the catalog must be a JSON object, found an array"),
      (#"{"categories":[]}"#, "catalog.menuLabels must be an array of strings"),
      (#"{"menuLabels":["A",1],"categories":[]}"#, "catalog.menuLabels[1] must be a string"),
      (#"{"menuLabels":["A"]}"#, "catalog.categories must be an array of nodes"),
      (
        #"{"menuLabels":["A"],"layout":"grid","categories":[]}"#,
        #"catalog.layout must be "twoColumn" or "threeColumn""#
      ),
      (
        #"{"menuLabels":["A"],"categories":[{"name":"A","children":[{"image":"x"}]}]}"#,
        "catalog.categories[0].children[0].name must be a string"
      ),
      (
        #"{"menuLabels":["A"],"categories":[{"name":"A","image":3}]}"#,
        "catalog.categories[0].image must be a string"
      ),
      (
        #"{"menuLabels":["A"],"categories":[{"name":"A","children":{}}]}"#,
        "catalog.categories[0].children must be an array of nodes"
      ),
      (
        #"{"menuLabels":["A"],"categories":["A"]}"#,
        #"catalog.categories[0] must be an object with a "name", found a string"#
      ),
    ])
  func invalidJSON(text: String, message: String) throws {
    #expect(throws: DomainError(message)) { try Catalog(json: JSONValue(parsing: text)) }
  }

  @Test("a huge JSON tree is refused before it is built")
  func hugeJSON() throws {
    let nodes = JSONValue.array(Array(repeating: .object([("name", "x")]), count: 5_000))
    #expect(throws: DomainError("the catalog has more than 4096 nodes")) {
      try Catalog(json: .object([("menuLabels", ["A"]), ("categories", nodes)]))
    }
  }
}
