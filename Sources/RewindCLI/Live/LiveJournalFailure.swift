package import RewindCore
import RewindJournal
import RewindTerminal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `rewind live` says when its journal cannot take the events: on the status line,
/// in the box `q` opens while events are not written, and in the message it exits with.
///
/// The ``Store``'s own messages are for a library's user, whose store keeps the events
/// queued and retries for as long as the app runs (`are not recorded yet … they are kept
/// and retried`), and they name the path first. The status line has room for a few
/// words, so the cause comes first (`disk full: 3,000 events not written yet`); and
/// once `live` exits, nothing retries: the events not written are lost, which the exit
/// message says with what to do about the journal left not closed.
package enum LiveJournalFailure {
  /// The system's error under `error` (a ``RewindError`` of the store, a `JournalError`
  /// of its journal), as a few words (`disk full`) and as the system says it (`No space
  /// left on device (errno 28)`); nil when no system call failed.
  package static func systemCause(of error: any Error) -> (words: String, detail: String)? {
    if let error = error as? RewindError { return error.cause.flatMap(systemCause) }
    guard let error = error as? JournalError, let cause = error.cause,
      case .errno(let number, let name) = cause
    else { return nil }
    let words: String =
      switch number {
      case ENOSPC: "disk full"
      case EDQUOT: "disk quota exceeded"
      case EFBIG: "file size limit reached"
      case EROFS: "read-only file system"
      case EIO: "disk I/O error"
      case EACCES, EPERM: "permission denied"
      default: name
      }
    return (words, cause.description)
  }

  /// The status line's text for the store's `error`, the essential part first so that a
  /// narrow line cut at its end keeps it: `disk full: 3,000 events not written yet` while
  /// the store retries, `recording stopped: disk I/O error` once it cannot record.
  /// - Parameters:
  ///   - pending: ``Store/pendingCount``: the events sent and not durable.
  ///   - recording: ``Store/isRecording``: false once the recording stopped.
  package static func status(_ error: RewindError, pending: Int, recording: Bool) -> String {
    let cause = systemCause(of: error)?.words
    guard recording else { return "recording stopped: " + (cause ?? "\(error)") }
    guard let cause else { return "journal: \(error)" }
    guard pending > 0 else { return "\(cause): retrying" }
    return "\(cause): \(Format.count(pending, "event")) not written yet"
  }

  /// Whether `q` asks first: the store holds events it could not write and still tries
  /// (a full disk); quitting now would lose them.
  package static func holdsUnwrittenEvents<D: Domain>(_ store: Store<D>) -> Bool {
    store.lastError != nil && store.isRecording && store.pendingCount > 0
  }

  /// The box `q` opens while ``holdsUnwrittenEvents(_:)``: how many events are not
  /// written and why, that freeing space and `q` again writes them, and that `Q` (or
  /// Ctrl-C) quits without them. Once the store wrote them again (space was freed), it
  /// says so: `q` closes the journal with every event.
  /// - Parameter stillUnwritten: a `q` in the box found the journal still failing.
  static func drawQuitQuestion<D: Domain>(
    for store: Store<D>, stillUnwritten: Bool, on canvas: inout Screen
  ) {
    let box = quitQuestion(
      recording: store.isRecording, error: store.lastError, pending: store.pendingCount,
      stillUnwritten: stillUnwritten)
    canvas.helpOverlay(title: box.title, entries: box.entries, footer: box.footer)
  }

  /// What the box `q` opens says (``drawQuitQuestion(for:stillUnwritten:on:)``), from the
  /// store's ``Store/isRecording``, ``Store/lastError`` and ``Store/pendingCount``: the
  /// events not written yet and what to do (and, after a `q` that could not write them,
  /// that they are still not written), or that the recording stopped (what was not written
  /// is lost), or that every event is written now.
  ///
  /// The keys that keep the events and those that lose them differ: `q` only quits once
  /// the events are written, `Q` or Ctrl-C quits without them (with one key for both, a
  /// user who freed too little space lost the events with the key said to save them).
  static func quitQuestion(
    recording: Bool, error: (any Error)?, pending: Int, stillUnwritten: Bool = false
  ) -> (
    title: String, entries: [KeyHelp], footer: String
  ) {
    let cause = error.flatMap(systemCause(of:))
    guard recording else {
      // The journal took no more events: those not written cannot be retried (it said
      // "every event is written now" here).
      return (
        "Recording stopped: \(cause?.words ?? "the journal takes no more events")",
        [KeyHelp("q, Ctrl-C", "quit: the events not written are lost")],
        "\(cause?.detail ?? error.map { "\($0)" } ?? "The journal takes no more events"). `rewind recover` closes the journal. Any other key goes back to the session."
      )
    }
    guard let error, pending > 0 else {
      return (
        "Every event is written now",
        [KeyHelp("q", "close the journal with every event, and quit")],
        "Any other key goes back to the session."
      )
    }
    let count = Format.count(pending, "event")
    let verb = pending == 1 ? "is" : "are"
    return (
      "\(count) \(verb) not written yet: \(cause?.words ?? "the journal fails")",
      [
        KeyHelp("free space, q", "writes them, closes the journal and quits"),
        KeyHelp("Q, Ctrl-C", "quit without them: they are lost"),
      ],
      (stillUnwritten ? "Still not written: " : "")
        + "\(cause?.detail ?? "\(error)"). Any other key goes back: they are retried."
    )
  }

  /// The message `live` exits with when closing its journal failed: how many events were
  /// lost and why, what the journal holds, and that `rewind recover` closes it; the
  /// store's own message when every event sent is in the journal.
  /// - Parameters:
  ///   - error: what ``Store/close()`` threw.
  ///   - path: the journal's path, as given (the error's reporter escapes it).
  ///   - sent: the journal's events before the session and those sent in it.
  ///   - pending: ``Store/pendingCount`` after the close: the events not durable, for
  ///     when the journal cannot be read.
  ///   - held: what the journal holds now, read after the failure: its last event and
  ///     whether it is closed; nil when it cannot be read.
  package static func closingFailed(
    _ error: any Error, path: String, sent: UInt64, pending: Int,
    held: (lastSequence: UInt64, isClosed: Bool)?
  ) -> String {
    let recover = "`rewind recover \(Format.shellPath(path))` closes it"
    let lost = held.map { sent > $0.lastSequence ? sent - $0.lastSequence : 0 } ?? UInt64(pending)
    guard lost > 0 else {
      let closed = held?.isClosed ?? false
      return "\(error)" + (closed ? "" : "; the journal is not closed: \(recover)")
    }
    let why = systemCause(of: error).map { "\($0.words) (\($0.detail))" } ?? "\(error)"
    let were = "\(Format.count(lost, "event")) \(lost == 1 ? "was" : "were") lost"
    guard let held else {
      return
        "\(path): the last \(were), not written: \(why); `rewind verify \(Format.shellPath(path))` says what the journal holds, and \(recover) if it is not"
    }
    let range = Format.events((held.lastSequence + 1)...sent)
    let holds =
      held.lastSequence == 0
      ? "the journal holds no event"
      : "the journal holds the \(Format.count(held.lastSequence, "event")) before them"
    return
      "\(path): \(were) (\(range)), not written: \(why); \(holds)"
      + (held.isClosed ? ", closed" : " and is not closed: \(recover)")
  }
}
