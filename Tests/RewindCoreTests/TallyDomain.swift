import RewindCore
import RewindJournal

/// The reducer rules of the tally test domain, replaceable so that a test can record
/// with one set of rules and check with another.
protocol TallyRules: Sendable {
  /// What `reset` does to the step counter.
  static func stepsAfterReset(_ steps: Int64) -> Int64
}

/// The rules the journals are recorded with.
enum StandardRules: TallyRules {
  static func stepsAfterReset(_ steps: Int64) -> Int64 { steps + 1 }
}

/// The same rules but one: `reset` zeroes the step counter instead of counting a step.
enum AlteredRules: TallyRules {
  static func stepsAfterReset(_ steps: Int64) -> Int64 { 0 }
}

/// The same rules but one: `reset` does not count a step.
enum UncountedResetRules: TallyRules {
  static func stepsAfterReset(_ steps: Int64) -> Int64 { steps }
}

/// A small domain for testing the replay engine: a counter with a step count and a flag.
///
/// - `added(n)`: rejected when |n| > 1000, unchanged when n == 0, else adds n and counts
///   a step.
/// - `reset`: unchanged when the value is 0, else sets it to 0 (steps per the rules).
/// - `toggled`: flips the flag.
struct Tally<Rules: TallyRules>: Domain {
  struct State: Equatable, Sendable {
    var value: Int64 = 0
    var steps: Int64 = 0
    var flag = false
  }

  enum Event: Equatable, Sendable {
    case added(Int64)
    case reset
    case toggled
  }

  enum Rejection: Equatable, Sendable, CustomStringConvertible {
    case tooLarge(Int64)
    var description: String {
      switch self {
      case .tooLarge(let amount): "\(amount) is more than 1000 away from 0"
      }
    }
  }

  static var identifier: String { "tally" }
  static var schemaVersion: UInt32 { 1 }
  static var readableSchemaVersions: ClosedRange<UInt32> { 1...1 }
  static var eventKinds: [String] { ["added", "reset", "toggled"] }

  let start: Int64

  init(start: Int64 = 0) { self.start = start }

  init(settings: [UInt8]) throws(DomainError) {
    guard let text = String(validating: settings, as: UTF8.self), let start = Int64(text) else {
      throw DomainError("tally settings must be a number")
    }
    self.start = start
  }

  var settings: [UInt8] { Array(String(start).utf8) }
  var settingsJSON: JSONValue { .object([("start", .int(start))]) }

  init(settingsJSON: JSONValue) throws(DomainError) {
    guard let start = settingsJSON["start"]?.intValue else {
      throw DomainError("tally settings need \"start\"")
    }
    self.start = start
  }

  var initialState: State { State(value: start) }

  func reduce(_ state: inout State, _ event: Event) -> Outcome<Rejection> {
    switch event {
    case .added(let amount):
      guard abs(amount) <= 1_000 else { return .rejected(.tooLarge(amount)) }
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

  var fields: [StateField<State>] {
    [
      StateField("tally.value") { .int($0.value) },
      StateField("tally.steps") { .int($0.steps) },
      StateField("tally.flag") { .bool($0.flag) },
      StateField("tally.sign") { .string($0.value > 0 ? "+" : $0.value < 0 ? "-" : "0") },
    ]
  }

  func changedFields(from old: State, to new: State) -> FieldSet {
    var set = FieldSet()
    if old.value != new.value { set.insert(0) }
    if old.steps != new.steps { set.insert(1) }
    if old.flag != new.flag { set.insert(2) }
    if old.value.signum() != new.value.signum() { set.insert(3) }
    return set
  }

  func makeEventCodecContext() {}

  func encode(_ event: Event, into writer: inout ByteWriter, context: inout Void) {
    switch event {
    case .added(let amount):
      writer.write(0)
      writer.writeZigZag(amount)
    case .reset: writer.write(1)
    case .toggled: writer.write(2)
    }
  }

  func decodeEvent(from reader: inout ByteReader, context: inout Void) throws(CodecError) -> Event {
    let start = reader.offset
    switch try reader.readByte() {
    case 0: return .added(try reader.readZigZag())
    case 1: return .reset
    case 2: return .toggled
    case let tag: throw CodecError(.invalidValue, "unknown tally event tag \(tag)", at: start)
    }
  }

  func encode(_ state: State, into writer: inout ByteWriter) {
    writer.writeZigZag(state.value)
    writer.writeZigZag(state.steps)
    writer.write(state.flag ? 1 : 0)
  }

  func decodeState(from reader: inout ByteReader) throws(CodecError) -> State {
    let value = try reader.readZigZag()
    let steps = try reader.readZigZag()
    let flag = try reader.readByte()
    guard flag <= 1 else { throw CodecError(.invalidValue, "flag \(flag)", at: reader.offset - 1) }
    return State(value: value, steps: steps, flag: flag == 1)
  }

  func eventKind(_ event: Event) -> String {
    switch event {
    case .added: "added"
    case .reset: "reset"
    case .toggled: "toggled"
    }
  }

  func json(_ event: Event) -> JSONValue {
    switch event {
    case .added(let amount): .object([("event", "added"), ("amount", .int(amount))])
    case .reset: .object([("event", "reset")])
    case .toggled: .object([("event", "toggled")])
    }
  }

  func event(fromJSON json: JSONValue) throws(DomainError) -> Event {
    switch json["event"]?.stringValue {
    case "added":
      guard let amount = json["amount"]?.intValue else { throw DomainError("added needs amount") }
      return .added(amount)
    case "reset": return .reset
    case "toggled": return .toggled
    default: throw DomainError("unknown tally event")
    }
  }

  func json(_ state: State) -> JSONValue {
    .object([
      (
        "tally",
        .object([
          ("value", .int(state.value)), ("steps", .int(state.steps)), ("flag", .bool(state.flag)),
          ("sign", fields[3].value(state)),
        ])
      )
    ])
  }

  func describe(_ event: Event) -> String {
    switch event {
    case .added(let amount): "added \(amount)"
    case .reset: "reset"
    case .toggled: "toggled"
    }
  }

  func render(_ state: State) -> String { "tally \(state.value) after \(state.steps) steps" }
}

typealias StandardTally = Tally<StandardRules>

/// A seeded stream of tally events with times: mostly valid, some unchanged, some
/// rejected.
struct TallyEvents: Sequence, IteratorProtocol {
  var random: UInt64
  var time: UInt64 = 0

  init(seed: UInt64) { random = seed | 1 }

  mutating func nextRandom() -> UInt64 {
    random ^= random << 13
    random ^= random >> 7
    random ^= random << 17
    return random
  }

  mutating func next() -> (time: UInt64, event: StandardTally.Event)? {
    let roll = nextRandom() % 100
    time += nextRandom() % 3 == 0 ? 0 : nextRandom() % 50_000
    let event: StandardTally.Event
    switch roll {
    case 0..<70: event = .added(Int64(nextRandom() % 41) - 20)
    case 70..<80: event = .reset
    case 80..<95: event = .toggled
    default: event = .added(Int64(nextRandom() % 5_000) - 2_500)
    }
    return (time, event)
  }
}
