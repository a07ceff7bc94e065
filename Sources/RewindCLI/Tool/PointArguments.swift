import RewindCore

/// Reading points from the command line and resolving them against a session, one way
/// for every command.
/// A point as the user wrote it, parsed.
struct PointArgument: CustomStringConvertible {
  var point: Point
  /// The text given, for messages.
  var text: String

  init(_ text: String) throws(InvalidValue) {
    do throws(RewindError) {
      point = try Point(parsing: text)
      self.text = text
    } catch {
      throw InvalidValue(Point.reason(error))
    }
  }

  var description: String { text }
}

extension ParsedArguments {
  /// The point given for option `name` (or its default), not yet resolved.
  func point(_ name: String) throws(UsageError) -> PointArgument {
    try value(name) { text in try PointArgument(text) }
  }
}

extension Point {
  /// The part of a parse error that says what was expected.
  static func reason(_ error: RewindError) -> String {
    if let range = error.message.firstRange(of: ": expected ") {
      return String(error.message[range.lowerBound...].dropFirst(2))
    }
    return error.message
  }
}

extension Timeline {
  /// The sequence number of a point given on the command line.
  /// - Throws: ``UsageError`` naming the option and the session's range when the point is
  ///   outside it.
  func resolve(_ argument: PointArgument, option: String) throws -> UInt64 {
    do {
      return try resolve(argument.point)
    } catch let error as RewindError where error.code == .outOfRange {
      throw UsageError(
        .invalidValue, "The value '\(argument.text)' is invalid for '\(option)': \(error.message)")
    }
  }
}

/// A value that must be one of a known set (a field path, an event kind), checked
/// against the session: a usage error that lists the choices and suggests a near one.
func requireChoice(
  _ value: String, among choices: [String], for parameter: String, what: String,
  shown shownValue: String? = nil
) throws(UsageError) {
  guard !choices.contains(value) else { return }
  var message =
    "The value '\(shownValue ?? value)' is invalid for '\(parameter)': "
    + (shownValue == nil ? "" : "there is no \(what) '\(value)'; ")
    + "the \(what)s are \(choices.joined(separator: ", "))"
  if let suggestion = closestName(to: value, among: choices) {
    message += ". Did you mean '\(suggestion)'?"
  }
  throw UsageError(.invalidValue, message)
}
