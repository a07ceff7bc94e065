#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a journal: its header, the frames that hold any sequence number or time, the
/// snapshots to start from, and the records, streaming one frame at a time.
///
/// Opening reads the header and the index (or, for a journal that was not closed, walks
/// the frame headers); it never decompresses a frame. Reading a frame checks the
/// checksum of its compressed bytes before decompressing (zstd's content checksum after
/// it is checked where frames are verified: the bytes checked, what they decompress to
/// is what the writer compressed), and every size it declares against
/// ``JournalLimits``, so that damaged or hostile bytes end in a ``JournalError`` with
/// bounded memory.
///
/// A reader is not thread-safe; open one per thread. Any number of readers may read a
/// journal while its writer appends (they see the frames sealed when they opened it).
public final class JournalReader {
  /// How a reader treats damage.
  public struct Options: Sendable {
    /// Skip damaged frames when iterating instead of stopping with an error.
    public var salvage: Bool
    /// Use the index when a valid one ends the file (otherwise always walk); the tests
    /// turn it off to compare the two ways of opening.
    package var useIndex: Bool
    package var system: FileSystemCalls

    public init(salvage: Bool = false) {
      self.init(salvage: salvage, useIndex: true)
    }

    package init(salvage: Bool = false, useIndex: Bool) {
      self.salvage = salvage
      self.useIndex = useIndex
      self.system = .live
    }
  }

  public let path: String
  public let options: Options
  /// The file; nil for a journal whose frames come from a ``FrameSource``.
  let storedFile: JournalFile?
  /// The file of a reader of a file (the package's tests read it directly).
  var file: JournalFile {
    guard let storedFile else { preconditionFailure("\(path) is read from a FrameSource") }
    return storedFile
  }
  let layout: JournalLayout
  let loader: FrameLoader
  private var cachedFrame: (index: Int, view: FrameView)?

  /// Opens the journal at `path` for reading.
  /// - Throws: ``JournalError`` if the file is missing, is not a journal, has a damaged
  ///   header or a newer format version. A torn tail or damage does not throw: see
  ///   ``condition``.
  public init(path: String, options: Options = Options()) throws(JournalError) {
    self.path = path
    self.options = options
    let file = try JournalFile(path: path, mode: .read, system: options.system)
    storedFile = file
    layout = try JournalLayout.read(file, trustIndex: options.useIndex)
    loader = try FrameLoader(file: file, version: layout.header.formatVersion)
  }

  /// A second reader of the journal `other` reads, for another thread: it opens the file
  /// again but takes `other`'s frames as they are, so that both see the same journal
  /// (the frames sealed when `other` opened it) without reading the index twice.
  /// - Throws: ``JournalError`` if the file cannot be opened again.
  package init(sharing other: JournalReader) throws(JournalError) {
    path = other.path
    options = other.options
    layout = other.layout
    if let source = other.loader.source {
      storedFile = nil
      loader = try FrameLoader(
        source: try source.another(), path: path, version: layout.header.formatVersion)
    } else {
      let file = try JournalFile(path: path, mode: .read, system: options.system)
      storedFile = file
      loader = try FrameLoader(file: file, version: layout.header.formatVersion)
    }
  }

  /// A reader of a journal whose frames are not in a file: `source` gives them (a stream
  /// store), `headerBody` is the header's body and `frames` the frames in order (their
  /// numbers and offsets are set here: those of a file holding the header, its copy and
  /// the frames). Each frame is fetched when it is read, and checked as a file's is.
  /// - Parameters:
  ///   - name: the journal's name in messages and errors (a URL).
  ///   - isClosed: whether the journal was closed (all its frames are there).
  /// - Throws: ``JournalError`` for a header that cannot be read or an index entry that
  ///   is inconsistent (no records, sequences or times out of order).
  package init(
    name: String, headerBody: [UInt8], frames: [FrameInfo], isClosed: Bool,
    isIncompletePush: Bool = false, source: any FrameSource
  ) throws(JournalError) {
    path = name
    options = Options()
    storedFile = nil
    let header = try JournalLayout.decodeHeader(headerBody, path: name)
    let headerSize = UInt64(2 * (headerBody.count + 16))
    var frames = frames
    var end = headerSize
    for index in frames.indices {
      // A store's index is checked as a file's is: a reader never trusts one.
      guard frames[index].isConsistent(after: index == 0 ? nil : frames[index - 1]) else {
        throw JournalError(
          .corruptFrame, "the index's entry for frame \(index) is inconsistent", path: name,
          frame: index)
      }
      frames[index].number = index
      frames[index].offset = end
      end = frames[index].endOffset
    }
    var layout = JournalLayout(
      header: header, headerBody: headerBody, headerSize: headerSize, headerDamage: nil,
      frames: frames, lostRanges: [], dataEnd: end, fileSize: end, source: .index,
      hasTrailer: isClosed, tail: nil, damage: [])
    layout.isIncompletePush = isIncompletePush && !isClosed
    self.layout = layout
    loader = try FrameLoader(source: source, path: name, version: header.formatVersion)
  }

  /// The journal's header.
  public var header: JournalHeader { layout.header }
  /// The data frames in file order.
  public var frames: [FrameInfo] { layout.frames }
  /// Whether the journal was closed, and any damage found on opening.
  public var condition: JournalCondition { layout.condition }
  /// The size of the file in bytes.
  public var fileSize: UInt64 { layout.fileSize }

  /// The process writing the journal now, if one holds its write lock: a journal that
  /// is not closed (``JournalCondition/openedFromIndex`` false) and has none was left by a
  /// writer that stopped without closing it (killed, crashed, or the machine lost power).
  /// - Complexity: one or two `fcntl` calls; no lock is taken.
  public func currentWriter() -> LockHolder? { storedFile.flatMap { FileLock.writer(of: $0) } }

  /// The number of records that can be read.
  public var recordCount: UInt64 { frames.reduce(0) { $0 + UInt64($1.recordCount) } }
  /// The sequence number of the last record (0 for an empty journal).
  public var lastSequence: UInt64 {
    max(frames.last?.lastSequence ?? 0, layout.lostRanges.last?.upperBound ?? 0)
  }
  /// The time of the last record, microseconds since the session start (0 if empty).
  public var lastTime: UInt64 { frames.last?.lastTime ?? 0 }
  /// The time of the first record.
  public var firstTime: UInt64 { frames.first?.firstTime ?? 0 }

  /// The size in bytes of the file at `path` now (`stat`): how a reader following a
  /// journal that another process writes sees that it grew, without opening it again.
  ///
  /// - Returns: the size, or why it cannot be told, naming `path` with the system's
  ///   error: ``JournalError/Code/notFound`` when there is no file there (`ENOENT`, or
  ///   `ENOTDIR`: a directory on the way is now a file), ``JournalError/Code/io`` for any
  ///   other (`EACCES`, `ELOOP`, `EIO`), which says nothing of whether the file is there.
  package static func currentSize(ofFileAt path: String, system: FileSystemCalls = .live)
    -> Result<UInt64, JournalError>
  {
    var status = stat()
    guard system.stat(path, &status) != 0 else { return .success(UInt64(status.st_size)) }
    let number = errno
    let missing = number == ENOENT || number == ENOTDIR
    return .failure(
      JournalError(
        missing ? .notFound : .io, missing ? "no such file" : "cannot tell the file's size",
        path: path, cause: errnoCause(number)))
  }

  /// The index of the frame holding event `sequence`, or nil if no frame does.
  /// - Complexity: O(log frames).
  public func frameIndex(containing sequence: UInt64) -> Int? {
    var low = 0
    var high = frames.count
    while low < high {
      let middle = (low + high) / 2
      if frames[middle].lastSequence < sequence { low = middle + 1 } else { high = middle }
    }
    guard low < frames.count, frames[low].firstSequence <= sequence else { return nil }
    return low
  }

  /// The events lost to damage, if `sequence` is one of them.
  package func lostRange(containing sequence: UInt64) -> ClosedRange<UInt64>? {
    layout.lostRanges.first { $0.contains(sequence) }
  }

  /// The events lost to damage (salvaged away), in order.
  package var lostRanges: [ClosedRange<UInt64>] { layout.lostRanges }

  /// The sequence number of the last event at or before `time` (0 if none is).
  /// - Complexity: O(log frames), plus decoding one frame when `time` falls inside it.
  package func lastSequence(atOrBefore time: UInt64) throws(JournalError) -> UInt64 {
    var low = 0
    var high = frames.count
    while low < high {
      let middle = (low + high) / 2
      if frames[middle].firstTime <= time { low = middle + 1 } else { high = middle }
    }
    guard low > 0 else { return 0 }
    let frame = frames[low - 1]
    if frame.lastTime <= time { return frame.lastSequence }
    var cursor = try loadFrame(low - 1).records()
    var found = frame.firstSequence - 1
    while let record = try cursor.next(), record.time <= time { found = record.sequence }
    return found
  }

  /// Where to start to reach the state after event `sequence`: the latest snapshot at or
  /// before it (nil for the initial state) and the frame whose records follow it.
  ///
  /// For a journal whose writer supplied the snapshots ``JournalWriter/needsSnapshot``
  /// asks for, the start is in the frame holding `sequence` itself.
  /// - Complexity: O(log frames) and one frame read.
  package func startingPoint(for sequence: UInt64) throws(JournalError) -> StartingPoint {
    guard sequence > 0 else { return StartingPoint(frameIndex: 0, snapshot: nil) }
    guard var index = frameIndex(containing: sequence) else {
      throw JournalError(
        .outOfRange, "no frame holds event \(sequence)", path: path,
        sequenceRange: sequence...sequence)
    }
    while true {
      let snapshots = try frameHeader(index).snapshots
      if let snapshot = snapshots.last(where: { $0.snapshot.sequence <= sequence }) {
        return StartingPoint(frameIndex: index, snapshot: snapshot)
      }
      if index == 0 { return StartingPoint(frameIndex: 0, snapshot: nil) }
      index -= 1
    }
  }

  /// The decompressed, checked frame at `index` in ``frames``.
  ///
  /// The most recently loaded frame is kept, so asking again costs nothing.
  /// - Throws: ``JournalError/Code/corruptFrame`` naming the frame, its events and its
  ///   offset when its header, checksum or contents are wrong; I/O errors.
  public func loadFrame(_ index: Int) throws(JournalError) -> FrameView {
    precondition(frames.indices.contains(index), "frame \(index) is not in 0..<\(frames.count)")
    if let cached = cachedFrame, cached.index == index { return cached.view }
    cachedFrame = nil
    let view = try loader.load(frames[index])
    cachedFrame = (index, view)
    return view
  }

  /// What the data frame at `index` in ``frames`` decompresses to: its records as rows
  /// (format 1), or as columns (format 2; `RecordColumns`), as the writer compressed them.
  package func decompressedContent(ofFrame index: Int) throws(JournalError) -> [UInt8] {
    try loader.content(of: frames[index])
  }

  /// The frame at `index` in ``frames`` decompressed and checked as `rewind verify`
  /// checks it (its checksums, records and snapshots): its view, nil when it cannot be
  /// loaded, and what the check found. Nothing is kept: ``loadFrame(_:)`` loads it again.
  /// `walked`: as in `Journal.checkFrame(_:loader:walked:)`, a walk of the records of the
  /// frame once loaded, which returns their number when it found them intact.
  package func checkFrame(_ index: Int, walked: (FrameView) -> UInt64? = { _ in nil }) -> (
    view: FrameView?, check: JournalScan.FrameCheck
  ) {
    precondition(frames.indices.contains(index), "frame \(index) is not in 0..<\(frames.count)")
    cachedFrame = nil
    return Journal.checkFrame(frames[index], loader: loader, walked: walked)
  }

  /// The header of the frame at `index`, with its snapshots, without decompressing.
  package func frameHeader(_ index: Int) throws(JournalError) -> FrameHeaderView {
    precondition(frames.indices.contains(index), "frame \(index) is not in 0..<\(frames.count)")
    if let cached = cachedFrame, cached.index == index {
      return FrameHeaderView(info: cached.view.info, snapshots: cached.view.snapshots)
    }
    let info = frames[index]
    let header = try loader.read(info, dataToo: false)
    return FrameHeaderView(info: info, snapshots: header.snapshots)
  }
}

/// Where replay starts to reach a point: a snapshot (or the initial state) and the frame
/// whose records follow it.
package struct StartingPoint: Sendable {
  /// The frame to decode first.
  package var frameIndex: Int
  /// The snapshot to start from; nil means the initial state, from the first record.
  package var snapshot: StoredSnapshot?

  package init(frameIndex: Int, snapshot: StoredSnapshot?) {
    self.frameIndex = frameIndex
    self.snapshot = snapshot
  }
}

/// A frame's header: where it is and its snapshots.
package struct FrameHeaderView: Sendable {
  package var info: FrameInfo
  package var snapshots: [StoredSnapshot]
}
