#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A thread of its own for a long-running loop (the journal writer of a `Store`, the
/// threads of a parallel scan, the rounds of a `SessionShipper`), made with POSIX threads:
/// the writer blocks on its semaphore between rounds, which a shared queue's thread should
/// not (and a wait queued on Dispatch's global queues waits for a thread while their
/// workers compute: libdispatch adds one only when they block), the library links no
/// Foundation for it, and a scan's threads start when asked (libdispatch starts its pool's
/// threads one after another: `Timeline.forEachPart`). (Unnamed: the C library module does
/// not declare `pthread_setname_np` on Linux.) In RewindJournal so that RewindCore and
/// RewindStream share it.
package enum DetachedThread {
  /// What a new thread runs: retained by the thread until it returns.
  private final class Body {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }

  /// Starts a detached thread that runs `body`.
  /// - Precondition: the system can start a thread (it fails only when out of resources,
  ///   which a recording cannot go on without; a parallel scan uses ``tryStart(_:)``).
  package static func start(_ body: @escaping @Sendable () -> Void) {
    let status = tryStart(body)
    precondition(status == 0, "cannot start a thread: error \(status)")
  }

  /// Starts a detached thread that runs `body`; 0, or `pthread_create`'s error (the system
  /// is out of threads or memory), `body` then not run but released.
  package static func tryStart(_ body: @escaping @Sendable () -> Void) -> Int32 {
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    #if canImport(Glibc)
      var thread = pthread_t()
    #else
      var thread: pthread_t?
    #endif
    let status = pthread_create(
      &thread, &attributes,
      { context in
        DetachedThread.run(context)
        return nil
      }, context)
    if status != 0 { Unmanaged<Body>.fromOpaque(context).release() }
    return status
  }

  /// The new thread's body: takes the `Body` retained for it (the context is optional in
  /// glibc's declaration and not in Darwin's; this takes either).
  private static func run(_ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
  }
}
