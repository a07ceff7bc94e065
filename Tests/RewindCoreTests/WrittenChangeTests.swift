import RewindCore
import RewindJournal
import Testing

/// A gauge whose level is a `Double` and whose name is a string, written with nothing but
/// the core of `Domain`: its fields and changed fields are the defaults. Every event is
/// applied, whatever it sets.
struct WrittenGauge: Domain, Codable {
  struct State: Codable, Equatable, Sendable {
    var level = 1.0
    var name = ""
    var readings: [Double] = []
  }

  enum Event: Codable, Equatable, Sendable {
    case set(to: Double)
    case named(String)
    case read(Double)
  }

  static let identifier = "gauge"
  static let schemaVersion: UInt32 = 1

  var initialState: State { State() }

  func reduce(_ state: inout State, _ event: Event) -> Outcome<DomainRejection> {
    switch event {
    case .set(let level): state.level = level
    case .named(let name): state.name = name
    case .read(let reading): state.readings.append(reading)
    }
    return .applied
  }
}

@Suite("A change is what a field's JSON text shows")
struct WrittenChangeTests {
  let domain = WrittenGauge()

  /// The paths of the fields the default `changedFields` finds between the states before
  /// and after `event`, from `state`.
  private func changed(_ event: WrittenGauge.Event, from state: WrittenGauge.State) -> [String] {
    var after = state
    _ = domain.reduce(&after, event)
    return domain.paths(of: domain.changedFields(from: state, to: after))
  }

  @Test("0.0 and -0.0 differ in a field, and in an array field; the same value does not")
  func signedZero() {
    var state = WrittenGauge.State()
    state.level = 0.0
    #expect(changed(.set(to: -0.0), from: state) == ["level"])
    #expect(changed(.set(to: 0.0), from: state) == [])
    state.level = -0.0
    #expect(changed(.set(to: 0.0), from: state) == ["level"])
    #expect(changed(.set(to: -0.0), from: state) == [])
    // The text of each differs, as the changes say.
    #expect(domain.json(state).compactText.contains(#""level":-0.0"#))
    state.readings = [0.0]
    var after = state
    after.readings = [-0.0]
    #expect(domain.paths(of: domain.changedFields(from: state, to: after)) == ["readings"])
    #expect(domain.diff(state, after).map(\.path) == ["readings"])
    // Values equal as JSON values, but not as text.
    #expect(JSONValue.double(0.0) == JSONValue.double(-0.0))
    #expect(!JSONValue.double(0.0).isWrittenAs(.double(-0.0)))
  }

  @Test("NaN is written as the string \"NaN\": one NaN is no change from another")
  func notANumber() {
    var state = WrittenGauge.State()
    state.level = .nan
    #expect(changed(.set(to: -.nan), from: state) == [])
    #expect(changed(.set(to: .infinity), from: state) == ["level"])
    #expect(changed(.set(to: 0), from: state) == ["level"])
    state.level = .infinity
    #expect(changed(.set(to: -.infinity), from: state) == ["level"])
    #expect(changed(.set(to: .infinity), from: state) == [])
  }

  @Test("strings differ by their bytes: a precomposed é is not e and a combining accent")
  func strings() {
    var state = WrittenGauge.State()
    state.name = "caf\u{E9}"
    #expect("caf\u{E9}" == "cafe\u{301}")
    #expect(changed(.named("cafe\u{301}"), from: state) == ["name"])
    #expect(changed(.named("caf\u{E9}"), from: state) == [])
    var after = state
    after.name = "cafe\u{301}"
    #expect(domain.diff(state, after).map(\.path) == ["name"])
  }

  @Test("written as the same text: kinds, numbers' bits, strings' bytes, members in order")
  func isWrittenAs() {
    let same: [(JSONValue, JSONValue)] = [
      (.null, .null), (true, true), (1, 1), (0.5, 0.5), (-0.0, -0.0), ("é", "é"),
      ([1, 2.5], [1, 2.5]), (.object([("a", 1), ("b", [])]), .object([("a", 1), ("b", [])])),
    ]
    for (a, b) in same {
      #expect(a.isWrittenAs(b) && b.isWrittenAs(a), "\(a.compactText)")
      #expect(Array(a.compactText.utf8) == Array(b.compactText.utf8))
    }
    let different: [(JSONValue, JSONValue)] = [
      (.null, false), (true, false), (1, 1.0), (1, 2), (0.0, -0.0), (0.1, .double(0.1.nextUp)),
      ("caf\u{E9}", "cafe\u{301}"), ([1, 2], [2, 1]), ([1], [1, 1]), ([-0.0], [0.0]),
      (.object([("a", 1), ("b", 2)]), .object([("b", 2), ("a", 1)])),
      (.object([("a", 1)]), .object([("a", 1), ("b", 2)])),
      (.object([("a", 0.0)]), .object([("a", -0.0)])),
      (.object([("caf\u{E9}", 1)]), .object([("cafe\u{301}", 1)])),
    ]
    for (a, b) in different {
      #expect(!a.isWrittenAs(b) && !b.isWrittenAs(a), "\(a.compactText) \(b.compactText)")
      #expect(Array(a.compactText.utf8) != Array(b.compactText.utf8))
    }
  }

  @Test("a condition's changed(…) sees a change of the sign of zero")
  func condition() throws {
    let evaluator = try ConditionEvaluator(Condition(parsing: "changed(level)"), in: domain)
    var before = WrittenGauge.State()
    before.level = 0.0
    var after = before
    after.level = -0.0
    #expect(evaluator.holds(after: nil, previous: before, state: after))
    #expect(!evaluator.holds(after: nil, previous: after, state: after))
  }
}
