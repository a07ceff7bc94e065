import Navigation
import RewindCore
import Testing

@Suite("The reducer's tracked changes")
struct TrackedChangesTests {
  /// Every idiom, orientation and starting size class, both layouts, taps that scroll and
  /// taps that do not, with the sample (28 nodes, one word of expanded bits) and a catalog
  /// of 205 nodes (heap words).
  static let domains: [(String, NavigationDomain)] = {
    var domains: [(String, NavigationDomain)] = []
    for layout in SplitLayout.allCases {
      let catalogs = [
        ("sample", Catalog.sample(layout: layout)),
        (
          "205 nodes",
          try! Catalog(
            layout: layout, menuLabels: ["One", "Two", "Three"],
            categories: Fixtures.largeCatalogCategories)
        ),
      ]
      for (catalogName, catalog) in catalogs {
        precondition(catalog.nodeCount > 64 || catalogName == "sample")
        for idiom in DeviceIdiom.allCases {
          for sizeClass in SizeClass.allCases {
            for orientation in Orientation.allCases {
              let settings = NavigationSettings(
                catalog: catalog, idiom: idiom, sizeClass: sizeClass, orientation: orientation,
                menuViewportWidth: idiom == .phone ? 393 : 1_024,
                scrollsTappedTabIntoView: orientation == .landscape)
              domains.append(
                (
                  "\(catalogName), \(layout), \(idiom), \(sizeClass), \(orientation)",
                  NavigationDomain(settings)
                ))
            }
          }
        }
      }
    }
    return domains
  }()

  /// Replays `events`, comparing at every step what `reduceTrackingChanges` says changed
  /// with `changedFields(from:to:)` of the states before and after; returns the fields
  /// seen changing.
  static func compare(
    _ name: String, _ domain: NavigationDomain, _ events: [NavigationEvent]
  ) -> FieldSet {
    var state = domain.initialState
    var seen = FieldSet()
    for (step, event) in events.enumerated() {
      let before = state
      var reduced = state
      let outcome = domain.reduce(&reduced, event)
      let tracked = domain.reduceTrackingChanges(&state, event)
      let expected = domain.changedFields(from: before, to: state)
      // Described only when an expectation fails: the comments are autoclosures.
      func context() -> String { "\(name), step \(step), \(domain.describe(event))" }
      #expect(
        tracked.changed == expected,
        "\(context()): tracked \(tracked.changed.indices), changed \(expected.indices)")
      #expect(tracked.outcome == outcome, "\(context())")
      #expect(state == reduced, "\(context()): not the state reduce leaves")
      #expect(tracked.changed.isEmpty == !outcome.isApplied, "\(context()): \(outcome.name)")
      if tracked.changed != expected || state != reduced { break }
      seen.formUnion(expected)
    }
    return seen
  }

  @Test(
    "reduceTrackingChanges says what changedFields of the states around it says, at every step",
    arguments: 0..<domains.count)
  func randomSessions(domainIndex: Int) {
    let (name, domain) = Self.domains[domainIndex]
    var seen = FieldSet()
    for seed in [1, 2] as [UInt64] {
      var generator = RandomEventGenerator(seed: seed, domain: domain)
      let events = (0..<6_000).map { _ in generator.next() }
      seen.formUnion(Self.compare("\(name), seed \(seed)", domain, events))
    }
    // Everything but the labels and the layout (constant in a session) changed somewhere,
    // or the test proves little.
    #expect(seen.indices == [1, 2, 3] + Array(5..<15), "\(name)")
  }

  @Test(
    "reduceTrackingChanges agrees on a simulated user's sessions", arguments: 0..<domains.count)
  func simulatedSessions(domainIndex: Int) {
    let (name, domain) = Self.domains[domainIndex]
    var user = SimulatedUser(seed: 7, domain: domain)
    let events = (0..<4_000).map { _ in user.next().event }
    let seen = Self.compare("\(name), simulated", domain, events)
    #expect(seen.indices.count > 5, "\(name): \(seen.indices)")
  }
}
