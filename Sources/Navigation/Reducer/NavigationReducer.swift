public import RewindCore

extension NavigationState {
  /// Applies one event: the navigation reducer.
  ///
  /// Pure and deterministic: the result depends on the state and the event only. A
  /// rejected event leaves the state exactly as it was; an event that is valid but changes
  /// nothing (selecting what is selected) is `unchanged`.
  ///
  /// The rules, event by event:
  /// - `menuTabTapped(index)`: `0 <= index < labels.count` selects it. The strip is a
  ///   scroll view: a tab partly or wholly out of view is scrolled into view, as the
  ///   least scrolling that shows it (its leading edge at the viewport's when it lies
  ///   before the viewport or is wider than it, else its trailing edge at the viewport's),
  ///   within the strip's range. (A choice: a tap on a half-hidden tab in a tab strip
  ///   brings it into view in most apps.) Sessions whose settings say otherwise
  ///   (``MenuState/scrollsTappedTabIntoView``, false for schema 1's) only select.
  /// - `menuScrolled(offset)`: a finite offset `>= 0` is stored (`-0.0` as `0.0`), clamped
  ///   to the strip: at most the content's width beyond the viewport (0 when it fits).
  /// - `menuViewportResized(width)`: a finite width above 0 (at most 1,000,000 points) is
  ///   stored; the offset is clamped to the new range.
  /// - `categorySelected(nil)`: clears the category and the item; compact: shows the
  ///   sidebar. `categorySelected(id)`: `id` must be a top-level category; a different
  ///   one replaces the selection and clears the item; compact: shows the column after
  ///   the sidebar (content in three columns, detail in two).
  /// - `itemSelected(id)`: `id` must lie below the selected category; compact: shows the
  ///   detail. `itemSelected(nil)` clears the item; compact, three columns, on the detail:
  ///   back to the content.
  /// - `itemExpanded(id)`/`itemCollapsed(id)`: `id` must have children.
  /// - `columnVisibilityChanged`, `splitStyleChanged`: set.
  /// - `sizeClassChanged(c)`: sets it; on becoming compact, the compact column becomes the
  ///   deepest column with a selection. (An iPhone's rotation is a size-class change:
  ///   compact in portrait, regular in landscape on the large models.)
  /// - `orientationChanged(o)`: sets it; on an iPad it changes how the columns show
  ///   (``SplitState/visibleColumns``, ``SplitState/overlay``).
  /// - `backTapped`: compact and not on the sidebar only. Three columns: detail → content
  ///   (clears the item), content → sidebar (clears category and item). Two columns:
  ///   detail → sidebar (clears category and item).
  ///
  /// - Returns: `applied`, `unchanged`, or `rejected` with the reason.
  /// - Complexity: O(1); no allocation, no hashing, no string work.
  @inlinable @inline(__always)
  public mutating func apply(_ event: NavigationEvent) -> Outcome<NavigationRejection> {
    var ignored = IgnoredChanges()
    return apply(event, recording: &ignored)
  }

  /// Applies one event as ``apply(_:)`` does, and says which fields it changed: those
  /// whose values differ from before, the derived `split.visibleColumns` and
  /// `split.overlay` included (what `NavigationDomain.changedFields(from:to:)` of the
  /// states before and after gives); none unless the event was applied.
  /// - Complexity: O(1); no allocation, no copy of the state.
  ///
  /// A scroll (most events of a session: one a display frame while the menu scrolls) is
  /// applied inline, in the caller's loop; every other event by
  /// `applyTrackingChangesInFull(_:)`, out of line, so that the inlined part stays small.
  /// Both run the same rules (`scroll(to:recording:)` is the scroll's).
  @inlinable @inline(__always)
  package mutating func applyTrackingChanges(_ event: NavigationEvent) -> (
    outcome: Outcome<NavigationRejection>, changed: FieldSet
  ) {
    if case .menuScrolled(let offset) = event {
      // A scroll writes no presentation enum: the fields told are all that changed.
      var changes = TrackedChanges()
      let outcome = scroll(to: offset, recording: &changes)
      return (outcome, FieldSet(rawValue: changes.raw))
    }
    return applyTrackingChangesInFull(event)
  }

  /// ``apply(_:)`` out of line: what `NavigationDomain.reduce(_:_:)`, inlined into the
  /// loops, calls for any event but a scroll, which it applies itself
  /// (`scroll(to:recording:)`, the same rule).
  @usableFromInline @inline(never)
  mutating func applyInFull(_ event: NavigationEvent) -> Outcome<NavigationRejection> {
    apply(event)
  }

  /// ``applyTrackingChanges(_:)`` for every event.
  @usableFromInline @inline(never)
  mutating func applyTrackingChangesInFull(_ event: NavigationEvent) -> (
    outcome: Outcome<NavigationRejection>, changed: FieldSet
  ) {
    var changes = TrackedChanges()
    let outcome = apply(event, recording: &changes)
    return (outcome, changes.fields(after: self))
  }

  /// The rule of `menuScrolled(offset)` (see ``apply(_:)``).
  @inlinable @inline(__always)
  mutating func scroll<Recorder: ChangeRecorder>(
    to offset: Double, recording recorder: inout Recorder
  ) -> Outcome<NavigationRejection> {
    // `maximumScrollOffset(contentWidth:)` of the catalog's width, kept in the state.
    let limit = menu.scrollLimit
    let clamped: Double
    if _fastPath(offset >= 0 && offset < limit) {
      // Within the strip, so finite (NaN and infinities fail one of the two tests);
      // `+ 0` turns -0.0 into 0.0. One test of the common case before the rule's two.
      clamped = offset + 0
    } else {
      guard offset.isFinite else { return .rejected(.scrollOffsetNotFinite) }
      guard offset >= 0 else { return .rejected(.scrollOffsetNegative) }
      clamped = limit
    }
    return Self.write(clamped, to: &menu.scrollOffset, .menuScrollOffset, &recorder)
      ? .applied : .unchanged
  }

  /// The reducer's rules: applies one event, telling `recorder` of every field it writes
  /// a different value into. `apply(_:)` passes a recorder that ignores it (and that
  /// the compiler removes), `applyTrackingChanges(_:)` one that collects the fields:
  /// one copy of the rules for both. Every write goes through `write` or
  /// `writePresentation`, which compare, store and tell, and no rule writes a field
  /// twice.
  @inlinable @inline(__always)
  mutating func apply<Recorder: ChangeRecorder>(
    _ event: NavigationEvent, recording recorder: inout Recorder
  ) -> Outcome<NavigationRejection> {
    switch event {
    case .menuTabTapped(let index):
      let count = catalog.menuLabelCount
      guard index >= 0 && index < count else {
        return .rejected(.tabIndexOutOfRange(index: index, count: count))
      }
      var changed = Self.write(index, to: &menu.selectedIndex, .menuSelectedIndex, &recorder)
      if menu.scrollsTappedTabIntoView {
        let offset = offsetShowing(tab: index)
        if Self.write(offset, to: &menu.scrollOffset, .menuScrollOffset, &recorder) {
          changed = true
        }
      }
      return changed ? .applied : .unchanged

    case .menuScrolled(let offset):
      return scroll(to: offset, recording: &recorder)

    case .menuViewportResized(let width):
      guard width > 0 && width <= NavigationSettings.maximumViewportWidth else {
        return .rejected(.viewportWidthOutOfRange)
      }
      guard Self.write(width, to: &menu.viewportWidth, .menuViewportWidth, &recorder) else {
        return .unchanged
      }
      let limit = menu.maximumScrollOffset(contentWidth: catalog.menuContentWidth)
      if menu.scrollOffset > limit {
        _ = Self.write(limit, to: &menu.scrollOffset, .menuScrollOffset, &recorder)
      }
      return .applied

    case .categorySelected(nil):
      var changed = Self.write(
        nil, to: &split.selectedCategory, .splitSelectedCategory, &recorder)
      if Self.write(nil, to: &split.selectedItem, .splitSelectedItem, &recorder) {
        changed = true
      }
      if split.sizeClass == .compact
        && Self.writePresentation(Column.sidebar, to: &split.compactColumn, &recorder)
      {
        changed = true
      }
      return changed ? .applied : .unchanged

    case .categorySelected(let category?):
      guard catalog.contains(category) else { return .rejected(.unknownIdentifier) }
      guard catalog.isCategory(category) else { return .rejected(.notATopLevelCategory) }
      var changed = Self.write(
        category, to: &split.selectedCategory, .splitSelectedCategory, &recorder)
      if changed {
        _ = Self.write(nil, to: &split.selectedItem, .splitSelectedItem, &recorder)
      }
      if split.sizeClass == .compact {
        let next = split.layout.columnAfterSidebar
        if Self.writePresentation(next, to: &split.compactColumn, &recorder) { changed = true }
      }
      return changed ? .applied : .unchanged

    case .itemSelected(nil):
      var changed = Self.write(nil, to: &split.selectedItem, .splitSelectedItem, &recorder)
      if split.sizeClass == .compact && split.layout == .threeColumn
        && split.compactColumn == .detail
        && Self.writePresentation(Column.content, to: &split.compactColumn, &recorder)
      {
        changed = true
      }
      return changed ? .applied : .unchanged

    case .itemSelected(let item?):
      guard catalog.contains(item) else { return .rejected(.unknownIdentifier) }
      guard let category = split.selectedCategory else {
        return .rejected(.noCategorySelected)
      }
      guard catalog.isDescendant(item, of: category) else {
        return .rejected(.itemNotInSelectedCategory)
      }
      var changed = Self.write(item, to: &split.selectedItem, .splitSelectedItem, &recorder)
      if split.sizeClass == .compact
        && Self.writePresentation(Column.detail, to: &split.compactColumn, &recorder)
      {
        changed = true
      }
      return changed ? .applied : .unchanged

    case .itemExpanded(let item):
      guard catalog.contains(item) else { return .rejected(.unknownIdentifier) }
      guard catalog.hasChildren(item) else { return .rejected(.notExpandable) }
      guard split.expanded.insert(item) else { return .unchanged }
      recorder.changed(.splitExpanded)
      return .applied

    case .itemCollapsed(let item):
      guard catalog.contains(item) else { return .rejected(.unknownIdentifier) }
      guard catalog.hasChildren(item) else { return .rejected(.notExpandable) }
      guard split.expanded.remove(item) else { return .unchanged }
      recorder.changed(.splitExpanded)
      return .applied

    case .columnVisibilityChanged(let visibility):
      return Self.writePresentation(visibility, to: &split.columnVisibility, &recorder)
        ? .applied : .unchanged

    case .splitStyleChanged(let style):
      return Self.writePresentation(style, to: &split.style, &recorder) ? .applied : .unchanged

    case .sizeClassChanged(let sizeClass):
      guard Self.writePresentation(sizeClass, to: &split.sizeClass, &recorder) else {
        return .unchanged
      }
      if sizeClass == .compact {
        let column = split.deepestSelectedColumn
        _ = Self.writePresentation(column, to: &split.compactColumn, &recorder)
      }
      return .applied

    case .orientationChanged(let orientation):
      return Self.writePresentation(orientation, to: &split.orientation, &recorder)
        ? .applied : .unchanged

    case .backTapped:
      guard split.sizeClass == .compact else {
        return .rejected(.backNotAvailableOnRegularWidth)
      }
      switch split.compactColumn {
      case .sidebar:
        return .rejected(.backNotAvailableOnSidebar)
      case .detail where split.layout == .threeColumn:
        _ = Self.writePresentation(Column.content, to: &split.compactColumn, &recorder)
        _ = Self.write(nil, to: &split.selectedItem, .splitSelectedItem, &recorder)
      case .content, .detail:
        _ = Self.writePresentation(Column.sidebar, to: &split.compactColumn, &recorder)
        _ = Self.write(nil, to: &split.selectedCategory, .splitSelectedCategory, &recorder)
        _ = Self.write(nil, to: &split.selectedItem, .splitSelectedItem, &recorder)
      }
      return .applied
    }
  }

  /// Stores `value` in `slot`, the stored field `field`, unless it holds it already.
  /// - Returns: whether it did (and told `recorder`).
  @inlinable @inline(__always)
  static func write<Value: Equatable, Recorder: ChangeRecorder>(
    _ value: Value, to slot: inout Value, _ field: NavigationField,
    _ recorder: inout Recorder
  ) -> Bool {
    if slot == value { return false }
    slot = value
    recorder.changed(field)
    return true
  }

  /// As `write`, for the five small enums `SplitState.presentation` packs (from which the
  /// derived fields follow): the recorder is told the field's bits before too.
  @inlinable @inline(__always)
  static func writePresentation<Value: PresentationPart, Recorder: ChangeRecorder>(
    _ value: Value, to slot: inout Value, _ recorder: inout Recorder
  ) -> Bool {
    if slot == value { return false }
    recorder.changedPresentation(
      Value.field, before: slot.code << Value.presentationShift,
      mask: Value.presentationMask)
    slot = value
    return true
  }
}

/// What the reducer tells as it applies an event: each field into which it writes a
/// value different from the one there (see `NavigationState.apply(_:recording:)`).
@usableFromInline protocol ChangeRecorder {
  /// `field` (not one of the presentation's enums) now holds another value.
  mutating func changed(_ field: NavigationField)
  /// `field`, one of the five enums `SplitState.presentation` packs, now holds another
  /// value; `before` is its old value's bits in the packed byte, `mask` all its bits.
  mutating func changedPresentation(_ field: NavigationField, before: UInt8, mask: UInt8)
}

/// The recorder of plain `NavigationState.apply(_:)`: tells nobody, compiled away.
///
/// It holds a byte nobody reads: an empty type's value has no address, and a generic
/// function given one `inout` (`apply(_:recording:)`) passed ThreadSanitizer's check of the
/// access whatever its register held, on which the sanitizer's runtime crashed (SEGV in
/// `__tsan::ExternalAccess`) or reported two threads' recorders as one. The compiler
/// leaves the check out only where it knows the type is empty (swiftlang/swift#35579);
/// optimized, the byte is gone with the recorder.
@usableFromInline struct IgnoredChanges: ChangeRecorder {
  @usableFromInline var unread: UInt8 = 0
  @inlinable init() {}
  @inlinable @inline(__always) func changed(_ field: NavigationField) {}
  @inlinable @inline(__always)
  func changedPresentation(_ field: NavigationField, before: UInt8, mask: UInt8) {}
}

/// The recorder of `NavigationState.applyTrackingChanges(_:)`: the bits of the changed
/// fields, and enough of the packed presentation before the event to tell whether the
/// derived fields changed.
@usableFromInline struct TrackedChanges: ChangeRecorder {
  /// The changed fields' bits.
  @usableFromInline var raw: UInt64 = 0
  /// The changed enums' bits in the presentation before the event.
  @usableFromInline var presentationBefore: UInt8 = 0
  /// Which bits of the presentation changed enums take.
  @usableFromInline var presentationMask: UInt8 = 0

  @inlinable init() {}

  @inlinable @inline(__always) mutating func changed(_ field: NavigationField) {
    raw |= NavigationState.bit(field)
  }

  @inlinable @inline(__always)
  mutating func changedPresentation(_ field: NavigationField, before: UInt8, mask: UInt8) {
    raw |= NavigationState.bit(field)
    presentationBefore |= before
    presentationMask |= mask
  }

  /// The fields changed, given the state after the event: those told, and the derived
  /// fields whose values differ when an enum changed.
  @inlinable @inline(__always)
  func fields(after state: NavigationState) -> FieldSet {
    guard presentationMask != 0 else { return FieldSet(rawValue: raw) }
    let after = SplitState.presentation(
      state.split.columnVisibility, state.split.style, state.split.sizeClass,
      state.split.compactColumn, state.split.orientation)
    let before = after & ~presentationMask | presentationBefore
    return FieldSet(
      rawValue: raw
        | NavigationState.derivedChanges(
          before, after, layout: state.split.layout, idiom: state.split.idiom))
  }
}

/// One of the five small enums `SplitState.presentation` packs in a byte: its field,
/// and where its code lies in the byte.
@usableFromInline protocol PresentationPart: Equatable {
  /// The enum's code (see BinaryCodes.swift).
  var code: UInt8 { get }
  /// The field of the split state it is.
  static var field: NavigationField { get }
  /// How far its code is shifted in the packed byte.
  static var presentationShift: UInt8 { get }
  /// The bits its code takes in the packed byte.
  static var presentationMask: UInt8 { get }
}

extension ColumnVisibility: PresentationPart {
  @inlinable static var field: NavigationField { .splitColumnVisibility }
  @inlinable static var presentationShift: UInt8 { 0 }
  @inlinable static var presentationMask: UInt8 { 0x03 }
}

extension SplitStyle: PresentationPart {
  @inlinable static var field: NavigationField { .splitStyle }
  @inlinable static var presentationShift: UInt8 { 2 }
  @inlinable static var presentationMask: UInt8 { 0x0C }
}

extension SizeClass: PresentationPart {
  @inlinable static var field: NavigationField { .splitSizeClass }
  @inlinable static var presentationShift: UInt8 { 4 }
  @inlinable static var presentationMask: UInt8 { 0x10 }
}

extension Column: PresentationPart {
  @inlinable static var field: NavigationField { .splitCompactColumn }
  @inlinable static var presentationShift: UInt8 { 5 }
  @inlinable static var presentationMask: UInt8 { 0x60 }
}

extension Orientation: PresentationPart {
  @inlinable static var field: NavigationField { .splitOrientation }
  @inlinable static var presentationShift: UInt8 { 7 }
  @inlinable static var presentationMask: UInt8 { 0x80 }
}

extension NavigationState {
  /// The scroll offset that shows tab `index` whole, moving the strip as little as
  /// possible, within `0...maximumScrollOffset`; the current offset when it shows already.
  /// - Precondition: `index` is within the labels.
  @inlinable func offsetShowing(tab index: Int) -> Double {
    let start = catalog.menuLabelStarts[index]
    let end = start + catalog.menuLabelWidths[index]
    var offset = menu.scrollOffset
    if start < offset || end - start > menu.viewportWidth {
      offset = start
    } else if end > offset + menu.viewportWidth {
      offset = end - menu.viewportWidth
    }
    let limit = menu.maximumScrollOffset(contentWidth: catalog.menuContentWidth)
    return offset < limit ? offset : limit
  }
}

extension SplitState {
  /// The column a compact split view shows for the current selection: three columns,
  /// detail if an item is selected, else content if a category is, else the sidebar; two
  /// columns, detail if a category is selected, else the sidebar.
  @inlinable public var deepestSelectedColumn: Column {
    switch layout {
    case .threeColumn:
      selectedItem != nil ? .detail : selectedCategory != nil ? .content : .sidebar
    case .twoColumn:
      selectedCategory != nil ? .detail : .sidebar
    }
  }
}
