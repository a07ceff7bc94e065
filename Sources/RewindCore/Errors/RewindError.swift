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
  /// What the failure is and what to do about it, said after the cause (`message:
  /// cause; note`): an event that does not decode in a frame whose checksums verify is
  /// not damage but the domain's decoding, say.
  package var note: String?

  /// The journal whose path starts the message (`PATH: …`), when one does: a command
  /// of two journals (`diff A B`) names the one at fault once.
  package var journal: String?

  package init(_ code: Code, _ message: String, cause: (any Error)? = nil) {
    self.code = code
    self.message = message
    self.cause = cause
  }

  /// The error of `code` about the journal at `path`: `PATH: message`.
  package init(_ code: Code, journal path: String, _ message: String) {
    self.init(code, "\(path): \(message)")
    journal = path
  }

  /// This error said of the journal at `path` (`PATH: message`), unless it names one.
  package func naming(_ path: String) -> RewindError {
    guard journal == nil else { return self }
    var named = RewindError(code, journal: path, message)
    named.cause = cause
    named.note = note
    return named
  }

  public var description: String {
    var text = message
    if let cause { text += ": \(cause)" }
    if let note { text += "; \(note)" }
    return text
  }
}
