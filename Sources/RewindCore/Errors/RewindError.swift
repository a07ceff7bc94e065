/// A failure of the replay engine that is not the journal's own (those are
/// `JournalError`s): a journal of another domain, a sequence number outside the session,
/// events that cannot be decoded, a point or a field path that does not parse. (A
/// condition that cannot be used is a ``ConditionError``, which knows its column.)
public struct RewindError: Error, Sendable, CustomStringConvertible {
  public enum Code: String, Sendable {
    /// The journal was recorded by another domain, or a schema this build cannot read.
    case wrongDomain
    /// The journal was recorded with a newer schema version than this build knows: it is
    /// refused, never misread.
    case newerSchema
    /// A sequence number lies outside the session.
    case outOfRange
    /// A point or a field path is not well formed.
    case invalidInput
    /// The events needed were lost to damage (salvaged journal).
    case eventsLost
    /// An event or snapshot cannot be decoded by this domain.
    case undecodable
    /// Recording failed; the message says which events were affected.
    case recording
  }

  public var code: Code
  public var message: String
  /// The underlying error (a `JournalError`, `CodecError`, `DomainError`).
  public var cause: (any Error)?

  package init(_ code: Code, _ message: String, cause: (any Error)? = nil) {
    self.code = code
    self.message = message
    self.cause = cause
  }

  public var description: String {
    guard let cause else { return message }
    return "\(message): \(cause)"
  }
}
