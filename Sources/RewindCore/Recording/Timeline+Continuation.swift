public import RewindJournal

extension Timeline {
  /// Writes a new journal that continues this session from the point after event
  /// `sequence`: it holds this session's events 1…`sequence`, at their times, and its
  /// header names this journal as its parent (FORMAT.md, "Journal header"), so that a
  /// live recording can go on from there (`Store(continuing:options:)`).
  ///
  /// The events are replayed with the current reducer as they are written, so their
  /// recorded effects are today's; the new session keeps this one's start time, device
  /// and settings (a journal of an older schema is written in the current one). The
  /// journal appears at the destination, closed, only when it is complete.
  ///
  /// - Parameters:
  ///   - sequence: the last event to copy (0: none).
  ///   - destination: where the new journal goes; never this journal.
  ///   - parentPath: the path the header names as the parent; by default ``path``.
  ///   - sessionID: the new session's identifier.
  ///   - options: snapshots, compression, frames and durability.
  /// - Returns: the new journal's header.
  /// - Throws: ``RewindError`` `outOfRange` for a point outside the session, `eventsLost`
  ///   when events before it were lost to damage; `JournalError` when the new journal
  ///   cannot be written (the destination is then left as it was).
  /// - Complexity: O(`sequence`): every event decoded, reduced and encoded again.
  @discardableResult
  public func writeContinuation(
    through sequence: UInt64, to destination: FileDestination, parentPath: String? = nil,
    sessionID: SessionID = .random(), options: RecordingOptions = .init()
  ) throws -> JournalHeader {
    try checkInSession(sequence)
    let session = SessionInfo(
      id: sessionID, startTime: header.startTime, device: header.device,
      parent: ParentSession(
        path: parentPath ?? path, sessionID: header.sessionID, sequence: sequence))
    let recorder = try JournalRecorder.create(
      destination, domain: domain, session: session, options: options)
    var (replayer, state) = try replayer(toReach: 0)
    // The recorder reduces each event: the replayer only decodes them (it "skips" them).
    while replayer.sequence < sequence,
      let (event, _) = try replayer.step(&state, trackChanges: false, skipping: { _ in true })
    {
      try recorder.record(event.event, at: event.time)
    }
    try recorder.close()
    return recorder.header
  }
}
