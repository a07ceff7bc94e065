/// The one writer of a journal: appends records, batches them into zstd frames of about
/// ``JournalWriterOptions/frameSize`` bytes, stores the snapshots its caller supplies, and
/// writes the index on close.
///
/// Durability: a frame is written with one `pwrite` when it is sealed and, by default,
/// `fsync`ed at once; ``flush()`` seals the frame being filled and `fsync`s, so that
/// everything appended before it returns survives a crash or `kill -9`. A failed write
/// leaves the file as it was (the partial write is truncated away) and keeps the records
/// in memory, so that the next call retries; a failed `fsync` makes the writer unusable,
/// since the kernel may have dropped the data.
///
/// Only one writer may hold a journal: the advisory lock taken at creation or opening
/// makes a second writer fail with ``JournalError/Code/locked``. A `JournalWriter` is not
/// thread-safe; use it from one thread or task at a time.
public final class JournalWriter {
  /// The journal's path.
  public let path: String
  /// The journal's header.
  public let header: JournalHeader
  public let options: JournalWriterOptions

  let file: JournalFile
  let compressor: ZstdCompressor

  // The frame being filled: its records and counters live behind `open` (see
  // `OpenFrame`), its snapshots here.
  @usableFromInline let open: UnsafeMutablePointer<OpenFrame>
  let rawCapacity: Int
  var frameSnapshots: [StoredSnapshot] = []
  /// About how many bytes `frameSnapshots` take in the frame header.
  var frameSnapshotBytes = 0

  // The journal.
  /// The sequence number of the last record appended (0 before the first).
  @inlinable public var lastSequence: UInt64 { open.pointee.lastSequence }
  /// The timestamp of the last record appended, microseconds since the session start.
  @inlinable public var lastTime: UInt64 { open.pointee.lastTime }
  /// The frames written so far.
  public internal(set) var frames: [FrameInfo]
  var lostRanges: [ClosedRange<UInt64>]
  /// Where the next frame goes.
  var fileEnd: UInt64
  /// Bytes after `fileEnd` (an old index) to cut before the first write.
  var needsTruncation: Bool
  var output: [UInt8] = []
  /// Where frames are compressed, reused.
  var compressed: [UInt8] = []
  /// The error that stopped the writer, if one did.
  var failure: JournalError? {
    didSet { open.pointee.isUsable = failure == nil && !isClosed }
  }
  var isClosed = false {
    didSet { open.pointee.isUsable = failure == nil && !isClosed }
  }

  init(
    path: String, header: JournalHeader, options: JournalWriterOptions, file: JournalFile,
    layout: JournalLayout?
  ) throws(JournalError) {
    self.path = path
    self.header = header
    self.options = options
    self.file = file
    self.compressor = try ZstdCompressor(level: options.compressionLevel)
    rawCapacity = options.frameSize + JournalLimits.maximumPayloadSize + 32
    let frames = layout?.frames ?? []
    let lostRanges = layout?.lostRanges ?? []
    self.frames = frames
    self.lostRanges = lostRanges
    open = UnsafeMutablePointer<OpenFrame>.allocate(capacity: 1)
    open.initialize(
      to: OpenFrame(
        capacity: rawCapacity, frameSize: options.frameSize,
        snapshotInterval: header.snapshotInterval,
        lastSequence: max(frames.last?.lastSequence ?? 0, lostRanges.last?.upperBound ?? 0),
        lastTime: frames.last?.lastTime ?? 0))
    fileEnd = layout?.dataEnd ?? 0
    needsTruncation = layout.map { $0.dataEnd < $0.fileSize } ?? false
  }

  deinit {
    open.deinitialize(count: 1)
    open.deallocate()
    if !isClosed { FileLock.release(file) }
  }

  /// Creates a new journal at `path` and writes its header.
  ///
  /// - Parameters:
  ///   - replacingExisting: replace a file already at `path` (after taking its lock, so a
  ///     journal being written is never replaced); otherwise an existing file is an error.
  /// - Throws: ``JournalError`` if the file exists (and may not be replaced), is locked,
  ///   or cannot be written; or if the header or options are invalid.
  public static func create(
    at path: String, header: JournalHeader, options: JournalWriterOptions = .init(),
    replacingExisting: Bool = false
  ) throws(JournalError) -> JournalWriter {
    try options.validate()
    try header.validate()
    var header = header
    header.formatVersion = JournalFormat.version
    let file = try createFile(at: path, replacingExisting: replacingExisting, options: options)
    let writer = try JournalWriter(
      path: path, header: header, options: options, file: file, layout: nil)
    let bytes = header.encoded()
    try bytes.withBytes { buffer throws(JournalError) in
      try file.write(buffer, at: 0)
    }
    writer.fileEnd = UInt64(bytes.count)
    if options.durability != .none { try file.sync() }
    return writer
  }

  /// Creates and locks a new file, or locks and empties an existing one if allowed.
  private static func createFile(
    at path: String, replacingExisting: Bool, options: JournalWriterOptions
  ) throws(JournalError) -> JournalFile {
    do {
      let file = try JournalFile(path: path, mode: .create, system: options.system)
      try FileLock.acquire(file)
      return file
    } catch let error where error.code == .alreadyExists && replacingExisting {
      let file = try JournalFile(path: path, mode: .update, system: options.system)
      try FileLock.acquire(file)
      try file.truncate(to: 0)
      return file
    }
  }

  /// Opens an existing journal to append to it, continuing after its last record.
  ///
  /// The index a closed journal ends with is cut away before the first new frame is
  /// written, and written anew on close.
  ///
  /// - Parameters:
  ///   - domain: the domain the caller writes; a journal of another domain is refused.
  ///   - schemaVersion: the schema the caller writes; it must equal the journal's.
  /// - Throws: ``JournalError`` with ``JournalError/Code/wrongDomain``,
  ///   ``JournalError/Code/unsupportedVersion``, ``JournalError/Code/locked``, or
  ///   ``JournalError/Code/tornTail`` / ``JournalError/Code/corruptFrame`` when the journal
  ///   needs `recover` first.
  public static func open(
    at path: String, domain: String, schemaVersion: UInt32,
    options: JournalWriterOptions = .init()
  ) throws(JournalError) -> JournalWriter {
    try options.validate()
    let file = try JournalFile(path: path, mode: .update, system: options.system)
    try FileLock.acquire(file)
    let layout = try JournalLayout.read(file, trustIndex: true)
    let header = layout.header
    guard header.domain == domain else {
      throw JournalError(
        .wrongDomain,
        "journal records the '\(header.domain)' domain; this writer writes '\(domain)'",
        path: path)
    }
    guard header.schemaVersion == schemaVersion else {
      throw JournalError(
        .wrongDomain,
        "journal uses schema version \(header.schemaVersion) of '\(domain)'; this writer writes version \(schemaVersion), and one journal never mixes two",
        path: path)
    }
    if let tail = layout.tail {
      throw JournalError(
        .tornTail,
        "the journal ends in \(tail.length) bytes that are not a whole frame (\(tail.reason)); run `rewind recover` on it before appending",
        path: path, byteOffset: tail.offset)
    }
    if let damage = layout.damage.first {
      throw JournalError(
        .corruptFrame,
        "the journal is damaged (\(damage.reason)); run `rewind recover --salvage` on it before appending",
        path: path, sequenceRange: damage.sequenceRange, byteOffset: damage.byteRange.lowerBound)
    }
    return try JournalWriter(
      path: path, header: header, options: options, file: file, layout: layout)
  }
}
