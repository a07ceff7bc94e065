import RewindCore
import RewindJournal

extension Format {
  /// What `info` and `verify` say of a journal that was not closed (no valid trailer ends
  /// it), so that one cut back to a frame boundary is not taken for a whole session:
  /// `not closed: its writer stopped without closing it (killed, crashed, or the machine lost power); it holds
  /// 300 events, up to event 300, and the session may have gone on after them; `rewind
  /// recover` closes it`, or `not closed: process 1234 is writing it still; so far it
  /// holds 300 events, up to event 300`.
  ///
  /// - Parameters:
  ///   - events: the events its readable frames hold.
  ///   - last: the last of them (0 if none).
  ///   - writer: the process holding its write lock, if one does.
  ///   - repairable: whether `rewind recover` can close it (not when no intact copy of its
  ///     header is left).
  ///   - damagedEnd: whether it ends in an index or a trailer, damaged or cut short (a
  ///     byte changed, or its writer stopped while closing it).
  static func notClosed(
    events: UInt64, last: UInt64, writer: LockHolder?, repairable: Bool = true,
    damagedEnd: Bool = false
  ) -> String {
    let held =
      events == 0 ? "it holds no event" : "it holds \(count(events, "event")), up to event \(last)"
    let recover = repairable ? "; `rewind recover` closes it" : ""
    if damagedEnd, writer == nil {
      return
        "not closed: its index or trailer is damaged or cut short (a byte changed, or its writer stopped while closing it); \(held)\(recover)"
    }
    guard let writer else {
      return
        "not closed: its writer stopped without closing it (killed, crashed, or the machine lost power); \(held)\(events == 0 ? "" : ", and the session may have gone on after them")\(recover)"
    }
    let process = writer.pid.map { "process \($0)" } ?? "another process"
    return "not closed: \(process) is writing it still; so far \(held)"
  }

  /// What `check` says of a journal that was not closed and holds whole frames only (a
  /// torn tail is said apart): cut at a frame's end, its writer gone or still writing, the
  /// session may have gone on after its last event; nil for a closed journal or one with a
  /// torn tail.
  static func notClosed(_ reader: JournalReader) -> String? {
    let condition = reader.condition
    guard !condition.isClosed, condition.tornTail == nil else { return nil }
    if condition.openedFromIndex, condition.isIncompletePush {
      return
        "its push is incomplete on the server: the journal pushed was closed, and the server holds \(count(reader.recordCount, "event")) of it, up to event \(reader.lastSequence); pushing the journal again completes it"
    }
    if condition.openedFromIndex {
      return
        "not closed on the server: it holds \(count(reader.recordCount, "event")), up to event \(reader.lastSequence); pushing the journal again once it is closed closes it"
    }
    return notClosed(
      events: reader.recordCount, last: reader.lastSequence, writer: reader.currentWriter())
  }
}
