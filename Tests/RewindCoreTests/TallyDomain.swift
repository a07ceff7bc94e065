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

/// A small domain for testing the replay engine: a counter with a step count and a flag,
/// written against the defaults of `Domain` (its codecs, event JSON and descriptions come
/// from `Codable`), overriding the rejection type and the state's JSON.
///
/// - `added(n)`: rejected when |n| > 1000, unchanged when n == 0, else adds n and counts
///   a step.
/// - `reset`: unchanged when the value is 0, else sets it to 0 (steps per the rules).
/// - `toggled`: flips the flag.
struct Tally<Rules: TallyRules>: Domain, Codable {
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

  /// The value the tally starts at: the session's settings.
  var start: Int64 = 0

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

  /// The state under `tally`, with its sign derived: the default fields are its leaves.
  func json(_ state: State) -> JSONValue {
    let sign = state.value > 0 ? "+" : state.value < 0 ? "-" : "0"
    return .object([
      (
        "tally",
        .object([
          ("value", .int(state.value)), ("steps", .int(state.steps)), ("flag", .bool(state.flag)),
          ("sign", .string(sign)),
        ])
      )
    ])
  }
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
