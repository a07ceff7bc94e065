public import RewindCore

/// The leaves of the state's JSON, in order: what `diff`, `blame` and `find` address.
/// The raw value is the field's index in ``NavigationDomain/fields`` and in a `FieldSet`.
public enum NavigationField: Int, CaseIterable, Sendable {
  case menuLabels
  case menuSelectedIndex
  case menuScrollOffset
  case splitLayout
  case splitSelectedCategory
  case splitSelectedItem
  case splitExpanded
  case splitColumnVisibility
  case splitStyle
  case splitSizeClass
  case splitCompactColumn
  case splitVisibleColumns
  case splitOverlay

  /// The dotted JSON path, e.g. `split.selectedItem`.
  public var path: String {
    switch self {
    case .menuLabels: "menu.labels"
    case .menuSelectedIndex: "menu.selectedIndex"
    case .menuScrollOffset: "menu.scrollOffset"
    case .splitLayout: "split.layout"
    case .splitSelectedCategory: "split.selectedCategory"
    case .splitSelectedItem: "split.selectedItem"
    case .splitExpanded: "split.expanded"
    case .splitColumnVisibility: "split.columnVisibility"
    case .splitStyle: "split.style"
    case .splitSizeClass: "split.sizeClass"
    case .splitCompactColumn: "split.compactColumn"
    case .splitVisibleColumns: "split.visibleColumns"
    case .splitOverlay: "split.overlay"
    }
  }

  /// The field's value in `state`, as it appears in the state's JSON.
  public func value(in state: NavigationState) -> JSONValue {
    let split = state.split
    switch self {
    case .menuLabels: return .array(state.menu.labels.map(JSONValue.string))
    case .menuSelectedIndex: return .int(Int64(state.menu.selectedIndex))
    case .menuScrollOffset: return .double(state.menu.scrollOffset)
    case .splitLayout: return .string(split.layout.rawValue)
    case .splitSelectedCategory: return state.idJSON(split.selectedCategory)
    case .splitSelectedItem: return state.idJSON(split.selectedItem)
    case .splitExpanded:
      return .array(
        split.expanded.refs.map(state.catalog.displayID(of:)).sorted().map(JSONValue.string))
    case .splitColumnVisibility: return .string(split.columnVisibility.rawValue)
    case .splitStyle: return .string(split.style.rawValue)
    case .splitSizeClass: return .string(split.sizeClass.rawValue)
    case .splitCompactColumn: return .string(split.compactColumn.rawValue)
    case .splitVisibleColumns:
      return .array(split.visibleColumns.columns.map { .string($0.rawValue) })
    case .splitOverlay: return .bool(split.overlay)
    }
  }
}

extension NavigationState {
  /// The fields, as `Domain.fields` lists them.
  public static let fields: [StateField<NavigationState>] = NavigationField.allCases.map { field in
    StateField(field.path) { field.value(in: $0) }
  }

  /// The fields whose values differ between two states.
  ///
  /// Agrees with comparing ``NavigationField/value(in:)`` of both states, but compares the
  /// plain fields directly: no JSON is built.
  /// - Complexity: O(1) for states of one catalog (expanded sets compare a word at a time).
  public static func changedFields(from old: NavigationState, to new: NavigationState)
    -> FieldSet
  {
    guard old.catalog === new.catalog else {
      // States of two catalog objects: ids must be compared as strings.
      var set = FieldSet()
      for field in NavigationField.allCases where field.value(in: old) != field.value(in: new) {
        set.insert(field.rawValue)
      }
      return set
    }
    var raw: UInt64 = 0
    func mark(_ field: NavigationField, _ changed: Bool) {
      if changed { raw |= 1 << UInt64(field.rawValue) }
    }
    let a = old.split
    let b = new.split
    mark(.menuLabels, old.menu.labels != new.menu.labels)
    mark(.menuSelectedIndex, old.menu.selectedIndex != new.menu.selectedIndex)
    mark(.menuScrollOffset, old.menu.scrollOffset != new.menu.scrollOffset)
    mark(.splitLayout, a.layout != b.layout)
    mark(.splitSelectedCategory, a.selectedCategory != b.selectedCategory)
    mark(.splitSelectedItem, a.selectedItem != b.selectedItem)
    mark(.splitExpanded, a.expanded != b.expanded)
    mark(.splitColumnVisibility, a.columnVisibility != b.columnVisibility)
    mark(.splitStyle, a.style != b.style)
    mark(.splitSizeClass, a.sizeClass != b.sizeClass)
    mark(.splitCompactColumn, a.compactColumn != b.compactColumn)
    mark(.splitVisibleColumns, a.visibleColumns != b.visibleColumns)
    mark(.splitOverlay, a.overlay != b.overlay)
    return FieldSet(rawValue: raw)
  }

  /// The state as a JSON object (`menu`, then `split`), derived fields included, keys in
  /// the order of ``fields``.
  public var json: JSONValue {
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

  /// The id of `ref` as JSON, null for nil.
  func idJSON(_ ref: NodeRef?) -> JSONValue {
    guard let ref else { return .null }
    return .string(catalog.displayID(of: ref))
  }
}
