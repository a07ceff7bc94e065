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

  /// Reads `bytes` as ``parse(_:into:)`` does when they start as `rewind export` writes
  /// a line, `{"seq":N,"time_us":T,` (no whitespace, the numbers' digits without a
  /// leading zero, at most 18): the two numbers, and the members after them in `storage`;
  /// nil when the text does not start so or its members are not a flat object's, which
  /// ``parse(_:into:)`` then reads. The fields held are those ``parse(_:into:)`` gives
  /// after the first two, whose keys are not checked against `seq` and `time_us`.
  static func parseExportedLine(
    _ bytes: UnsafeBufferPointer<UInt8>, into storage: inout JSONFieldBuffer
  ) -> (sequence: UInt64, time: UInt64)? {
    storage.count = 0
    var parser = FlatParser(bytes: bytes)
    return parser.parseExportedLine(into: &storage)
  }

  /// Reads `bytes` as ``parseExportedLine(_:into:)`` does when their first `prefixCount`
  /// bytes are known to be `{"seq":N,"time_us":` as `rewind export` writes it: the time,
  /// and the members after it in `storage`; nil when the rest is not as
  /// ``parseExportedLine(_:into:)`` takes it.
  static func parseExportedLine(
    _ bytes: UnsafeBufferPointer<UInt8>, afterPrefix prefixCount: Int,
    into storage: inout JSONFieldBuffer
  ) -> UInt64? {
    storage.count = 0
    var parser = FlatParser(bytes: bytes)
    parser.position = prefixCount
    guard let time = parser.canonicalInteger(), parser.take(UInt8(ascii: ",")),
      parser.parseCompactMembers(into: &storage)
    else { return nil }
    return time
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
    if take(UInt8(ascii: "}")) {
      skipWhitespace()
      return position == bytes.count
    }
    return parseMembers(into: &fields)
  }

  /// The members of an object from the first after `{` (or after a `,`) to its `}`, and
  /// the end of the text after it.
  mutating func parseMembers(into fields: inout JSONFieldBuffer) -> Bool {
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
    skipWhitespace()
    return position == bytes.count
  }

  /// Reads `{"seq":N,"time_us":T,` as `rewind export` writes it (no whitespace, each
  /// number's digits without a leading zero, at most 18 of them), then the members after
  /// it into `fields`: nil for any other text, which ``parseObject(into:)`` then reads.
  mutating func parseExportedLine(into fields: inout JSONFieldBuffer)
    -> (sequence: UInt64, time: UInt64)?
  {
    guard expect("{\"seq\":"), let sequence = canonicalInteger(),
      expect(",\"time_us\":"), let time = canonicalInteger(), take(UInt8(ascii: ","))
    else { return nil }
    guard parseCompactMembers(into: &fields) else { return nil }
    return (sequence, time)
  }

  /// The members of an object as `rewind export` writes them, without whitespace, from
  /// the first after `{` (or after a `,`) to the `}` that ends the text: what
  /// ``parseMembers(into:)`` reads from such text, in fewer steps; false for any other
  /// text (whitespace included), which ``parseMembers(into:)`` then reads.
  mutating func parseCompactMembers(into fields: inout JSONFieldBuffer) -> Bool {
    guard let base = bytes.baseAddress else { return false }
    let end = bytes.count
    while true {
      guard let key = parseString(), position < end, base[position] == UInt8(ascii: ":") else {
        return false
      }
      position &+= 1
      guard let field = parseValue(key: key) else { return false }
      for index in 0..<fields.count where FlatParser.same(fields.base[index].key, key) {
        return false
      }
      fields.append(field)
      guard position < end else { return false }
      let next = base[position]
      position &+= 1
      if next == UInt8(ascii: ",") { continue }
      return next == UInt8(ascii: "}") && position == end
    }
  }

  /// Whether the text goes on with `word` (of 16 bytes at most), then moved past it.
  @inline(__always)
  mutating func expect(_ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard bytes.count - position >= count else { return false }
    // Compared as two words of up to eight bytes each, the word's read from its own.
    let text = UnsafeRawPointer(bytes.baseAddress! + position)
    let expected = UnsafeRawPointer(word.utf8Start)
    func load(_ pointer: UnsafeRawPointer, _ offset: Int, _ count: Int) -> UInt64 {
      var value: UInt64 = 0
      withUnsafeMutableBytes(of: &value) {
        $0.baseAddress!.copyMemory(from: pointer + offset, byteCount: count)
      }
      return value
    }
    let head = Swift.min(count, 8)
    guard load(text, 0, head) == load(expected, 0, head),
      count <= 8 || load(text, 8, count - 8) == load(expected, 8, count - 8)
    else { return false }
    position += count
    return true
  }

  /// A whole number of 1 to 18 digits, the first not 0 (or 0 alone), followed by
  /// something other than a digit, `.`, `e` or `E`: read as the full parser reads it.
  mutating func canonicalInteger() -> UInt64? {
    let end = bytes.count
    guard let base = bytes.baseAddress else { return nil }
    let first = position
    var index = position
    var value: UInt64 = 0
    readLeadingDigits(&index, into: &value)
    let count = index - first
    guard count >= 1, count <= 18, count == 1 || base[first] != UInt8(ascii: "0"), index < end,
      base[index] == UInt8(ascii: ",") || base[index] == UInt8(ascii: "}")
    else { return nil }
    position = index
    return value
  }

  /// A string without escapes or control characters, ASCII; its bytes without quotes.
  mutating func parseString() -> UnsafeBufferPointer<UInt8>? {
    let end = bytes.count
    guard position < end, let base = bytes.baseAddress, base[position] == UInt8(ascii: "\"")
    else { return nil }
    // A local index: the loop keeps it in a register.
    let first = position + 1
    var index = first
    #if _endian(little)
      // Eight bytes at a time: the first that is a quote, a backslash, a control
      // character or not ASCII (the lowest flagged byte of each test is exact: a false
      // flag comes only from the borrow of a lower flagged byte).
      while index < end {
        let word = FlatParser.word(base, at: index, end: end)
        let quotes = word ^ 0x2222_2222_2222_2222
        let backslashes = word ^ 0x5C5C_5C5C_5C5C_5C5C
        let flagged =
          ((quotes &- 0x0101_0101_0101_0101) & ~quotes)
          | ((backslashes &- 0x0101_0101_0101_0101) & ~backslashes)
          | (word &- 0x2020_2020_2020_2020) | word
        let special = flagged & 0x8080_8080_8080_8080
        guard special != 0 else {
          index &+= 8
          continue
        }
        let at = index &+ special.trailingZeroBitCount &>> 3
        guard at < end, base[at] == UInt8(ascii: "\"") else { return nil }
        position = at &+ 1
        return UnsafeBufferPointer(start: base + first, count: at &- first)
      }
      return nil
    #else
      while index < end {
        let byte = base[index]
        if byte == UInt8(ascii: "\"") {
          position = index + 1
          return UnsafeBufferPointer(start: base + first, count: index - first)
        }
        // 0x20 to 0x7F, not a backslash.
        guard byte &- 0x20 < 0x60, byte != UInt8(ascii: "\\") else { return nil }
        index += 1
      }
      return nil
    #endif
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

  /// The eight bytes of the text from `at` (before `end`) as a little-endian word, the
  /// first byte the lowest; zeros for those at or after `end`. The last few bytes of a
  /// text of eight or more are read with the seven before them, and shifted down.
  @inline(__always)
  static func word(_ base: UnsafePointer<UInt8>, at: Int, end: Int) -> UInt64 {
    if at &+ 8 <= end { return UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self) }
    if end >= 8 {
      let tail = UnsafeRawPointer(base + (end &- 8)).loadUnaligned(as: UInt64.self)
      return tail &>> UInt64((at &+ 8 &- end) &* 8)
    }
    var word: UInt64 = 0
    var index = end
    while index > at {
      index &-= 1
      word = word &<< 8 | UInt64(base[index])
    }
    return word
  }

  /// Reads the decimal digits from `index` on into `digits` (`digits × 10 + digit` for
  /// each, wrapping), and moves `index` past them: eight bytes at a time while eight are
  /// left (the digits at their start found by a mask and read at once), the last few one
  /// by one. For short numbers (a line's `seq` and `time_us`).
  @inline(__always)
  func readLeadingDigits(_ index: inout Int, into digits: inout UInt64) {
    let end = bytes.count
    var at = index
    var value = digits
    #if _endian(little)
      if let base = bytes.baseAddress {
        while at &+ 8 <= end {
          let word = UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self)
          // A byte is a digit when its high half is 3 and adding 6 leaves it 3 (a carry
          // out of a byte comes only from one that is no digit, and changes only the bytes
          // after it).
          let notDigits =
            ((word & 0xF0F0_F0F0_F0F0_F0F0) ^ 0x3030_3030_3030_3030)
            | (((word &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) ^ 0x3030_3030_3030_3030)
          // The digits at the start of the word (the first byte is the lowest).
          let count = notDigits.trailingZeroBitCount >> 3
          guard count > 0 else { break }
          // Those digits moved to the word's end, zeros before them: their value.
          let shifted = count == 8 ? word : word << UInt64(64 &- count &* 8)
          value = value &* FlatParser.powerOfTen(count) &+ FlatParser.eightDigits(shifted)
          at &+= count
          guard count == 8 else {
            index = at
            digits = value
            return
          }
        }
      }
    #endif
    while at < end {
      let digit = bytes[at] &- UInt8(ascii: "0")
      guard digit <= 9 else { break }
      value = value &* 10 &+ UInt64(digit)
      at &+= 1
    }
    index = at
    digits = value
  }

  /// Reads the decimal digits from `index` on into `digits` (`digits × 10 + digit` for
  /// each, wrapping), eight at a time while eight bytes of digits are left, and moves
  /// `index` past them. For long numbers (a double's 16 or 17 digits).
  @inline(__always)
  func readDigits(_ index: inout Int, into digits: inout UInt64) {
    let end = bytes.count
    var at = index
    var value = digits
    #if _endian(little)
      if let base = bytes.baseAddress {
        while at &+ 8 <= end {
          let word = UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self)
          // Each byte a digit: its high half 3, and adding 6 does not carry it past 9
          // (simdjson's test).
          guard
            (word & 0xF0F0_F0F0_F0F0_F0F0)
              | (((word &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) >> 4)
              == 0x3333_3333_3333_3333
          else { break }
          value = value &* 100_000_000 &+ FlatParser.eightDigits(word)
          at &+= 8
        }
      }
    #endif
    while at < end {
      let digit = bytes[at] &- UInt8(ascii: "0")
      guard digit <= 9 else { break }
      value = value &* 10 &+ UInt64(digit)
      at &+= 1
    }
    index = at
    digits = value
  }

  /// The value of eight digits' bytes (each `0x30` to `0x39`, or 0 for a leading zero),
  /// the first byte (the lowest) the most significant: simdjson's
  /// `parse_eight_digits_unrolled`, pairs, then fours, then the eight.
  @inline(__always)
  static func eightDigits(_ word: UInt64) -> UInt64 {
    var eight = ((word & 0x0F0F_0F0F_0F0F_0F0F) &* 2561) >> 8
    eight = ((eight & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
    eight = ((eight & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
    return eight & 0xFFFF_FFFF
  }

  /// 10^`exponent`, for 1 to 8.
  @inline(__always)
  static func powerOfTen(_ exponent: Int) -> UInt64 {
    switch exponent {
    case 1: 10
    case 2: 100
    case 3: 1_000
    case 4: 10_000
    case 5: 100_000
    case 6: 1_000_000
    case 7: 10_000_000
    default: 100_000_000
    }
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
    // in 64 bits); leading zeros are not significant. 0 must stand alone. (Beyond 19,
    // `digits` wraps, and is not used.)
    var digits = first
    var count = first == 0 ? 0 : 1
    if first != 0 {
      let start = index
      readDigits(&index, into: &digits)
      count += index - start
    }
    var isInteger = true
    // The power of ten of the last digit.
    var exponent = 0
    if index < end && bytes[index] == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      let fractionStart = index
      // With no significant digit yet, the fraction's leading zeros are not significant
      // either (and add nothing to `digits`, which is 0).
      if count == 0 {
        while index < end && bytes[index] == UInt8(ascii: "0") { index += 1 }
      }
      let significantStart = index
      readDigits(&index, into: &digits)
      guard index > fractionStart else { return nil }
      count += index - significantStart
      exponent -= index - fractionStart
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
