#if canImport(Glibc)
  package import Glibc
#elseif canImport(Darwin)
  package import Darwin
#endif

/// Every system call the journal makes on files and directories, as replaceable
/// functions: the one seam between `RewindJournal` and the file system.
///
/// Production code uses ``live``; a test copies it and replaces one call to prove that a
/// full disk, a read-only file system, an I/O error or a failed rename surfaces as a
/// ``JournalError`` naming the file, loses no acknowledged data and leaves nothing behind:
///
/// ```swift
/// var calls = FileSystemCalls.live
/// calls.fsync = { _ in errno = EIO; return -1 }
/// ```
///
/// Each function returns what the C call it stands for returns, and on failure returns -1
/// with `errno` set, exactly like that call. Paths are Swift strings; `stat` follows
/// symbolic links (it identifies the file a path leads to), and `link` is `linkat` with
/// `AT_SYMLINK_FOLLOW`, so that it can name an unnamed file by its `/proc/self/fd` path.
package struct FileSystemCalls: Sendable {
  /// `open(2)`: path, flags, mode of a created file.
  package var open: @Sendable (String, Int32, UInt32) -> Int32
  /// `close(2)`.
  package var close: @Sendable (Int32) -> Int32
  /// `fstat(2)`.
  package var fstat: @Sendable (Int32, UnsafeMutablePointer<stat>) -> Int32
  /// `stat(2)`, following symbolic links.
  package var stat: @Sendable (String, UnsafeMutablePointer<stat>) -> Int32
  /// `lstat(2)`: the status of a symbolic link itself (a writer finds one that leads
  /// nowhere at its destination).
  package var lstat: @Sendable (String, UnsafeMutablePointer<stat>) -> Int32
  /// `read(2)`: descriptor, buffer, count (the text files commands read, which may be
  /// pipes).
  package var read: @Sendable (Int32, UnsafeMutableRawPointer?, Int) -> Int
  /// `pread(2)`: descriptor, buffer, count, offset.
  package var pread: @Sendable (Int32, UnsafeMutableRawPointer?, Int, Int64) -> Int
  /// `pwrite(2)`: descriptor, bytes, count, offset.
  package var pwrite: @Sendable (Int32, UnsafeRawPointer?, Int, Int64) -> Int
  /// `fsync(2)`, of a file or of a directory opened read-only.
  package var fsync: @Sendable (Int32) -> Int32
  /// `ftruncate(2)`.
  package var ftruncate: @Sendable (Int32, Int64) -> Int32
  /// `fcntl(2)` with a lock description: `F_SETLK`, `F_GETLK`, `F_OFD_SETLK`.
  package var fcntlLock: @Sendable (Int32, Int32, UnsafeMutablePointer<flock>) -> Int32
  /// `rename(2)`: from, to (replacing `to` atomically).
  package var rename: @Sendable (String, String) -> Int32
  /// `renameat2(2)` with `RENAME_EXCHANGE` (`renamex_np` with `RENAME_SWAP`): swaps the
  /// files two paths name, at once; fails with `ENOSYS`, `EINVAL` or `EOPNOTSUPP` where the
  /// system or the file system cannot.
  package var exchange: @Sendable (String, String) -> Int32 = { exchangeFiles($0, $1) }
  /// `linkat(2)` with `AT_SYMLINK_FOLLOW`: existing path, new name (never replacing).
  package var link: @Sendable (String, String) -> Int32
  /// `unlink(2)`.
  package var unlink: @Sendable (String) -> Int32
  /// `fchmod(2)`: descriptor, permission bits (a replacement takes those of the file it
  /// replaces).
  package var fchmod: @Sendable (Int32, mode_t) -> Int32 = { changeMode($0, $1) }
  /// `fchown(2)`: descriptor, owner, group (a replacement takes those of the file it
  /// replaces, where the process may give them).
  package var fchown: @Sendable (Int32, uid_t, gid_t) -> Int32 = { changeOwner($0, $1, $2) }
  /// Where a writer says what it could not do although the file was written or left as it
  /// was (a mode it could not keep, a name it could not remove): a warning, not a failure.
  /// Not a system call, but it goes wherever the calls go, so that every writer of a
  /// command reaches the command's standard error (`rewind`'s context replaces it); by
  /// default `warning: MESSAGE` on the process's standard error.
  package var warn: @Sendable (JournalError) -> Void = { writeWarning($0) }

  /// The real system calls.
  package static let live = FileSystemCalls(
    open: { path, flags, mode in
      #if canImport(Glibc)
        Glibc.open(path, flags, mode_t(mode))
      #else
        Darwin.open(path, flags, mode_t(mode))
      #endif
    },
    close: { descriptor in
      #if canImport(Glibc)
        Glibc.close(descriptor)
      #else
        Darwin.close(descriptor)
      #endif
    },
    fstat: { descriptor, status in
      #if canImport(Glibc)
        Glibc.fstat(descriptor, status)
      #else
        Darwin.fstat(descriptor, status)
      #endif
    },
    stat: { path, status in statFollowingLinks(path, status) },
    lstat: { path, status in
      #if canImport(Glibc)
        Glibc.lstat(path, status)
      #else
        Darwin.lstat(path, status)
      #endif
    },
    read: { descriptor, buffer, count in
      #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
      #else
        Darwin.read(descriptor, buffer, count)
      #endif
    },
    pread: { descriptor, buffer, count, offset in
      #if canImport(Glibc)
        Glibc.pread(descriptor, buffer, count, off_t(offset))
      #else
        Darwin.pread(descriptor, buffer, count, off_t(offset))
      #endif
    },
    pwrite: { descriptor, buffer, count, offset in
      #if canImport(Glibc)
        Glibc.pwrite(descriptor, buffer, count, off_t(offset))
      #else
        Darwin.pwrite(descriptor, buffer, count, off_t(offset))
      #endif
    },
    fsync: { descriptor in
      #if canImport(Glibc)
        Glibc.fsync(descriptor)
      #else
        Darwin.fsync(descriptor)
      #endif
    },
    ftruncate: { descriptor, length in
      #if canImport(Glibc)
        Glibc.ftruncate(descriptor, off_t(length))
      #else
        Darwin.ftruncate(descriptor, off_t(length))
      #endif
    },
    fcntlLock: { descriptor, command, lock in
      #if canImport(Glibc)
        Glibc.fcntl(descriptor, command, lock)
      #else
        Darwin.fcntl(descriptor, command, lock)
      #endif
    },
    rename: { from, to in
      #if canImport(Glibc)
        Glibc.rename(from, to)
      #else
        Darwin.rename(from, to)
      #endif
    },
    link: { existing, new in
      #if canImport(Glibc)
        Glibc.linkat(AT_FDCWD, existing, AT_FDCWD, new, AT_SYMLINK_FOLLOW)
      #else
        Darwin.linkat(AT_FDCWD, existing, AT_FDCWD, new, AT_SYMLINK_FOLLOW)
      #endif
    },
    unlink: { path in
      #if canImport(Glibc)
        Glibc.unlink(path)
      #else
        Darwin.unlink(path)
      #endif
    }
  )
}

/// `fchmod(2)`, out of the struct whose `fchmod` member would hide the C function.
private func changeMode(_ descriptor: Int32, _ mode: mode_t) -> Int32 {
  fchmod(descriptor, mode)
}

/// `fchown(2)`, out of the struct whose `fchown` member would hide the C function.
private func changeOwner(_ descriptor: Int32, _ owner: uid_t, _ group: gid_t) -> Int32 {
  fchown(descriptor, owner, group)
}

/// ``FileSystemCalls/warn``'s default: `warning: MESSAGE` and a line feed on standard
/// error, in one `write`.
private func writeWarning(_ warning: JournalError) {
  let line = Array("warning: \(warning)\n".utf8)
  _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

/// `stat(2)`, out of the struct whose `stat` member would hide the C function.
private func statFollowingLinks(_ path: String, _ status: UnsafeMutablePointer<stat>) -> Int32 {
  stat(path, status)
}

/// The errno of the last failed call, as a ``JournalError/Cause``.
func errnoCause(_ number: Int32 = errno) -> JournalError.Cause {
  .errno(number, name: String(cString: strerror(number)))
}
