import RewindJournal

/// The rules of a recording store's writer, apart from its thread: what one round does
/// with the queued events and the requests made since the last, and how failures move
/// the writer between its states.
///
/// The writer thread (``StoreWriter``) wakes every few milliseconds or when asked, runs
/// ``round(_:)``, and then does what the round says: answer the waiters, tell observers
/// of the error, stop queuing, sleep ``pause`` milliseconds. Everything here runs on
/// that one thread; tests run rounds one by one, with no thread at all.
///
/// Events written are made durable (the frame being filled sealed and synced, as a flush
/// does) when a flush asks, and, with ``durableWithin``, by the machine itself once the
/// first of them has waited that long: an app killed without a flush loses at most that
/// long of its session.
///
///     recording ──a write or a flush fails──▶ retrying
///     retrying ──everything written and flushed──▶ recording
///     recording, retrying ──the journal can take no more, or refuses an event──▶ stopped
///     any of them ──close asked──▶ closed
///
/// - ``State/recording``: each round records every queued event. An event the journal
///   refuses (larger than it takes, a state whose snapshot is, a time out of its range)
///   stops the recording there (→ ``State/stopped(_:)``): the journal stays the session
///   as it was up to the event before, which the events after it, recorded without it,
///   would not replay to.
/// - ``State/retrying(_:)``: an I/O failure (a full disk) left events queued, or a flush
///   undone. They stay queued, the error is reported, the flushes waiting fail with it,
///   and the next round, at the latest ``retryInterval`` later, tries again; once
///   everything is written and flushed, the error is cleared.
/// - ``State/stopped(_:)``: the journal can take nothing more (its `fsync` failed, so the
///   kernel may have dropped pages), or refused an event. Queued events are dropped, sends
///   stop queuing, and every flush and the close fail with the error.
/// - ``State/closed(_:)``: the journal is closed; its result answers every later request.
struct StoreWriterMachine<Journal: StoreJournal, Waiter> {
  typealias Event = (time: UInt64, event: Journal.Event)

  enum State {
    case recording
    case retrying(RewindError)
    case stopped(RewindError)
    case closed(Result<Void, RewindError>)
  }

  /// What callers asked since the last round.
  struct Requests {
    /// Each flush waits until the first `target` events are durable.
    var flushes: [(target: UInt64, waiter: Waiter)] = []
    /// Callers waiting for the close.
    var closers: [Waiter] = []
    /// Whether to close (asked by `close()` or by the store's release).
    var close = false
  }

  /// What the writer thread must do after a round.
  struct Round {
    /// Waiters to answer, in order.
    var answers: [(waiter: Waiter, result: Result<Void, RewindError>)] = []
    /// Observers must hear that the error changed.
    var error: ErrorChange?
    /// Sends must stop queuing events: the journal takes no more.
    var stopQueuing = false
    /// The journal is closed, with this result: the thread ends.
    var finished: Result<Void, RewindError>?
  }

  enum ErrorChange {
    case raised(RewindError)
    case cleared
  }

  /// Milliseconds between rounds while events keep coming, at most while idle (the pause
  /// doubles each idle round in between), and after a failure before a retry.
  static var busyInterval: UInt64 { 4 }
  static var idleInterval: UInt64 { 250 }
  static var retryInterval: UInt64 { 500 }

  let journal: Journal
  let queue: EventQueue<Event>
  /// The longest, in milliseconds, an event written waits before the machine makes it
  /// durable by itself; nil: only when a flush asks (and as frames fill).
  let durableWithin: UInt64?
  /// Now, in milliseconds on a monotonic clock.
  let now: () -> UInt64
  /// When the first event written since the journal was last made durable was written
  /// (``now``); nil when every event written is durable.
  private(set) var undurableSince: UInt64?
  private(set) var state = State.recording
  /// Milliseconds to sleep before the next round (unless woken).
  private(set) var pause = busyInterval
  /// Events taken from the queue (recorded or dropped) when the journal was last made
  /// durable: the flushes whose target is at most this are done.
  private(set) var durable: UInt64 = 0
  private var flushes: [(target: UInt64, waiter: Waiter)] = []
  private var closers: [Waiter] = []
  private var closeRequested = false

  init(
    journal: Journal, queue: EventQueue<Event>, durableWithin: UInt64? = nil,
    now: @escaping () -> UInt64 = { MonotonicClock.now() / 1_000_000 }
  ) {
    self.journal = journal
    self.queue = queue
    self.durableWithin = durableWithin
    self.now = now
  }

  /// Whether events written have waited ``durableWithin`` to be made durable.
  private var durabilityDue: Bool {
    guard let durableWithin, let since = undurableSince else { return false }
    return now() &- since >= durableWithin
  }

  /// Flushes waiting for an answer.
  var waitingFlushes: Int { flushes.count }

  /// One round: write what is queued, flush if asked or recovering, answer the flushes,
  /// close if asked.
  /// - Precondition: the machine is not closed.
  mutating func round(_ requests: Requests) -> Round {
    if case .closed = state { preconditionFailure("a closed store writer runs no more rounds") }
    flushes += requests.flushes
    closers += requests.closers
    closeRequested = closeRequested || requests.close
    var round = Round()
    // This round writes the events queued by now; later ones wait for the next.
    let hadEvents = queue.refresh() > 0
    let wasRetrying = isRetrying
    var problem: RewindError?

    if case .stopped = state {
      // Nothing more is recorded, nor made durable: no round is due for it.
      dropQueued()
    } else {
      problem = writeQueued(&round)
      if undurableSince == nil, !isStopped, queue.removedTotal > durable {
        undurableSince = now()
      }
      if queue.isEmpty && !isStopped && (wasRetrying || !flushes.isEmpty || durabilityDue) {
        if let failure = flushJournal(&round) {
          problem = failure
        } else if wasRetrying && !isStopped {
          recovered()
        }
      }
    }

    if let problem {
      round.error = .raised(problem)
    } else if wasRetrying && !isRetrying && !isStopped {
      round.error = .cleared
    }
    answerFlushes(&round, failure: problem)
    if closeRequested {
      closeJournal(&round)
    } else if isRetrying {
      pause = Self.retryInterval
    } else {
      pause = hadEvents ? Self.busyInterval : min(pause * 2, Self.idleInterval)
      // Awake when the events written are due to be made durable.
      if let durableWithin, let since = undurableSince {
        let waited = now() &- since
        pause = min(pause, waited >= durableWithin ? 1 : durableWithin - waited)
      }
    }
    return round
  }

  // MARK: Writing

  /// Records the queued events in order, removing each once the journal has it.
  /// - Returns: the failure that stopped the writing, if any.
  private mutating func writeQueued(_ round: inout Round) -> RewindError? {
    while let item = queue.first {
      do {
        try journal.record(queued: queue)
      } catch let error as JournalError where error.code == .invalidArgument {
        // The journal refuses the first event queued (it records the ones before it).
        return eventRefused(queue.first?.event ?? item.event, error, &round)
      } catch let error as JournalError where error.code == .closed {
        return journalStopped(error, &round)
      } catch {
        return writeFailed(error)
      }
    }
    return nil
  }

  /// Makes everything recorded durable.
  /// - Returns: the failure, if it failed.
  private mutating func flushJournal(_ round: inout Round) -> RewindError? {
    do {
      try journal.flush()
      durable = queue.removedTotal
      undurableSince = nil
      return nil
    } catch let error as JournalError where error.code == .closed {
      return journalStopped(error, &round)
    } catch {
      return flushFailed(error)
    }
  }

  /// Answers the flushes that are done; fails them all when the round failed or the
  /// journal stopped.
  private mutating func answerFlushes(_ round: inout Round, failure: RewindError?) {
    let blocking: RewindError?
    if case .stopped(let error) = state { blocking = error } else { blocking = failure }
    var waiting: [(target: UInt64, waiter: Waiter)] = []
    for flush in flushes {
      if let blocking {
        round.answers.append((flush.waiter, .failure(blocking)))
      } else if flush.target <= durable {
        round.answers.append((flush.waiter, .success(())))
      } else {
        waiting.append(flush)
      }
    }
    flushes = waiting
  }

  /// Closes the journal and ends the machine; every waiter gets the result.
  private mutating func closeJournal(_ round: inout Round) {
    let left = queue.count
    let result: Result<Void, RewindError>
    switch state {
    case .stopped(let error):
      try? journal.close()
      result = .failure(error)
    case .retrying(let error) where left > 0:
      try? journal.close()
      result = .failure(
        RewindError(
          .recording,
          "\(journal.path): the journal was closed with \(left) events not recorded, from event \(journal.lastSequence + 1) on",
          cause: error.cause ?? error))
    default:
      do {
        try journal.close()
        // Closed, everything written is durable: none is pending.
        durable = queue.removedTotal
        undurableSince = nil
        result = .success(())
      } catch {
        result = .failure(
          RewindError(.recording, "\(journal.path): closing the journal failed", cause: error))
      }
    }
    state = .closed(result)
    for flush in flushes { round.answers.append((flush.waiter, result)) }
    for closer in closers { round.answers.append((closer, result)) }
    flushes = []
    closers = []
    round.finished = result
  }

  // MARK: Transitions

  /// The journal refused an event, as it would every time → stopped: what was written
  /// before it is made durable, it and the events queued after it are dropped, and sends
  /// stop queuing. Recording on without it would write a journal that replays the later
  /// events from another state than the app's, and passes `check`.
  private mutating func eventRefused(
    _ event: Journal.Event, _ error: JournalError, _ round: inout Round
  ) -> RewindError {
    let kept = journal.lastSequence
    let notRecorded =
      "events from \(kept + 1) on (\(Format.count(queue.count)) so far) are not recorded"
    // The reason without the path and the event, which the message gives first.
    var reason = error
    reason.path = nil
    reason.sequenceRange = nil
    let message: String
    if error.message.hasPrefix("snapshot of ") {
      // The state after the last event recorded is too large for the snapshot the next
      // one needs (a frame's first, or the interval's): the next event is not to blame.
      message =
        "\(journal.path): recording stopped after event \(kept): the state after it is larger than a snapshot holds (\(reason)); \(notRecorded)"
    } else {
      // A long event (a megabyte of text) said by its start.
      let described = journal.describe(event)
      let shown =
        described.count <= 200
        ? described : "\(described.prefix(160))… (\(Format.count(described.count)) characters)"
      message =
        "\(journal.path): recording stopped at event \(kept + 1), which the journal cannot take (\(shown): \(reason)); it holds the session up to event \(kept); \(notRecorded)"
    }
    var failure = RewindError(.recording, message)
    do {
      try journal.flush()
    } catch {
      failure.message += "; making the events before it durable failed too"
      failure.cause = error
    }
    state = .stopped(failure)
    stopRecording(&round)
    return failure
  }

  /// Drops what is queued, and what is queued later: nothing more is recorded, nor
  /// pending (``durable`` counts every event taken from the queue: `Store.pendingCount`
  /// is 0, and `Store.isRecording` false).
  private mutating func stopRecording(_ round: inout Round) {
    dropQueued()
    round.stopQueuing = true
  }

  /// Drops what is queued, none of it pending any more.
  private mutating func dropQueued() {
    queue.removeAll()
    durable = queue.removedTotal
    undurableSince = nil
  }

  /// A write failed: the event and those after it stay queued → retrying.
  private mutating func writeFailed(_ error: any Error) -> RewindError {
    let failure = RewindError(
      .recording,
      "\(journal.path): events from \(journal.lastSequence + 1) on are not recorded yet (\(queue.count) waiting; they are kept and retried)",
      cause: error)
    state = .retrying(failure)
    return failure
  }

  /// A flush failed: what was written may not be durable → retrying.
  private mutating func flushFailed(_ error: any Error) -> RewindError {
    let failure = RewindError(
      .recording, "\(journal.path): flushing the journal failed", cause: error)
    state = .retrying(failure)
    return failure
  }

  /// The journal can take nothing more → stopped: what is queued is dropped and sends
  /// stop queuing.
  private mutating func journalStopped(_ error: JournalError, _ round: inout Round)
    -> RewindError
  {
    let failure = RewindError(
      .recording,
      "\(journal.path): recording stopped: the journal can take no more events; events from \(journal.lastSequence + 1) on (\(queue.count) so far) are not recorded",
      cause: error)
    state = .stopped(failure)
    stopRecording(&round)
    return failure
  }

  /// Everything is written and flushed again after a failure → recording.
  private mutating func recovered() {
    state = .recording
  }

  private var isRetrying: Bool {
    if case .retrying = state { return true }
    return false
  }

  private var isStopped: Bool {
    if case .stopped = state { return true }
    return false
  }
}
