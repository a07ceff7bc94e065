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
/// A journal is created either in place (``create(at:header:options:replacingExisting:)``,
/// for a live recording: a killed process leaves a journal `rewind recover` repairs) or
/// beside its path (``create(_:header:options:)``, for batch work: the journal appears at
/// its path, complete, only when ``close()`` succeeds, and a failure leaves the previous
/// file untouched and nothing behind).
///
/// Only one writer may hold a journal: the advisory lock taken at creation or opening
/// makes a second writer fail with ``JournalError/Code/locked``. A `JournalWriter` is not
/// thread-safe; use it from one thread or task at a time.
public final class JournalWriter {
  /// The journal's path.
  public let path: String
  /// The journal's header.
  public let header: JournalHeader
  /// The header's body as the file holds it, copied into the index on close.
  let headerBody: [UInt8]
  public let options: JournalWriterOptions

  let file: JournalFile
  /// The temporary file of a journal created with ``create(_:header:options:)``, moved
  /// to the journal's path on close; nil for a journal written in place.
  let pending: AtomicFileWriter?
  /// Whether this writer holds the journal's lock (a journal written in place).
  var isLocked: Bool
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
  /// Whether the journal's frames hold their records as columns (format 2; rows in
  /// format 1, whose journals a writer appends to as they are): `RecordColumns`.
  let splitsRecords: Bool
  /// Where a frame's records are laid out as columns before compressing, reused.
  var columns: [UInt8] = []
  /// The error that stopped the writer, if one did.
  var failure: JournalError? {
    didSet { open.pointee.isUsable = failure == nil && !isClosed }
  }
  var isClosed = false {
    didSet { open.pointee.isUsable = failure == nil && !isClosed }
  }

  init(
    path: String, header: JournalHeader, options: JournalWriterOptions, file: JournalFile,
    layout: JournalLayout?, pending: AtomicFileWriter? = nil
  ) throws(JournalError) {
    self.path = path
    self.header = header
    self.headerBody = layout?.headerBody ?? header.encodedBody()
    splitsRecords = header.formatVersion.holdsColumns
    self.options = options
    self.file = file
    self.pending = pending
    isLocked = pending == nil
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
    if isLocked { FileLock.release(file) }
  }
}
