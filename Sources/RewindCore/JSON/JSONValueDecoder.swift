/// Decodes `Decodable` values from ``JSONValue``: reads what ``JSONValueEncoder`` writes,
/// and the JSON people write by hand.
///
/// Besides standard JSON it accepts an enum case without a payload written as its name
/// (`"idle"` for `{"idle":{}}`), a missing key for an optional, an integer written as a
/// number with a zero fraction, and `"NaN"`, `"Infinity"`, `"-Infinity"` for
/// floating-point numbers.
public struct JSONValueDecoder: Sendable {
  public init() {}

  /// Decodes a value of `type` from `json`.
  /// - Throws: ``DomainError`` naming where and what, e.g.
  ///   `items[2].amount: expected an integer, found a string`.
  /// - Complexity: O(size of the JSON).
  public func decode<Value: Decodable>(_ type: Value.Type, from json: JSONValue)
    throws(DomainError) -> Value
  {
    let decoding = JSONDecoding()
    do {
      return try decoding.decode(type, from: json, path: [])
    } catch {
      // A key missing from an event's members (or from the object itself).
      var missing: String?
      if case .keyNotFound(let key, let context)? = error as? DecodingError,
        context.codingPath.count <= 1
      {
        missing = key.stringValue
      }
      throw DomainError(decoding.message(for: error), missingKey: missing)
    }
  }
}

/// What one decoding shares between its containers: the key that named no case, so that
/// the error can say so.
final class JSONDecoding {
  private var unknownKey: (path: String, key: String)?

  func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, path: [any CodingKey]) throws
    -> T
  {
    if let primitive = try primitive(type, from: value, path: path) { return primitive }
    do {
      return try T(from: JSONValueDecoding(value: value, codingPath: path, decoding: self))
    } catch DecodingError.dataCorrupted(let context)
      where context.codingPath.count == path.count && T.self is any RawRepresentable.Type
    {
      // A raw value that names no case: Swift's "Cannot initialize Filter from invalid
      // String value opn" said as what was written, the cases named when they can be.
      guard case .string(let text) = value else { throw DecodingError.dataCorrupted(context) }
      var message = "\(Format.quoted(text, quote: "\"")) is not a \(T.self)"
      if let names = Self.rawNames(of: T.self), !names.isEmpty {
        message +=
          ": one of \(names.map { Format.quoted($0, quote: "\"") }.joined(separator: ", "))"
          + Format.meant(text, among: names)
      }
      throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: message))
    }
  }

  /// The string raw values of `type`'s cases, when it is a `CaseIterable` enum of them.
  private static func rawNames<T>(of type: T.Type) -> [String]? {
    func names<C: CaseIterable & RawRepresentable>(_: C.Type) -> [String] {
      C.allCases.compactMap { $0.rawValue as? String }
    }
    guard let iterable = type as? any (CaseIterable & RawRepresentable).Type else { return nil }
    return names(iterable)
  }

  /// A string, boolean or number, or nil when `T` is none of those.
  private func primitive<T>(_ type: T.Type, from value: JSONValue, path: [any CodingKey]) throws
    -> T?
  {
    func mismatch(_ expected: String) -> DecodingError {
      DecodingError.typeMismatch(
        T.self,
        .init(codingPath: path, debugDescription: "expected \(expected), found \(value.typeName)"))
    }
    if type == String.self {
      guard case .string(let text) = value else { throw mismatch("a string") }
      return text as? T
    }
    if type == Bool.self {
      guard case .bool(let flag) = value else { throw mismatch("a boolean") }
      return flag as? T
    }
    if type == Double.self || type == Float.self {
      let real: Double
      switch value {
      case .int, .double: real = value.doubleValue!
      case .string("NaN"): real = .nan
      case .string("Infinity"): real = .infinity
      case .string("-Infinity"): real = -.infinity
      default: throw mismatch("a number")
      }
      return type == Double.self ? real as? T : Float(real) as? T
    }
    if let integerType = type as? any FixedWidthInteger.Type {
      if value.isRoundedWhole {
        throw DecodingError.dataCorrupted(
          .init(
            codingPath: path,
            debugDescription:
              "expected an integer, found \(value.compactText), \(JSONValue.roundedWholeProblem)"))
      }
      guard let integer = value.intValue else {
        guard value.doubleValue == nil else {
          throw DecodingError.dataCorrupted(
            .init(
              codingPath: path, debugDescription: "expected an integer, found \(value.compactText)")
          )
        }
        throw mismatch("an integer")
      }
      func exactly<I: FixedWidthInteger>(_ type: I.Type) -> I? { I(exactly: integer) }
      guard let result = exactly(integerType) else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: path, debugDescription: "\(integer) does not fit in \(T.self)"))
      }
      return result as? T
    }
    return nil
  }

  /// Notes a key that is the only member of an object and names no case of the enum
  /// being decoded.
  func noteUnknownKey(_ key: String, at path: [any CodingKey]) {
    unknownKey = (path.dottedPath, key)
  }

  /// A readable message for an error thrown while decoding.
  func message(for error: any Error) -> String {
    func at(_ path: [any CodingKey]) -> String {
      path.isEmpty ? "" : "\(path.dottedPath): "
    }
    switch error as? DecodingError {
    case .typeMismatch(_, let context):
      if let unknownKey, unknownKey.path == context.codingPath.dottedPath {
        return "\(at(context.codingPath))\"\(unknownKey.key)\" is not a known case"
      }
      return at(context.codingPath) + context.debugDescription
    case .valueNotFound(_, let context), .dataCorrupted(let context):
      return at(context.codingPath) + context.debugDescription
    case .keyNotFound(let key, let context):
      return "\(at(context.codingPath))missing \"\(key.stringValue)\""
    default:
      return "\(error)"
    }
  }
}

struct JSONValueDecoding: Decoder {
  let value: JSONValue
  let codingPath: [any CodingKey]
  let decoding: JSONDecoding
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    switch value {
    case .object(let members):
      return KeyedDecodingContainer(
        JSONKeyedDecoding<Key>(members: members, codingPath: codingPath, decoding: decoding))
    case .string(let name):
      // An enum case without a payload, written as its name.
      return KeyedDecodingContainer(
        JSONKeyedDecoding<Key>(
          members: [(name, .object([]))], codingPath: codingPath, decoding: decoding))
    default:
      throw DecodingError.typeMismatch(
        [String: Any].self,
        .init(
          codingPath: codingPath, debugDescription: "expected an object, found \(value.typeName)")
      )
    }
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let elements) = value else {
      throw DecodingError.typeMismatch(
        [Any].self,
        .init(
          codingPath: codingPath, debugDescription: "expected an array, found \(value.typeName)"))
    }
    return JSONUnkeyedDecoding(elements: elements, codingPath: codingPath, decoding: decoding)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    JSONSingleValueDecoding(value: value, codingPath: codingPath, decoding: decoding)
  }
}

struct JSONKeyedDecoding<Key: CodingKey>: KeyedValueDecoding {
  let members: [String: JSONValue]
  let allKeys: [Key]
  let codingPath: [any CodingKey]
  let decoding: JSONDecoding

  init(members: [(String, JSONValue)], codingPath: [any CodingKey], decoding: JSONDecoding) {
    self.members = Dictionary(members, uniquingKeysWith: { first, _ in first })
    allKeys = members.compactMap { Key(stringValue: $0.0) }
    self.codingPath = codingPath
    self.decoding = decoding
    if members.count == 1, allKeys.isEmpty { decoding.noteUnknownKey(members[0].0, at: codingPath) }
  }

  func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

  private func value(for key: Key) throws -> JSONValue {
    guard let value = members[key.stringValue] else {
      throw DecodingError.keyNotFound(
        key, .init(codingPath: codingPath, debugDescription: "missing \"\(key.stringValue)\""))
    }
    return value
  }

  func decodeNil(forKey key: Key) throws -> Bool { (members[key.stringValue] ?? .null) == .null }

  func decodeValue<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try decoding.decode(type, from: value(for: key), path: codingPath + [key])
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
    throws -> KeyedDecodingContainer<NestedKey>
  {
    try JSONValueDecoding(
      value: value(for: key), codingPath: codingPath + [key], decoding: decoding
    )
    .container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try JSONValueDecoding(
      value: value(for: key), codingPath: codingPath + [key], decoding: decoding
    )
    .unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    JSONValueDecoding(
      value: members["super"] ?? .null, codingPath: codingPath + [IndexKey(stringValue: "super")],
      decoding: decoding)
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    JSONValueDecoding(
      value: members[key.stringValue] ?? .null, codingPath: codingPath + [key], decoding: decoding)
  }
}

struct JSONUnkeyedDecoding: UnkeyedValueDecoding {
  let elements: [JSONValue]
  let codingPath: [any CodingKey]
  let decoding: JSONDecoding
  private(set) var currentIndex = 0

  init(elements: [JSONValue], codingPath: [any CodingKey], decoding: JSONDecoding) {
    self.elements = elements
    self.codingPath = codingPath
    self.decoding = decoding
  }

  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  private mutating func next() throws -> (JSONValue, [any CodingKey]) {
    let path = codingPath + [IndexKey(intValue: currentIndex)]
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        Any.self, .init(codingPath: path, debugDescription: "the array has no more elements"))
    }
    currentIndex += 1
    return (elements[currentIndex - 1], path)
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd, elements[currentIndex] == .null else { return false }
    currentIndex += 1
    return true
  }

  mutating func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
    let (value, path) = try next()
    return try decoding.decode(type, from: value, path: path)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    let (value, path) = try next()
    return try JSONValueDecoding(value: value, codingPath: path, decoding: decoding).container(
      keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let (value, path) = try next()
    return try JSONValueDecoding(value: value, codingPath: path, decoding: decoding)
      .unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder {
    let (value, path) = try next()
    return JSONValueDecoding(value: value, codingPath: path, decoding: decoding)
  }
}

struct JSONSingleValueDecoding: SingleValueDecoding {
  let value: JSONValue
  let codingPath: [any CodingKey]
  let decoding: JSONDecoding

  func decodeNil() -> Bool { value == .null }

  func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
    try decoding.decode(type, from: value, path: codingPath)
  }
}
