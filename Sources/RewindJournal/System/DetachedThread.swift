import CThreadPlacement

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
  /// What a new thread runs, and the CPUs it may run on once started elsewhere: retained
  /// by the thread until it returns.
  private final class Body {
    let run: @Sendable () -> Void
    let cpus: rewind_cpus?
    init(_ run: @escaping @Sendable () -> Void, cpus: rewind_cpus?) {
      self.run = run
      self.cpus = cpus
    }
  }

  /// Starts a detached thread that runs `body`.
  /// - Precondition: the system can start a thread (it fails only when out of resources,
  ///   which a recording cannot go on without; a parallel scan uses
  ///   ``tryStart(elsewhere:_:)``).
  package static func start(_ body: @escaping @Sendable () -> Void) {
    let status = tryStart(body)
    precondition(status == 0, "cannot start a thread: error \(status)")
  }

  /// Starts a detached thread that runs `body`; 0, or `pthread_create`'s error (the system
  /// is out of threads or memory), `body` then not run but released.
  ///
  /// - Parameter elsewhere: for a thread that should not start on the CPU the calling
  ///   thread runs on, because the calling thread goes on computing (a parallel scan whose
  ///   calling thread takes parts too): the thread starts on the `elsewhere`-th (from 0)
  ///   of the other CPUs this thread may run on, counting round, then may run on any of
  ///   them, as the calling thread. Linux puts a new thread on its maker's CPU: there, it
  ///   waited up to milliseconds for the system to move it to an idle one (BENCHMARKS.md,
  ///   "Session 46"). Nil, or on a system other than Linux: wherever the system puts it.
  package static func tryStart(elsewhere: Int? = nil, _ body: @escaping @Sendable () -> Void)
    -> Int32
  {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    var cpus: rewind_cpus?
    if let elsewhere {
      var allowed = rewind_cpus()
      let current = Int(rewind_thread_current_cpu())
      if current >= 0, rewind_thread_cpus(&allowed) == 0,
        let cpu = cpu(elsewhere: elsewhere, among: numbers(of: allowed), current: current),
        rewind_thread_attributes_cpu(&attributes, Int32(cpu)) == 0
      {
        cpus = allowed
      }
    }
    let context = Unmanaged.passRetained(Body(body, cpus: cpus)).toOpaque()
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

  /// The CPU a thread started `elsewhere` (``tryStart(elsewhere:_:)``) starts on: of
  /// `cpus` (in increasing order) but `current`, the `index`-th (from 0) after `current`,
  /// counting round; nil when `cpus` holds no other CPU.
  package static func cpu(elsewhere index: Int, among cpus: [Int], current: Int) -> Int? {
    let others = cpus.filter { $0 != current }
    guard !others.isEmpty, index >= 0 else { return nil }
    let after = others.firstIndex { $0 > current } ?? 0
    return others[(after + index % others.count) % others.count]
  }

  /// The CPUs the calling thread may run on, in increasing order; nil when they are not
  /// known (on a system other than Linux).
  package static var cpus: [Int]? {
    var allowed = rewind_cpus()
    guard rewind_thread_cpus(&allowed) == 0 else { return nil }
    return numbers(of: allowed)
  }

  /// The numbers of the CPUs in `cpus`, in increasing order.
  private static func numbers(of cpus: rewind_cpus) -> [Int] {
    // The set's words, as the C library's macros read them: CPU n is bit n % w of word
    // n / w, for words of w bits.
    withUnsafeBytes(of: cpus) { bytes in
      let size = MemoryLayout<CUnsignedLong>.size
      var numbers: [Int] = []
      for word in 0..<(bytes.count / size) {
        let bits = bytes.loadUnaligned(fromByteOffset: word * size, as: CUnsignedLong.self)
        for bit in 0..<(size * 8) where bits & (1 << bit) != 0 {
          numbers.append(word * size * 8 + bit)
        }
      }
      return numbers
    }
  }

  /// The new thread's body: takes the `Body` retained for it (the context is optional in
  /// glibc's declaration and not in Darwin's; this takes either), and lets the thread run
  /// on every CPU its maker may, when it was started elsewhere.
  private static func run(_ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    let body = Unmanaged<Body>.fromOpaque(context).takeRetainedValue()
    if var cpus = body.cpus { _ = rewind_thread_set_cpus(&cpus) }
    body.run()
  }
}
