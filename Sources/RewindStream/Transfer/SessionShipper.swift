import Dispatch
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
/// `interval` and whenever ``ship()`` asks.
///
/// ```swift
/// let shipper = SessionShipper(journal: path, server: StreamServer(url: "nats://…"))
/// // … record; after store.flush():
/// shipper.ship()
/// _ = shipper.waitUntilShipped(timeoutMilliseconds: 5000)
/// shipper.stop()
/// ```
public final class SessionShipper: Sendable {
  private struct State {
    /// Rounds asked for, and the last of them that a successful round covered.
    var requested: UInt64 = 0
    var shipped: UInt64 = 0
    var stopping = false
    var lastError: String?
    var framesOnServer = 0
  }

  /// The journal shipped.
  public let journal: String
  public let server: StreamServer
  private let state = Mutex(State())
  private let wake = DispatchSemaphore(value: 0)
  private let finished = DispatchSemaphore(value: 0)
  private let intervalMilliseconds: Int

  /// Starts shipping `journal` to `server`: a round at once, then every
  /// `intervalMilliseconds` and whenever ``ship()`` asks.
  public init(journal: String, server: StreamServer, intervalMilliseconds: Int = 1000) {
    self.journal = journal
    self.server = server
    self.intervalMilliseconds = intervalMilliseconds
    DispatchQueue.global(qos: .utility).async { [self] in run() }
    ship()
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
      let (round, stopping) = state.withLock { ($0.requested, $0.stopping) }
      if stopping { break }
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
