/// One problem ``Journal/verify(path:progress:)`` found: what kind, where, which events,
/// and a sentence saying what is wrong.
public struct VerificationProblem: Sendable, Equatable, CustomStringConvertible {
  /// What the problem concerns.
  public enum Kind: String, Sendable, CaseIterable {
    /// The journal header or one of its copies.
    case header
    /// A data frame: its header, its checksums or its contents.
    case frame
    /// Bytes between frames that are no frame.
    case damage
    /// Bytes at the end that are not a whole frame (a crash while writing).
    case tornTail
    /// The index or the trailer of a closed journal.
    case index
    // The content, which only the journal's domain can read: the deep check of the
    // replay engine (RewindCore) reports these, the storage check never does.
    /// The header's domain, schema version or settings, which no command can read.
    case domain
    /// An event whose payload the domain cannot decode.
    case event
    /// A snapshot whose bytes do not hash to its stored state hash, that cannot be
    /// decoded, or whose state differs from the state replayed up to it.
    case snapshot
  }

  public var kind: Kind
  /// The frame's number, for a problem in one frame.
  public var frame: Int?
  /// The byte offset in the file where the problem is.
  public var offset: UInt64?
  /// The events concerned, when known.
  public var sequences: ClosedRange<UInt64>?
  /// What is wrong, as a sentence, without the location.
  public var message: String

  package init(
    kind: Kind, frame: Int? = nil, offset: UInt64? = nil, sequences: ClosedRange<UInt64>? = nil,
    message: String
  ) {
    self.kind = kind
    self.frame = frame
    self.offset = offset
    self.sequences = sequences
    self.message = message
  }

  /// `frame 12 (events 49153–53248) at byte 1234: message`.
  public var description: String {
    JournalError(
      .corruptFrame, message, frame: frame, sequenceRange: sequences, byteOffset: offset
    ).description
  }
}

/// What ``Journal/verify(path:progress:)`` found.
public struct VerificationReport: Sendable {
  public var path: String
  /// The journal's header, from a copy if the header is damaged; nil when neither the
  /// header nor a copy is intact.
  public var header: JournalHeader?
  /// Every problem found, in file order, one per problem; the first is the one to fix
  /// first.
  public var problems: [VerificationProblem]
  /// The data frames found, readable or not; with a valid index, also those whose
  /// damaged frame header hid them from the walk.
  public var frameCount: Int
  /// The frames that fail their checksums or break a rule, and those a valid index lists
  /// under damaged bytes or in a torn tail (their frame header is damaged).
  public var damagedFrameCount: Int
  /// The events in the readable frames.
  public var recordCount: UInt64
  /// The events known to be unreadable: in damaged frames, in damaged bytes when the
  /// frames around them tell, and in a torn tail when its frame header tells.
  public var damagedRecordCount: UInt64
  /// The snapshots in the readable frames.
  public var snapshotCount: Int
  /// Whether the journal ends with a valid index (it was closed).
  public var hasIndex: Bool
  /// Whether the journal ends with a valid trailer: its writer closed it (its index may
  /// be damaged still). A journal that was not closed was left by a writer that was
  /// killed or crashed or lost power, or is being written still (``currentWriter``).
  public var isClosed: Bool
  /// The last event of the readable frames and lost ranges (0 if none).
  public var lastSequence: UInt64
  /// The events that salvage marked lost to damage (its lost-range markers), in order.
  public var lostRanges: [ClosedRange<UInt64>] = []
  /// Whether the journal ends in an index or a trailer, damaged or cut short (a byte
  /// changed, or its writer stopped while closing it): ``isClosed`` is false when no
  /// intact trailer ends it.
  public var endIsDamaged = false
  /// The process holding the journal's write lock while it was verified, if any: a
  /// journal that is not closed and has one is being written still.
  public var currentWriter: LockHolder?

  /// No problem found.
  public var isClean: Bool { problems.isEmpty }
}

extension Journal {
  /// Checks a whole journal: its header and the header's copies, every frame's checksums
  /// and contents, sequence numbers continuous, timestamps non-decreasing, snapshots at
  /// record boundaries, and the index (if any) equal to what walking the frames finds.
  ///
  /// - Parameters:
  ///   - path: the journal to check.
  ///   - progress: called after each frame with the frames done and the total.
  /// - Returns: a report listing each problem once, with its kind and location; damage,
  ///   a damaged header included, does not throw.
  /// - Throws: ``JournalError`` only when the file cannot be read as a journal at all
  ///   (missing, not a journal, newer format, an I/O error).
  /// - Complexity: O(size of the journal): every frame is decompressed.
  public static func verify(path: String, progress: (Int, Int) -> Void = { _, _ in })
    throws(JournalError) -> VerificationReport
  {
    try verify(path: path, system: .live, progress: progress)
  }

  /// ``verify(path:progress:)`` through `system`.
  package static func verify(
    path: String, system: FileSystemCalls, progress: (Int, Int) -> Void = { _, _ in }
  ) throws(JournalError) -> VerificationReport {
    try verify(
      path: path, system: system, progress: progress, checkAll: { _ in nil },
      each: { _, _ in nil })
  }

  /// ``verify(path:progress:)``, handing each frame's decompressed view on, so that a
  /// check of the content reads the frames this one decompresses (once each).
  ///
  /// - Parameters:
  ///   - checkAll: called once the frames are found (walking the file), with them: the
  ///     checks of all of them, in order, as `JournalReader.checkFrame(_:)` makes them
  ///     (on other threads, say, calling `progress` itself), or nil to have them checked
  ///     one by one and handed to `each`.
  ///   - each: called with each frame checked one by one and its view (nil when it
  ///     cannot be loaded: its header, checksums or data are damaged); when it walks the
  ///     view's records, it may return their number as `walked` of
  ///     ``checkFrame(_:loader:walked:)`` does, so that the check does not walk them again.
  package static func verify(
    path: String, system: FileSystemCalls, progress: (Int, Int) -> Void,
    checkAll: ([FrameInfo]) -> [JournalScan.FrameCheck]?,
    each: (FrameInfo, FrameView?) -> UInt64?
  ) throws(JournalError) -> VerificationReport {
    let file = try JournalFile(path: path, mode: .read, system: system)
    let scan = try JournalScan(file: file, progress: progress, checkAll: checkAll, each: each)
    var problems: [VerificationProblem] = []
    problems += try headerProblems(scan)
    let index = try scan.index()
    // Frames a valid index lists under damage or in the torn tail are damaged frames (a
    // damaged frame header hides its frame from the walk), not a wrong index.
    var hidden: [FrameInfo] = []
    if case .success(let (index, offset)) = index {
      hidden = scan.framesHidden(from: index, at: offset) ?? []
    }
    /// The number of the one hidden frame in `bytes`, if there is exactly one.
    func hiddenFrame(in bytes: Range<UInt64>) -> Int? {
      let inside = hidden.filter { bytes.contains($0.offset) }
      return inside.count == 1 ? inside[0].number : nil
    }

    for damage in scan.damage {
      // The copy after the header is reported as the header's.
      if damage.byteRange.lowerBound == scan.headerEnd, damage.sequenceRange == nil,
        problems.contains(where: { $0.kind == .header && $0.offset == scan.headerEnd })
      {
        continue
      }
      let length = damage.byteRange.upperBound - damage.byteRange.lowerBound
      problems.append(
        VerificationProblem(
          kind: .damage, frame: hiddenFrame(in: damage.byteRange),
          offset: damage.byteRange.lowerBound, sequences: damage.sequenceRange,
          message: length == 0
            ? damage.reason : "\(count(length, "damaged byte")): \(damage.reason)"))
    }
    var recordCount: UInt64 = 0
    var damagedRecordCount: UInt64 = 0
    var snapshotCount = 0
    var damagedFrameCount = hidden.count
    for (info, check) in zip(scan.frames, scan.checks) {
      switch check {
      case .good(let records, let snapshots):
        recordCount += records
        snapshotCount += snapshots
      case .damaged(let error, _):
        damagedFrameCount += 1
        damagedRecordCount += UInt64(info.recordCount)
        problems.append(
          VerificationProblem(
            kind: .frame, frame: info.number, offset: info.offset, sequences: info.sequenceRange,
            message: error.cause.map { "\(error.message) (\($0))" } ?? error.message))
      }
    }
    for damage in scan.damage {
      if let range = damage.sequenceRange {
        damagedRecordCount += range.upperBound - range.lowerBound + 1
      }
    }
    if let tail = scan.tail, scan.tailIsDamagedIndex {
      // An index or a trailer, damaged or cut short: one problem, the index's.
      problems.append(
        VerificationProblem(
          kind: .index, offset: tail.offset,
          message: "\(tail.reason); readers walk the frames instead"))
    } else if let tail = scan.tail {
      let listed = hidden.filter { $0.offset >= tail.offset }
      var message =
        "\(count(tail.length, "byte")) at the end \(tail.length == 1 ? "is" : "are") not a whole frame (\(tail.reason)); `rewind recover` cuts \(tail.length == 1 ? "it" : "them")"
      if let range = tail.sequenceRange, !listed.isEmpty {
        message += ", and with them \(JournalError.describe(range)), which the index lists there"
      } else if !scan.tailFollowsTrailer, let next = scan.frames.last.map({ $0.lastSequence + 1 }) {
        // (After a trailer the session has ended: no event of it can be in them.)
        message += "; events from \(next) on, if any, were not durable"
      }
      if let range = tail.sequenceRange {
        damagedRecordCount += range.upperBound - range.lowerBound + 1
      }
      problems.append(
        VerificationProblem(
          kind: .tornTail, frame: listed.count == 1 ? listed[0].number : nil, offset: tail.offset,
          sequences: tail.sequenceRange, message: message))
    }

    var hasIndex = false
    var isClosed = true
    if case .failure(let reason) = index, reason == .notClosed { isClosed = false }
    switch index {
    case .success(let (index, offset)):
      hasIndex = true
      if scan.framesHidden(from: index, at: offset) == nil {
        problems.append(
          VerificationProblem(
            kind: .index, offset: offset, message: "the index does not match the frames in the file"
          ))
      } else if let copy = index.headerCopy, let header = scan.header, copy != header.body {
        problems.append(
          VerificationProblem(
            kind: .index, offset: offset,
            message: "the index's copy of the journal header differs from the header"))
      }
    case .failure(let reason) where !scan.tailIsDamagedIndex:
      if reason != .notClosed {
        problems.append(VerificationProblem(kind: .index, message: reason.description))
      } else if let offset = scan.indexOffsets.last {
        // An index whose trailer is gone (or no longer a trailer).
        problems.append(
          VerificationProblem(
            kind: .index, offset: offset,
            message: "the index is not followed by a valid trailer, so readers walk the frames"))
      }
    case .failure:
      break  // A damaged index or trailer is reported above, with the tail it starts.
    }
    problems.sort { ($0.offset ?? .max) < ($1.offset ?? .max) }
    return VerificationReport(
      path: path, header: scan.header?.header, problems: problems,
      frameCount: scan.frames.count + hidden.count,
      damagedFrameCount: damagedFrameCount, recordCount: recordCount,
      damagedRecordCount: damagedRecordCount, snapshotCount: snapshotCount, hasIndex: hasIndex,
      isClosed: isClosed,
      lastSequence: max(scan.frames.last?.lastSequence ?? 0, scan.lostRanges.last?.upperBound ?? 0),
      lostRanges: scan.lostRanges, endIsDamaged: scan.tailIsDamagedIndex,
      currentWriter: FileLock.writer(of: file))
  }

  /// The problems of the header and of the copy that follows it.
  private static func headerProblems(_ scan: JournalScan) throws(JournalError)
    -> [VerificationProblem]
  {
    if let failure = scan.headerFailure {
      return [
        VerificationProblem(
          kind: .header, offset: failure.byteOffset ?? 0,
          message: failure.message
            + "; without it the frames can be checked but the journal cannot be read")
      ]
    }
    guard let found = scan.header else { return [] }
    if let damage = found.damage {
      return [VerificationProblem(kind: .header, offset: damage.offset, message: damage.reason)]
    }
    let copy = try JournalLayout.headerCopyDamage(
      in: scan.file, fileSize: scan.fileSize, after: found)
    return copy.map { [VerificationProblem(kind: .header, offset: $0.offset, message: $0.reason)] }
      ?? []
  }

  /// `1 byte`, `9,903 bytes`.
  package static func count(_ value: UInt64, _ noun: String) -> String {
    "\(grouped(value)) \(noun)\(value == 1 ? "" : "s")"
  }

  /// `9,903`: a number's digits in groups of three, as every count the tool prints.
  package static func grouped<T: BinaryInteger>(_ value: T) -> String {
    let digits = String(value.magnitude)
    var result = value < 0 ? "-" : ""
    for (index, character) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
      result.append(character)
    }
    return result
  }

  /// Decodes one frame completely and checks its records and snapshots: the frame's
  /// view (nil when it cannot be loaded) and what the check found.
  ///
  /// An intact frame is walked a run of records at a time (``intactRecords(of:)``); a
  /// frame where that finds anything wrong is walked again record by record, which says
  /// what and where.
  ///
  /// - Parameter walked: called with the frame once loaded: a walk of its records by the
  ///   caller (the deep check's), which returns their number when it found them as
  ///   ``intactRecords(of:)`` requires (every record read from the first with the checks
  ///   of `RecordCursor`, to the end the header says, each snapshot of the frame where
  ///   it points), so that they are not walked again; nil to have them walked here.
  static func checkFrame(
    _ info: FrameInfo, loader: FrameLoader, walked: (FrameView) -> UInt64? = { _ in nil }
  ) -> (view: FrameView?, check: JournalScan.FrameCheck) {
    let frame: FrameView
    do throws(JournalError) {
      frame = try loader.load(info, checkingContent: true)
    } catch {
      return (nil, .damaged(error, whole: (try? loader.read(info)) != nil))
    }
    if let records = walked(frame) ?? intactRecords(of: frame) {
      return (frame, .good(records: records, snapshots: frame.snapshots.count))
    }
    do throws(JournalError) {
      let counts = try verifyRecords(of: frame, loader: loader)
      return (frame, .good(records: counts.records, snapshots: counts.snapshots))
    } catch {
      return (frame, .damaged(error, whole: (try? loader.read(info)) != nil))
    }
  }

  /// The number of records of `frame` when its records and snapshots are what
  /// ``verifyRecords(of:loader:)`` accepts, read a run at a time
  /// (`RecordCursor.forEachRecord(through:_:)`, which checks what `RecordCursor.next()`
  /// checks); nil when anything is wrong, for that method to say what.
  static func intactRecords(of frame: FrameView) -> UInt64? {
    var cursor = frame.records()
    var records: UInt64 = 0
    var previousTime = frame.info.firstTime
    // Each snapshot must start the record after its event, at the time of its event.
    for snapshot in frame.snapshots {
      let event = snapshot.snapshot.sequence
      guard
        (try? cursor.forEachRecord(through: event) { _, time, _ in
          previousTime = time
          records &+= 1
          return true
        }) != nil, event < .max, cursor.sequence == event + 1,
        Int(snapshot.recordOffset) == cursor.offset,
        cursor.offset == 0 || snapshot.time == previousTime
      else { return nil }
    }
    guard
      (try? cursor.forEachRecord(through: .max) { _, _, _ in
        records &+= 1
        return true
      }) == true
    else { return nil }
    return records
  }

  /// ``checkFrame(_:loader:)`` record by record: throws at the first thing wrong.
  static func verifyRecords(of frame: FrameView, loader: FrameLoader) throws(JournalError) -> (
    records: UInt64, snapshots: Int
  ) {
    var cursor = frame.records()
    var snapshots = frame.snapshots[...]
    var records: UInt64 = 0
    var previousTime = frame.info.firstTime
    while true {
      let offset = cursor.offset
      let sequence = cursor.sequence
      while let snapshot = snapshots.first, snapshot.snapshot.sequence + 1 <= sequence {
        guard snapshot.snapshot.sequence + 1 == sequence, Int(snapshot.recordOffset) == offset,
          offset == 0 || snapshot.time == previousTime
        else {
          throw loader.damaged(
            frame.info,
            "the snapshot after event \(snapshot.snapshot.sequence) does not point at the start of event \(snapshot.snapshot.sequence + 1)"
          )
        }
        snapshots.removeFirst()
      }
      guard let record = try cursor.next() else { break }
      previousTime = record.time
      records += 1
    }
    if let stray = snapshots.first {
      throw loader.damaged(
        frame.info, "the snapshot after event \(stray.snapshot.sequence) is not in this frame")
    }
    return (records, frame.snapshots.count)
  }
}
