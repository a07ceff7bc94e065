package import RewindJournal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension FileSystemCalls {
  /// A file system holding one read-only file, `bytes` at `path`, in memory: the journal
  /// reader reads fuzzed bytes through it without touching the disk.
  ///
  /// Opening any other path fails with `ENOENT`, opening `path` for writing and every
  /// call that would change something fail with `EROFS`, and `read` (which only text
  /// files use) fails with `EIO`.
  package static func memory(_ bytes: [UInt8], at path: String) -> FileSystemCalls {
    let descriptor: Int32 = 0x5EED
    @Sendable func fail(_ number: Int32) -> Int32 {
      errno = number
      return -1
    }
    @Sendable func describe(_ status: UnsafeMutablePointer<stat>) {
      status.pointee = regularFileStatus(size: bytes.count)
    }
    // Every call is replaced: nothing reaches the real file system.
    var calls = FileSystemCalls.live
    calls.open = { name, flags, _ in
      guard name == path else { return fail(ENOENT) }
      guard flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC) == 0 else { return fail(EROFS) }
      return descriptor
    }
    calls.close = { number in number == descriptor ? 0 : fail(EBADF) }
    calls.fstat = { number, status in
      guard number == descriptor else { return fail(EBADF) }
      describe(status)
      return 0
    }
    calls.stat = { name, status in
      guard name == path else { return fail(ENOENT) }
      describe(status)
      return 0
    }
    calls.read = { _, _, _ in Int(fail(EIO)) }
    calls.pread = { number, buffer, count, offset in
      guard number == descriptor, let buffer, offset >= 0, count >= 0 else {
        return Int(fail(EINVAL))
      }
      guard offset < bytes.count else { return 0 }
      let length = min(count, bytes.count - Int(offset))
      bytes.withUnsafeBytes { source in
        buffer.copyMemory(from: source.baseAddress! + Int(offset), byteCount: length)
      }
      return length
    }
    calls.pwrite = { _, _, _, _ in Int(fail(EROFS)) }
    calls.fsync = { _ in 0 }
    calls.ftruncate = { _, _ in fail(EROFS) }
    calls.fcntlLock = { _, _, _ in fail(EROFS) }
    calls.rename = { _, _ in fail(EROFS) }
    calls.link = { _, _ in fail(EROFS) }
    calls.unlink = { _ in fail(EROFS) }
    return calls
  }
}

/// The status of a read-only regular file of `size` bytes.
private func regularFileStatus(size: Int) -> stat {
  var status = stat()
  status.st_mode = S_IFREG | 0o444
  status.st_size = off_t(size)
  status.st_nlink = 1
  return status
}
