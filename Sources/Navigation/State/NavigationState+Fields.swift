public import RewindCore

/// The leaves of the state's JSON, in order: what `diff`, `blame` and `find` address.
/// The raw value is the field's index in ``NavigationDomain/fields`` and in a `FieldSet`.
public enum NavigationField: Int, CaseIterable, Sendable {
  case menuLabels
  case menuSelectedIndex
  case menuScrollOffset
  case menuViewportWidth
  case splitLayout
  case splitSelectedCategory
  case splitSelectedItem
  case splitExpanded
  case splitColumnVisibility
  case splitStyle
  case splitSizeClass
  case splitOrientation
  case splitCompactColumn
  case splitVisibleColumns
  case splitOverlay

  /// The dotted JSON path, e.g. `split.selectedItem`.
  public var path: String {
    switch self {
    case .menuLabels: "menu.labels"
    case .menuSelectedIndex: "menu.selectedIndex"
    case .menuScrollOffset: "menu.scrollOffset"
    case .menuViewportWidth: "menu.viewportWidth"
    case .splitLayout: "split.layout"
    case .splitSelectedCategory: "split.selectedCategory"
    case .splitSelectedItem: "split.selectedItem"
    case .splitExpanded: "split.expanded"
    case .splitColumnVisibility: "split.columnVisibility"
    case .splitStyle: "split.style"
    case .splitSizeClass: "split.sizeClass"
    case .splitOrientation: "split.orientation"
    case .splitCompactColumn: "split.compactColumn"
    case .splitVisibleColumns: "split.visibleColumns"
    case .splitOverlay: "split.overlay"
    }
  }

  /// What values the field holds: what a `find` condition on it is checked against.
  public var kind: FieldKind {
    switch self {
    case .menuLabels: .list(of: .text(of: "label"))
    case .menuSelectedIndex: .integer
    case .menuScrollOffset: .number
    case .menuViewportWidth: .number
    case .splitLayout: .cases(of: SplitLayout.self)
    case .splitSelectedCategory: .optional(.identifier(of: "category"))
    case .splitSelectedItem: .optional(.identifier(of: "item"))
    case .splitExpanded: .list(of: .identifier(of: "item with children"))
    case .splitColumnVisibility: .cases(of: ColumnVisibility.self)
    case .splitStyle: .cases(of: SplitStyle.self)
    case .splitSizeClass: .cases(of: SizeClass.self)
    case .splitOrientation: .cases(of: Orientation.self)
    case .splitCompactColumn: .cases(of: Column.self)
    case .splitVisibleColumns: .list(of: .cases(of: Column.self))
    case .splitOverlay: .boolean
    }
  }

  /// The ids a field of kind `FieldKind.identifier(of:)` can hold with
  /// `catalog`, with their names, and the menu's labels (`FieldKind.text(of:)`, which
  /// no event changes); nil for the other fields.
  public func knownValues(in catalog: Catalog) -> [KnownValue]? {
    let refs: [NodeRef]
    switch self {
    case .menuLabels: return catalog.menuLabels.map { KnownValue($0) }
    case .splitSelectedCategory: refs = catalog.categories
    case .splitSelectedItem: refs = catalog.allNodes.filter { !catalog.isCategory($0) }
    case .splitExpanded: refs = catalog.allNodes.filter(catalog.hasChildren)
    default: return nil
    }
    return refs.map { KnownValue(catalog.id(of: $0), name: catalog.name(of: $0)) }
  }

  /// The field's value in `state`, as it appears in the state's JSON.
  public func value(in state: NavigationState) -> JSONValue {
    let split = state.split
    switch self {
    case .menuLabels: return .array(state.menuLabels.map(JSONValue.string))
    case .menuSelectedIndex: return .int(Int64(state.menu.selectedIndex))
    case .menuScrollOffset: return .double(state.menu.scrollOffset)
    case .menuViewportWidth: return .double(state.menu.viewportWidth)
    case .splitLayout: return .string(split.layout.rawValue)
    case .splitSelectedCategory: return state.idJSON(split.selectedCategory)
    case .splitSelectedItem: return state.idJSON(split.selectedItem)
    case .splitExpanded:
      return .array(
        split.expanded.refs.map(state.catalog.displayID(of:)).sorted().map(JSONValue.string))
    case .splitColumnVisibility: return .string(split.columnVisibility.rawValue)
    case .splitStyle: return .string(split.style.rawValue)
    case .splitSizeClass: return .string(split.sizeClass.rawValue)
    case .splitOrientation: return .string(split.orientation.rawValue)
    case .splitCompactColumn: return .string(split.compactColumn.rawValue)
    case .splitVisibleColumns:
      return .array(split.visibleColumns.columns.map { .string($0.rawValue) })
    case .splitOverlay: return .bool(split.overlay)
    }
  }
}

extension NavigationState {
  /// The fields, as `Domain.fields` lists them.
  package static let fields: [StateField<NavigationState>] = NavigationField.allCases.map { field in
    StateField(field.path, kind: field.kind) { field.value(in: $0) }
  }

  /// The fields whose values differ between two states.
  ///
  /// Agrees with comparing ``NavigationField/value(in:)`` of both states, but compares the
  /// plain fields directly: no JSON is built.
  /// - Complexity: O(1) for states of one catalog and idiom (expanded sets compare a word
  ///   at a time).
  @inlinable @inline(__always)
  package static func changedFields(from old: NavigationState, to new: NavigationState)
    -> FieldSet
  {
    guard old.catalog === new.catalog && old.split.idiom == new.split.idiom else {
      // The slow path takes pointers, so that the states are copied for it only when it
      // runs: a call taking the states themselves makes the caller copy them up front.
      return withUnsafePointer(to: old) { old in
        withUnsafePointer(to: new) { new in changedFieldValues(old, new) }
      }
    }
    // One catalog and idiom: labels and layout are the same by construction. Every field is read
    // in place, one by one: copying `split` would count the references of a large
    // catalog's expanded set, and the copy of a state just written by the reducer stalls
    // on store forwarding. The five small enums and the two fields derived from them are
    // compared only when one of the enums changed, which few events do.
    let a = SplitState.presentation(
      old.split.columnVisibility, old.split.style, old.split.sizeClass, old.split.compactColumn,
      old.split.orientation)
    let b = SplitState.presentation(
      new.split.columnVisibility, new.split.style, new.split.sizeClass, new.split.compactColumn,
      new.split.orientation)
    var raw: UInt64 = 0
    if old.menu.selectedIndex != new.menu.selectedIndex { raw |= bit(.menuSelectedIndex) }
    if old.menu.scrollOffset != new.menu.scrollOffset { raw |= bit(.menuScrollOffset) }
    if old.menu.viewportWidth != new.menu.viewportWidth { raw |= bit(.menuViewportWidth) }
    if key(old.split.selectedCategory) != key(new.split.selectedCategory) {
      raw |= bit(.splitSelectedCategory)
    }
    if key(old.split.selectedItem) != key(new.split.selectedItem) {
      raw |= bit(.splitSelectedItem)
    }
    if old.split.expanded.low != new.split.expanded.low {
      raw |= bit(.splitExpanded)
    } else if old.catalog.nodeCount > 64 {
      let differs = withUnsafePointer(to: old.split.expanded) { old in
        withUnsafePointer(to: new.split.expanded) { new in old.pointee != new.pointee }
      }
      if differs { raw |= bit(.splitExpanded) }
    }
    if a != b {
      raw |= presentationChanges(a, b, layout: old.split.layout, idiom: old.split.idiom)
    }
    return FieldSet(rawValue: raw)
  }

  /// The changed-field bits of the enums packed by ``SplitState/presentation(_:_:_:_:_:)``
  /// and of the fields derived from them.
  @inlinable
  static func presentationChanges(
    _ a: UInt8, _ b: UInt8, layout: SplitLayout, idiom: DeviceIdiom
  ) -> UInt64 {
    func differs<Part: PresentationPart>(_ part: Part.Type) -> UInt64 {
      a & Part.presentationMask != b & Part.presentationMask ? bit(Part.field) : 0
    }
    let raw =
      differs(ColumnVisibility.self) | differs(SplitStyle.self) | differs(SizeClass.self)
      | differs(Column.self) | differs(Orientation.self)
    return raw | derivedChanges(a, b, layout: layout, idiom: idiom)
  }

  /// The changed-field bits of the fields derived from the enums packed by
  /// ``SplitState/presentation(_:_:_:_:_:)`` (`split.visibleColumns`, `split.overlay`).
  @inlinable
  static func derivedChanges(_ a: UInt8, _ b: UInt8, layout: SplitLayout, idiom: DeviceIdiom)
    -> UInt64
  {
    var raw: UInt64 = 0
    let visibleA = SplitState.visibleColumns(presentation: a, layout: layout, idiom: idiom)
    let visibleB = SplitState.visibleColumns(presentation: b, layout: layout, idiom: idiom)
    if visibleA != visibleB { raw |= bit(.splitVisibleColumns) }
    let overlayA = SplitState.overlay(presentation: a, layout: layout, idiom: idiom)
    let overlayB = SplitState.overlay(presentation: b, layout: layout, idiom: idiom)
    if overlayA != overlayB { raw |= bit(.splitOverlay) }
    return raw
  }

  /// A selection as one comparable word: the node index, or a value no index takes.
  @inlinable @inline(__always)
  static func key(_ ref: NodeRef?) -> UInt64 {
    guard let ref else { return .max }
    return UInt64(ref.index)
  }

  /// The state as a JSON object (`menu`, then `split`), derived fields included, keys in
  /// the order of ``fields``.
  package var json: JSONValue {
    var groups: [(String, [(String, JSONValue)])] = []
    for field in NavigationField.allCases {
      let path = field.path
      let dot = path.firstIndex(of: ".")!
      let group = String(path[..<dot])
      let leaf = (String(path[path.index(after: dot)...]), field.value(in: self))
      if groups.last?.0 == group {
        groups[groups.count - 1].1.append(leaf)
      } else {
        groups.append((group, [leaf]))
      }
    }
    return .object(groups.map { ($0.0, .object($0.1)) })
  }

  @inlinable @inline(__always)
  static func bit(_ field: NavigationField) -> UInt64 {
    1 << UInt64(field.rawValue)
  }

  /// The slow path of ``changedFields(from:to:)`` for states of two catalog objects: ids
  /// must be compared as strings.
  @usableFromInline
  static func changedFieldValues(
    _ old: UnsafePointer<NavigationState>, _ new: UnsafePointer<NavigationState>
  ) -> FieldSet {
    var set = FieldSet()
    for field in NavigationField.allCases
    where field.value(in: old.pointee) != field.value(in: new.pointee) {
      set.insert(field.rawValue)
    }
    return set
  }

  /// The id of `ref` as JSON, null for nil.
  func idJSON(_ ref: NodeRef?) -> JSONValue {
    guard let ref else { return .null }
    return .string(catalog.displayID(of: ref))
  }
}
