public import RewindJournal

// The binary event encoding, byte by byte in the BinaryEncoding article: one tag byte, then
// the payload. Refs are varints against the catalog (`index + 1`), with `0` followed by
// the id string for an id the catalog lacks.

/// What the navigation event codec remembers within a run of events: the last scroll
/// offset, so that the next one is written as a difference (scroll gestures are one event
/// per display frame, and their offsets change by a few pixels a frame).
public struct NavigationCodecContext: Sendable, Equatable {
  /// ``lastScrollSixths``, or ``none`` when there is none: a plain word, which the scan
  /// loops keep in one register with no flag beside it. `none` is 2^62, so that a
  /// difference of one or two bytes (within ±2^13) added to it lands at or above the
  /// sixths' limit (2^53): the range test of the sum is the test for a missing offset too.
  @usableFromInline package var lastSixthsOrNone: UInt64 = Self.none

  /// What ``lastSixthsOrNone`` holds when no offset was written in sixths.
  @usableFromInline static let none: UInt64 = 1 << 62

  /// The last scroll offset written, in sixths of a point, if it was written in sixths.
  @inlinable package var lastScrollSixths: UInt64? {
    get { lastSixthsOrNone == Self.none ? nil : lastSixthsOrNone }
    set { lastSixthsOrNone = newValue ?? Self.none }
  }

  package init() {}
}

extension NavigationDomain {
  public func makeEventCodecContext() -> NavigationCodecContext { NavigationCodecContext() }

  /// Appends the encoding of `event` on its own (as the first of a run).
  package func encode(_ event: NavigationEvent, into writer: inout ByteWriter) {
    var context = NavigationCodecContext()
    encode(event, into: &writer, context: &context)
  }

  /// Decodes an event encoded on its own (as the first of a run).
  package func decodeEvent(from reader: inout ByteReader) throws(CodecError) -> NavigationEvent {
    var context = NavigationCodecContext()
    return try decodeEvent(from: &reader, context: &context)
  }

  /// Appends the binary encoding of `event`: 1 to 3 bytes for almost every event.
  /// - Complexity: O(1); a lock and a string copy only for ids the catalog lacks.
  @inlinable @inline(__always)
  public func encode(
    _ event: NavigationEvent, into writer: inout ByteWriter, context: inout NavigationCodecContext
  ) {
    switch event {
    case .menuTabTapped(let index):
      writer.write(0x00, zigZag: Int64(index))
    case .menuScrolled(let offset):
      if let sixths = ScrollOffsetCoding.sixths(of: offset) {
        if let last = context.lastScrollSixths {
          writer.write(0x0D, zigZag: Int64(sixths) &- Int64(last))
        } else {
          writer.write(0x01, varint: sixths)
        }
        context.lastScrollSixths = sixths
      } else {
        writer.write(0x02)
        writer.writeLittleEndian(offset.bitPattern)
        context.lastScrollSixths = nil
      }
    case .categorySelected(nil):
      writer.write(0x03)
    case .categorySelected(let ref?):
      writeRef(ref, tag: 0x04, into: &writer)
    case .itemSelected(nil):
      writer.write(0x05)
    case .itemSelected(let ref?):
      writeRef(ref, tag: 0x06, into: &writer)
    case .itemExpanded(let ref):
      writeRef(ref, tag: 0x07, into: &writer)
    case .itemCollapsed(let ref):
      writeRef(ref, tag: 0x08, into: &writer)
    case .columnVisibilityChanged(let visibility):
      writer.write(0x09)
      writer.write(visibility.code)
    case .splitStyleChanged(let style):
      writer.write(0x0A)
      writer.write(style.code)
    case .sizeClassChanged(let sizeClass):
      writer.write(0x0B)
      writer.write(sizeClass.code)
    case .backTapped:
      writer.write(0x0C)
    case .orientationChanged(let orientation):
      writer.write(0x0E)
      writer.write(orientation.code)
    case .menuViewportResized(let width):
      if let sixths = ScrollOffsetCoding.sixths(of: width) {
        writer.write(0x0F, varint: sixths)
      } else {
        writer.write(0x10)
        writer.writeLittleEndian(width.bitPattern)
      }
    }
  }

  /// Decodes one event written by ``encode(_:into:context:)``.
  ///
  /// An id the catalog lacks (ref `0` and a string) is interned, so decoding a valid
  /// journal never fails on one; the reducer rejects it later.
  /// - Throws: `CodecError` on an unknown tag (or a tag of schema 2 in a journal of schema
  ///   1), a bad enum byte, a ref beyond the catalog, a malformed varint, an id over 1,024
  ///   bytes or not UTF-8, or truncated input.
  /// - Complexity: O(1). A scroll difference of one or two bytes (most events of a
  ///   session: one a display frame while the menu scrolls) is decoded inline, in the
  ///   caller's loop; every other event, and anything out of the ordinary, by the full
  ///   decoder from the same place, which says what is wrong.
  @inlinable @inline(__always)
  public func decodeEvent(
    from reader: inout ByteReader, context: inout NavigationCodecContext
  ) throws(CodecError) -> NavigationEvent {
    let remaining = reader.remaining
    if remaining >= 2, reader.unsafeByte(at: 0) == 0x0D, let last = context.lastScrollSixths {
      var raw = UInt64(reader.unsafeByte(at: 1))
      var length = 2
      if raw >= 0x80 {
        // A second byte of 0 (or none) is a redundant zero (or truncated): the full
        // decoder says which.
        let next = remaining >= 3 ? UInt64(reader.unsafeByte(at: 2)) : 0
        raw = next != 0 && next < 0x80 ? (raw & 0x7F) | next &<< 7 : .max
        length = 3
      }
      if raw != .max {
        // `last` is below 2^53 and the difference within ±2^13: no overflow.
        let sixths = Int64(bitPattern: last) &+ (Int64(raw >> 1) ^ -Int64(raw & 1))
        if sixths >= 0, UInt64(sixths) < ScrollOffsetCoding.sixthsLimit {
          reader.skip(length)
          context.lastScrollSixths = UInt64(sixths)
          return .menuScrolled(offset: ScrollOffsetCoding.offset(sixths: UInt64(sixths)))
        }
      }
    }
    // Copies for the full decoder, so that the caller's reader and context, whose
    // addresses are not taken, can stay in registers.
    var full = reader
    var fullContext = context
    defer {
      reader = full
      context = fullContext
    }
    return try decodeEventInFull(from: &full, context: &fullContext)
  }

  /// A scroll difference of one or two bytes (tag `0x0D`: most events of a session, one a
  /// display frame while the menu scrolls) read from a word holding its encoding: the
  /// scan loops' shortcut (`Domain.decodeEvent(fromWord:count:context:)`), which loads a
  /// record's first bytes at once. Nil for any other encoding, and for a difference with
  /// no scroll before it in the run, a redundant zero, bytes after it or an offset out
  /// of range: ``decodeEvent(from:context:)`` reads those (and says what is wrong).
  @inlinable @inline(__always)
  public func decodeEvent(
    fromWord word: UInt64, count: Int, context: inout NavigationCodecContext
  ) -> NavigationEvent? {
    let raw: UInt64
    // The tag, and the difference's continuation bits, in one test each.
    if count == 2, word & 0x80FF == 0x0D {
      raw = (word &>> 8) & 0x7F
    } else if count == 3, word & 0x80_80FF == 0x80_0D, word & 0x7F_0000 != 0 {
      // Two bytes: the first goes on, the second ends the varint and is not a zero.
      raw = (word &>> 8) & 0x7F | (word &>> 9) & 0x3F80
    } else {
      return nil
    }
    // `last` is below 2^53, or 2^62 when there is none, and the difference within ±2^13:
    // no overflow, and with no offset before it the sum is out of range.
    let last = context.lastSixthsOrNone
    let sixths =
      Int64(bitPattern: last)
      &+ (Int64(truncatingIfNeeded: raw &>> 1) ^ -Int64(truncatingIfNeeded: raw & 1))
    guard sixths >= 0, UInt64(truncatingIfNeeded: sixths) < ScrollOffsetCoding.sixthsLimit
    else { return nil }
    context.lastSixthsOrNone = UInt64(truncatingIfNeeded: sixths)
    return .menuScrolled(
      offset: ScrollOffsetCoding.offset(sixths: UInt64(truncatingIfNeeded: sixths)))
  }

  /// ``decodeEvent(from:context:)`` for every event: out of line, so that the fast path
  /// inlined into the loops stays small.
  @usableFromInline @inline(never)
  func decodeEventInFull(
    from reader: inout ByteReader, context: inout NavigationCodecContext
  ) throws(CodecError) -> NavigationEvent {
    let start = reader.offset
    let tag = try reader.readByte()
    switch tag {
    case 0x00:
      let value = try reader.readZigZag()
      guard let index = Int(exactly: value) else {
        throw NavigationCodecErrors.indexTooLarge(value, at: start + 1)
      }
      return .menuTabTapped(index: index)
    case 0x01:
      let sixths = try reader.readVarint()
      guard sixths < ScrollOffsetCoding.sixthsLimit else {
        throw NavigationCodecErrors.sixthsTooLarge(sixths, at: start + 1)
      }
      context.lastScrollSixths = sixths
      return .menuScrolled(offset: ScrollOffsetCoding.offset(sixths: sixths))
    case 0x0D:
      let delta = try reader.readZigZag()
      guard let last = context.lastScrollSixths else {
        throw CodecError(
          .invalidValue,
          "a scroll difference (tag 0x0D) with no scroll offset before it in the run",
          at: start)
      }
      let (sixths, overflow) = Int64(last).addingReportingOverflow(delta)
      guard !overflow, sixths >= 0, UInt64(sixths) < ScrollOffsetCoding.sixthsLimit else {
        throw NavigationCodecErrors.sixthsTooLarge(UInt64(bitPattern: sixths), at: start + 1)
      }
      context.lastScrollSixths = UInt64(sixths)
      return .menuScrolled(offset: ScrollOffsetCoding.offset(sixths: UInt64(sixths)))
    case 0x02:
      context.lastScrollSixths = nil
      return .menuScrolled(offset: Double(bitPattern: try reader.readLittleEndian(UInt64.self)))
    case 0x03:
      return .categorySelected(nil)
    case 0x04:
      return .categorySelected(try readRef(from: &reader))
    case 0x05:
      return .itemSelected(nil)
    case 0x06:
      return .itemSelected(try readRef(from: &reader))
    case 0x07:
      return .itemExpanded(try readRef(from: &reader))
    case 0x08:
      return .itemCollapsed(try readRef(from: &reader))
    case 0x09:
      let byte = try reader.readByte()
      guard let visibility = ColumnVisibility(code: byte) else {
        throw NavigationCodecErrors.badEnumByte(byte, "column visibility", at: start + 1)
      }
      return .columnVisibilityChanged(visibility)
    case 0x0A:
      let byte = try reader.readByte()
      guard let style = SplitStyle(code: byte) else {
        throw NavigationCodecErrors.badEnumByte(byte, "split style", at: start + 1)
      }
      return .splitStyleChanged(style)
    case 0x0B:
      let byte = try reader.readByte()
      guard let sizeClass = SizeClass(code: byte) else {
        throw NavigationCodecErrors.badEnumByte(byte, "size class", at: start + 1)
      }
      return .sizeClassChanged(sizeClass)
    case 0x0C:
      return .backTapped
    case 0x0E:
      guard readsSchemaVersion >= 2 else {
        throw NavigationCodecErrors.notInSchema1(tag, at: start)
      }
      let byte = try reader.readByte()
      guard let orientation = Orientation(code: byte) else {
        throw NavigationCodecErrors.badEnumByte(byte, "orientation", at: start + 1)
      }
      return .orientationChanged(orientation)
    case 0x0F:
      guard readsSchemaVersion >= 2 else {
        throw NavigationCodecErrors.notInSchema1(tag, at: start)
      }
      let sixths = try reader.readVarint()
      guard sixths < ScrollOffsetCoding.sixthsLimit else {
        throw NavigationCodecErrors.sixthsTooLarge(sixths, at: start + 1)
      }
      return .menuViewportResized(width: ScrollOffsetCoding.offset(sixths: sixths))
    case 0x10:
      guard readsSchemaVersion >= 2 else {
        throw NavigationCodecErrors.notInSchema1(tag, at: start)
      }
      return .menuViewportResized(
        width: Double(bitPattern: try reader.readLittleEndian(UInt64.self)))
    default:
      throw NavigationCodecErrors.unknownTag(tag, at: start)
    }
  }

  /// Writes an event's tag and its ref: `index + 1` for a catalog node, else `0` and the
  /// id string.
  @inlinable func writeRef(_ ref: NodeRef, tag: UInt8, into writer: inout ByteWriter) {
    if catalog.contains(ref) {
      writer.write(tag, varint: UInt64(ref.index) &+ 1)
    } else {
      writer.write(tag)
      writeUnknownRef(ref, into: &writer)
    }
  }

  @usableFromInline func writeUnknownRef(_ ref: NodeRef, into writer: inout ByteWriter) {
    writer.write(0)
    writer.writeString(id(of: ref))
  }

  /// Reads a ref written by ``writeRef(_:tag:into:)`` (after its tag).
  @inlinable func readRef(from reader: inout ByteReader) throws(CodecError) -> NodeRef {
    let start = reader.offset
    let value = try reader.readVarint()
    guard value != 0 else { return try readUnknownRef(from: &reader, at: start) }
    guard value <= UInt64(catalog.nodeCount) else {
      throw NavigationCodecErrors.refOutOfRange(value, nodeCount: catalog.nodeCount, at: start)
    }
    return NodeRef(index: UInt32(truncatingIfNeeded: value &- 1))
  }

  @usableFromInline func readUnknownRef(from reader: inout ByteReader, at start: Int)
    throws(CodecError) -> NodeRef
  {
    let id = try reader.readString(maxLength: Catalog.Limits.maximumIdentifierLength)
    do {
      return try internedRef(id)
    } catch {
      throw CodecError(.tooLarge, error.message, at: start)
    }
  }
}
