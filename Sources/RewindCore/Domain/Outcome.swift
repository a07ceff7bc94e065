/// What the reducer did with one event.
public enum Outcome<Rejection: Equatable & Sendable>: Equatable, Sendable,
  CustomStringConvertible
{
  /// The event changed the state.
  case applied
  /// The event was valid and left the state as it was (selecting what is selected).
  case unchanged
  /// The event was invalid here; the state is untouched.
  case rejected(Rejection)

  /// Whether the event changed the state. A pattern match, not `==`: the synthesised
  /// `==` of a generic enum is not specialised, and looks up its metadata on every call.
  @inlinable public var isApplied: Bool {
    if case .applied = self { return true }
    return false
  }

  /// Whether the event was rejected.
  public var isRejected: Bool {
    if case .rejected = self { return true }
    return false
  }

  /// `applied`, `unchanged` or `rejected`.
  public var name: String {
    switch self {
    case .applied: "applied"
    case .unchanged: "unchanged"
    case .rejected: "rejected"
    }
  }

  /// `applied`, `unchanged`, or `rejected: ` and the rejection's description.
  public var description: String {
    switch self {
    case .applied, .unchanged: name
    case .rejected(let rejection): "rejected: \(rejection)"
    }
  }

  /// The rejection's description when the event was rejected, else nil.
  @usableFromInline package var rejectionReason: String? {
    if case .rejected(let rejection) = self { return "\(rejection)" }
    return nil
  }

  /// The outcome as members of an event's JSON object: `"outcome"`, and `"reason"` when
  /// it was rejected; what `rewind log --json` and a page's events add to the event.
  package var jsonMembers: [(String, JSONValue)] {
    switch self {
    case .applied, .unchanged: [("outcome", .string(name))]
    case .rejected(let reason): [("outcome", "rejected"), ("reason", .string("\(reason)"))]
    }
  }
}
