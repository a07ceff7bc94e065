/// Reads data frames from a journal file and checks them: the header against the index
/// entry and its checksum, the compressed bytes against `compressedChecksum`, the zstd
/// frame against the declared sizes; then decompresses with the window capped, zstd
/// checking the content checksum when the frame is verified (the compressed bytes
/// checked, what they decompress to is what the writer compressed). A frame's records
/// are read as columns (`RecordColumns`): format 2 holds them so; a frame of format 1
/// holds rows, split into columns here. The one place frames are read, for readers,
/// verification and recovery. Not thread-safe.
final class FrameLoader {
  /// The file the frames are in, or nil when they come from `source`.
  let file: JournalFile?
  /// Where the frames come from when they are not in a file (a stream store).
  let source: (any FrameSource)?
  /// The journal's name in errors: the file's path, or the source's name.
  let path: String
  let decompressor: ZstdDecompressor
  /// The header and compressed bytes of the frame being read, reused.
  private var compressed: [UInt8] = []
  /// Where frames are decompressed; replaced when a view still holds it.
  private var storage = FrameStorage(capacity: 64 << 10)
  /// Whether the frames hold their records as columns (format 2); if not, they are
  /// decompressed into ``rows`` and split into columns (`RecordColumns.split`).
  let holdsColumns: Bool
  private var rows: FrameStorage?

  /// A loader of the frames of a journal whose header says `version`.
  init(file: JournalFile, version: FormatVersion) throws(JournalError) {
    self.file = file
    source = nil
    path = file.path
    holdsColumns = version.holdsColumns
    decompressor = try ZstdDecompressor()
  }

  /// A loader of the frames `source` gives, checked as a file's are.
  init(source: any FrameSource, path: String, version: FormatVersion) throws(JournalError) {
    file = nil
    self.source = source
    self.path = path
    holdsColumns = version.holdsColumns
    decompressor = try ZstdDecompressor()
  }

  /// The decompressed, checked frame `info` locates; `checkingContent`: with zstd's
  /// content checksum checked too, as verification does.
  ///
  /// The view shares this loader's memory until the next frame is loaded; a view still
  /// in use keeps its memory and the loader takes new memory for the next.
  /// - Throws: ``JournalError/Code/corruptFrame`` naming the frame, its events and its
  ///   offset when its header, checksum or contents are wrong; I/O errors.
  func load(_ info: FrameInfo, checkingContent: Bool = false) throws(JournalError) -> FrameView {
    let header = try read(info)
    try decompressor.checksContent(checkingContent)
    let rawSize = Int(header.rawSize)
    let room = holdsColumns ? rawSize : RecordColumns.room(forRows: rawSize)
    if !isKnownUniquelyReferenced(&storage) || storage.capacity < room {
      storage = FrameStorage(capacity: max(room, 64 << 10))
    }
    let headers: Range<Int>
    if holdsColumns {
      try decompress(info, rawSize: rawSize, into: storage.bytes)
      storage.count = rawSize
      do throws(CodecError) {
        headers = try RecordColumns.headers(
          ofColumns: UnsafeRawBufferPointer(start: storage.bytes, count: rawSize))
      } catch {
        throw damaged(info, "the records' columns are malformed: \(error.message)")
      }
    } else {
      let rows =
        self.rows.flatMap { $0.capacity >= rawSize ? $0 : nil }
        ?? FrameStorage(capacity: max(rawSize, 64 << 10))
      self.rows = rows
      try decompress(info, rawSize: rawSize, into: rows.bytes)
      do throws(CodecError) {
        let layout = try RecordColumns.split(
          UnsafeRawBufferPointer(start: rows.bytes, count: rawSize),
          count: Int(header.info.recordCount),
          into: UnsafeMutableRawBufferPointer(start: storage.bytes, count: room))
        storage.count = layout.columns.upperBound
        headers = layout.headers
      } catch {
        throw damaged(info, "the records are malformed: \(error.message)")
      }
    }
    return FrameView(info: info, snapshots: header.snapshots, storage: storage, headers: headers)
  }

  /// What the frame `info` locates decompresses to, checked as ``load(_:checkingContent:)``
  /// checks it (its content checksum included) before its records are read: the records
  /// as the writer compressed them.
  func content(of info: FrameInfo) throws(JournalError) -> [UInt8] {
    let header = try read(info)
    try decompressor.checksContent(true)
    let content = FrameStorage(capacity: Int(header.rawSize))
    try decompress(info, rawSize: Int(header.rawSize), into: content.bytes)
    return Array(UnsafeRawBufferPointer(start: content.bytes, count: Int(header.rawSize)))
  }

  /// Decompresses the data of the frame ``read(_:dataToo:)`` read (`info`) into
  /// `destination`, which has room for `rawSize` bytes (the header's), and checks that
  /// it fills them.
  private func decompress(
    _ info: FrameInfo, rawSize: Int, into destination: UnsafeMutableRawPointer
  )
    throws(JournalError)
  {
    let dataRange = Int(info.headerSize)..<(Int(info.headerSize) + Int(info.compressedSize))
    let produced: Int
    do throws(JournalError) {
      produced = try compressed.withBytes { all throws(JournalError) in
        let data = UnsafeRawBufferPointer(rebasing: all[dataRange])
        // A frame may omit its content size (FORMAT.md); one it declares must be rawSize.
        if let declared = ZstdDecompressor.declaredContentSize(data), declared != UInt64(rawSize) {
          throw JournalError(
            .corruptFrame,
            "the zstd frame declares \(declared) bytes, not the header's \(rawSize)")
        }
        return try decompressor.decompress(
          data, into: UnsafeMutableRawBufferPointer(start: destination, count: rawSize))
      }
    } catch {
      throw damaged(info, "cannot decompress the data: \(error.message)", cause: error.cause)
    }
    guard produced == rawSize else {
      throw damaged(info, "the data decompresses to \(produced) bytes, not \(rawSize)")
    }
  }

  /// Reads a frame's header (and its compressed data, unless `dataToo` is false) into
  /// ``compressed`` and checks both against the index entry and the checksums.
  func read(_ info: FrameInfo, dataToo: Bool = true) throws(JournalError)
    -> FrameHeader
  {
    let headerSize = Int(info.headerSize)
    let total = dataToo ? headerSize + Int(info.compressedSize) : headerSize
    guard headerSize >= 8, headerSize - 8 <= JournalLimits.maximumMetadataSize,
      Int(info.compressedSize) <= JournalLimits.maximumCompressedFrameSize
    else { throw damaged(info, "the frame's declared sizes are beyond the limits") }
    if compressed.count < total {
      compressed = [UInt8](repeating: 0, count: total)
    }
    let read: Int
    if let file {
      read = try compressed.withMutableBytes { buffer throws(JournalError) in
        try file.read(
          into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<total]), at: info.offset)
      }
    } else if let source {
      // A source gives the whole frame: its header and its data.
      let bytes = try source.frameBytes(info)
      read = min(bytes.count, total)
      compressed.replaceSubrange(0..<read, with: bytes[..<read])
    } else {
      read = 0
    }
    guard read == total else {
      throw damaged(info, "the file ends inside the frame (it was cut short)")
    }
    do throws(CodecError) {
      return try compressed.withBytes { all throws(CodecError) in
        let (magic, payloadSize) = MetadataFrame.prefix(all)
        guard magic == JournalFormat.metadataMagic, Int(payloadSize) + 8 == headerSize else {
          throw CodecError(.invalidValue, "no frame header at this offset", at: 0)
        }
        let (tag, body) = try MetadataFrame.open(
          UnsafeRawBufferPointer(rebasing: all[8..<headerSize]))
        guard tag == JournalFormat.Tag.frame.rawValue else {
          throw CodecError(.invalidValue, "no frame header at this offset", at: 8)
        }
        let header = try FrameHeader.decode(
          body: body, offset: info.offset, headerSize: info.headerSize, withSnapshots: true)
        guard header.info.number == info.number else {
          throw CodecError(
            .invalidValue, "the frame header says it is frame \(header.info.number)", at: 4)
        }
        guard header.info == info else {
          throw CodecError(.invalidValue, "the frame header disagrees with the index", at: 12)
        }
        if dataToo {
          let data = UnsafeRawBufferPointer(rebasing: all[headerSize..<total])
          let checksum = XXH64.checksum32(data)
          guard checksum == header.compressedChecksum else {
            throw CodecError(
              .invalidValue,
              "checksum mismatch in the compressed data (stored \(MetadataFrame.hex(header.compressedChecksum)), computed \(MetadataFrame.hex(checksum)))",
              at: headerSize)
          }
        }
        return header
      }
    } catch {
      // The message says what is wrong; the location is the frame's.
      throw damaged(info, error.message)
    }
  }

  /// The frame's bytes as the file holds them, its header frame then its data frame,
  /// checked as ``read(_:dataToo:)`` checks them (nothing is decompressed).
  func bytes(of info: FrameInfo) throws(JournalError) -> [UInt8] {
    _ = try read(info)
    return Array(compressed[..<(Int(info.headerSize) + Int(info.compressedSize))])
  }

  /// A ``JournalError/Code/corruptFrame`` naming the frame, its events and its offset.
  func damaged(_ info: FrameInfo, _ message: String, cause: JournalError.Cause? = nil)
    -> JournalError
  {
    JournalError(
      .corruptFrame, message, path: path, frame: info.number,
      sequenceRange: info.sequenceRange, byteOffset: info.offset, cause: cause)
  }
}
