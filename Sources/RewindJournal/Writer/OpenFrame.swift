/// What the per-record path of a ``JournalWriter`` reads and updates: the frame being
/// filled and the end of the journal.
///
/// The writer keeps it in memory it allocates once and reaches it through a pointer, so
/// that appending a record (inlined into the caller) touches plain memory: no dynamic
/// exclusivity check of a class property, no reference counting. Everything else the
/// writer knows (file, frames, snapshots) is used only when a frame is sealed.
@usableFromInline struct OpenFrame {
  /// The uncompressed records of the frame being filled. Only this frame refers to its
  /// storage, so writing to it never copies.
  @usableFromInline var records: ByteWriter
  /// A frame is sealed before a record once its records reach this many bytes.
  @usableFromInline let frameSize: Int
  @usableFromInline var recordCount: UInt32 = 0
  @usableFromInline var firstSequence: UInt64 = 0
  @usableFromInline var firstTime: UInt64 = 0

  /// The sequence number and time of the last record appended (0 before the first).
  @usableFromInline var lastSequence: UInt64
  @usableFromInline var lastTime: UInt64
  @usableFromInline let snapshotInterval: UInt64
  /// The sequence number of the latest snapshot stored (0: none yet).
  @usableFromInline var lastSnapshotSequence: UInt64 = 0
  /// False once the writer is closed or has failed: appending then takes the slow path
  /// that throws.
  @usableFromInline var isUsable = true {
    didSet { if !isUsable { directUntil = 0 } }
  }
  /// While ``lastSequence`` is below this, a record goes straight into the frame when it
  /// has room and its time follows on (``admitsDirectly(time:)``): the writer is usable,
  /// the frame has begun (its first record is in, after its snapshot), no snapshot is due
  /// before the next multiple of the snapshot interval, and the sequence numbers last.
  /// Set by ``openDirectWindow()`` after a record appended with every check; 0 (no
  /// record goes straight in) when a frame is sealed, the writer stops, or a record is
  /// refused.
  @usableFromInline var directUntil: UInt64 = 0

  init(
    capacity: Int, frameSize: Int, snapshotInterval: UInt32, lastSequence: UInt64,
    lastTime: UInt64
  ) {
    records = ByteWriter(capacity: capacity)
    self.frameSize = frameSize
    self.snapshotInterval = UInt64(snapshotInterval)
    self.lastSequence = lastSequence
    self.lastTime = lastTime
  }

  /// The number of bytes of records in the frame.
  @inlinable var rawCount: Int { records.count }

  /// Whether a snapshot of the state after `lastSequence` is wanted: see
  /// ``JournalWriter/needsSnapshot``.
  @inlinable var needsSnapshot: Bool {
    guard lastSequence > 0, lastSnapshotSequence != lastSequence else { return false }
    return lastSequence % snapshotInterval == 0 || recordCount == 0 || records.count >= frameSize
  }

  /// Whether a record at `time` may go straight into the frame, with no check but this
  /// one: see ``directUntil``.
  @inlinable @inline(__always)
  func admitsDirectly(time: UInt64) -> Bool {
    lastSequence < directUntil && records.count < frameSize && time >= lastTime
      && time <= JournalLimits.maximumTime
  }

  /// Sets ``directUntil`` for the records after ``lastSequence``, which was appended with
  /// every check: up to the next multiple of the snapshot interval (where a snapshot is
  /// due), none while the frame has no record yet or the writer is stopped.
  @usableFromInline mutating func openDirectWindow() {
    let position = lastSequence % snapshotInterval
    guard isUsable, recordCount > 0, position != 0 else {
      directUntil = 0
      return
    }
    let boundary = lastSequence - position
    directUntil =
      boundary <= JournalLimits.maximumSequence - snapshotInterval
      ? boundary + snapshotInterval : JournalLimits.maximumSequence
  }

  /// Writes a record's time delta and a one-byte placeholder for its payload length, and
  /// returns where the payload starts.
  @inlinable @inline(__always)
  mutating func beginRecord(time: UInt64) -> Int {
    records.write(varint: timeDelta(time), then: 0)
    return records.count
  }

  /// The delta stored for a record at `time`, the first of the frame (and its first
  /// sequence number and time) noted.
  @inlinable @inline(__always)
  mutating func timeDelta(_ time: UInt64) -> UInt64 {
    if recordCount == 0 {
      firstSequence = lastSequence &+ 1
      firstTime = time
      return 0
    }
    return time &- lastTime
  }

  /// Writes a record's time delta, a one-byte placeholder for its payload length and one
  /// for its lead (the varint its payload starts with, known only once the rest of the
  /// payload is written), and returns where the payload starts (at the lead).
  @inlinable @inline(__always)
  mutating func beginLeadRecord(time: UInt64) -> Int {
    records.writeVarintThenTwoZeros(timeDelta(time))
    return records.count &- 1
  }

  /// Completes the record begun at `payloadStart` by ``beginLeadRecord(time:)``: stores
  /// `lead` in its placeholder (moving the bytes after it along when it takes more than
  /// one byte) and the payload length, counts the record, and returns the payload's
  /// length. A payload over the limit is removed with its record (and not counted).
  @inlinable @inline(__always)
  mutating func endLeadRecord(
    lead: UInt64, payloadStart: Int, time: UInt64, recordStart: Int
  ) -> Int {
    let length = records.count &- payloadStart
    guard _fastPath(lead < 0x80 && length < 0x80) else {
      if lead < 0x80 {
        records.storeByte(UInt8(truncatingIfNeeded: lead), at: payloadStart)
      } else {
        records.replaceByte(at: payloadStart, withVarint: lead)
      }
      return endRecord(payloadStart: payloadStart, time: time, recordStart: recordStart)
    }
    records.storeBytes(
      UInt8(truncatingIfNeeded: lead), at: payloadStart, UInt8(truncatingIfNeeded: length),
      at: payloadStart &- 1)
    countRecord(at: time)
    return length
  }

  /// Counts a record at `time` appended to the frame.
  @inlinable @inline(__always)
  mutating func countRecord(at time: UInt64) {
    recordCount &+= 1
    lastSequence &+= 1
    lastTime = time
  }

  /// Completes the record begun at `payloadStart`: fills in its payload length and counts
  /// it, and returns the payload's length. A payload over the limit is removed with its
  /// record (and not counted).
  @inlinable @inline(__always)
  mutating func endRecord(payloadStart: Int, time: UInt64, recordStart: Int) -> Int {
    let length = records.count &- payloadStart
    if _fastPath(length < 0x80) {
      records.storeByte(UInt8(truncatingIfNeeded: length), at: payloadStart &- 1)
    } else {
      guard length <= JournalLimits.maximumPayloadSize else {
        records.truncate(to: recordStart)
        return length
      }
      records.replaceByte(at: payloadStart &- 1, withVarint: UInt64(length))
    }
    countRecord(at: time)
    return length
  }

  /// Appends one record with a payload given as bytes.
  @inlinable mutating func appendRecord(time: UInt64, payload: UnsafeRawBufferPointer) {
    let recordStart = records.count
    let payloadStart = beginRecord(time: time)
    records.write(contentsOf: payload)
    _ = endRecord(payloadStart: payloadStart, time: time, recordStart: recordStart)
  }
}
