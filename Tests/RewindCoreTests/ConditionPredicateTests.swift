import Navigation
import TestSupport
import Testing

@testable import RewindCore
@testable import RewindJournal

/// Conditions on fields evaluated against the domain's own values
/// (`Domain.predicate(for:_:)`): the answers of the fields' JSON values.
@Suite("Conditions: the domain's predicates answer as the fields' JSON values")
struct ConditionPredicateTests {
  let scans = ParallelScanTests()
  var domain: NavigationDomain { scans.domain }

  /// The states of a random session of `count` events.
  func randomStates(seed: UInt64, count: Int, in domain: NavigationDomain) -> [NavigationState] {
    var generator = RandomEventGenerator(seed: seed, domain: domain)
    var state = domain.initialState
    var states = [state]
    for _ in 0..<count {
      _ = domain.reduce(&state, generator.next())
      states.append(state)
    }
    return states
  }

  /// Values to compare a field with: what the fields take in `states`, every id of the
  /// catalog, null, numbers, booleans, strings and lists that no field holds.
  func values(_ states: [NavigationState]) -> [JSONValue] {
    var values: [JSONValue] = [
      .null, .bool(true), .bool(false), .int(0), .int(2), .int(-1), .double(0.5), .double(120),
      .string(""), .string("automatic"), .string("e"), .string("nope"), .array([]),
      .array([.string("sidebar")]),
    ]
    for ref in domain.catalog.allNodes { values.append(.string(domain.catalog.id(of: ref))) }
    for state in states.prefix(60) {
      for field in domain.fields {
        let value = field.value(state)
        if !values.contains(value) { values.append(value) }
      }
    }
    return values
  }

  @Test(
    "every field, operator and value: the predicate answers as the comparison of the JSON value, also for states of another catalog object"
  )
  func predicatesAnswerAsJSON() throws {
    let seed = testSeed("predicatesAnswerAsJSON")
    var random = SplitMix64(seed: seed)
    let states = randomStates(seed: random.next(), count: 400, in: domain)
    // The same settings, another catalog object: its states take the JSON path.
    let twin = try NavigationDomain(settingsJSON: domain.settingsJSON)
    let others = randomStates(seed: random.next(), count: 100, in: twin)
    let values = values(states)
    var compiled = 0
    var held = 0
    for (index, field) in domain.fields.enumerated() {
      for symbol in FieldComparison.Operator.allCases {
        for value in values {
          let comparison = FieldComparison(symbol, value)
          guard let predicate = domain.predicate(for: index, comparison) else { continue }
          compiled += 1
          for state in states + others {
            let expected = comparison.holds(field.value(state))
            #expect(
              predicate(state) == expected,
              "seed \(seed): \(field.path) \(symbol.rawValue) \(value.compactText) at \(field.value(state).compactText)"
            )
            if expected { held += 1 }
          }
        }
      }
    }
    // Every field but the three lists compiles.
    #expect(compiled == (domain.fields.count - 3) * 7 * values.count)
    #expect(held > 0)
    #expect(domain.predicate(for: domain.fields.count, FieldComparison(.equals, .null)) == nil)
  }

  /// A random comparison of a field, any operator, with a value the session's fields take
  /// or a number; combined with `&&`, `||`, `!` and the event's words at random.
  func randomCondition(
    _ values: [JSONValue], events: [NavigationEvent], using random: inout SplitMix64,
    depth: Int = 0
  ) -> Condition {
    if depth < 2, Int.random(in: 0..<3, using: &random) == 0 {
      let left = randomCondition(values, events: events, using: &random, depth: depth + 1)
      let right = randomCondition(values, events: events, using: &random, depth: depth + 1)
      switch Int.random(in: 0..<3, using: &random) {
      case 0: return .and(left, right)
      case 1: return .or(left, right)
      default: return .not(left)
      }
    }
    let fields = domain.fields
    let field = fields[Int.random(in: 0..<fields.count, using: &random)]
    switch Int.random(in: 0..<10, using: &random) {
    case 0: return .changed(path: field.path)
    case 1:
      return .equals(
        path: "outcome",
        value: .string(["applied", "unchanged", "rejected"].randomElement(using: &random)!))
    case 2, 3, 4:
      let path = ["menu.selectedIndex", "menu.scrollOffset", "menu.viewportWidth"].randomElement(
        using: &random)!
      let bound: JSONValue =
        Bool.random(using: &random)
        ? .int(Int64.random(in: -1..<8, using: &random))
        : .double(Double(Int.random(in: 0..<400, using: &random)) / 2)
      switch Int.random(in: 0..<4, using: &random) {
      case 0: return .less(path: path, value: bound)
      case 1: return .lessOrEqual(path: path, value: bound)
      case 2: return .greater(path: path, value: bound)
      default: return .greaterOrEqual(path: path, value: bound)
      }
    default:
      // A value the field takes in the session, so that the comparison is checked.
      var state = domain.initialState
      for event in events.prefix(Int.random(in: 0..<events.count, using: &random)) {
        _ = domain.reduce(&state, event)
      }
      let value = field.value(state)
      if Bool.random(using: &random) { return .equals(path: field.path, value: value) }
      return .notEquals(path: field.path, value: value)
    }
  }

  @Test(
    "find, count and log --where with the domain's predicates: the points and events the JSON evaluation gives, over random sessions and conditions"
  )
  func scansMatchJSONEvaluation() throws {
    let seed = testSeed("scansMatchJSONEvaluation")
    var random = SplitMix64(seed: seed)
    let fused = FusedScanTests()
    var found = 0
    for trial in 0..<4 {
      let directory = TemporaryDirectory()
      let (timeline, events) = try scans.randomTimeline(
        seed: random.next(), count: 500 + trial * 250, in: directory)
      let last = UInt64(events.count)
      let values = values(randomStates(seed: random.next(), count: 50, in: domain))
      for _ in 0..<12 {
        let condition = randomCondition(values, events: events, using: &random)
        let context = "seed \(seed), trial \(trial), \(condition)"
        let from = random.next() % (last / 2)
        let to = from + random.next() % (last - from)
        for range in [0...last, from...to] {
          let expected = try scans.expectedHits(condition, events: events, all: true, range: range)
          let hits = try timeline.find(condition, in: range, all: true, jobs: 1)
          #expect(hits.map(\.sequence) == expected.map(\.0), "\(context), \(range)")
          #expect(hits.map(\.value) == expected.map(\.1), "\(context), \(range)")
          #expect(try timeline.count(condition, in: range, jobs: 1) == expected.count)
          let first = try timeline.find(condition, in: range, all: false, jobs: 1)
          #expect(first.map(\.sequence) == expected.prefix(1).map(\.0), "\(context), \(range)")
          found += expected.count
        }
        let evaluator = try ConditionEvaluator(condition, in: domain)
        for keeping in [false, true] {
          let wanted = try fused.slowLog(
            timeline, evaluator, from: max(from, 1), through: to, changes: keeping)
          var lines: [String] = []
          try timeline.events(
            from: max(from, 1), through: to, where: evaluator, keepingPrevious: keeping
          ) { logged, state in
            lines.append(
              fused.line(
                logged.event, keeping ? logged.changed : [], before: logged.before, state,
                timeline.domain))
            return true
          }
          #expect(lines == wanted, "\(context), log \(from)...\(to)")
        }
      }
    }
    #expect(found > 0, "seed \(seed): no condition ever held")
  }
}
