import Dispatch
public import RewindJournal
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Ships a journal to a server while it is being written: store and forward. The local
/// journal stays the source of truth; each round pushes the frames sealed since the last
/// one (``StreamStore/push(_:progress:)``, which sends only what the server lacks: the
/// first round of a connection reads the session's index back to learn it, the next ones
/// send the frames after the last round's and read back only their acknowledgements). When
/// the server is away, rounds fail and recording goes on; the frames are sent once it is
/// back, nothing lost and nothing twice. Rounds run on a thread of their own whenever
/// ``ship()`` asks (requests made while a round runs are served by one more round), and
/// every `interval` while they fail.
///
/// The simplest use is to give it to a recording `Store` (RewindCore) as the forwarder of
/// its `RecordingOptions`: the store's writer thread then asks for a round after each
/// durable frame, each flush and the close (``journalAdvanced(at:closed:)``), and the
/// store's `flush(waitingForServerWithin:)` waits for the server's acknowledgement:
///
/// ```swift
/// let shipper = SessionShipper(server: StreamServer(url: "nats://…"))
/// let store = try Store(
///   domain: domain, recordingTo: path, options: RecordingOptions(forwarder: shipper))
/// // … record; then, when the server must have it:
/// try await store.flush(waitingForServerWithin: 5000)
/// // … at the end:
/// try store.close()
/// try shipper.waitUntilForwarded(timeoutMilliseconds: 5000)
/// shipper.stop()
/// ```
///
/// A store continuing a journal takes it the same way,
/// `Store<D>(continuing: path, options: RecordingOptions(forwarder: shipper))`: told of the
/// journal as the store starts, the shipper first sends what the server lacks (frames
/// recorded while it was away, or a journal never shipped), then each new frame. One
/// shipper serves the stores an app opens one after another: it ships every journal it is
/// told of, until the server holds it closed.
///
/// It can also ship a journal that something else writes:
/// `SessionShipper(journal: path, server: …)`, then ``ship()`` after each flush.
public final class SessionShipper: JournalForwarder {
  private struct State {
    /// The journals to ship, in the order met: the one given, or those recording stores
    /// told of (one shipper serves the stores an app opens one after another). One is
    /// left out once the server holds it closed, with every frame.
    var journals: [String] = []
    /// The last journal met.
    var journal: String?
    /// Rounds asked for, and the last of them that a successful round covered.
    var requested: UInt64 = 0
    var shipped: UInt64 = 0
    var stopping = false
    var stopped = false
    var lastError: String?
    /// Whether the last round failed for good: a problem of the settings (an address that
    /// is none, credentials refused, no JetStream), not of the server being away.
    var failedForGood = false
    var framesOnServer = 0
  }

  /// The journal shipped last: the one given, or the last one a recording store told of;
  /// nil until then.
  public var journal: String? { state.withLock { $0.journal } }
  public let server: StreamServer
  private let state = Mutex(State())
  private let wake = DispatchSemaphore(value: 0)
  private let finished = DispatchSemaphore(value: 0)
  private let intervalMilliseconds: Int

  /// Starts shipping `journal` to `server`: a round at once, then whenever ``ship()``
  /// asks, and every `intervalMilliseconds` while a round fails.
  public convenience init(
    journal: String, server: StreamServer, intervalMilliseconds: Int = 1000
  ) {
    self.init(server: server, intervalMilliseconds: intervalMilliseconds)
    state.withLock {
      $0.journals = [journal]
      $0.journal = journal
    }
    ship()
  }

  /// A shipper for the journals of recording `Store`s that are given it as their
  /// forwarder: it learns each journal from its store (``journalAdvanced(at:closed:)``)
  /// and ships nothing before.
  /// - Parameters:
  ///   - server: the server to ship to.
  ///   - intervalMilliseconds: how long after a failed round the next one tries again (at
  ///     least 10 ms); a round that succeeded waits for the next request.
  public init(server: StreamServer, intervalMilliseconds: Int = 1000) {
    self.server = server
    self.intervalMilliseconds = max(intervalMilliseconds, 10)
    // A thread of its own: the loop blocks between rounds and for each round's network
    // calls, which a thread of Dispatch's global queues should not (while their workers
    // compute, a block queued there waits, and ``stop()`` with it).
    DetachedThread.start { [self] in run() }
  }

  /// Told by a recording store's writer thread that the journal at `path` holds new
  /// durable frames: asks for a round, without waiting for it. A journal not met before
  /// is shipped too (a store opened after another, with the same shipper).
  public func journalAdvanced(at path: String, closed: Bool) {
    state.withLock { state in
      if !state.journals.contains(path) { state.journals.append(path) }
      state.journal = path
    }
    ship()
  }

  /// ``waitUntilShipped(timeoutMilliseconds:)`` that says why not.
  /// - Throws: ``StreamError`` `timeout`, with the last round's failure, when the server
  ///   does not have every frame sealed by the call within `timeoutMilliseconds` (of every
  ///   journal the shipper was told of); at once when the shipper was stopped.
  public func waitUntilForwarded(timeoutMilliseconds: Int) throws {
    if state.withLock({ $0.stopped || $0.stopping }) {
      throw StreamError(
        .other, "the shipper was stopped: it sends nothing more", server: server.displayURL)
    }
    guard !waitUntilShipped(timeoutMilliseconds: timeoutMilliseconds) else { return }
    let (journal, failure, forGood) = state.withLock {
      ($0.journal, $0.lastError, $0.failedForGood)
    }
    // A server away is waited for; settings that are wrong are not.
    let outlook =
      failure == nil || !forGood
      ? "; it is sent when the server is back"
      : "; it is sent once that is fixed (the shipper tries again every \(intervalMilliseconds) ms)"
    throw StreamError(
      .timeout,
      "\(journal ?? "the journal") is not on the server after \(timeoutMilliseconds) ms"
        + (failure.map { " (last attempt: \($0))" } ?? "") + outlook,
      server: server.displayURL)
  }

  /// Asks for a round now (after a flush, say).
  public func ship() {
    state.withLock { $0.requested += 1 }
    wake.signal()
  }

  /// Why the last round failed (the server is away, say), or why the last try of the
  /// round under way did (a round tries again for 2 s); nil when the last round succeeded.
  public var lastError: String? { state.withLock { $0.lastError } }

  /// The frames the server held of the last journal shipped, after the last round that
  /// succeeded.
  public var framesOnServer: Int { state.withLock { $0.framesOnServer } }

  /// Asks for a round and waits until one that started after this call has shipped
  /// every frame sealed by then, for up to `timeoutMilliseconds`.
  /// - Returns: whether the server has them.
  public func waitUntilShipped(timeoutMilliseconds: Int) -> Bool {
    let target = state.withLock { state -> UInt64 in
      state.requested += 1
      return state.requested
    }
    wake.signal()
    var waited = 0
    // A failed round is followed by another after the interval.
    while waited < timeoutMilliseconds {
      if state.withLock({ $0.shipped >= target || $0.stopped }) { break }
      usleep(2_000)
      waited += 2
    }
    return state.withLock { $0.shipped >= target }
  }

  /// Stops after the round under way, waiting for it.
  public func stop() {
    let already = state.withLock { state -> Bool in
      defer { state.stopping = true }
      return state.stopping
    }
    guard !already else { return }
    wake.signal()
    finished.wait()
  }

  private func run() {
    var store: StreamStore?
    // What the store's last push of each journal left on the server: a round sends the
    // frames after it, reading nothing back (a new connection starts again from the
    // server's own index).
    var positions: [String: StreamStore.PushPosition] = [:]
    var failed = false
    while true {
      // After a failure, the next round comes after the interval; else when asked.
      if failed {
        _ = wake.wait(timeout: .now() + .milliseconds(intervalMilliseconds))
      } else {
        wake.wait()
      }
      // One round serves every request made by now.
      while wake.wait(timeout: .now()) == .success {}
      let (round, stopping, journals, last) = state.withLock {
        ($0.requested, $0.stopping, $0.journals, $0.journal)
      }
      if stopping { break }
      var failure: (any Error)?
      var frames: Int?
      var done: [String] = []
      for journal in journals {
        do {
          if store == nil {
            store = try StreamStore(server)
            store?.retryMilliseconds = 2000
            // A round that tries again (a server killed, a cluster electing a leader) says
            // why at once: flushes that time out meanwhile give the reason.
            store?.triedOnce = { [weak self] error in self?.noteFailedTry(error) }
          }
          guard let store else { break }
          let (report, position) = try store.push(journal, after: positions[journal])
          positions[journal] = position
          let summary = report.summary
          if journal == last { frames = summary.frameCount }
          // Closed on the server with every frame: nothing more to ship of it.
          if summary.isClosed {
            done.append(journal)
            positions[journal] = nil
          }
        } catch {
          // The server is away (or the connection broke): a new one next round.
          store = nil
          positions = [:]
          failure = error
          break
        }
      }
      failed = failure != nil
      state.withLock { state in
        state.lastError = failure.map { "\($0)" }
        state.failedForGood = failure.map(Self.isForGood) ?? false
        state.journals.removeAll { done.contains($0) }
        if failure == nil {
          state.shipped = max(state.shipped, round)
          if let frames { state.framesOnServer = frames }
        }
      }
    }
    state.withLock { $0.stopped = true }
    finished.signal()
  }

  /// Notes `error`, of a try the round under way makes again, as the last error.
  private func noteFailedTry(_ error: StreamError) {
    state.withLock { state in
      state.lastError = "\(error)"
      state.failedForGood = Self.isForGood(error)
    }
  }

  /// Whether `error` is a problem of the settings, which no later round overcomes: an
  /// address that is none, credentials refused or unusable, a server without JetStream,
  /// a journal that cannot be pushed.
  private static func isForGood(_ error: any Error) -> Bool {
    guard let error = error as? StreamError else { return true }
    switch error.kind {
    case .invalidAddress, .authorization, .streamMissing, .conflict: return true
    default: return false
    }
  }
}
