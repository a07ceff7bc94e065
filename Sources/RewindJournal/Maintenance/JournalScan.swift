/// A whole journal examined frame by frame, without trusting its index: what
/// ``Journal/verify(path:progress:)`` reports and ``Journal/recover(path:output:salvage:progress:)``
/// repairs.
///
/// The header is read, from a copy if it is damaged; if neither it nor a copy is intact,
/// the frames are still found (from the first frame header in the file) and checked.
package struct JournalScan {
  /// What checking one data frame found.
  package enum FrameCheck: Sendable {
    /// The frame decodes and follows every rule: its events and snapshots.
    case good(records: UInt64, snapshots: Int)
    /// The frame is damaged. `whole` is true when its checksums verify (its bytes are as
    /// written) and only its contents break a rule.
    case damaged(JournalError, whole: Bool)

    package var isGood: Bool {
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
  /// The bytes at the end that are not a whole frame. Its events are those its frame
  /// header tells, or, when that header is damaged too, those a valid index lists there.
  let tail: JournalCondition.TornTail?
  /// Whether ``tail`` starts at a damaged index or trailer: the end of a journal, not a
  /// frame cut short.
  var tailIsDamagedIndex: Bool { tail?.isDamagedEnd ?? false }
  /// The index, and where it starts, of the trailer ``tail`` follows: the journal was
  /// closed, then written past (`JournalLayout.writtenPast(_:_:after:)`); nil for any
  /// other tail.
  private let indexBeforeTail: (JournalIndex, UInt64)?
  /// Whether ``tail`` follows a valid trailer.
  var tailFollowsTrailer: Bool { indexBeforeTail != nil }
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
    try self.init(file: file, progress: progress, checkAll: { _ in nil }, each: { _, _ in nil })
  }

  /// Reads the header, walks the frames and checks each one, handing each frame's
  /// decompressed view on to `each` (the one decompression of the frame).
  /// - Parameters:
  ///   - progress: called after each frame with the frames done and the total.
  ///   - checkAll: called once the frames are found, with them: the checks of all of
  ///     them, in order, as ``Journal/checkFrame(_:loader:)`` makes them (calling
  ///     `progress` itself), or nil to have them checked here one by one.
  ///   - each: called when a frame is checked here, with its view (nil when it cannot be
  ///     loaded: its header, checksums or data are damaged): as soon as it is loaded,
  ///     before its records are checked, which it may walk for the check (the `walked`
  ///     of ``Journal/checkFrame(_:loader:walked:)``).
  init(
    file: JournalFile, progress: (Int, Int) -> Void,
    checkAll: ([FrameInfo]) -> [FrameCheck]?,
    each: (FrameInfo, FrameView?) -> UInt64?
  ) throws(JournalError) {
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
    damage = walker.damage
    var tail = walker.tail
    if let found = tail, found.sequenceRange == nil,
      case .success(let (index, indexOffset)) = try JournalLayout.readIndex(
        file, fileSize: fileSize, after: header?.end ?? 0),
      let hidden = Self.framesHidden(
        from: index, at: indexOffset, walked: walker.frames, lostRanges: walker.lostRanges,
        dataEnd: walker.dataEnd, damage: walker.damage, tail: found),
      let first = hidden.first(where: { $0.offset >= found.offset }), let last = hidden.last
    {
      // A damaged frame header at the end of a closed journal: its index tells the events.
      tail?.sequenceRange = first.firstSequence...last.lastSequence
    }
    let pastTrailer = try JournalLayout.writtenPast(tail, file, after: header?.end ?? 0)
    indexBeforeTail = pastTrailer?.index
    self.tail = pastTrailer?.tail ?? tail
    indexOffsets = walker.indexOffsets
    if let checks = checkAll(walker.frames), checks.count == walker.frames.count {
      self.checks = checks
      return
    }
    // Without a header, the frames are read as this version writes them.
    let loader = try FrameLoader(
      file: file, version: header?.header.formatVersion ?? JournalFormat.version)
    var checks: [FrameCheck] = []
    checks.reserveCapacity(walker.frames.count)
    for (index, info) in walker.frames.enumerated() {
      var handedOn = false
      let (view, check) = Journal.checkFrame(info, loader: loader) { view in
        handedOn = true
        return each(info, view)
      }
      checks.append(check)
      if !handedOn { _ = each(info, view) }
      progress(index + 1, walker.frames.count)
    }
    self.checks = checks
  }

  /// The header's end: where the frames may begin.
  var headerEnd: UInt64 { header?.end ?? 0 }

  /// The frames a valid `index` lists that the walk did not find because damage or the
  /// torn tail covers their headers, in file order; nil when the index disagrees with the
  /// walk otherwise (a frame it lacks or states differently, other lost ranges, an index
  /// elsewhere).
  func framesHidden(from index: JournalIndex, at indexOffset: UInt64) -> [FrameInfo]? {
    Self.framesHidden(
      from: index, at: indexOffset, walked: frames, lostRanges: lostRanges, dataEnd: dataEnd,
      damage: damage, tail: tail)
  }

  private static func framesHidden(
    from index: JournalIndex, at indexOffset: UInt64, walked: [FrameInfo],
    lostRanges: [ClosedRange<UInt64>], dataEnd: UInt64, damage: [JournalCondition.Damage],
    tail: JournalCondition.TornTail?
  ) -> [FrameInfo]? {
    guard index.lostRanges == lostRanges,
      indexOffset == dataEnd || tail.map({ $0.offset <= indexOffset }) == true
    else { return nil }
    var listed: [UInt64: FrameInfo] = [:]
    for frame in index.frames { listed[frame.offset] = frame }
    for frame in walked where listed.removeValue(forKey: frame.offset) != frame { return nil }
    let hidden = listed.values.sorted { $0.offset < $1.offset }
    for frame in hidden {
      let covered =
        damage.contains { $0.byteRange.contains(frame.offset) }
        || tail.map { frame.offset >= $0.offset } == true
      guard covered else { return nil }
    }
    return hidden
  }

  /// The valid index and where it starts, or why there is none.
  func index() throws(JournalError) -> Result<(JournalIndex, UInt64), JournalLayout.IndexUnusable> {
    if let indexBeforeTail { return .success(indexBeforeTail) }
    return try JournalLayout.readIndex(file, fileSize: fileSize, after: headerEnd)
  }
}
