#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An open journal file: the owner of one file descriptor, closed in `deinit` or by
/// ``closeDescriptor()``.
///
/// All reads and writes are positional (`pread`/`pwrite`), so one file can serve
/// several readers and there is no shared file offset to get wrong. Short reads and
/// writes and `EINTR` are retried here; every failure becomes a ``JournalError`` naming
/// the file and the offset. Every call goes through ``FileSystemCalls``.
final class JournalFile {
  enum Mode {
    /// Read only.
    case read
    /// Read and write an existing file.
    case update
    /// Create a new file; fails if it exists.
    case create
  }

  /// The descriptor; -1 once ``closeDescriptor()`` closed it (every call on it then fails
  /// with `EBADF`, which the calls turn into errors naming the file).
  private(set) var descriptor: Int32
  /// The path errors name: the file's own, or the destination of a file being written
  /// beside it (``AtomicFileWriter``), whose temporary name a user never needs to see.
  let path: String
  let system: FileSystemCalls
  /// Whether this file holds a lock (``FileLock``, read or write), released before its
  /// descriptor closes.
  var holdsLock = false
  /// The identity this file registered as write-locked by this process (``FileLock``);
  /// forgotten when the lock is released.
  var lockedIdentity: FileIdentity?

  init(path: String, mode: Mode, system: FileSystemCalls = .live) throws(JournalError) {
    // O_NONBLOCK: opening a FIFO waits for a writer without it, forever if none comes; a
    // FIFO is refused below, and on a regular file the flag changes nothing.
    let flags: Int32
    switch mode {
    case .read: flags = O_RDONLY | O_NONBLOCK
    case .update: flags = O_RDWR | O_NONBLOCK
    case .create: flags = O_RDWR | O_CREAT | O_EXCL
    }
    let descriptor = try JournalFile.open(path, flags: flags, system: system)
    self.descriptor = descriptor
    self.path = path
    self.system = system
    var status = stat()
    guard system.fstat(descriptor, &status) == 0 else { return }
    // deinit closes the descriptor.
    switch status.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR:
      throw JournalError(
        .io, "is a directory, not a journal file" + JournalFile.journalsHint(in: path), path: path)
    default:
      // A pipe or a device has no size and no positions to read at: a journal is a file.
      throw JournalError(
        .io, "is not a regular file (a device, pipe or socket), not a journal file", path: path)
    }
  }

  /// The journals in the directory `path`, as the end of a sentence (`; it holds 6
  /// journals (DIR/*.journal)`), or nothing when it holds none.
  static func journalsHint(in path: String) -> String {
    guard let directory = opendir(path) else { return "" }
    defer { closedir(directory) }
    var count = 0
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name.hasSuffix(".journal"), name != ".journal" { count += 1 }
    }
    guard count > 0 else { return "" }
    let glob = (path.hasSuffix("/") ? path : path + "/") + "*.journal"
    return "; it holds \(count) journal\(count == 1 ? "" : "s") (\(glob))"
  }

  /// Adopts a descriptor that is already open; errors will name `path`.
  init(descriptor: Int32, path: String, system: FileSystemCalls) {
    self.descriptor = descriptor
    self.path = path
    self.system = system
  }

  deinit { closeDescriptor() }

  /// Releases the file's lock and closes its descriptor, now rather than when the file is
  /// released: a process's locks on a file are dropped when it closes any descriptor of
  /// it, so a descriptor left open by a closed writer would, when its owner is released,
  /// drop the lock of a writer that opened the same journal since. Closing twice is
  /// harmless.
  func closeDescriptor() {
    guard descriptor >= 0 else { return }
    // Unlocked before it closes: closing releases the lock only when no other descriptor
    // shares this open file, and a child process that another thread is starting holds a
    // copy of every descriptor until it execs, so a journal closed meanwhile would stay
    // locked for a moment, and a writer opening it then would be refused.
    if holdsLock { FileLock.release(self) }
    _ = system.close(descriptor)
    descriptor = -1
  }

  /// Opens `path`, retrying `EINTR`, and turns a failure into an error naming it.
  static func open(_ path: String, flags: Int32, system: FileSystemCalls) throws(JournalError)
    -> Int32
  {
    // An empty path names no file; an error naming it would start with a bare colon.
    guard !path.isEmpty else { throw JournalError(.notFound, emptyPathMessage) }
    while true {
      let descriptor = system.open(path, flags | O_CLOEXEC, 0o644)
      if descriptor >= 0 { return descriptor }
      let number = errno
      switch number {
      case EINTR:
        continue
      case ENOENT where flags & O_CREAT != 0:
        // Creating, the file's directory is missing (a directory that makes no files,
        // /proc, fails so too, and is not said to be missing).
        let directory = directory(of: path)
        let isDirectory = status(of: directory, system: system).map {
          $0.st_mode & S_IFMT == S_IFDIR
        }
        throw JournalError(
          .notFound,
          isDirectory == true
            ? "cannot create the file"
            : "cannot create the file: there is no directory \(directory)",
          path: path, cause: errnoCause(number))
      case ENOENT:
        throw JournalError(.notFound, "no such file", path: path, cause: errnoCause(number))
      case EEXIST:
        // A directory there is no file to keep: said as what it is (as when replacing).
        if status(of: path, system: system).map({ $0.st_mode & S_IFMT == S_IFDIR }) == true {
          throw JournalError.directoryGiven(path)
        }
        throw JournalError(
          .alreadyExists, "the file already exists; it is never overwritten silently", path: path,
          cause: errnoCause(number))
      default:
        throw JournalError(.io, "cannot open the file", path: path, cause: errnoCause(number))
      }
    }
  }

  /// The file's size in bytes.
  func size() throws(JournalError) -> UInt64 {
    var status = stat()
    guard system.fstat(descriptor, &status) == 0 else {
      throw JournalError(.io, "cannot read the file's size", path: path, cause: errnoCause())
    }
    return UInt64(status.st_size)
  }

  /// The file's permission bits (`rwx` for its owner, group and others), nil when the
  /// system does not say them.
  func permissions() -> mode_t? {
    var status = stat()
    guard system.fstat(descriptor, &status) == 0 else { return nil }
    return status.st_mode & 0o777
  }

  /// The file's owner and group, or nil when they cannot be read.
  func ownerAndGroup() -> (owner: uid_t, group: gid_t)? {
    var status = stat()
    guard system.fstat(descriptor, &status) == 0 else { return nil }
    return (status.st_uid, status.st_gid)
  }

  /// The device and inode, identifying the file whatever path names it.
  func identity() -> FileIdentity? {
    var status = stat()
    guard system.fstat(descriptor, &status) == 0 else { return nil }
    return FileIdentity(status)
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

  /// The directory holding `path`: what comes before its last slash, `.` if it has none.
  static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// Makes the directory entries of the directory holding `path` durable (`fsync` of the
  /// directory), as a created, renamed or removed file needs.
  /// - Throws: ``JournalError/Code/io`` naming `path`, the file whose entry it is.
  static func syncDirectory(of path: String, system: FileSystemCalls) throws(JournalError) {
    let directory = JournalFile.directory(of: path)
    var descriptor: Int32
    repeat {
      descriptor = system.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
    } while descriptor < 0 && errno == EINTR
    guard descriptor >= 0 else {
      throw JournalError(
        .io, "cannot open its directory to sync it", path: path, cause: errnoCause())
    }
    defer { _ = system.close(descriptor) }
    while system.fsync(descriptor) != 0 {
      if errno == EINTR { continue }
      throw JournalError(
        .io, "cannot sync its directory to disk", path: path, cause: errnoCause())
    }
  }

  /// What `stat` says of the file at `path` (following symbolic links), or nil if there
  /// is none; unlike ``status(of:system:)``, a failure other than a missing file is an
  /// error, not an absent file.
  /// - Throws: ``JournalError/Code/io`` naming `path`, with the cause.
  static func existingStatus(of path: String, system: FileSystemCalls) throws(JournalError)
    -> stat?
  {
    var status = stat()
    if system.stat(path, &status) == 0 { return status }
    let number = errno
    if number == ENOENT { return nil }
    throw JournalError(
      .io, "cannot tell whether a file is there already", path: path, cause: errnoCause(number))
  }

  /// What `lstat` says of a symbolic link at `path` that leads to no file, or nil if
  /// there is none: nothing is found through it, but a new file cannot take its name
  /// without replacing it.
  static func danglingLinkStatus(of path: String, system: FileSystemCalls) -> stat? {
    var status = stat()
    guard system.lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK,
      Self.status(of: path, system: system) == nil
    else { return nil }
    return status
  }

  /// What `stat` says of the file at `path` (following symbolic links), or nil if there
  /// is none.
  static func status(of path: String, system: FileSystemCalls) -> stat? {
    var status = stat()
    return system.stat(path, &status) == 0 ? status : nil
  }
}

/// A file's device and inode numbers.
package struct FileIdentity: Hashable, Sendable {
  var device: UInt64
  var inode: UInt64

  init(_ status: stat) {
    device = UInt64(status.st_dev)
    inode = UInt64(status.st_ino)
  }
}

/// What an error says of an empty path (`rewind log ""`, `rewind diff @5 …`): the system
/// would call it a missing file, and the error would name no file.
package let emptyPathMessage = "the path is empty: it names no file; give the path of a file"
