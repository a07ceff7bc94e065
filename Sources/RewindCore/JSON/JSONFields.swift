/// One flat JSON object read in place from its UTF-8 bytes: keys and scalar values, no
/// `String` and no ``JSONValue`` built. What `rewind import` reads a line with when the
/// line has the usual shape; anything else (a nested value, an escape, a duplicate key,
/// text that is not ASCII, a syntax error) is left to ``JSONValue/init(parsing:)``,
/// whose errors name the column.
///
/// The fields point into the bytes they were read from, and are valid only while those
/// are (during the call they are handed to).
public struct JSONFields {
  /// The fields, in the order of the text.
  @usableFromInline let fields: UnsafeBufferPointer<JSONField>

  @usableFromInline init(_ fields: UnsafeBufferPointer<JSONField>) { self.fields = fields }

  /// The number of fields.
  @inlinable public var count: Int { fields.count }

  /// The field at `index`, in the order of the text.
  @inlinable public subscript(index: Int) -> JSONField { fields[index] }

  /// The field whose key is `key`, if any.
  @inlinable public subscript(key: StaticString) -> JSONField? {
    for field in fields where field.hasKey(key) { return field }
    return nil
  }

  /// Reads `bytes` as one flat object, `{"key": scalar, …}` with whitespace allowed
  /// around the tokens, into `storage` (emptied first); false when the text is not such
  /// an object of ASCII without escapes and without duplicate keys, or is not JSON at all.
  ///
  /// - Complexity: O(bytes) plus O(fields²) to find duplicate keys.
  static func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, into storage: inout JSONFieldBuffer
  ) -> Bool {
    storage.count = 0
    var parser = FlatParser(bytes: bytes)
    return parser.parseObject(into: &storage)
  }

  /// `parse(_:into:)` into an array, for tests.
  static func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, into storage: inout [JSONField]
  ) -> Bool {
    var buffer = JSONFieldBuffer()
    let parsed = parse(bytes, into: &buffer)
    storage = Array(buffer.fields)
    return parsed
  }
}

/// Room for the fields of a line read in place, kept from line to line by its reader:
/// it grows and never shrinks, and takes a field with no check of an array's.
struct JSONFieldBuffer: ~Copyable {
  private(set) var base: UnsafeMutablePointer<JSONField>
  private var capacity: Int
  /// The number of fields held.
  var count = 0

  init(capacity: Int = 16) {
    self.capacity = capacity
    base = .allocate(capacity: capacity)
  }

  deinit { base.deallocate() }

  /// The fields held.
  var fields: UnsafeMutableBufferPointer<JSONField> {
    UnsafeMutableBufferPointer(start: base, count: count)
  }

  @inline(__always) mutating func append(_ field: JSONField) {
    if count == capacity { grow() }
    (base + count).initialize(to: field)
    count += 1
  }

  @inline(never) private mutating func grow() {
    let grown = UnsafeMutablePointer<JSONField>.allocate(capacity: capacity * 2)
    grown.moveInitialize(from: base, count: count)
    base.deallocate()
    base = grown
    capacity *= 2
  }
}

/// One field of a ``JSONFields``: its key and its scalar value, as bytes of the text.
public struct JSONField {
  /// The kinds of scalar values.
  public enum Kind: Sendable {
    case null
    case `true`
    case `false`
    /// A number without a fraction or an exponent that fits in an `Int64`.
    case integer
    /// Any other number.
    case number
    case string
  }

  /// The key's bytes, without the quotes.
  public let key: UnsafeBufferPointer<UInt8>
  /// The value's kind.
  public let kind: Kind
  /// The value's bytes: a string's without the quotes, a number's text.
  public let value: UnsafeBufferPointer<UInt8>
  /// The value of an ``Kind/integer``; 0 for any other kind.
  public let integer: Int64
  /// The number's value, for an ``Kind/integer`` or a ``Kind/number``; 0 otherwise.
  let number: Double

  init(
    key: UnsafeBufferPointer<UInt8>, kind: Kind, value: UnsafeBufferPointer<UInt8>,
    integer: Int64 = 0, number: Double = 0
  ) {
    self.key = key
    self.kind = kind
    self.value = value
    self.integer = integer
    self.number = number
  }

  /// Whether the key is `key`.
  @inlinable public func hasKey(_ key: StaticString) -> Bool {
    JSONField.equal(self.key, key)
  }

  /// Whether the value is the string `text`.
  @inlinable public func isString(_ text: StaticString) -> Bool {
    kind == .string && JSONField.equal(value, text)
  }

  /// The value as a `String`, if it is a string.
  public var string: String? {
    kind == .string ? String(decoding: value, as: UTF8.self) : nil
  }

  /// The value as a `Double`, if it is a number: what ``JSONValue/doubleValue`` gives for
  /// the value ``JSONValue/init(parsing:)`` reads.
  public var double: Double? {
    kind == .integer || kind == .number ? number : nil
  }

  @inlinable static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
    guard bytes.count == text.utf8CodeUnitCount else { return false }
    return text.withUTF8Buffer { expected in
      for index in 0..<expected.count where bytes[index] != expected[index] { return false }
      return true
    }
  }
}

/// The parser of ``JSONFields``: it says only whether the text is a flat object of the
/// usual shape; what is wrong with one that is not, the full parser says.
private struct FlatParser {
  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0

  init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    for index in 0..<a.count where a[index] != b[index] { return false }
    return true
  }

  mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D: position += 1
      default: return
      }
    }
  }

  mutating func take(_ byte: UInt8) -> Bool {
    guard position < bytes.count, bytes[position] == byte else { return false }
    position += 1
    return true
  }

  mutating func parseObject(into fields: inout JSONFieldBuffer) -> Bool {
    skipWhitespace()
    guard take(UInt8(ascii: "{")) else { return false }
    skipWhitespace()
    if !take(UInt8(ascii: "}")) {
      while true {
        skipWhitespace()
        guard let key = parseString() else { return false }
        skipWhitespace()
        guard take(UInt8(ascii: ":")) else { return false }
        skipWhitespace()
        guard let field = parseValue(key: key) else { return false }
        for index in 0..<fields.count where FlatParser.same(fields.base[index].key, key) {
          return false
        }
        fields.append(field)
        skipWhitespace()
        if take(UInt8(ascii: ",")) { continue }
        guard take(UInt8(ascii: "}")) else { return false }
        break
      }
    }
    skipWhitespace()
    return position == bytes.count
  }

  /// A string without escapes or control characters, ASCII; its bytes without quotes.
  mutating func parseString() -> UnsafeBufferPointer<UInt8>? {
    guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
    // A local index: the loop keeps it in a register.
    let first = position + 1
    var index = first
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        position = index + 1
        return UnsafeBufferPointer(rebasing: bytes[first..<index])
      }
      guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
      index += 1
    }
    return nil
  }

  mutating func parseValue(key: UnsafeBufferPointer<UInt8>) -> JSONField? {
    guard position < bytes.count else { return nil }
    let start = position
    switch bytes[position] {
    case UInt8(ascii: "\""):
      guard let text = parseString() else { return nil }
      return JSONField(key: key, kind: .string, value: text)
    case UInt8(ascii: "n"):
      guard literal("null") else { return nil }
      return JSONField(key: key, kind: .null, value: slice(start))
    case UInt8(ascii: "t"):
      guard literal("true") else { return nil }
      return JSONField(key: key, kind: .true, value: slice(start))
    case UInt8(ascii: "f"):
      guard literal("false") else { return nil }
      return JSONField(key: key, kind: .false, value: slice(start))
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return parseNumber(key: key)
    default: return nil
    }
  }

  func slice(_ start: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: bytes[start..<position])
  }

  mutating func literal(_ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard position + count <= bytes.count,
      JSONField.equal(UnsafeBufferPointer(rebasing: bytes[position..<(position + count)]), word)
    else { return false }
    position += count
    return true
  }

  /// A number as JSON writes it; an integer that fits in an `Int64` is read here, and a
  /// decimal of up to 19 significant digits correctly rounded (`DoubleText.value`).
  mutating func parseNumber(key: UnsafeBufferPointer<UInt8>) -> JSONField? {
    let start = position
    // A local index (in a register through the loops), stored back at the end.
    var index = position
    let end = bytes.count
    @inline(__always) func digit(_ index: Int) -> UInt64? {
      guard index < end else { return nil }
      let digit = bytes[index] &- UInt8(ascii: "0")
      return digit <= 9 ? UInt64(digit) : nil
    }
    let negative = index < end && bytes[index] == UInt8(ascii: "-")
    if negative { index += 1 }
    guard let first = digit(index) else { return nil }
    index += 1
    // The significant digits, as long as there are at most 19 of them (they then fit
    // in 64 bits); leading zeros are not significant. 0 must stand alone.
    var digits = first
    var count = first == 0 ? 0 : 1
    if first != 0 {
      while let next = digit(index) {
        digits = digits &* 10 &+ next
        count += 1
        index += 1
      }
    }
    var isInteger = true
    // The power of ten of the last digit.
    var exponent = 0
    if index < end && bytes[index] == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      guard digit(index) != nil else { return nil }
      while let next = digit(index) {
        digits = digits &* 10 &+ next
        if count > 0 || next != 0 { count += 1 }
        exponent -= 1
        index += 1
      }
    }
    var exponentFits = true
    if index < end, bytes[index] | 0x20 == UInt8(ascii: "e") {
      isInteger = false
      index += 1
      var negativeExponent = false
      if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
        negativeExponent = bytes[index] == UInt8(ascii: "-")
        index += 1
      }
      guard digit(index) != nil else { return nil }
      var written = 0
      while let next = digit(index) {
        if written < 100_000 { written = written * 10 + Int(next) } else { exponentFits = false }
        index += 1
      }
      exponent += negativeExponent ? -written : written
    }
    position = index
    let text = slice(start)
    let fits = count <= 19
    if isInteger && fits {
      var integer: Int64?
      if negative, digits <= UInt64(Int64.max) + 1 {
        integer = Int64(truncatingIfNeeded: 0 &- digits)
      } else if !negative, digits <= UInt64(Int64.max) {
        integer = Int64(digits)
      }
      if let integer {
        return JSONField(
          key: key, kind: .integer, value: text, integer: integer, number: Double(integer))
      }
    }
    // The correctly rounded value, what `Double(text)` gives too.
    if fits, exponentFits, let value = DoubleText.value(digits: digits, exponent: exponent) {
      return JSONField(key: key, kind: .number, value: text, number: negative ? -value : value)
    }
    // More digits, an extreme exponent, a subnormal or an overflow: a Double, as the full
    // parser reads it; one out of range is its error to report.
    guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else {
      return nil
    }
    return JSONField(key: key, kind: .number, value: text, number: value)
  }
}
