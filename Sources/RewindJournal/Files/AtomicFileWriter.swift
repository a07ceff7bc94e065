import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A new file written beside its destination and moved into place only when complete:
/// the one way `RewindJournal` and the commands create a file.
///
/// The bytes go to a temporary file in the destination's directory: on Linux an unnamed
/// one (`O_TMPFILE`), which vanishes if the process is killed; elsewhere, or on a file
/// system without unnamed files, a hidden `.NAME.PID-N.new.tmp`. ``commit()`` then gives it
/// the permissions of the file it replaces (if any), `fsync`s it, moves it over the
/// destination (`rename`, or `link` when no file may be replaced, so that a file that
/// appeared meanwhile is never overwritten), and `fsync`s the directory.
///
/// A failure at any step (a full disk, a read-only file system, an I/O error, a failed
/// rename or directory sync) leaves the previous file at the destination untouched and
/// removes the temporary file: if the directory cannot be synced after the rename, the
/// previous file (kept meanwhile under a second, hidden name) is moved back. (On a file
/// system without hard links there is no second name: the new file then stays in place,
/// and the error says so.) Errors name the destination, never the temporary file, and the
/// cause. A writer dropped without a
/// commit, or ``discard()``ed, leaves nothing behind either.
///
/// Only a process that dies mid-write (a power cut, `kill -9`) can leave a hidden
/// `.NAME.PID-N.new.tmp` (an unnamed file vanishes by itself), or the previous file's
/// second name, `.NAME.PID-N.previous.tmp`: the next writer of the same destination
/// removes those whose process is gone, where it is sure nothing is lost with them
/// (``removeLeftovers(beside:system:)``).
///
/// ```swift
/// let file = try AtomicFileWriter(FileDestination("out.bin", inputs: ["in.journal"]))
/// try file.write(bytes)
/// try file.commit()
/// ```
///
/// Not thread-safe.
package final class AtomicFileWriter {
  /// Where the file goes.
  package let destination: FileDestination
  /// The number of bytes written so far.
  package private(set) var size: UInt64 = 0
  /// The temporary file; its errors name the destination.
  let file: JournalFile
  let system: FileSystemCalls
  /// The temporary file's name; nil while it has none (an unnamed file).
  private var temporaryPath: String?
  /// The file being replaced, read-locked until the commit so that no journal writer
  /// starts on it meanwhile.
  private var replaced: JournalFile?
  /// Whether a file was at the destination when this writer started.
  private var replacesAFile = false
  private var isFinished = false
  /// The hidden names this writer was given (``temporaryName(beside:for:)``), spared by other
  /// writers' cleanup until it finishes.
  private var heldNames: [String] = []
  /// What the commit has to say of the file it publishes (a name it could not remove),
  /// said (``FileSystemCalls/warn``) once it succeeds: a failed commit's error says what
  /// became of the files.
  var warnings: [JournalError] = []
  /// The names of this writer a signal that ends the process removes (``EndingSignals``),
  /// with their slots.
  private var signalSlots: [String: Int32] = [:]
  /// What a new file grants at most (the caller's permissions, the group's and others'
  /// narrowed to the inputs'), for one made private to replace a file that is gone.
  private var newFilePermissions: mode_t = 0o777
  /// Whether this writer holds signals back (``EndingSignals/hold()``) until its commit
  /// ends.
  private var holdsSignals = false

  /// Checks `destination` (``FileDestination/check()``) and creates the temporary file.
  ///
  /// - Throws: ``JournalError``: ``JournalError/Code/outputIsInput``,
  ///   ``JournalError/Code/alreadyExists``, ``JournalError/Code/locked`` (the file to
  ///   replace is a journal being written), ``JournalError/Code/notFound`` (no such
  ///   directory), ``JournalError/Code/io`` (cannot create a file there), each naming
  ///   the destination.
  package convenience init(_ destination: FileDestination) throws(JournalError) {
    try self.init(destination, system: .live)
  }

  /// Like ``init(_:)``, through `system`.
  package convenience init(_ destination: FileDestination, system: FileSystemCalls)
    throws(JournalError)
  {
    try self.init(destination, system: system, permissions: 0o777)
  }

  /// Like ``init(_:)``, through `system`; a new file (one that replaces none) grants at
  /// most `permissions` from its creation, and grants its group and others no more than
  /// every input that is a regular file grants them (``FileDestination/inputs``): what is
  /// made of a private file is private before anything is written to it (given the bits
  /// once made, another user could have opened it by its name in that moment, and read
  /// what was written after). A file replaced keeps its own permissions.
  init(_ destination: FileDestination, system: FileSystemCalls, permissions: mode_t)
    throws(JournalError)
  {
    let path = destination.path
    var permissions = permissions
    for input in destination.inputs {
      var status = stat()
      guard system.stat(input, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
        continue
      }
      permissions &= 0o700 | (status.st_mode & 0o077)
    }
    if try destination.check(system: system) != nil {
      try Self.requireReplaceable(path, system: system)
      replacesAFile = true
      // A journal being written is never replaced: its writer holds the lock, which a
      // read lock conflicts with. (A file this process cannot read has no writer to fear.)
      if let existing = try? JournalFile(path: path, mode: .read, system: system) {
        try FileLock.acquire(existing, shared: true)
        replaced = existing
      }
    }
    self.destination = destination
    self.system = system
    newFilePermissions = permissions
    let (descriptor, name) = try AtomicFileWriter.createTemporary(
      beside: path, replacing: replacesAFile, permissions: permissions, system: system)
    file = JournalFile(descriptor: descriptor, path: path, system: system)
    temporaryPath = name
    heldNames = name.map { [$0] } ?? []
    if let name { armSignals(name) }
    AtomicFileWriter.removeLeftovers(beside: path, system: system)
  }

  deinit { discard() }

  /// Checks that the name `path` can be replaced by a rename: in a sticky directory
  /// (`/tmp`), only by the owner of what the name is (a file, or a symbolic link, which is
  /// replaced itself), the directory's or root. Said before anything is written: the
  /// rename would fail at the end, after the new file was written, leaving the second
  /// name of the previous file it makes first.
  private static func requireReplaceable(_ path: String, system: FileSystemCalls)
    throws(JournalError)
  {
    let user = geteuid()
    var existing = stat()
    guard user != 0, system.lstat(path, &existing) == 0, existing.st_uid != user else { return }
    let directory = JournalFile.directory(of: path)
    guard let folder = JournalFile.status(of: directory, system: system),
      folder.st_mode & S_ISVTX != 0, folder.st_uid != user
    else { return }
    let place = directory == "." ? "the working directory" : directory
    throw JournalError(
      .io,
      "cannot replace the file: it is another user's (uid \(existing.st_uid)) in \(place), a sticky directory, where only a file's owner, the directory's or root may replace it; nothing was written",
      path: path, cause: errnoCause(EPERM))
  }

  /// Appends `bytes` to the file.
  ///
  /// - Throws: ``JournalError/Code/io`` naming the destination (a full disk, say); the
  ///   bytes are not written and the writer may be discarded or written to again.
  /// - Complexity: O(bytes), one `pwrite` (more if the kernel writes less).
  package func write(_ bytes: UnsafeRawBufferPointer) throws(JournalError) {
    precondition(!isFinished, "AtomicFileWriter: write after commit() or discard()")
    do {
      try file.write(bytes, at: size)
    } catch {
      // Cut a partial write away, so that the next write follows the last whole one.
      try? file.truncate(to: size)
      throw unwritten(error, detail: " of the new file")
    }
    size += UInt64(bytes.count)
  }

  /// Appends `bytes` to the file.
  package func write(_ bytes: [UInt8]) throws(JournalError) {
    try bytes.withBytes { buffer throws(JournalError) in try write(buffer) }
  }

  /// `error`, met while the new file is written, saying what became of the destination
  /// (the error names it): its message and `detail`, its cause, `consequence` when a file
  /// is replaced, then that the previous file is left as it was, or that nothing is
  /// written there (which says the consequence of a new file). Without the
  /// error's byte offset, the new file's: no place in a file of the user's.
  package func unwritten(
    _ error: JournalError, detail: String = "", consequence: String = ""
  ) -> JournalError {
    var error = error
    error.byteOffset = nil
    error.message +=
      detail + (error.cause.map { " (\($0))" } ?? "") + (replacesAFile ? consequence : "")
    error.cause = nil
    error.message +=
      replacesAFile ? "; the previous file is left as it was" : "; nothing is written there"
    return error
  }

  /// Makes the file durable and moves it over the destination: `fsync`, `rename` (or
  /// `link`), `fsync` of the directory.
  ///
  /// - Throws: ``JournalError`` naming the destination and the cause; the previous file
  ///   is then untouched and the temporary file removed. ``JournalError/Code/alreadyExists``
  ///   if a file appeared at the destination meanwhile and may not be replaced.
  package func commit() throws(JournalError) {
    try commit(syncing: true)
  }

  /// ``commit()``, optionally without the two `fsync`s (for files written with
  /// ``JournalWriterOptions/Durability/none``), and optionally keeping the previous file
  /// under another name (recovery keeps the damaged journal as `NAME.damaged`).
  ///
  /// - Parameters:
  ///   - keptPath: a hard link to the previous file is made there (it must not exist) and
  ///     stays after the commit.
  ///   - expected: the file the destination must name (an in-place recovery's journal,
  ///     read): the new file is moved in by swapping the two names at once, where the
  ///     system can, and swapped back when what came out is another file (one a command
  ///     put there meanwhile), which is then left as it was; nil for any file.
  /// - Throws: also ``JournalError/Code/alreadyExists`` when the destination no longer
  ///   names `expected`.
  package func commit(
    syncing: Bool, keepingPreviousAt keptPath: String? = nil,
    replacingOnly expected: FileIdentity? = nil
  ) throws(JournalError) {
    precondition(!isFinished, "AtomicFileWriter: commit() after commit() or discard()")
    // A signal that came while the new file moved in ends the process now, its steps done.
    defer {
      if holdsSignals {
        holdsSignals = false
        EndingSignals.release()
      }
    }
    do {
      try publish(syncing: syncing, keptPath: keptPath, expected: expected)
    } catch {
      discard()
      // A signal came meanwhile: the process ends by it as this returns (no other
      // replacement holding it back), before the error reaches the command, which would
      // have said it (where the previous file went, say): said here, on standard error.
      if holdsSignals, EndingSignals.endsAtRelease {
        var said = error
        said.message = "interrupted, after this failure: " + error.message
        system.warn(said)
      }
      throw error
    }
    isFinished = true
    replaced = nil
    AtomicFileWriter.release(heldNames)
    disarmSignals()
    for warning in warnings { system.warn(warning) }
    warnings = []
  }

  /// Removes the temporary file; the destination is not touched. Harmless after a commit.
  package func discard() {
    guard !isFinished else { return }
    isFinished = true
    if let temporaryPath { _ = system.unlink(temporaryPath) }
    temporaryPath = nil
    replaced = nil
    AtomicFileWriter.release(heldNames)
    disarmSignals()
  }

  /// Registers `name`, a name this writer made, for a signal that ends the process to
  /// remove (``EndingSignals``).
  private func armSignals(_ name: String) {
    signalSlots[name] = EndingSignals.add(name)
  }

  /// Takes `name` (all of this writer's names, when nil) out of the signal registry: no
  /// signal removes it from now on. Before a step after which it must stay, and once it
  /// is gone.
  private func disarmSignals(_ name: String? = nil) {
    for name in name.map({ [$0] }) ?? Array(signalSlots.keys) {
      if let slot = signalSlots.removeValue(forKey: name) { EndingSignals.remove(slot) }
    }
  }

  /// Holds back a signal that would end the process until the commit ends: the new file
  /// is about to move in, and its names to become ones that must stay (the destination's,
  /// the previous file's only one), so the signal waits for the last steps (the links, the
  /// move, the directory's sync, the second name's removal) rather than cut them short,
  /// which would leave the previous file under a hidden name.
  private func holdSignals() {
    guard !holdsSignals else { return }
    holdsSignals = true
    EndingSignals.hold()
  }

  private func publish(syncing: Bool, keptPath: String?, expected: FileIdentity?)
    throws(JournalError)
  {
    let path = destination.path
    let previous =
      try JournalFile.existingStatus(of: path, system: system)
      ?? JournalFile.danglingLinkStatus(of: path, system: system)
    guard previous == nil || destination.replacingExisting || keptPath != nil else {
      throw JournalError(
        .alreadyExists,
        "a file appeared there while this one was written; it is never overwritten silently",
        path: path)
    }
    if let previous, previous.st_mode & S_IFMT == S_IFREG {
      // The file replaced keeps its owner where it may, and its permissions, not the new
      // file's default.
      let groupKept = try takeOwnerAndPermissions(of: previous)
      try takeAccessList(groupKept: groupKept)
    } else if temporaryPath != nil, replacesAFile {
      // Made private to replace a file that is not there now (removed meanwhile, or a
      // link that leads nowhere): a new file's permissions (a failure leaves it private).
      _ = system.fchmod(
        file.descriptor, 0o644 & newFilePermissions & ~AtomicFileWriter.processUmask)
    }
    if syncing { try file.sync() }
    // The kernel's name of the unnamed file, which `link` gives a name.
    let source = temporaryPath ?? "/proc/self/fd/\(file.descriptor)"
    var backup: String?
    if previous == nil {
      // `link` never replaces: a file created meanwhile by someone else is kept.
      guard system.link(source, path) == 0 else {
        let number = errno
        if number == EEXIST {
          throw JournalError(
            .alreadyExists,
            "a file appeared there while this one was written; it is never overwritten silently",
            path: path)
        }
        guard let temporaryPath, [EPERM, EOPNOTSUPP, EMLINK].contains(number) else {
          throw JournalError(
            .io, "cannot move the new file into place", path: path, cause: errnoCause(number))
        }
        // A file system without hard links: the name itself becomes the destination's.
        holdSignals()
        disarmSignals(temporaryPath)
        guard system.rename(temporaryPath, path) == 0 else {
          throw JournalError(
            .io, "cannot move the new file into place", path: path, cause: errnoCause())
        }
        self.temporaryPath = nil
        try syncDirectory(restoring: nil, replaced: false)
        return
      }
      if let temporaryPath { removeSecondName(temporaryPath, "the new file's temporary name") }
      temporaryPath = nil
    } else {
      // A signal from here on waits for the replacement's last steps (links, move,
      // directory sync, removal of the second name): milliseconds, after which nothing is
      // left; cut short, it would leave the previous file under a hidden name.
      holdSignals()
      if temporaryPath == nil {
        // `rename` needs a name to move.
        let name = AtomicFileWriter.temporaryName(beside: path, for: .newFile)
        heldNames.append(name)
        guard system.link(source, name) == 0 else {
          throw JournalError(
            .io, "cannot give the new file a name to move into place", path: path,
            cause: errnoCause())
        }
        temporaryPath = name
        armSignals(name)
      }
      // A second name for the previous file, to move it back if the directory cannot be
      // synced after the rename (a file system without hard links goes without; so does
      // a symbolic link replaced, whose link would be a second name of the file it leads
      // to, which the rename leaves as it is, another user's one this user may not
      // remove in a sticky directory).
      var linkStatus = stat()
      let replacesALink =
        keptPath == nil && system.lstat(path, &linkStatus) == 0
        && linkStatus.st_mode & S_IFMT == S_IFLNK
      let backupName =
        keptPath
        ?? {
          let name = AtomicFileWriter.temporaryName(beside: path, for: .previousFile)
          heldNames.append(name)
          return name
        }()
      if !replacesALink, system.link(path, backupName) == 0 {
        backup = backupName
        if keptPath == nil { armSignals(backupName) }
        // Kept as the previous file: the file read, not one put at the path meanwhile.
        if let expected {
          let kept: FileIdentity
          do { kept = try identity(of: backupName) } catch {
            _ = system.unlink(backupName)
            throw error
          }
          guard kept == expected else {
            _ = system.unlink(backupName)
            throw Self.replacedMeanwhile(path)
          }
        }
      } else if let keptPath {
        let number = errno
        throw JournalError(
          number == EEXIST ? .alreadyExists : .io,
          number == EEXIST
            ? "cannot keep the previous file as \(keptPath): a file is already there; move it away first"
            : "cannot keep the previous file as \(keptPath)", path: path,
          cause: errnoCause(number))
      }
      // From here the temporary name becomes the destination's, and the backup may become
      // the previous file's only name: no signal removes them (a second one, which does
      // not wait, included).
      disarmSignals()
      if let expected, try swapIn(temporaryPath!, at: path, expecting: expected, backup: backup) {
        // The file read is out: under the temporary name, a second one of the backup's.
        removeSecondName(temporaryPath!, "a second name of the file it replaced")
      } else {
        guard system.rename(temporaryPath!, path) == 0 else {
          let number = errno
          var left = ""
          if let backup, system.unlink(backup) != 0, keptPath == nil {
            left = ", and a second name of it, \(backup), could not be removed (\(errnoCause()))"
          }
          throw JournalError(
            .io,
            "cannot move the new file into place; the previous file is left as it was\(left)",
            path: path, cause: errnoCause(number))
        }
      }
      temporaryPath = nil
    }
    if syncing {
      try syncDirectory(restoring: backup, replaced: previous != nil, keptVisible: keptPath != nil)
    }
    if let backup, keptPath == nil { removeSecondName(backup, "the previous file's second name") }
  }

  /// Removes `name`, `what` the new file in place no longer needs (a second name of a
  /// file that has another): a failure fails nothing, but leaves the name beside the
  /// destination, which a warning of the commit says (``warnings``), naming it.
  private func removeSecondName(_ name: String, _ what: String) {
    guard system.unlink(name) != 0, errno != ENOENT else { return }
    warnings.append(
      JournalError(
        .io,
        "the new file is in place, but \(what) could not be removed (\(errnoCause())): \(name) is left, and may be deleted",
        path: destination.path))
  }

  /// Moves the new file at `temporary` in at `path` by swapping the two names at once,
  /// when the file that comes out is `expected` (the previous file, which `backup` names
  /// too): true. When another file comes out (put at the path since it was read), or one
  /// that cannot be looked at, swaps them back, removes `backup` and throws, nothing
  /// changed. False, nothing changed, where the system or the file system cannot swap
  /// names: the caller moves the file in as it does any other.
  private func swapIn(
    _ temporary: String, at path: String, expecting expected: FileIdentity, backup: String?
  ) throws(JournalError) -> Bool {
    guard system.exchange(temporary, path) == 0 else {
      let number = errno
      guard Self.cannotSwap(number) else {
        if let backup { _ = system.unlink(backup) }
        throw JournalError(
          .io, "cannot move the new file into place; the previous file is left as it was",
          path: path, cause: errnoCause(number))
      }
      return false
    }
    // What came out: the file read, or it goes back.
    let problem: JournalError
    let reason: String
    do {
      guard try identity(of: temporary) != expected else { return true }
      problem = Self.replacedMeanwhile(path)
      reason = "the file was replaced while this one was written (by another command)"
    } catch {
      problem = error
      reason = error.message + (error.cause.map { " (\($0))" } ?? "")
    }
    // The two names back as they were: the new file under `temporary`, which the caller's
    // discard removes.
    if system.exchange(temporary, path) == 0 {
      if let backup { _ = system.unlink(backup) }
      throw problem
    }
    // The new file stays in place, the previous one under `backup` too; what came out
    // gets a name the cleanup never matches (or, failing that, one it removes only beside
    // the same file). An I/O error, not a file found replaced: a caller that says the
    // latter its own way ("nothing was changed") must not.
    let cause = errnoCause()
    var kept = temporary
    if let visible = keepVisibly(temporary) {
      _ = system.unlink(temporary)
      kept = visible
    } else {
      let hidden = Self.temporaryName(beside: path, for: .previousFile)
      heldNames.append(hidden)
      if system.rename(temporary, hidden) == 0 { kept = hidden }
    }
    temporaryPath = nil
    throw JournalError(
      .io,
      "\(reason), and the names could not be swapped back (\(cause)): the new file stays, it is in place, and the file that was there is at \(kept)",
      path: path)
  }

  /// Whether a swap of two names failed for want of support (the system's or the file
  /// system's), not for the files.
  private static func cannotSwap(_ number: Int32) -> Bool {
    [ENOSYS, EINVAL, EOPNOTSUPP, ENOTSUP].contains(number)
  }

  /// The identity of the file `path` names (following links).
  private func identity(of path: String) throws(JournalError) -> FileIdentity {
    var status = stat()
    guard system.stat(path, &status) == 0 else {
      throw JournalError(.io, "cannot look at \(path)", path: destination.path, cause: errnoCause())
    }
    return FileIdentity(status)
  }

  /// Removes the hidden names beside `path` that an earlier writer left (see
  /// ``removeLeftovers(beside:system:)``): for a command that finds nothing to write.
  package static func clearLeftovers(beside path: String, system: FileSystemCalls) {
    removeLeftovers(beside: path, system: system)
  }

  /// The error of a commit whose destination no longer names the file it was to replace.
  static func replacedMeanwhile(_ path: String) -> JournalError {
    JournalError(
      .alreadyExists,
      "the file was replaced while this one was written (by another command); nothing was changed",
      path: path)
  }

  /// Syncs the destination's directory; on failure moves the previous file back (or
  /// removes the new one if there was none) and throws, saying whether that worked.
  ///
  /// - Parameters:
  ///   - backup: the previous file's second name, to move back.
  ///   - replaced: a previous file was replaced; without a `backup` to move back (a file
  ///     system without hard links), the new file is then left in place: removing it
  ///     would leave neither.
  ///   - keptVisible: `backup` is a name the cleanup never matches (`NAME.damaged`): it
  ///     stays as it is when the previous file cannot be moved back.
  private func syncDirectory(restoring backup: String?, replaced: Bool, keptVisible: Bool = false)
    throws(JournalError)
  {
    do {
      try JournalFile.syncDirectory(of: destination.path, system: system)
    } catch {
      var error = error
      if replaced && backup == nil {
        error.message +=
          "; the previous file could not be kept under a second name to move back, so the new one stays: it is in place, but may not survive a power loss"
        throw error
      }
      let withdrawn =
        backup.map { system.rename($0, destination.path) == 0 }
        ?? (system.unlink(destination.path) == 0)
      if withdrawn {
        error.message += "; the new file is withdrawn and the previous one, if any, left as it was"
      } else {
        // A disk that fails every call: say where each file is, not what was hoped. The
        // previous file's only name is then a hidden one, which the next writer's cleanup
        // would take for a leftover: it is given a name the cleanup never matches.
        let cause = errnoCause()
        let kept = backup.map { keptVisible ? $0 : keepVisibly($0) ?? $0 }
        if let backup, kept != backup { _ = system.unlink(backup) }
        error.message +=
          "; the new file could not be withdrawn either (\(cause)): it is in place, but may not survive a power loss"
          + (kept.map { ", and the previous file is at \($0)" } ?? "")
      }
      throw error
    }
  }

  /// Gives the file `hidden` names a second name that no writer's cleanup removes:
  /// `NAME.previous`, or the first of `NAME.previous-2`, `NAME.previous-3`, … that is free,
  /// made with `link`, which never replaces a file (a user's own `NAME.previous` stays).
  /// - Returns: the name, or nil when none could be made (a disk that fails every call).
  /// - Complexity: one `link` per name taken before it, at most ``visibleNameAttempts``.
  private func keepVisibly(_ hidden: String) -> String? {
    let base = destination.path + ".previous"
    for number in 1...Self.visibleNameAttempts {
      let name = number == 1 ? base : "\(base)-\(number)"
      if system.link(hidden, name) == 0 { return name }
      guard errno == EEXIST else { return nil }
    }
    return nil
  }

  /// How many `NAME.previous…` names ``keepVisibly(_:)`` tries.
  static let visibleNameAttempts = 1000

  /// Opens a new temporary file in the directory of `path`: unnamed where the system
  /// allows, else named after `path` and hidden.
  ///
  /// A directory that makes no files for this user or file system (`EACCES`, `EPERM`,
  /// `EROFS`) is named, with what could not be created: the file, or (`replacing`) the new
  /// file that replaces it, written beside it first (a message that named only the file,
  /// one that exists, left the directory to be guessed). A new file is made with the
  /// permission bits `0644 & permissions` (less the `umask`).
  private static func createTemporary(
    beside path: String, replacing: Bool, permissions: mode_t, system: FileSystemCalls
  ) throws(JournalError) -> (descriptor: Int32, name: String?) {
    let newFile: mode_t = 0o644 & permissions
    let directory = JournalFile.directory(of: path)
    #if os(Linux)
      // O_TMPFILE is __O_TMPFILE (0o20000000 on x86-64 and arm64) | O_DIRECTORY; Swift
      // does not import the macro. Naming the file later needs /proc.
      let unnamed =
        unnamedFiles
        ? system.open(directory, O_RDWR | O_DIRECTORY | 0o20000000 | O_CLOEXEC, newFile) : -1
      if unnamed >= 0 {
        if JournalFile.status(of: "/proc/self/fd/\(unnamed)", system: system) != nil {
          return (unnamed, nil)
        }
        _ = system.close(unnamed)
      }
    #endif
    // A named file that replaces one is private while it is written (it takes the
    // replaced file's permissions as it moves in): made 0644, another user could open it by
    // its name while a private file's new content was written into it, and read it.
    let mode: mode_t = replacing ? 0o600 : newFile
    while true {
      let name = temporaryName(beside: path, for: .newFile)
      let descriptor = system.open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode)
      if descriptor >= 0 { return (descriptor, name) }
      let number = errno
      release([name])
      if number == EEXIST || number == EINTR { continue }
      // A directory that is there but makes no files (/proc) fails with ENOENT too.
      let isDirectory = JournalFile.status(of: directory, system: system).map {
        $0.st_mode & S_IFMT == S_IFDIR
      }
      if number == ENOENT, isDirectory != true {
        throw JournalError(
          .notFound, "cannot create the file: there is no directory \(directory)", path: path,
          cause: errnoCause(number))
      }
      let what =
        replacing
        ? "cannot create the new file that replaces it (written beside it first)"
        : "cannot create the file"
      guard number == EACCES || number == EPERM || number == EROFS else {
        throw JournalError(.io, what, path: path, cause: errnoCause(number))
      }
      let place = directory == "." ? "the working directory" : "the directory \(directory)"
      throw JournalError(
        .io, "\(what): \(place) cannot be written to", path: path, cause: errnoCause(number))
    }
  }

  /// Whether writers make unnamed temporary files where the system can (`O_TMPFILE`);
  /// false writes every file as a file system without them has it written, under a hidden
  /// name. For the tests alone (a `rewind` built for them turns it off, to see what a
  /// signal leaves on such a file system): no option or variable of the tool sets it.
  package static var unnamedFiles: Bool {
    get { makesUnnamedFiles.load(ordering: .relaxed) }
    set { makesUnnamedFiles.store(newValue, ordering: .relaxed) }
  }
  private static let makesUnnamedFiles = Atomic<Bool>(true)

  /// The process's file mode creation mask, read once: on Linux from `/proc/self/status`
  /// (reading it with `umask` sets it, which another thread creating a file meanwhile
  /// would meet), else by setting it and putting it back.
  static let processUmask: mode_t = {
    #if os(Linux)
      let descriptor = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
      if descriptor >= 0 {
        var bytes = [UInt8](repeating: 0, count: 8192)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        let text = String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
        if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
          let mask = mode_t(
            String(line.dropFirst("Umask:".count).filter { $0 != " " && $0 != "\t" }), radix: 8)
        {
          return mask & 0o777
        }
      }
    #endif
    let mask = umask(0o022)
    umask(mask)
    return mask & 0o777
  }()
}
