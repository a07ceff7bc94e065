public import RewindJournal

extension Timeline {
  /// Writes this journal, of an older schema version (``upcast``), again in the domain's
  /// current one at `destination`: the same session id, start, device, event times and
  /// snapshot interval, each event as the domain's upcast reads it. An app continues the
  /// upgraded journal with `Store(continuing:)`, which refuses another schema version (a
  /// journal never mixes two): upgrade, move the new journal over the old, continue.
  ///
  /// Before anything is written, the replay is checked against the recording
  /// (``check(expected:jobs:maxDivergences:progress:)``: each event's outcome and changed
  /// fields, and the states the journal's snapshots stored): an upgrade must not change the
  /// session's history. A journal without snapshots is checked on outcomes and changed
  /// fields only (the report's ``CheckReport/snapshotsCompared`` is 0): an upcast that
  /// gives a field a wrong value passes there. The new journal appears at `destination`
  /// only once complete; this one is never written.
  ///
  /// - Parameters:
  ///   - destination: where the new journal goes (not this journal).
  ///   - options: frames, compression and durability; the snapshot interval is this
  ///     journal's.
  ///   - progress: called with the events done, of twice ``eventCount`` (the check, then
  ///     the recording).
  /// - Returns: the check's report, which passed.
  /// - Throws: ``UpgradeDivergence`` when the replay differs from the recording (naming
  ///   the first difference, with the report); ``RewindError``: `invalidInput` for a
  ///   journal already of the current schema, or with a torn tail (`rewind recover` cuts
  ///   it first); `eventsLost` for one with events lost to damage (its replay cannot cross
  ///   them). `JournalError` naming the destination when it cannot be written.
  public func upgrade(
    to destination: FileDestination, options: JournalWriterOptions = .init(),
    progress: (UInt64) -> Void = { _ in }
  ) throws -> CheckReport {
    guard let upcast else {
      throw RewindError(
        .invalidInput,
        "\(path): the journal already has schema \(D.schemaVersion) of '\(D.identifier)', the current one: there is nothing to upgrade"
      )
    }
    if let tail = reader.condition.tornTail, !tail.isDamagedEnd {
      throw RewindError(
        .invalidInput,
        "\(path): \(tail.described); an upgrade would leave out what it holds: recover the journal first (rewind recover)"
      )
    }
    if let first = lostEvents(in: 0...lastSequence).first {
      throw RewindError(
        .eventsLost,
        "\(path): \(JournalError.describe(first)) were lost to damage; an upgrade replays and records the whole session, which cannot cross them"
      )
    }
    let count = eventCount
    let report = try check { progress($0) }
    guard report.passed else {
      throw UpgradeDivergence(
        report: report,
        message:
          "\(path): the journal (schema \(upcast.from)) does not replay as it was recorded through the domain's upcast of schema \(upcast.from) (its decodeEvent and decodeState) and its current reducer: \(Self.firstDifference(report)); an upgrade would change its history"
      )
    }
    let recording = RecordingOptions(snapshotInterval: header.snapshotInterval, journal: options)
    // The new journal is no more open than this one (and is not this one).
    var destination = destination
    if !destination.inputs.contains(path) { destination.inputs.append(path) }
    let recorder = try JournalRecorder.create(
      destination, domain: domain,
      session: SessionInfo(
        id: header.sessionID, startTime: header.startTime, device: header.device),
      options: recording)
    try events(from: 1, through: lastSequence) { replayed, _, _ in
      try recorder.record(replayed.event, at: replayed.time)
      progress(count + replayed.sequence)
      return true
    }
    try recorder.close()
    return report
  }

  /// What differs first in a check that did not pass: an event's outcome or fields, or a
  /// snapshot (whose state the upcast of the older schema's states reads, or the reducer
  /// made otherwise), or the final state.
  static func firstDifference(_ report: CheckReport) -> String {
    if let event = report.eventDivergence,
      report.stateDivergence.map({ event.sequence <= $0.sequence }) ?? true
    {
      return
        "event \(event.sequence) replays with another outcome or other changed fields than recorded"
    }
    if let state = report.stateDivergence {
      return "the snapshot after event \(state.sequence) \(state.problem)"
    }
    return "its final state differs"
  }
}

/// The error of ``Timeline/upgrade(to:options:progress:)`` when a journal does not replay
/// as it was recorded through the domain's upcast and its reducer: the upgrade would
/// change the session's history, so nothing was written.
public struct UpgradeDivergence: Error, CustomStringConvertible, Sendable {
  /// The check that did not pass.
  public let report: CheckReport
  /// The journal, and the first difference.
  public let message: String

  public var description: String { message }
}
