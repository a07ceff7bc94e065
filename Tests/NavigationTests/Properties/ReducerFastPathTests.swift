import RewindCore
import RewindJournal
import Testing

@testable import Navigation

/// `NavigationDomain.reduce(_:_:)` and `reduceTrackingChanges(_:_:)` apply a scroll in the
/// caller's loop (`NavigationState.scroll(to:recording:)`) and hand every other event to
/// the reducer out of line (`applyInFull(_:)`, `applyTrackingChangesInFull(_:)`); these
/// tests hold the inlined paths to the full reducer on the same states and events.
@Suite("The reducer's fast path for scrolls")
struct ReducerFastPathTests {
  /// The state after `event` and what the reducer said, by the inlined paths and by the
  /// full reducer.
  static func compare(
    _ domain: NavigationDomain, _ state: NavigationState, _ event: NavigationEvent,
    _ context: @autoclosure () -> String
  ) -> NavigationState {
    var inlined = state
    var full = state
    let outcome = domain.reduce(&inlined, event)
    let fullOutcome = full.applyInFull(event)
    #expect(outcome == fullOutcome, "\(context())")
    #expect(inlined == full, "\(context()): reduce")
    var tracked = state
    var trackedFull = state
    let changes = domain.reduceTrackingChanges(&tracked, event)
    let fullChanges = trackedFull.applyTrackingChangesInFull(event)
    #expect(changes.outcome == fullChanges.outcome, "\(context())")
    #expect(changes.changed == fullChanges.changed, "\(context()): tracked changes")
    #expect(tracked == trackedFull, "\(context()): reduceTrackingChanges")
    #expect(tracked == full, "\(context()): the two reducers")
    return full
  }

  /// The scroll's rule as it reads in the documentation (`NavigationState.apply(_:)`):
  /// not finite, rejected; negative, rejected; else clamped to the strip's limit, `-0.0`
  /// as `0.0`; what `scroll(to:recording:)`, which tests the common case first, must do.
  static func ruleOfScroll(_ state: NavigationState, _ offset: Double) -> (
    NavigationState, Outcome<NavigationRejection>
  ) {
    guard offset.isFinite else { return (state, .rejected(.scrollOffsetNotFinite)) }
    guard offset >= 0 else { return (state, .rejected(.scrollOffsetNegative)) }
    let limit = state.menu.maximumScrollOffset(contentWidth: state.catalog.menuContentWidth)
    let clamped = offset < limit ? offset + 0 : limit
    var after = state
    guard after.menu.scrollOffset != clamped else {
      return (state, .unchanged)
    }
    after.menu.scrollOffset = clamped
    return (after, .applied)
  }

  /// Offsets at the edges of the rule: not finite, negative zero and below, zero, the
  /// current offset, the strip's limit and around it, far beyond it.
  static func offsets(around state: NavigationState, contentWidth: Double) -> [Double] {
    let limit = state.menu.maximumScrollOffset(contentWidth: contentWidth)
    return [
      .nan, -.nan, .infinity, -.infinity, -0.0, 0.0, -1, -.leastNonzeroMagnitude,
      .leastNonzeroMagnitude, 0.5, state.menu.scrollOffset, state.menu.scrollOffset + 1 / 6,
      limit, limit.nextDown, limit.nextUp, limit + 1, 1e300, .greatestFiniteMagnitude,
    ]
  }

  @Test("scrolls at the edges of the rule, from states of random sessions")
  func scrollEdges() {
    for domain in [Fixtures.three, Fixtures.two, Fixtures.large] {
      var generator = RandomEventGenerator(seed: 31, domain: domain)
      var state = domain.initialState
      for step in 0..<400 {
        for offset in Self.offsets(around: state, contentWidth: domain.catalog.menuContentWidth) {
          let after = Self.compare(
            domain, state, .menuScrolled(offset: offset), "step \(step), offset \(offset)")
          var reduced = state
          let outcome = domain.reduce(&reduced, .menuScrolled(offset: offset))
          let (expected, expectedOutcome) = Self.ruleOfScroll(state, offset)
          #expect(outcome == expectedOutcome, "step \(step), offset \(offset): the rule")
          #expect(
            after.menu.scrollOffset.bitPattern == expected.menu.scrollOffset.bitPattern,
            "step \(step), offset \(offset): the rule")
          #expect(after == expected, "step \(step), offset \(offset): the rule")
        }
        // The viewport changes now and then in a random session: the limit moves.
        state = Self.compare(domain, state, generator.next(), "step \(step)")
      }
    }
  }

  @Test("random and simulated sessions give the same states, outcomes and changes")
  func sessions() {
    for domain in [Fixtures.three, Fixtures.two, Fixtures.large] {
      var generator = RandomEventGenerator(seed: 32, domain: domain)
      var user = SimulatedUser(seed: 33, domain: domain)
      var random = domain.initialState
      var simulated = domain.initialState
      for step in 0..<4_000 {
        random = Self.compare(domain, random, generator.next(), "random, step \(step)")
        let event = user.next().event
        simulated = Self.compare(domain, simulated, event, "simulated, step \(step)")
      }
    }
  }

  /// Whether the limit the state keeps for the scroll rule (`MenuState.scrollLimit`) is
  /// the one the viewport and the catalog give, bit for bit.
  static func keepsLimit(_ state: NavigationState) -> Bool {
    let limit = state.menu.maximumScrollOffset(contentWidth: state.catalog.menuContentWidth)
    return state.menu.scrollLimit.bitPattern == limit.bitPattern
  }

  @Test("the state's kept scroll limit follows the viewport: events, snapshots, writes")
  func keptLimit() throws {
    var resized = 0
    for domain in [Fixtures.three, Fixtures.two, Fixtures.large] {
      var generator = RandomEventGenerator(seed: 34, domain: domain)
      var user = SimulatedUser(seed: 35, domain: domain)
      var random = domain.initialState
      var simulated = domain.initialState
      #expect(Self.keepsLimit(random))
      for step in 0..<4_000 {
        let event = generator.next()
        if case .menuViewportResized = event { resized += 1 }
        _ = domain.reduce(&random, event)
        #expect(Self.keepsLimit(random), "random, step \(step): \(event)")
        _ = domain.reduceTrackingChanges(&simulated, user.next().event)
        #expect(Self.keepsLimit(simulated), "simulated, step \(step)")
        if step % 97 == 0 {
          // A snapshot read back, and a viewport written directly.
          var writer = ByteWriter()
          domain.encode(random, into: &writer)
          let bytes = writer.bytes
          let decoded = try ByteReader.decodeAll(bytes) { reader throws(CodecError) in
            try domain.decodeState(from: &reader)
          }
          #expect(decoded == random, "step \(step)")
          #expect(Self.keepsLimit(decoded), "decoded, step \(step)")
          var written = random
          written.menu.viewportWidth = Double(step % 1_500) + 0.5
          #expect(Self.keepsLimit(written), "written, step \(step)")
        }
      }
    }
    // The random sessions resize the viewport: the limit moved under test.
    #expect(resized > 10)
  }
}
