/// The structure of a journal file as found on opening: its header, its frames, and
/// what is wrong with it, read from the index of a closed journal or by walking the
/// frame headers of one that was not closed. No data frame is decompressed.
struct JournalLayout: Sendable {
  typealias Tail = JournalCondition.TornTail
  typealias Damage = JournalCondition.Damage
  typealias HeaderDamage = JournalCondition.HeaderDamage

  /// How the frames were found.
  enum Source: Sendable, Equatable {
    /// From the index written on close.
    case index
    /// By walking the frame headers; `reason` says why the index was not used.
    case walk(reason: String)
  }

  var header: JournalHeader
  /// The header's body as the file holds it (or its copy, when the header is damaged).
  var headerBody: [UInt8]
  /// Where the frames may begin: the end of the header frame, or of the copy read
  /// instead of a damaged header (or the first frame found after it).
  var headerSize: UInt64
  /// What is wrong with a header that was read from a copy.
  var headerDamage: HeaderDamage?
  /// What is wrong with the copy after a whole header, when the frames came from the index.
  var headerCopyDamage: JournalCondition.HeaderCopyDamage?
  var frames: [FrameInfo]
  var lostRanges: [ClosedRange<UInt64>]
  /// The end of the last frame or marker: where a writer appends next.
  var dataEnd: UInt64
  var fileSize: UInt64
  var source: Source
  /// Whether the file ends with a valid trailer: its writer closed it.
  var hasTrailer: Bool
  /// Whether ``tail`` follows the trailer of a closed journal (``writtenPast(_:_:after:)``).
  var isWrittenPastTrailer = false
  /// For a session on a server: the journal pushed was closed, its push not done.
  var isIncompletePush = false
  var tail: Tail?
  var damage: [Damage]

  /// The public summary.
  var condition: JournalCondition {
    var walkReason: String?
    if case .walk(let reason) = source { walkReason = reason }
    var condition = JournalCondition(
      openedFromIndex: source == .index, walkReason: walkReason, isClosed: hasTrailer,
      headerDamage: headerDamage, tornTail: tail, damage: damage, lostRanges: lostRanges)
    condition.isWrittenPastTrailer = isWrittenPastTrailer
    condition.headerCopyDamage = headerCopyDamage
    condition.isIncompletePush = isIncompletePush
    return condition
  }

  /// Reads the header, then the index if `trustIndex` and a valid one ends the file,
  /// else walks the frame headers.
  static func read(_ file: JournalFile, trustIndex: Bool) throws(JournalError) -> JournalLayout {
    let fileSize = try file.size()
    let found = try readHeader(file, fileSize: fileSize)
    var walkReason = "walking was requested"
    var hasTrailer: Bool
    switch try readIndex(file, fileSize: fileSize, after: found.end) {
    case .success(let (index, indexOffset)):
      guard trustIndex else {
        hasTrailer = true
        break
      }
      var layout = JournalLayout(
        header: found.header, headerBody: found.body, headerSize: found.end,
        headerDamage: found.damage, frames: index.frames, lostRanges: index.lostRanges,
        dataEnd: indexOffset, fileSize: fileSize, source: .index, hasTrailer: true, tail: nil,
        damage: [])
      // The index steps over the copy after the header, which a walk meets: read here, so
      // that its damage is said (`check` passed such a journal without a word).
      layout.headerCopyDamage = try headerCopyDamage(in: file, fileSize: fileSize, after: found)
      return layout
    case .failure(let reason):
      hasTrailer = reason != .notClosed
      if trustIndex { walkReason = reason.description }
    }
    var walker = FrameWalker(file: file, fileSize: fileSize, start: found.end)
    try walker.walk()
    var tail = walker.tail
    let pastTrailer = try writtenPast(tail, file, after: found.end)
    if let pastTrailer {
      // Closed, then written past: the session is whole, the bytes after it are not its.
      hasTrailer = true
      tail = pastTrailer.tail
      if trustIndex { walkReason = "bytes follow its trailer" }
    }
    var layout = JournalLayout(
      header: found.header, headerBody: found.body, headerSize: found.end,
      headerDamage: found.damage, frames: walker.frames, lostRanges: walker.lostRanges,
      dataEnd: walker.dataEnd, fileSize: fileSize, source: .walk(reason: walkReason),
      hasTrailer: hasTrailer, tail: tail, damage: walker.damage)
    layout.isWrittenPastTrailer = pastTrailer != nil
    return layout
  }

  /// A journal closed, then written past (bytes appended after its trailer, by a tool that
  /// appends or a copy gone wrong), whose walk ends in `tail` (one whose events no index
  /// names): the tail, said to be written after the trailer (with what the walk found
  /// there when it is more than bytes that are not a frame: `a second journal header`),
  /// and the index, with where it starts, that the trailer right before the tail points
  /// at. Nil for any other tail (a frame cut short, damage) or none.
  /// - Throws: ``JournalError`` when the file cannot be read.
  static func writtenPast(_ tail: Tail?, _ file: JournalFile, after headerSize: UInt64)
    throws(JournalError) -> (tail: Tail, index: (JournalIndex, UInt64))?
  {
    guard var tail, tail.sequenceRange == nil,
      case .success(let found) = try readIndex(file, fileSize: tail.offset, after: headerSize)
    else { return nil }
    let appended = "written to the file after its trailer, once it was closed"
    tail.reason = tail.reason == FrameWalker.notAFrame ? appended : "\(appended): \(tail.reason)"
    return (tail, found)
  }

  /// Reads the trailer and the index it points at.
  /// - Returns: the index and its offset, or why it cannot be used.
  static func readIndex(_ file: JournalFile, fileSize: UInt64, after headerSize: UInt64)
    throws(JournalError) -> Result<(JournalIndex, UInt64), IndexUnusable>
  {
    let trailerSize = UInt64(JournalFormat.trailerSize)
    guard fileSize >= headerSize + trailerSize,
      let trailerBytes = try file.read(count: Int(trailerSize), at: fileSize - trailerSize)
    else { return .failure(.notClosed) }
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
      return .failure(.notClosed)
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
  struct IndexUnusable: Error, Equatable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// No valid trailer ends the file: its writer did not close it.
    static let notClosed: IndexUnusable = "no index (the journal was not closed)"

    var description: String
    init(stringLiteral value: String) { description = value }
    init(_ text: String) { description = text }
  }
}

extension JournalLayout.IndexUnusable: ExpressibleByStringInterpolation {}
