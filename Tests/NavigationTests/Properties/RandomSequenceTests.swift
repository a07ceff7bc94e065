import Navigation
import RewindCore
import RewindJournal
import Testing

@Suite("Seeded random event sequences")
struct RandomSequenceTests {
  static let domains: [(String, NavigationDomain)] = [
    ("three columns", Fixtures.three), ("two columns", Fixtures.two), ("205 nodes", Fixtures.large),
    (
      "an iPhone whose taps do not scroll",
      NavigationDomain(
        NavigationSettings(
          catalog: .sample, idiom: .phone, sizeClass: .compact, orientation: .portrait,
          menuViewportWidth: 393, scrollsTappedTabIntoView: false))
    ),
    (
      "an iPad in portrait",
      NavigationDomain(
        NavigationSettings(device: DeviceProfile(device: "iPad mini"), orientation: .portrait))
    ),
  ]
  static let eventsPerRun = 4_000

  /// `count` events of the uniform generator for `seed`.
  static func events(_ domain: NavigationDomain, seed: UInt64, count: Int = eventsPerRun)
    -> [NavigationEvent]
  {
    var generator = RandomEventGenerator(seed: seed, domain: domain)
    return (0..<count).map { _ in generator.next() }
  }

  /// Replays `events`, returning the encoded state after every step, concatenated.
  static func replayTrace(_ domain: NavigationDomain, _ events: [NavigationEvent]) -> [UInt8] {
    var state = domain.initialState
    var writer = ByteWriter(capacity: events.count * 8)
    for event in events {
      _ = domain.reduce(&state, event)
      domain.encode(state, into: &writer)
      writer.writeString(domain.json(state).compactText)
    }
    return writer.bytes
  }

  @Test(
    "invariants hold after every step; a rejection changes nothing; outcomes are honest",
    arguments: 0..<domains.count, [1, 2, 3] as [UInt64])
  func invariants(domainIndex: Int, seed: UInt64) {
    let (name, domain) = Self.domains[domainIndex]
    var state = domain.initialState
    var counts: [String: Int] = [:]
    for (step, event) in Self.events(domain, seed: seed).enumerated() {
      let before = state
      let outcome = domain.reduce(&state, event)
      counts[outcome.name, default: 0] += 1
      let context = "\(name), seed \(seed), step \(step), \(domain.describe(event))"
      switch outcome {
      case .rejected, .unchanged:
        #expect(state == before, "\(context): \(outcome.name) but the state changed")
      case .applied:
        #expect(state != before, "\(context): applied but nothing changed")
      }
      let problems = invariantViolations(of: state)
      #expect(problems.isEmpty, "\(context): \(problems)")
      if !problems.isEmpty { return }
    }
    // The generator must reach every outcome, or the test proves little.
    #expect(counts.count == 3, "\(name): outcomes \(counts)")
  }

  @Test(
    "replaying the same sequence twice gives byte-identical states", arguments: 0..<domains.count)
  func deterministic(domainIndex: Int) {
    let domain = Self.domains[domainIndex].1
    let events = Self.events(domain, seed: 11)
    let first = Self.replayTrace(domain, events)
    let second = Self.replayTrace(domain, events)
    #expect(first == second)
    // A fresh domain from the same settings (as a replay from the journal header) too.
    let reloaded = try! NavigationDomain(settingsJSON: domain.settingsJSON)
    var copies = events
    for (position, event) in events.enumerated() {
      copies[position] = try! reloaded.event(fromJSON: domain.json(event))
    }
    #expect(Self.replayTrace(reloaded, copies) == first)
  }

  @Test(
    "changedFields agrees with comparing every field's value, at every step",
    arguments: 0..<domains.count)
  func changedFields(domainIndex: Int) {
    let domain = Self.domains[domainIndex].1
    var state = domain.initialState
    var seen = FieldSet()
    for event in Self.events(domain, seed: 5, count: 20_000) {
      let before = state
      _ = domain.reduce(&state, event)
      var expected = FieldSet()
      for (index, field) in domain.fields.enumerated()
      where field.value(before) != field.value(state) {
        expected.insert(index)
      }
      let actual = domain.changedFields(from: before, to: state)
      #expect(actual == expected, "after \(domain.describe(event))")
      seen.formUnion(actual)
    }
    // Everything but the labels and the layout (constant in a session) changed somewhere.
    #expect(seen.indices == [1, 2, 3] + Array(5..<15))
  }

  @Test("changedFields between states of two equal catalogs compares ids as strings")
  func changedFieldsAcrossCatalogObjects() throws {
    let a = Fixtures.three
    let b = try NavigationDomain(settingsJSON: a.settingsJSON)
    let left = a.state(after: a.category("grinders"), a.item("grinders/swift"))
    let right = b.state(after: b.category("grinders"), b.item("grinders/lux-d"))
    #expect(
      a.changedFields(from: left, to: right) == [NavigationField.splitSelectedItem.rawValue])
  }
}
