import RewindCore
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

  @Test(
    "bad JSON gives the line, the column and what was expected",
    arguments: [
      ("{\"a\": }", 1, 7, "expected a JSON value, found '}'"),
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
