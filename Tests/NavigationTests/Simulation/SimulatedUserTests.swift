import Navigation
import RewindCore
import RewindJournal
import Testing

@Suite("Simulated user")
struct SimulatedUserTests {
  static let count = 40_000

  static func session(_ domain: NavigationDomain, seed: UInt64, count: Int = count)
    -> [(timeMicros: UInt64, event: NavigationEvent)]
  {
    var user = SimulatedUser(seed: seed, domain: domain)
    return (0..<count).map { _ in user.next() }
  }

  /// The session as bytes: time deltas as varints, then the event.
  static func encoded(
    _ domain: NavigationDomain, _ session: [(timeMicros: UInt64, event: NavigationEvent)]
  )
    -> [UInt8]
  {
    var writer = ByteWriter()
    var last: UInt64 = 0
    for (time, event) in session {
      writer.writeVarint(time - last)
      last = time
      domain.encode(event, into: &writer)
    }
    return writer.bytes
  }

  @Test("the same seed gives the same session, byte for byte, on every platform")
  func reproducible() {
    let domain = NavigationDomain()
    let first = Self.encoded(domain, Self.session(domain, seed: 1, count: 20_000))
    let other = NavigationDomain()
    let second = Self.encoded(other, Self.session(other, seed: 1, count: 20_000))
    #expect(first == second)
    #expect(first != Self.encoded(domain, Self.session(domain, seed: 2, count: 20_000)))
    // A golden hash: changes to the model (or a platform difference) show up here. Update it
    // deliberately when the model changes, since generated sessions change with it.
    #expect(XXH64.hash(first) == Self.goldenHash, "hash 0x\(String(XXH64.hash(first), radix: 16))")
  }

  static let goldenHash: UInt64 = 0x259A_7883_BEE7_748D

  @Test(
    "times never decrease and sit on 60 Hz frames; pauses are human",
    arguments: [1, 7, 1_234] as [UInt64])
  func timing(seed: UInt64) {
    let session = Self.session(Fixtures.three, seed: seed)
    var last: UInt64 = 0
    var longPauses = 0
    for (time, event) in session {
      #expect(time >= last)
      #expect(time % SimulatedUser.frameMicros == 0)
      let gap = time - last
      if case .menuScrolled = event {
        #expect(gap >= SimulatedUser.frameMicros || last == 0)
      } else {
        // A tap follows a reaction time: at least 150 ms (9 frames).
        #expect(gap >= 9 * SimulatedUser.frameMicros)
      }
      #expect(gap <= 36_000 * SimulatedUser.frameMicros)
      if gap >= 5_000_000 { longPauses += 1 }
      last = time
    }
    #expect(longPauses > 0)
  }

  @Test(
    "mostly scroll frames, then taps; every kind occurs; 1–3 % of interactions invalid",
    arguments: 0..<2)
  func mix(domainIndex: Int) {
    // The sample catalogs (the large one's three short labels do not scroll).
    let domain = RandomSequenceTests.domains[domainIndex].1
    var state = domain.initialState
    var kinds: [NavigationEvent.Kind: Int] = [:]
    var rejectedInteractions = 0
    for (_, event) in Self.session(domain, seed: 3) {
      kinds[event.kind, default: 0] += 1
      if domain.reduce(&state, event).isRejected {
        if case .menuScrolled = event {
          Issue.record("a scroll frame was rejected")
        } else {
          rejectedInteractions += 1
        }
      }
    }
    let scrolls = kinds[.menuScrolled] ?? 0
    let interactions = Self.count - scrolls
    #expect(scrolls > Self.count * 3 / 5, "\(kinds)")
    #expect(Set(kinds.keys) == Set(NavigationEvent.Kind.allCases), "\(kinds)")
    let rate = Double(rejectedInteractions) / Double(interactions)
    #expect(rate > 0.01 && rate < 0.04, "invalid rate \(rate)")
    let taps =
      (kinds[.menuTabTapped] ?? 0) + (kinds[.categorySelected] ?? 0) + (kinds[.itemSelected] ?? 0)
    #expect(taps > interactions / 2, "\(kinds)")
  }

  @Test("its state is the replay of its events, and sound")
  func state() {
    let domain = Fixtures.two
    var user = SimulatedUser(seed: 5, domain: domain)
    var replayed = domain.initialState
    for step in 0..<20_000 {
      let (_, event) = user.next()
      _ = domain.reduce(&replayed, event)
      if step % 97 == 0 {
        #expect(user.state == replayed)
        #expect(invariantViolations(of: replayed).isEmpty)
      }
    }
    #expect(user.state == replayed)
  }

  @Test("scroll offsets sit on the pixel grid, decelerate, and take the short encoding")
  func scrolling() {
    let domain = Fixtures.three
    for seed in 1...6 as ClosedRange<UInt64> {
      var grid: Set<Int> = []
      for (_, event) in Self.session(domain, seed: seed, count: 5_000) {
        guard case .menuScrolled(let offset) = event else { continue }
        let sixths = offset * 6
        // The sample's strip is 830 points; its narrowest viewport, 320, leaves 510.
        #expect(sixths == sixths.rounded() && offset >= 0 && offset <= 510)
        #expect(bytes(domain, event).first == 0x01)
        let n = Int(sixths)
        grid.insert(n % 6 == 0 ? 6 : n % 3 == 0 ? 3 : n % 2 == 0 ? 2 : 1)
      }
      // One screen scale per user: offsets in thirds (3x) or halves (2x) of a point.
      #expect(!grid.contains(1))
      #expect(grid.subtracting([6]).count <= 1, "seed \(seed): \(grid)")
    }
  }

  @Test("rotations are rare, resizes rarer, and the strip follows the resized viewport")
  func rotationsAndResizes() {
    let domain = Fixtures.three
    var user = SimulatedUser(seed: 3, domain: domain)
    var kinds: [NavigationEvent.Kind: Int] = [:]
    var interactions = 0
    for _ in 0..<100_000 {
      let (_, event) = user.next()
      kinds[event.kind, default: 0] += 1
      if event.kind != .menuScrolled { interactions += 1 }
      if case .menuViewportResized(let width) = event {
        #expect([320, 375, 414].contains(width))
        #expect(user.state.menu.viewportWidth == width)
      }
      let limit = max(domain.catalog.menuContentWidth - user.state.menu.viewportWidth, 0)
      #expect(user.state.menu.scrollOffset <= limit)
    }
    let rotations = kinds[.orientationChanged, default: 0]
    let resizes = kinds[.menuViewportResized, default: 0]
    let sizeChanges = kinds[.sizeClassChanged, default: 0]
    // A percent or two of the interactions, resizes about half as often as rotations.
    #expect(rotations > interactions / 200 && rotations < interactions / 25, "\(kinds)")
    #expect(resizes > rotations / 4 && resizes < rotations, "\(kinds)")
    #expect(sizeChanges > rotations, "\(kinds)")
  }

  @Test("taps are mostly on tabs in view")
  func tapsInView() {
    let domain = Fixtures.three
    var user = SimulatedUser(seed: 4, domain: domain)
    var inView = 0
    var taps = 0
    for _ in 0..<100_000 {
      let before = user.state.menu
      let (_, event) = user.next()
      guard case .menuTabTapped(let index) = event, (0..<7).contains(index) else { continue }
      taps += 1
      let start = domain.catalog.menuLabelWidths[..<index].reduce(0, +)
      let end = start + domain.catalog.menuLabelWidths[index]
      if end > before.scrollOffset && start < before.scrollOffset + before.viewportWidth {
        inView += 1
      }
    }
    #expect(taps > 1_000)
    #expect(inView * 10 > taps * 8, "\(inView) of \(taps) taps on tabs in view")
  }

  @Test("a menu too short to scroll gives no scroll frames")
  func noScrolling() throws {
    let catalog = try Catalog(menuLabels: ["A", "B"], categories: Catalog.sampleTree)
    let domain = NavigationDomain(catalog: catalog)
    let session = Self.session(domain, seed: 9, count: 3_000)
    #expect(!session.contains { if case .menuScrolled = $0.event { true } else { false } })
  }

  @Test("the uniform generator is reproducible and reaches every kind")
  func uniform() {
    let domain = Fixtures.three
    let first = RandomSequenceTests.events(domain, seed: 17, count: 2_000)
    #expect(first == RandomSequenceTests.events(domain, seed: 17, count: 2_000))
    #expect(Set(first.map(\.kind)) == Set(NavigationEvent.Kind.allCases))
  }

  @Test("SeededRandom matches the reference xoshiro256** sequence")
  func referenceSequence() {
    var random = SeededRandom(seed: 0)
    let values = (0..<3).map { _ in random.next() }
    #expect(values == Self.referenceValues, "\(values.map { "0x" + String($0, radix: 16) })")
    #expect((0..<1_000).allSatisfy { _ in random.below(7) < 7 })
    #expect(random.below(0) == 0)
  }

  // Computed independently (a Python transcription of the reference C code).
  static let referenceValues: [UInt64] = [
    0x99EC_5F36_CB75_F2B4, 0xBF6E_1F78_4956_452A, 0x1A5F_849D_4933_E6E0,
  ]
}
