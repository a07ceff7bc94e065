#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An open journal file: the owner of one file descriptor, closed in `deinit`.
///
/// All reads and writes are positional (`pread`/`pwrite`), so one file can serve
/// several readers and there is no shared file offset to get wrong. Short reads and
/// writes and `EINTR` are retried here; every failure becomes a ``JournalError`` naming
/// the file and the offset.
final class JournalFile {
  enum Mode {
    /// Read only.
    case read
    /// Read and write an existing file.
    case update
    /// Create a new file; fails if it exists.
    case create
  }

  let descriptor: Int32
  let path: String
  let system: SystemCalls
  /// The identity this file registered as write-locked by this process (``FileLock``);
  /// forgotten when the file is closed, however that happens.
  var lockedIdentity: FileIdentity?

  init(path: String, mode: Mode, system: SystemCalls = .live) throws(JournalError) {
    self.path = path
    self.system = system
    let flags: Int32
    switch mode {
    case .read: flags = O_RDONLY
    case .update: flags = O_RDWR
    case .create: flags = O_RDWR | O_CREAT | O_EXCL
    }
    let descriptor = open(path, flags | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      let number = errno
      switch number {
      case ENOENT:
        throw JournalError(.notFound, "no such file", path: path, cause: errnoCause(number))
      case EEXIST:
        throw JournalError(
          .alreadyExists, "the file already exists; it is never overwritten silently", path: path,
          cause: errnoCause(number))
      default:
        throw JournalError(.io, "cannot open the file", path: path, cause: errnoCause(number))
      }
    }
    self.descriptor = descriptor
    var status = stat()
    if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
      close(descriptor)
      throw JournalError(.io, "is a directory, not a journal file", path: path)
    }
    if mode == .create { JournalFile.syncDirectory(of: path) }
  }

  deinit {
    if let lockedIdentity { FileLock.forget(lockedIdentity) }
    close(descriptor)
  }

  /// The file's size in bytes.
  func size() throws(JournalError) -> UInt64 {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw JournalError(.io, "cannot read the file's size", path: path, cause: errnoCause())
    }
    return UInt64(status.st_size)
  }

  /// The device and inode, identifying the file whatever path names it.
  func identity() -> FileIdentity? {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return nil }
    return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
  }

  /// Reads up to `buffer.count` bytes at `offset`; fewer only at the end of the file.
  /// - Returns: the number of bytes read.
  func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(JournalError)
    -> Int
  {
    var done = 0
    while done < buffer.count {
      let result = system.pread(
        descriptor, buffer.baseAddress! + done, buffer.count - done, Int64(offset) + Int64(done))
      if result < 0 {
        if errno == EINTR { continue }
        throw JournalError(
          .io, "cannot read \(buffer.count) bytes", path: path, byteOffset: offset,
          cause: errnoCause())
      }
      if result == 0 { break }
      done += result
    }
    return done
  }

  /// Reads exactly `count` bytes at `offset`, or `nil` if the file ends first.
  func read(count: Int, at offset: UInt64) throws(JournalError) -> [UInt8]? {
    var failure: JournalError?
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      do throws(JournalError) {
        initialized = try read(into: UnsafeMutableRawBufferPointer(buffer), at: offset)
      } catch {
        failure = error
        initialized = 0
      }
    }
    if let failure { throw failure }
    return bytes.count == count ? bytes : nil
  }

  /// Writes all of `bytes` at `offset`.
  func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws(JournalError) {
    var done = 0
    while done < bytes.count {
      let result = system.pwrite(
        descriptor, bytes.baseAddress! + done, bytes.count - done, Int64(offset) + Int64(done))
      if result < 0 {
        if errno == EINTR { continue }
        throw JournalError(
          .io, "cannot write \(bytes.count) bytes", path: path, byteOffset: offset + UInt64(done),
          cause: errnoCause())
      }
      done += result
    }
  }

  /// Forces written data to stable storage (`fsync`).
  func sync() throws(JournalError) {
    while system.fsync(descriptor) != 0 {
      if errno == EINTR { continue }
      throw JournalError(.io, "cannot sync the file to disk", path: path, cause: errnoCause())
    }
  }

  /// Cuts the file to `length` bytes (`ftruncate`).
  func truncate(to length: UInt64) throws(JournalError) {
    while system.ftruncate(descriptor, Int64(length)) != 0 {
      if errno == EINTR { continue }
      throw JournalError(
        .io, "cannot truncate the file to \(length) bytes", path: path, cause: errnoCause())
    }
  }

  /// Makes a file's directory entry durable, as a new or renamed file needs.
  static func syncDirectory(of path: String) {
    let directory: String
    if let slash = path.lastIndex(of: "/") {
      directory = slash == path.startIndex ? "/" : String(path[..<slash])
    } else {
      directory = "."
    }
    let descriptor = open(directory, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    _ = fsync(descriptor)
  }
}

/// A file's device and inode numbers.
struct FileIdentity: Hashable, Sendable {
  var device: UInt64
  var inode: UInt64
}
