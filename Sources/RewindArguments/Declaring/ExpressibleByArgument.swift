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
  /// Reads a decimal integer (`12`, `-3`); anything else, or a number out of the type's
  /// range, is invalid, with no more said.
  public init(argument: String) throws(InvalidValue) {
    guard let value = Self(argument, radix: 10) else { throw InvalidValue() }
    self = value
  }
}

extension Double: ExpressibleByArgument {
  /// Reads a decimal number (`1.5`, `-2`, `1e3`); anything else is invalid, with no more
  /// said.
  public init(argument: String) throws(InvalidValue) {
    guard let value = Double(argument) else { throw InvalidValue() }
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
