import Foundation
package import RewindJournal
import Synchronization

/// The steps of writing files that the tests make fail: each is a system call of the
/// journal's seam (``FileSystemCalls``), told apart by its arguments.
package enum FileStep: String, CaseIterable, Sendable {
  /// `open` of an unnamed file in a directory (`O_TMPFILE`).
  case createUnnamed
  /// `open` with `O_CREAT`: a new named file.
  case create
  /// `open` of a directory (to sync it).
  case openDirectory
  /// `read` (of a text file).
  case read
  /// `pwrite`.
  case write
  /// `fsync` of a file.
  case syncFile
  /// `fsync` of a directory.
  case syncDirectory
  case truncate
  case link
  case rename
  case unlink
  /// `fcntl` taking or testing a lock.
  case lock
  /// `fchmod`.
  case changeMode
  /// `fchown`.
  case changeOwner
}

/// A file system that counts the calls made through it and fails the ones it is told to,
/// as a full disk, a read-only file system or a failing device would.
package final class FaultyFileSystem: Sendable {
  package init() {}

  private struct State {
    /// errno to fail a step with, and how many calls of it succeed first.
    var failures: [FileStep: (errno: Int32, skip: Int)] = [:]
    var counts: [FileStep: Int] = [:]
    /// The open descriptors of directories, to tell their fsync from a file's.
    var directories: Set<Int32> = []
    /// Bytes a failing `pwrite` writes before it fails.
    var partialWrite = 0
    /// Calls of any kind so far, and the one that fails (see ``failCall(_:with:persisting:)``).
    var calls = 0
    /// Each call, briefly (`stat a.journal`), in order.
    var log: [String] = []
    var failingCall: (number: Int, errno: Int32, persisting: Bool)?
    /// What the writers warned of (``FileSystemCalls/warn``), in order.
    var warnings: [String] = []
  }

  private let state = Mutex(State())

  /// Makes `step` fail with `errno` once `skip` calls of it have succeeded, until
  /// ``heal()``; a failing write first writes `partialWrite` bytes.
  package func fail(_ step: FileStep, with errno: Int32, after skip: Int = 0, partialWrite: Int = 0)
  {
    state.withLock {
      $0.failures[step] = (errno, ($0.counts[step] ?? 0) + skip)
      $0.partialWrite = partialWrite
    }
  }

  /// Makes call number `number` of the seam fail with `errno`, counting every call of
  /// every kind from 1 (``callCount`` after a run without failures tells how many there
  /// are); when `persisting`, every later call fails too (a disk that filled up, a file
  /// system remounted read-only), until ``heal()``.
  ///
  /// A failing `close` still closes the descriptor, as Linux does.
  package func failCall(_ number: Int, with errno: Int32, persisting: Bool = false) {
    state.withLock { $0.failingCall = (number, errno, persisting) }
  }

  /// The number of calls made through the seam so far.
  package var callCount: Int { state.withLock { $0.calls } }

  /// Call number `number` (from 1), briefly: its function and the file's name or the
  /// descriptor (`stat a.journal`, `fsync 7`), to say which call a failure was.
  package func call(_ number: Int) -> String {
    state.withLock { number <= $0.log.count ? $0.log[number - 1] : "call \(number)" }
  }

  /// Stops every failure.
  package func heal() {
    state.withLock {
      $0.failures = [:]
      $0.failingCall = nil
    }
  }

  /// Counts a call and says whether it fails, by its number, with which errno.
  private func numberedFailure(_ function: String, _ argument: String) -> Int32? {
    state.withLock { state in
      state.calls += 1
      state.log.append("\(function) \(argument.split(separator: "/").last ?? "")")
      guard let failing = state.failingCall,
        state.calls == failing.number || (failing.persisting && state.calls > failing.number)
      else { return nil }
      return failing.errno
    }
  }

  /// The warnings the writers gave through these calls (``FileSystemCalls/warn``), each
  /// as its description; they are kept here instead of written to standard error.
  package var warnings: [String] { state.withLock { $0.warnings } }

  /// How many times `step` was called (failed calls included).
  package func count(_ step: FileStep) -> Int { state.withLock { $0.counts[step] ?? 0 } }

  /// Counts a call of `step` and says whether it fails, with which errno.
  private func failure(_ step: FileStep) -> Int32? {
    state.withLock { state in
      let count = (state.counts[step] ?? 0) + 1
      state.counts[step] = count
      guard let failure = state.failures[step], count > failure.skip else { return nil }
      return failure.errno
    }
  }

  private static func fail(_ number: Int32) -> Int32 {
    errno = number
    return -1
  }

  /// `O_TMPFILE` without `O_DIRECTORY`, as the writer passes it.
  private static let unnamedFlag: Int32 = 0o20000000

  package var calls: FileSystemCalls {
    let live = FileSystemCalls.live
    var calls = live
    calls.fstat = { [self] descriptor, status in
      if let number = numberedFailure("fstat", "\(descriptor)") { return Self.fail(number) }
      return live.fstat(descriptor, status)
    }
    calls.stat = { [self] path, status in
      if let number = numberedFailure("stat", path) { return Self.fail(number) }
      return live.stat(path, status)
    }
    calls.pread = { [self] descriptor, buffer, count, offset in
      if let number = numberedFailure("pread", "\(descriptor)") { return Int(Self.fail(number)) }
      return live.pread(descriptor, buffer, count, offset)
    }
    calls.open = { [self] path, flags, mode in
      if let number = numberedFailure("open", path) { return Self.fail(number) }
      let step: FileStep? =
        flags & FaultyFileSystem.unnamedFlag != 0
        ? .createUnnamed
        : flags & O_CREAT != 0 ? .create : flags & O_DIRECTORY != 0 ? .openDirectory : nil
      if let step, let number = failure(step) {
        errno = number
        return -1
      }
      let descriptor = live.open(path, flags, mode)
      if step == .openDirectory, descriptor >= 0 {
        state.withLock { _ = $0.directories.insert(descriptor) }
      }
      return descriptor
    }
    calls.close = { [self] descriptor in
      let failure = numberedFailure("close", "\(descriptor)")
      state.withLock { _ = $0.directories.remove(descriptor) }
      let result = live.close(descriptor)
      if let failure { return Self.fail(failure) }
      return result
    }
    calls.read = { [self] descriptor, buffer, count in
      if let number = numberedFailure("read", "\(descriptor)") { return Int(Self.fail(number)) }
      if let number = failure(.read) {
        errno = number
        return -1
      }
      return live.read(descriptor, buffer, count)
    }
    calls.pwrite = { [self] descriptor, buffer, count, offset in
      if let number = numberedFailure("pwrite", "\(descriptor)") { return Int(Self.fail(number)) }
      guard let number = failure(.write) else {
        return live.pwrite(descriptor, buffer, count, offset)
      }
      let partial = state.withLock { state in
        defer { state.partialWrite = 0 }
        return state.partialWrite
      }
      if partial > 0 { return live.pwrite(descriptor, buffer, min(partial, count), offset) }
      errno = number
      return -1
    }
    calls.fsync = { [self] descriptor in
      if let number = numberedFailure("fsync", "\(descriptor)") { return Self.fail(number) }
      let isDirectory = state.withLock { $0.directories.contains(descriptor) }
      if let number = failure(isDirectory ? .syncDirectory : .syncFile) {
        errno = number
        return -1
      }
      return live.fsync(descriptor)
    }
    calls.ftruncate = { [self] descriptor, length in
      if let number = numberedFailure("ftruncate", "\(descriptor)") { return Self.fail(number) }
      if let number = failure(.truncate) {
        errno = number
        return -1
      }
      return live.ftruncate(descriptor, length)
    }
    calls.link = { [self] existing, new in
      if let number = numberedFailure("link", new) { return Self.fail(number) }
      if let number = failure(.link) {
        errno = number
        return -1
      }
      return live.link(existing, new)
    }
    calls.rename = { [self] from, to in
      if let number = numberedFailure("rename", from) { return Self.fail(number) }
      if let number = failure(.rename) {
        errno = number
        return -1
      }
      return live.rename(from, to)
    }
    // Swapping two names is a rename's step too (an in-place recovery moves its journal in
    // so).
    calls.exchange = { [self] first, second in
      if let number = numberedFailure("rename", first) { return Self.fail(number) }
      if let number = failure(.rename) {
        errno = number
        return -1
      }
      return live.exchange(first, second)
    }
    calls.unlink = { [self] path in
      if let number = numberedFailure("unlink", path) { return Self.fail(number) }
      if let number = failure(.unlink) {
        errno = number
        return -1
      }
      return live.unlink(path)
    }
    calls.fchmod = { [self] descriptor, mode in
      if let number = numberedFailure("fchmod", "\(descriptor)") { return Self.fail(number) }
      if let number = failure(.changeMode) {
        errno = number
        return -1
      }
      return live.fchmod(descriptor, mode)
    }
    calls.fchown = { [self] descriptor, owner, group in
      if let number = numberedFailure("fchown", "\(descriptor)") { return Self.fail(number) }
      if let number = failure(.changeOwner) {
        errno = number
        return -1
      }
      return live.fchown(descriptor, owner, group)
    }
    calls.warn = { [self] warning in
      state.withLock { $0.warnings.append(warning.description) }
    }
    calls.fcntlLock = { [self] descriptor, command, lock in
      if let number = numberedFailure("fcntl", "\(descriptor)") { return Self.fail(number) }
      if let number = failure(.lock) {
        errno = number
        return -1
      }
      return live.fcntlLock(descriptor, command, lock)
    }
    return calls
  }
}

/// The errors a disk gives, to inject at each call of the seam in turn
/// (``FaultyFileSystem/failCall(_:with:persisting:)``): once (a passing I/O error), or
/// from that call on (a full disk, a file system remounted read-only).
package let injectedErrors: [(errno: Int32, persisting: Bool)] = [
  (EIO, false), (ENOSPC, true), (EROFS, true), (ENOSPC, false), (EIO, true), (EROFS, false),
]

/// The errors to inject at call `call`: `REWIND_SOAK_IO_ERROR_KINDS` of
/// ``injectedErrors`` (all six in the long runs, `standard` by default), taken in turn so
/// that every kind meets calls all along the run.
package func injectedErrors(atCall call: Int, standard: Int) -> [(errno: Int32, persisting: Bool)] {
  let count = min(soakCount("IO_ERROR_KINDS", standard: standard), injectedErrors.count)
  return (0..<count).map { injectedErrors[(call + $0) % injectedErrors.count] }
}

/// Whether `error` says what failed and why: it names `path` and the errno's text.
package func isClear(_ error: any Error, naming path: String, errno number: Int32) -> Bool {
  let text = "\(error)"
  return text.contains(path) && text.contains(String(cString: strerror(number)))
}
