/// A seeded source of arbitrary events, valid and invalid mixed, for the package's
/// property tests and fuzzing (not public API): every kind equally often, payloads drawn without regard to the state.
///
/// Unlike ``SimulatedUser`` it does not behave like a person: it exists to reach every
/// rule of the reducer and every branch of the codecs, including out-of-range tab
/// indices, negative, NaN, infinite and off-grid offsets, ids the catalog lacks and
/// items of the wrong category.
package struct RandomEventGenerator: Sendable {
  private var random: SeededRandom
  private let nodeCount: Int
  private let labelCount: Int
  private let unknownRefs: [NodeRef]

  /// A generator determined by `seed` over `domain`'s catalog. Interns a few ids the
  /// catalog lacks into `domain`.
  package init(seed: UInt64, domain: NavigationDomain) {
    random = SeededRandom(seed: seed)
    nodeCount = domain.catalog.nodeCount
    labelCount = domain.catalog.menuLabels.count
    unknownRefs = ["no-such-category", "grinders/no-such-grinder", "ünknown/id ☕︎"]
      .compactMap { try? domain.internedRef($0) }
  }

  /// The next event.
  package mutating func next() -> NavigationEvent {
    switch random.below(12) {
    case 0: return .menuTabTapped(index: tabIndex())
    case 1: return .menuScrolled(offset: offset())
    case 10: return .menuViewportResized(width: random.chance(1, in: 2) ? offset() : width())
    case 11: return .orientationChanged(random.chance(1, in: 2) ? .portrait : .landscape)
    case 2: return .categorySelected(optionalRef())
    case 3: return .itemSelected(optionalRef())
    case 4: return .itemExpanded(ref())
    case 5: return .itemCollapsed(ref())
    case 6: return .columnVisibilityChanged(ColumnVisibility(code: UInt8(random.below(4)))!)
    case 7: return .splitStyleChanged(SplitStyle(code: UInt8(random.below(3)))!)
    case 8: return .sizeClassChanged(random.chance(1, in: 2) ? .regular : .compact)
    default: return .backTapped
    }
  }

  private mutating func tabIndex() -> Int {
    switch random.below(50) {
    case 0: return .min
    case 1: return .max
    default: return random.below(labelCount + 4) - 2
    }
  }

  private mutating func offset() -> Double {
    switch random.below(20) {
    case 0: return -0.0
    case 1: return .nan
    case 2: return random.chance(1, in: 2) ? .infinity : -.infinity
    case 3, 4: return -Double(random.below(6_000)) / 6
    case 5:
      // Any bit pattern, but NaNs canonical, so that JSON round trips stay exact.
      let value = Double(bitPattern: random.next())
      return value.isNaN ? .nan : value
    case 6: return Double((1 << 53) - 1 - random.below(1_000)) / 6
    case 7, 8: return Double(random.below(1_000_000)) / 1_000
    default: return Double(random.below(6_000)) / 6
    }
  }

  /// A viewport width: mostly screen-sized, on the pixel grid.
  private mutating func width() -> Double {
    Double(random.between(1_200...8_400)) / 6
  }

  private mutating func ref() -> NodeRef {
    if random.chance(1, in: 8) && !unknownRefs.isEmpty {
      return unknownRefs[random.below(unknownRefs.count)]
    }
    return NodeRef(index: UInt32(random.below(nodeCount)))
  }

  private mutating func optionalRef() -> NodeRef? {
    random.chance(1, in: 8) ? nil : ref()
  }
}
