public import RewindJournal

/// Decodes values written by ``CompactBinaryEncoder``.
///
/// The bytes may come from a damaged or hostile journal: every read is bounds-checked,
/// counts are limited (``maximumCount``) and allocation never trusts them, nesting is
/// limited (``maximumDepth``), strings must be UTF-8. Bad bytes give a `CodecError` with
/// the byte offset, never a trap.
public struct CompactBinaryDecoder: Sendable {
  /// The most elements an array, dictionary or set may declare.
  public static let maximumCount = 1 << 20
  /// The deepest nesting of values accepted, so that hostile bytes for a recursive type
  /// cannot exhaust the stack.
  public static let maximumDepth = 128

  public init() {}

  /// Decodes a value of `type` from the reader's position, leaving the reader after it.
  /// - Throws: `CodecError` on malformed or truncated bytes, or bytes that are not a
  ///   value of `type`.
  /// - Complexity: O(bytes read).
  public func decode<Value: Decodable>(_ type: Value.Type, from reader: inout ByteReader)
    throws(CodecError) -> Value
  {
    let decoding = CompactDecoding(reader)
    defer { reader = decoding.reader }
    do {
      return try decoding.decode(type)
    } catch {
      throw decoding.codecError(for: error)
    }
  }

  /// Decodes a value of `type` that must fill `bytes` exactly.
  /// - Throws: `CodecError`, also when bytes are left over.
  public func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8])
    throws(CodecError) -> Value
  {
    try ByteReader.decodeAll(bytes) { reader throws(CodecError) in try decode(type, from: &reader) }
  }
}

/// The reader of one decoding, shared by its containers.
final class CompactDecoding {
  var reader: ByteReader
  private var depth = 0
  /// The key of a nested container, read ahead by `allKeys` (how an enum learns its case).
  private var pendingKey: String?
  /// A problem met where the `Codable` API cannot throw (`allKeys`): reported instead of
  /// the vaguer error the decoding throws after it.
  private var deferredError: CodecError?

  init(_ reader: ByteReader) { self.reader = reader }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    depth += 1
    defer { depth -= 1 }
    guard depth <= CompactBinaryDecoder.maximumDepth else {
      throw CodecError(
        .tooLarge, "values nested deeper than \(CompactBinaryDecoder.maximumDepth) levels",
        at: reader.offset)
    }
    let value: Any
    if let optional = type as? any CompactDecodable.Type {
      value = try optional.decodeCompactly(from: self)
    } else if let primitive = try primitive(type) {
      value = primitive
    } else {
      value = try T(from: CompactDecoder(decoding: self))
    }
    return value as! T
  }

  /// A string, boolean or number, or nil when `T` is none of those.
  private func primitive<T>(_ type: T.Type) throws(CodecError) -> Any? {
    let start = reader.offset
    if type == String.self { return try reader.readString(maxLength: .max) }
    if type == Bool.self {
      switch try reader.readByte() {
      case 0: return false
      case 1: return true
      case let byte: throw CodecError(.invalidValue, "a boolean is 0 or 1, not \(byte)", at: start)
      }
    }
    if type == Double.self { return Double(bitPattern: try reader.readLittleEndian(UInt64.self)) }
    if type == Float.self { return Float(bitPattern: try reader.readLittleEndian(UInt32.self)) }
    func fit<I: FixedWidthInteger>(_ value: some BinaryInteger, as type: I.Type) throws(CodecError)
      -> I
    {
      guard let result = I(exactly: value) else {
        throw CodecError(.invalidValue, "\(value) does not fit in \(I.self)", at: start)
      }
      return result
    }
    if let signed = type as? any (FixedWidthInteger & SignedInteger).Type, signed.bitWidth <= 64 {
      return try fit(try reader.readZigZag(), as: signed)
    }
    if let unsigned = type as? any (FixedWidthInteger & UnsignedInteger).Type,
      unsigned.bitWidth <= 64
    {
      return try fit(try reader.readVarint(), as: unsigned)
    }
    return nil
  }

  /// Reads an optional's presence byte: true for a value, false for nil.
  func readPresence() throws(CodecError) -> Bool {
    let start = reader.offset
    switch try reader.readByte() {
    case 0: return false
    case 1: return true
    case let byte:
      throw CodecError(.invalidValue, "an optional is marked 0 or 1, not \(byte)", at: start)
    }
  }

  /// Reads a count of elements, within ``CompactBinaryDecoder/maximumCount``.
  func readCount() throws(CodecError) -> Int {
    Int(try reader.readVarint(atMost: UInt64(CompactBinaryDecoder.maximumCount), "element count"))
  }

  /// The key of the nested container that comes next, read ahead; nil (and the problem
  /// kept for the error) when it cannot be read.
  func peekKey() -> String? {
    if let pendingKey { return pendingKey }
    do throws(CodecError) {
      pendingKey = try reader.readString(maxLength: .max)
    } catch {
      deferredError = deferredError ?? error
    }
    return pendingKey
  }

  /// Notes that the key read ahead names no case of the enum being decoded.
  func noteUnknownKey(_ key: String) {
    deferredError =
      deferredError
      ?? CodecError(.invalidValue, "'\(key)' is not a known case", at: reader.offset)
  }

  /// Reads the key of a nested container, which must be `expected`.
  func consumeKey(_ expected: some CodingKey) throws(CodecError) {
    let start = reader.offset
    let found: String
    if let pendingKey {
      found = pendingKey
      self.pendingKey = nil
    } else {
      found = try reader.readString(maxLength: .max)
    }
    guard found == expected.stringValue else {
      throw CodecError(
        .invalidValue, "expected the key '\(expected.stringValue)', found '\(found)'", at: start)
    }
  }

  /// The `CodecError` to report for whatever a decoding threw.
  func codecError(for error: any Error) -> CodecError {
    if let deferredError { return deferredError }
    if let error = error as? CodecError { return error }
    let message =
      switch error as? DecodingError {
      case .typeMismatch(_, let context), .valueNotFound(_, let context),
        .keyNotFound(_, let context), .dataCorrupted(let context):
        context.debugDescription
      default: "\(error)"
      }
    return CodecError(.invalidValue, message, at: reader.offset)
  }
}

/// Types the compact decoder reads in a form of its own: optionals (a presence byte), and
/// dictionaries and sets as ``CompactBinaryEncoder`` counts them. A comparable key or
/// element that appears twice is refused; one that is not comparable is taken once (the
/// last value of a key), as the standard library's decoding, which read them before,
/// took it: two elements unequal in memory may encode to the same bytes (a field their
/// coding leaves out), and a journal that held them read.
protocol CompactDecodable {
  static func decodeCompactly(from decoding: CompactDecoding) throws -> Self
}

extension Optional: CompactDecodable where Wrapped: Decodable {
  static func decodeCompactly(from decoding: CompactDecoding) throws -> Self {
    try decoding.readPresence() ? try decoding.decode(Wrapped.self) : nil
  }
}

extension Dictionary: CompactDecodable where Key: Decodable, Value: Decodable {
  /// Reads the count, then the keys and values in turn. The count is that of the entries
  /// when the keys are comparable; otherwise it is that of the keys and values, twice
  /// as many, as the standard library writes such a dictionary (and so as journals
  /// written before Rewind ordered them hold them).
  static func decodeCompactly(from decoding: CompactDecoding) throws -> Self {
    let start = decoding.reader.offset
    var count = try decoding.readCount()
    if !(Key.self is any Comparable.Type) {
      guard count.isMultiple(of: 2) else {
        throw CodecError(
          .invalidValue,
          "a dictionary whose keys are not comparable holds its keys and values in turn, an even count of them, not \(count)",
          at: start)
      }
      count /= 2
    }
    let refusesTwice = Key.self is any Comparable.Type
    var result: Self = [:]
    for _ in 0..<count {
      let start = decoding.reader.offset
      let key = try decoding.decode(Key.self)
      let replaced = result.updateValue(try decoding.decode(Value.self), forKey: key)
      if refusesTwice, replaced != nil {
        throw CodecError(.invalidValue, "a dictionary key appears twice", at: start)
      }
    }
    return result
  }
}

extension Set: CompactDecodable where Element: Decodable {
  static func decodeCompactly(from decoding: CompactDecoding) throws -> Self {
    let count = try decoding.readCount()
    let refusesTwice = Element.self is any Comparable.Type
    var result: Self = []
    for _ in 0..<count {
      let start = decoding.reader.offset
      if !result.insert(try decoding.decode(Element.self)).inserted, refusesTwice {
        throw CodecError(.invalidValue, "a set element appears twice", at: start)
      }
    }
    return result
  }
}

struct CompactDecoder: Decoder {
  let decoding: CompactDecoding
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(CompactKeyedDecoding<Key>(decoding: decoding))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    CompactUnkeyedDecoding(decoding: decoding, count: try decoding.readCount())
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    CompactSingleValueDecoding(decoding: decoding)
  }
}

struct CompactKeyedDecoding<Key: CodingKey>: KeyedValueDecoding {
  let decoding: CompactDecoding
  var codingPath: [any CodingKey] { [] }

  /// The key of the nested container that comes next: how a synthesised enum learns its
  /// case. A struct's fields carry no keys.
  var allKeys: [Key] {
    guard let name = decoding.peekKey() else { return [] }
    guard let key = Key(stringValue: name) else {
      decoding.noteUnknownKey(name)
      return []
    }
    return [key]
  }

  func contains(_ key: Key) -> Bool { true }

  func decodeNil(forKey key: Key) throws -> Bool { try !decoding.readPresence() }

  func decodeValue<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try decoding.decode(type)
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
    throws -> KeyedDecodingContainer<NestedKey>
  {
    try decoding.consumeKey(key)
    return KeyedDecodingContainer(CompactKeyedDecoding<NestedKey>(decoding: decoding))
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try decoding.consumeKey(key)
    return CompactUnkeyedDecoding(decoding: decoding, count: try decoding.readCount())
  }

  func superDecoder() throws -> any Decoder { CompactDecoder(decoding: decoding) }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    try decoding.consumeKey(key)
    return CompactDecoder(decoding: decoding)
  }
}

struct CompactUnkeyedDecoding: UnkeyedValueDecoding {
  let decoding: CompactDecoding
  let elementCount: Int
  private(set) var currentIndex = 0
  var codingPath: [any CodingKey] { [] }

  init(decoding: CompactDecoding, count: Int) {
    self.decoding = decoding
    elementCount = count
  }

  var count: Int? { elementCount }
  var isAtEnd: Bool { currentIndex >= elementCount }

  private mutating func advance() throws(CodecError) {
    guard !isAtEnd else {
      throw CodecError(
        .invalidValue, "read past the \(elementCount) elements of an array",
        at: decoding.reader.offset)
    }
    currentIndex += 1
  }

  /// Reads a presence byte, as an optional writes it: true (and the element passed)
  /// for nil.
  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd else { return false }
    guard try !decoding.readPresence() else { return false }
    currentIndex += 1
    return true
  }

  mutating func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
    try advance()
    return try decoding.decode(type)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try advance()
    return KeyedDecodingContainer(CompactKeyedDecoding<NestedKey>(decoding: decoding))
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try advance()
    return CompactUnkeyedDecoding(decoding: decoding, count: try decoding.readCount())
  }

  mutating func superDecoder() throws -> any Decoder {
    try advance()
    return CompactDecoder(decoding: decoding)
  }
}

struct CompactSingleValueDecoding: SingleValueDecoding {
  let decoding: CompactDecoding
  var codingPath: [any CodingKey] { [] }

  /// Reads a presence byte, as an optional writes it: true for nil.
  func decodeNil() -> Bool {
    (try? decoding.readPresence()) == false
  }

  func decodeValue<T: Decodable>(_ type: T.Type) throws -> T { try decoding.decode(type) }
}
