/// What a domain is told about a session recorded with an older schema version, to
/// upcast its settings: the version, and the recording device the journal names (a
/// domain may derive what the older version did not record from it).
public struct RecordedSchema: Sendable, Equatable {
  /// The schema version the session was recorded with.
  public var version: UInt32
  /// The recording device, as the journal's header names it.
  public var device: String

  public init(version: UInt32, device: String) {
    self.version = version
    self.device = device
  }
}

/// How a journal of an older schema version is read as the current one: which of
/// today's fields its recorded changes count, and which it never knew.
///
/// A ``Timeline`` of such a journal has one (``Timeline/upcast``); `rewind info` says so,
/// `rewind check` compares the recording only on the fields the older version had, and
/// `rewind export` writes the current version.
public struct SchemaUpcast: Sendable, Equatable {
  /// The version the journal was recorded with.
  public let from: UInt32
  /// The version it is read as: the domain's ``Domain/schemaVersion``.
  public let to: UInt32
  /// For each field of the older version, in its order, the index of the same field
  /// (the same path) in ``Domain/fields`` today; nil for a field that is gone.
  public let fieldIndices: [Int?]
  /// Today's fields that the older version had.
  public let knownFields: FieldSet
  /// The paths of today's fields that the older version lacked.
  public let addedPaths: [String]

  /// The upcast of `domain`'s journals of schema `version` (an older one).
  public init<D: Domain>(from version: UInt32, domain: D) {
    from = version
    to = D.schemaVersion
    let current = domain.fields.map(\.path)
    fieldIndices = domain.fieldPaths(schemaVersion: version).map { current.firstIndex(of: $0) }
    var known = FieldSet()
    for case let index? in fieldIndices where index < 64 { known.insert(index) }
    knownFields = known
    addedPaths = current.enumerated().filter { !known.contains($0.offset) }.map(\.element)
  }

  /// Recorded changes of the older version (indices of its fields) as today's indices;
  /// a field that is gone is left out.
  public func currentFields(_ recorded: FieldSet) -> FieldSet {
    var fields = FieldSet()
    for index in recorded.indices where index < fieldIndices.count {
      if let current = fieldIndices[index] { fields.insert(current) }
    }
    return fields
  }

  /// A recorded effect of the older version, its changes as today's field indices. An
  /// event applied whose changes were all to fields that are gone changes nothing today:
  /// it is read as unchanged, what today's reducer says of it (an event applied that
  /// changes nothing is a reducer's mistake to `TestStore`).
  public func current(_ effect: RecordedEffect) -> RecordedEffect {
    let changed = currentFields(effect.changed)
    let onlyGone = effect.kind == .applied && changed.isEmpty && !effect.changed.isEmpty
    return RecordedEffect(kind: onlyGone ? .unchanged : effect.kind, changed: changed)
  }
}
