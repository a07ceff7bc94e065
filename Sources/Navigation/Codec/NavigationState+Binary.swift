public import RewindJournal

// The binary state encoding (snapshots), byte by byte in the BinaryEncoding article:
//
//   flags        1 byte: bits 0-1 column visibility, 2-3 style, 4 size class,
//                5-6 compact column, 7 set when the scroll offset is raw
//   selectedIndex varint
//   scrollOffset  varint sixths of a point (bit 7 clear) or 8-byte LE IEEE-754 (bit 7 set)
//   category      varint: 0 none, else node index + 1
//   item          varint: 0 none, else node index + 1
//   expanded      varint count, then count varints: the first node index, then the gaps
//                 (index - previous index - 1), ascending
//   (schema 2)
//   flags2        1 byte: bit 0 orientation, bit 1 set when the viewport width is raw
//   viewportWidth varint sixths of a point (bit 1 clear) or 8-byte LE IEEE-754 (bit 1 set)
//
// The catalog (labels, layout, node table) and the session's constants (idiom, whether
// taps scroll) are not repeated: they are in the journal header's settings.

extension NavigationState {
  /// Appends the state's binary encoding: 9 bytes for a typical state.
  /// - Complexity: O(e) in the number of expanded items.
  package func encode(into writer: inout ByteWriter) {
    let sixths = ScrollOffsetCoding.sixths(of: menu.scrollOffset)
    var flags = split.columnVisibility.code
    flags |= split.style.code << 2
    flags |= split.sizeClass.code << 4
    flags |= split.compactColumn.code << 5
    if sixths == nil { flags |= 0x80 }
    writer.write(flags)
    writer.writeVarint(UInt64(menu.selectedIndex))
    if let sixths {
      writer.writeVarint(sixths)
    } else {
      writer.writeLittleEndian(menu.scrollOffset.bitPattern)
    }
    writer.writeVarint(split.selectedCategory.map { UInt64($0.index) + 1 } ?? 0)
    writer.writeVarint(split.selectedItem.map { UInt64($0.index) + 1 } ?? 0)
    let expanded = split.expanded.refs
    writer.writeVarint(UInt64(expanded.count))
    var previous: UInt32? = nil
    for ref in expanded {
      writer.writeVarint(UInt64(previous.map { ref.index - $0 - 1 } ?? ref.index))
      previous = ref.index
    }
    let widthSixths = ScrollOffsetCoding.sixths(of: menu.viewportWidth)
    writer.write(split.orientation.code | (widthSixths == nil ? 2 : 0))
    if let widthSixths {
      writer.writeVarint(widthSixths)
    } else {
      writer.writeLittleEndian(menu.viewportWidth.bitPattern)
    }
  }

  /// Decodes a state that ``encode(into:)`` wrote for the session whose initial state is
  /// `initial` (its catalog and its constants).
  ///
  /// Validates everything the reducer guarantees: the tab index within the labels, a
  /// finite offset from 0 to the strip's maximum, a top-level category, an item below it,
  /// expanded nodes that have children, a compact column of the layout, a viewport width
  /// above 0.
  ///
  /// A state of schema 1 (`schemaVersion` 1) ends after the expanded items: it is upcast
  /// with `initial`'s orientation and viewport (those the settings upcast from the
  /// device), its offset clamped to that viewport's range as schema 2's reducer clamps.
  /// - Throws: `CodecError` on malformed, inconsistent or truncated input.
  /// - Complexity: O(e) in the number of expanded items, which is bounded by the catalog.
  package init(
    decoding reader: inout ByteReader, initial: NavigationState,
    schemaVersion: UInt32 = NavigationDomain.schemaVersion
  ) throws(CodecError) {
    var state = initial
    let catalog = initial.catalog
    let flagsOffset = reader.offset
    let flags = try reader.readByte()
    func invalid(_ message: String, at offset: Int) -> CodecError {
      CodecError(.invalidValue, message, at: offset)
    }
    state.split.columnVisibility = ColumnVisibility(code: flags & 3)!
    guard let style = SplitStyle(code: (flags >> 2) & 3) else {
      throw invalid(
        "state flags 0x\(String(flags, radix: 16)) hold no split style", at: flagsOffset)
    }
    state.split.style = style
    state.split.sizeClass = SizeClass(code: (flags >> 4) & 1)!
    guard let column = Column(code: (flags >> 5) & 3),
      catalog.layout == .threeColumn || column != .content
    else {
      throw invalid(
        "state flags 0x\(String(flags, radix: 16)) hold no compact column of a "
          + "\(catalog.layout.rawValue) layout", at: flagsOffset)
    }
    state.split.compactColumn = column

    let indexOffset = reader.offset
    let index = try reader.readVarint()
    guard index < UInt64(catalog.menuLabelCount) else {
      throw invalid(
        "selected tab \(index) is beyond the menu's \(catalog.menuLabelCount) labels",
        at: indexOffset)
    }
    state.menu.selectedIndex = Int(index)

    let offsetOffset = reader.offset
    if flags & 0x80 == 0 {
      let sixths = try reader.readVarint()
      guard sixths < ScrollOffsetCoding.sixthsLimit else {
        throw NavigationCodecErrors.sixthsTooLarge(sixths, at: offsetOffset)
      }
      state.menu.scrollOffset = ScrollOffsetCoding.offset(sixths: sixths)
    } else {
      let offset = Double(bitPattern: try reader.readLittleEndian(UInt64.self))
      guard offset.isFinite, offset > 0 || offset.bitPattern == 0 else {
        throw invalid("scroll offset \(offset) is not finite and non-negative", at: offsetOffset)
      }
      state.menu.scrollOffset = offset
    }

    let categoryOffset = reader.offset
    let category = try Self.readOptionalRef(from: &reader, catalog: catalog)
    if let category, !catalog.isCategory(category) {
      throw invalid("selected category \(category.index) is not top-level", at: categoryOffset)
    }
    state.split.selectedCategory = category

    let itemOffset = reader.offset
    let item = try Self.readOptionalRef(from: &reader, catalog: catalog)
    if let item {
      guard let category, catalog.isDescendant(item, of: category) else {
        throw invalid(
          "selected item \(item.index) is not below the selected category", at: itemOffset)
      }
    }
    state.split.selectedItem = item

    let count = try reader.readVarint(atMost: UInt64(catalog.nodeCount), "expanded item count")
    var next: UInt64 = 0
    for _ in 0..<count {
      let entryOffset = reader.offset
      let gap = try reader.readVarint(atMost: UInt64(catalog.nodeCount), "expanded item gap")
      let index = next + gap
      guard index < UInt64(catalog.nodeCount),
        catalog.hasChildren(NodeRef(index: UInt32(index)))
      else {
        throw invalid("expanded node \(index) is not an item with children", at: entryOffset)
      }
      state.split.expanded.insert(NodeRef(index: UInt32(index)))
      next = index + 1
    }
    if schemaVersion >= 2 {
      try Self.decodeSchema2Fields(from: &reader, into: &state)
    }
    let limit = state.menu.maximumScrollOffset(contentWidth: catalog.menuContentWidth)
    if state.menu.scrollOffset > limit {
      guard schemaVersion < 2 else {
        throw invalid(
          "scroll offset \(state.menu.scrollOffset) is beyond the strip's \(limit) points",
          at: offsetOffset)
      }
      state.menu.scrollOffset = limit
    }
    self = state
  }

  /// Reads the orientation and the viewport width, which schema 2 appends.
  private static func decodeSchema2Fields(
    from reader: inout ByteReader, into state: inout NavigationState
  ) throws(CodecError) {
    let flagsOffset = reader.offset
    let flags = try reader.readByte()
    guard flags & ~3 == 0 else {
      throw CodecError(
        .invalidValue, "state flags 0x\(String(flags, radix: 16)) set unknown bits",
        at: flagsOffset)
    }
    state.split.orientation = Orientation(code: flags & 1)!
    let widthOffset = reader.offset
    let width: Double
    if flags & 2 == 0 {
      let sixths = try reader.readVarint()
      guard sixths < ScrollOffsetCoding.sixthsLimit else {
        throw NavigationCodecErrors.sixthsTooLarge(sixths, at: widthOffset)
      }
      width = ScrollOffsetCoding.offset(sixths: sixths)
    } else {
      width = Double(bitPattern: try reader.readLittleEndian(UInt64.self))
    }
    guard width > 0 && width <= NavigationSettings.maximumViewportWidth else {
      throw CodecError(
        .invalidValue,
        "viewport width \(width) is not above 0 and at most \(Int(NavigationSettings.maximumViewportWidth)) points",
        at: widthOffset)
    }
    state.menu.viewportWidth = width
  }

  private static func readOptionalRef(from reader: inout ByteReader, catalog: Catalog)
    throws(CodecError) -> NodeRef?
  {
    let start = reader.offset
    let value = try reader.readVarint()
    guard value != 0 else { return nil }
    guard value <= UInt64(catalog.nodeCount) else {
      throw NavigationCodecErrors.refOutOfRange(value, nodeCount: catalog.nodeCount, at: start)
    }
    return NodeRef(index: UInt32(value - 1))
  }
}

extension NavigationDomain {
  /// Appends the binary encoding of a state (a snapshot), as <doc:BinaryEncoding>
  /// describes.
  public func encode(_ state: NavigationState, into writer: inout ByteWriter) {
    state.encode(into: &writer)
  }

  /// Decodes a state written by ``encode(_:into:)-(NavigationState,_)``, validated against
  /// this domain's settings; in the layout of schema 1 for a domain that upcasts a journal
  /// of schema 1 (``readsSchemaVersion``).
  /// - Throws: `CodecError` on malformed, inconsistent or truncated input.
  public func decodeState(from reader: inout ByteReader) throws(CodecError) -> NavigationState {
    try NavigationState(
      decoding: &reader, initial: initialState, schemaVersion: readsSchemaVersion)
  }
}
