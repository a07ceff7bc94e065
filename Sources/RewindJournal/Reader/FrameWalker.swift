/// Finds the frames of a journal by reading their headers one after another, without
/// decompressing anything: how a journal that was not closed (no index) is opened.
///
/// Problems do not stop the walk: bytes that are not a whole frame are a *torn tail*
/// when no valid frame follows them, and *damage* when one does (the walk resumes at
/// that frame). I/O errors are thrown.
struct FrameWalker {
  let file: JournalFile
  let fileSize: UInt64
  var offset: UInt64
  var frames: [FrameInfo] = []
  var lostRanges: [ClosedRange<UInt64>] = []
  var dataEnd: UInt64
  var tail: JournalLayout.Tail?
  var damage: [JournalLayout.Damage] = []
  /// Where index frames were stepped over (a closed journal has one, before its trailer).
  var indexOffsets: [UInt64] = []
  /// The sequence number the next frame should start at.
  var nextSequence: UInt64 = 1
  var lastTime: UInt64 = 0
  /// How many payload bytes resynchronisation may still read and hash, so that a file
  /// crafted with many false frame headers costs linear time, not quadratic.
  var resynchronisationBudget: UInt64

  init(file: JournalFile, fileSize: UInt64, start: UInt64) {
    self.file = file
    self.fileSize = fileSize
    self.offset = start
    self.dataEnd = start
    resynchronisationBudget = 2 * fileSize + (64 << 20)
  }

  private enum Step {
    case advanced
    /// What is wrong, the events the bytes held when a frame header tells, and whether
    /// the bytes are an index or a trailer.
    case problem(String, events: ClosedRange<UInt64>? = nil, index: Bool = false)
  }

  mutating func walk() throws(JournalError) {
    while offset < fileSize {
      guard case .problem(let reason, let events, let isIndex) = try step() else { continue }
      if let resume = try resynchronize(after: offset) {
        let missing =
          resume.firstSequence > nextSequence ? nextSequence...(resume.firstSequence - 1) : nil
        damage.append(
          JournalLayout.Damage(
            byteRange: offset..<resume.offset, sequenceRange: missing, reason: reason))
        // The damage covers the events it held; the frame found next continues from there.
        nextSequence = max(nextSequence, resume.firstSequence)
        offset = resume.offset
      } else {
        tail = JournalLayout.Tail(
          offset: offset, length: fileSize - offset, reason: reason, sequenceRange: events,
          isDamagedEnd: isIndex)
        return
      }
    }
  }

  /// Reads the frame at `offset` and moves past it, or says what is wrong there.
  private mutating func step() throws(JournalError) -> Step {
    let remaining = fileSize - offset
    guard remaining >= 8, let prefixBytes = try file.read(count: 8, at: offset) else {
      return .problem(
        "\(remaining == 1 ? "1 byte is" : "\(remaining) bytes are") too few for a frame")
    }
    let (magic, payloadSize) = prefixBytes.withUnsafeBytes { MetadataFrame.prefix($0) }
    let frameSize = 8 + UInt64(payloadSize)
    if magic == JournalFormat.metadataMagic {
      guard payloadSize <= JournalLimits.maximumMetadataSize else {
        let end = try indexOrTrailer(remaining: remaining)
        return .problem(
          "\(end ?? "a metadata frame") declares \(payloadSize) bytes, beyond the limit",
          index: end != nil)
      }
      guard frameSize <= remaining,
        let payload = try file.read(count: Int(payloadSize), at: offset + 8)
      else {
        let end = try indexOrTrailer(remaining: remaining)
        return .problem(
          "\(end ?? "a metadata frame") of \(frameSize) bytes is cut short after \(remaining) bytes",
          index: end != nil)
      }
      return try payload.withBytes { buffer throws(JournalError) in
        try metadata(buffer, frameSize: frameSize)
      }
    }
    if magic & JournalFormat.skippableMagicMask == JournalFormat.skippableMagicBase {
      // Another program's skippable frame: step over it.
      guard frameSize <= remaining else {
        return .problem("a skippable frame of \(frameSize) bytes is cut short")
      }
      offset += frameSize
      dataEnd = offset
      return .advanced
    }
    if magic == JournalFormat.zstdMagic {
      return .problem("a zstd frame has no frame header before it")
    }
    return .problem(Self.notAFrame)
  }

  /// What bytes that are not a frame, where one would start, are said to be.
  static let notAFrame = "the bytes here are not a frame"

  /// `the index` or `the trailer` when the metadata frame at `offset`, whose size is wrong,
  /// has the tag of one (a damaged size leaves the tag as it was; a writer stopped while
  /// closing the journal leaves its index cut short); nil for another.
  private func indexOrTrailer(remaining: UInt64) throws(JournalError) -> String? {
    guard remaining >= 12, let bytes = try file.read(count: 4, at: offset + 8) else {
      return nil
    }
    let tag =
      UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
    switch JournalFormat.Tag(rawValue: tag) {
    case .index: return "the index"
    case .trailer: return "the trailer"
    default: return nil
    }
  }

  private mutating func metadata(_ payload: UnsafeRawBufferPointer, frameSize: UInt64)
    throws(JournalError) -> Step
  {
    let opened: (tag: UInt32, body: UnsafeRawBufferPointer)
    do throws(CodecError) {
      opened = try MetadataFrame.open(payload)
    } catch {
      // The tag is likely intact when a checksum fails: name what was damaged.
      let tag = payload.count >= 4 ? payload.loadUnaligned(as: UInt32.self) : 0
      let what: String
      switch JournalFormat.Tag(rawValue: UInt32(littleEndian: tag)) {
      case .frame: what = "a frame header"
      case .headerCopy: what = "the copy of the journal header"
      case .lostRange: what = "a lost-range marker"
      case .index: what = "the index"
      case .trailer: what = "the trailer"
      case .header, nil: what = "a metadata frame"
      }
      let tagged = JournalFormat.Tag(rawValue: UInt32(littleEndian: tag))
      return .problem(
        "\(what) is damaged: \(error.message)", index: tagged == .index || tagged == .trailer)
    }
    switch JournalFormat.Tag(rawValue: opened.tag) {
    case .frame:
      let header: FrameHeader
      do throws(CodecError) {
        header = try FrameHeader.decode(
          body: opened.body, offset: offset, headerSize: UInt32(frameSize), withSnapshots: false)
      } catch {
        return .problem("a frame header is invalid: \(error.message)")
      }
      return try dataFrame(after: header)
    case .lostRange:
      guard let range = try? LostRangeMarker.decode(body: opened.body),
        range.lowerBound == nextSequence
      else { return .problem("a lost-range marker does not follow the events before it") }
      lostRanges.append(range)
      nextSequence = range.upperBound + 1
      offset += frameSize
      dataEnd = offset
      return .advanced
    case .index:
      indexOffsets.append(offset)
      offset += frameSize
      return .advanced
    case .trailer:
      offset += frameSize
      return .advanced
    case .headerCopy:
      // The copy after the header (FORMAT.md, "Copies of the header"): stepped over.
      offset += frameSize
      dataEnd = offset
      return .advanced
    case .header:
      return .problem("a second journal header")
    case nil:
      // Metadata of a later minor version: skipped, kept.
      offset += frameSize
      dataEnd = offset
      return .advanced
    }
  }

  private mutating func dataFrame(after header: FrameHeader) throws(JournalError) -> Step {
    let info = header.info
    let remaining = fileSize - offset
    guard UInt64(info.headerSize) + UInt64(info.compressedSize) <= remaining else {
      return .problem(
        "the data frame of \(JournalError.describe(info.sequenceRange)) is cut short",
        events: info.sequenceRange)
    }
    guard let magic = try file.read(count: 4, at: info.dataOffset),
      magic == [0x28, 0xB5, 0x2F, 0xFD]
    else {
      return .problem(
        "the frame header of \(JournalError.describe(info.sequenceRange)) is not followed by a zstd frame"
      )
    }
    guard info.firstSequence >= nextSequence else {
      return .problem(
        "a frame repeats events (\(JournalError.describe(info.sequenceRange)) after \(nextSequence - 1))"
      )
    }
    guard info.firstTime >= lastTime else {
      return .problem("a frame's time goes back before the previous frame's")
    }
    if info.firstSequence > nextSequence {
      damage.append(
        JournalLayout.Damage(
          byteRange: offset..<offset, sequenceRange: nextSequence...(info.firstSequence - 1),
          reason: "events are missing before this frame"))
    }
    frames.append(info)
    nextSequence = info.lastSequence + 1
    lastTime = info.lastTime
    offset = info.endOffset
    dataEnd = offset
    return .advanced
  }

  /// The next place after `start` where a valid frame header (or lost-range marker)
  /// begins, followed by its data in the file, or nil.
  ///
  /// - Complexity: O(bytes scanned); it runs only where damage was found.
  mutating func resynchronize(after start: UInt64) throws(JournalError) -> (
    offset: UInt64, firstSequence: UInt64
  )? {
    let chunkSize = 1 << 20
    var chunkStart = start + 1
    while chunkStart + 12 <= fileSize {
      let count = Int(min(UInt64(chunkSize + 11), fileSize - chunkStart))
      guard let chunk = try file.read(count: count, at: chunkStart) else { return nil }
      var index = 0
      while index + 12 <= chunk.count {
        defer { index += 1 }
        guard chunk[index] == 0x5B, chunk[index + 1] == 0x2A, chunk[index + 2] == 0x4D,
          chunk[index + 3] == 0x18, chunk[index + 8] == 0x52, chunk[index + 9] == 0x57
        else { continue }
        let candidate = chunkStart + UInt64(index)
        if let found = try candidateFrame(at: candidate) { return found }
        if resynchronisationBudget == 0 { return nil }
      }
      chunkStart += UInt64(chunkSize)
    }
    return nil
  }

  private mutating func candidateFrame(at candidate: UInt64) throws(JournalError) -> (
    offset: UInt64, firstSequence: UInt64
  )? {
    // Cheap checks first: a frame header must be followed by a zstd frame, a lost-range
    // marker has a fixed size.
    guard let prefix = try file.read(count: 12, at: candidate) else { return nil }
    let (_, payloadSize) = prefix.withUnsafeBytes { MetadataFrame.prefix($0) }
    let tag =
      UInt32(prefix[8]) | UInt32(prefix[9]) << 8 | UInt32(prefix[10]) << 16
      | UInt32(prefix[11]) << 24
    let end = candidate + 8 + UInt64(payloadSize)
    switch JournalFormat.Tag(rawValue: tag) {
    case .frame:
      guard payloadSize <= JournalLimits.maximumMetadataSize, end + 4 <= fileSize,
        try file.read(count: 4, at: end) == [0x28, 0xB5, 0x2F, 0xFD]
      else { return nil }
    case .lostRange:
      guard payloadSize == 24 else { return nil }
    default:
      return nil
    }
    guard resynchronisationBudget >= UInt64(payloadSize) else {
      resynchronisationBudget = 0
      return nil
    }
    resynchronisationBudget -= UInt64(payloadSize)
    var probe = FrameWalker(file: file, fileSize: fileSize, start: candidate)
    probe.nextSequence = nextSequence
    probe.lastTime = lastTime
    guard case .advanced = try probe.step() else { return nil }
    if let frame = probe.frames.first { return (candidate, frame.firstSequence) }
    if let lost = probe.lostRanges.first { return (candidate, lost.lowerBound) }
    return nil
  }
}
