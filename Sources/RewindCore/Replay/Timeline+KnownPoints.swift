import RewindJournal

extension Timeline {
  /// The sequence number of a point whose state is known: as ``resolve(_:)``, but a time
  /// (an offset or a wall-clock time) that falls among the times of events lost to
  /// damage is refused instead of standing for the last event kept before them.
  ///
  /// The state at a time is the state after the last event at or before it. When that
  /// event, among the events kept, is followed by lost events, the time may be after
  /// some of them (their times are not known, only that they lie between the events
  /// kept around them): the state there is not known. ``resolve(_:)`` gives the event
  /// kept before them, what a scan from or to that time wants (it goes on past the lost
  /// events and says so); a command that shows the state at the point uses this.
  ///
  /// `text` is the point as the user wrote it, for the message (by default as
  /// ``Point/description`` writes it).
  /// - Throws: ``RewindError`` `eventsLost` naming the journal, the point and the lost
  ///   events; `outOfRange` as ``resolve(_:)``.
  public func resolveKnown(_ point: Point, written text: String? = nil) throws -> UInt64 {
    let sequence = try resolve(point)
    switch point {
    case .start, .end, .beforeEnd, .sequence: return sequence
    case .wallClock(let time) where time < header.startTime: return sequence
    case .offset, .wallClock: break
    }
    guard sequence < lastSequence,
      let lost = lostEvents(in: sequence...(sequence + 1)).first,
      lost.lowerBound == sequence + 1
    else { return sequence }
    let shown = text ?? point.description
    var between = [sequence == 0 ? "after the start" : "after event \(sequence)"]
    if lost.upperBound < lastSequence { between.append("before event \(lost.upperBound + 1)") }
    throw RewindError(
      .eventsLost, journal: path,
      "the state at \(shown) is not known: \(JournalError.describe(lost)) \(lost.count == 1 ? "was" : "were") lost to damage, and \(shown) falls among their times (\(between.joined(separator: ", ")))"
    )
  }
}
