import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The advisory lock that allows one writer per journal.
///
/// Exclusion uses an open-file-description lock (Linux `F_OFD_SETLK`) on byte 0: it
/// conflicts between processes and between two opens in one process, and it is released
/// when the descriptor closes, including when the process is killed. A second,
/// classic POSIX lock on byte 1 only serves to tell another process *who* holds the
/// journal (`F_GETLK` reports the holder's pid; OFD locks report none). Locks are
/// advisory: readers never take them and never wait.
enum FileLock {
  /// The journals this process holds write locks on, to name the holder when the
  /// second writer is in this same process (`F_GETLK` does not see one's own locks).
  private static let heldHere = Mutex<Set<FileIdentity>>([])

  /// The commands that set and test the exclusion lock on byte 0.
  #if os(Linux)
    private static let setExclusion: Int32 = 37  // F_OFD_SETLK
    private static let getExclusion: Int32 = 36  // F_OFD_GETLK
  #else
    private static let setExclusion = F_SETLK
    private static let getExclusion = F_GETLK
  #endif

  /// Takes the write lock on `file` or throws ``JournalError/Code/locked`` naming the
  /// holder's pid.
  /// - Parameter shared: take a read lock instead, which only keeps writers out (for
  ///   copying a journal that must not change meanwhile).
  static func acquire(_ file: JournalFile, shared: Bool = false) throws(JournalError) {
    // A writer of this process holds it: refused on every platform, whatever the
    // kernel's lock semantics within one process.
    if let identity = file.identity(), heldHere.withLock({ $0.contains(identity) }) {
      throw JournalError(
        .locked,
        "journal is being written by another writer in this process (pid \(getpid())); close that one first",
        path: file.path)
    }
    var exclusive = lockRange(start: 0, type: shared ? F_RDLCK : F_WRLCK)
    if file.system.fcntlLock(file.descriptor, setExclusion, &exclusive) != 0 {
      let number = errno
      guard number == EAGAIN || number == EACCES else {
        throw JournalError(
          .io, "cannot lock the journal for writing", path: file.path, cause: errnoCause(number))
      }
      throw JournalError(.locked, conflict(on: file), path: file.path)
    }
    file.holdsLock = true
    if shared { return }
    markHolder(file)
    if let identity = file.identity() {
      heldHere.withLock { _ = $0.insert(identity) }
      file.lockedIdentity = identity
    }
  }

  /// Takes the lock that keeps a second in-place recovery of `file` out, or throws
  /// ``JournalError/Code/locked``: on Linux, a `flock` on the file, which the writers'
  /// `fcntl` locks never meet there (a file opened only to read takes it). Two recoveries
  /// in place at once would do the work twice, the second one failing at its end. Elsewhere
  /// (BSD's `flock` and `fcntl` locks meet: it would conflict with the recovery's own read
  /// lock) it takes nothing; recovery stays safe without it. Closing `file` releases it, as
  /// ``release(_:)`` does.
  static func acquireRecovery(_ file: JournalFile) throws(JournalError) {
    #if os(Linux)
      guard flock(file.descriptor, LOCK_EX | LOCK_NB) != 0 else { return }
      let number = errno
      // A file system without flock: no exclusion to take.
      guard number == EWOULDBLOCK || number == EAGAIN else { return }
      throw JournalError(
        .locked,
        "another recovery of this journal is running (`rewind recover`); let it end: a journal it repaired needs no second recovery",
        path: file.path)
    #endif
  }

  /// (Re)takes the POSIX record lock on byte 1 that tells other processes the holder's
  /// pid. POSIX drops it when this process closes *any* descriptor of the file (a reader
  /// it opened), so a writer takes it again after such reads.
  static func markHolder(_ file: JournalFile) {
    var marker = lockRange(start: 1, type: F_WRLCK)
    _ = file.system.fcntlLock(file.descriptor, F_SETLK, &marker)
  }

  /// Releases the locks taken on `file` (its `deinit` does if they are still held, and
  /// tries again if unlocking failed here).
  static func release(_ file: JournalFile) {
    if let identity = file.lockedIdentity {
      heldHere.withLock { _ = $0.remove(identity) }
      file.lockedIdentity = nil
    }
    var marker = lockRange(start: 1, type: F_UNLCK)
    _ = file.system.fcntlLock(file.descriptor, F_SETLK, &marker)
    #if os(Linux)
      // A recovery's lock (``acquireRecovery(_:)``), if it took one: not left to the close.
      _ = flock(file.descriptor, LOCK_UN)
    #endif
    var exclusive = lockRange(start: 0, type: F_UNLCK)
    file.holdsLock = file.system.fcntlLock(file.descriptor, setExclusion, &exclusive) != 0
  }

  /// The writer holding `file`'s write lock now, if any: a journal that is not closed
  /// and has one is still being written; one without was left by a writer that stopped
  /// without closing it.
  ///
  /// Asks the kernel (`fcntl` `F_OFD_GETLK` on Linux, `F_GETLK` elsewhere) without taking
  /// any lock. A read lock (a recovery copying the journal) is no writer's.
  static func writer(of file: JournalFile) -> LockHolder? {
    if let identity = file.identity(), heldHere.withLock({ $0.contains(identity) }) {
      return LockHolder(pid: getpid())
    }
    guard conflicting(getExclusion, at: 0, on: file)?.l_type == Int16(F_WRLCK) else { return nil }
    return LockHolder(pid: conflicting(F_GETLK, at: 1, on: file)?.l_pid)
  }

  /// Why `file`'s lock could not be taken: a writer holds it, named by its pid when it
  /// can be told, or a recovery or a replacement of the file reads it under a read lock
  /// (which keeps writers out while it copies the journal).
  private static func conflict(on file: JournalFile) -> String {
    if conflicting(getExclusion, at: 0, on: file)?.l_type == Int16(F_RDLCK) {
      return
        "journal is being read by a recovery or a replacement of the file, which keeps writers out until it ends"
    }
    return "journal is being written by another process (pid \(holder(of: file)))"
  }

  private static func holder(of file: JournalFile) -> String {
    if let identity = file.identity(), heldHere.withLock({ $0.contains(identity) }) {
      return "\(getpid()), this process"
    }
    if let marker = conflicting(F_GETLK, at: 1, on: file) { return "\(marker.l_pid)" }
    return "unknown"
  }

  /// The lock that keeps a write lock on byte `start` of `file` out, as `command` (a test
  /// of a lock: ``getExclusion`` on byte 0, `F_GETLK` on the holder's mark on byte 1)
  /// reports it; nil when there is none, or the test fails.
  private static func conflicting(_ command: Int32, at start: Int, on file: JournalFile)
    -> flock?
  {
    var probe = lockRange(start: start, type: F_WRLCK)
    guard file.system.fcntlLock(file.descriptor, command, &probe) == 0,
      probe.l_type != Int16(F_UNLCK)
    else { return nil }
    return probe
  }

  private static func lockRange(start: Int, type: Int32) -> flock {
    var range = flock()
    range.l_type = Int16(type)
    range.l_whence = Int16(SEEK_SET)
    range.l_start = off_t(start)
    range.l_len = 1
    return range
  }
}

/// A process holding a journal's write lock: its writer, still writing.
public struct LockHolder: Sendable, Equatable {
  /// The writer's process id, when its marker lock tells it (it is dropped for a moment
  /// while the writer reads its own journal).
  public var pid: Int32?
}
