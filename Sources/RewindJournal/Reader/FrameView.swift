/// The memory one decompressed frame lives in, shared by the views of that frame.
///
/// ``padding`` zeroed bytes follow the frame's `count` bytes, so that the scan loops can
/// load a word at any record or payload of the frame without checking how many bytes
/// are left first (what they load past the frame's end they do not use).
@usableFromInline final class FrameStorage {
  /// The zeroed bytes after the frame's last byte.
  @usableFromInline static let padding = 8

  @usableFromInline let bytes: UnsafeMutableRawPointer
  let capacity: Int
  /// The frame's size; setting it zeroes the ``padding`` bytes after it.
  @usableFromInline var count = 0 {
    didSet { (bytes + count).initializeMemory(as: UInt8.self, repeating: 0, count: Self.padding) }
  }

  init(capacity: Int) {
    self.capacity = capacity
    bytes = UnsafeMutableRawPointer.allocate(
      byteCount: capacity + Self.padding, alignment: 16)
    bytes.initializeMemory(as: UInt8.self, repeating: 0, count: Self.padding)
  }

  deinit { bytes.deallocate() }
}

/// One decompressed, checked data frame: its header, its snapshots and its records, as
/// columns (`RecordColumns`): every record's header, then every payload.
///
/// A view keeps its frame's memory alive; the reader never overwrites memory a view
/// still uses, so a view stays valid however many frames are decoded after it.
public struct FrameView {
  /// Where the frame is and what it holds.
  public let info: FrameInfo
  /// The snapshots whose next record is in this frame, in sequence order.
  package let snapshots: [StoredSnapshot]
  @usableFromInline let storage: FrameStorage
  /// Where the records' headers are in ``storage``; the payloads follow them to its end.
  @usableFromInline let headers: Range<Int>

  /// A cursor over the records, from the first.
  public func records() -> RecordCursor {
    RecordCursor(frame: self, sequence: info.firstSequence, time: info.firstTime)
  }

  /// A cursor over the records after a snapshot of this frame: the headers before its
  /// record walked, their payloads' lengths added up.
  /// - Throws: ``JournalError/Code/corruptFrame`` when the snapshot's `recordOffset`
  ///   is not where the headers and payloads of the records before its say.
  /// - Complexity: O(records before the snapshot's), a few instructions each.
  package func records(after snapshot: StoredSnapshot) throws(JournalError) -> RecordCursor {
    var cursor = records()
    let event = snapshot.snapshot.sequence
    guard snapshot.recordOffset != 0 || event &+ 1 != info.firstSequence else { return cursor }
    guard event >= info.firstSequence, event <= info.lastSequence,
      cursor.skip(event &- info.firstSequence &+ 1),
      cursor.offset == Int(snapshot.recordOffset)
    else {
      throw cursor.corrupt(
        "the snapshot after event \(event) does not point at the start of event \(event &+ 1)")
    }
    cursor.nextSequence = event &+ 1
    cursor.previousTime = snapshot.time
    return cursor
  }

  /// The latest snapshot of this frame at or before event `sequence`.
  package func snapshot(atOrBefore sequence: UInt64) -> StoredSnapshot? {
    snapshots.last { $0.snapshot.sequence <= sequence }
  }
}

/// One record of a frame. The payload points into the frame's memory and is valid as
/// long as the ``FrameView`` it came from.
public struct Record {
  public var sequence: UInt64
  /// Microseconds since the session start.
  public var time: UInt64
  public var payload: UnsafeRawBufferPointer

  @inlinable init(sequence: UInt64, time: UInt64, payload: UnsafeRawBufferPointer) {
    self.sequence = sequence
    self.time = time
    self.payload = payload
  }
}

/// Reads the records of one frame in order, checking the frame's structure as it goes:
/// a header from the headers and a payload from the payloads at a time.
public struct RecordCursor {
  @usableFromInline let frame: FrameView
  /// The headers (`count` is their end), at the next record's.
  @usableFromInline var reader: ByteReader
  /// Where the next record's payload is in the frame's memory.
  @usableFromInline var payloadOffset: Int
  @usableFromInline var nextSequence: UInt64
  @usableFromInline var previousTime: UInt64

  /// The sequence number of the next record.
  @inlinable package var sequence: UInt64 { nextSequence }
  /// The time of the record before the next one.
  package var time: UInt64 { previousTime }
  /// The offset of the next record in the frame's records laid out as rows (a snapshot's
  /// `recordOffset`): the bytes of the headers and the payloads read.
  package var offset: Int {
    (reader.position - frame.headers.lowerBound) + (payloadOffset - frame.headers.upperBound)
  }

  init(frame: FrameView, sequence: UInt64, time: UInt64) {
    self.frame = frame
    reader = ByteReader(
      UnsafeRawBufferPointer(start: frame.storage.bytes, count: frame.headers.upperBound))
    reader.position = frame.headers.lowerBound
    payloadOffset = frame.headers.upperBound
    nextSequence = sequence
    previousTime = time
  }

  /// Moves past the next `count` records' headers and payloads without reading their
  /// times.
  /// - Returns: false when a header is malformed or runs past the headers, or a payload
  ///   runs past the frame.
  mutating func skip(_ count: UInt64) -> Bool {
    let base = frame.storage.bytes
    let headersEnd = base + reader.count
    var next = base + reader.position
    var payload = payloadOffset
    var left = count
    // Only the headers' sizes and lengths matter here (the snapshot's offset checks the
    // sum; the redundant zero a delta may end in is found where the records are read):
    // four common headers (three-byte deltas, one-byte lengths) at a time from two loads,
    // or else one header.
    let common: UInt64 = 0x0000_8080_0000_8080
    while left > 0 {
      if left >= 4 && next.distance(to: headersEnd) >= 16 {
        let first = UInt64(littleEndian: next.loadUnaligned(as: UInt64.self))
        let second = UInt64(littleEndian: (next + 8).loadUnaligned(as: UInt64.self))
        if first & 0x8080_8080_8080_8080 == common && second & 0x8080_8080_8080_8080 == common {
          payload &+= Int(
            truncatingIfNeeded: (first &>> 24) & 0xFF &+ (first &>> 56) &+ (second &>> 24) & 0xFF
              &+ (second &>> 56))
          next += 16
          left &-= 4
          continue
        }
      }
      guard next < headersEnd, payload <= frame.storage.count,
        let (size, length) = RecordColumns.anyHeader(at: next, end: headersEnd),
        length <= UInt64(frame.storage.count - payload)
      else { return false }
      next += size
      payload += Int(truncatingIfNeeded: length)
      left &-= 1
    }
    guard payload <= frame.storage.count else { return false }
    reader.position = base.distance(to: next)
    payloadOffset = payload
    return true
  }

  /// The next record, or nil after the frame's last one.
  /// - Throws: ``JournalError/Code/corruptFrame`` if the records do not match the frame
  ///   header (which the checksums make all but impossible for a file Rewind wrote).
  /// - Complexity: O(1) per record.
  @inlinable
  public mutating func next() throws(JournalError) -> Record? {
    if reader.isAtEnd {
      try checkEnd(sequence: nextSequence, time: previousTime, payload: payloadOffset)
      return nil
    }
    guard nextSequence <= frame.info.lastSequence else {
      throw corrupt(
        "the records go on past event \(frame.info.lastSequence), where the header says they end")
    }
    let base = frame.storage.bytes
    let (newTime, length, after) = try header(
      at: base + reader.position, payload: base + payloadOffset, sequence: nextSequence,
      time: previousTime)
    reader.position = base.distance(to: after)
    let record = Record(
      sequence: nextSequence, time: newTime,
      payload: UnsafeRawBufferPointer(start: base + payloadOffset, count: length))
    payloadOffset &+= length
    previousTime = newTime
    nextSequence &+= 1
    return record
  }

  /// Reads the records up to and including event `last` (or the frame's last record,
  /// whichever comes first) and calls `body` with each one's sequence number and payload:
  /// the fast path of replay, which makes no ``Record`` values and checks what ``next()``
  /// checks.
  ///
  /// The cursor moves past the records read, so ``next()`` and this method may be mixed.
  /// - Returns: true when the frame's records are exhausted (and end where the header
  ///   says), false when it stopped at `last`.
  /// - Throws: ``JournalError/Code/corruptFrame`` for records that do not match the frame
  ///   header; whatever `body` throws.
  /// - Complexity: O(records read).
  @inlinable @inline(__always)
  package mutating func forEachPayload(
    through last: UInt64,
    _ body: (_ sequence: UInt64, _ payload: UnsafeRawBufferPointer) throws -> Void
  ) throws -> Bool {
    try forEachRecord(through: last) { sequence, _, payload in
      try body(sequence, payload)
      return true
    }
  }

  /// Reads the records up to and including event `last` (or the frame's last record,
  /// whichever comes first) and calls `body` with each one's sequence number, time and
  /// payload until it returns false: ``forEachPayload(through:_:)`` with the times, for
  /// the scans that show them, and a way to stop early.
  ///
  /// The cursor moves past the records read (the one `body` stopped at included).
  /// - Returns: true when the frame's records are exhausted (and end where the header
  ///   says), false when it stopped at `last` or where `body` said.
  /// - Throws: ``JournalError/Code/corruptFrame`` for records that do not match the frame
  ///   header; whatever `body` throws.
  /// - Complexity: O(records read).
  @inlinable @inline(__always)
  package mutating func forEachRecord(
    through last: UInt64,
    _ body: (_ sequence: UInt64, _ time: UInt64, _ payload: UnsafeRawBufferPointer) throws ->
      Bool
  ) throws -> Bool {
    let lastSequence = frame.info.lastSequence
    let lastTime = frame.info.lastTime
    let stop = Swift.min(last, lastSequence)
    var reader = self.reader
    var sequence = nextSequence
    var time = previousTime
    // The frame's memory, followed by its zeroed padding (`FrameStorage.padding`), and
    // the next record's header and payload as pointers into it: fewer values for the
    // loop to hold.
    let base = frame.storage.bytes
    let headersEnd = base + reader.count
    let end = base + frame.storage.count
    var next = base + reader.position
    var payload = base + payloadOffset
    defer {
      reader.position = base.distance(to: next)
      self.reader = reader
      payloadOffset = base.distance(to: payload)
      nextSequence = sequence
      previousTime = time
    }
    // The shortcut's time test is the last time alone when no sum can overflow: the time
    // so far within the frame's (every time accepted after it is too), and the frame's
    // last time more than a three-byte delta below the largest. Otherwise no header
    // takes the shortcut (its mask matches none).
    let shortcut: UInt32 = time <= lastTime && lastTime <= UInt64.max &- 0x20_0000 ? 0x8080_8080 : 0
    while sequence <= stop {
      // The common record first: a header of a three-byte delta and a one-byte length
      // (`readRecordHeader()`'s shortcut), read with one load wherever the header starts
      // (past the headers' end the load reads payloads or the padding), within the
      // headers, whose payload is in the frame and whose time is within the frame's.
      // Anything else, the end of the headers included, is read again from the same
      // place with every check and its error.
      let word = UInt32(littleEndian: next.loadUnaligned(as: UInt32.self))
      let delta = UInt64(word & 0x7F | (word &>> 1) & 0x3F80 | (word &>> 2) & 0x1F_C000)
      let size = Int(truncatingIfNeeded: word &>> 24)
      let sum = time &+ delta
      let newTime: UInt64
      let length: Int
      if _fastPath(
        word & shortcut == 0x0000_8080 && word & 0x007F_0000 != 0
          && next.distance(to: headersEnd) >= 4 && size <= payload.distance(to: end)
          && sum <= lastTime)
      {
        newTime = sum
        length = size
        next += 4
      } else {
        guard next < headersEnd else { break }
        (newTime, length, next) = try header(
          at: next, payload: payload, sequence: sequence, time: time)
      }
      let bytes = UnsafeRawBufferPointer(start: payload, count: length)
      payload += length
      time = newTime
      sequence &+= 1
      guard try body(sequence &- 1, newTime, bytes) else { break }
    }
    reader.position = base.distance(to: next)
    if reader.isAtEnd {
      try checkEnd(sequence: sequence, time: time, payload: base.distance(to: payload))
      return true
    }
    guard sequence <= lastSequence else {
      throw corrupt("the records go on past event \(lastSequence), where the header says they end")
    }
    return false
  }

  /// Reads the records up to and including event `last` (or the frame's last record,
  /// whichever comes first) as ``forEachRecord(through:_:)`` does, in two loops: an inner
  /// one that hands each record of the common header (a three-byte delta, a one-byte
  /// length) to `fast`, which returns true when it has dealt with the record, and in
  /// which nothing else is called (so that the scan's values stay in registers), and an
  /// outer one that calls `slow` with every record `fast` did not take (any other
  /// header, every malformed one included, which is read with every check; or a record
  /// `fast` declined, which `slow` is then called with) until `slow` returns false.
  ///
  /// The cursor moves past the records read (the one `slow` stopped at included).
  /// - Returns: true when the frame's records are exhausted (and end where the header
  ///   says), false when it stopped at `last` or where `slow` said.
  /// - Throws: ``JournalError/Code/corruptFrame`` for records that do not match the frame
  ///   header; whatever `slow` throws.
  /// - Complexity: O(records read).
  @inlinable @inline(__always)
  package mutating func forEachRecord(
    through last: UInt64,
    fast: (_ sequence: UInt64, _ time: UInt64, _ payload: UnsafeRawBufferPointer) -> Bool,
    slow: (_ sequence: UInt64, _ time: UInt64, _ payload: UnsafeRawBufferPointer) throws ->
      Bool
  ) throws -> Bool {
    let lastSequence = frame.info.lastSequence
    let lastTime = frame.info.lastTime
    let stop = Swift.min(last, lastSequence)
    var reader = self.reader
    var sequence = nextSequence
    var time = previousTime
    // As in `forEachRecord(through:_:)`: the frame's memory and its padding, the next
    // record's header and payload as pointers into it, and the shortcut's mask.
    let base = frame.storage.bytes
    let headersEnd = base + reader.count
    let end = base + frame.storage.count
    var next = base + reader.position
    var payload = base + payloadOffset
    defer {
      reader.position = base.distance(to: next)
      self.reader = reader
      payloadOffset = base.distance(to: payload)
      nextSequence = sequence
      previousTime = time
    }
    let shortcut: UInt32 = time <= lastTime && lastTime <= UInt64.max &- 0x20_0000 ? 0x8080_8080 : 0
    records: while sequence <= stop {
      // The inner loop: the common record, taken by `fast`. It ends at a record of
      // another header (`common` false), or one `fast` declined (its header in `sum` and
      // `size`), or after `stop`.
      var common = false
      var sum: UInt64 = 0
      var size = 0
      while true {
        let word = UInt32(littleEndian: next.loadUnaligned(as: UInt32.self))
        guard _fastPath(word & shortcut == 0x0000_8080 && word & 0x007F_0000 != 0) else { break }
        let delta = UInt64(word & 0x7F | (word &>> 1) & 0x3F80 | (word &>> 2) & 0x1F_C000)
        size = Int(truncatingIfNeeded: word &>> 24)
        sum = time &+ delta
        guard
          _fastPath(
            next.distance(to: headersEnd) >= 4 && size <= payload.distance(to: end)
              && sum <= lastTime)
        else { break }
        guard _fastPath(fast(sequence, sum, UnsafeRawBufferPointer(start: payload, count: size)))
        else {
          common = true
          break
        }
        next += 4
        payload += size
        time = sum
        sequence &+= 1
        guard _fastPath(sequence <= stop) else { break records }
      }
      let newTime: UInt64
      let length: Int
      if common {
        newTime = sum
        length = size
        next += 4
      } else {
        guard next < headersEnd else { break }
        (newTime, length, next) = try header(
          at: next, payload: payload, sequence: sequence, time: time)
      }
      let bytes = UnsafeRawBufferPointer(start: payload, count: length)
      payload += length
      time = newTime
      sequence &+= 1
      guard try slow(sequence &- 1, newTime, bytes) else { break }
    }
    reader.position = base.distance(to: next)
    if reader.isAtEnd {
      try checkEnd(sequence: sequence, time: time, payload: base.distance(to: payload))
      return true
    }
    guard sequence <= lastSequence else {
      throw corrupt("the records go on past event \(lastSequence), where the header says they end")
    }
    return false
  }

  /// Reads the header at `next` in the headers, the next record's, with every check of
  /// the record's framing: its time (after `time`) and its payload's length (from
  /// `payload`, within the frame). Out of line and taking no address, so that the loops'
  /// values stay in registers.
  /// - Returns: the record's time, its payload's length and the next header.
  /// - Throws: ``JournalError/Code/corruptFrame`` for a malformed header or one past the
  ///   headers' end, a payload past the frame's end or a time outside the frame.
  @usableFromInline @inline(never)
  func header(
    at next: UnsafeMutableRawPointer, payload: UnsafeMutableRawPointer, sequence: UInt64,
    time: UInt64
  ) throws(JournalError) -> (time: UInt64, length: Int, next: UnsafeMutableRawPointer) {
    let base = frame.storage.bytes
    var reader = reader
    reader.position = base.distance(to: next)
    let delta: UInt64
    let length: UInt64
    do throws(CodecError) {
      (delta, length) = try reader.readRecordHeader()
    } catch {
      throw corrupt("a record is malformed: \(error.message)")
    }
    // The payload is within the frame: the difference needs no overflow check.
    let offset = base.distance(to: payload)
    guard length <= UInt64(truncatingIfNeeded: frame.storage.count &- offset) else {
      throw corrupt(
        "record length \(length) runs past the frame at byte \(offset) (its header at byte \(reader.offset))"
      )
    }
    let (newTime, overflow) = time.addingReportingOverflow(delta)
    guard !overflow, newTime <= frame.info.lastTime else {
      throw corrupt("record \(sequence) lies outside the frame")
    }
    return (newTime, Int(truncatingIfNeeded: length), base + reader.position)
  }

  /// Checks the end of the headers, met after event `sequence - 1` at `time` with the
  /// payloads read up to `payload`: the frame's last event, at its last time, and its
  /// payloads read to their end.
  @usableFromInline
  func checkEnd(sequence: UInt64, time: UInt64, payload: Int) throws(JournalError) {
    guard sequence == frame.info.lastSequence &+ 1, time == frame.info.lastTime else {
      throw corrupt("the records end at event \(sequence &- 1), not where the header says")
    }
    guard payload == frame.storage.count else {
      throw corrupt(
        "the records' payloads end at byte \(payload), not at the frame's end (byte \(frame.storage.count))"
      )
    }
  }

  @usableFromInline
  func corrupt(_ message: String) -> JournalError {
    JournalError(
      .corruptFrame, message, frame: frame.info.number, sequenceRange: frame.info.sequenceRange,
      byteOffset: frame.info.offset)
  }
}

extension ByteReader {
  /// Reads a record's header: its time delta and its payload length, two varints
  /// (FORMAT.md, "Frame header and data frame"). Nearly every record of a recording has
  /// a three-byte delta (16.4 ms to 2.1 s) and a one-byte length (a payload under 128
  /// bytes): that header is read with one four-byte load, its continuation bits checked
  /// at once; any other header, one within four bytes of the end of the data, or one
  /// whose delta ends in a redundant zero is read by ``readVarint()`` twice, with its
  /// checks and errors.
  /// - Throws: what ``readVarint()`` throws for either varint.
  @inlinable @inline(__always)
  mutating func readRecordHeader() throws(CodecError) -> (delta: UInt64, length: UInt64) {
    let start = position
    if _fastPath(count &- start >= 4) {
      // Four bytes before `count` mean a non-empty buffer: `base` is not nil.
      let word = UInt32(
        littleEndian: base.unsafelyUnwrapped.loadUnaligned(fromByteOffset: start, as: UInt32.self))
      // Bytes 0 and 1 go on, byte 2 ends the delta and is not zero, byte 3 is the length.
      if _fastPath(word & 0x8080_8080 == 0x0000_8080 && word & 0x007F_0000 != 0) {
        position = start &+ 4
        let delta = word & 0x7F | (word &>> 1) & 0x3F80 | (word &>> 2) & 0x1F_C000
        return (UInt64(delta), UInt64(word &>> 24))
      }
    }
    let delta = try readVarint()
    return (delta, try readVarint())
  }
}
