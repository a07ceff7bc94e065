import RewindCore
import RewindJournal

/// Schema 2 of the tally domain, to test upcasting: amounts and values are now counted in
/// hundredths, and the state has a derived field that schema 1 lacked, between two of its
/// old ones. It reads the journals `Tally` (schema 1) recorded:
///
/// - settings: schema 1's `{"start": n}` in units becomes `start` in hundredths;
/// - events: schema 1's `added(n)` becomes `added(n × 100)` (same bytes, read through the
///   Codable default and upcast);
/// - snapshots: schema 1's states, value × 100;
/// - fields: `tally.magnitude` is new, so schema 1's `tally.steps` (1) is now 2.
struct TallyV2<Rules: TallyRules>: Domain, Codable {
  struct State: Codable, Equatable, Sendable {
    var value: Int64 = 0
    var steps: Int64 = 0
    var flag = false
  }

  enum Event: Codable, Equatable, Sendable {
    case added(Int64)
    case reset
    case toggled
  }

  static var identifier: String { "tally" }
  static var schemaVersion: UInt32 { 2 }
  static var readableSchemaVersions: ClosedRange<UInt32> { 1...2 }

  /// The value the tally starts at, in hundredths.
  var start: Int64 = 0
  /// The schema of the journal this value reads: 1 when it upcasts.
  var readsSchemaVersion: UInt32 = 2

  enum CodingKeys: String, CodingKey { case start }

  init(start: Int64 = 0) { self.start = start }

  init(settingsJSON: JSONValue, upcastingFrom schema: RecordedSchema) throws(DomainError) {
    let old = try StandardTally(settingsJSON: settingsJSON)
    start = old.start * 100
    readsSchemaVersion = schema.version
  }

  var initialState: State { State(value: start) }

  func reduce(_ state: inout State, _ event: Event) -> Outcome<DomainRejection> {
    switch event {
    case .added(let amount):
      guard abs(amount) <= 100_000 else { return .rejected("more than 1000 away from 0") }
      guard amount != 0 else { return .unchanged }
      state.value += amount
      state.steps += 1
    case .reset:
      guard state.value != 0 else { return .unchanged }
      state.value = 0
      state.steps = Rules.stepsAfterReset(state.steps)
    case .toggled:
      state.flag.toggle()
    }
    return .applied
  }

  func json(_ state: State) -> JSONValue {
    let sign = state.value > 0 ? "+" : state.value < 0 ? "-" : "0"
    let magnitude = abs(state.value) >= 10_000 ? "large" : "small"
    return .object([
      (
        "tally",
        .object([
          ("value", .int(state.value)), ("magnitude", .string(magnitude)),
          ("steps", .int(state.steps)), ("flag", .bool(state.flag)), ("sign", .string(sign)),
        ])
      )
    ])
  }

  func fieldPaths(schemaVersion version: UInt32) -> [String] {
    let paths = fields.map(\.path)
    return version == 1 ? paths.filter { $0 != "tally.magnitude" } : paths
  }

  func decodeEvent(from reader: inout ByteReader, context: inout Void) throws(CodecError)
    -> Event
  {
    let event = try CompactBinaryDecoder().decode(Event.self, from: &reader)
    guard readsSchemaVersion == 1, case .added(let amount) = event else { return event }
    return .added(amount * 100)
  }

  func decodeState(from reader: inout ByteReader) throws(CodecError) -> State {
    var state = try CompactBinaryDecoder().decode(State.self, from: &reader)
    if readsSchemaVersion == 1 { state.value *= 100 }
    return state
  }
}

typealias StandardTallyV2 = TallyV2<StandardRules>
