import RewindCore
import RewindJournal

extension Player {
  /// Reads what a followed journal gained since it was last read: when the file grew,
  /// opens it again (the frames its writer has sealed and flushed since), counts the new
  /// frames into the density strip, and keeps the cursor at the end if it was there.
  ///
  /// A frame being written when the journal is read is not yet whole (a torn tail): it is
  /// left for the next read.
  ///
  /// When the path holds another session (its header's identifier: the file replaced,
  /// say by `rewind live --force` or a new recording under the same name), the player
  /// follows that one from scratch, without the marks and skipped events of the other, and
  /// says so.
  /// - Returns: whether there is anything new.
  func follow() throws -> Bool {
    let size = JournalReader.currentSize(ofFileAt: timeline.path)
    guard let size, size != knownFileSize else { return false }
    let wasAtEnd = cursor == lastSequence
    let previousLast = lastSequence
    let reopened = try Timeline<D>(path: timeline.path)
    knownFileSize = reopened.reader.fileSize
    let replaced = reopened.reader.header.sessionID != timeline.reader.header.sessionID
    guard
      replaced || reopened.lastSequence != previousLast
        || reopened.reader.frames.count != countedFrames
    else { return false }
    timeline = reopened
    lostTimes = try Self.lostTimes(of: reopened)
    // Another session, or not the same journal grown: start over.
    if replaced || reopened.reader.frames.count < countedFrames
      || reopened.lastSequence < previousLast
    {
      density = DensityStrip(expectedDuration: timeline.duration)
      countedFrames = 0
    }
    if replaced {
      skipped = []
      divergence = nil
      mark = nil
      message = PlayerMessage(
        .info,
        "\(timeline.path) now holds another session (\(reopened.reader.header.sessionID)): following that one."
      )
    } else {
      skipped = skipped.filter { $0 <= reopened.lastSequence }
      mark = mark.map { min($0, reopened.lastSequence) }
    }
    try countNewFrames()
    if skipped.isEmpty == false { divergence = try findDivergence() }
    view = try makeView(at: wasAtEnd ? lastSequence : min(cursor, lastSequence))
    return true
  }

  /// Counts the outcomes of the frames not yet in the density strip.
  func countNewFrames() throws {
    let frames = timeline.reader.frames.count
    guard frames > countedFrames else { return }
    try timeline.recordedOutcomes(inFrames: countedFrames..<frames) { time, kind in
      density.add(time: time, kind)
    }
    countedFrames = frames
  }
}
