/// What ``Journal/verify(path:)`` found.
public struct VerificationReport: Sendable {
  public var path: String
  public var header: JournalHeader
  /// Every problem found, in file order; the first is the one to fix first.
  public var problems: [JournalError]
  public var frameCount: Int
  public var recordCount: UInt64
  public var snapshotCount: Int
  /// How the file was found by walking it.
  public var condition: JournalCondition
  /// Whether the journal ends with a valid index (it was closed).
  public var hasIndex: Bool

  /// No problem found.
  public var isClean: Bool { problems.isEmpty }
}

extension Journal {
  /// Checks a whole journal: every frame's checksums and contents, sequence numbers
  /// continuous, timestamps non-decreasing, snapshots at record boundaries, and the index
  /// (if any) equal to what walking the frames finds.
  ///
  /// - Returns: a report listing every problem with its location; damage does not throw.
  /// - Throws: ``JournalError`` only when the file cannot be read as a journal at all
  ///   (missing, not a journal, damaged header, newer format).
  /// - Complexity: O(size of the journal): every frame is decompressed.
  /// - Parameter progress: called after each frame with the frames done and the total.
  public static func verify(path: String, progress: (Int, Int) -> Void = { _, _ in })
    throws(JournalError) -> VerificationReport
  {
    let file = try JournalFile(path: path, mode: .read)
    let layout = try JournalLayout.read(file, trustIndex: false)
    let reader = try JournalReader(file: file, layout: layout, options: .init())
    var problems: [JournalError] = []
    func problem(_ message: String, byteOffset: UInt64?, range: ClosedRange<UInt64>?) {
      problems.append(
        JournalError(
          .corruptFrame, message, path: path, sequenceRange: range, byteOffset: byteOffset))
    }

    for damage in layout.damage {
      problem(
        "damaged bytes: \(damage.reason)", byteOffset: damage.byteRange.lowerBound,
        range: damage.sequenceRange)
    }
    var recordCount: UInt64 = 0
    var snapshotCount = 0
    for index in layout.frames.indices {
      do throws(JournalError) {
        let counts = try verifyFrame(index, reader: reader)
        recordCount += counts.records
        snapshotCount += counts.snapshots
      } catch {
        problems.append(error)
      }
      progress(index + 1, layout.frames.count)
    }
    if let tail = layout.tail {
      var error = JournalError(
        .tornTail,
        "\(tail.length) bytes at the end are not a whole frame (\(tail.reason)); `rewind recover` cuts them",
        path: path, byteOffset: tail.offset)
      if let next = layout.frames.last.map({ $0.lastSequence + 1 }) {
        error.message += "; events from \(next) on, if any, were not durable"
      }
      problems.append(error)
    }

    var hasIndex = false
    switch try JournalLayout.readIndex(file, fileSize: layout.fileSize, after: layout.headerSize) {
    case .success(let (index, offset)):
      hasIndex = true
      if index.frames != layout.frames || index.lostRanges != layout.lostRanges
        || offset != layout.dataEnd
      {
        problem(
          "the index does not match the frames in the file", byteOffset: offset, range: nil)
      }
    case .failure(let reason):
      if reason.description != "no index (the journal was not closed)" {
        problem(reason.description, byteOffset: nil, range: nil)
      }
    }
    problems.sort { ($0.byteOffset ?? .max) < ($1.byteOffset ?? .max) }
    return VerificationReport(
      path: path, header: layout.header, problems: problems, frameCount: layout.frames.count,
      recordCount: recordCount, snapshotCount: snapshotCount, condition: layout.condition,
      hasIndex: hasIndex)
  }

  /// Decodes one frame completely and checks its records and snapshots.
  static func verifyFrame(_ index: Int, reader: JournalReader) throws(JournalError) -> (
    records: UInt64, snapshots: Int
  ) {
    let frame = try reader.loadFrame(index)
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
          throw reader.damaged(
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
      throw reader.damaged(
        frame.info, "the snapshot after event \(stray.snapshot.sequence) is not in this frame")
    }
    return (records, frame.snapshots.count)
  }
}
