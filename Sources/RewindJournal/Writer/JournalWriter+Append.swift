extension JournalWriter {
  /// Appends one record and returns its sequence number (one more than the last).
  ///
  /// The record is buffered in the frame being filled; it is durable once that frame is
  /// sealed and synced, or after ``flush()``. If sealing the previous frame fails, this
  /// record is not appended and the error is thrown; the earlier records stay buffered
  /// and the next call retries.
  ///
  /// - Parameters:
  ///   - time: microseconds since the session start; never less than the last record's.
  ///   - payload: the record's bytes, at most ``JournalLimits/maximumPayloadSize``.
  /// - Throws: ``JournalError/Code/invalidArgument`` for a time going backwards or a
  ///   payload too large; I/O and compression errors from sealing a frame.
  /// - Complexity: amortised O(payload), plus compressing a frame every
  ///   ``JournalWriterOptions/frameSize`` bytes.
  @inlinable @discardableResult
  public func append(time: UInt64, payload: UnsafeRawBufferPointer) throws(JournalError) -> UInt64 {
    let open = self.open
    guard open.pointee.isUsable, time >= open.pointee.lastTime,
      time <= JournalLimits.maximumTime, payload.count <= JournalLimits.maximumPayloadSize,
      open.pointee.lastSequence < JournalLimits.maximumSequence
    else { throw refusal(time: time, payloadCount: payload.count) }
    if open.pointee.rawCount >= open.pointee.frameSize { try seal() }
    open.pointee.appendRecord(time: time, payload: payload)
    return open.pointee.lastSequence
  }

  /// Appends one record whose payload `encode` writes straight into the frame being
  /// filled after a lead, a varint that `lead` gives once the rest is written, and
  /// returns its sequence number: the zero-copy path of the recorder. Returns nil, and
  /// appends nothing, when a snapshot of the state after ``lastSequence`` is due
  /// (``needsSnapshot``): store it (``addSnapshot(_:)``) and call again.
  ///
  /// `lead` runs only when the record is sure to be appended if its lead fits: the writer
  /// is usable, the time follows on, the frame has room, and the payload with a one-byte
  /// lead is within ``JournalLimits/maximumPayloadSize``. It is given the bytes left for
  /// the lead (`leadRoom`, 1 or more): the record is refused after `lead` exactly when
  /// the lead's varint takes more (``ByteWriter/varintSize(of:)``), which can happen only
  /// when `leadRoom` is under 10. So the recorder reduces the event in `lead`, and a
  /// refused record leaves its state as it was.
  ///
  /// - Parameters:
  ///   - time: microseconds since the session start; never less than the last record's.
  ///   - encode: appends the payload after the lead to the writer it is given, and does
  ///     nothing else with it (the bytes before belong to the frame).
  ///   - lead: given the bytes left for it, returns the varint that starts the payload.
  /// - Throws: like ``append(time:payload:)-(_,UnsafeRawBufferPointer)``; a payload over
  ///   ``JournalLimits/maximumPayloadSize`` is removed again before the error is thrown.
  /// - Complexity: O(payload), inlined into the caller; a record that goes straight in
  ///   (between snapshots, in a frame with room) costs one comparison of each of the
  ///   frame's room, the sequence number and the time, and no other check.
  @inlinable @inline(__always)
  public func append(
    time: UInt64, encoding encode: (inout ByteWriter) -> Void,
    lead: (_ leadRoom: Int) -> UInt64
  ) throws(JournalError) -> UInt64? {
    let open = self.open
    if _slowPath(!open.pointee.admitsDirectly(time: time)) {
      guard try prepareRecord(time: time) else { return nil }
    }
    let recordStart = open.pointee.rawCount
    let payloadStart = open.pointee.beginLeadRecord(time: time)
    encode(&open.pointee.records)
    let encoded = open.pointee.rawCount &- payloadStart &- 1
    guard _fastPath(encoded < JournalLimits.maximumPayloadSize) else {
      open.pointee.records.truncate(to: recordStart)
      open.pointee.directUntil = 0
      throw refusal(time: time, payloadCount: encoded &+ 1)
    }
    let length = open.pointee.endLeadRecord(
      lead: lead(JournalLimits.maximumPayloadSize &- encoded), payloadStart: payloadStart,
      time: time, recordStart: recordStart)
    guard _fastPath(length <= JournalLimits.maximumPayloadSize) else {
      open.pointee.directUntil = 0
      throw refusal(time: time, payloadCount: length)
    }
    // After a record that did not go straight in (or the last before a snapshot is due).
    if _slowPath(open.pointee.lastSequence >= open.pointee.directUntil) {
      open.pointee.openDirectWindow()
    }
    return open.pointee.lastSequence
  }

  /// Readies the frame for a record at `time` that does not go straight in: returns false
  /// when a snapshot is due; else refuses a stopped writer, a time going backwards or too
  /// late and the sequence number after the last there can be, seals a full frame, and
  /// returns true. Out of line, so that the inlined append stays small.
  @usableFromInline func prepareRecord(time: UInt64) throws(JournalError) -> Bool {
    if open.pointee.needsSnapshot { return false }
    guard open.pointee.isUsable, time >= open.pointee.lastTime,
      time <= JournalLimits.maximumTime, open.pointee.lastSequence < JournalLimits.maximumSequence
    else {
      throw refusal(time: time, payloadCount: 0)
    }
    if open.pointee.rawCount >= open.pointee.frameSize { try seal() }
    return true
  }

  /// Why ``append(time:payload:)`` refuses a record: the writer is unusable, the time
  /// goes backwards, or the payload is too large. Out of line, so that the inlined
  /// append stays small.
  @usableFromInline func refusal(time: UInt64, payloadCount: Int) -> JournalError {
    do throws(JournalError) {
      try checkUsable()
    } catch {
      return error
    }
    guard lastSequence < JournalLimits.maximumSequence else {
      return JournalError(
        .invalidArgument, "the journal holds the largest sequence number there can be",
        path: path)
    }
    let next = (lastSequence + 1)...(lastSequence + 1)
    if time > JournalLimits.maximumTime {
      return JournalError(
        .invalidArgument,
        "record time \(time) µs is beyond the largest time a journal holds (2^63 − 1 µs)",
        path: path, sequenceRange: next)
    }
    if time < lastTime {
      return JournalError(
        .invalidArgument,
        "record time \(time) µs is before the previous record's \(lastTime) µs; times never go backwards",
        path: path, sequenceRange: next)
    }
    return JournalError(
      .invalidArgument,
      "record payload of \(payloadCount) bytes exceeds \(JournalLimits.maximumPayloadSize)",
      path: path, sequenceRange: next)
  }

  /// Appends one record whose payload is an array.
  @discardableResult
  public func append(time: UInt64, payload: [UInt8]) throws(JournalError) -> UInt64 {
    try payload.withBytes { buffer throws(JournalError) in
      try append(time: time, payload: buffer)
    }
  }

  /// Appends every record of a batch, in order: the bulk path, one call for many records.
  /// - Returns: the sequence number of the last record appended.
  /// - Throws: like ``append(time:payload:)``; the records before the failing one stay
  ///   appended (``lastSequence`` tells how far it got).
  @discardableResult
  package func append(_ batch: RecordBatch) throws(JournalError) -> UInt64 {
    try batch.forEachRecord { time, payload throws(JournalError) in
      try append(time: time, payload: payload)
    }
    return lastSequence
  }

  /// Whether the caller should supply a snapshot of the state after ``lastSequence``
  /// before appending the next record: at every multiple of the header's snapshot
  /// interval, and whenever the next record will start a new frame (so that reaching any
  /// event needs only the frame that holds it).
  @inlinable public var needsSnapshot: Bool { open.pointee.needsSnapshot }

  /// Stores a snapshot of the state after the last record appended.
  ///
  /// - Throws: ``JournalError/Code/invalidArgument`` if `snapshot.sequence` is not
  ///   ``lastSequence`` or the state is larger than ``JournalLimits/maximumSnapshotSize``.
  public func addSnapshot(_ snapshot: Snapshot) throws(JournalError) {
    try checkUsable()
    guard snapshot.sequence == lastSequence else {
      throw JournalError(
        .invalidArgument,
        "a snapshot must follow the last record (\(lastSequence)), not event \(snapshot.sequence)",
        path: path)
    }
    guard snapshot.state.count <= JournalLimits.maximumSnapshotSize else {
      throw JournalError(
        .invalidArgument,
        "snapshot of \(snapshot.state.count) bytes exceeds \(JournalLimits.maximumSnapshotSize)",
        path: path)
    }
    let entryBytes = snapshot.state.count + 40
    if frameSnapshots.last?.snapshot.sequence == snapshot.sequence {
      frameSnapshotBytes += entryBytes - (frameSnapshots.last!.snapshot.state.count + 40)
      frameSnapshots[frameSnapshots.count - 1].snapshot = snapshot
      return
    }
    // Seal first when the frame is full, or when one more snapshot could take its header
    // past the size a reader accepts.
    if open.pointee.rawCount >= options.frameSize
      || frameSnapshotBytes + entryBytes > JournalLimits.maximumMetadataSize / 2
    {
      try seal()
    }
    frameSnapshotBytes += entryBytes
    frameSnapshots.append(
      StoredSnapshot(
        snapshot: snapshot, time: lastTime, recordOffset: UInt32(open.pointee.rawCount)))
    open.pointee.lastSnapshotSequence = snapshot.sequence
  }

  /// Seals the frame being filled and forces everything appended so far to disk.
  ///
  /// When it returns, every record appended before the call survives a crash or
  /// `kill -9` of this process (unless the durability option is `.none`).
  public func flush() throws(JournalError) {
    try checkUsable()
    try seal(syncing: false)
    if options.durability != .none { try syncOrFail() }
  }

  /// Compresses the frame being filled and writes it with its header in one write.
  ///
  /// On a write failure the file is cut back to where the frame began and the frame
  /// stays buffered, so that a later call retries it.
  @usableFromInline func seal(syncing: Bool? = nil) throws(JournalError) {
    let rawCount = open.pointee.rawCount
    let frameRecordCount = open.pointee.recordCount
    guard frameRecordCount > 0 else { return }
    // A snapshot after the frame's last record belongs to the next frame's start.
    let carried = frameSnapshots.last.map { $0.recordOffset == UInt32(rawCount) } ?? false
    let snapshots = carried ? Array(frameSnapshots.dropLast()) : frameSnapshots

    // Compress into reused memory: a fresh zero-filled buffer per frame costs a memset
    // of the zstd bound for every frame.
    // The data: the records as rows, or as columns (their headers' size first).
    var rawSize = rawCount
    let bound = ZstdCompressor.bound(rawCount + RecordColumns.prefixRoom)
    if compressed.count < bound { compressed = [UInt8](repeating: 0, count: bound) }
    let compressedSize = try compressed.withMutableBytes { destination throws(JournalError) in
      let into = UnsafeMutableRawBufferPointer(rebasing: destination[..<bound])
      guard splitsRecords else {
        return try open.pointee.records.withUnsafeBytes { rows throws(JournalError) in
          try compressor.compress(rows, into: into)
        }
      }
      let room = RecordColumns.room(forRows: rawCount)
      if columns.count < room { columns = [UInt8](repeating: 0, count: room) }
      return try columns.withMutableBytes { columns throws(JournalError) in
        let laidOut = open.pointee.records.withUnsafeBytes { rows in
          do throws(CodecError) {
            return try RecordColumns.split(rows, count: Int(frameRecordCount), into: columns)
              .columns
          } catch {
            preconditionFailure("the writer's rows are malformed: \(error.message)")
          }
        }
        rawSize = laidOut.count
        return try compressor.compress(
          UnsafeRawBufferPointer(rebasing: columns[laidOut]), into: into)
      }
    }
    let checksum = compressed.withUnsafeBytes {
      XXH64.checksum32(UnsafeRawBufferPointer(rebasing: $0[..<compressedSize]))
    }
    var info = FrameInfo(
      number: frames.count, offset: fileEnd, headerSize: 0, compressedSize: UInt32(compressedSize),
      firstSequence: open.pointee.firstSequence, recordCount: frameRecordCount,
      firstTime: open.pointee.firstTime,
      lastTime: lastTime, snapshotCount: UInt32(snapshots.count))
    let frameHeader = FrameHeader(
      info: info, rawSize: UInt32(rawSize), compressedChecksum: checksum, snapshots: snapshots)
    output.removeAll(keepingCapacity: true)
    output.append(contentsOf: frameHeader.encoded())
    info.headerSize = UInt32(output.count)
    output.append(contentsOf: compressed[..<compressedSize])

    try writeAtEnd(output, sequenceRange: info.sequenceRange)
    fileEnd += UInt64(output.count)
    frames.append(info)
    open.pointee.records.removeAll()
    open.pointee.recordCount = 0
    open.pointee.directUntil = 0
    if carried {
      frameSnapshots = [frameSnapshots.last!]
      frameSnapshots[0].recordOffset = 0
      frameSnapshotBytes = frameSnapshots[0].snapshot.state.count + 40
    } else {
      frameSnapshots = []
      frameSnapshotBytes = 0
    }
    if syncing ?? (options.durability == .sealedFrames) { try syncOrFail() }
  }

  /// Writes bytes at the end of the data, cutting away any partial write on failure.
  func writeAtEnd(_ bytes: [UInt8], sequenceRange: ClosedRange<UInt64>?) throws(JournalError) {
    if needsTruncation {
      try file.truncate(to: fileEnd)
      needsTruncation = false
    }
    do {
      try bytes.withBytes { buffer throws(JournalError) in
        try file.write(buffer, at: fileEnd)
      }
    } catch {
      var error = error
      if let pending {
        // Batch work: the journal never reaches its path, so nothing stays pending.
        error = pending.unwritten(error, consequence: "; the journal is not written")
      } else if let sequenceRange {
        error.message +=
          "; events \(sequenceRange.lowerBound)–\(sequenceRange.upperBound) are not written yet and stay buffered"
      }
      do {
        try file.truncate(to: fileEnd)
      } catch {
        failure = error
      }
      throw error
    }
  }

  /// `fsync`s; a failure makes the writer unusable, because the kernel may have dropped
  /// pages it could not write and a later `fsync` could falsely succeed.
  func syncOrFail() throws(JournalError) {
    do {
      try file.sync()
    } catch {
      var error = error
      error.message +=
        "; records after event \(frames.last.map { $0.firstSequence - 1 } ?? 0) may not be durable and the writer is now closed"
      failure = error
      throw error
    }
  }

  func checkUsable() throws(JournalError) {
    if let failure {
      throw JournalError(
        .closed, "the writer stopped after an earlier failure: \(failure.message)", path: path,
        cause: failure.cause)
    }
    if isClosed {
      throw JournalError(.closed, "the writer is closed", path: path)
    }
  }
}
