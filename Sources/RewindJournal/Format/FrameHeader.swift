/// Where a data frame is and what it holds: one entry of the index, or what walking the
/// frame headers finds.
public struct FrameInfo: Sendable, Equatable {
  /// The frame's number as its header states it: its position among the journal's data
  /// frames when it was written (frames after damage keep theirs).
  public var number: Int
  /// The byte offset of the frame's header (a metadata frame).
  public var offset: UInt64
  /// The size of the whole header frame, prefix included.
  public var headerSize: UInt32
  /// The size of the zstd data frame that follows the header.
  public var compressedSize: UInt32
  /// The sequence number of the first record.
  public var firstSequence: UInt64
  /// How many records the frame holds (at least one).
  public var recordCount: UInt32
  /// The timestamps of the first and last records, microseconds since the session start.
  public var firstTime: UInt64
  public var lastTime: UInt64
  /// How many snapshots the header carries.
  public var snapshotCount: UInt32

  package init(
    number: Int, offset: UInt64, headerSize: UInt32, compressedSize: UInt32,
    firstSequence: UInt64, recordCount: UInt32, firstTime: UInt64, lastTime: UInt64,
    snapshotCount: UInt32
  ) {
    self.number = number
    self.offset = offset
    self.headerSize = headerSize
    self.compressedSize = compressedSize
    self.firstSequence = firstSequence
    self.recordCount = recordCount
    self.firstTime = firstTime
    self.lastTime = lastTime
    self.snapshotCount = snapshotCount
  }

  /// The sequence number of the last record.
  @inlinable public var lastSequence: UInt64 { firstSequence + UInt64(recordCount) - 1 }
  /// The records' sequence numbers.
  @inlinable public var sequenceRange: ClosedRange<UInt64> { firstSequence...lastSequence }
  /// The byte offset of the zstd data frame.
  @inlinable public var dataOffset: UInt64 { offset + UInt64(headerSize) }
  /// The byte offset just past the data frame.
  public var endOffset: UInt64 { dataOffset + UInt64(compressedSize) }

  /// Whether an index entry describes a frame a reader can use after `previous` (nil for
  /// the first): at least one record, sequence numbers from 1 and times within the
  /// limits, both after the previous frame's. Its offsets are the file's to check.
  func isConsistent(after previous: FrameInfo?) -> Bool {
    recordCount >= 1 && firstSequence >= 1 && firstTime <= lastTime
      && lastTime <= JournalLimits.maximumTime
      && firstSequence <= JournalLimits.maximumSequence - UInt64(recordCount)
      && previous.map { firstSequence > $0.lastSequence && firstTime >= $0.lastTime } ?? true
  }
}

/// A frame header: the metadata frame written just before each zstd data frame.
struct FrameHeader: Sendable, Equatable {
  var info: FrameInfo
  /// The uncompressed size of the data.
  var rawSize: UInt32
  /// XXH64-low32 of the compressed zstd frame's bytes.
  var compressedChecksum: UInt32
  /// The snapshots whose next record is in this frame, in sequence order.
  var snapshots: [StoredSnapshot]

  /// The header as a whole metadata frame.
  func encoded() -> [UInt8] {
    MetadataFrame.encode(.frame) { writer in
      writer.writeLittleEndian(UInt32(info.number))
      writer.writeLittleEndian(info.firstSequence)
      writer.writeLittleEndian(info.recordCount)
      writer.writeLittleEndian(info.firstTime)
      writer.writeLittleEndian(info.lastTime)
      writer.writeLittleEndian(rawSize)
      writer.writeLittleEndian(info.compressedSize)
      writer.writeLittleEndian(compressedChecksum)
      writer.writeLittleEndian(UInt32(snapshots.count))
      for stored in snapshots {
        writer.writeLittleEndian(stored.snapshot.sequence)
        writer.writeLittleEndian(stored.recordOffset)
        writer.writeLittleEndian(stored.time)
        writer.writeLittleEndian(stored.snapshot.stateHash)
        writer.writeVarint(UInt64(stored.snapshot.state.count))
        writer.write(contentsOf: stored.snapshot.state)
      }
    }
  }

  /// Decodes and checks a frame header body.
  /// - Parameters:
  ///   - offset: where the header frame starts in the file.
  ///   - headerSize: the size of the whole header frame.
  ///   - withSnapshots: whether to copy out the snapshots (walking does not need them).
  static func decode(
    body: UnsafeRawBufferPointer, offset: UInt64, headerSize: UInt32, withSnapshots: Bool
  ) throws(CodecError) -> FrameHeader {
    var reader = ByteReader(body)
    let number = try reader.readLittleEndian(UInt32.self)
    let firstSequence = try reader.readLittleEndian(UInt64.self)
    let recordCount = try reader.readLittleEndian(UInt32.self)
    let firstTime = try reader.readLittleEndian(UInt64.self)
    let lastTime = try reader.readLittleEndian(UInt64.self)
    let rawSize = try reader.readLittleEndian(UInt32.self)
    let compressedSize = try reader.readLittleEndian(UInt32.self)
    let compressedChecksum = try reader.readLittleEndian(UInt32.self)
    let snapshotCount = try reader.readLittleEndian(UInt32.self)
    guard firstSequence >= 1, recordCount >= 1,
      firstSequence <= JournalLimits.maximumSequence - UInt64(recordCount)
    else {
      throw CodecError(
        .invalidValue, "frame declares records \(firstSequence)+\(recordCount)", at: 4)
    }
    guard firstTime <= lastTime, lastTime <= JournalLimits.maximumTime else {
      throw CodecError(
        .invalidValue, "frame's times \(firstTime)–\(lastTime) are out of order or range", at: 16)
    }
    // Every record takes at least two bytes (its time delta and its length).
    guard UInt64(rawSize) >= UInt64(recordCount) * 2, rawSize <= JournalLimits.maximumFrameSize
    else {
      throw CodecError(.tooLarge, "frame declares \(rawSize) uncompressed bytes", at: 32)
    }
    guard compressedSize >= 9, compressedSize <= JournalLimits.maximumCompressedFrameSize else {
      throw CodecError(.tooLarge, "frame declares \(compressedSize) compressed bytes", at: 36)
    }
    // Each snapshot takes at least 29 bytes, which bounds the count by the body's size.
    guard Int(snapshotCount) <= reader.remaining / 29 else {
      throw CodecError(.tooLarge, "frame declares \(snapshotCount) snapshots", at: 44)
    }
    var snapshots: [StoredSnapshot] = []
    if withSnapshots {
      snapshots.reserveCapacity(Int(snapshotCount))
      var previous: UInt64?
      for _ in 0..<snapshotCount {
        let at = reader.offset
        let sequence = try reader.readLittleEndian(UInt64.self)
        let recordOffset = try reader.readLittleEndian(UInt32.self)
        let time = try reader.readLittleEndian(UInt64.self)
        let hash = try reader.readLittleEndian(UInt64.self)
        let length = try reader.readVarint(
          atMost: UInt64(JournalLimits.maximumSnapshotSize), "snapshot length")
        let state = Array(try reader.readBytes(Int(length)))
        guard sequence < firstSequence + UInt64(recordCount), sequence + 1 >= firstSequence,
          recordOffset < rawSize, previous.map({ $0 < sequence }) ?? true,
          (recordOffset == 0) == (sequence + 1 == firstSequence),
          recordOffset == 0 ? time <= firstTime : (firstTime...lastTime).contains(time)
        else {
          throw CodecError(
            .invalidValue,
            "snapshot after event \(sequence) at offset \(recordOffset) does not belong to a frame of events \(firstSequence)+\(recordCount)",
            at: at)
        }
        previous = sequence
        snapshots.append(
          StoredSnapshot(
            snapshot: Snapshot(sequence: sequence, stateHash: hash, state: state), time: time,
            recordOffset: recordOffset))
      }
    }
    let info = FrameInfo(
      number: Int(number), offset: offset, headerSize: headerSize,
      compressedSize: compressedSize, firstSequence: firstSequence, recordCount: recordCount,
      firstTime: firstTime, lastTime: lastTime, snapshotCount: snapshotCount)
    return FrameHeader(
      info: info, rawSize: rawSize, compressedChecksum: compressedChecksum, snapshots: snapshots)
  }
}
