/// Something that forwards a journal while it is being recorded: told each time frames
/// sealed in it are durable, and able to wait until what the journal holds has reached
/// its destination.
///
/// A recording `Store` (in RewindCore) takes one in its `RecordingOptions`: its writer
/// thread, never the app's, calls ``journalAdvanced(at:closed:)`` once when recording
/// starts (the header is written), after each round in which frames were sealed and made
/// durable, after each flush, and after the close. `SessionShipper` (in RewindStream)
/// adopts it to ship the session to a NATS JetStream server, store and forward: the
/// local journal stays the source of truth, and the forwarder only ever reads it.
public protocol JournalForwarder: AnyObject, Sendable {
  /// The journal at `path` holds new durable frames (or was closed, when `closed`).
  ///
  /// Called on the recording's writer thread: it must return promptly, starting any
  /// work (a network round trip) elsewhere, and must never throw or block on I/O.
  func journalAdvanced(at path: String, closed: Bool)

  /// Waits until every frame the journal held when the call began has reached the
  /// destination, for up to `timeoutMilliseconds`.
  /// - Throws: why not, when the time is up (the server is away, say).
  func waitUntilForwarded(timeoutMilliseconds: Int) throws
}
