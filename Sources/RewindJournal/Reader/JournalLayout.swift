/// The structure of a journal file as found on opening: its header, its frames, and
/// what is wrong with it, read from the index of a closed journal or by walking the
/// frame headers of one that was not closed. No data frame is decompressed.
struct JournalLayout: Sendable {
  typealias Tail = JournalCondition.TornTail
  typealias Damage = JournalCondition.Damage

  /// How the frames were found.
  enum Source: Sendable, Equatable {
    /// From the index written on close.
    case index
    /// By walking the frame headers; `reason` says why the index was not used.
    case walk(reason: String)
  }

  var header: JournalHeader
  /// The size of the header frame.
  var headerSize: UInt64
  var frames: [FrameInfo]
  var lostRanges: [ClosedRange<UInt64>]
  /// The end of the last frame or marker: where a writer appends next.
  var dataEnd: UInt64
  var fileSize: UInt64
  var source: Source
  var tail: Tail?
  var damage: [Damage]

  /// The public summary.
  var condition: JournalCondition {
    var walkReason: String?
    if case .walk(let reason) = source { walkReason = reason }
    return JournalCondition(
      openedFromIndex: source == .index, walkReason: walkReason, tornTail: tail, damage: damage,
      lostRanges: lostRanges)
  }

  /// Reads the header, then the index if `trustIndex` and a valid one ends the file,
  /// else walks the frame headers.
  static func read(_ file: JournalFile, trustIndex: Bool) throws(JournalError) -> JournalLayout {
    let fileSize = try file.size()
    let (header, headerSize) = try readHeader(file, fileSize: fileSize)
    var walkReason = "walking was requested"
    if trustIndex {
      switch try readIndex(file, fileSize: fileSize, after: headerSize) {
      case .success(let (index, indexOffset)):
        return JournalLayout(
          header: header, headerSize: headerSize, frames: index.frames,
          lostRanges: index.lostRanges, dataEnd: indexOffset, fileSize: fileSize, source: .index,
          tail: nil, damage: [])
      case .failure(let reason):
        walkReason = reason.description
      }
    }
    var walker = FrameWalker(file: file, fileSize: fileSize, start: headerSize)
    try walker.walk()
    return JournalLayout(
      header: header, headerSize: headerSize, frames: walker.frames,
      lostRanges: walker.lostRanges, dataEnd: walker.dataEnd, fileSize: fileSize,
      source: .walk(reason: walkReason), tail: walker.tail, damage: walker.damage)
  }

  /// Reads and checks the header frame at the start of the file.
  static func readHeader(_ file: JournalFile, fileSize: UInt64) throws(JournalError) -> (
    JournalHeader, UInt64
  ) {
    let notAJournal = JournalError(
      .notAJournal, "not a Rewind journal (it does not start with a journal header)",
      path: file.path)
    guard fileSize >= 8, let prefixBytes = try file.read(count: 8, at: 0) else {
      throw fileSize == 0
        ? JournalError(.notAJournal, "the file is empty, not a Rewind journal", path: file.path)
        : notAJournal
    }
    let (magic, payloadSize) = prefixBytes.withUnsafeBytes { MetadataFrame.prefix($0) }
    guard magic == JournalFormat.metadataMagic else { throw notAJournal }
    guard payloadSize <= JournalLimits.maximumSettingsSize + 8192 else {
      throw JournalError(
        .corruptHeader, "the journal header declares \(payloadSize) bytes, beyond the limit",
        path: file.path, byteOffset: 4)
    }
    guard UInt64(payloadSize) + 8 <= fileSize,
      let payload = try file.read(count: Int(payloadSize), at: 8)
    else {
      throw JournalError(
        .corruptHeader, "the journal header is cut short (the file has \(fileSize) bytes)",
        path: file.path, byteOffset: 0)
    }
    let opened: (tag: UInt32, body: [UInt8])
    do throws(CodecError) {
      opened = try payload.withBytes { buffer throws(CodecError) in
        let (tag, body) = try MetadataFrame.open(buffer)
        return (tag, Array(body))
      }
    } catch {
      throw JournalError(
        .corruptHeader, "the journal header is damaged: \(error.message)", path: file.path,
        byteOffset: 8 + UInt64(error.offset), cause: .codec(error))
    }
    guard opened.tag == JournalFormat.Tag.header.rawValue else { throw notAJournal }
    if opened.body.count >= 4 {
      let major = UInt16(opened.body[0]) | UInt16(opened.body[1]) << 8
      let minor = UInt16(opened.body[2]) | UInt16(opened.body[3]) << 8
      guard major == JournalFormat.version.major else {
        throw JournalError(
          .unsupportedVersion,
          "journal format \(major).\(minor) is not supported by this version of Rewind (it reads \(JournalFormat.version.major).x); a newer Rewind is needed",
          path: file.path)
      }
    }
    do throws(CodecError) {
      let header = try opened.body.withBytes { body throws(CodecError) in
        try JournalHeader.decode(body: body)
      }
      return (header, UInt64(payloadSize) + 8)
    } catch {
      throw JournalError(
        .corruptHeader, "the journal header is damaged: \(error.message)", path: file.path,
        byteOffset: 12 + UInt64(error.offset), cause: .codec(error))
    }
  }

  /// Reads the trailer and the index it points at.
  /// - Returns: the index and its offset, or why it cannot be used.
  static func readIndex(_ file: JournalFile, fileSize: UInt64, after headerSize: UInt64)
    throws(JournalError) -> Result<(JournalIndex, UInt64), IndexUnusable>
  {
    let trailerSize = UInt64(JournalFormat.trailerSize)
    guard fileSize >= headerSize + trailerSize,
      let trailerBytes = try file.read(count: Int(trailerSize), at: fileSize - trailerSize)
    else { return .failure("no index (the journal was not closed)") }
    let trailer: JournalTrailer
    do throws(CodecError) {
      trailer = try trailerBytes.withBytes { buffer throws(CodecError) in
        let (magic, size) = MetadataFrame.prefix(buffer)
        guard magic == JournalFormat.metadataMagic, Int(size) == JournalFormat.trailerSize - 8
        else { throw CodecError(.invalidValue, "no trailer", at: 0) }
        let (tag, body) = try MetadataFrame.open(UnsafeRawBufferPointer(rebasing: buffer[8...]))
        guard tag == JournalFormat.Tag.trailer.rawValue else {
          throw CodecError(.invalidValue, "no trailer", at: 0)
        }
        return try JournalTrailer.decode(body: body)
      }
    } catch {
      return .failure("no index (the journal was not closed)")
    }
    let indexEnd = fileSize - trailerSize
    guard trailer.indexOffset >= headerSize, trailer.indexOffset < indexEnd,
      UInt64(trailer.indexSize) == indexEnd - trailer.indexOffset,
      Int(trailer.indexSize) <= JournalLimits.maximumMetadataSize + 8
    else { return .failure("the trailer points at no valid index") }
    guard let indexBytes = try file.read(count: Int(trailer.indexSize), at: trailer.indexOffset)
    else { return .failure("the index is cut short") }
    do throws(CodecError) {
      let index = try indexBytes.withBytes { buffer throws(CodecError) in
        let (magic, size) = MetadataFrame.prefix(buffer)
        guard magic == JournalFormat.metadataMagic, UInt64(size) + 8 == UInt64(buffer.count)
        else { throw CodecError(.invalidValue, "bad index frame prefix", at: 0) }
        let (tag, body) = try MetadataFrame.open(UnsafeRawBufferPointer(rebasing: buffer[8...]))
        guard tag == JournalFormat.Tag.index.rawValue else {
          throw CodecError(.invalidValue, "the trailer does not point at an index", at: 0)
        }
        return try JournalIndex.decode(body: body, dataEnd: trailer.indexOffset)
      }
      guard index.frames.first.map({ $0.offset >= headerSize }) ?? true,
        trailer.recordCount == index.frames.reduce(0, { $0 + UInt64($1.recordCount) })
      else { return .failure("the index disagrees with its trailer") }
      return .success((index, trailer.indexOffset))
    } catch {
      return .failure("the index is damaged: \(error.message)")
    }
  }

  /// Why an index could not be used.
  struct IndexUnusable: Error, ExpressibleByStringLiteral, CustomStringConvertible {
    var description: String
    init(stringLiteral value: String) { description = value }
    init(_ text: String) { description = text }
  }
}

extension JournalLayout.IndexUnusable: ExpressibleByStringInterpolation {}
