public import RewindCore

extension NavigationDomain {
  /// A condition's comparison of a field compiled against the state's own values, so
  /// that `find` and `log --where` build no JSON after each event: numbers and the
  /// overlay compare as they are, an enum's cases and the catalog's ids are looked up in
  /// a table of the comparison's answer for each. The lists (`menu.labels`,
  /// `split.expanded`, `split.visibleColumns`) are left to their JSON values (nil).
  public func predicate(for index: Int, _ comparison: FieldComparison) -> (
    @Sendable (NavigationState) -> Bool
  )? {
    NavigationField(rawValue: index)?.predicate(comparison, catalog: catalog)
  }
}

extension NavigationField {
  /// What `comparison.holds(value(in: state))` answers, without building the JSON value;
  /// nil for the lists. Ids are looked up by node in a table built for `catalog`; a state
  /// of another catalog object, or a ref outside it, is compared through its JSON value.
  func predicate(_ comparison: FieldComparison, catalog: Catalog) -> (
    @Sendable (NavigationState) -> Bool
  )? {
    switch self {
    case .menuSelectedIndex:
      return { comparison.holds(.int(Int64($0.menu.selectedIndex))) }
    case .menuScrollOffset:
      return { comparison.holds(.double($0.menu.scrollOffset)) }
    case .menuViewportWidth:
      return { comparison.holds(.double($0.menu.viewportWidth)) }
    case .splitLayout:
      let holding = SplitLayout.allCases.filter { comparison.holds(.string($0.rawValue)) }
      return { holding.contains($0.split.layout) }
    case .splitColumnVisibility:
      let codes = Self.codes(comparison, ColumnVisibility.self) { $0.code }
      return { codes & 1 << $0.split.columnVisibility.code != 0 }
    case .splitStyle:
      let codes = Self.codes(comparison, SplitStyle.self) { $0.code }
      return { codes & 1 << $0.split.style.code != 0 }
    case .splitSizeClass:
      let codes = Self.codes(comparison, SizeClass.self) { $0.code }
      return { codes & 1 << $0.split.sizeClass.code != 0 }
    case .splitOrientation:
      let codes = Self.codes(comparison, Orientation.self) { $0.code }
      return { codes & 1 << $0.split.orientation.code != 0 }
    case .splitCompactColumn:
      let codes = Self.codes(comparison, Column.self) { $0.code }
      return { codes & 1 << $0.split.compactColumn.code != 0 }
    case .splitOverlay:
      let (ifTrue, ifFalse) = (comparison.holds(.bool(true)), comparison.holds(.bool(false)))
      return { $0.split.overlay ? ifTrue : ifFalse }
    case .splitSelectedCategory:
      return Self.ids(comparison, catalog: catalog, item: false)
    case .splitSelectedItem:
      return Self.ids(comparison, catalog: catalog, item: true)
    case .menuLabels, .splitExpanded, .splitVisibleColumns:
      return nil
    }
  }

  /// An enum field's comparison: the binary codes (`code`, below 8) of the cases for
  /// which it holds (as `.string(rawValue)`, the field's JSON value), as bits.
  private static func codes<E: CaseIterable & RawRepresentable>(
    _ comparison: FieldComparison, _ type: E.Type, _ code: (E) -> UInt8
  ) -> UInt8 where E.RawValue == String {
    var codes: UInt8 = 0
    for value in E.allCases where comparison.holds(.string(value.rawValue)) {
      codes |= 1 << code(value)
    }
    return codes
  }

  /// An id field's comparison (`split.selectedItem`, else `split.selectedCategory`):
  /// whether it holds for each node of `catalog` (by index) and for null.
  private static func ids(_ comparison: FieldComparison, catalog: Catalog, item: Bool) -> (
    @Sendable (NavigationState) -> Bool
  ) {
    let table = (0..<catalog.nodeCount).map {
      comparison.holds(.string(catalog.displayID(of: NodeRef(index: UInt32($0)))))
    }
    let ifNull = comparison.holds(.null)
    return { state in
      guard let ref = item ? state.split.selectedItem : state.split.selectedCategory else {
        return ifNull
      }
      let index = Int(ref.index)
      guard state.catalog === catalog, index < table.count else {
        return comparison.holds(state.idJSON(ref))
      }
      return table[index]
    }
  }
}
