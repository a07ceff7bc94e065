import RewindCore
import RewindJournal
import Testing

/// RewindCore traps on programming errors (a wrong field index, a value of the domain's
/// own types that cannot be encoded); each is checked here in a child process. (A domain
/// that cannot be recorded, of more fields than an effect can name, is an error a `Store`
/// throws: `TooManyFieldsTests`.)
@Suite("RewindCore's preconditions trap")
struct PreconditionTests {
  @Test("a field index outside 0..<64")
  func fieldIndex() async {
    await #expect(processExitsWith: .failure) { _ = FieldSet(field: 64) }
    await #expect(processExitsWith: .failure) { _ = FieldSet(field: -1) }
  }

  @Test("a JSON number that is not finite")
  func nonFiniteJSON() async {
    await #expect(processExitsWith: .failure) { _ = JSONValue.double(.nan).compactText }
  }

  @Test("the default event JSON with a payload field called 'event'")
  func payloadCalledEvent() async {
    await #expect(processExitsWith: .failure) {
      _ = ClashingDomain().json(.happened(event: 1))
    }
  }

  @Test("a state of the domain's own type that cannot be encoded")
  func unencodableState() async {
    await #expect(processExitsWith: .failure) {
      _ = RefusingDomain().json(RefusingDomain().initialState)
    }
    await #expect(processExitsWith: .failure) {
      var writer = ByteWriter()
      RefusingDomain().encode(RefusingDomain().initialState, into: &writer)
    }
  }
}

/// A domain with 63 fields, one more than a recorded effect can name.
struct WideDomain: Domain, Codable {
  typealias State = [Int]
  typealias Event = Int
  static let identifier = "wide"
  static let schemaVersion: UInt32 = 1
  var initialState: State { Array(repeating: 0, count: 63) }
  func reduce(_ state: inout State, _ event: Event) -> Outcome<DomainRejection> { .unchanged }
  var fields: [StateField<State>] {
    (0..<63).map { index in StateField("f\(index)") { .int(Int64($0[index])) } }
  }
}

/// A domain whose event has a payload field named like the event's kind, and whose
/// settings are required.
struct ClashingDomain: RecordableDomain, Codable {
  enum Event: Codable, Equatable { case happened(event: Int) }
  static let identifier = "clashing"
  static let schemaVersion: UInt32 = 1
  var level: Int = 0
  var initialState: Int { level }
  func reduce(_ state: inout Int, _ event: Event) -> Outcome<DomainRejection> { .unchanged }
}

/// A domain whose state's `encode(to:)` throws.
struct RefusingDomain: Domain, Codable {
  struct State: Codable, Equatable, Sendable {
    func encode(to encoder: any Encoder) throws {
      throw EncodingError.invalidValue(self, .init(codingPath: [], debugDescription: "no"))
    }
  }
  static let identifier = "refusing"
  static let schemaVersion: UInt32 = 1
  var initialState: State { State() }
  func reduce(_ state: inout State, _ event: Int) -> Outcome<DomainRejection> { .unchanged }
}
