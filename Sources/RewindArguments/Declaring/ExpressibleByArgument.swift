/// A type whose values can be written on the command line: the type of an ``Option`` or
/// an ``Argument`` (or of the elements of a repeated or optional one).
///
/// `String`, the integer types, `Double`, and enumerations whose raw values are one of
/// these conform here; a tool makes its own types conform (a point in a session, say):
///
/// ```swift
/// extension Point: ExpressibleByArgument {
///   init(argument: String) throws(InvalidValue) {
///     guard let point = Point(parsing: argument) else {
///       throw InvalidValue("expected a sequence number, start or end")
///     }
///     self = point
///   }
/// }
/// ```
///
/// A value that needs checking only for one option (a level from 1 to 19) is better read
/// by that option's `transform` than by a type of its own.
public protocol ExpressibleByArgument {
  /// Reads a value from its text on the command line.
  /// - Parameter argument: The text as given.
  /// - Throws: ``InvalidValue`` saying what was expected; the runner reports it as a usage
  ///   error naming the value and the parameter.
  init(argument: String) throws(InvalidValue)

  /// How the value is shown as a default in help, `(default: …)`. `String(describing:)`
  /// unless the type says otherwise; an empty text shows no default.
  var defaultValueDescription: String { get }
}

extension ExpressibleByArgument {
  public var defaultValueDescription: String { String(describing: self) }
}

extension String: ExpressibleByArgument {
  public init(argument: String) {
    self = argument
  }
}

extension Int: ExpressibleByArgument {}
extension Int32: ExpressibleByArgument {}
extension Int64: ExpressibleByArgument {}
extension UInt: ExpressibleByArgument {}
extension UInt32: ExpressibleByArgument {}
extension UInt64: ExpressibleByArgument {}

extension ExpressibleByArgument where Self: FixedWidthInteger {
  /// Reads a decimal integer (`12`, `-3`); anything else is invalid, the reason saying
  /// what was expected: a whole number, one not negative (an unsigned type), or one within
  /// the type's range (`too large: at most 2,147,483,647`).
  public init(argument: String) throws(InvalidValue) {
    if let value = Self(argument, radix: 10) {
      self = value
      return
    }
    let negative = argument.hasPrefix("-")
    let digits = argument.utf8.dropFirst(negative || argument.hasPrefix("+") ? 1 : 0)
    guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else { throw InvalidValue("expected a whole number") }
    if negative, !Self.isSigned { throw InvalidValue("expected a whole number, not negative") }
    throw InvalidValue(
      negative
        ? "too small: at least \(groupedDigits(Self.min))"
        : "too large: at most \(groupedDigits(Self.max))")
  }
}

/// `value` in decimal, its digits in groups of three (`-9,223,372,036,854,775,808`).
func groupedDigits<Value: FixedWidthInteger>(_ value: Value) -> String {
  let digits = Array(String(value.magnitude))
  var text = value < 0 ? "-" : ""
  for (index, digit) in digits.enumerated() {
    if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
    text.append(digit)
  }
  return text
}

extension Double: ExpressibleByArgument {
  /// Reads a decimal number (`1.5`, `-2`, `1e3`); anything else is invalid, the reason
  /// saying a number was expected.
  public init(argument: String) throws(InvalidValue) {
    guard let value = Double(argument) else { throw InvalidValue("expected a number") }
    self = value
  }
}

extension ExpressibleByArgument where Self: RawRepresentable, RawValue: ExpressibleByArgument {
  /// Reads the raw value, then the case that has it. For an enumeration that is
  /// `CaseIterable`, the reason lists the raw values of every case.
  public init(argument: String) throws(InvalidValue) {
    guard let value = Self(rawValue: try RawValue(argument: argument)) else {
      throw InvalidValue(Self.expectedRawValues)
    }
    self = value
  }

  public var defaultValueDescription: String { rawValue.defaultValueDescription }

  /// `expected automatic, all, detailOnly` for a `CaseIterable` type, else nil.
  private static var expectedRawValues: String? {
    func rawValues<Cases: CaseIterable>(_ type: Cases.Type) -> [String] {
      type.allCases.compactMap { ($0 as? Self)?.rawValue.defaultValueDescription }
    }
    guard let type = Self.self as? any CaseIterable.Type else { return nil }
    return "expected " + rawValues(type).joined(separator: ", ")
  }
}
