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
/// one (``StreamStore/push(_:progress:)``, which sends only what the server lacks). When
/// the server is away, rounds fail and recording goes on; the frames are sent once it is
/// back, nothing lost and nothing twice. Rounds run on a thread of their own every
/// `interval` and whenever ``ship()`` asks (requests made while a round runs are served
/// by one more round).
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
/// `Store(continuing: path, options: RecordingOptions(forwarder: shipper))`: told of the
/// journal as the store starts, the shipper first sends what the server lacks (frames
/// recorded while it was away, or a journal never shipped), then each new frame.
///
/// It can also ship a journal that something else writes:
/// `SessionShipper(journal: path, server: …)`, then ``ship()`` after each flush.
public final class SessionShipper: JournalForwarder {
  private struct State {
    /// The journal shipped, once known.
    var journal: String?
    /// Rounds asked for, and the last of them that a successful round covered.
    var requested: UInt64 = 0
    var shipped: UInt64 = 0
    var stopping = false
    var lastError: String?
    var framesOnServer = 0
  }

  /// The journal shipped: the one given, or the one a recording store told of; nil
  /// until then.
  public var journal: String? { state.withLock { $0.journal } }
  public let server: StreamServer
  private let state = Mutex(State())
  private let wake = DispatchSemaphore(value: 0)
  private let finished = DispatchSemaphore(value: 0)
  private let intervalMilliseconds: Int

  /// Starts shipping `journal` to `server`: a round at once, then every
  /// `intervalMilliseconds` and whenever ``ship()`` asks.
  public convenience init(
    journal: String, server: StreamServer, intervalMilliseconds: Int = 1000
  ) {
    self.init(server: server, intervalMilliseconds: intervalMilliseconds)
    state.withLock { $0.journal = journal }
    ship()
  }

  /// A shipper for the journal of a recording `Store` that is given it as its
  /// forwarder: it learns the journal from the store (``journalAdvanced(at:closed:)``)
  /// and ships nothing before.
  public init(server: StreamServer, intervalMilliseconds: Int = 1000) {
    self.server = server
    self.intervalMilliseconds = intervalMilliseconds
    // A thread of its own: the loop blocks between rounds and for each round's network
    // calls, which a thread of Dispatch's global queues should not (while their workers
    // compute, a block queued there waits, and ``stop()`` with it).
    DetachedThread.start { [self] in run() }
  }

  /// Told by a recording store's writer thread that the journal at `path` holds new
  /// durable frames: asks for a round, without waiting for it.
  public func journalAdvanced(at path: String, closed: Bool) {
    state.withLock { state in
      if state.journal == nil { state.journal = path }
    }
    ship()
  }

  /// ``waitUntilShipped(timeoutMilliseconds:)`` that says why not.
  /// - Throws: ``StreamError`` `timeout`, with the last round's failure, when the server
  ///   does not have every frame sealed by the call within `timeoutMilliseconds`.
  public func waitUntilForwarded(timeoutMilliseconds: Int) throws {
    guard !waitUntilShipped(timeoutMilliseconds: timeoutMilliseconds) else { return }
    let (journal, failure) = state.withLock { ($0.journal, $0.lastError) }
    throw StreamError(
      .timeout,
      "\(journal ?? "the journal") is not on the server after \(timeoutMilliseconds) ms"
        + (failure.map { " (last attempt: \($0))" } ?? ""),
      server: server.displayURL)
  }

  /// Asks for a round now (after a flush, say).
  public func ship() {
    state.withLock { $0.requested += 1 }
    wake.signal()
  }

  /// Why the last round failed (the server is away, say), nil when it succeeded.
  public var lastError: String? { state.withLock { $0.lastError } }

  /// The frames the server held after the last round that succeeded.
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
      if state.withLock({ $0.shipped >= target }) { return true }
      usleep(10_000)
      waited += 10
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
    while true {
      _ = wake.wait(timeout: .now() + .milliseconds(intervalMilliseconds))
      // One round serves every request made by now.
      while wake.wait(timeout: .now()) == .success {}
      let (round, stopping, journal) = state.withLock {
        ($0.requested, $0.stopping, $0.journal)
      }
      if stopping { break }
      guard let journal else { continue }
      var failure: String?
      var frames = 0
      do {
        if store == nil {
          store = try StreamStore(server)
          store?.retryMilliseconds = 2000
        }
        if let store { frames = try store.push(journal).summary.frameCount }
      } catch {
        // The server is away (or the connection broke): a new one next round.
        store = nil
        failure = "\(error)"
      }
      state.withLock { state in
        state.lastError = failure
        if failure == nil {
          state.shipped = max(state.shipped, round)
          state.framesOnServer = frames
        }
      }
    }
    finished.signal()
  }
}
