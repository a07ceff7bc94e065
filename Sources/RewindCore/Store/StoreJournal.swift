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
  /// Records the events of `queue` in order (each at its time, microseconds since the
  /// session started), removing each once recorded, up to the queue's last refresh.
  ///
  /// One call for the whole batch rather than one per event: the writer runs as
  /// generic code, and a loop in one function looks up the types it needs once.
  /// - Throws: the first failure; the event that failed stays first in the queue.
  func record(queued queue: EventQueue<(time: UInt64, event: Event)>) throws
  /// Makes everything recorded durable.
  func flush() throws
  /// Writes what is left and closes the journal.
  func close() throws
  /// A one-line description of `event`, for messages.
  func describe(_ event: Event) -> String
}

extension JournalRecorder: StoreJournal {
  func record(queued queue: EventQueue<(time: UInt64, event: D.Event)>) throws {
    while let item = queue.first {
      try record(item.event, at: item.time)
      queue.removeFirst()
    }
  }

  func describe(_ event: D.Event) -> String {
    domain.describe(event)
  }
}
