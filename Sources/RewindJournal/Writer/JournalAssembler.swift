/// Writes a journal from the bytes of its frames as another store keeps them: the header
/// frame, then each frame header with its data frame, in order; then an index and a
/// trailer. Each piece is checked as a reader checks it (the metadata checksums, the
/// data frame's checksum, the frame numbers, sequence numbers and times following each
/// other), so bytes that are not the next frame of the journal are refused, and the file
/// is written beside its destination and moved into place only by ``commit(closing:)``.
///
/// Not thread-safe.
package final class JournalAssembler {
  /// The journal's header.
  package let header: JournalHeader
  /// The frames written so far, where they are in the new file.
  package private(set) var frames: [FrameInfo] = []
  private let body: [UInt8]
  private let output: AtomicFileWriter

  /// Checks `headerFrame` (an `RWJH` metadata frame) and writes it with its copy.
  /// - Throws: ``JournalError/Code/corruptHeader`` naming `source` when the bytes are not
  ///   a whole, valid header; the errors of ``AtomicFileWriter/init(_:)``.
  package init(_ destination: FileDestination, headerFrame: [UInt8], source: String)
    throws(JournalError)
  {
    let opened = try Self.open(headerFrame, tag: .header, what: "the journal header", source)
    header = try JournalLayout.decodeHeader(opened, path: source)
    let body = Self.withCopies(opened)
    self.body = body
    output = try AtomicFileWriter(destination)
    try output.write(
      MetadataFrame.encode(.header, body: body) + MetadataFrame.encode(.headerCopy, body: body))
  }

  /// The body of a header as a journal with its copies holds it: a 1.0 header's as 1.1
  /// (like recovery, the copies make it 1.1), any other's as it is.
  private static func withCopies(_ body: [UInt8]) -> [UInt8] {
    var body = body
    if body.count >= 4, body[0] == 1, body[1] == 0, body[2] == 0, body[3] == 0 { body[2] = 1 }
    return body
  }

  /// The header frame `headerFrame` (an `RWJH` metadata frame) as a journal this
  /// assembler writes holds it: a format-1.0 header's says 1.1, any other is the same. A
  /// push sends a journal's header so, and the journal pulled back pushes as the same one.
  /// - Throws: ``JournalError/Code/corruptHeader`` when the bytes are not an `RWJH` frame.
  package static func headerFrameWithCopies(_ headerFrame: [UInt8]) throws(JournalError)
    -> [UInt8]
  {
    let body = try open(headerFrame, tag: .header, what: "the journal header", "")
    let upgraded = withCopies(body)
    return upgraded == body ? headerFrame : MetadataFrame.encode(.header, body: upgraded)
  }

  /// The number of records written.
  package var recordCount: UInt64 { frames.reduce(0) { $0 + UInt64($1.recordCount) } }

  /// Checks that `bytes` are the journal's next frame (a frame header with its data
  /// frame, numbered ``frames``' count) and writes them.
  /// - Throws: ``JournalError/Code/corruptFrame`` naming `source` and the frame number
  ///   expected; I/O errors naming the destination.
  @discardableResult
  package func append(frame bytes: [UInt8], source: String) throws(JournalError) -> FrameInfo {
    let number = frames.count
    func refuse(_ message: String) -> JournalError {
      JournalError(.corruptFrame, message, path: source, frame: number)
    }
    guard bytes.count >= 8 else { throw refuse("\(bytes.count) bytes are no frame") }
    let headerSize = bytes.withUnsafeBytes { 8 + Int(MetadataFrame.prefix($0).payloadSize) }
    guard headerSize <= bytes.count else { throw refuse("the frame header is cut short") }
    let decoded: FrameHeader
    do throws(CodecError) {
      decoded = try bytes.withBytes { all throws(CodecError) in
        let (magic, _) = MetadataFrame.prefix(all)
        guard magic == JournalFormat.metadataMagic else {
          throw CodecError(.invalidValue, "no frame header", at: 0)
        }
        let (tag, body) = try MetadataFrame.open(
          UnsafeRawBufferPointer(rebasing: all[8..<headerSize]))
        guard tag == JournalFormat.Tag.frame.rawValue else {
          throw CodecError(.invalidValue, "no frame header", at: 8)
        }
        let header = try FrameHeader.decode(
          body: body, offset: output.size, headerSize: UInt32(headerSize), withSnapshots: false)
        let data = UnsafeRawBufferPointer(rebasing: all[headerSize...])
        guard data.count == Int(header.info.compressedSize) else {
          throw CodecError(
            .invalidValue,
            "the data frame is \(data.count) bytes, not the header's \(header.info.compressedSize)",
            at: headerSize)
        }
        guard XXH64.checksum32(data) == header.compressedChecksum else {
          throw CodecError(
            .invalidValue, "checksum mismatch in the compressed data", at: headerSize)
        }
        return header
      }
    } catch {
      throw refuse(error.message)
    }
    let info = decoded.info
    guard info.number == number else { throw refuse("its header says it is frame \(info.number)") }
    if let previous = frames.last {
      guard info.firstSequence == previous.lastSequence + 1, info.firstTime >= previous.lastTime
      else {
        throw refuse(
          "events \(info.firstSequence)–\(info.lastSequence) do not follow events \(previous.firstSequence)–\(previous.lastSequence)"
        )
      }
    } else if info.firstSequence != 1 {
      throw refuse("the first frame starts at event \(info.firstSequence), not 1")
    }
    try output.write(bytes)
    frames.append(info)
    return info
  }

  /// Writes the index and trailer (when `closing`; without them the journal reads as one
  /// whose writer did not close it) and moves the file into place.
  package func commit(closing: Bool) throws(JournalError) {
    if closing {
      let index = JournalIndex(frames: frames, lostRanges: [], headerCopy: body).encoded()
      let trailer = JournalTrailer(
        indexOffset: output.size, indexSize: UInt32(index.count), recordCount: recordCount
      ).encoded()
      try output.write(index + trailer)
    }
    try output.commit()
  }

  /// Leaves nothing at the destination.
  package func discard() { output.discard() }

  /// The body of `frame`, a whole header frame (`RWJH`) whose checksum verifies.
  /// - Throws: ``JournalError/Code/corruptHeader`` naming `source`.
  package static func headerBody(of frame: [UInt8], source: String) throws(JournalError)
    -> [UInt8]
  {
    try open(frame, tag: .header, what: "the journal header", source)
  }

  private static func open(
    _ bytes: [UInt8], tag: JournalFormat.Tag, what: String, _ source: String
  ) throws(JournalError) -> [UInt8] {
    do throws(CodecError) {
      return try bytes.withBytes { all throws(CodecError) in
        guard all.count >= 16 else { throw CodecError(.truncated, "\(all.count) bytes", at: 0) }
        let (magic, size) = MetadataFrame.prefix(all)
        guard magic == JournalFormat.metadataMagic, Int(size) + 8 == all.count else {
          throw CodecError(.invalidValue, "no metadata frame of \(all.count) bytes", at: 0)
        }
        let (found, body) = try MetadataFrame.open(UnsafeRawBufferPointer(rebasing: all[8...]))
        guard found == tag.rawValue else { throw CodecError(.invalidValue, "another frame", at: 8) }
        return Array(body)
      }
    } catch {
      throw JournalError(.corruptHeader, "\(what) is invalid: \(error.message)", path: source)
    }
  }
}
