import Navigation
import RewindCore
import Testing

@Suite("Swift source of generated tests")
struct SwiftSourceTests {
  @Test("string literals escape quotes, backslashes and everything outside printable ASCII")
  func stringLiterals() {
    #expect(SwiftSource.stringLiteral("grinders") == #""grinders""#)
    #expect(SwiftSource.stringLiteral(#"a"b\c"#) == #""a\"b\\c""#)
    #expect(SwiftSource.stringLiteral("é\u{1B}[2J\n") == #""\u{e9}\u{1b}[2J\u{a}""#)
  }

  @Test("double literals read back as the same bits")
  func doubles() {
    #expect(SwiftSource.doubleLiteral(140.5) == "140.5")
    #expect(SwiftSource.doubleLiteral(-0.0) == "-0.0")
    #expect(SwiftSource.doubleLiteral(.infinity) == ".infinity")
    #expect(SwiftSource.doubleLiteral(0.1 + 0.2) == "0.30000000000000004")
    #expect(SwiftSource.doubleLiteral(.nan).hasPrefix("Double(bitPattern: 0x"))
    // A subnormal number's decimal literal underflows (a warning, an error in a target
    // that treats warnings as errors): written by its bits.
    #expect(SwiftSource.doubleLiteral(.leastNonzeroMagnitude) == "Double(bitPattern: 0x1)")
    #expect(
      SwiftSource.doubleLiteral(-Double.leastNormalMagnitude / 2)
        == "Double(bitPattern: 0x8008000000000000)")
    #expect(SwiftSource.doubleLiteral(.leastNormalMagnitude) == "2.2250738585072014e-308")
    #expect(Double(bitPattern: 0x8008_0000_0000_0000) == -Double.leastNormalMagnitude / 2)
  }

  @Test("identifiers are lower camel case, start with a letter and are never keywords")
  func identifiers() {
    #expect(SwiftSource.identifier("espresso-machines/leva/leva-x") == "espressoMachinesLevaLevaX")
    #expect(SwiftSource.identifier("90 grinders") == "node90Grinders")
    #expect(SwiftSource.identifier("in") == "inNode")
    #expect(SwiftSource.identifier("日本") == "node")
    // With every script's letters, as a journal's name gives a test its name.
    #expect(SwiftSource.identifier("café-menu", everyScript: true) == "caféMenu")
    #expect(SwiftSource.identifier("日本", everyScript: true) == "日本")
    #expect(SwiftSource.identifier("90 grinders", everyScript: true) == "node90Grinders")
    #expect(SwiftSource.identifier("--", everyScript: true) == "node")
    #expect(SwiftSource.identifier("in", everyScript: true) == "inNode")
    #expect(SwiftSource.identifier("day_menu", everyScript: true) == "dayMenu")
    // A test's name (testgen's, from a journal's): `test` before a digit, `Test` after a keyword.
    #expect(
      SwiftSource.identifier("90 grinders", everyScript: true, kind: "test") == "test90Grinders")
    #expect(SwiftSource.identifier("in", everyScript: true, kind: "test") == "inTest")
  }

  @Test(
    "an identifier is a letter of any script or _, then letters, digits, marks or _, and no keyword"
  )
  func identifierRule() {
    for name in ["é", "my_test", "_x", "__", "e\u{301}", "日本", "x1", "open2"] {
      #expect(SwiftSource.isIdentifier(name), "\(name)")
    }
    for name in [
      "", "_", "1x", "a b", "a-b", "x$", "\u{301}e", "a\u{1B}", "class", "Self", "await",
    ] {
      #expect(!SwiftSource.isIdentifier(name), "\(name)")
    }
  }

  @Test(
    "every word Swift reserves is a keyword here: declaring it as a name does not compile",
    arguments: [
      "fallthrough", "deinit", "typealias", "associatedtype", "rethrows", "precedencegroup",
      "await",
    ])
  func reservedWords(word: String) {
    #expect(SwiftSource.identifier(word) == word + "Node")
  }

  @Test("a constant is declared once per expression, and names never clash")
  func names() {
    var names = SwiftSourceNames()
    let a = names.constant(suggesting: "grinders", "domain.ref(\"grinders\")")
    let b = names.constant(suggesting: "grinders", "domain.ref(\"grinders\")")
    let c = names.constant(suggesting: "Grinders", "domain.ref(\"Grinders\")")
    let d = names.constant(suggesting: "store", "domain.ref(\"store\")")
    #expect([a, b, c, d] == ["grinders", "grinders", "grinders2", "store2"])
    #expect(names.declarations.count == 3)
    // The letters of every script are kept, as in a test's name.
    let e = names.constant(suggesting: "café/日本", "domain.ref(\"café/日本\")")
    let f = names.constant(suggesting: "café", "domain.ref(\"café\")")
    #expect([e, f] == ["café日本", "café"])
  }

  @Test("Navigation writes every stored field that changed, and nothing else")
  func assignments() {
    let domain = NavigationDomain()
    var names = SwiftSourceNames()
    var state = domain.initialState
    _ = domain.reduce(&state, .categorySelected(domain.ref("espresso-machines")))
    _ = domain.reduce(&state, .itemExpanded(domain.ref("espresso-machines/leva")))
    _ = domain.reduce(&state, .splitStyleChanged(.balanced))
    _ = domain.reduce(&state, .menuScrolled(offset: 12.5))
    let lines = domain.swiftAssignments(
      from: domain.initialState, to: state, on: "$0", names: &names)
    #expect(
      lines == [
        "$0.menu.scrollOffset = 12.5",
        "$0.split.selectedCategory = espressoMachines",
        "$0.split.expanded.insert(espressoMachinesLeva)",
        "$0.split.style = .balanced",
      ])
    #expect(domain.swiftAssignments(from: state, to: state, on: "$0", names: &names).isEmpty)
  }
}
