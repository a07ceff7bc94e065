public import RewindJournal

extension JournalRecorder {
  /// Creates a new journal for batch work (`record`, `generate`, `import`): it appears at
  /// `destination.path`, complete, only when ``close()`` succeeds.
  ///
  /// The journal is written beside its destination and moved into place on close (see
  /// `JournalWriter.create(_:header:options:)`): a failure, or a recorder dropped without
  /// being closed, leaves the previous file untouched and nothing behind. The live
  /// ``Store`` writes in place instead, so that a killed app leaves a journal to recover.
  ///
  /// - Parameters:
  ///   - destination: the path, whether an existing file may be replaced, and the
  ///     command's inputs, which the journal may not be.
  ///   - domain: the session's domain; its settings go into the header.
  ///   - session: where the session came from, for the header.
  ///   - options: snapshots, compression, frames and durability.
  /// - Throws: `JournalError` (`outputIsInput`, `alreadyExists`, `locked`, `notFound`,
  ///   `io`) naming the destination; ``RewindError`` (`invalidInput`) for a domain of
  ///   more fields than a journal records.
  public static func create(
    _ destination: FileDestination, domain: D, session: SessionInfo,
    options: RecordingOptions = .init()
  ) throws -> JournalRecorder {
    try checkRecordable(domain)
    let writer = try JournalWriter.create(
      destination, header: header(domain: domain, session: session, options: options),
      options: options.journal)
    return JournalRecorder(domain: domain, state: domain.initialState, writer: writer)
  }

  /// Records `events` in order, as ``record(contentsOf:)`` does, in the loop compiled for
  /// the domain (``Domain/scans``): for a caller whose code is generic over the domain
  /// (`rewind record`), where the loop would go through generic metadata.
  /// - Returns: the number of events the reducer rejected.
  /// - Throws: as ``record(contentsOf:)``: the events before the one the journal cannot
  ///   take stay recorded (``lastSequence`` tells how far it got).
  package func recordRun(_ events: ArraySlice<TimedEvent<D.Event>>) throws -> Int {
    try D.scans.recordEvents(self, events)
  }
}
