/// The two layouts of a data frame's records (FORMAT.md, "Uncompressed records").
///
/// Format 1 compresses the records as rows: each record's header (its time delta and its
/// payload's length, two varints) followed by its payload. Format 2 compresses them as
/// columns: the size of the headers (a varint), every record's header in order, then
/// every payload in order. The headers of a session repeat (a display frame's delta, a
/// scroll's length), and so do the payloads' first bytes, but not a header and the
/// payload beside it: zstd finds far longer matches in the columns (the 1 M-event
/// benchmark journal: 12 % fewer bytes, 39 % fewer instructions compressing, 41 % fewer
/// decompressing).
///
/// The writer fills a frame as rows and splits them into columns before compressing it;
/// readers read the columns as they decompress (`RecordCursor`), and a frame of format 1
/// is split into columns when it is loaded. A snapshot's `recordOffset` is an offset in
/// the rows in both formats: the bytes of the headers and the payloads before its record.
enum RecordColumns {
  /// The most bytes the headers' size takes: a varint of a frame's size (≤ 8 MiB).
  static let prefixRoom = 4

  /// The room ``split(_:count:into:)`` needs for `rows` bytes of records.
  static func room(forRows rows: Int) -> Int { 2 * rows + 32 }

  /// Where ``split(_:count:into:)`` laid the columns out, as offsets in its destination.
  struct Layout: Equatable {
    /// The columns: the headers' size, the headers, the payloads.
    var columns: Range<Int>
    /// The headers, after their size; the payloads follow them to the columns' end.
    var headers: Range<Int>
  }

  /// Writes `count` records laid out as rows in `rows` as columns into `columns`, which
  /// has ``room(forRows:)`` bytes: the payloads are gathered past the columns first, then
  /// moved into place.
  ///
  /// Checks that the rows hold `count` records exactly, each header two varints and each
  /// payload within the rows (a frame of format 1 is read this way); the varints and the
  /// times are read again, with every check, where the columns are read.
  /// - Throws: ``CodecError`` naming the first record that is malformed or runs past the
  ///   rows' end, or the bytes after the last record.
  /// - Complexity: O(bytes), one pass over the records and one move of the payloads.
  static func split(
    _ rows: UnsafeRawBufferPointer, count: Int, into columns: UnsafeMutableRawBufferPointer
  ) throws(CodecError) -> Layout {
    precondition(columns.count >= room(forRows: rows.count), "room for the columns")
    // At least `room(forRows: 0)` bytes: an address.
    let destination = columns.baseAddress.unsafelyUnwrapped
    guard let source = rows.baseAddress else {
      guard count == 0 else {
        throw CodecError(.truncated, "no records where \(count) were expected", at: 0)
      }
      destination.storeBytes(of: 0, as: UInt8.self)
      return Layout(columns: 0..<1, headers: 1..<1)
    }
    let end = source + rows.count
    // The headers after room for their size; the payloads' scratch past the columns.
    // Eight bytes can be written at any header or payload: the scratch begins eight bytes
    // past the columns' end and has eight bytes after it.
    let headers = destination + prefixRoom
    let payloads = headers + rows.count + 8
    var next = source
    var header = headers
    var payload = payloads
    for index in 0..<count {
      // The common header with sixteen bytes of rows left: its header and a payload of up
      // to eight bytes copied with one load and store each.
      if _fastPath(next.distance(to: end) >= 16) {
        let word = UInt32(littleEndian: next.loadUnaligned(as: UInt32.self))
        let length = Int(truncatingIfNeeded: word &>> 24)
        if _fastPath(word & 0x8080_8080 == 0x0000_8080 && length <= 8) {
          header.storeBytes(of: next.loadUnaligned(as: UInt64.self), as: UInt64.self)
          payload.storeBytes(of: (next + 4).loadUnaligned(as: UInt64.self), as: UInt64.self)
          header += 4
          payload += length
          next += 4 &+ length
          continue
        }
      }
      guard let (size, length) = anyHeader(at: next, end: end) else {
        throw CodecError(
          .invalidValue,
          "the header of record \(index + 1) of \(count) is malformed or runs past the records' end",
          at: source.distance(to: next))
      }
      guard length <= UInt64(next.distance(to: end) - size) else {
        throw CodecError(
          .invalidValue,
          "record \(index + 1) of \(count) has a payload of \(length) bytes, past the records' end",
          at: source.distance(to: next))
      }
      let bytes = Int(truncatingIfNeeded: length)
      header.copyMemory(from: next, byteCount: size)
      payload.copyMemory(from: next + size, byteCount: bytes)
      header += size
      payload += bytes
      next += size &+ bytes
    }
    guard next == end else {
      throw CodecError(
        .invalidValue, "the records go on past the \(count) the frame's header counts",
        at: source.distance(to: next))
    }
    header.copyMemory(from: payloads, byteCount: payloads.distance(to: payload))
    // The headers' size, just before them.
    var prefix = ByteWriter(capacity: prefixRoom)
    let headersSize = headers.distance(to: header)
    prefix.writeVarint(UInt64(headersSize))
    prefix.withUnsafeBytes {
      (headers - $0.count).copyMemory(from: $0.baseAddress!, byteCount: $0.count)
    }
    return Layout(
      columns: (prefixRoom - prefix.count)..<(prefixRoom + rows.count),
      headers: prefixRoom..<(prefixRoom + headersSize))
  }

  /// Where the headers are in `columns` (a frame of format 2 as it decompresses): after
  /// their size, a varint; the payloads follow them to the end.
  /// - Throws: ``CodecError`` when the size is malformed or larger than what follows it.
  static func headers(ofColumns columns: UnsafeRawBufferPointer) throws(CodecError) -> Range<Int> {
    var reader = ByteReader(columns)
    let size = try reader.readVarint(atMost: UInt64(reader.remaining), "the records' headers' size")
    return reader.offset..<(reader.offset + Int(size))
  }

  /// The size of the record header at `start` (two varints before `end`, read by
  /// `ByteReader.readRecordHeader()`) and the payload length it gives; nil when it is
  /// malformed or does not end before `end`. For the headers the loops' common case (a
  /// three-byte delta and a one-byte length, matched in one load) does not take.
  @inline(never)
  static func anyHeader(at start: UnsafeRawPointer, end: UnsafeRawPointer) -> (
    size: Int, length: UInt64
  )? {
    var reader = ByteReader(UnsafeRawBufferPointer(start: start, count: start.distance(to: end)))
    guard let (_, length) = try? reader.readRecordHeader() else { return nil }
    return (reader.offset, length)
  }
}
