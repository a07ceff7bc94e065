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

/// One decompressed, checked data frame: its header, its snapshots and its records.
///
/// A view keeps its frame's memory alive; the reader never overwrites memory a view
/// still uses, so a view stays valid however many frames are decoded after it.
public struct FrameView {
  /// Where the frame is and what it holds.
  public let info: FrameInfo
  /// The snapshots whose next record is in this frame, in sequence order.
  package let snapshots: [StoredSnapshot]
  @usableFromInline let storage: FrameStorage

  /// The frame's uncompressed records.
  @inlinable package var bytes: UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: storage.bytes, count: storage.count)
  }

  /// A cursor over the records, from the first.
  public func records() -> RecordCursor {
    RecordCursor(frame: self, offset: 0, sequence: info.firstSequence, time: info.firstTime)
  }

  /// A cursor over the records after a snapshot of this frame.
  package func records(after snapshot: StoredSnapshot) -> RecordCursor {
    let offset = Int(snapshot.recordOffset)
    return RecordCursor(
      frame: self, offset: offset, sequence: snapshot.snapshot.sequence + 1,
      time: offset == 0 ? info.firstTime : snapshot.time)
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

/// Reads the records of one frame in order, checking the frame's structure as it goes.
public struct RecordCursor {
  @usableFromInline let frame: FrameView
  @usableFromInline var reader: ByteReader
  @usableFromInline var nextSequence: UInt64
  @usableFromInline var previousTime: UInt64

  /// The sequence number of the next record.
  @inlinable package var sequence: UInt64 { nextSequence }
  /// The time of the record before the next one.
  package var time: UInt64 { previousTime }
  /// The offset of the next record in the frame's uncompressed bytes.
  package var offset: Int { reader.offset }

  init(frame: FrameView, offset: Int, sequence: UInt64, time: UInt64) {
    self.frame = frame
    self.reader = ByteReader(frame.bytes)
    try? self.reader.seek(to: offset)
    self.nextSequence = sequence
    self.previousTime = time
  }

  /// The next record, or nil after the frame's last one.
  /// - Throws: ``JournalError/Code/corruptFrame`` if the records do not match the frame
  ///   header (which the checksums make all but impossible for a file Rewind wrote).
  /// - Complexity: O(1) per record.
  @inlinable
  public mutating func next() throws(JournalError) -> Record? {
    if reader.isAtEnd {
      guard nextSequence == frame.info.lastSequence + 1, previousTime == frame.info.lastTime else {
        throw corrupt("the records end at event \(nextSequence - 1), not where the header says")
      }
      return nil
    }
    do throws(CodecError) {
      let (delta, length) = try reader.readRecordHeader()
      guard length <= UInt64(reader.remaining) else {
        throw CodecError(
          .truncated, "record length \(length) runs past the frame", at: reader.offset)
      }
      let payload = try reader.readBytes(Int(length))
      let (newTime, overflow) = previousTime.addingReportingOverflow(delta)
      guard !overflow, newTime <= frame.info.lastTime, nextSequence <= frame.info.lastSequence
      else {
        throw CodecError(
          .invalidValue, "record \(nextSequence) lies outside the frame", at: reader.offset)
      }
      let record = Record(sequence: nextSequence, time: newTime, payload: payload)
      previousTime = newTime
      nextSequence &+= 1
      return record
    } catch {
      throw corrupt("a record is malformed: \(error.message)")
    }
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
    // the next record as a pointer into it: fewer values for the loop to hold.
    let base = frame.storage.bytes
    let end = base + reader.count
    var next = base + reader.position
    defer {
      reader.position = base.distance(to: next)
      self.reader = reader
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
      // (`readRecordHeader()`'s shortcut), read with one load wherever the record starts
      // (past the frame's end the load reads the padding), whose payload is in the frame
      // and whose time is within the frame's. Anything else, the end of the frame
      // included, is read again from the same place with every check and its error.
      let word = UInt32(littleEndian: next.loadUnaligned(as: UInt32.self))
      let newTime: UInt64
      let length: Int
      if _fastPath(word & shortcut == 0x0000_8080 && word & 0x007F_0000 != 0) {
        let delta = UInt64(word & 0x7F | (word &>> 1) & 0x3F80 | (word &>> 2) & 0x1F_C000)
        let size = Int(truncatingIfNeeded: word &>> 24)
        let sum = time &+ delta
        // What is left after the header is negative when the header runs past the end.
        if _fastPath(size <= next.distance(to: end) &- 4 && sum <= lastTime) {
          newTime = sum
          length = size
          next += 4
        } else {
          reader.position = base.distance(to: next)
          let payload: Int
          (newTime, length, payload) = try header(reader, sequence: sequence, time: time)
          next = base + payload
        }
      } else {
        guard next < end else { break }
        reader.position = base.distance(to: next)
        let payload: Int
        (newTime, length, payload) = try header(reader, sequence: sequence, time: time)
        next = base + payload
      }
      let payload = UnsafeRawBufferPointer(start: next, count: length)
      next += length
      time = newTime
      sequence &+= 1
      guard try body(sequence &- 1, newTime, payload) else { break }
    }
    reader.position = base.distance(to: next)
    if reader.isAtEnd {
      guard sequence == lastSequence &+ 1, time == lastTime else {
        throw corrupt("the records end at event \(sequence - 1), not where the header says")
      }
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
    // record as a pointer into it, and the shortcut's mask.
    let base = frame.storage.bytes
    let end = base + reader.count
    var next = base + reader.position
    defer {
      reader.position = base.distance(to: next)
      self.reader = reader
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
        // What is left after the header is negative when the header runs past the end.
        guard _fastPath(size <= next.distance(to: end) &- 4 && sum <= lastTime) else { break }
        guard _fastPath(fast(sequence, sum, UnsafeRawBufferPointer(start: next + 4, count: size)))
        else {
          common = true
          break
        }
        next += 4 &+ size
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
        guard next < end else { break }
        reader.position = base.distance(to: next)
        let payload: Int
        (newTime, length, payload) = try header(reader, sequence: sequence, time: time)
        next = base + payload
      }
      let payload = UnsafeRawBufferPointer(start: next, count: length)
      next += length
      time = newTime
      sequence &+= 1
      guard try slow(sequence &- 1, newTime, payload) else { break }
    }
    reader.position = base.distance(to: next)
    if reader.isAtEnd {
      guard sequence == lastSequence &+ 1, time == lastTime else {
        throw corrupt("the records end at event \(sequence - 1), not where the header says")
      }
      return true
    }
    guard sequence <= lastSequence else {
      throw corrupt("the records go on past event \(lastSequence), where the header says they end")
    }
    return false
  }

  /// Reads the header of the record at `reader`'s position, the next of the frame (it
  /// is not at the end), with every check of the record's framing: its time (after
  /// `time`) and its payload's length. Out of line and taking no address, so that the
  /// loop's values stay in registers.
  /// - Returns: the record's time, its payload's length and the payload's offset.
  /// - Throws: ``JournalError/Code/corruptFrame`` for a malformed header, a payload past
  ///   the frame's end or a time outside the frame.
  @usableFromInline @inline(never)
  func header(_ reader: ByteReader, sequence: UInt64, time: UInt64)
    throws(JournalError) -> (time: UInt64, length: Int, payload: Int)
  {
    var reader = reader
    let delta: UInt64
    let length: UInt64
    do throws(CodecError) {
      (delta, length) = try reader.readRecordHeader()
    } catch {
      throw corrupt("a record is malformed: \(error.message)")
    }
    // `position <= count` always: the difference needs no overflow check.
    guard length <= UInt64(truncatingIfNeeded: reader.count &- reader.position) else {
      throw corrupt("record length \(length) runs past the frame at byte \(reader.offset)")
    }
    let (newTime, overflow) = time.addingReportingOverflow(delta)
    guard !overflow, newTime <= frame.info.lastTime else {
      throw corrupt("record \(sequence) lies outside the frame")
    }
    return (newTime, Int(truncatingIfNeeded: length), reader.position)
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
