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
  /// `lastSequence` modulo the snapshot interval, kept up to date so that asking whether
  /// a snapshot is due costs no division.
  @usableFromInline var intervalPosition: UInt64
  @usableFromInline let snapshotInterval: UInt64
  /// The sequence number of the latest snapshot stored (0: none yet).
  @usableFromInline var lastSnapshotSequence: UInt64 = 0
  /// False once the writer is closed or has failed: appending then takes the slow path
  /// that throws.
  @usableFromInline var isUsable = true

  init(
    capacity: Int, frameSize: Int, snapshotInterval: UInt32, lastSequence: UInt64,
    lastTime: UInt64
  ) {
    records = ByteWriter(capacity: capacity)
    self.frameSize = frameSize
    self.snapshotInterval = UInt64(snapshotInterval)
    self.lastSequence = lastSequence
    self.lastTime = lastTime
    intervalPosition = lastSequence % UInt64(snapshotInterval)
  }

  /// The number of bytes of records in the frame.
  @inlinable var rawCount: Int { records.count }

  /// Whether a snapshot of the state after `lastSequence` is wanted: see
  /// ``JournalWriter/needsSnapshot``.
  @inlinable var needsSnapshot: Bool {
    guard lastSequence > 0, lastSnapshotSequence != lastSequence else { return false }
    return intervalPosition == 0 || recordCount == 0 || records.count >= frameSize
  }

  /// Writes a record's time delta and a one-byte placeholder for its payload length, and
  /// returns where the payload starts.
  @inlinable @inline(__always)
  mutating func beginRecord(time: UInt64) -> Int {
    let previousTime: UInt64
    if recordCount == 0 {
      firstSequence = lastSequence &+ 1
      firstTime = time
      previousTime = time
    } else {
      previousTime = lastTime
    }
    records.write(varint: time &- previousTime, then: 0)
    return records.count
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
    recordCount &+= 1
    lastSequence &+= 1
    lastTime = time
    intervalPosition &+= 1
    if intervalPosition == snapshotInterval { intervalPosition = 0 }
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
