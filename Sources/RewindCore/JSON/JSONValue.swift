/// A JSON value with its object keys in a fixed order.
///
/// Rewind prints states, events and reports as JSON that users diff and check into
/// repositories, so the same value must always print the same bytes: objects keep their
/// keys in the order they were built, numbers keep the integer/fraction distinction.
public enum JSONValue: Sendable {
  case null
  case bool(Bool)
  /// An integer written without a fraction or exponent.
  case int(Int64)
  /// Any other number; never NaN or infinite.
  case double(Double)
  case string(String)
  case array([JSONValue])
  /// Key–value pairs in order; keys are unique.
  case object([(String, JSONValue)])

  /// The value of `key` if this is an object that has it.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.0 == key }?.1
  }

  /// The value at a dotted path (`split.selectedItem`) through nested objects.
  public func value(atPath path: String) -> JSONValue? {
    var current = self
    for key in path.split(separator: ".", omittingEmptySubsequences: false) {
      guard let next = current[String(key)] else { return nil }
      current = next
    }
    return current
  }

  /// Every leaf (a value that is not a non-empty object) with its dotted path, in order.
  /// Arrays are leaves.
  public func leaves(prefix: String = "") -> [(path: String, value: JSONValue)] {
    guard case .object(let members) = self, !members.isEmpty else {
      return [(prefix, self)]
    }
    return members.flatMap { key, value in
      value.leaves(prefix: prefix.isEmpty ? key : "\(prefix).\(key)")
    }
  }

  /// The string if this is a string.
  public var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The number as an integer if it is a whole one within 64 bits: an integer, or a whole
  /// number written with a decimal point or an exponent (`3.0`, `1e3`), whose digits a
  /// double may have rounded from 2^53 on (`isRoundedWhole`: a reader of events refuses
  /// those).
  public var intValue: Int64? {
    switch self {
    case .int(let value): return value
    case .double(let value):
      // Not -2^63: an integer written below it reads as that double too.
      guard value.rounded() == value, value > -0x1p63, value < 0x1p63 else { return nil }
      return Int64(value)
    default: return nil
    }
  }

  /// Whether this is a whole number within 64 bits written with a decimal point or an
  /// exponent from 2^53 on, whose digits a double may have rounded (`9.2e18`,
  /// `9007199254740993.0` read as …992): a reader of events refuses it
  /// (``roundedWholeProblem``), where an integer written as digits is read exactly.
  package var isRoundedWhole: Bool {
    guard case .double(let value) = self, value.rounded() == value else { return false }
    return abs(value) >= 0x1p53 && value > -0x1p63 && value < 0x1p63
  }

  /// What is wrong with a number ``isRoundedWhole`` refuses, after the number.
  package static let roundedWholeProblem =
    "written with a decimal point or an exponent, which a double may have rounded from 2^53 on: write it as digits"

  /// The number as a Double.
  public var doubleValue: Double? {
    switch self {
    case .int(let value): return Double(value)
    case .double(let value): return value
    default: return nil
    }
  }

  /// A short name of the value's JSON type, for error messages.
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .int, .double: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}

extension JSONValue: Equatable {
  /// Structural equality. Numbers compare by value (`1` equals `1.0`); object members
  /// compare regardless of order.
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.int(let a), .int(let b)): return a == b
    case (.int, .double), (.double, .int), (.double, .double):
      return lhs.doubleValue == rhs.doubleValue
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)):
      guard a.count == b.count else { return false }
      return a.allSatisfy { key, value in b.first { $0.0 == key }?.1 == value }
    default: return false
    }
  }
}

extension JSONValue {
  /// Whether the two values are written as the same JSON text: the same kind (the integer
  /// `1` is not the number `1.0`), numbers by their bits (`-0.0` is not `0.0`), strings by
  /// their UTF-8 bytes (not by Unicode's canonical equivalence), array elements and
  /// object members in order. What a change of a state field is, where `==` compares
  /// values.
  /// - Complexity: O(size of the values).
  package func isWrittenAs(_ other: JSONValue) -> Bool {
    switch (self, other) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.int(let a), .int(let b)): return a == b
    case (.double(let a), .double(let b)): return a.bitPattern == b.bitPattern
    case (.string(let a), .string(let b)): return a.utf8.elementsEqual(b.utf8)
    case (.array(let a), .array(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.isWrittenAs($1) }
    case (.object(let a), .object(let b)):
      return a.count == b.count
        && zip(a, b).allSatisfy { $0.0.utf8.elementsEqual($1.0.utf8) && $0.1.isWrittenAs($1.1) }
    default: return false
    }
  }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral,
  ExpressibleByFloatLiteral
{
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int64) { self = .int(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(nilLiteral: ()) { self = .null }
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue {
  /// A string, or null for nil.
  public static func string(_ text: String?) -> JSONValue {
    text.map(JSONValue.string) ?? .null
  }
}
