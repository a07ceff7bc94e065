/// A whole journal examined frame by frame, without trusting its index: what
/// ``Journal/verify(path:progress:)`` reports and ``Journal/recover(path:output:salvage:progress:)``
/// repairs.
///
/// The header is read, from a copy if it is damaged; if neither it nor a copy is intact,
/// the frames are still found (from the first frame header in the file) and checked.
struct JournalScan {
  /// What checking one data frame found.
  enum FrameCheck {
    /// The frame decodes and follows every rule: its events and snapshots.
    case good(records: UInt64, snapshots: Int)
    /// The frame is damaged. `whole` is true when its checksums verify (its bytes are as
    /// written) and only its contents break a rule.
    case damaged(JournalError, whole: Bool)

    var isGood: Bool {
      if case .good = self { return true }
      return false
    }
  }

  let file: JournalFile
  let fileSize: UInt64
  /// The header as found, nil when neither it nor a copy is intact.
  let header: JournalLayout.FoundHeader?
  /// Why the header could not be read at all.
  let headerFailure: JournalError?
  let frames: [FrameInfo]
  let lostRanges: [ClosedRange<UInt64>]
  /// The end of the last frame or marker.
  let dataEnd: UInt64
  let tail: JournalCondition.TornTail?
  let damage: [JournalCondition.Damage]
  /// Where the walk stepped over index frames.
  let indexOffsets: [UInt64]
  /// The check of each of ``frames``.
  let checks: [FrameCheck]

  /// Reads the header, walks the frames and checks each one.
  /// - Parameter progress: called after each frame with the frames done and the total.
  /// - Throws: ``JournalError`` when the file cannot be read, is not a journal, or is of a
  ///   newer format.
  init(file: JournalFile, progress: (Int, Int) -> Void) throws(JournalError) {
    self.file = file
    fileSize = try file.size()
    var start: UInt64
    do {
      let found = try JournalLayout.readHeader(file, fileSize: fileSize)
      header = found
      headerFailure = nil
      start = found.end
    } catch  where error.code == .corruptHeader {
      header = nil
      headerFailure = error
      var finder = FrameWalker(file: file, fileSize: fileSize, start: 0)
      start = try finder.resynchronize(after: 0)?.offset ?? fileSize
    }
    var walker = FrameWalker(file: file, fileSize: fileSize, start: start)
    try walker.walk()
    frames = walker.frames
    lostRanges = walker.lostRanges
    dataEnd = walker.dataEnd
    tail = walker.tail
    damage = walker.damage
    indexOffsets = walker.indexOffsets
    let loader = try FrameLoader(file: file)
    var checks: [FrameCheck] = []
    checks.reserveCapacity(walker.frames.count)
    for (index, info) in walker.frames.enumerated() {
      do throws(JournalError) {
        let counts = try Journal.verifyFrame(info, loader: loader)
        checks.append(.good(records: counts.records, snapshots: counts.snapshots))
      } catch {
        let whole = (try? loader.read(info)) != nil
        checks.append(.damaged(error, whole: whole))
      }
      progress(index + 1, walker.frames.count)
    }
    self.checks = checks
  }

  /// The header's end: where the frames may begin.
  var headerEnd: UInt64 { header?.end ?? 0 }

  /// The valid index and where it starts, or why there is none.
  func index() throws(JournalError) -> Result<(JournalIndex, UInt64), JournalLayout.IndexUnusable> {
    try JournalLayout.readIndex(file, fileSize: fileSize, after: headerEnd)
  }
}
