public import RewindJournal

/// Everything Rewind needs to know about one kind of recorded app: its state, its
/// events, the pure reducer that folds one into the other, and how both are written as
/// bytes and JSON.
///
/// Rewind's storage (`RewindJournal`) knows bytes only; the replay engine
/// (``Timeline``, ``Store``) and the `rewind` tool are generic over a `Domain`. An app
/// with its own screens writes its own conforming type and links it into its own
/// `rewind`.
///
/// A domain *value* describes one session: it is built from the settings blob stored in
/// the journal's header (for the navigation domain, the catalog the session ran with),
/// so a journal is self-contained and replays the same way on any machine.
///
/// Determinism: ``reduce(_:_:)`` must be a pure function of its arguments. It reads no
/// clock, no randomness, no environment and never depends on dictionary or set
/// iteration order; time is a field of the event when it matters. Replaying the same
/// journal must give byte-identical state encodings on every run.
public protocol Domain: Sendable {
  /// The state the reducer folds events into.
  associatedtype State: Equatable & Sendable
  /// One thing that happened, named in the past tense.
  associatedtype Event: Equatable & Sendable
  /// Why the reducer refused an event.
  associatedtype Rejection: Equatable & Sendable & CustomStringConvertible
  /// What the event codec remembers from one event to the next, so that an event can be
  /// written relative to the one before (a scroll offset as a difference). Use `Void`
  /// when events are encoded on their own.
  associatedtype EventCodecContext: Sendable

  /// The identifier written in journal headers, e.g. `navigation`.
  static var identifier: String { get }
  /// The schema version this build writes.
  static var schemaVersion: UInt32 { get }
  /// The schema versions this build can read.
  static var readableSchemaVersions: ClosedRange<UInt32> { get }
  /// The names of every event kind, as ``eventKind(_:)`` returns them.
  static var eventKinds: [String] { get }

  /// Builds the domain of one session from the settings blob in its journal header.
  /// - Throws: ``DomainError`` if the blob is not valid settings for this domain.
  init(settings: [UInt8]) throws(DomainError)
  /// The settings blob to store in a journal header; `init(settings:)` reads it back.
  var settings: [UInt8] { get }
  /// The settings as JSON (the header line of a JSON Lines export).
  var settingsJSON: JSONValue { get }
  /// Builds the domain from ``settingsJSON``.
  init(settingsJSON: JSONValue) throws(DomainError)

  /// The state before any event.
  var initialState: State { get }
  /// Applies `event` to `state`, returning whether it changed anything. A rejected
  /// event must leave `state` exactly as it was.
  func reduce(_ state: inout State, _ event: Event) -> Outcome<Rejection>

  /// The leaves of the state's JSON, in order: what diff, blame and find see.
  var fields: [StateField<State>] { get }
  /// The fields whose values differ between two states, as indices into ``fields``.
  /// Must agree with comparing `fields[i].value` of both states; it exists because it
  /// is called once per event while recording and must be fast.
  func changedFields(from old: State, to new: State) -> FieldSet

  /// A fresh codec context. Every run of events is encoded from a fresh context: a run
  /// starts at the first event and after every snapshot, so a reader can start decoding
  /// at any snapshot.
  func makeEventCodecContext() -> EventCodecContext
  /// Appends the binary encoding of an event, given what the codec remembers of the
  /// events before it in the run, and updates that memory.
  func encode(_ event: Event, into writer: inout ByteWriter, context: inout EventCodecContext)
  /// Decodes one event written by ``encode(_:into:context:)``, from the same context.
  /// - Throws: ``CodecError`` on malformed input; never traps.
  func decodeEvent(from reader: inout ByteReader, context: inout EventCodecContext)
    throws(CodecError) -> Event
  /// Appends the binary encoding of a state (a snapshot).
  func encode(_ state: State, into writer: inout ByteWriter)
  /// Decodes a state written by ``encode(_:into:)-state``.
  /// - Throws: ``CodecError`` on malformed input; never traps.
  func decodeState(from reader: inout ByteReader) throws(CodecError) -> State

  /// The event's kind, one of ``eventKinds``.
  func eventKind(_ event: Event) -> String
  /// The event as a JSON object: `{"event": kind, ...payload fields}`.
  func json(_ event: Event) -> JSONValue
  /// Reads an event from the JSON object ``json(_:)-event`` writes.
  func event(fromJSON json: JSONValue) throws(DomainError) -> Event
  /// The state as a JSON object, including derived fields.
  func json(_ state: State) -> JSONValue

  /// A one-line human description of an event (`categorySelected grinders`).
  func describe(_ event: Event) -> String
  /// The state drawn as plain text for a terminal, several lines.
  func render(_ state: State) -> String
}

/// A domain value that is not valid: bad settings, an event JSON object with a missing
/// or wrong field.
public struct DomainError: Error, Equatable, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
