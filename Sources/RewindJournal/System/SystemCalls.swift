#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system calls the journal makes on its files, as replaceable functions.
///
/// Production code uses ``live``; tests substitute a failing `pwrite` or `fsync` to
/// prove that a full disk or an I/O error surfaces as a ``JournalError`` and loses no
/// acknowledged data. Each function returns what the C call returns; on failure it
/// returns -1 with `errno` set, exactly like the call it stands for.
package struct SystemCalls: Sendable {
  package var pread: @Sendable (Int32, UnsafeMutableRawPointer?, Int, Int64) -> Int
  package var pwrite: @Sendable (Int32, UnsafeRawPointer?, Int, Int64) -> Int
  package var fsync: @Sendable (Int32) -> Int32
  package var ftruncate: @Sendable (Int32, Int64) -> Int32

  package init(
    pread: @escaping @Sendable (Int32, UnsafeMutableRawPointer?, Int, Int64) -> Int,
    pwrite: @escaping @Sendable (Int32, UnsafeRawPointer?, Int, Int64) -> Int,
    fsync: @escaping @Sendable (Int32) -> Int32,
    ftruncate: @escaping @Sendable (Int32, Int64) -> Int32
  ) {
    self.pread = pread
    self.pwrite = pwrite
    self.fsync = fsync
    self.ftruncate = ftruncate
  }

  /// The real system calls.
  package static let live = SystemCalls(
    pread: { fd, buffer, count, offset in
      #if canImport(Glibc)
        Glibc.pread(fd, buffer, count, off_t(offset))
      #else
        Darwin.pread(fd, buffer, count, off_t(offset))
      #endif
    },
    pwrite: { fd, buffer, count, offset in
      #if canImport(Glibc)
        Glibc.pwrite(fd, buffer, count, off_t(offset))
      #else
        Darwin.pwrite(fd, buffer, count, off_t(offset))
      #endif
    },
    fsync: { fd in
      #if canImport(Glibc)
        Glibc.fsync(fd)
      #else
        Darwin.fsync(fd)
      #endif
    },
    ftruncate: { fd, length in
      #if canImport(Glibc)
        Glibc.ftruncate(fd, off_t(length))
      #else
        Darwin.ftruncate(fd, off_t(length))
      #endif
    }
  )
}

/// The errno of the last failed call, as a ``JournalError/Cause``.
func errnoCause(_ number: Int32 = errno) -> JournalError.Cause {
  .errno(number, name: String(cString: strerror(number)))
}
