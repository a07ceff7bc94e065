/// A seeded model of a person using the navigation UI: the event source of
/// `rewind generate` and of the benchmarks.
///
/// The user browses the way people do: bursts of taps separated by reaction times
/// (150 ms to 2 s, now and then a pause of seconds or minutes), scroll gestures on the
/// menu strip (a drag, then usually a decelerating fling) emitted once per display frame,
/// categories browsed and items opened, disclosures toggled, the size class changed
/// (multitasking), now and then the device rotated and, more rarely, the window resized
/// (which changes the strip's width), column visibility and style changed, back taps on a
/// compact width. About 2–3 % of taps are
/// invalid (a tab beyond the strip, an item of another category, back where there is
/// none, an unknown id, a leaf "expanded"), as real recordings contain them.
///
/// The model drives its own ``state`` with the real reducer, so its selections are
/// mostly valid. Timestamps are aligned to 60 Hz display frames (multiples of
/// ``frameMicros``), scroll offsets to the screen's pixel grid (sixths of a point, 2x or
/// 3x screens), as real UI events are.
///
/// Reproducible byte for byte on every platform: integer arithmetic and one Double
/// division per scroll frame, drawn from ``SeededRandom`` only.
/// - Complexity: ``next()`` is O(1) and allocation-free, a few tens of nanoseconds.
public struct SimulatedUser: Sendable {
  /// One display frame at 60 Hz, in microseconds.
  public static let frameMicros: UInt64 = 16_667

  /// The state the user's events have produced so far.
  public private(set) var state: NavigationState
  /// The current display frame since the session start.
  private var frame: UInt64 = 0
  private var random: SeededRandom
  private let plan: Plan
  /// Taps left in the current burst.
  private var burstLeft = 0

  // The scroll gesture in progress.
  private var scrolling = false
  private var dragFramesLeft = 0
  private var flinging = false
  /// Velocity, in sixths of a point per frame.
  private var velocity: Int64 = 0
  /// The content offset in sixths of a point, before snapping to pixels.
  private var offsetSixths: Int64 = 0
  private var lastEmittedSixths: Int64 = 0

  /// A user whose behaviour is determined by `seed`, browsing `domain`'s catalog from its
  /// initial state. Interns a few ids the catalog lacks into `domain` for the occasional
  /// invalid tap.
  public init(seed: UInt64, domain: NavigationDomain) {
    random = SeededRandom(seed: seed)
    state = domain.initialState
    let pixelSixths: Int64 = random.chance(7, in: 10) ? 2 : 3
    plan = Plan(domain: domain, pixelSixths: pixelSixths)
  }

  /// The next event and its time since the session start, in microseconds; times never
  /// decrease.
  public mutating func next() -> (timeMicros: UInt64, event: NavigationEvent) {
    if scrolling, let offset = advanceGesture() { return emit(.menuScrolled(offset: offset)) }
    frame &+= pauseFrames()
    return emit(chooseInteraction())
  }

  private mutating func emit(_ event: NavigationEvent) -> (
    timeMicros: UInt64, event: NavigationEvent
  ) {
    _ = state.apply(event)
    return (frame &* Self.frameMicros, event)
  }

  // MARK: Time

  /// The frames until the next interaction: short within a burst, a reaction time between
  /// bursts, sometimes a long pause.
  private mutating func pauseFrames() -> UInt64 {
    if burstLeft > 0 {
      burstLeft -= 1
      return UInt64(random.between(9...36))  // 150–600 ms
    }
    burstLeft = random.between(0...4)
    let roll = random.below(1_000)
    if roll < 3 { return UInt64(random.between(3_600...36_000)) }  // 1–10 min
    if roll < 30 { return UInt64(random.between(300...3_600)) }  // 5–60 s
    return UInt64(9 + random.below(56) + random.below(56))  // 150 ms–2 s, mostly ~1 s
  }

  // MARK: Scrolling

  /// How far the strip scrolls now, in sixths of a point: the content beyond the viewport.
  private var maxOffsetSixths: Int64 {
    let limit = state.menu.maximumScrollOffset(contentWidth: plan.catalog.menuContentWidth)
    return Int64((limit * 6).rounded(.down))
  }

  /// Starts a gesture away from the nearer edge; nil if the strip cannot scroll.
  private mutating func startGesture() -> Double? {
    let limit = maxOffsetSixths
    guard limit > 0 else { return nil }
    // Taps and resizes move the strip too: start from where it is.
    offsetSixths = Int64((state.menu.scrollOffset * 6).rounded(.down))
    lastEmittedSixths = offsetSixths
    let direction: Int64
    if offsetSixths < limit / 4 {
      direction = 1
    } else if offsetSixths > limit - limit / 4 {
      direction = -1
    } else {
      direction = random.chance(1, in: 2) ? 1 : -1
    }
    scrolling = true
    flinging = false
    dragFramesLeft = random.between(3...14)
    velocity = direction * Int64(random.between(6...60))  // 1–10 pt a frame
    return advanceGesture()
  }

  /// Advances the gesture by frames until the pixel-snapped offset moves; nil when the
  /// gesture ends first.
  private mutating func advanceGesture() -> Double? {
    let pixel = plan.pixelSixths
    while scrolling {
      frame &+= 1
      if dragFramesLeft > 0 {
        dragFramesLeft -= 1
        velocity += Int64(random.below(7)) - 3
      } else if !flinging {
        // The finger lifts: usually a fling faster than the drag, sometimes a stop.
        guard random.chance(13, in: 20) else {
          scrolling = false
          return nil
        }
        flinging = true
        velocity = velocity * Int64(random.between(10...25)) / 10
      } else {
        velocity = velocity * 31 / 32  // UIScrollView's normal deceleration, per frame
        if velocity > -pixel && velocity < pixel {
          scrolling = false
          return nil
        }
      }
      offsetSixths += velocity
      let limit = maxOffsetSixths
      if offsetSixths <= 0 || offsetSixths >= limit {
        offsetSixths = min(max(offsetSixths, 0), limit)
        scrolling = false
      }
      let snapped = offsetSixths / pixel * pixel
      if snapped != lastEmittedSixths {
        lastEmittedSixths = snapped
        return Double(snapped) / 6
      }
    }
    return nil
  }

  // MARK: Interactions

  /// The interactions the model chooses from; iterated by raw value, because a synthesized
  /// `allCases` would build an array on every call.
  private enum Interaction: UInt8 {
    case scroll
    case tab
    case category
    case item
    case disclosure
    case clearItem
    case clearCategory
    case back
    case sizeClass
    case visibility
    case style
    case rotate
    case resize

    static let count: UInt8 = 13
  }

  /// How likely each interaction is in the current state: what is on screen decides.
  private func weight(_ interaction: Interaction) -> UInt64 {
    let split = state.split
    let compact = split.sizeClass == .compact
    let column = split.compactColumn
    let category = split.selectedCategory
    let listVisible =
      category != nil
      && (!compact || column == .content || (split.layout == .twoColumn && column == .detail))
    switch interaction {
    case .scroll: return maxOffsetSixths > 0 ? 24 : 0
    case .tab: return 12
    case .category:
      if compact { return column == .sidebar ? 40 : 0 }
      return category == nil ? 30 : 7
    case .item: return listVisible ? (compact ? 40 : 24) : 0
    case .disclosure:
      guard listVisible, let category, plan.hasExpandableChildren(category) else { return 0 }
      return compact ? 10 : 8
    case .clearItem: return !compact && split.selectedItem != nil ? 1 : 0
    case .clearCategory: return !compact && category != nil ? 1 : 0
    case .back: return compact && column != .sidebar ? 35 : 0
    case .sizeClass: return 2
    case .visibility, .style: return compact ? 0 : 1
    case .rotate: return 1  // rare: half as often as the size class changes
    case .resize: return 1  // rarer: half of these become a tap (see `perform`)
    }
  }

  private mutating func chooseInteraction() -> NavigationEvent {
    if random.chance(2, in: 100) { return invalidInteraction() }
    var total: UInt64 = 0
    for raw in 0..<Interaction.count { total += weight(Interaction(rawValue: raw)!) }
    var pick = random.below(total)
    for raw in 0..<Interaction.count {
      let interaction = Interaction(rawValue: raw)!
      let weight = weight(interaction)
      if pick < weight { return perform(interaction) }
      pick -= weight
    }
    return perform(.tab)
  }

  private mutating func perform(_ interaction: Interaction) -> NavigationEvent {
    let split = state.split
    switch interaction {
    case .scroll:
      if let offset = startGesture() { return .menuScrolled(offset: offset) }
      return perform(.tab)
    case .tab:
      let count = state.menuLabels.count
      var index = random.below(count)
      if random.chance(9, in: 10) {
        // People tap the tabs they see: one at least partly in the viewport.
        let (first, last) = visibleTabs()
        index = first + random.below(last - first + 1)
      }
      if index == state.menu.selectedIndex && count > 1 && random.chance(9, in: 10) {
        index = (index + 1 + random.below(count - 1)) % count
      }
      return .menuTabTapped(index: index)
    case .category:
      let categories = plan.catalog.categoryIndices
      var index = categories[random.below(categories.count)]
      if NodeRef(index: index) == split.selectedCategory && categories.count > 1
        && random.chance(9, in: 10)
      {
        index = categories[random.below(categories.count)]
      }
      return .categorySelected(NodeRef(index: index))
    case .item:
      guard let category = split.selectedCategory else { return perform(.tab) }
      return .itemSelected(visibleItem(below: category))
    case .disclosure:
      guard let category = split.selectedCategory,
        let item = visibleExpandableItem(below: category)
      else { return perform(.tab) }
      return split.expanded.contains(item) ? .itemCollapsed(item) : .itemExpanded(item)
    case .clearItem: return .itemSelected(nil)
    case .clearCategory: return .categorySelected(nil)
    case .back: return .backTapped
    case .sizeClass: return .sizeClassChanged(split.sizeClass == .compact ? .regular : .compact)
    case .rotate:
      return .orientationChanged(split.orientation == .portrait ? .landscape : .portrait)
    case .resize:
      guard random.chance(1, in: 2) else { return perform(.tab) }
      // A window of Split View or Slide Over: its strip is one of a few widths.
      let widths = Plan.windowWidths
      var width = widths[random.below(widths.count)]
      if width == state.menu.viewportWidth {
        width = widths[(widths.firstIndex(of: width)! + 1) % widths.count]
      }
      return .menuViewportResized(width: width)
    case .visibility:
      let code = (split.columnVisibility.code + 1 + UInt8(random.below(3))) % 4
      return .columnVisibilityChanged(ColumnVisibility(code: code)!)
    case .style:
      let code = (split.style.code + 1 + UInt8(random.below(2))) % 3
      return .splitStyleChanged(SplitStyle(code: code)!)
    }
  }

  /// The first and last tabs at least partly in the menu's viewport.
  private func visibleTabs() -> (Int, Int) {
    let catalog = plan.catalog
    let start = state.menu.scrollOffset
    let end = start + state.menu.viewportWidth
    var first = 0
    while first + 1 < catalog.menuLabelWidths.count
      && catalog.menuLabelStarts[first + 1] <= start
    {
      first += 1
    }
    var last = first
    while last + 1 < catalog.menuLabelWidths.count && catalog.menuLabelStarts[last + 1] < end {
      last += 1
    }
    return (first, last)
  }

  /// An item the list shows: a child of the category, or (half the time) a child of an
  /// expanded one, and so on down.
  private mutating func visibleItem(below category: NodeRef) -> NodeRef {
    let catalog = plan.catalog
    var parent = Int(category.index)
    while true {
      let info = catalog.nodes[parent]
      let child = catalog.childIndices[Int(info.firstChild) + random.below(Int(info.childCount))]
      let ref = NodeRef(index: child)
      if catalog.nodes[Int(child)].childCount > 0 && state.split.expanded.contains(ref)
        && random.chance(1, in: 2)
      {
        parent = Int(child)
        continue
      }
      return ref
    }
  }

  /// An item with children the list shows, found the same way; nil if there is none.
  private mutating func visibleExpandableItem(below category: NodeRef) -> NodeRef? {
    var parent = category
    while true {
      guard let child = plan.randomExpandableChild(of: parent, using: &random) else {
        return parent == category ? nil : parent
      }
      if state.split.expanded.contains(child) && plan.hasExpandableChildren(child)
        && random.chance(1, in: 2)
      {
        parent = child
        continue
      }
      return child
    }
  }

  /// One of the invalid interactions real recordings contain.
  private mutating func invalidInteraction() -> NavigationEvent {
    let split = state.split
    let outOfRange = NavigationEvent.menuTabTapped(index: state.menuLabels.count)
    switch random.below(5) {
    case 0:
      let count = state.menuLabels.count
      return .menuTabTapped(index: random.chance(1, in: 4) ? -1 : count + random.below(3))
    case 1:
      if let item = plan.itemOutside(split.selectedCategory, using: &random) {
        return .itemSelected(item)
      }
      return plan.randomUnknown(using: &random).map { .itemSelected($0) } ?? outOfRange
    case 2:
      if split.sizeClass == .regular || split.compactColumn == .sidebar { return .backTapped }
      return outOfRange
    case 3:
      guard let unknown = plan.randomUnknown(using: &random) else { return outOfRange }
      return random.chance(1, in: 2) ? .categorySelected(unknown) : .itemSelected(unknown)
    default:
      if let leaf = plan.randomLeaf(using: &random) { return .itemExpanded(leaf) }
      return plan.randomUnknown(using: &random).map { .itemExpanded($0) } ?? outOfRange
    }
  }
}

extension SimulatedUser {
  /// What the model precomputes about its catalog, so that choosing an event never
  /// allocates or searches.
  final class Plan: Sendable {
    let catalog: Catalog
    /// Sixths of a point per device pixel: 2 on a 3x screen, 3 on a 2x screen.
    let pixelSixths: Int64
    /// Per node, the run of its children that have children, in `expandableChildren`.
    let expandableStart: [UInt32]
    let expandableCount: [UInt32]
    let expandableChildren: [UInt32]
    /// Nodes without children.
    let leaves: [UInt32]
    /// Ids the catalog lacks, interned in the domain.
    let unknownRefs: [NodeRef]

    /// The widths, in points, a resized window gives the strip: Slide Over, a third of an
    /// iPad Pro 11-inch in landscape, a third of an iPad Pro 13-inch.
    static let windowWidths: [Double] = [320, 375, 414]

    init(domain: NavigationDomain, pixelSixths: Int64) {
      let catalog = domain.catalog
      self.catalog = catalog
      self.pixelSixths = pixelSixths
      var start: [UInt32] = []
      var count: [UInt32] = []
      var children: [UInt32] = []
      var leaves: [UInt32] = []
      for index in 0..<catalog.nodeCount {
        let info = catalog.nodes[index]
        start.append(UInt32(children.count))
        let first = Int(info.firstChild)
        for child in catalog.childIndices[first..<first + Int(info.childCount)]
        where catalog.nodes[Int(child)].childCount > 0 {
          children.append(child)
        }
        count.append(UInt32(children.count) - start[index])
        if info.childCount == 0 { leaves.append(UInt32(index)) }
      }
      expandableStart = start
      expandableCount = count
      expandableChildren = children
      self.leaves = leaves
      // Ids the sample lacks; none if the domain's table of unknown ids is full.
      unknownRefs = ["espresso-machines/leva/leva-z", "grinders/mazzer-kony", "teapots"]
        .compactMap { try? domain.internedRef($0) }.filter { !catalog.contains($0) }
    }

    func hasExpandableChildren(_ ref: NodeRef) -> Bool { expandableCount[Int(ref.index)] > 0 }

    func randomExpandableChild(of ref: NodeRef, using random: inout SeededRandom) -> NodeRef? {
      let count = Int(expandableCount[Int(ref.index)])
      guard count > 0 else { return nil }
      let start = Int(expandableStart[Int(ref.index)])
      return NodeRef(index: expandableChildren[start + random.below(count)])
    }

    /// An item below a category other than `category` (any category's if nil).
    func itemOutside(_ category: NodeRef?, using random: inout SeededRandom) -> NodeRef? {
      let categories = catalog.categoryIndices
      let other = categories[random.below(categories.count)]
      guard NodeRef(index: other) != category else { return nil }
      let info = catalog.nodes[Int(other)]
      let descendants = Int(info.subtreeEnd - other) - 1
      guard descendants > 0 else { return nil }
      return NodeRef(index: other + 1 + UInt32(random.below(descendants)))
    }

    func randomLeaf(using random: inout SeededRandom) -> NodeRef? {
      leaves.isEmpty ? nil : NodeRef(index: leaves[random.below(leaves.count)])
    }

    func randomUnknown(using random: inout SeededRandom) -> NodeRef? {
      unknownRefs.isEmpty ? nil : unknownRefs[random.below(unknownRefs.count)]
    }
  }
}
