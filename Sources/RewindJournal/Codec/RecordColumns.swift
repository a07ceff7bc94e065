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
/// Readers and writers work on rows: the writer splits a frame's rows into columns before
/// compressing it, and the reader joins the columns back into rows after decompressing.
/// A snapshot's `recordOffset` is an offset in the rows in both formats.
enum RecordColumns {
  /// The most bytes the headers' size takes: a varint of a frame's size (≤ 8 MiB).
  static let prefixRoom = 4

  /// The room ``split(_:count:into:)`` needs for `rows` bytes of records.
  static func room(forRows rows: Int) -> Int { 2 * rows + 32 }

  /// Writes `count` records laid out as rows in `rows` as columns into `columns`, which
  /// has ``room(forRows:)`` bytes: the payloads are gathered past the columns first, then
  /// moved into place.
  ///
  /// The rows are a writer's own, well formed.
  /// - Returns: where in `columns` the columns are (the headers' size first).
  /// - Complexity: O(bytes), one pass over the records and one move of the payloads.
  static func split(
    _ rows: UnsafeRawBufferPointer, count: Int, into columns: UnsafeMutableRawBufferPointer
  ) -> Range<Int> {
    precondition(columns.count >= room(forRows: rows.count), "room for the columns")
    guard let source = rows.baseAddress, let destination = columns.baseAddress else {
      return 0..<0
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
    for _ in 0..<count {
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
      guard let (size, length) = anyHeader(at: next, end: end),
        length <= next.distance(to: end) - size
      else { preconditionFailure("the writer's rows are malformed") }
      let bytes = Int(truncatingIfNeeded: length)
      header.copyMemory(from: next, byteCount: size)
      payload.copyMemory(from: next + size, byteCount: bytes)
      header += size
      payload += bytes
      next += size &+ bytes
    }
    precondition(next == end, "the rows hold \(count) records")
    header.copyMemory(from: payloads, byteCount: payloads.distance(to: payload))
    // The headers' size, just before them.
    var prefix = ByteWriter(capacity: prefixRoom)
    prefix.writeVarint(UInt64(headers.distance(to: header)))
    prefix.withUnsafeBytes {
      (headers - $0.count).copyMemory(from: $0.baseAddress!, byteCount: $0.count)
    }
    return (prefixRoom - prefix.count)..<(prefixRoom + rows.count)
  }

  /// Lays out `count` records held as columns in `columns` as rows into `rows`, which has
  /// room for `columns.count` bytes. Both have ``FrameStorage/padding`` bytes after those,
  /// which the copies may read and write (what they write there is not data).
  ///
  /// Checks only what keeps the rows within the columns (every header within the
  /// headers, every payload within the payloads, both filled exactly): the rows are then
  /// read with every check of the records (their varints, their times), so a malformed
  /// header is reported where it would be in a frame of rows.
  /// - Returns: the rows' size.
  /// - Throws: ``CodecError`` when the columns do not hold `count` records exactly.
  /// - Complexity: O(bytes), one pass.
  static func join(
    _ columns: UnsafeRawBufferPointer, count: Int, into rows: UnsafeMutableRawPointer
  ) throws(CodecError) -> Int {
    var reader = ByteReader(columns)
    let headerBytes = try reader.readVarint(
      atMost: UInt64(reader.remaining), "the records' headers' size")
    guard let base = columns.baseAddress else { return 0 }
    var next = base + reader.offset
    let headersEnd = next + Int(truncatingIfNeeded: headerBytes)
    let end = base + columns.count
    var payload = headersEnd
    var row = rows
    for index in 0..<count {
      let size: Int
      let bytes: Int
      // The common header: eight bytes copied whole (the padding after the data).
      let word = UInt32(littleEndian: next.loadUnaligned(as: UInt32.self))
      if _fastPath(next.distance(to: headersEnd) >= 4 && word & 0x8080_8080 == 0x0000_8080) {
        row.storeBytes(of: next.loadUnaligned(as: UInt64.self), as: UInt64.self)
        size = 4
        bytes = Int(truncatingIfNeeded: word &>> 24)
      } else {
        guard let (anySize, length) = anyHeader(at: next, end: headersEnd) else {
          throw CodecError(
            .invalidValue,
            "the header of record \(index + 1) of \(count) is malformed or runs past the headers' end",
            at: base.distance(to: next))
        }
        guard length <= UInt64(payload.distance(to: end)) else {
          throw Self.pastTheEnd(
            record: index, of: count, length: length, at: base.distance(to: next))
        }
        size = anySize
        bytes = Int(truncatingIfNeeded: length)
        row.copyMemory(from: next, byteCount: size)
      }
      guard _fastPath(bytes <= payload.distance(to: end)) else {
        throw Self.pastTheEnd(
          record: index, of: count, length: UInt64(bytes), at: base.distance(to: next))
      }
      if _fastPath(bytes <= 8) {
        (row + size).storeBytes(of: payload.loadUnaligned(as: UInt64.self), as: UInt64.self)
      } else {
        (row + size).copyMemory(from: payload, byteCount: bytes)
      }
      row += size &+ bytes
      payload += bytes
      next += size
    }
    guard next == headersEnd, payload == end else {
      throw CodecError(
        .invalidValue,
        "the \(count) records' headers (\(next.distance(to: headersEnd)) bytes left of \(headerBytes)) and payloads (\(payload.distance(to: end)) left) do not fill the data",
        at: base.distance(to: next))
    }
    return rows.distance(to: row)
  }

  /// The error for record `index` (from 0) whose payload runs past the data's end.
  private static func pastTheEnd(record index: Int, of count: Int, length: UInt64, at offset: Int)
    -> CodecError
  {
    CodecError(
      .invalidValue,
      "record \(index + 1) of \(count) has a payload of \(length) bytes, past the data's end",
      at: offset)
  }

  /// The size of the record header at `start` (two varints before `end`, read by
  /// `ByteReader.readRecordHeader()`) and the payload length it gives; nil when it is
  /// malformed or does not end before `end`. For the headers the loops' common case (a
  /// three-byte delta and a one-byte length, matched in one load) does not take.
  @inline(never)
  private static func anyHeader(at start: UnsafeRawPointer, end: UnsafeRawPointer) -> (
    size: Int, length: UInt64
  )? {
    var reader = ByteReader(UnsafeRawBufferPointer(start: start, count: start.distance(to: end)))
    guard let (_, length) = try? reader.readRecordHeader() else { return nil }
    return (reader.offset, length)
  }
}
