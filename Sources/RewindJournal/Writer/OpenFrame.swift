/// What the per-record path of a ``JournalWriter`` reads and updates: the frame being
/// filled and the end of the journal.
///
/// The writer keeps it in memory it allocates once and reaches it through a pointer, so
/// that appending a record (inlined into the caller) touches plain memory: no dynamic
/// exclusivity check of a class property, no reference counting. Everything else the
/// writer knows (file, frames, snapshots) is used only when a frame is sealed.
@usableFromInline struct OpenFrame {
  /// The uncompressed records of the frame being filled.
  @usableFromInline let raw: UnsafeMutableRawPointer
  /// The number of bytes in `raw`.
  @usableFromInline var rawCount = 0
  /// A frame is sealed before a record once `rawCount` reaches this.
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
    raw: UnsafeMutableRawPointer, frameSize: Int, snapshotInterval: UInt32,
    lastSequence: UInt64, lastTime: UInt64
  ) {
    self.raw = raw
    self.frameSize = frameSize
    self.snapshotInterval = UInt64(snapshotInterval)
    self.lastSequence = lastSequence
    self.lastTime = lastTime
    intervalPosition = lastSequence % UInt64(snapshotInterval)
  }

  /// Whether a snapshot of the state after `lastSequence` is wanted: see
  /// ``JournalWriter/needsSnapshot``.
  @inlinable var needsSnapshot: Bool {
    guard lastSequence > 0, lastSnapshotSequence != lastSequence else { return false }
    return intervalPosition == 0 || recordCount == 0 || rawCount >= frameSize
  }

  /// Appends one record's bytes, which must fit (the writer leaves room for the largest
  /// record after `frameSize`).
  @inlinable mutating func appendRecord(time: UInt64, payload: UnsafeRawBufferPointer) {
    let previousTime: UInt64
    if recordCount == 0 {
      firstSequence = lastSequence &+ 1
      firstTime = time
      previousTime = time
    } else {
      previousTime = lastTime
    }
    var position = Self.writeVarint(time &- previousTime, to: raw, at: rawCount)
    position = Self.writeVarint(UInt64(payload.count), to: raw, at: position)
    let count = payload.count
    if let source = payload.baseAddress, count > 0 {
      if count <= 16 {
        // Most payloads are a few bytes: a loop beats a call to memcpy.
        for index in 0..<count {
          raw.storeBytes(
            of: source.load(fromByteOffset: index, as: UInt8.self),
            toByteOffset: position &+ index, as: UInt8.self)
        }
      } else {
        (raw + position).copyMemory(from: source, byteCount: count)
      }
      position &+= count
    }
    rawCount = position
    recordCount &+= 1
    lastSequence &+= 1
    lastTime = time
    intervalPosition &+= 1
    if intervalPosition == snapshotInterval { intervalPosition = 0 }
  }

  /// Writes an unsigned LEB128 varint at `position` and returns the position after it.
  @inlinable @inline(__always)
  static func writeVarint(_ value: UInt64, to raw: UnsafeMutableRawPointer, at position: Int)
    -> Int
  {
    var value = value
    var position = position
    while value >= 0x80 {
      raw.storeBytes(
        of: UInt8(truncatingIfNeeded: value) | 0x80, toByteOffset: position, as: UInt8.self)
      value &>>= 7
      position &+= 1
    }
    raw.storeBytes(of: UInt8(truncatingIfNeeded: value), toByteOffset: position, as: UInt8.self)
    return position &+ 1
  }
}
