/// Encodes `Encodable` values as ``JSONValue``: the JSON a ``Domain`` shows by default
/// for its events, states and settings.
///
/// The output is stable, so that states diff cleanly and print the same on every run:
/// - object keys keep the order the type encodes them in (declaration order for
///   synthesised conformances);
/// - a nil optional is written as `null` rather than left out, so that a state has the
///   same fields whatever its values;
/// - a dictionary with comparable keys is written in key order (an object when its keys
///   are strings, integers or `CodingKeyRepresentable`), a set of comparable elements sorted;
/// - a dictionary whose keys are not comparable, and a set whose elements are not, are
///   written in the order of their entries' ``CompactBinaryEncoder`` encodings, the order
///   the binary form has: never in the hash order that changes from one process to the
///   next;
/// - an enum case without a payload is written as its name (`"idle"`, not
///   `{"idle":{}}`);
/// - a non-finite number as the string `"NaN"`, `"Infinity"` or `"-Infinity"`.
///
/// ``JSONValueDecoder`` reads all of these back.
public struct JSONValueEncoder: Sendable {
  public init() {}

  /// The value as JSON.
  /// - Throws: whatever the value's own `encode(to:)` throws (synthesised conformances
  ///   throw nothing here).
  /// - Complexity: O(size of the value).
  public func encode<Value: Encodable>(_ value: Value) throws -> JSONValue {
    let node = JSONNode()
    try node.encode(value, path: [])
    return node.json
  }
}

/// A JSON value being built: containers fill it in place, and ``json`` reads it out.
final class JSONNode {
  private enum Kind {
    case empty
    case leaf(JSONValue)
    case object
    case array
  }

  private var kind = Kind.empty
  /// The members of an object, in the order they were first set.
  private var keys: [String] = []
  private var members: [String: JSONNode] = [:]
  /// The elements of an array.
  private var elements: [JSONNode] = []
  /// Built from a dictionary, whose keys are data: never shortened to a case name.
  private var isMap = false

  /// The value built; `null` when nothing was encoded.
  var json: JSONValue {
    switch kind {
    case .empty: return .null
    case .leaf(let value): return value
    case .array: return .array(elements.map(\.json))
    case .object:
      // `{"idle": {}}`, the standard form of an enum case without a payload, as `"idle"`.
      if !isMap, keys.count == 1, members[keys[0]]!.isEmptyObject { return .string(keys[0]) }
      return .object(keys.map { ($0, members[$0]!.json) })
    }
  }

  private var isEmptyObject: Bool {
    if case .object = kind { return keys.isEmpty && !isMap }
    return false
  }

  /// Makes this node an object (keeping members already set) and returns a new node for
  /// the member `key`, replacing any before.
  func member(_ key: String) -> JSONNode {
    makeObject()
    let node = JSONNode()
    if members.updateValue(node, forKey: key) == nil { keys.append(key) }
    return node
  }

  func makeObject() {
    if case .object = kind { return }
    kind = .object
  }

  /// Makes this node an array (keeping elements already there) and appends a new element.
  func appendElement() -> JSONNode {
    makeArray()
    let node = JSONNode()
    elements.append(node)
    return node
  }

  func makeArray() {
    if case .array = kind { return }
    kind = .array
  }

  var elementCount: Int { elements.count }

  func setLeaf(_ value: JSONValue) { kind = .leaf(value) }

  /// Encodes `value` into this node.
  func encode<Value: Encodable>(_ value: Value, path: [any CodingKey]) throws {
    if let optional = value as? any EncodableOptional {
      guard let wrapped = optional.wrappedEncodable else { return setLeaf(.null) }
      return try encode(wrapped, path: path)
    }
    if let leaf = JSONNode.leaf(of: value) { return setLeaf(leaf) }
    if let map = value as? any EncodableMap { return try encode(map, path: path) }
    if let set = value as? any EncodableSet { return try encode(set, path: path) }
    try value.encode(to: JSONNodeEncoder(node: self, codingPath: path))
  }

  /// Encodes a dictionary: its entries in key order when the keys are comparable,
  /// otherwise in the order of their compact binary encodings, as
  /// ``CompactBinaryEncoder`` writes them; as an object when the keys name members
  /// (``memberName(of:)``), otherwise as `[key, value, key, value, …]`, as the standard
  /// library writes them.
  private func encode(_ map: any EncodableMap, path: [any CodingKey]) throws {
    let entries =
      try (map as? any SortedEncodableMap)?.sortedEntries
      ?? inEncodingOrder(map.unorderedEntries) { [$0.key, $0.value] }.map(\.item)
    let names = entries.compactMap { memberName(of: $0.key) }
    guard names.count == entries.count else { return try encodePairs(entries, path: path) }
    try encodeObject(zip(names, entries).map { ($0, $1.value) }, path: path)
  }

  /// Encodes a dictionary's entries as an object's members, in order.
  private func encodeObject(
    _ members: [(name: String, value: any Encodable)], path: [any CodingKey]
  )
    throws
  {
    makeObject()
    isMap = true
    for (name, value) in members {
      try member(name).encode(value, path: path + [IndexKey(stringValue: name)])
    }
  }

  /// Encodes a dictionary's entries as `[key, value, key, value, …]`, as the standard
  /// library writes a dictionary whose keys cannot name an object's members.
  private func encodePairs(
    _ entries: [(key: any Encodable, value: any Encodable)], path: [any CodingKey]
  )
    throws
  {
    makeArray()
    for (index, entry) in entries.enumerated() {
      try appendElement().encode(entry.key, path: path + [IndexKey(intValue: 2 * index)])
      try appendElement().encode(entry.value, path: path + [IndexKey(intValue: 2 * index + 1)])
    }
  }

  /// Encodes a set as an array: sorted when its elements are comparable, otherwise in the
  /// order of their compact binary encodings, as ``CompactBinaryEncoder`` writes them.
  private func encode(_ set: any EncodableSet, path: [any CodingKey]) throws {
    let elements =
      try (set as? any SortedEncodableSet)?.sortedElements
      ?? inEncodingOrder(set.unorderedElements) { [$0] }.map(\.item)
    makeArray()
    for (index, element) in elements.enumerated() {
      try appendElement().encode(element, path: path + [IndexKey(intValue: index)])
    }
  }

  /// The JSON of a string, a boolean or a number.
  static func leaf(of value: some Encodable) -> JSONValue? {
    switch value {
    case let text as String: return .string(text)
    case let flag as Bool: return .bool(flag)
    case let real as Double: return number(real)
    case let real as Float: return number(Double(real))
    case let integer as any BinaryInteger:
      return Int64(exactly: integer).map(JSONValue.int) ?? .double(Double(integer))
    default: return nil
    }
  }

  static func number(_ value: Double) -> JSONValue {
    if value.isFinite { return .double(value) }
    if value.isNaN { return "NaN" }
    return value > 0 ? "Infinity" : "-Infinity"
  }
}

struct JSONNodeEncoder: Encoder {
  let node: JSONNode
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    node.makeObject()
    return KeyedEncodingContainer(JSONKeyedEncoding<Key>(node: node, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    node.makeArray()
    return JSONUnkeyedEncoding(node: node, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    JSONSingleValueEncoding(node: node, codingPath: codingPath)
  }
}

struct JSONKeyedEncoding<Key: CodingKey>: KeyedValueEncoding {
  let node: JSONNode
  let codingPath: [any CodingKey]

  mutating func encodeValue<T: Encodable>(_ value: T, forKey key: Key) throws {
    try node.member(key.stringValue).encode(value, path: codingPath + [key])
  }

  mutating func encodeNil(forKey key: Key) throws { node.member(key.stringValue).setLeaf(.null) }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let member = node.member(key.stringValue)
    return JSONNodeEncoder(node: member, codingPath: codingPath + [key]).container(
      keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    JSONNodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
      .unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    JSONNodeEncoder(
      node: node.member("super"), codingPath: codingPath + [IndexKey(stringValue: "super")])
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    JSONNodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
  }
}

struct JSONUnkeyedEncoding: UnkeyedValueEncoding {
  let node: JSONNode
  let codingPath: [any CodingKey]
  var count: Int { node.elementCount }

  private var nextPath: [any CodingKey] { codingPath + [IndexKey(intValue: count)] }

  mutating func encodeValue<T: Encodable>(_ value: T) throws {
    let path = nextPath
    try node.appendElement().encode(value, path: path)
  }

  mutating func encodeNil() throws { node.appendElement().setLeaf(.null) }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let path = nextPath
    return JSONNodeEncoder(node: node.appendElement(), codingPath: path).container(
      keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let path = nextPath
    return JSONNodeEncoder(node: node.appendElement(), codingPath: path).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let path = nextPath
    return JSONNodeEncoder(node: node.appendElement(), codingPath: path)
  }
}

struct JSONSingleValueEncoding: SingleValueEncoding {
  let node: JSONNode
  let codingPath: [any CodingKey]

  mutating func encodeValue<T: Encodable>(_ value: T) throws {
    try node.encode(value, path: codingPath)
  }

  mutating func encodeNil() throws { node.setLeaf(.null) }
}
