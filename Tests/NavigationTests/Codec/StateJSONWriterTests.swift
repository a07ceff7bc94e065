import RewindCore
import TestSupport
import Testing

@testable import Navigation

/// The navigation domain's state JSON written straight into a `JSONWriter`, and its fields'
/// value words (what `rewind html`'s page builder reads states with), against the
/// `JSONValue`s they stand for.
@Suite("State JSON written in place, and the fields' value words")
struct StateJSONWriterTests {
  /// Labels that need escaping or are not ASCII.
  static let oddCatalog = try! Catalog(
    menuLabels: ["a \"quoted\" \\ label", "Café ☕", "Cafe\u{301} crème", "<b>&", "𝄞 clef"],
    categories: [
      Catalog.Node(
        "Grinders \"Pro\"",
        children: [Catalog.Node("Bean\\Back"), Catalog.Node("日本", children: [Catalog.Node("x")])]),
      Catalog.Node("Café ☕", children: [Catalog.Node("Cafe\u{301} crème")]),
    ])

  /// The domains: the sample (three and two columns), a catalog beyond 64 nodes, wide
  /// characters, labels that need escaping.
  static let domains = [
    Fixtures.three, Fixtures.two, Fixtures.large, Fixtures.wide,
    NavigationDomain(catalog: oddCatalog),
  ]

  /// Numbers a state can hold only when set by hand, beside those the events give.
  static let oddNumbers: [Double] = [
    -0.0, 0.0, 1e300, -1e300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.1 + 0.2,
    123_456_789.125, 1e-7, 5e22, 9_007_199_254_740_994, -1.5,
  ]

  /// Random states of `domain`: after random events, some with numbers, selections and
  /// expanded sets set by hand (refs beyond the catalog included).
  static func states(_ domain: NavigationDomain, seed: UInt64, count: Int) -> [NavigationState] {
    var random = SplitMix64(seed: seed)
    var generator = RandomEventGenerator(seed: random.next(), domain: domain)
    var state = domain.initialState
    var states = [state]
    for _ in 0..<count {
      _ = domain.reduce(&state, generator.next())
      var odd = state
      switch random.next() % 7 {
      case 0: odd.menu.scrollOffset = oddNumbers[Int(random.next() % UInt64(oddNumbers.count))]
      case 1: odd.menu.viewportWidth = oddNumbers[Int(random.next() % UInt64(oddNumbers.count))]
      case 2: odd.split.selectedItem = NodeRef(index: UInt32(random.next() % 300))
      case 3: odd.split.selectedCategory = random.next() % 2 == 0 ? nil : NodeRef(index: 1_000)
      case 4: odd.menu.selectedIndex = Int(bitPattern: UInt(random.next())) >> (random.next() % 64)
      case 5:
        // A node past the catalog's, where the set has room for one.
        let room = odd.split.expanded.capacity - domain.catalog.nodeCount
        if room > 0 {
          let index = domain.catalog.nodeCount + Int(random.next() % UInt64(room))
          odd.split.expanded.insert(NodeRef(index: UInt32(index)))
        }
      default: break
      }
      states.append(state)
      states.append(odd)
    }
    return states
  }

  @Test("writeJSON writes json(state)'s compact text, byte for byte", arguments: 0..<5)
  func writerIsCompactText(domainIndex: Int) {
    let domain = Self.domains[domainIndex]
    let seed = testSeed("StateJSONWriterTests.writerIsCompactText.\(domainIndex)")
    var json = JSONWriter(capacity: 64)
    for (index, state) in Self.states(domain, seed: seed, count: 600).enumerated() {
      json.removeAll()
      domain.writeJSON(of: state, to: &json)
      let expected = domain.json(state).compactText
      let written = String(decoding: json.bytes, as: UTF8.self)
      #expect(written == expected, "seed \(seed), state \(index)")
      if written != expected { return }
    }
  }

  @Test("equal value words are equal JSON texts, for every field", arguments: 0..<5)
  func wordsAreInjective(domainIndex: Int) {
    let domain = Self.domains[domainIndex]
    let seed = testSeed("StateJSONWriterTests.wordsAreInjective.\(domainIndex)")
    let fields = domain.fields
    // For each field, the text of the value each word was first met with.
    var texts = Array(repeating: [UInt64: String](), count: fields.count)
    var worded = Array(repeating: 0, count: fields.count)
    for (index, state) in Self.states(domain, seed: seed, count: 600).enumerated() {
      for (field, stateField) in fields.enumerated() {
        guard let word = domain.fieldValueWord(field, of: state) else { continue }
        worded[field] += 1
        let text = stateField.value(state).compactText
        if let known = texts[field][word] {
          #expect(
            known == text,
            "seed \(seed), state \(index), \(stateField.path): word \(word) is \(known) and \(text)"
          )
        } else {
          texts[field][word] = text
        }
      }
    }
    // Every field has words but the labels (and the expanded set past 64 nodes).
    for (field, stateField) in fields.enumerated() {
      let expected =
        stateField.path != "menu.labels"
        && !(stateField.path == "split.expanded" && domain.catalog.nodeCount > 64)
      #expect((worded[field] > 0) == expected, "\(stateField.path)")
    }
    // The words tell values apart: as many as the texts (a field's values are few or
    // each a word of their own).
    #expect(texts[NavigationField.menuScrollOffset.rawValue].count > 10)
  }

  @Test("each enum's constant name, which writeJSON writes, is its raw value")
  func plainNamesAreRawValues() {
    func check<E: CaseIterable & RawRepresentable>(_: E.Type, _ name: (E) -> StaticString)
    where E.RawValue == String {
      for value in E.allCases { #expect("\(name(value))" == value.rawValue, "\(E.self)") }
    }
    check(SplitLayout.self, \.plainName)
    check(Column.self, \.plainName)
    check(ColumnVisibility.self, \.plainName)
    check(SplitStyle.self, \.plainName)
    check(SizeClass.self, \.plainName)
    check(Orientation.self, \.plainName)
  }
}

/// `NodeSet.isWithin`, which tells `writeJSON` whether the expanded nodes are all the
/// catalog's (their ids written in the catalog's order of ids) or not.
@Suite("NodeSet: whether every node is below a count")
struct NodeSetWithinTests {
  @Test("against the nodes' largest index, for sets of one word and of several")
  func within() {
    var random = SplitMix64(seed: testSeed("NodeSetWithinTests.within"))
    for nodeCount in [1, 2, 28, 63, 64, 65, 127, 128, 129, 300] {
      for _ in 0..<40 {
        var set = NodeSet(nodeCount: nodeCount)
        for _ in 0..<Int(random.next() % 4) {
          set.insert(NodeRef(index: UInt32(random.next() % UInt64(set.capacity))))
        }
        let largest = set.refs.last.map { Int($0.index) } ?? -1
        for count in [0, 1, nodeCount - 1, nodeCount, largest, largest + 1, set.capacity]
        where count >= 0 {
          #expect(set.isWithin(count) == (largest < count), "\(set.refs), below \(count)")
        }
      }
    }
  }
}
