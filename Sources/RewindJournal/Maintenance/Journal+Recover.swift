/// What ``Journal/recover(path:output:salvage:progress:)`` did.
public struct RecoveryReport: Sendable {
  /// The damaged journal.
  public var source: String
  /// Where the repaired journal is: the source's path when repaired in place, else the
  /// output asked for.
  public var output: String
  /// Where the damaged original was kept when the journal was repaired in place
  /// (`NAME.damaged`); nil when it was written elsewhere (the original is then left as
  /// it was) or when nothing had to change.
  public var originalKeptAt: String?
  public var keptFrames: Int
  public var keptRecords: UInt64
  /// The last event kept (0 if none).
  public var lastSequence: UInt64
  /// The events dropped: those of dropped frames and damaged bytes, and of a cut tail
  /// whose frame header tells them. (A tail cut inside a frame header holds events
  /// nobody can count: they were never acknowledged as durable.)
  public var droppedRecords: UInt64
  /// The bytes cut from the end: an incomplete frame or garbage.
  public var cutTail: JournalCondition.TornTail?
  /// Frames dropped because they failed their checksums (or, with salvage, broke a rule
  /// of the format or held content the deep check found wrong), with why.
  public var droppedFrames: [JournalError]
  /// The frames of ``droppedFrames`` that salvage dropped because the deep check found
  /// their content wrong: a record whose recorded effect does not read, a wrong snapshot
  /// whose right state replay cannot tell.
  public var droppedForContent: [JournalError] = []
  /// Snapshots that salvage wrote again from the replayed state (the deep check found
  /// them wrong), in frames it kept.
  public var replacedSnapshots: [ReplacedSnapshot] = []
  /// Events now marked as lost in the middle of the journal (salvage).
  public var lostRanges: [ClosedRange<UInt64>]
  /// The damaged header that was rebuilt from its copy, if it was.
  public var repairedHeader: JournalCondition.HeaderDamage?
  /// Damaged bytes between the frames whose loss loses no event (a damaged copy of the
  /// header, which the repaired journal has whole; bytes that are no frame; a frame
  /// repeating events kept): dropped.
  public var droppedDamage: [JournalCondition.Damage] = []
  /// Whether anything had to be written; false for a journal that was already whole.
  public var changed: Bool
}

extension Journal {
  /// Repairs a journal after a crash or damage, writing the repaired journal as a new
  /// file (`AtomicFileWriter`): the damaged original is never half rewritten.
  ///
  /// Every frame is decompressed and checked first. A torn tail (a partial frame, a
  /// partial metadata frame, frames at the end that fail their checksums, or garbage
  /// after the last whole frame) is cut; damaged bytes that held no events (a damaged
  /// copy of the header, say) are dropped; a damaged header is rebuilt from its copy; a
  /// fresh index is written, so the journal opens without walking.
  ///
  /// Without `salvage`, recovery never drops a frame whose checksums verify, nor events
  /// with good frames after them: damage in the middle, or a whole frame that breaks a
  /// rule of the format, stops it with an error naming the frame and its events. With
  /// `salvage` such frames and damaged bytes are dropped, the events they held are marked
  /// lost in the journal, and the events after them are kept.
  ///
  /// - Parameters:
  ///   - path: the journal to repair.
  ///   - output: write the repaired journal here and leave the original untouched; it
  ///     must not exist and must not be the journal (under any name). Without it the
  ///     journal is repaired in place and the damaged original is kept beside it as
  ///     `PATH.damaged` (which must not exist, unless it is the journal itself under a
  ///     second name, as a recovery cut short by a power loss leaves it).
  ///   - salvage: drop damaged frames with good frames after them, marking their events
  ///     lost; without it such damage stops recovery.
  ///   - progress: called after each frame is checked, with the frames done and the total.
  /// - Throws: ``JournalError`` if the journal cannot be read at all (or its header is
  ///   damaged and no copy is intact), is being written (locked), has damage that only
  ///   `salvage` may drop, or the repaired journal cannot be written (the original is
  ///   then untouched and nothing is left behind).
  public static func recover(
    path: String, output: String? = nil, salvage: Bool = false,
    progress: (Int, Int) -> Void = { _, _ in }
  ) throws(JournalError) -> RecoveryReport {
    try recover(path: path, output: output, salvage: salvage, system: .live, progress: progress)
  }

  /// ``recover(path:output:salvage:progress:)`` through `system`, with the repairs the
  /// deep check asks for (salvage only).
  ///
  /// - Parameter replacingOutput: a file already at `output` may be replaced (a regular
  ///   file that is not the journal, under any name); without it one is an error.
  /// - Parameter repairs: by a frame's byte offset, what to do with a whole frame whose
  ///   content the deep check (which reads it with the journal's domain) found wrong:
  ///   drop it like a damaged frame, marking its events lost, or keep its events and
  ///   write its header again with some snapshots replaced. Frames it does not name are
  ///   kept as the storage checks decide.
  /// - Precondition: `repairs` is empty unless `salvage` is set.
  package static func recover(
    path: String, output: String?, replacingOutput: Bool = false, salvage: Bool,
    repairs: [UInt64: ContentRepair] = [:], system: FileSystemCalls,
    progress: (Int, Int) -> Void = { _, _ in }
  ) throws(JournalError) -> RecoveryReport {
    precondition(salvage || repairs.isEmpty, "content repairs are salvage's")
    // Where the repaired journal goes, checked before any work.
    let destination: FileDestination
    let keptPath: String?
    if let output {
      destination = FileDestination(output, replacingExisting: replacingOutput, inputs: [path])
      _ = try destination.check(system: system)
      keptPath = nil
    } else {
      destination = FileDestination(path, replacingExisting: true)
      keptPath = path + ".damaged"
    }
    let file = try JournalFile(path: path, mode: .read, system: system)
    do {
      // A read lock keeps writers out while the journal is read.
      try FileLock.acquire(file, shared: true)
    } catch {
      var error = error
      if error.code == .locked { error.message += "; stop it before recovering the journal" }
      throw error
    }
    defer { FileLock.release(file) }
    // In place, one recovery at a time where the system allows (without, two are still
    // safe: see `isKept` and `checkStillThere`).
    if keptPath != nil { try FileLock.acquireRecovery(file) }
    let scan = try JournalScan(file: file, progress: progress)
    guard let found = scan.header else {
      var error = scan.headerFailure!
      error.message +=
        "; recovery needs the header (the journal's domain and settings) and found no intact copy of it"
      throw error
    }
    let plan = try RecoveryPlan(scan: scan, salvage: salvage, repairs: repairs, path: path)
    var report = RecoveryReport(
      source: path, output: destination.path, originalKeptAt: nil,
      keptFrames: plan.kept.count, keptRecords: plan.keptRecords,
      lastSequence: plan.kept.last?.lastSequence ?? 0, droppedRecords: plan.droppedRecords,
      cutTail: plan.cutTail, droppedFrames: plan.dropped,
      lostRanges: plan.gaps.filter { !scan.lostRanges.contains($0) },
      repairedHeader: found.damage, changed: true)
    report.droppedForContent = plan.droppedForContent
    report.droppedDamage = scan.damage.filter { $0.sequenceRange == nil }
    if output == nil, try plan.isWhole(scan) {
      report.changed = false
      // A hidden name an earlier recovery's power cut left (its original's, swapped out).
      AtomicFileWriter.clearLeftovers(beside: path, system: system)
      return report
    }
    let linkingOriginal = try keptPath.flatMap { keptPath throws(JournalError) in
      try isKept(file, at: keptPath, system: system) ? nil : keptPath
    }
    // The repaired journal is the journal: as private as it was (`-o` to a new file), from
    // the new file's creation (and narrowed again where the system made it with more).
    let permissions = file.permissions()
    let writer = try AtomicFileWriter(
      destination, system: system, permissions: permissions ?? 0o777)
    if let permissions { try writer.narrowPermissions(to: permissions) }
    report.replacedSnapshots = try write(
      found.body, plan.kept, lostRanges: plan.gaps, replacing: plan.replacements, from: file,
      to: writer)
    if keptPath != nil { try checkStillThere(file, system: system) }
    // In place, the repaired journal replaces only the file read: one a command put there
    // since (`--force`) is left as it was (the check above leaves a moment between).
    do {
      try writer.commit(
        syncing: true, keepingPreviousAt: linkingOriginal,
        replacingOnly: keptPath == nil ? nil : file.identity())
    } catch {
      // The journal replaced meanwhile, said as the check above says it.
      if error.code == .alreadyExists, keptPath != nil {
        try checkStillThere(file, system: system)
      }
      throw error
    }
    report.originalKeptAt = keptPath
    return report
  }

  /// Whether `keptPath` (`NAME.damaged`) names the journal read, `file`, already (false:
  /// nothing is there, and the commit links the original there).
  ///
  /// It does when the power failed after an in-place recovery linked the original there
  /// and before its rename reached the disk (the directory was not synced yet), or while
  /// another recovery is between the two: the commit then only moves the repaired journal
  /// in. The name is never removed: while another recovery is between its link and its
  /// rename, it is about to be the original's only name.
  ///
  /// - Throws: ``JournalError/Code/alreadyExists`` when another file is there (an earlier
  ///   recovery's original), or when the journal's path no longer names `file` (another
  ///   recovery moved its repaired journal there meanwhile).
  private static func isKept(_ file: JournalFile, at keptPath: String, system: FileSystemCalls)
    throws(JournalError) -> Bool
  {
    guard let kept = JournalFile.status(of: keptPath, system: system) else { return false }
    guard let identity = file.identity(), FileIdentity(kept) == identity else {
      throw JournalError(
        .alreadyExists,
        "the damaged original is to be kept here, but a file is already there (from an earlier recovery?); move it away, or write the repaired journal elsewhere with an output file (`rewind recover JOURNAL -o FILE`)",
        path: keptPath)
    }
    guard JournalFile.status(of: file.path, system: system).map(FileIdentity.init) == identity
    else {
      throw JournalError(
        .alreadyExists,
        "another recovery repaired the journal meanwhile (\(keptPath) is the damaged original this one read); nothing was changed",
        path: file.path)
    }
    return true
  }

  /// Throws unless the journal's path still names `file`, the journal read: what is kept
  /// as `NAME.damaged` is the file at the path when the repaired one replaces it, which
  /// must be the original read, not a file put there meanwhile.
  private static func checkStillThere(_ file: JournalFile, system: FileSystemCalls)
    throws(JournalError)
  {
    // (A path that cannot be looked at now is left to the commit, which fails on it.)
    guard let identity = file.identity(),
      let now = JournalFile.status(of: file.path, system: system).map(FileIdentity.init),
      now != identity
    else { return }
    throw JournalError(
      .alreadyExists,
      "the journal was replaced while it was recovered (by another recovery or command); nothing was changed: run recover again on the file now there",
      path: file.path)
  }

  /// The ranges of sequence numbers missing between consecutive frames (and before the
  /// first).
  static func gaps(between frames: [FrameInfo]) -> [ClosedRange<UInt64>] {
    var gaps: [ClosedRange<UInt64>] = []
    var next: UInt64 = 1
    for frame in frames {
      if frame.firstSequence > next { gaps.append(next...(frame.firstSequence - 1)) }
      next = frame.lastSequence + 1
    }
    return gaps
  }

  /// Writes a journal of `headerBody` (with its copy) and `frames` of `source`, with
  /// lost-range markers in the gaps, an index and a trailer.
  ///
  /// - Parameter replacements: by a frame's byte offset in `source`, snapshots (by the
  ///   event they follow) to write in its header in place of the stored ones.
  /// - Returns: the snapshots replaced, with the frames' numbers in the new journal.
  private static func write(
    _ headerBody: [UInt8], _ frames: [FrameInfo], lostRanges: [ClosedRange<UInt64>],
    replacing replacements: [UInt64: [UInt64: Snapshot]],
    from source: JournalFile, to output: AtomicFileWriter
  ) throws(JournalError) -> [ReplacedSnapshot] {
    var replaced: [ReplacedSnapshot] = []
    var body = headerBody
    // The journal gets the header's copies, which make it format 1.1 at least.
    if body.count >= 4, body[0] == 1, body[1] == 0, body[2] == 0, body[3] == 0 { body[2] = 1 }
    try output.write(
      MetadataFrame.encode(.header, body: body) + MetadataFrame.encode(.headerCopy, body: body))
    var written: [FrameInfo] = []
    var pendingGaps = lostRanges[...]
    for frame in frames {
      while let gap = pendingGaps.first, gap.upperBound < frame.firstSequence {
        try output.write(LostRangeMarker.encoded(gap))
        pendingGaps.removeFirst()
      }
      guard
        let headerBytes = try source.read(count: Int(frame.headerSize), at: frame.offset),
        let data = try source.read(count: Int(frame.compressedSize), at: frame.dataOffset)
      else {
        throw JournalError(
          .io, "frame \(frame.number) cannot be read again", path: source.path,
          byteOffset: frame.offset)
      }
      var info = frame
      info.number = written.count
      info.offset = output.size
      var bytes = headerBytes
      let replacing = replacements[frame.offset] ?? [:]
      if frame.number != info.number || !replacing.isEmpty {
        // Renumber or replace snapshots: decode the checked header and encode it again.
        let decoded = try headerBytes.withBytes { buffer throws(JournalError) in
          do throws(CodecError) {
            let (_, body) = try MetadataFrame.open(UnsafeRawBufferPointer(rebasing: buffer[8...]))
            return try FrameHeader.decode(
              body: body, offset: frame.offset, headerSize: frame.headerSize, withSnapshots: true)
          } catch {
            throw JournalError(
              .corruptFrame, "frame \(frame.number)'s header changed while recovering: \(error)",
              path: source.path, byteOffset: frame.offset)
          }
        }
        var renumbered = decoded
        renumbered.info.number = info.number
        for index in renumbered.snapshots.indices {
          let sequence = renumbered.snapshots[index].snapshot.sequence
          guard let snapshot = replacing[sequence] else { continue }
          renumbered.snapshots[index].snapshot = snapshot
          replaced.append(ReplacedSnapshot(frame: info.number, sequence: sequence))
        }
        bytes = renumbered.encoded()
        info.headerSize = UInt32(bytes.count)
      }
      try output.write(bytes + data)
      written.append(info)
    }
    for gap in pendingGaps { try output.write(LostRangeMarker.encoded(gap)) }
    let index = JournalIndex(frames: written, lostRanges: lostRanges, headerCopy: body).encoded()
    let records = written.reduce(0) { $0 + UInt64($1.recordCount) }
    let trailer = JournalTrailer(
      indexOffset: output.size, indexSize: UInt32(index.count), recordCount: records
    ).encoded()
    try output.write(index + trailer)
    return replaced
  }
}

/// What recovery keeps and drops, decided from a scan before anything is written.
private struct RecoveryPlan {
  var kept: [FrameInfo] = []
  var dropped: [JournalError] = []
  var cutTail: JournalCondition.TornTail?
  /// The gaps between the frames kept: lost ranges, old and new.
  var gaps: [ClosedRange<UInt64>] = []
  /// Snapshots to write again in frames kept, by the frame's offset (salvage).
  var replacements: [UInt64: [UInt64: Snapshot]] = [:]
  /// The frames dropped because the deep check found their content wrong (salvage).
  var droppedForContent: [JournalError] = []
  var keptRecords: UInt64 = 0
  var droppedRecords: UInt64 = 0

  /// - Parameter repairs: what the deep check asks for the frames whose content is
  ///   wrong (salvage only).
  /// - Throws: when the scan found damage that only salvage may drop.
  init(
    scan: JournalScan, salvage: Bool, repairs: [UInt64: ContentRepair], path: String
  ) throws(JournalError) {
    // A frame whose content is wrong counts as damaged, but never as part of a torn tail:
    // its checksums verify.
    var checks = scan.checks
    for (index, info) in scan.frames.enumerated() {
      guard checks[index].isGood, let repair = repairs[info.offset] else { continue }
      switch repair {
      case .drop(let reason):
        let error = JournalError(
          .corruptFrame, reason, path: path, frame: info.number,
          sequenceRange: info.sequenceRange, byteOffset: info.offset)
        checks[index] = .damaged(error, whole: true)
        droppedForContent.append(error)
      case .replaceSnapshots(let snapshots):
        replacements[info.offset] = snapshots
      }
    }
    let lastGood = scan.checks.lastIndex { $0.isGood } ?? -1
    var tailFrames: [(FrameInfo, JournalError)] = []
    for (index, (info, check)) in zip(scan.frames, checks).enumerated() {
      guard case .damaged(let error, let whole) = check else {
        kept.append(info)
        continue
      }
      if !salvage && whole {
        var error = error
        error.message +=
          "; the frame is whole (its checksums verify) but cannot be read, and recovery drops a whole frame only when asked: recover with salvage (`rewind recover --salvage`) to drop it"
        throw error
      }
      if index > lastGood {
        tailFrames.append((info, error))
      } else if !salvage {
        var error = error
        error.message +=
          "; good frames follow it: recover with salvage (`rewind recover --salvage`) to drop it and keep them"
        throw error
      }
      dropped.append(error)
    }
    if !salvage, let damage = scan.damage.first(where: { $0.sequenceRange != nil }) {
      throw JournalError(
        .corruptFrame,
        "damaged bytes (\(damage.reason)) held events, with good frames after them: recover with salvage (`rewind recover --salvage`) to drop them and keep the rest",
        path: path, sequenceRange: damage.sequenceRange, byteOffset: damage.byteRange.lowerBound)
    }
    cutTail = scan.tail
    if let (first, error) = tailFrames.first {
      cutTail = JournalCondition.TornTail(
        offset: first.offset, length: scan.fileSize - first.offset,
        reason: "frames that fail their checksums: \(error.message)",
        sequenceRange: first.firstSequence...tailFrames.last!.0.lastSequence)
    }
    gaps = Journal.gaps(between: kept)
    // Frames dropped for their content after the last frame kept: their events are
    // marked lost too, so the session keeps its length.
    let lastKept = kept.last?.lastSequence ?? 0
    if let end = droppedForContent.last?.sequenceRange?.upperBound, end > lastKept {
      gaps.append((lastKept + 1)...end)
    }
    keptRecords = kept.reduce(0) { $0 + UInt64($1.recordCount) }
    // Every event the file tells of is kept, was lost before, or is dropped now.
    let known =
      [
        scan.frames.last?.lastSequence, scan.tail?.sequenceRange?.upperBound,
        scan.damage.compactMap(\.sequenceRange?.upperBound).max(), scan.lostRanges.last?.upperBound,
      ].compactMap { $0 }.max() ?? 0
    let lostBefore = scan.lostRanges.reduce(0) { $0 + $1.upperBound - $1.lowerBound + 1 }
    droppedRecords = known - min(known, keptRecords + lostBefore)
  }

  /// Whether the journal needs no repair: an intact header, every frame good, no damage,
  /// no tail, and an index that matches.
  func isWhole(_ scan: JournalScan) throws(JournalError) -> Bool {
    guard scan.header?.damage == nil, scan.tail == nil, scan.damage.isEmpty,
      dropped.isEmpty, replacements.isEmpty,
      case .success(let (index, offset)) = try scan.index()
    else { return false }
    return index.frames == scan.frames && index.lostRanges == scan.lostRanges
      && offset == scan.dataEnd
  }
}
