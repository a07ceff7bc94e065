public import RewindJournal

// The defaults of the `Domain` requirements a domain need not write: settings, JSON,
// fields, binary codecs and descriptions derived from `Codable`. A domain overrides any of
// them for speed or looks.

extension Domain where Self: Codable {
  /// The domain value itself, as JSON: a domain with no stored properties has none
  /// (`{}`).
  public var settingsJSON: JSONValue { encodeOrTrap(self, "its settings") }

  /// Decodes the domain value from its JSON.
  public init(settingsJSON: JSONValue) throws(DomainError) {
    self = try JSONValueDecoder().decode(Self.self, from: settingsJSON)
  }
}

extension Domain where State: Codable {
  /// The state through ``JSONValueEncoder``; a state that is not an object is shown as
  /// `{"state": …}`, so that it still has a field.
  public func json(_ state: State) -> JSONValue {
    let json = encodeOrTrap(state, "a state")
    if case .object = json { return json }
    return .object([("state", json)])
  }

  /// The leaves of the initial state's JSON, each read from a state's JSON by its path
  /// (`null` where a state lacks it), its kind inferred from its initial value (see
  /// ``FieldKind/init(inferredFrom:)``).
  ///
  /// Arrays, dictionaries empty at first and enum cases without payload are single
  /// fields; a value whose shape changes later is seen through the leaves it has in the
  /// initial state only: an enum case with a payload (`.detail(id: 3)` is the field
  /// `screen.detail.id`, and `.settings(tab: 2)` is in none), a dictionary's keys added
  /// later. Such a change is in no field: `diff`, `blame` and the recorded changes miss it,
  /// and `check` cannot see it diverge. A domain with such a state lists `fields` of its
  /// own (a field may hold the whole value). At most
  /// ``RecordedEffect/maximumFieldCount`` for a domain that records.
  public var fields: [StateField<State>] {
    json(initialState).leaves().filter { !$0.path.isEmpty }.map { leaf in
      StateField(leaf.path, kind: FieldKind(inferredFrom: leaf.value)) { state in
        self.json(state).value(atPath: leaf.path) ?? .null
      }
    }
  }

  /// Appends the state through ``CompactBinaryEncoder``.
  public func encode(_ state: State, into writer: inout ByteWriter) {
    do {
      try CompactBinaryEncoder().encode(state, into: &writer)
    } catch {
      preconditionFailure("\(Self.identifier): a state cannot be encoded: \(error)")
    }
  }

  /// Decodes a state through ``CompactBinaryDecoder``.
  public func decodeState(from reader: inout ByteReader) throws(CodecError) -> State {
    try CompactBinaryDecoder().decode(State.self, from: &reader)
  }
}

extension Domain where Event: Codable {
  /// The event as `{"event": case, …payload fields}`: the case name of an enum, then its
  /// labelled payload, e.g. `{"event":"added","amount":5}`. An event that is not an enum
  /// is `{"event": TypeName, "value": …}`.
  ///
  /// - Precondition: no payload field is called `event`.
  public func json(_ event: Event) -> JSONValue {
    let encoded = encodeOrTrap(event, "an event")
    switch encoded {
    case .string(let kind):
      return .object([("event", .string(kind))])
    case .object(let members) where members.count == 1:
      if case .object(let payload) = members[0].1 {
        precondition(
          !payload.contains { $0.0 == "event" },
          "\(Self.identifier): the payload field 'event' of '\(members[0].0)' clashes with the event's kind"
        )
        return .object([("event", .string(members[0].0))] + payload)
      }
    default: break
    }
    return .object([("event", .string(Self.eventTypeName)), ("value", encoded)])
  }

  /// Reads an event from the object `json(_ event:)` writes.
  /// - Throws: ``DomainError`` naming what is wrong, e.g. `unknown event kind "foo"` or
  ///   `added.amount: expected an integer, found a string`.
  public func event(fromJSON json: JSONValue) throws(DomainError) -> Event {
    guard case .object(let members) = json else {
      throw DomainError("an event must be a JSON object, found \(json.typeName)")
    }
    guard let kind = json["event"]?.stringValue else {
      throw DomainError("an event needs a string \"event\" naming its kind", missingKey: "event")
    }
    if !Self.eventKinds.isEmpty, !Self.eventKinds.contains(kind) {
      throw DomainError.unknownEventKind(kind, kinds: Self.eventKinds)
    }
    let payload = members.filter { $0.0 != "event" }
    let decoder = JSONValueDecoder()
    if kind == Self.eventTypeName, payload.count == 1, payload[0].0 == "value" {
      return try decoder.decode(Event.self, from: payload[0].1)
    }
    let encoded: JSONValue = payload.isEmpty ? .string(kind) : .object([(kind, .object(payload))])
    do {
      return try decoder.decode(Event.self, from: encoded)
    } catch {
      if error.message == "\"\(kind)\" is not a known case" {
        throw DomainError.unknownEventKind(kind, kinds: Self.eventKinds)
      }
      throw error
    }
  }

  /// Appends the event through ``CompactBinaryEncoder``; the context is not used.
  public func encode(
    _ event: Event, into writer: inout ByteWriter, context: inout EventCodecContext
  ) {
    do {
      try CompactBinaryEncoder().encode(event, into: &writer)
    } catch {
      preconditionFailure("\(Self.identifier): an event cannot be encoded: \(error)")
    }
  }

  /// Decodes an event through ``CompactBinaryDecoder``; the context is not used.
  public func decodeEvent(from reader: inout ByteReader, context: inout EventCodecContext)
    throws(CodecError) -> Event
  {
    try CompactBinaryDecoder().decode(Event.self, from: &reader)
  }

  static var eventTypeName: String { String(describing: Event.self) }
}

extension Domain {
  /// `json(_ state:)`, written compact.
  public func writeJSON(of state: State, to json: inout JSONWriter) {
    json.value(self.json(state))
  }

  /// The fields that differ, found by reading every field of both states: a field
  /// differs when its JSON text does (`0.0` and `-0.0` differ, as do `"é"` and `"e\u{301}"`,
  /// which `==` of ``JSONValue`` finds equal).
  /// - Complexity: O(fields) field reads; with the default ``fields`` each read encodes
  ///   the whole state as JSON, so O(fields × the state's size) in all, for each event
  ///   recorded (on the store's writer thread) and each step of a `TestStore`. A domain
  ///   overrides it (or `fields`) when recording must be fast.
  public func changedFields(from old: State, to new: State) -> FieldSet {
    var changed = FieldSet()
    for (index, field) in fields.prefix(RecordedEffect.maximumFieldCount).enumerated()
    where !field.value(old).isWrittenAs(field.value(new)) {
      changed.insert(index)
    }
    return changed
  }

  /// The `event` member of the event's JSON.
  public func eventKind(_ event: Event) -> String { json(event)["event"]?.stringValue ?? "" }

  /// The kind and the payload fields, written as in a scenario script (``EventScript``):
  /// `added amount=5`, `renamed title="Two words"`, `added 5` for an unlabelled payload.
  public func describe(_ event: Event) -> String {
    let json = json(event)
    guard case .object(let members) = json else { return json.compactText }
    let payload = members.filter { $0.0 != "event" }.map { name, value in
      let token = EventScript.token(value)
      return EventScript.isPosition(name) ? token : "\(name)=\(token)"
    }
    return ([eventKind(event)] + payload).joined(separator: " ")
  }

  /// The JSON of a value of the domain's own types, which cannot fail for synthesised
  /// conformances: a failure is a programming error.
  func encodeOrTrap(_ value: some Encodable, _ what: String) -> JSONValue {
    do {
      return try JSONValueEncoder().encode(value)
    } catch {
      preconditionFailure("\(Self.identifier): \(what) cannot be encoded as JSON: \(error)")
    }
  }
}

/// Why an event was rejected, in words: the default ``Domain/Rejection`` of a domain.
///
/// ```swift
/// guard amount <= 1_000 else { return .rejected("more than 1,000 at once") }
/// guard let item = items[id] else { return .rejected("no item \(id)") }
/// ```
public struct DomainRejection: Equatable, Hashable, Sendable, CustomStringConvertible,
  ExpressibleByStringInterpolation
{
  public var reason: String

  public init(_ reason: String) { self.reason = reason }
  public init(stringLiteral reason: String) { self.reason = reason }
  public init(stringInterpolation: DefaultStringInterpolation) {
    reason = String(stringInterpolation: stringInterpolation)
  }

  public var description: String { reason }
}
