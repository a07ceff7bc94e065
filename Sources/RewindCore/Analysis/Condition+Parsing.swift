/// A condition with where its parts are in the text it was read from, so that a path or a
/// value that does not fit the domain is reported at its column.
package struct WrittenCondition: Sendable, Equatable, CustomStringConvertible {
  package var condition: Condition
  /// The text as written.
  package var text: String
  /// Where each comparison is, left to right (the order of
  /// ``Condition/forEachComparison(_:)``).
  package var places: [Place]

  /// The 1-based columns (in characters, as the text is seen) of a comparison's path
  /// and of its value (the path's for `changed` and a path alone), and whether the path
  /// was written alone (`split.overlay` for `split.overlay == true`), which only a
  /// boolean field may be.
  package struct Place: Sendable, Equatable {
    package var path: Int
    package var value: Int
    package var isPathAlone = false
  }

  /// The most comparisons a condition may hold, and how deep `(` and `!` may nest: a
  /// bound on the work and the stack a condition from outside can ask for.
  package static let maximumComparisons = 256
  package static let maximumNesting = 64

  /// A condition made in code, placed as its ``Condition/description`` writes it.
  package init(_ condition: Condition) {
    if let written = try? WrittenCondition(parsing: condition.description),
      written.condition == condition
    {
      self = written
      return
    }
    self.condition = condition
    text = condition.description
    var places: [Place] = []
    condition.forEachComparison { _, _, _ in places.append(Place(path: 1, value: 1)) }
    self.places = places
  }

  /// Parses a condition.
  /// - Throws: ``ConditionError`` saying what was expected, and at which column.
  package init(parsing text: String) throws(ConditionError) {
    var parser = ConditionParser(text)
    parser.skipWhitespace()
    guard !parser.isAtEnd else {
      throw parser.error("expected a condition: \(Condition.syntax)")
    }
    let condition = try parser.parseOr()
    parser.skipWhitespace()
    if let current = parser.current {
      if current == ")" { throw parser.error("')' has no matching '('") }
      throw parser.error(
        "expected &&, || or the end of the condition after \(parser.lastRead), found \(Format.quoted(parser.word()))"
          + (parser.lastRead == "the value" ? " (quote a value with spaces)" : ""))
    }
    self.condition = condition
    self.text = text
    self.places = parser.places
  }

  package var description: String { text }
}

/// Reads a condition's text one Unicode scalar at a time, knowing the column (in
/// characters) of each: a recursive descent over `||`, then `&&`, then `!`, then a
/// comparison or a parenthesis.
///
/// Scalars, not characters: a mark that joins the character after it (U+0605, a
/// "prepend" mark) makes one character of itself and a following quote, `&` or `)`, which
/// a scan by characters would not see. Each scalar is read as what it is, as `Condition`'s
/// ``Condition/description`` writes it.
private struct ConditionParser {
  let scalars: [Unicode.Scalar]
  /// The 0-based column (in characters) of each scalar, and one past the last for the
  /// end.
  let columns: [Int]
  var position = 0
  var places: [WrittenCondition.Place] = []
  var depth = 0
  /// What was read last, for messages: `the value`, `changed(…)`, `')'`.
  var lastRead = "the value"

  init(_ text: String) {
    scalars = Array(text.unicodeScalars)
    var columns: [Int] = []
    columns.reserveCapacity(scalars.count + 1)
    var column = 0
    for character in text {
      for _ in character.unicodeScalars { columns.append(column) }
      column += 1
    }
    columns.append(column)
    self.columns = columns
  }

  var isAtEnd: Bool { position >= scalars.count }
  var current: Unicode.Scalar? { isAtEnd ? nil : scalars[position] }

  /// The 1-based column (in characters) of the scalar at `index`.
  func column(_ index: Int) -> Int { columns[min(index, scalars.count)] + 1 }

  func error(_ message: String, at index: Int? = nil) -> ConditionError {
    ConditionError(message, column: column(index ?? position))
  }

  func starts(with text: String) -> Bool {
    scalars[position...].starts(with: text.unicodeScalars)
  }

  func text(_ range: Range<Int>) -> String {
    var text = ""
    text.unicodeScalars.append(contentsOf: scalars[range])
    return text
  }

  /// The text from here to the next whitespace, for messages.
  func word() -> String {
    text(
      position..<(scalars[position...].firstIndex { $0.properties.isWhitespace } ?? scalars.count))
  }

  /// What is here, for messages: `'x'` or `the end`.
  func found() -> String { isAtEnd ? "the end" : "\(Format.quoted(word()))" }

  mutating func skipWhitespace() {
    while current?.properties.isWhitespace == true { position += 1 }
  }

  mutating func read(while accepts: (Unicode.Scalar) -> Bool) -> String {
    let start = position
    while let scalar = current, accepts(scalar) { position += 1 }
    return text(start..<position)
  }

  mutating func nest() throws(ConditionError) {
    depth += 1
    guard depth <= WrittenCondition.maximumNesting else {
      throw error(
        "the condition nests more than \(WrittenCondition.maximumNesting) levels deep")
    }
  }

  /// `A || B || …`
  mutating func parseOr() throws(ConditionError) -> Condition {
    var condition = try parseAnd()
    while true {
      skipWhitespace()
      guard starts(with: "||") else { return condition }
      position += 2
      condition = .or(condition, try parseAnd())
    }
  }

  /// `A && B && …`
  mutating func parseAnd() throws(ConditionError) -> Condition {
    var condition = try parseUnary()
    while true {
      skipWhitespace()
      guard starts(with: "&&") else { return condition }
      position += 2
      condition = .and(condition, try parseUnary())
    }
  }

  /// `!A`, or a comparison, or `(A)`.
  ///
  /// A `!` is a level of nesting, but `!(…)` one level, not two: the parenthesis counts
  /// it. So the way a condition prints a `!` of a comparison, `!(a == 1)` where `!a == 1`
  /// was read, nests it no deeper, and what parsed parses again once printed.
  mutating func parseUnary() throws(ConditionError) -> Condition {
    skipWhitespace()
    guard current == "!" else { return try parsePrimary() }
    position += 1
    skipWhitespace()
    let parenthesised = current == "("
    if !parenthesised { try nest() }
    let inner = try parseUnary()
    if !parenthesised { depth -= 1 }
    return .not(inner)
  }

  mutating func parsePrimary() throws(ConditionError) -> Condition {
    skipWhitespace()
    let start = position
    if current == "(" {
      position += 1
      try nest()
      let inner = try parseOr()
      depth -= 1
      skipWhitespace()
      guard current == ")" else {
        throw error("expected ')' to close the '(' at column \(column(start)), found \(found())")
      }
      position += 1
      lastRead = "')'"
      return inner
    }
    guard let first = current, Condition.startsPath(first) else {
      if starts(with: "&&") || starts(with: "||") {
        throw error("expected a condition before '\(word().prefix(2))'")
      }
      throw error(
        "expected a condition (a field path, changed(…), ! or '('), found \(found())")
    }
    let word = read(while: { Condition.isPathScalar($0) || $0 == "." })
    skipWhitespace()
    if word == "changed", current == "(" {
      position += 1
      skipWhitespace()
      let pathStart = position
      let path = try readPath(before: "')'")
      skipWhitespace()
      if current == "[" {
        // `blame`'s element of a field (PATH[ELEMENT]).
        throw error(
          "changed(…) takes a whole field, changed(\(path)); an element is tested with contains (\(path) contains ELEMENT)"
        )
      }
      guard current == ")" else {
        throw error("expected ')' after the field path in changed(…), found \(found())")
      }
      position += 1
      try place(path: pathStart, value: pathStart)
      lastRead = "changed(…)"
      return .changed(path: path)
    }
    position = start
    let path = try readPath(before: "a comparison")
    skipWhitespace()
    if current == "[" {
      throw error(
        "a condition tests an element of a field with contains: \(path) contains ELEMENT (PATH[ELEMENT] is blame's)"
      )
    }
    if isAtEnd || current == ")" || starts(with: "&&") || starts(with: "||") {
      // A path alone is the field being true (`split.overlay`, `!split.overlay`): the
      // check refuses it for a field that is not a boolean.
      try place(path: start, value: start, alone: true)
      lastRead = "the field path"
      return .equals(path: path, value: .bool(true))
    }
    let symbol = try readOperator()
    skipWhitespace()
    let valueStart = position
    let value = try readValue(after: symbol)
    try place(path: start, value: valueStart)
    lastRead = "the value"
    switch symbol {
    case "==": return .equals(path: path, value: value)
    case "!=": return .notEquals(path: path, value: value)
    case "contains": return .contains(path: path, value: value)
    default:
      guard value.doubleValue != nil else {
        throw error(
          "'\(symbol)' compares numbers: \(Format.quoted(value.compactText, quote: "")) is not a number",
          at: valueStart)
      }
      switch symbol {
      case "<": return .less(path: path, value: value)
      case "<=": return .lessOrEqual(path: path, value: value)
      case ">": return .greater(path: path, value: value)
      default: return .greaterOrEqual(path: path, value: value)
      }
    }
  }

  mutating func place(path: Int, value: Int, alone: Bool = false) throws(ConditionError) {
    guard places.count < WrittenCondition.maximumComparisons else {
      throw error(
        "the condition has more than \(WrittenCondition.maximumComparisons) comparisons",
        at: path)
    }
    places.append(
      WrittenCondition.Place(path: column(path), value: column(value), isPathAlone: alone))
  }

  /// A dotted field path.
  mutating func readPath(before expected: String) throws(ConditionError) -> String {
    let start = position
    let path = read(while: { Condition.isPathScalar($0) || $0 == "." })
    guard !path.isEmpty else {
      throw error("expected a field path before \(expected), found \(found())", at: start)
    }
    guard Condition.isPath(path) else {
      throw error(
        "\(Format.quoted(path)) is not a field path: names (letters, digits, _) joined by single dots",
        at: start)
    }
    return path
  }

  static let operators = ["==", "!=", "<=", ">=", "<", ">"]
  static let operatorList = "==, !=, <, <=, >, >= or contains"

  /// `==`, `!=`, `<`, `<=`, `>`, `>=` or `contains`.
  mutating func readOperator() throws(ConditionError) -> String {
    if starts(with: "===") || starts(with: "!==") {
      // JavaScript's strict operators, which would read as == and a bare value starting
      // with = (quoted, such a value is read).
      let meant = starts(with: "===") ? "==" : "!="
      throw error(
        "expected \(Self.operatorList) after the field path: \(meant)= is not an operator; write \(meant)"
      )
    }
    // Other languages' spellings, which would read as = or < and a value.
    for (typed, meant) in [("=>", ">="), ("=<", "<="), ("<>", "!=")] where starts(with: typed) {
      throw error(
        "expected \(Self.operatorList) after the field path: \(typed) is not an operator; write \(meant)"
      )
    }
    for symbol in Self.operators where starts(with: symbol) {
      position += symbol.unicodeScalars.count
      return symbol
    }
    if starts(with: "contains") {
      let after = position + "contains".unicodeScalars.count
      if after >= scalars.count || !Condition.isPathScalar(scalars[after]) {
        position = after
        return "contains"
      }
    }
    switch current {
    case nil:
      throw error("expected \(Self.operatorList) after the field path")
    case "=":
      throw error(
        "expected \(Self.operatorList) after the field path: a single = does not compare; write ==")
    default:
      throw error("expected \(Self.operatorList) after the field path, found \(found())")
    }
  }

  /// Whether the text here ends a bare value: `(`, `)`, `&&`, `||`, a quote or
  /// whitespace.
  func endsBareValue(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isWhitespace || scalar == "\"" || scalar == "(" || scalar == ")"
      || starts(with: "&&") || starts(with: "||")
  }

  /// A JSON value, or a bare word read as a string.
  mutating func readValue(after symbol: String) throws(ConditionError) -> JSONValue {
    let start = position
    switch current {
    case nil:
      throw error("expected a value after \(symbol)")
    case "\"":
      var index = position + 1
      while index < scalars.count, scalars[index] != "\"" {
        index += scalars[index] == "\\" ? 2 : 1
      }
      guard index < scalars.count else {
        throw error("the string has no closing quote (\")", at: start)
      }
      position = index + 1
      return try parseJSON(from: start)
    case "[", "{":
      if let end = closingBracket(from: start) {
        position = end + 1
      } else {
        // Unclosed: the JSON parser says where it ends too soon.
        position = scalars.count
        while position > start, scalars[position - 1].properties.isWhitespace { position -= 1 }
      }
      return try parseJSON(from: start)
    case "'" where closesSingleQuote(from: start):
      throw singleQuoted()
    default:
      while let scalar = current, !endsBareValue(scalar) { position += 1 }
      let word = text(start..<position)
      if current == "\"" {
        throw error("a quote in the middle of a value: quote the whole value")
      }
      guard !word.isEmpty else {
        throw error("expected a value after \(symbol), found \(found())")
      }
      return (try? JSONValue(parsing: word)) ?? .string(word)
    }
  }

  /// Whether the value at `quote` (a `'`) is written in single quotes: the next `'` ends
  /// it (the condition's end, or what ends a bare value, follows). A value that only
  /// starts with one (`'90s`, `'it's`) is a bare word, as it always was.
  func closesSingleQuote(from quote: Int) -> Bool {
    guard let closing = scalars[(quote + 1)...].firstIndex(of: "'") else { return false }
    let next = closing + 1
    guard next < scalars.count else { return true }
    let scalar = scalars[next]
    if scalar.properties.isWhitespace || scalar == "\"" || scalar == "(" || scalar == ")" {
      return true
    }
    guard next + 1 < scalars.count else { return false }
    let pair = (scalar, scalars[next + 1])
    return pair == ("&", "&") || pair == ("|", "|")
  }

  /// The error for a value in single quotes (``closesSingleQuote(from:)``), here: they
  /// quote nothing in a condition (a bare word would keep them, and `'leva'` would be
  /// compared as the text `'leva'`), but a shell's user writes them first. It says so at
  /// the quote and shows the value written in double quotes, and bare too when it reads
  /// bare as that same text.
  mutating func singleQuoted() -> ConditionError {
    let quote = position
    let closing = scalars[(quote + 1)...].firstIndex(of: "'") ?? scalars.count
    let inner = text((quote + 1)..<closing)
    let quoted = Format.quoted(JSONValue.string(inner).compactText, quote: "")
    var message = "single quotes do not quote a value: write \(quoted) (in double quotes)"
    if Self.readsBare(inner) { message += " or \(Format.quoted(inner, quote: "")) (a bare word)" }
    return error(message, at: quote)
  }

  /// Whether `text` written as a bare value is read as that text: a word without spaces,
  /// double quotes, parentheses, `&&` or `||`, that is no JSON value (`3`, `true`, `null`)
  /// and does not start as one (`[`, `{`). (It holds no single quote: the quotes around it
  /// ended at the first.)
  static func readsBare(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, first != "[", first != "{" else {
      return false
    }
    let ends = text.unicodeScalars.contains {
      $0.properties.isWhitespace || $0 == "\"" || $0 == "(" || $0 == ")"
    }
    return !ends && !text.contains("&&") && !text.contains("||")
      && (try? JSONValue(parsing: text)) == nil
  }

  /// The index of the bracket that closes the one at `start`, skipping strings; nil
  /// when none does.
  func closingBracket(from start: Int) -> Int? {
    var depth = 0
    var index = start
    var inString = false
    while index < scalars.count {
      let character = scalars[index]
      if inString {
        if character == "\\" {
          index += 1
        } else if character == "\"" {
          inString = false
        }
      } else if character == "\"" {
        inString = true
      } else if character == "[" || character == "{" {
        depth += 1
      } else if character == "]" || character == "}" {
        depth -= 1
        if depth == 0 { return index }
      }
      index += 1
    }
    return nil
  }

  /// Parses `scalars[start..<position]` as JSON, placing a parse error in the
  /// condition.
  func parseJSON(from start: Int) throws(ConditionError) -> JSONValue {
    let json = text(start..<position)
    do throws(JSONParseError) {
      return try JSONValue(parsing: json)
    } catch {
      // The parser counts characters: the scalars of those before the error.
      let scalarOffset = json.prefix(max(error.column - 1, 0)).unicodeScalars.count
      throw self.error("not a JSON value: \(error.message)", at: start + scalarOffset)
    }
  }
}
