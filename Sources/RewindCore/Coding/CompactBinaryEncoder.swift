public import RewindJournal

/// Encodes `Encodable` values in Rewind's compact binary form: the event and state codec
/// a ``Domain`` gets by default.
///
/// The form is positional, like the fields of a C struct: a value is its stored
/// properties in the order its type encodes them, with no keys, so it reads back only as
/// the same type (``CompactBinaryDecoder``). Byte by byte:
///
/// | value | bytes |
/// | --- | --- |
/// | `Bool` | one byte, 0 or 1 |
/// | unsigned integer | a varint (LEB128: seven bits a byte, least significant first) |
/// | signed integer | a zigzag varint (0, -1, 1, -2 … as 0, 1, 2, 3 …) |
/// | `Float`, `Double` | the IEEE 754 bits, little-endian (4 or 8 bytes) |
/// | `String` | a varint byte count, then UTF-8 |
/// | `Optional` | 0 for nil; 1, then the value |
/// | array, unkeyed container | a varint count, then the elements |
/// | dictionary with comparable keys | a varint count, then key and value by ascending key |
/// | other dictionary | a varint of twice the count, then key and value in encoding order |
/// | set of comparable elements | a varint count, then the elements in ascending order |
/// | other set | a varint count, then the elements in encoding order |
/// | struct, keyed container | the values in encoding order, no keys |
/// | nested keyed or unkeyed container | its key as a `String`, then its content |
///
/// The last row is how an enum is written: a synthesised `Codable` enum encodes its case
/// as a nested container keyed by the case name, so a case is its name followed by its
/// payload (`added(amount: 5)` is `05 'added' 0A`).
///
/// Equal values give the same bytes in every process. A dictionary's or a set's own
/// iteration order cannot be used for that: it follows the hash seed, which changes from
/// one process to the next, and even in one process differs between equal sets built in
/// another order. So comparable keys and elements are written in ascending order, and
/// others in *encoding order*: each element (or a dictionary's key followed by its value)
/// is encoded on its own, and they are written in ascending order of those bytes,
/// compared byte by byte (for strings that is shorter ones first, then by their UTF-8
/// bytes). A dictionary whose keys are not comparable keeps the standard library's form
/// (its keys and values in turn, counted together), so that such journals written before
/// it was ordered still read. ``JSONValueEncoder`` writes both in the same order.
///
/// What the order cannot reach: a type whose own `encode(to:)` writes an unordered
/// collection element by element (`container.encode(contentsOf: someSet)`) writes them in
/// hash order; encode the set itself (`container.encode(someSet)`) instead.
///
/// Hand-written `Codable` code must use containers as the synthesised code does: nil only
/// through optionals (`encodeIfPresent`, `decodeIfPresent`), the elements of one unkeyed
/// container written together.
public struct CompactBinaryEncoder: Sendable {
  public init() {}

  /// Appends the encoding of `value` to `writer`.
  /// - Throws: whatever the value's own `encode(to:)` throws (synthesised conformances
  ///   throw nothing here).
  /// - Complexity: O(size of the value).
  public func encode<Value: Encodable>(_ value: Value, into writer: inout ByteWriter) throws {
    let encoding = CompactEncoding()
    try encoding.encode(value)
    encoding.finish(into: &writer)
  }

  /// The encoding of `value`.
  /// - Throws: whatever the value's own `encode(to:)` throws.
  public func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
    var writer = ByteWriter()
    try encode(value, into: &writer)
    return writer.bytes
  }
}

/// The bytes of one encoding, and the element counts still to be placed in front of the
/// unkeyed containers (a container's count is known only once its elements are written).
final class CompactEncoding {
  var bytes = ByteWriter(capacity: 64)
  /// Each unkeyed container: where its elements start, and its counter.
  private var counts: [(position: Int, counter: ElementCounter)] = []

  /// The counter of a new unkeyed container, whose elements start here.
  func beginUnkeyed() -> ElementCounter {
    let counter = ElementCounter()
    counts.append((bytes.count, counter))
    return counter
  }

  /// Appends the bytes with every container's count in place.
  func finish(into writer: inout ByteWriter) {
    bytes.withUnsafeBytes { all in
      var start = 0
      for (position, counter) in counts {
        writer.write(contentsOf: UnsafeRawBufferPointer(rebasing: all[start..<position]))
        writer.writeVarint(UInt64(counter.count))
        start = position
      }
      writer.write(contentsOf: UnsafeRawBufferPointer(rebasing: all[start...]))
    }
  }

  func encode<Value: Encodable>(_ value: Value) throws {
    if let optional = value as? any EncodableOptional {
      guard let wrapped = optional.wrappedEncodable else { return bytes.write(0) }
      bytes.write(1)
      return try encode(wrapped)
    }
    if writePrimitive(value) { return }
    if let map = value as? any EncodableMap { return try writeMap(map) }
    if let set = value as? any EncodableSet { return try writeSet(set) }
    try value.encode(to: CompactEncoder(encoding: self))
  }

  /// Writes a dictionary: with comparable keys, its count and its entries in key order;
  /// with other keys, as the standard library writes those (an unkeyed container of keys
  /// and values in turn, so twice its count first), in the order of the entries'
  /// encodings (``inEncodingOrder(_:encoding:)``).
  private func writeMap(_ map: any EncodableMap) throws {
    if let sorted = map as? any SortedEncodableMap {
      let entries = sorted.sortedEntries
      bytes.writeVarint(UInt64(entries.count))
      for entry in entries {
        try encode(entry.key)
        try encode(entry.value)
      }
      return
    }
    let entries = try inEncodingOrder(map.unorderedEntries) { [$0.key, $0.value] }
    bytes.writeVarint(2 * UInt64(entries.count))
    for entry in entries { bytes.write(contentsOf: entry.bytes) }
  }

  /// Writes a set: its count, then its elements in ascending order when they are
  /// comparable, otherwise in the order of their encodings (``inEncodingOrder(_:encoding:)``).
  private func writeSet(_ set: any EncodableSet) throws {
    if let sorted = set as? any SortedEncodableSet {
      let elements = sorted.sortedElements
      bytes.writeVarint(UInt64(elements.count))
      for element in elements { try encode(element) }
      return
    }
    let elements = try inEncodingOrder(set.unorderedElements) { [$0] }
    bytes.writeVarint(UInt64(elements.count))
    for element in elements { bytes.write(contentsOf: element.bytes) }
  }

  /// Writes a string, a boolean or a number; false for any other value.
  private func writePrimitive(_ value: some Encodable) -> Bool {
    switch value {
    case let text as String: bytes.writeString(text)
    case let flag as Bool: bytes.write(flag ? 1 : 0)
    case let real as Double: bytes.writeLittleEndian(real.bitPattern)
    case let real as Float: bytes.writeLittleEndian(real.bitPattern)
    case let integer as any FixedWidthInteger & SignedInteger where integer.bitWidth <= 64:
      bytes.writeZigZag(Int64(integer))
    case let integer as any FixedWidthInteger & UnsignedInteger where integer.bitWidth <= 64:
      bytes.writeVarint(UInt64(integer))
    default: return false
    }
    return true
  }

  /// Writes the key of a nested container: it names an enum's case.
  func writeKey(_ key: some CodingKey) { bytes.writeString(key.stringValue) }
}

/// The number of elements written to one unkeyed container so far.
final class ElementCounter {
  var count = 0
}

struct CompactEncoder: Encoder {
  let encoding: CompactEncoding
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(CompactKeyedEncoding<Key>(encoding: encoding))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    CompactUnkeyedEncoding(encoding: encoding, counter: encoding.beginUnkeyed())
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    CompactSingleValueEncoding(encoding: encoding)
  }
}

struct CompactKeyedEncoding<Key: CodingKey>: KeyedValueEncoding {
  let encoding: CompactEncoding
  var codingPath: [any CodingKey] { [] }

  mutating func encodeValue<T: Encodable>(_ value: T, forKey key: Key) throws {
    try encoding.encode(value)
  }

  mutating func encodeNil(forKey key: Key) throws { encoding.bytes.write(0) }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    encoding.writeKey(key)
    return CompactEncoder(encoding: encoding).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    encoding.writeKey(key)
    return CompactEncoder(encoding: encoding).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder { CompactEncoder(encoding: encoding) }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    encoding.writeKey(key)
    return CompactEncoder(encoding: encoding)
  }
}

struct CompactUnkeyedEncoding: UnkeyedValueEncoding {
  let encoding: CompactEncoding
  let counter: ElementCounter
  var codingPath: [any CodingKey] { [] }
  var count: Int { counter.count }

  mutating func encodeValue<T: Encodable>(_ value: T) throws {
    counter.count += 1
    try encoding.encode(value)
  }

  mutating func encodeNil() throws {
    counter.count += 1
    encoding.bytes.write(0)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    counter.count += 1
    return CompactEncoder(encoding: encoding).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    counter.count += 1
    return CompactEncoder(encoding: encoding).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    counter.count += 1
    return CompactEncoder(encoding: encoding)
  }
}

struct CompactSingleValueEncoding: SingleValueEncoding {
  let encoding: CompactEncoding
  var codingPath: [any CodingKey] { [] }

  mutating func encodeValue<T: Encodable>(_ value: T) throws { try encoding.encode(value) }

  mutating func encodeNil() throws { encoding.bytes.write(0) }
}
