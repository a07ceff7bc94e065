/// A condition on the state for `find`: a field compared with a value, or a field
/// changing.
///
/// Written `split.selectedItem == espresso-machines/leva`, `menu.selectedIndex != 0`,
/// `changed(split.columnVisibility)`. A value is JSON (`null`, `3`, `true`, `"two words"`,
/// `[…]`) or a bare word without spaces or quotes, read as a string. One comparison per
/// condition: `&&` and `||` are refused.
public enum Condition: Sendable, Equatable, CustomStringConvertible {
  case equals(path: String, value: JSONValue)
  case notEquals(path: String, value: JSONValue)
  case changed(path: String)

  /// How conditions are written, for help texts and errors.
  package static let syntax = "PATH == VALUE, PATH != VALUE or changed(PATH)"

  /// Parses a condition.
  /// - Throws: ``ConditionError`` saying what was expected, and at which column.
  public init(parsing text: String) throws(ConditionError) {
    self = try WrittenCondition(parsing: text).condition
  }

  static func isPath(_ text: String) -> Bool {
    !text.isEmpty
      && text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
        !part.isEmpty && part.allSatisfy(isPathCharacter)
      }
  }

  static func isPathCharacter(_ character: Character) -> Bool {
    character.isLetter || character.isNumber || character == "_"
  }

  /// The field the condition is about.
  public var path: String {
    switch self {
    case .equals(let path, _), .notEquals(let path, _), .changed(let path): path
    }
  }

  /// The value compared with, nil for `changed`.
  public var value: JSONValue? {
    switch self {
    case .equals(_, let value), .notEquals(_, let value): value
    case .changed: nil
    }
  }

  /// Whether the condition holds for a field's value (always false for `changed`).
  @usableFromInline package func holds(for value: JSONValue) -> Bool {
    switch self {
    case .equals(_, let expected): value == expected
    case .notEquals(_, let expected): value != expected
    case .changed: false
    }
  }

  public var description: String {
    switch self {
    case .equals(let path, let value): "\(path) == \(value.compactText)"
    case .notEquals(let path, let value): "\(path) != \(value.compactText)"
    case .changed(let path): "changed(\(path))"
    }
  }
}

/// A condition that cannot be used: a malformed one, or one that does not fit the
/// domain's fields (an unknown field, a value of the wrong kind, a value outside an enum,
/// an id the session does not have).
public struct ConditionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong, e.g. `'Balanced' is not a value of split.style: …`.
  public var message: String
  /// Where in the condition the problem is: 1-based, in characters.
  public var column: Int
  /// The word at fault (a field path, a value), and the words it may be a slip of: where
  /// a tool looks for a "did you mean".
  public var word: String
  public var choices: [String]
  /// What was certainly meant, e.g. the id of an item whose name was written.
  public var suggestion: String?

  package init(
    _ message: String, column: Int, word: String = "", choices: [String] = [],
    suggestion: String? = nil
  ) {
    self.message = message
    self.column = column
    self.word = word
    self.choices = choices
    self.suggestion = suggestion
  }

  /// `at column 16: … Did you mean 'balanced'?`
  public var description: String {
    "at column \(column): \(message)" + (suggestion.map { ". Did you mean '\($0)'?" } ?? "")
  }
}

/// A condition with where its parts are in the text it was read from, so that a value
/// that does not fit the field is reported at its column.
package struct WrittenCondition: Sendable, Equatable, CustomStringConvertible {
  package var condition: Condition
  /// The text as written.
  package var text: String
  /// 1-based columns (in characters) of the field path and of the value (the path's for
  /// `changed`).
  package var pathColumn: Int
  package var valueColumn: Int

  /// A condition made in code, placed as its ``Condition/description`` writes it.
  package init(_ condition: Condition) {
    self.condition = condition
    text = condition.description
    switch condition {
    case .changed:
      pathColumn = "changed(".count + 1
      valueColumn = pathColumn
    case .equals(let path, _), .notEquals(let path, _):
      pathColumn = 1
      valueColumn = path.count + " == ".count + 1
    }
  }

  /// Parses a condition.
  /// - Throws: ``ConditionError`` saying what was expected, and at which column.
  package init(parsing text: String) throws(ConditionError) {
    var scanner = ConditionScanner(text)
    try scanner.refuseCombinations()
    scanner.skipWhitespace()
    guard !scanner.isAtEnd else {
      throw scanner.error("expected a condition: \(Condition.syntax)")
    }
    let start = scanner.position
    let word = scanner.read(while: { Condition.isPathCharacter($0) || $0 == "." })
    scanner.skipWhitespace()
    if word == "changed", scanner.current == "(" {
      scanner.position += 1
      scanner.skipWhitespace()
      let pathStart = scanner.position
      let path = try scanner.readPath(before: "')'")
      scanner.skipWhitespace()
      guard scanner.current == ")" else {
        throw scanner.error("expected ')' after the field path in changed(…)")
      }
      scanner.position += 1
      try scanner.expectEnd(after: "changed(…)")
      self.init(
        condition: .changed(path: path), text: text, pathColumn: pathStart + 1,
        valueColumn: pathStart + 1)
      return
    }
    scanner.position = start
    let path = try scanner.readPath(before: "== or !=")
    scanner.skipWhitespace()
    let comparison = try scanner.readComparison()
    scanner.skipWhitespace()
    guard !scanner.isAtEnd else {
      throw scanner.error("expected a value after \(comparison)")
    }
    let valueStart = scanner.position
    let value = try scanner.readValue()
    try scanner.expectEnd(after: "the value")
    self.init(
      condition: comparison == "=="
        ? .equals(path: path, value: value)
        : .notEquals(path: path, value: value),
      text: text, pathColumn: start + 1, valueColumn: valueStart + 1)
  }

  private init(condition: Condition, text: String, pathColumn: Int, valueColumn: Int) {
    self.condition = condition
    self.text = text
    self.pathColumn = pathColumn
    self.valueColumn = valueColumn
  }

  package var description: String { text }
}

/// Reads a condition's text one character at a time, knowing the column of each.
private struct ConditionScanner {
  let characters: [Character]
  var position = 0

  init(_ text: String) { characters = Array(text) }

  var isAtEnd: Bool { position >= characters.count }
  var current: Character? { isAtEnd ? nil : characters[position] }

  func error(_ message: String, at index: Int? = nil) -> ConditionError {
    ConditionError(message, column: (index ?? position) + 1)
  }

  mutating func skipWhitespace() {
    while current?.isWhitespace == true { position += 1 }
  }

  mutating func read(while accepts: (Character) -> Bool) -> String {
    let start = position
    while let character = current, accepts(character) { position += 1 }
    return String(characters[start..<position])
  }

  /// `&&` and `||` outside a quoted string: a condition is one comparison.
  func refuseCombinations() throws(ConditionError) {
    var index = 0
    var inString = false
    while index < characters.count {
      let character = characters[index]
      if inString {
        if character == "\\" {
          index += 1
        } else if character == "\"" {
          inString = false
        }
      } else if character == "\"" {
        inString = true
      } else if character == "&" || character == "|", index + 1 < characters.count,
        characters[index + 1] == character
      {
        throw error(
          "'\(character)\(character)' is not supported: a condition is one comparison "
            + "(\(Condition.syntax)); run find once for each", at: index)
      }
      index += 1
    }
  }

  /// A dotted field path.
  mutating func readPath(before expected: String) throws(ConditionError) -> String {
    let start = position
    let path = read(while: { Condition.isPathCharacter($0) || $0 == "." })
    guard !path.isEmpty else {
      let found = current.map { "'\($0)'" } ?? "the end"
      throw error("expected a field path before \(expected), found \(found)", at: start)
    }
    guard Condition.isPath(path) else {
      throw error(
        "'\(path)' is not a field path: names (letters, digits, _) joined by single dots",
        at: start)
    }
    return path
  }

  /// `==` or `!=`.
  mutating func readComparison() throws(ConditionError) -> String {
    let rest = characters[position...]
    for comparison in ["==", "!="] where rest.starts(with: comparison) {
      position += 2
      return comparison
    }
    switch current {
    case nil:
      throw error("expected == or != after the field path")
    case "=":
      throw error("expected == or != after the field path: a single = does not compare")
    case "<", ">":
      throw error("only == and != compare: '\(current!)' is not supported")
    default:
      throw error("expected == or != after the field path, found '\(current!)'")
    }
  }

  /// A JSON value, or a bare word read as a string.
  mutating func readValue() throws(ConditionError) -> JSONValue {
    let start = position
    switch current {
    case "\"":
      var index = position + 1
      while index < characters.count, characters[index] != "\"" {
        index += characters[index] == "\\" ? 2 : 1
      }
      guard index < characters.count else {
        throw error("the string has no closing quote (\")", at: start)
      }
      position = index + 1
      return try parseJSON(from: start)
    case "[", "{":
      // The rest of the text is the value: nothing may follow it.
      position = characters.count
      while position > start, characters[position - 1].isWhitespace { position -= 1 }
      return try parseJSON(from: start)
    default:
      let word = read(while: { !$0.isWhitespace && $0 != "\"" })
      if current == "\"" {
        throw error("a quote in the middle of a value: quote the whole value")
      }
      return (try? JSONValue(parsing: word)) ?? .string(word)
    }
  }

  /// Parses `characters[start..<position]` as JSON, placing a parse error in the
  /// condition.
  func parseJSON(from start: Int) throws(ConditionError) -> JSONValue {
    let text = String(characters[start..<position])
    do throws(JSONParseError) {
      return try JSONValue(parsing: text)
    } catch {
      // The parser counts bytes; the condition's columns count characters.
      let bytes = Array(text.utf8)
      let byteOffset = min(max(error.column - 1, 0), bytes.count)
      let prefix = String(decoding: bytes[..<byteOffset], as: UTF8.self)
      throw self.error("not a JSON value: \(error.message)", at: start + prefix.count)
    }
  }

  /// Nothing but whitespace may follow.
  mutating func expectEnd(after what: String) throws(ConditionError) {
    skipWhitespace()
    guard !isAtEnd else { return }
    let found = String(characters[position...].prefix { !$0.isWhitespace })
    throw error(
      "expected the end of the condition after \(what), found '\(found)'"
        + (what == "the value" ? " (quote a value with spaces)" : ""))
  }
}
