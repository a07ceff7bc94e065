/// A JSON text that could not be parsed: what was expected, at which line and column.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
  public var message: String
  /// 1-based line of the problem.
  public var line: Int
  /// 1-based column (in characters) of the problem.
  public var column: Int

  package init(message: String, line: Int, column: Int) {
    self.message = message
    self.line = line
    self.column = column
  }

  public var description: String { "line \(line), column \(column): \(message)" }
}

extension JSONValue {
  /// The deepest nesting of arrays and objects the parser accepts, so that hostile input
  /// cannot exhaust the stack.
  public static let maximumDepth = 256

  /// Parses one JSON value that must fill the whole text (surrounding whitespace allowed).
  ///
  /// - Throws: ``JSONParseError`` naming the line, the column and what was expected.
  /// - Complexity: O(n) in the length of the text.
  public init(parsing text: String) throws(JSONParseError) {
    var text = text
    var result: Result<JSONValue, JSONParseError> = .success(.null)
    text.withUTF8 { bytes in
      var parser = JSONParser(bytes: bytes)
      do throws(JSONParseError) {
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.position == bytes.count else {
          throw parser.error("expected the end of the text after the JSON value")
        }
        result = .success(value)
      } catch {
        result = .failure(error)
      }
    }
    self = try result.get()
  }
}

private struct JSONParser {
  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0

  init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  func error(_ message: String, at offset: Int? = nil) -> JSONParseError {
    let offset = offset ?? position
    var line = 1
    var lineStart = 0
    for index in 0..<min(offset, bytes.count) where bytes[index] == UInt8(ascii: "\n") {
      line += 1
      lineStart = index + 1
    }
    // The characters before it on its line, as an editor counts columns (and scripts'
    // and conditions' errors do).
    let before = UnsafeBufferPointer(rebasing: bytes[lineStart..<min(offset, bytes.count)])
    let column = String(decoding: before, as: UTF8.self).count + 1
    return JSONParseError(message: message, line: line, column: column)
  }

  var current: UInt8? { position < bytes.count ? bytes[position] : nil }

  mutating func skipWhitespace() {
    while let byte = current,
      byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t")
        || byte == UInt8(ascii: "\r")
    {
      position += 1
    }
  }

  func describeCurrent() -> String {
    guard let byte = current else { return "the end of the text" }
    if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    return "byte 0x\(String(byte, radix: 16))"
  }

  mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
    guard depth < JSONValue.maximumDepth else {
      throw error("JSON nested deeper than \(JSONValue.maximumDepth) levels")
    }
    guard let byte = current else {
      throw error("expected a JSON value, found the end of the text")
    }
    switch byte {
    case UInt8(ascii: "{"): return try parseObject(depth: depth)
    case UInt8(ascii: "["): return try parseArray(depth: depth)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
    case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
    case UInt8(ascii: "n"): return try parseLiteral("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    default: throw error("expected a JSON value, found \(describeCurrent())")
    }
  }

  mutating func parseLiteral(_ word: String, _ value: JSONValue) throws(JSONParseError)
    -> JSONValue
  {
    let start = position
    for expected in word.utf8 {
      guard current == expected else {
        // The word as given (`nul`, `not`), which may be no JSON at all: not said as a
        // slip of the literal its first letter starts.
        position = start
        var found = ""
        while let byte = current, found.utf8.count < 20,
          (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        {
          found.unicodeScalars.append(Unicode.Scalar(byte))
          position += 1
        }
        throw error("expected a JSON value, found '\(found)'", at: start)
      }
      position += 1
    }
    return value
  }

  mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
    position += 1
    var members: [(String, JSONValue)] = []
    // The keys of a large object, made once it has more members than a linear search
    // of them is worth (a header's objects have 1 to 5).
    var keys: Set<String>?
    skipWhitespace()
    if current == UInt8(ascii: "}") {
      position += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard current == UInt8(ascii: "\"") else {
        throw error("expected a quoted key, found \(describeCurrent())")
      }
      let keyStart = position
      let key = try parseString()
      guard !Self.holds(key, members: members, keys: &keys) else {
        throw error("duplicate key \(Format.quoted(key, quote: "\""))", at: keyStart)
      }
      skipWhitespace()
      guard current == UInt8(ascii: ":") else {
        throw error("expected ':' after the key, found \(describeCurrent())")
      }
      position += 1
      skipWhitespace()
      members.append((key, try parseValue(depth: depth + 1)))
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): position += 1
      case UInt8(ascii: "}"):
        position += 1
        return .object(members)
      default: throw error("expected ',' or '}' in an object, found \(describeCurrent())")
      }
    }
  }

  /// The most members of an object whose keys are compared one by one for a duplicate;
  /// an object with more keeps a set of them.
  static let linearKeySearchLimit = 16

  /// Whether `key` is one of the keys of `members` (compared as `String`s are, as a
  /// `Set` would); `keys` is the set of them once there are more than
  /// ``linearKeySearchLimit``, kept up to date with `key`.
  static func holds(
    _ key: String, members: [(String, JSONValue)], keys: inout Set<String>?
  ) -> Bool {
    if keys == nil {
      guard members.count >= linearKeySearchLimit else {
        return members.contains { $0.0 == key }
      }
      keys = Set(members.map(\.0))
    }
    return !keys!.insert(key).inserted
  }

  mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
    position += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if current == UInt8(ascii: "]") {
      position += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try parseValue(depth: depth + 1))
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): position += 1
      case UInt8(ascii: "]"):
        position += 1
        return .array(elements)
      default: throw error("expected ',' or ']' in an array, found \(describeCurrent())")
      }
    }
  }

  mutating func parseHex4() throws(JSONParseError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = current else { throw error("expected 4 hex digits after \\u") }
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw error("expected 4 hex digits after \\u")
      }
      value = value * 16 + digit
      position += 1
    }
    return value
  }

  mutating func parseString() throws(JSONParseError) -> String {
    let start = position
    position += 1
    // A string without escapes (most keys and names) is its bytes: made at once.
    var end = position
    while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"),
      bytes[end] >= 0x20
    {
      end += 1
    }
    if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
      let text = String(
        decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
      position = end + 1
      return text
    }
    var scalars = String.UnicodeScalarView()
    var runStart = position
    func flushRun(_ parser: JSONParser, upTo end: Int, into scalars: inout String.UnicodeScalarView)
    {
      if end > runStart {
        let run = UnsafeBufferPointer(rebasing: parser.bytes[runStart..<end])
        scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
      }
    }
    while true {
      guard let byte = current else { throw error("unterminated string", at: start) }
      switch byte {
      case UInt8(ascii: "\""):
        flushRun(self, upTo: position, into: &scalars)
        position += 1
        return String(scalars)
      case UInt8(ascii: "\\"):
        flushRun(self, upTo: position, into: &scalars)
        position += 1
        guard let escape = current else { throw error("unterminated escape") }
        position += 1
        switch escape {
        case UInt8(ascii: "\""): scalars.append("\"")
        case UInt8(ascii: "\\"): scalars.append("\\")
        case UInt8(ascii: "/"): scalars.append("/")
        case UInt8(ascii: "b"): scalars.append("\u{08}")
        case UInt8(ascii: "f"): scalars.append("\u{0C}")
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "u"):
          var code = try parseHex4()
          if (0xD800..<0xDC00).contains(code) {
            guard current == UInt8(ascii: "\\"), position + 1 < bytes.count,
              bytes[position + 1] == UInt8(ascii: "u")
            else { throw error("unpaired UTF-16 surrogate in \\u escape") }
            position += 2
            let low = try parseHex4()
            guard (0xDC00..<0xE000).contains(low) else {
              throw error("unpaired UTF-16 surrogate in \\u escape")
            }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          }
          guard let scalar = Unicode.Scalar(code) else {
            throw error("\\u escape is not a Unicode scalar")
          }
          scalars.append(scalar)
        default: throw error("unknown escape '\\\(Character(Unicode.Scalar(escape)))'")
        }
        runStart = position
      case 0..<0x20:
        throw error("control character in a string must be escaped")
      default:
        position += 1
      }
    }
  }

  mutating func parseNumber() throws(JSONParseError) -> JSONValue {
    let start = position
    var isInteger = true
    if current == UInt8(ascii: "-") { position += 1 }
    guard let first = current, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else {
      throw error("expected a digit", at: position)
    }
    if first == UInt8(ascii: "0") {
      position += 1
    } else {
      while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
        position += 1
      }
    }
    if current == UInt8(ascii: ".") {
      isInteger = false
      position += 1
      guard let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
        throw error("expected a digit after '.'")
      }
      while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
        position += 1
      }
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      isInteger = false
      position += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
      guard let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
        throw error("expected a digit in the exponent")
      }
      while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
        position += 1
      }
    }
    let text = String(
      decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    if isInteger, let value = Int64(text) { return .int(value) }
    guard let value = Double(text), value.isFinite else {
      throw error("number \(Format.quoted(text, quote: "")) is out of range", at: start)
    }
    return .double(value)
  }
}
