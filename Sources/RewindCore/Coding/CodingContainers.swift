// The `Codable` container protocols ask for one method per primitive type. Rewind's coders
// treat every value alike (each looks at the value's type itself), so their containers
// implement one generic method and these extensions route every primitive requirement to
// it, once for all the coders.

/// A keyed encoding container that writes every value through one generic method.
protocol KeyedValueEncoding: KeyedEncodingContainerProtocol {
  mutating func encodeValue<T: Encodable>(_ value: T, forKey key: Key) throws
}

extension KeyedValueEncoding {
  mutating func encode(_ value: Bool, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encode(_ value: String, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encode(_ value: Int, forKey key: Key) throws { try encodeValue(value, forKey: key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encode(_ value: Int16, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encode(_ value: Int32, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encode(_ value: Int64, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }

  // A nil optional is written (as JSON `null`, as a presence byte), never left out: a
  // state's JSON has the same fields whatever its values, and the binary form needs the
  // mark to be read back.
  mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
  mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
    try encodeValue(value, forKey: key)
  }
}

/// An unkeyed encoding container that writes every value through one generic method.
protocol UnkeyedValueEncoding: UnkeyedEncodingContainer {
  mutating func encodeValue<T: Encodable>(_ value: T) throws
}

extension UnkeyedValueEncoding {
  mutating func encode(_ value: Bool) throws { try encodeValue(value) }
  mutating func encode(_ value: String) throws { try encodeValue(value) }
  mutating func encode(_ value: Double) throws { try encodeValue(value) }
  mutating func encode(_ value: Float) throws { try encodeValue(value) }
  mutating func encode(_ value: Int) throws { try encodeValue(value) }
  mutating func encode(_ value: Int8) throws { try encodeValue(value) }
  mutating func encode(_ value: Int16) throws { try encodeValue(value) }
  mutating func encode(_ value: Int32) throws { try encodeValue(value) }
  mutating func encode(_ value: Int64) throws { try encodeValue(value) }
  mutating func encode(_ value: UInt) throws { try encodeValue(value) }
  mutating func encode(_ value: UInt8) throws { try encodeValue(value) }
  mutating func encode(_ value: UInt16) throws { try encodeValue(value) }
  mutating func encode(_ value: UInt32) throws { try encodeValue(value) }
  mutating func encode(_ value: UInt64) throws { try encodeValue(value) }
  mutating func encode<T: Encodable>(_ value: T) throws { try encodeValue(value) }
}

/// A single-value encoding container that writes every value through one generic method.
protocol SingleValueEncoding: SingleValueEncodingContainer {
  mutating func encodeValue<T: Encodable>(_ value: T) throws
}

extension SingleValueEncoding {
  mutating func encode(_ value: Bool) throws { try encodeValue(value) }
  mutating func encode(_ value: String) throws { try encodeValue(value) }
  mutating func encode(_ value: Double) throws { try encodeValue(value) }
  mutating func encode(_ value: Float) throws { try encodeValue(value) }
  mutating func encode(_ value: Int) throws { try encodeValue(value) }
  mutating func encode(_ value: Int8) throws { try encodeValue(value) }
  mutating func encode(_ value: Int16) throws { try encodeValue(value) }
  mutating func encode(_ value: Int32) throws { try encodeValue(value) }
  mutating func encode(_ value: Int64) throws { try encodeValue(value) }
  mutating func encode(_ value: UInt) throws { try encodeValue(value) }
  mutating func encode(_ value: UInt8) throws { try encodeValue(value) }
  mutating func encode(_ value: UInt16) throws { try encodeValue(value) }
  mutating func encode(_ value: UInt32) throws { try encodeValue(value) }
  mutating func encode(_ value: UInt64) throws { try encodeValue(value) }
  mutating func encode<T: Encodable>(_ value: T) throws { try encodeValue(value) }
}

/// A keyed decoding container that reads every value through one generic method.
protocol KeyedValueDecoding: KeyedDecodingContainerProtocol {
  func decodeValue<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T
}

extension KeyedValueDecoding {
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try decodeValue(type, forKey: key)
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try decodeValue(type, forKey: key)
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try decodeValue(type, forKey: key)
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try decodeValue(type, forKey: key)
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try decodeValue(type, forKey: key)
  }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try decodeValue(type, forKey: key)
  }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try decodeValue(type, forKey: key)
  }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try decodeValue(type, forKey: key)
  }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try decodeValue(type, forKey: key)
  }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try decodeValue(type, forKey: key)
  }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try decodeValue(type, forKey: key)
  }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try decodeValue(type, forKey: key)
  }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try decodeValue(type, forKey: key)
  }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try decodeValue(type, forKey: key)
  }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try decodeValue(type, forKey: key)
  }
}

/// An unkeyed decoding container that reads every value through one generic method.
protocol UnkeyedValueDecoding: UnkeyedDecodingContainer {
  mutating func decodeValue<T: Decodable>(_ type: T.Type) throws -> T
}

extension UnkeyedValueDecoding {
  mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeValue(type) }
  mutating func decode(_ type: String.Type) throws -> String { try decodeValue(type) }
  mutating func decode(_ type: Double.Type) throws -> Double { try decodeValue(type) }
  mutating func decode(_ type: Float.Type) throws -> Float { try decodeValue(type) }
  mutating func decode(_ type: Int.Type) throws -> Int { try decodeValue(type) }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeValue(type) }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeValue(type) }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeValue(type) }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeValue(type) }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeValue(type) }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeValue(type) }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeValue(type) }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeValue(type) }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeValue(type) }
  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
}

/// A single-value decoding container that reads every value through one generic method.
protocol SingleValueDecoding: SingleValueDecodingContainer {
  func decodeValue<T: Decodable>(_ type: T.Type) throws -> T
}

extension SingleValueDecoding {
  func decode(_ type: Bool.Type) throws -> Bool { try decodeValue(type) }
  func decode(_ type: String.Type) throws -> String { try decodeValue(type) }
  func decode(_ type: Double.Type) throws -> Double { try decodeValue(type) }
  func decode(_ type: Float.Type) throws -> Float { try decodeValue(type) }
  func decode(_ type: Int.Type) throws -> Int { try decodeValue(type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try decodeValue(type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try decodeValue(type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try decodeValue(type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try decodeValue(type) }
  func decode(_ type: UInt.Type) throws -> UInt { try decodeValue(type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeValue(type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeValue(type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeValue(type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeValue(type) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
}

/// A coding key made from text or an index, for paths in error messages and for the
/// elements of unkeyed containers.
struct IndexKey: CodingKey {
  var stringValue: String
  var intValue: Int?

  init(stringValue: String) {
    self.stringValue = stringValue
    intValue = nil
  }

  init(intValue: Int) {
    stringValue = "\(intValue)"
    self.intValue = intValue
  }
}

extension [any CodingKey] {
  /// The path as a reader writes it: `items[2].name`; empty for the top level.
  var dottedPath: String {
    var text = ""
    for key in self {
      if let index = key.intValue, key is IndexKey {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return text
  }
}
