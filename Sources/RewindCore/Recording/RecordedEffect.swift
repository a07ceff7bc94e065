public import RewindJournal

/// What an event did when it was recorded: applied, unchanged or rejected, and which
/// fields it changed. Stored before each event in the journal so that `check` can find
/// the first event where the current reducer does something else.
///
/// Encoded as one varint: `kind | changedFields << 2` (see FORMAT.md).
public struct RecordedEffect: Sendable, Equatable, CustomStringConvertible {
  /// Equal kinds and changed fields; inlinable, as `check` compares every event's.
  @inlinable public static func == (lhs: RecordedEffect, rhs: RecordedEffect) -> Bool {
    lhs.kind == rhs.kind && lhs.changed.rawValue == rhs.changed.rawValue
  }

  public enum Kind: UInt8, Sendable {
    case applied = 0
    case unchanged = 1
    case rejected = 2
  }

  public var kind: Kind
  /// The fields the event changed (empty unless applied).
  public var changed: FieldSet

  @inlinable public init(kind: Kind, changed: FieldSet) {
    self.kind = kind
    self.changed = changed
  }

  /// The effect of an outcome.
  @inlinable public init<R>(_ outcome: Outcome<R>, changed: FieldSet) {
    switch outcome {
    case .applied: kind = .applied
    case .unchanged: kind = .unchanged
    case .rejected: kind = .rejected
    }
    self.changed = changed
  }

  /// The largest number of fields a domain may have for its changes to be recorded.
  public static let maximumFieldCount = 62

  /// The varint value stored in the journal.
  @inlinable package var encoded: UInt64 { UInt64(kind.rawValue) | changed.rawValue << 2 }

  /// Reads an effect from the front of a record payload.
  ///
  /// Inlined always: replay decodes every record's effect, and where the effect is not
  /// used only the varint and the check of its kind remain.
  @inlinable @inline(__always)
  package static func decode(from reader: inout ByteReader) throws(CodecError) -> RecordedEffect {
    let start = reader.offset
    let raw = try reader.readVarint()
    guard raw & 3 != 3 else { throw invalidKind(at: start) }
    // The kind's raw values are its cases' codes (0, 1, 2 in order): the bits, checked
    // above, are the case.
    return RecordedEffect(
      kind: unsafeBitCast(UInt8(truncatingIfNeeded: raw & 3), to: Kind.self),
      changed: FieldSet(rawValue: raw >> 2))
  }

  /// The error for an effect whose kind bits are 3.
  @usableFromInline static func invalidKind(at offset: Int) -> CodecError {
    CodecError(.invalidValue, "effect kind 3 is not 0, 1 or 2", at: offset)
  }

  public var description: String {
    kind == .applied ? "applied, changing fields \(changed.indices)" : "\(kind)"
  }
}
