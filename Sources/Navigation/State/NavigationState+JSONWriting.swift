public import RewindCore

// The state's JSON written straight into a `JSONWriter`, and each field's value as a word:
// what `rewind html`'s page builder reads a state with, a keyframe every few hundred events
// and a changed field every event, without building `JSONValue`s.

extension NavigationDomain {
  /// Writes ``json(_:)-(NavigationState)``'s compact text, the same bytes, with no
  /// `JSONValue` built: what `rewind html` writes a keyframe with.
  public func writeJSON(of state: NavigationState, to json: inout JSONWriter) {
    state.writeJSON(to: &json)
  }

  /// A word for each field but `menu.labels` (the catalog's, which no event changes): a
  /// number's bits, a selection's node index, an enum's code, the expanded set's bits in a
  /// catalog of at most 64 nodes; nil for the expanded set of a larger catalog. In the
  /// states of one catalog, equal words are values of the same JSON text.
  @inlinable @inline(__always)
  public func fieldValueWord(_ index: Int, of state: NavigationState) -> UInt64? {
    state.valueWord(of: index)
  }
}

extension NavigationState {
  /// The bytes of ``json``'s compact text.
  package func writeJSON(to json: inout JSONWriter) {
    json.beginObject()
    json.plainKey("menu")
    json.beginObject()
    let text = catalog.text
    json.plainKey("labels")
    text.labels.withUnsafeBufferPointer { json.append(valueText: $0) }
    json.plainKey("selectedIndex")
    json.int(Int64(menu.selectedIndex))
    json.plainKey("scrollOffset")
    json.double(menu.scrollOffset)
    json.plainKey("viewportWidth")
    json.double(menu.viewportWidth)
    json.endObject()
    json.plainKey("split")
    json.beginObject()
    json.plainKey("layout")
    json.plainString(split.layout.plainName)
    json.plainKey("selectedCategory")
    writeID(split.selectedCategory, to: &json)
    json.plainKey("selectedItem")
    writeID(split.selectedItem, to: &json)
    json.plainKey("expanded")
    json.beginArray()
    if split.expanded.isWithin(catalog.nodeCount) {
      // The catalog's nodes in the order of their ids, those expanded.
      for index in text.nodesByID where split.expanded.contains(NodeRef(index: index)) {
        text.ids[Int(index)].withUnsafeBufferPointer { json.append(valueText: $0) }
      }
    } else {
      for id in split.expanded.refs.map(catalog.displayID(of:)).sorted() { json.string(id) }
    }
    json.endArray()
    json.plainKey("columnVisibility")
    json.plainString(split.columnVisibility.plainName)
    json.plainKey("style")
    json.plainString(split.style.plainName)
    json.plainKey("sizeClass")
    json.plainString(split.sizeClass.plainName)
    json.plainKey("orientation")
    json.plainString(split.orientation.plainName)
    json.plainKey("compactColumn")
    json.plainString(split.compactColumn.plainName)
    json.plainKey("visibleColumns")
    json.beginArray()
    // The columns leading to trailing (the cases' order).
    for column in Column.allCases where split.visibleColumns.contains(column) {
      json.plainString(column.plainName)
    }
    json.endArray()
    json.plainKey("overlay")
    json.bool(split.overlay)
    json.endObject()
    json.endObject()
  }

  /// An id as ``idJSON(_:)`` writes it.
  private func writeID(_ ref: NodeRef?, to json: inout JSONWriter) {
    guard let ref else { return json.null() }
    if catalog.contains(ref) {
      catalog.text.ids[Int(ref.index)].withUnsafeBufferPointer { json.append(valueText: $0) }
    } else {
      json.string(catalog.displayID(of: ref))
    }
  }

  /// The word of field `index` (a ``NavigationField``'s raw value), as
  /// ``NavigationDomain/fieldValueWord(_:of:)`` gives it.
  @inlinable @inline(__always)
  func valueWord(of index: Int) -> UInt64? {
    // The raw values, not `NavigationField(rawValue:)`, which the compiler calls.
    switch index {
    case NavigationField.menuSelectedIndex.rawValue:
      return UInt64(bitPattern: Int64(menu.selectedIndex))
    case NavigationField.menuScrollOffset.rawValue: return menu.scrollOffset.bitPattern
    case NavigationField.menuViewportWidth.rawValue: return menu.viewportWidth.bitPattern
    case NavigationField.splitLayout.rawValue: return split.layout == .twoColumn ? 0 : 1
    case NavigationField.splitSelectedCategory.rawValue:
      return NavigationState.key(split.selectedCategory)
    case NavigationField.splitSelectedItem.rawValue:
      return NavigationState.key(split.selectedItem)
    case NavigationField.splitExpanded.rawValue:
      return split.expanded.high == nil ? split.expanded.low : nil
    case NavigationField.splitColumnVisibility.rawValue:
      return UInt64(split.columnVisibility.code)
    case NavigationField.splitStyle.rawValue: return UInt64(split.style.code)
    case NavigationField.splitSizeClass.rawValue: return UInt64(split.sizeClass.code)
    case NavigationField.splitOrientation.rawValue: return UInt64(split.orientation.code)
    case NavigationField.splitCompactColumn.rawValue: return UInt64(split.compactColumn.code)
    case NavigationField.splitVisibleColumns.rawValue:
      return UInt64(split.visibleColumns.rawValue)
    case NavigationField.splitOverlay.rawValue: return split.overlay ? 1 : 0
    default: return nil  // menu.labels, and no field
    }
  }
}

// Each enum's raw value as a constant, which `JSONWriter.plainString(_:)` copies with no
// scan for characters to escape (the raw values are plain ASCII names).

extension SplitLayout {
  /// ``rawValue``, a constant.
  var plainName: StaticString {
    switch self {
    case .twoColumn: "twoColumn"
    case .threeColumn: "threeColumn"
    }
  }
}

extension Column {
  /// ``rawValue``, a constant.
  var plainName: StaticString {
    switch self {
    case .sidebar: "sidebar"
    case .content: "content"
    case .detail: "detail"
    }
  }
}

extension ColumnVisibility {
  /// ``rawValue``, a constant.
  var plainName: StaticString {
    switch self {
    case .automatic: "automatic"
    case .all: "all"
    case .doubleColumn: "doubleColumn"
    case .detailOnly: "detailOnly"
    }
  }
}

extension SplitStyle {
  /// ``rawValue``, a constant.
  var plainName: StaticString {
    switch self {
    case .automatic: "automatic"
    case .balanced: "balanced"
    case .prominentDetail: "prominentDetail"
    }
  }
}

extension SizeClass {
  /// ``rawValue``, a constant.
  var plainName: StaticString {
    switch self {
    case .regular: "regular"
    case .compact: "compact"
    }
  }
}

extension Orientation {
  /// ``rawValue``, a constant.
  var plainName: StaticString {
    switch self {
    case .landscape: "landscape"
    case .portrait: "portrait"
    }
  }
}
