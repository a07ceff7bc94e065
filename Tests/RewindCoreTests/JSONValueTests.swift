import RewindCore
import TestSupport
import Testing

@Suite("JSON values")
struct JSONValueTests {
  @Test("printing keeps key order and round-trips through the parser")
  func roundTrip() throws {
    let value: JSONValue = .object([
      ("menu", .object([("selectedIndex", 2), ("scrollOffset", 140.5)])),
      ("split", .object([("selectedItem", .null), ("expanded", ["a", "b\"\\\n\u{01}"])])),
      ("ok", true), ("big", .int(.max)), ("tiny", .double(1e-7)), ("unicode", "☕︎ é"),
    ])
    #expect(
      value.compactText
        == #"{"menu":{"selectedIndex":2,"scrollOffset":140.5},"split":{"selectedItem":null,"expanded":["a","b\"\\\n\u0001"]},"ok":true,"big":9223372036854775807,"tiny":1e-07,"unicode":"☕︎ é"}"#
    )
    #expect(try JSONValue(parsing: value.compactText) == value)
    #expect(try JSONValue(parsing: value.prettyText) == value)
    #expect(try JSONValue(parsing: value.prettyText).compactText == value.compactText)
  }

  /// A value, a field's change and an outcome print as what they are (in a test's
  /// failure, an interpolation, `print`): they printed as Swift's reflection of their
  /// cases (`object([("count", RewindCore.JSONValue.int(3))])`).
  @Test("values, changes and outcomes print readably")
  func descriptions() {
    let value: JSONValue = .object([("count", 3), ("names", ["a", .null])])
    #expect("\(value)" == #"{"count":3,"names":["a",null]}"#)
    #expect(String(describing: JSONValue.string("x\"y")) == #""x\"y""#)
    let change = FieldChange(path: "cart.count", old: 2, new: .object([("n", 3)]))
    #expect("\(change)" == #"cart.count: 2 → {"n":3}"#)
    #expect("\(Outcome<DomainRejection>.applied)" == "applied")
    #expect("\(Outcome<DomainRejection>.unchanged)" == "unchanged")
    let rejected = Outcome<DomainRejection>.rejected(DomainRejection("the cart is empty"))
    #expect("\(rejected)" == "rejected: the cart is empty")
  }

  @Test("numbers compare by value and objects regardless of order")
  func equality() throws {
    #expect(JSONValue.int(1) == .double(1.0))
    #expect(
      try JSONValue(parsing: #"{"a":1,"b":[true,null]}"#)
        == JSONValue(parsing: #"{ "b": [true, null], "a": 1.0 }"#))
    #expect(JSONValue.int(1) != .string("1"))
  }

  @Test("paths and leaves")
  func paths() throws {
    let value = try JSONValue(parsing: #"{"menu":{"labels":["Mon"],"selectedIndex":0},"x":{}}"#)
    #expect(value.value(atPath: "menu.selectedIndex") == 0)
    #expect(value.value(atPath: "menu.missing") == nil)
    #expect(value.leaves().map(\.path) == ["menu.labels", "menu.selectedIndex", "x"])
  }

  @Test("a duplicate key is found in an object of any size, as a set of the keys finds it")
  func duplicateKeys() throws {
    var generator = SplitMix64(seed: testSeed("JSONValueTests.duplicateKeys"))
    // Keys that are different strings, and two spellings of one (`é` precomposed and
    // decomposed), which `String`'s equality (and so a `Set`) takes for the same key.
    let pool = ["a", "b", "é", "e\u{301}x", "ab", "ba", "日本", "", "k0", "k1", "k2"]
    for _ in 0..<400 {
      let count = Int.random(in: 0...40, using: &generator)
      var keys = (0..<count).map { "key\($0)-" + pool.randomElement(using: &generator)! }
      var expected: String?
      if count > 0, Bool.random(using: &generator) {
        let duplicate = Int.random(in: 0..<count, using: &generator)
        let position = Int.random(in: (duplicate + 1)...count, using: &generator)
        var spelling = ""
        for scalar in keys[duplicate].unicodeScalars {
          spelling += scalar == "\u{E9}" ? "e\u{301}" : String(scalar)
        }
        keys.insert(spelling, at: position)
        expected = spelling
      }
      var text = "{"
      var keyColumn: Int?
      for (index, key) in keys.enumerated() {
        if index > 0 { text += ", " }
        if keyColumn == nil, key == expected, keys.firstIndex(of: key)! < index {
          // In characters (walk of import/export, IO-6: the column counted bytes).
          keyColumn = text.count + 1
        }
        text += JSONValue.string(key).compactText + ": \(index)"
      }
      text += "}"
      if let expected, let keyColumn {
        #expect(
          throws: JSONParseError(
            message: "duplicate key \"\(expected)\"", line: 1, column: keyColumn)
        ) {
          try JSONValue(parsing: text)
        }
      } else {
        let value = try JSONValue(parsing: text)
        guard case .object(let members) = value else {
          Issue.record("not an object: \(text)")
          continue
        }
        #expect(members.map(\.0) == keys)
      }
    }
  }

  @Test(
    "bad JSON gives the line, the column and what was expected",
    arguments: [
      ("{\"a\": }", 1, 7, "expected a JSON value, found '}'"),
      // A word that is no literal is said as it is, not as a slip of one.
      ("not json", 1, 1, "expected a JSON value, found 'not'"),
      ("[tru]", 1, 2, "expected a JSON value, found 'tru'"),
      ("nul", 1, 1, "expected a JSON value, found 'nul'"),
      ("{\n  \"a\": 1,\n  \"a\": 2}", 3, 3, "duplicate key \"a\""),
      ("[1, 2", 1, 6, "expected ',' or ']' in an array, found the end of the text"),
      ("\"abc", 1, 1, "unterminated string"),
      ("01", 1, 2, "expected the end of the text after the JSON value"),
      ("1e999", 1, 1, "number 1e999 is out of range"),
      ("\"\\ud800\"", 1, 8, "unpaired UTF-16 surrogate in \\u escape"),
    ])
  func errors(text: String, line: Int, column: Int, message: String) {
    #expect(throws: JSONParseError(message: message, line: line, column: column)) {
      try JSONValue(parsing: text)
    }
  }

  @Test("deep nesting is refused, not a stack overflow")
  func depth() {
    let text = String(repeating: "[", count: 100_000)
    #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
  }
}
