import RewindCore

/// Reading points from the command line and resolving them against a session, one way
/// for every command.
extension ParsedArguments {
  /// The point given for option `name` (or its default), not yet resolved.
  func point(_ name: String) throws(UsageError) -> Point {
    try value(name) { text in
      do throws(RewindError) {
        return try Point(parsing: text)
      } catch {
        throw InvalidValue(Point.reason(error))
      }
    }
  }

  /// The point given for option `name`, or nil.
  func optionalPoint(_ name: String) throws(UsageError) -> Point? {
    try optionalValue(name) { text in
      do throws(RewindError) {
        return try Point(parsing: text)
      } catch {
        throw InvalidValue(Point.reason(error))
      }
    }
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
  func resolve(_ point: Point, option: String) throws -> UInt64 {
    do {
      return try resolve(point)
    } catch let error as RewindError where error.code == .outOfRange {
      throw UsageError(
        .invalidValue, "The value '\(point)' is invalid for '\(option)': \(error.message)")
    }
  }
}
