/// What values a state field holds: what a `find` condition's value is checked against
/// before any replay, so that a condition that can never hold is an error, not a silent
/// "no point".
///
/// A domain declares its fields' kinds in ``Domain/fields``; the default fields of a
/// `Codable` state infer them from the initial state's JSON (see
/// ``init(inferredFrom:)``).
///
/// ```swift
/// StateField("split.style", kind: .cases(of: SplitStyle.self)) { .string($0.split.style.rawValue) }
/// ```
public indirect enum FieldKind: Sendable, Equatable, CustomStringConvertible {
  /// A whole number.
  case integer
  /// Any number.
  case number
  /// `true` or `false`.
  case boolean
  /// Any string.
  case string
  /// One of these strings (an enum's raw values).
  case oneOf([String])
  /// A string naming something of the session, e.g. a catalog's item, checked against
  /// ``Domain/knownValues(for:)``; the noun (`item`) is for messages.
  case identifier(of: String)
  /// A string that is one of the session's own texts, e.g. a menu's labels: checked
  /// against ``Domain/knownValues(for:)`` as an identifier is, but it is the text shown
  /// itself, with no name beside it; the noun (`label`) is for messages.
  case text(of: String)
  /// A JSON array whose elements are all of one kind.
  case list(of: FieldKind)
  /// The kind, or `null`.
  case optional(FieldKind)
  /// Any JSON value: not checked.
  case any

  /// One of the raw values of a `String` enum, in declaration order.
  public static func cases<T: CaseIterable & RawRepresentable>(of type: T.Type) -> FieldKind
  where T.RawValue == String {
    .oneOf(type.allCases.map { $0.rawValue })
  }

  /// The kind a field's initial value suggests, for the fields of a `Codable` state: an
  /// integer, a number, a boolean or a list, each of which may also be null (an optional
  /// that starts with a value). A field that starts as a string may be an enum whose
  /// other cases carry values (`"idle"`, then `{"running": {"since": 1}}`), and one that
  /// starts as null or an empty object may become anything: they are not checked. A
  /// domain that knows better declares its fields' kinds.
  public init(inferredFrom value: JSONValue) {
    switch value {
    case .int: self = .optional(.integer)
    case .double: self = .optional(.number)
    case .bool: self = .optional(.boolean)
    case .array: self = .optional(.list(of: .any))
    case .string, .null, .object: self = .any
    }
  }

  /// `an integer`, `one of automatic, balanced, prominentDetail`, `the id of an item or
  /// null`: what the field holds, for messages.
  public var description: String {
    switch self {
    case .integer: "an integer"
    case .number: "a number"
    case .boolean: "true or false"
    case .string: "a string"
    case .oneOf(let values): "one of " + values.joined(separator: ", ")
    case .identifier(let noun): "the id of \(FieldKind.article(noun)) \(noun)"
    case .text(let noun): "\(FieldKind.article(noun)) \(noun)"
    case .list(.any): "a list"
    case .list(let element): "a list, each element \(element)"
    case .optional(let kind): "\(kind) or null"
    case .any: "any JSON value"
    }
  }

  static func article(_ noun: String) -> String {
    guard let first = noun.lowercased().first else { return "a" }
    return "aeiou".contains(first) ? "an" : "a"
  }
}

/// A value a field of kind ``FieldKind/identifier(of:)`` can hold in a session, with the
/// name people know it by (a catalog item's `espresso-machines/leva` and `Leva`); or one
/// of kind ``FieldKind/text(of:)``, a text without a name (a menu's `Monday`).
public struct KnownValue: Sendable, Equatable {
  /// The value as the state's JSON holds it.
  public var value: String
  /// The name shown to people, if it differs from the value; a condition that gives the
  /// name is answered with the value.
  public var name: String?

  public init(_ value: String, name: String? = nil) {
    self.value = value
    self.name = name
  }
}
