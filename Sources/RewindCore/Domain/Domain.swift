public import RewindJournal

/// Everything Rewind needs to know about one kind of recorded app: its state, its
/// events, and the pure reducer that folds one into the other.
///
/// Rewind's storage (`RewindJournal`) knows bytes only; the replay engine
/// (``Timeline``, ``Store``) and the `rewind` tool are generic over a `Domain`. An app
/// with its own screens writes its own conforming type and links it into its own
/// `rewind` (see ``RecordableDomain``).
///
/// A domain gives only what nobody else can know: its ``State`` and ``Event`` types, the
/// ``initialState``, the ``reduce(_:_:)`` function, its ``identifier`` and its
/// ``schemaVersion``. Everything else has a default when the types are `Codable`:
///
/// | requirement | default |
/// | --- | --- |
/// | ``Rejection`` | ``DomainRejection``, a reason in words |
/// | ``readableSchemaVersions`` | the current ``schemaVersion`` only |
/// | ``init(settingsJSON:upcastingFrom:)`` | ``init(settingsJSON:)``: older journals read as they are |
/// | ``fieldPaths(schemaVersion:)`` | the paths of today's ``fields`` |
/// | ``settingsJSON``, ``init(settingsJSON:)`` | the domain value itself, when it is `Codable` (a domain with no stored properties has none) |
/// | `json(_ event:)`, ``event(fromJSON:)`` | `{"event": case, …payload}` through ``JSONValueEncoder`` |
/// | `json(_ state:)` | the state through ``JSONValueEncoder`` |
/// | ``writeMembers(of:to:)`` | the members of `json(_ event:)` |
/// | ``writeJSON(of:to:)`` | `json(_ state:)`, written |
/// | ``fieldValueWord(_:of:)`` | none: a field's value is its JSON value |
/// | ``event(fromFields:)`` | nil: every line is read by ``event(fromJSON:)`` |
/// | ``fields`` | the leaves of the initial state's JSON, their kinds inferred from its values |
/// | ``knownValues(for:)`` | none: any string is accepted where an id is expected |
/// | ``changedFields(from:to:)`` | the fields whose JSON differs |
/// | ``predicate(for:_:)`` | none: conditions compare the field's JSON value |
/// | ``reduceTrackingChanges(_:_:)`` | ``reduce(_:_:)``, then ``changedFields(from:to:)`` of a copy of the state before |
/// | ``EventCodecContext`` | none (`Void`) |
/// | ``decodeEvent(fromWord:count:context:)`` | nil: every event read by ``decodeEvent(from:context:)`` |
/// | the binary codecs | ``CompactBinaryEncoder`` and ``CompactBinaryDecoder`` |
/// | ``eventKinds`` | not listed (any kind is accepted where one is named) |
/// | ``eventKind(_:)``, ``describe(_:)`` | read from the event's JSON |
/// | ``render(_:)`` | the state's JSON, indented |
/// | ``scans`` | the scans of whole sessions, specialised for the domain's types |
///
/// A domain overrides any of them for speed or looks; `Navigation` writes its own codecs,
/// fields, JSON and rendering.
///
/// A domain *value* describes one session: it is built from the settings stored in the
/// journal's header (for the navigation domain, the catalog the session ran with), so a
/// journal is self-contained and replays the same way on any machine.
///
/// Determinism: ``reduce(_:_:)`` must be a pure function of its arguments. It reads no
/// clock, no randomness, no environment and never depends on dictionary or set
/// iteration order; time is a field of the event when it matters. Replaying the same
/// journal must give byte-identical state encodings on every run.
///
/// Schema evolution: a journal names the ``schemaVersion`` it was recorded with. A domain
/// that changes its events, states or settings raises the version and lists the older
/// ones it still reads in ``readableSchemaVersions``; a ``Timeline`` builds the domain of
/// an older journal with ``init(settingsJSON:upcastingFrom:)``, and that domain value
/// reads the older settings, events and snapshots and hands on current ones: it
/// *upcasts* them, as KurrentDB, Marten and Axon call it. A journal of a newer version
/// than ``schemaVersion`` is refused, never misread.
public protocol Domain: Sendable {
  /// The state the reducer folds events into.
  associatedtype State: Equatable & Sendable
  /// One thing that happened, named in the past tense.
  associatedtype Event: Equatable & Sendable
  /// Why the reducer refused an event.
  associatedtype Rejection: Equatable & Sendable & CustomStringConvertible = DomainRejection
  /// What the event codec remembers from one event to the next, so that an event can be
  /// written relative to the one before (a scroll offset as a difference). `Void` (the
  /// default) when events are encoded on their own.
  associatedtype EventCodecContext: Sendable = Void

  // MARK: What only the domain knows

  /// The identifier written in journal headers, e.g. `navigation`.
  static var identifier: String { get }
  /// The schema version this build writes.
  static var schemaVersion: UInt32 { get }
  /// The state before any event.
  var initialState: State { get }
  /// Applies `event` to `state`, returning whether it changed anything. A rejected
  /// event must leave `state` exactly as it was.
  func reduce(_ state: inout State, _ event: Event) -> Outcome<Rejection>

  // MARK: With defaults

  /// The schema versions this build can read, ending at ``schemaVersion``; by default
  /// only ``schemaVersion``. A journal of an older one is read through
  /// ``init(settingsJSON:upcastingFrom:)``.
  static var readableSchemaVersions: ClosedRange<UInt32> { get }
  /// The names of every event kind, as ``eventKind(_:)`` returns them; empty (the
  /// default) when the domain does not list them.
  static var eventKinds: [String] { get }

  /// The session's settings as JSON: stored (as compact text) in the journal header, and
  /// the `settings` of a JSON Lines header.
  var settingsJSON: JSONValue { get }
  /// Builds the domain of one session from ``settingsJSON``.
  /// - Throws: ``DomainError`` if the JSON is not valid settings for this domain.
  init(settingsJSON: JSONValue) throws(DomainError)
  /// Builds the domain of a session recorded with an older schema version (one of
  /// ``readableSchemaVersions`` below ``schemaVersion``), from its settings as that
  /// version wrote them: the upcast.
  ///
  /// The domain built here reads the older version's events and snapshots (through
  /// ``decodeEvent(from:context:)``, ``decodeState(from:)`` and ``event(fromJSON:)``) and
  /// returns what they stand for as current events and states; everything it writes
  /// (``settingsJSON``, `json(_:)`, the encoders) is current. The default builds the
  /// domain from the settings as they are, for a version whose settings, events and
  /// states the current decoders read unchanged (a version that only added events).
  ///
  /// - Parameters:
  ///   - settingsJSON: the settings as the older version wrote them.
  ///   - schema: the older version, and the recording device the journal names.
  /// - Throws: ``DomainError`` if the JSON is not valid settings of that version.
  init(settingsJSON: JSONValue, upcastingFrom schema: RecordedSchema) throws(DomainError)
  /// The paths of the fields a state had in schema `version`, in their order then: the
  /// fields the changes recorded with that version (``RecordedEffect/changed``) count.
  ///
  /// `rewind check` compares an older journal's recorded changes through them, and
  /// leaves the fields added since out of its comparisons. By default the paths of
  /// today's ``fields``: a domain lists older ones when its fields changed.
  func fieldPaths(schemaVersion version: UInt32) -> [String]

  /// The leaves of the state's JSON, in order: what diff, blame and find see. At most
  /// ``RecordedEffect/maximumFieldCount`` (62) for a domain that records: a journal keeps
  /// each event's changed fields in one word, and a `Store` of more throws (list fewer of
  /// your own, a field holding a whole object or array of the state).
  var fields: [StateField<State>] { get }
  /// The values a field of kind ``FieldKind/identifier(of:)`` or ``FieldKind/text(of:)``
  /// can hold in this session (the catalog's ids, with their names; a menu's labels),
  /// against which `find` checks a condition's value; nil (the default) accepts any
  /// string.
  func knownValues(for path: String) -> [KnownValue]?
  /// The fields whose values differ between two states, as indices into ``fields``.
  /// Must agree with comparing `fields[i].value` of both states; it exists because it
  /// is called once per event while recording and is worth making fast.
  func changedFields(from old: State, to new: State) -> FieldSet

  /// `comparison` of the field `fields[index]` compiled against the state's own values:
  /// a function that returns what `comparison.holds(fields[index].value(state))` returns,
  /// for every state, without building the field's JSON value. `find` and `log --where`
  /// evaluate a condition's comparisons of fields with it (after each event, or each
  /// event that changed the field), so that a field that changes often costs a plain
  /// comparison, not a JSON value (a string, for an id) each time.
  ///
  /// Nil (the default) for a field or comparison the domain does not compile: the
  /// condition compares the field's JSON value, as `holds` does.
  func predicate(for index: Int, _ comparison: FieldComparison) -> (@Sendable (State) -> Bool)?

  /// The loops that walk a whole session (`find`, `check`) compiled for this domain's
  /// types; the default, which a domain keeps, is specialised where the conformance is
  /// compiled (see ``SessionScans``).
  static var scans: SessionScans<Self> { get }

  /// Applies `event` to `state` and says which fields it changed: what replay calls
  /// when it follows changes (find, check, log). Must agree with ``reduce(_:_:)`` and
  /// ``changedFields(from:to:)`` of the states before and after (no field unless the
  /// event was applied). The default does just that, copying the state before the
  /// event; a domain overrides it when its reducer can say which fields it wrote a
  /// different value into (`Navigation`'s does), or to remember only what change
  /// detection compares.
  func reduceTrackingChanges(_ state: inout State, _ event: Event) -> (
    outcome: Outcome<Rejection>, changed: FieldSet
  )

  /// A fresh codec context. Every run of events is encoded from a fresh context: a run
  /// starts at the first event and after every snapshot, so a reader can start decoding
  /// at any snapshot.
  func makeEventCodecContext() -> EventCodecContext
  /// Appends the binary encoding of an event, given what the codec remembers of the
  /// events before it in the run, and updates that memory.
  func encode(_ event: Event, into writer: inout ByteWriter, context: inout EventCodecContext)
  /// Decodes one event written by ``encode(_:into:context:)``, from the same context.
  /// - Throws: `CodecError` on malformed input; never traps.
  func decodeEvent(from reader: inout ByteReader, context: inout EventCodecContext)
    throws(CodecError) -> Event
  /// Decodes an event in one of the domain's shortest encodings from a word holding it:
  /// the shortcut of the scan loops, which load a record's first bytes at once.
  ///
  /// `word` holds the encoding's first bytes, little-endian (its first byte in the low
  /// eight bits); its bytes past `count` (all of it past the eighth byte when `count` is
  /// larger; `count` may be 0, or -1 for a record too short to hold an effect and an
  /// event) are not the event's. A domain returns an event, and
  /// updates `context`, only where ``decodeEvent(from:context:)`` reads the same event
  /// from exactly `count` bytes and leaves the same context; nil leaves the encoding to
  /// it (so every malformed one is). By default nil.
  func decodeEvent(fromWord word: UInt64, count: Int, context: inout EventCodecContext) -> Event?
  /// Appends the binary encoding of a state (a snapshot).
  func encode(_ state: State, into writer: inout ByteWriter)
  /// Decodes a state written by ``encode(_:into:)``.
  /// - Throws: `CodecError` on malformed input; never traps.
  func decodeState(from reader: inout ByteReader) throws(CodecError) -> State

  /// The event's kind, one of ``eventKinds`` when they are listed.
  func eventKind(_ event: Event) -> String
  /// The event as a JSON object: `{"event": kind, ...payload fields}`.
  func json(_ event: Event) -> JSONValue
  /// Writes the members of the event's JSON object, the bytes `json(_ event:)` prints
  /// as, into an object `json` has open: what `rewind export` writes each event with.
  /// By default the members of `json(_ event:)`; a domain writes them itself for speed.
  func writeMembers(of event: Event, to json: inout JSONWriter)
  /// Reads an event from the JSON object `json(_ event:)` writes.
  /// - Throws: ``DomainError`` saying what is missing or wrong.
  func event(fromJSON json: JSONValue) throws(DomainError) -> Event
  /// Reads an event from the fields of a flat JSON object in place (a line of `rewind
  /// import`, less its `seq` and `time_us`), with no ``JSONValue`` built; nil to leave
  /// the object to ``event(fromJSON:)``, whose errors say what is wrong. A domain returns
  /// an event only where ``event(fromJSON:)`` reads the same from the same object and
  /// the object has no key the event's JSON lacks. By default nil.
  func event(fromFields fields: JSONFields) -> Event?
  /// The state as a JSON object, including derived fields.
  func json(_ state: State) -> JSONValue
  /// Writes the state's JSON, compact (the bytes of `json(_ state:)`'s
  /// ``JSONValue/compactText``), into `json`: what `rewind html` writes each keyframe of its
  /// page with, a state every few hundred events. By default `json(_ state:)`, written; a
  /// domain writes it itself for speed (building a ``JSONValue`` of the navigation state
  /// costs ten times writing its text).
  func writeJSON(of state: State, to json: inout JSONWriter)
  /// A word that stands for the value of field `fields[index]` in `state`: for two states
  /// of one domain value (one session), equal words for a field mean that the field's
  /// values have the same JSON text. Different words for values of the same text are
  /// allowed, equal words for values of different texts are not. Nil (the default) when
  /// the domain gives no word for the field, or for this value of it.
  ///
  /// `rewind html` recognises a change list it has met before by the values of its
  /// fields, once an event: a word (a number's bits, a selection's index, an enum's code)
  /// costs a read of the state, where the field's ``StateField/value`` builds a
  /// ``JSONValue`` to be taken apart and released (about a fifth of the page's work an
  /// event for the navigation domain). The page is the same bytes either way.
  func fieldValueWord(_ index: Int, of state: State) -> UInt64?

  /// A one-line human description of an event (`categorySelected grinders`).
  func describe(_ event: Event) -> String
  /// The state drawn as plain text for a terminal, several lines.
  func render(_ state: State) -> String
}

/// A domain value that is not valid: bad settings, an event JSON object with a missing
/// or wrong field.
public struct DomainError: Error, Equatable, Sendable, CustomStringConvertible {
  public var message: String
  /// The key of an event's JSON whose absence the message says (`needs an "id"`), so that
  /// a key the event has in its place, misspelt, can be named (`message(givenKeys:)`).
  public var missingKey: String?

  public init(_ message: String, missingKey: String? = nil) {
    self.message = message
    self.missingKey = missingKey
  }

  public var description: String { message }

  /// Errors are the same when they say the same (the missing key is a hint to the message).
  public static func == (lhs: DomainError, rhs: DomainError) -> Bool {
    lhs.message == rhs.message
  }

  /// The message, with the key given in place of the missing one when it is most likely
  /// a slip of it: `… needs an "id": … ("idd" is given: did you mean "id"?)`.
  package func message(givenKeys keys: [String]) -> String {
    guard let missing = missingKey else { return message }
    return message + Format.slip(of: missing, given: keys)
  }

  /// An event of a kind the domain has not: `unknown event kind "menuScroled" (did you
  /// mean "menuScrolled"?); the kinds are …`.
  public static func unknownEventKind(_ kind: String, kinds: [String]) -> DomainError {
    let list = kinds.isEmpty ? "" : "; the kinds are " + kinds.joined(separator: ", ")
    return DomainError(
      "unknown event kind \(Format.quoted(kind, quote: "\""))\(Format.meant(kind, among: kinds))\(list)"
    )
  }
}

extension Domain {
  public static var readableSchemaVersions: ClosedRange<UInt32> { schemaVersion...schemaVersion }

  /// Builds the domain from the settings as they are: the older version's settings,
  /// events and states are read by the current decoders.
  public init(settingsJSON: JSONValue, upcastingFrom schema: RecordedSchema) throws(DomainError) {
    try self.init(settingsJSON: settingsJSON)
  }

  /// The paths of today's ``fields``.
  public func fieldPaths(schemaVersion version: UInt32) -> [String] { fields.map(\.path) }

  public static var eventKinds: [String] { [] }

  public func knownValues(for path: String) -> [KnownValue]? { nil }

  /// None: conditions compare the field's JSON value.
  public func predicate(for index: Int, _ comparison: FieldComparison) -> (
    @Sendable (State) -> Bool
  )? { nil }

  /// The state's JSON, indented: what `rewind state` prints unless the domain draws it.
  public func render(_ state: State) -> String { json(state).prettyText }
}

extension Domain {
  /// ``reduce(_:_:)``, then ``changedFields(from:to:)`` of the state before (a copy) and
  /// after; no field unless the event was applied.
  @inlinable public func reduceTrackingChanges(_ state: inout State, _ event: Event) -> (
    outcome: Outcome<Rejection>, changed: FieldSet
  ) {
    let before = state
    let outcome = reduce(&state, event)
    return (outcome, outcome.isApplied ? changedFields(from: before, to: state) : [])
  }
}

extension Domain {
  /// None: a field's value is its JSON value (``StateField/value``).
  @inlinable public func fieldValueWord(_ index: Int, of state: State) -> UInt64? { nil }
}

extension Domain {
  /// None: every event is read by ``decodeEvent(from:context:)``.
  @inlinable public func decodeEvent(
    fromWord word: UInt64, count: Int, context: inout EventCodecContext
  ) -> Event? { nil }
}

extension Domain where EventCodecContext == Void {
  public func makeEventCodecContext() {}
}
