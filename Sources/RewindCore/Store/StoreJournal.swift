/// What a recording store's writer needs of its journal: ``JournalRecorder`` in an app, a
/// scripted journal in the tests of ``StoreWriterMachine``.
///
/// The writer tells failures apart by the `JournalError` they throw: `.invalidArgument`
/// (this event is refused, and would be every time), `.closed` (the journal can take
/// nothing more), anything else (an I/O failure worth retrying).
protocol StoreJournal<Event>: AnyObject {
  associatedtype Event
  /// Where the journal is, for messages.
  var path: String { get }
  /// The sequence number of the last event recorded (0 before the first).
  var lastSequence: UInt64 { get }
  /// Records one event at `time` (microseconds since the session started).
  func append(_ event: Event, at time: UInt64) throws
  /// Makes everything recorded durable.
  func flush() throws
  /// Writes what is left and closes the journal.
  func close() throws
  /// A one-line description of `event`, for messages.
  func describe(_ event: Event) -> String
}

extension JournalRecorder: StoreJournal {
  func append(_ event: D.Event, at time: UInt64) throws {
    _ = try record(event, at: time)
  }

  func describe(_ event: D.Event) -> String {
    domain.describe(event)
  }
}
