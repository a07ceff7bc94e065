/// The values a command line gave a command, read by parameter name.
///
/// The parser has already checked the shape of the command line (every option known,
/// every required argument present, no extra argument), so reading a string cannot fail;
/// reading a typed value can, and throws the argument parser's "The value 'abc' is
/// invalid for '--events <count>'" ``UsageError``. Asking for a name the command does not
/// declare, or reading a parameter the wrong way (``string(_:)`` on an option that may be
/// absent, ``flag(_:)`` on an option) is a programming error and traps.
public struct ParsedArguments: Sendable {
  /// One value as given: the text, and how the option was spelled (`-o`, `--output`);
  /// `nil` for positional arguments.
  struct Occurrence: Sendable, Equatable {
    var value: String
    var spelling: String?
  }

  /// The command the values are for.
  let command: Command
  /// The values given for each of `command.parameters`, in command-line order.
  var occurrences: [[Occurrence]]

  init(command: Command) {
    self.command = command
    self.occurrences = Array(repeating: [], count: command.parameters.count)
  }
}

extension ParsedArguments {
  /// Whether a flag was given.
  public func flag(_ name: String) -> Bool {
    let (index, parameter) = command.parameter(named: name)
    precondition(parameter.kind == .flag, "'\(name)' is not a flag; read it as a value")
    return !occurrences[index].isEmpty
  }

  /// Whether the parameter was given on the command line (rather than left to its
  /// default).
  public func isGiven(_ name: String) -> Bool {
    !occurrences[command.parameter(named: name).index].isEmpty
  }

  /// The value of a required argument or option, or of one with a default.
  ///
  /// Traps if the spec lets the parameter be absent without a default: read those with
  /// ``optionalString(_:)``.
  public func string(_ name: String) -> String {
    let parameter = command.parameter(named: name).parameter
    precondition(
      parameter.isRequired || parameter.defaultValue != nil,
      "'\(name)' may be absent and has no default: read it with optionalString(_:)")
    return optionalString(name)!
  }

  /// The value given, else the default, else `nil`.
  public func optionalString(_ name: String) -> String? {
    let (index, parameter) = command.parameter(named: name)
    precondition(
      parameter.kind != .flag && !parameter.isRepeatable,
      "'\(name)' takes several values or none: read it with strings(_:) or flag(_:)")
    return occurrences[index].last?.value ?? parameter.defaultValue
  }

  /// Every value of a repeated argument or repeatable option, in command-line order;
  /// the default alone when none was given.
  public func strings(_ name: String) -> [String] {
    let (index, parameter) = command.parameter(named: name)
    precondition(parameter.kind != .flag, "'\(name)' is a flag: read it with flag(_:)")
    if occurrences[index].isEmpty { return parameter.defaultValue.map { [$0] } ?? [] }
    return occurrences[index].map(\.value)
  }

  /// The value of a required or defaulted parameter, read by `parse`.
  ///
  /// - Parameter parse: Reads the text; throws ``InvalidValue`` (or any error, whose
  ///   description becomes the reason) when the text is not a valid value.
  /// - Throws: ``UsageError`` naming the value and the parameter.
  public func value<Value>(
    _ name: String, as parse: (String) throws -> Value
  ) throws(UsageError) -> Value {
    let parameter = command.parameter(named: name).parameter
    precondition(
      parameter.isRequired || parameter.defaultValue != nil,
      "'\(name)' may be absent and has no default: read it with optionalValue(_:as:)")
    return try optionalValue(name, as: parse)!
  }

  /// The value given (else the default) read by `parse`, or `nil` when there is none.
  /// - Throws: ``UsageError`` naming the value and the parameter.
  public func optionalValue<Value>(
    _ name: String, as parse: (String) throws -> Value
  ) throws(UsageError) -> Value? {
    let (index, parameter) = command.parameter(named: name)
    precondition(
      parameter.kind != .flag && !parameter.isRepeatable,
      "'\(name)' takes several values or none: read it with values(_:as:) or flag(_:)")
    if let occurrence = occurrences[index].last {
      return try read(occurrence, of: parameter, with: parse)
    }
    if let value = parameter.defaultValue {
      return try readDefault(value, of: parameter, with: parse)
    }
    return nil
  }

  /// Every value of a repeated argument or repeatable option, each read by `parse`.
  /// - Throws: ``UsageError`` naming the first value that is invalid.
  public func values<Value>(
    _ name: String, as parse: (String) throws -> Value
  ) throws(UsageError) -> [Value] {
    let (index, parameter) = command.parameter(named: name)
    precondition(parameter.kind != .flag, "'\(name)' is a flag: read it with flag(_:)")
    if occurrences[index].isEmpty, let value = parameter.defaultValue {
      return [try readDefault(value, of: parameter, with: parse)]
    }
    var result: [Value] = []
    result.reserveCapacity(occurrences[index].count)
    for occurrence in occurrences[index] {
      result.append(try read(occurrence, of: parameter, with: parse))
    }
    return result
  }

  /// The integer value of a required or defaulted parameter.
  /// - Throws: ``UsageError`` when the value is not a decimal integer.
  public func int(_ name: String) throws(UsageError) -> Int {
    try value(name, as: parseInteger)
  }

  /// The integer value given (else the default), or `nil`.
  /// - Throws: ``UsageError`` when the value is not a decimal integer.
  public func optionalInt(_ name: String) throws(UsageError) -> Int? {
    try optionalValue(name, as: parseInteger)
  }

  private func read<Value>(
    _ occurrence: Occurrence, of parameter: Parameter, with parse: (String) throws -> Value
  ) throws(UsageError) -> Value {
    do {
      return try parse(occurrence.value)
    } catch {
      throw .invalidValue(
        occurrence.value, for: parameter, spelling: occurrence.spelling, reason: reason(error))
    }
  }

  /// Reads a spec's default value, which the command's author wrote: if it does not
  /// parse, the spec is wrong, a programming error.
  private func readDefault<Value>(
    _ value: String, of parameter: Parameter, with parse: (String) throws -> Value
  ) throws(UsageError) -> Value {
    do {
      return try parse(value)
    } catch {
      preconditionFailure(
        "the default '\(value)' of '\(parameter.unadornedSynopsis)' in '\(command.name)' is"
          + " invalid: \(reason(error) ?? "rejected")")
    }
  }

  private func reason(_ error: any Error) -> String? {
    if let invalid = error as? InvalidValue { return invalid.reason }
    return String(describing: error)
  }
}

/// Thrown by a value parser (the `as:` closure of ``ParsedArguments/value(_:as:)``) when
/// a text is not a valid value; the reason, if any, is printed after the usage error's
/// "The value '…' is invalid for '…'".
public struct InvalidValue: Error, Equatable, Sendable {
  public var reason: String?

  public init(_ reason: String? = nil) {
    self.reason = reason
  }
}

private func parseInteger(_ text: String) throws(InvalidValue) -> Int {
  guard let value = Int(text) else { throw InvalidValue() }
  return value
}
