/// The index a writer appends on close, and the fixed-size trailer that locates it, so
/// that opening a closed journal reads two small frames instead of walking them all.
struct JournalIndex: Sendable, Equatable {
  var frames: [FrameInfo]
  /// Ranges of events lost to damage and dropped by salvage, in order.
  var lostRanges: [ClosedRange<UInt64>]
  /// A copy of the journal header's body (format 1.1), nil in an index without one.
  var headerCopy: [UInt8]?

  static let entrySize = 48

  func encoded() -> [UInt8] {
    MetadataFrame.encode(.index) { writer in
      writer.writeLittleEndian(UInt32(frames.count))
      for frame in frames {
        writer.writeLittleEndian(frame.offset)
        writer.writeLittleEndian(frame.headerSize)
        writer.writeLittleEndian(frame.compressedSize)
        writer.writeLittleEndian(frame.firstSequence)
        writer.writeLittleEndian(frame.recordCount)
        writer.writeLittleEndian(frame.firstTime)
        writer.writeLittleEndian(frame.lastTime)
        writer.writeLittleEndian(frame.snapshotCount)
      }
      writer.writeLittleEndian(UInt32(lostRanges.count))
      for range in lostRanges {
        writer.writeLittleEndian(range.lowerBound)
        writer.writeLittleEndian(range.upperBound)
      }
      // 1.1: the header's copy, after the lost ranges where a minor version may add.
      if let headerCopy {
        writer.writeLittleEndian(UInt32(headerCopy.count))
        writer.write(contentsOf: headerCopy)
      }
    }
  }

  /// Decodes an index body, checking that frames follow each other in the file and in
  /// sequence (allowing the lost ranges), and end before `dataEnd`.
  static func decode(body: UnsafeRawBufferPointer, dataEnd: UInt64) throws(CodecError)
    -> JournalIndex
  {
    var reader = ByteReader(body)
    let count = try reader.readLittleEndian(UInt32.self)
    guard Int(count) <= reader.remaining / entrySize else {
      throw CodecError(.tooLarge, "index declares \(count) frames", at: 0)
    }
    var frames: [FrameInfo] = []
    frames.reserveCapacity(Int(count))
    for number in 0..<Int(count) {
      let at = reader.offset
      let offset = try reader.readLittleEndian(UInt64.self)
      let headerSize = try reader.readLittleEndian(UInt32.self)
      let compressedSize = try reader.readLittleEndian(UInt32.self)
      let firstSequence = try reader.readLittleEndian(UInt64.self)
      let recordCount = try reader.readLittleEndian(UInt32.self)
      let firstTime = try reader.readLittleEndian(UInt64.self)
      let lastTime = try reader.readLittleEndian(UInt64.self)
      let snapshotCount = try reader.readLittleEndian(UInt32.self)
      let frame = FrameInfo(
        number: number, offset: offset, headerSize: headerSize, compressedSize: compressedSize,
        firstSequence: firstSequence, recordCount: recordCount, firstTime: firstTime,
        lastTime: lastTime, snapshotCount: snapshotCount)
      let previousEnd = frames.last?.endOffset ?? 0
      guard frame.isConsistent(after: frames.last),
        offset >= previousEnd, offset <= dataEnd,
        UInt64(headerSize) + UInt64(compressedSize) <= dataEnd - offset
      else {
        throw CodecError(.invalidValue, "index entry \(number) is inconsistent", at: at)
      }
      frames.append(frame)
    }
    let lostCount = try reader.readLittleEndian(UInt32.self)
    guard Int(lostCount) <= reader.remaining / 16 else {
      throw CodecError(.tooLarge, "index declares \(lostCount) lost ranges", at: reader.offset)
    }
    var lostRanges: [ClosedRange<UInt64>] = []
    for _ in 0..<lostCount {
      let at = reader.offset
      let first = try reader.readLittleEndian(UInt64.self)
      let last = try reader.readLittleEndian(UInt64.self)
      guard first >= 1, first <= last, last <= JournalLimits.maximumSequence,
        lostRanges.last.map({ $0.upperBound < first }) ?? true
      else {
        throw CodecError(.invalidValue, "lost range \(first)–\(last) is invalid", at: at)
      }
      lostRanges.append(first...last)
    }
    // An index of format 1.0 ends here; bytes a later minor version adds after the copy
    // are skipped.
    var headerCopy: [UInt8]?
    if reader.remaining >= 4 {
      let at = reader.offset
      let length = try reader.readLittleEndian(UInt32.self)
      guard Int(length) <= reader.remaining, length > 0 else {
        throw CodecError(.invalidValue, "the header's copy of \(length) bytes is invalid", at: at)
      }
      headerCopy = Array(try reader.readBytes(Int(length)))
    }
    return JournalIndex(frames: frames, lostRanges: lostRanges, headerCopy: headerCopy)
  }
}

/// The last frame of a closed journal: where the index is.
struct JournalTrailer: Sendable, Equatable {
  var indexOffset: UInt64
  var indexSize: UInt32
  var recordCount: UInt64

  func encoded() -> [UInt8] {
    let bytes = MetadataFrame.encode(.trailer) { writer in
      writer.writeLittleEndian(indexOffset)
      writer.writeLittleEndian(indexSize)
      writer.writeLittleEndian(recordCount)
    }
    assert(bytes.count == JournalFormat.trailerSize)
    return bytes
  }

  static func decode(body: UnsafeRawBufferPointer) throws(CodecError) -> JournalTrailer {
    var reader = ByteReader(body)
    return JournalTrailer(
      indexOffset: try reader.readLittleEndian(UInt64.self),
      indexSize: try reader.readLittleEndian(UInt32.self),
      recordCount: try reader.readLittleEndian(UInt64.self))
  }
}

/// A marker left where salvage dropped damaged frames: the events it lost.
enum LostRangeMarker {
  static func encoded(_ range: ClosedRange<UInt64>) -> [UInt8] {
    MetadataFrame.encode(.lostRange) { writer in
      writer.writeLittleEndian(range.lowerBound)
      writer.writeLittleEndian(range.upperBound)
    }
  }

  static func decode(body: UnsafeRawBufferPointer) throws(CodecError) -> ClosedRange<UInt64> {
    var reader = ByteReader(body)
    let first = try reader.readLittleEndian(UInt64.self)
    let last = try reader.readLittleEndian(UInt64.self)
    guard first >= 1, first <= last, last <= JournalLimits.maximumSequence else {
      throw CodecError(.invalidValue, "lost range \(first)–\(last) is invalid", at: 0)
    }
    return first...last
  }
}
