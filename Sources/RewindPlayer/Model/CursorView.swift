public import RewindCore

/// What the player shows at its cursor: the state, the cursor's event and what it
/// changed, and the events around it.
///
/// With events skipped (``Player/skipped``), everything here is the counterfactual: the
/// state and outcomes as if the skipped events had not happened.
public struct CursorView<D: Domain> {
  /// The cursor: the state is the state after this event (0: the initial state).
  public var sequence: UInt64
  /// The time of the cursor's event, microseconds since the session start (0 at the
  /// start).
  public var time: UInt64
  /// The state at the cursor.
  public var state: D.State
  /// The cursor's event; nil at the start.
  public var event: EventLine?
  /// What the cursor's event changed: each field's value before it (`old`) and after it
  /// (`new`). Empty for an event that changed nothing, was rejected or is skipped.
  public var changes: [FieldChange]
  /// The events around the cursor, in order (the cursor's among them).
  public var nearby: [EventLine]
  /// With events skipped: the fields whose value at the cursor differs from the
  /// recording's (`old` recorded, `new` without the skipped events). Empty otherwise.
  public var differencesFromRecording: [FieldChange]
  /// When the cursor is the last of events lost to damage: those events. The state is
  /// then the snapshot stored after them (as `rewind state --at` shows it), the cursor
  /// has no event of its own (what each lost event changed is not known), and the time
  /// is the last event's kept before them (the lost ones' are not known). Nil otherwise.
  public var lostEvents: ClosedRange<UInt64>? = nil
}

/// One event as the player lists it.
public struct EventLine: Equatable, Sendable {
  /// What the reducer did with an event, as the player shows it.
  public enum Fate: Equatable, Sendable {
    case applied
    case unchanged
    /// Rejected, and why.
    case rejected(String)
    /// Left out: the counterfactual the player shows skips it.
    case skipped
  }

  public var sequence: UInt64
  /// Microseconds since the session start.
  public var time: UInt64
  /// The event, as the domain describes it (`categorySelected grinders`).
  public var description: String
  public var fate: Fate
  /// The paths of the fields it changed.
  public var changedPaths: [String]
  /// With events skipped before it: whether it does something else than the recording
  /// says (another outcome, or other fields changed). Always false without skips.
  public var differsFromRecording: Bool
  /// What the recording says it did: `applied`, `unchanged` or `rejected`.
  public var recordedOutcome: String

  public init(
    sequence: UInt64, time: UInt64, description: String, fate: Fate, changedPaths: [String],
    differsFromRecording: Bool = false, recordedOutcome: String
  ) {
    self.sequence = sequence
    self.time = time
    self.description = description
    self.fate = fate
    self.changedPaths = changedPaths
    self.differsFromRecording = differsFromRecording
    self.recordedOutcome = recordedOutcome
  }
}

extension RecordedEffect.Kind {
  /// `applied`, `unchanged` or `rejected`.
  var name: String {
    switch self {
    case .applied: "applied"
    case .unchanged: "unchanged"
    case .rejected: "rejected"
    }
  }
}
