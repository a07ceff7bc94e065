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
  ///
  /// Whether more can come is read each time too (``followed``): the journal closed, its
  /// writer gone without closing it (no process holds its write lock), the file removed,
  /// or its path unreadable (the system's error) is said once, on the message line, when
  /// it happens.
  /// - Returns: whether there is anything new.
  func follow() throws -> Bool {
    let size: UInt64
    switch JournalReader.currentSize(ofFileAt: timeline.path) {
    case .success(let found): size = found
    // Only a path that names no file means removed: any other error (a directory on the
    // way that cannot be searched now, a loop of links) says nothing of the file.
    case .failure(let error) where error.code == .notFound: return noteFollowed(.removed)
    case .failure(let error):
      return noteFollowed(.unreadable(error.cause.map { "\($0)" } ?? error.message))
    }
    guard size != knownFileSize else { return noteFollowed(currentFollowed()) }
    let wasAtEnd = cursor == lastSequence
    let previousLast = lastSequence
    let reopened = try Timeline<D>(path: timeline.path)
    knownFileSize = reopened.reader.fileSize
    let replaced = reopened.reader.header.sessionID != timeline.reader.header.sessionID
    guard
      replaced || reopened.lastSequence != previousLast
        || reopened.reader.frames.count != countedFrames
    else {
      // The same events (the trailer written on closing, say): only whether more can come.
      timeline = reopened
      return noteFollowed(currentFollowed())
    }
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
      lastWriter = nil
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
    // After the message of a replacement: that one's news is the session.
    let message = message
    noteFollowed(currentFollowed())
    if replaced { self.message = message }
    return true
  }

  /// What the followed journal, as last read, says of what is to come: closed (its
  /// trailer read), written (a process holds its write lock), or left by a writer that
  /// stopped without closing it. A journal whose size changed since it was read is not
  /// judged (its writer may have closed it and let go of the lock since): what was
  /// known stays until it is read again.
  func currentFollowed() -> FollowedJournal? {
    if timeline.reader.condition.isClosed { return .closed }
    if let writer = timeline.reader.currentWriter() {
      if let pid = writer.pid { lastWriter = pid }
      return .written
    }
    // No lock: the writer is gone, unless it closed the journal since it was read.
    guard (try? JournalReader.currentSize(ofFileAt: timeline.path).get()) == knownFileSize else {
      return followed
    }
    return .writerGone(pid: lastWriter)
  }

  /// Keeps `state` as ``followed`` and, when it changed to say that no more will come,
  /// says so on the message line.
  /// - Returns: whether it changed (the screen needs drawing).
  @discardableResult
  func noteFollowed(_ state: FollowedJournal?) -> Bool {
    guard state != followed else { return false }
    let previous = followed
    followed = state
    if let sentence = state?.sentence(path: timeline.path) {
      message = PlayerMessage(.info, sentence)
    } else if let said = previous?.sentence(path: timeline.path), message?.text == said {
      // Being written again (the file back, a writer again): what was said is no more
      // true, and the header says FOLLOWING.
      message = nil
    }
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

/// What a followed journal's file says of what is to come (`--follow`).
public enum FollowedJournal: Equatable, Sendable {
  /// A process holds its write lock: more events may come.
  case written
  /// It ends with a trailer: its writer closed it, and nothing more will come.
  case closed
  /// It is not closed and no process holds its write lock: its writer (process `pid`,
  /// when it was seen) stopped without closing it (killed, crashed, or the machine lost
  /// power), as `rewind verify` says.
  case writerGone(pid: Int32?)
  /// The path names no file: it was removed (or moved away).
  case removed
  /// The path cannot be read now, for the system's `reason` (`Permission denied (errno
  /// 13)`), other than naming no file: the file may be there still, and is read again at
  /// each tick.
  case unreadable(String)

  /// The header's word for it: `FOLLOWING`, `CLOSED`, `WRITER GONE`, `FILE REMOVED`,
  /// `FILE UNREADABLE`.
  public var label: String {
    switch self {
    case .written: "following"
    case .closed: "closed"
    case .writerGone: "writer gone"
    case .removed: "file removed"
    case .unreadable: "file unreadable"
    }
  }

  /// What the message line says when it comes to be so; nil while it is written.
  func sentence(path: String) -> String? {
    switch self {
    case .written:
      return nil
    case .closed:
      return "The journal is closed: nothing more will come."
    case .writerGone(let pid):
      let writer = pid.map { "Its writer (process \($0))" } ?? "Its writer"
      return
        "\(writer) stopped without closing the journal (killed, crashed, or the machine lost power): nothing more will come; `rewind recover` closes it."
    case .removed:
      return
        "\(path) was removed: nothing more will come; what was read before is shown still."
    case .unreadable(let reason):
      return
        "\(path) cannot be read now: \(reason); what was read before is shown still, and following goes on once it can be read."
    }
  }
}
