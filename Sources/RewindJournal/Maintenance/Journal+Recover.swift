#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What ``Journal/recover(path:output:salvage:)`` did.
public struct RecoveryReport: Sendable {
  /// The damaged journal.
  public var source: String
  /// The journal written (the source itself when recovered in place).
  public var output: String
  public var keptFrames: Int
  public var keptRecords: UInt64
  /// The last event kept (0 if none).
  public var lastSequence: UInt64
  /// The bytes cut from the end: an incomplete frame or garbage.
  public var cutTail: JournalCondition.TornTail?
  /// Frames dropped because their contents failed their checksums, with why.
  public var droppedFrames: [JournalError]
  /// Events now marked as lost in the middle of the journal (salvage).
  public var lostRanges: [ClosedRange<UInt64>]
  /// Whether anything had to be written; false for a journal that was already whole.
  public var changed: Bool
}

extension Journal {
  /// Repairs a journal after a crash or damage.
  ///
  /// A torn tail (a partial frame, a partial metadata frame, or garbage after the last
  /// whole frame) is cut back to the last whole frame whose checksums verify, and a fresh
  /// index is written, so the journal opens without walking. Every frame is decompressed
  /// and checked first.
  ///
  /// Damage in the middle (frames that fail their checksums with good frames after them)
  /// stops recovery with an error naming the frame and its events, unless `salvage` is
  /// set: then the damaged frames are dropped, the events they held are marked lost in
  /// the journal, and the events after them are kept. Salvage writes a new file and
  /// renames it over the destination, so the original is never half rewritten.
  ///
  /// - Parameters:
  ///   - output: write the recovered journal here instead of repairing in place; an
  ///     existing file there is an error.
  /// - Throws: ``JournalError`` if the journal cannot be read at all, is being written
  ///   (locked), or has damage in the middle without `salvage`.
  ///   - progress: called after each frame is checked, with the frames done and the total.
  public static func recover(
    path: String, output: String? = nil, salvage: Bool = false,
    progress: (Int, Int) -> Void = { _, _ in }
  ) throws(JournalError) -> RecoveryReport {
    let inPlace = output == nil || output == path
    let file = try JournalFile(path: path, mode: inPlace ? .update : .read)
    do {
      try FileLock.acquire(file, shared: !inPlace)
    } catch {
      var error = error
      if error.code == .locked { error.message += "; stop it before recovering the journal" }
      throw error
    }
    defer { FileLock.release(file) }
    let layout = try JournalLayout.read(file, trustIndex: false)
    let reader = try JournalReader(file: file, layout: layout, options: .init())

    var good: [FrameInfo] = []
    var lastGood = -1  // the position of the last frame whose checksums verify
    var failures: [(index: Int, error: JournalError)] = []
    for index in layout.frames.indices {
      do throws(JournalError) {
        _ = try verifyFrame(index, reader: reader)
        good.append(layout.frames[index])
        lastGood = index
      } catch {
        failures.append((index, error))
      }
      progress(index + 1, layout.frames.count)
    }
    // Damaged frames after the last good one are part of the tail.
    let tailFailures = failures.filter { $0.index > lastGood }
    let middleFailures = failures.filter { $0.index < lastGood }
    if !salvage {
      if let first = middleFailures.first {
        var error = first.error
        error.message +=
          "; good frames follow it: pass salvage (`rewind recover --salvage`) to drop it and keep them"
        throw error
      }
      if let damage = layout.damage.first(where: {
        $0.byteRange.lowerBound < (good.last?.offset ?? 0)
      }) {
        throw JournalError(
          .corruptFrame,
          "damaged bytes (\(damage.reason)) with good frames after them: pass salvage (`rewind recover --salvage`) to drop them and keep the rest",
          path: path, sequenceRange: damage.sequenceRange, byteOffset: damage.byteRange.lowerBound)
      }
    }

    var cutTail = layout.tail
    if let first = tailFailures.first {
      let offset = layout.frames[first.index].offset
      cutTail = JournalCondition.TornTail(
        offset: offset, length: layout.fileSize - offset,
        reason: "frames that fail their checksums: \(first.error.message)")
    }
    let gaps = Journal.gaps(between: good)
    let newlyLost = gaps.filter { !layout.lostRanges.contains($0) }
    var report = RecoveryReport(
      source: path, output: output ?? path, keptFrames: good.count,
      keptRecords: good.reduce(0) { $0 + UInt64($1.recordCount) },
      lastSequence: good.last?.lastSequence ?? 0, cutTail: cutTail,
      droppedFrames: failures.map(\.error), lostRanges: newlyLost, changed: true)

    if inPlace && middleFailures.isEmpty && layout.damage.isEmpty {
      let cut = tailFailures.first.map { layout.frames[$0.index].offset } ?? layout.dataEnd
      if cutTail == nil,
        case .success(let (index, offset)) = try JournalLayout.readIndex(
          file, fileSize: layout.fileSize, after: layout.headerSize),
        index.frames == layout.frames, offset == cut
      {
        report.changed = false
        return report
      }
      try file.truncate(to: cut)
      let index = JournalIndex(frames: good, lostRanges: layout.lostRanges).encoded()
      let trailer = JournalTrailer(
        indexOffset: cut, indexSize: UInt32(index.count), recordCount: report.keptRecords
      ).encoded()
      try (index + trailer).withBytes { buffer throws(JournalError) in
        try file.write(buffer, at: cut)
      }
      try file.sync()
      return report
    }
    try rewrite(
      from: file, headerSize: layout.headerSize, frames: good, lostRanges: gaps,
      to: output ?? path, replacing: inPlace)
    return report
  }

  /// The ranges of sequence numbers missing between consecutive frames (and before the
  /// first).
  static func gaps(between frames: [FrameInfo]) -> [ClosedRange<UInt64>] {
    var gaps: [ClosedRange<UInt64>] = []
    var next: UInt64 = 1
    for frame in frames {
      if frame.firstSequence > next { gaps.append(next...(frame.firstSequence - 1)) }
      next = frame.lastSequence + 1
    }
    return gaps
  }

  /// Writes a new journal of the header and `frames` of `source`, with lost-range
  /// markers in the gaps, an index and a trailer; then renames it to `destination`.
  static func rewrite(
    from source: JournalFile, headerSize: UInt64, frames: [FrameInfo],
    lostRanges: [ClosedRange<UInt64>], to destination: String, replacing: Bool
  ) throws(JournalError) {
    if !replacing, access(destination, F_OK) == 0 {
      throw JournalError(
        .alreadyExists, "the file already exists; it is never overwritten silently",
        path: destination)
    }
    let temporary = destination + ".recovering-\(getpid())"
    unlink(temporary)
    let output = try JournalFile(path: temporary, mode: .create)
    var succeeded = false
    defer { if !succeeded { unlink(temporary) } }

    var offset: UInt64 = 0
    func append(_ bytes: [UInt8]) throws(JournalError) {
      try bytes.withBytes { buffer throws(JournalError) in try output.write(buffer, at: offset) }
      offset += UInt64(bytes.count)
    }
    guard let header = try source.read(count: Int(headerSize), at: 0) else {
      throw JournalError(.io, "the journal header cannot be read again", path: source.path)
    }
    try append(header)
    var written: [FrameInfo] = []
    var pendingGaps = lostRanges[...]
    for frame in frames {
      while let gap = pendingGaps.first, gap.upperBound < frame.firstSequence {
        try append(LostRangeMarker.encoded(gap))
        pendingGaps.removeFirst()
      }
      guard
        let headerBytes = try source.read(count: Int(frame.headerSize), at: frame.offset),
        let data = try source.read(count: Int(frame.compressedSize), at: frame.dataOffset)
      else {
        throw JournalError(
          .io, "frame \(frame.number) cannot be read again", path: source.path,
          byteOffset: frame.offset)
      }
      var info = frame
      info.number = written.count
      info.offset = offset
      var bytes = headerBytes
      if frame.number != info.number {
        // Renumber: decode the checked header and encode it again.
        let decoded = try headerBytes.withBytes { buffer throws(JournalError) in
          do throws(CodecError) {
            let (_, body) = try MetadataFrame.open(UnsafeRawBufferPointer(rebasing: buffer[8...]))
            return try FrameHeader.decode(
              body: body, offset: frame.offset, headerSize: frame.headerSize, withSnapshots: true)
          } catch {
            throw JournalError(
              .corruptFrame, "frame \(frame.number)'s header changed while recovering",
              path: source.path, cause: .codec(error))
          }
        }
        var renumbered = decoded
        renumbered.info.number = info.number
        bytes = renumbered.encoded()
        info.headerSize = UInt32(bytes.count)
      }
      try append(bytes + data)
      written.append(info)
    }
    for gap in pendingGaps { try append(LostRangeMarker.encoded(gap)) }
    let index = JournalIndex(frames: written, lostRanges: lostRanges).encoded()
    let records = written.reduce(0) { $0 + UInt64($1.recordCount) }
    let trailer = JournalTrailer(
      indexOffset: offset, indexSize: UInt32(index.count), recordCount: records
    ).encoded()
    try append(index + trailer)
    try output.sync()
    guard rename(temporary, destination) == 0 else {
      throw JournalError(
        .io, "cannot rename the recovered journal into place", path: destination,
        cause: errnoCause())
    }
    succeeded = true
    JournalFile.syncDirectory(of: destination)
  }
}
