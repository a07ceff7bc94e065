import CFileCalls
import Foundation
import JournalFixtures
import TestSupport
import Testing

@testable import RewindJournal

/// How the temporary file is made: unnamed (`O_TMPFILE`), or named when the system
/// refuses unnamed files.
enum TemporaryKind: String, CaseIterable, Sendable {
  case unnamed, named
}

/// The error of writing "the new file" over the file at `path` through `faults`, or nil
/// when it does not fail.
func replacingFails(_ path: String, _ faults: FaultyFileSystem) -> JournalError? {
  do {
    let file = try AtomicFileWriter(
      FileDestination(path, replacingExisting: true), system: faults.calls)
    try file.write(Array("the new file".utf8))
    try file.commit()
    return nil
  } catch {
    return error
  }
}

/// The permission bits of the file at `path` (0 when it cannot be read).
func mode(of path: String) -> mode_t {
  var status = stat()
  return stat(path, &status) == 0 ? status.st_mode & 0o7777 : 0
}

/// The process's `umask`.
func currentUmask() -> mode_t {
  let mask = umask(0)
  umask(mask)
  return mask
}

/// A file system whose failures are injected, in the given temporary mode.
func faultyFileSystem(_ kind: TemporaryKind) -> FaultyFileSystem {
  let faults = FaultyFileSystem()
  if kind == .named { faults.fail(.createUnnamed, with: EOPNOTSUPP) }
  return faults
}

/// Checks the promise of every failed write: the error names the destination (never a
/// temporary file) and the cause, the previous file is untouched, and the directory
/// holds what it held before.
func expectNothingChanged(
  by error: JournalError, writing destination: String, cause: Int32,
  previous: [UInt8]?, directory: TemporaryDirectory, before: [String],
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let text = error.description
  #expect(error.path == destination, "\(text)", sourceLocation: sourceLocation)
  #expect(text.hasPrefix(destination + ": "), "\(text)", sourceLocation: sourceLocation)
  #expect(
    !text.contains(".tmp"), "the temporary file is named: \(text)", sourceLocation: sourceLocation)
  #expect(
    text.contains(String(cString: strerror(cause))), "the cause is missing: \(text)",
    sourceLocation: sourceLocation)
  if let previous {
    let unchanged = bytes(of: destination) == previous
    #expect(unchanged, "the previous file changed", sourceLocation: sourceLocation)
  } else {
    #expect(!FileManager.default.fileExists(atPath: destination), sourceLocation: sourceLocation)
  }
  #expect(contents(of: directory) == before, "left behind", sourceLocation: sourceLocation)
}

@Suite("Creating files atomically")
struct AtomicFileTests {
  @Test("a new file appears complete on commit, and only then", arguments: TemporaryKind.allCases)
  func create(kind: TemporaryKind) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("out.bin")
    let faults = faultyFileSystem(kind)
    let file = try AtomicFileWriter(FileDestination(path), system: faults.calls)
    let data = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    try file.write(data)
    #expect(file.size == 200_000)
    if kind == .unnamed {
      #expect(contents(of: directory).isEmpty, "an unnamed file has no name before the commit")
    }
    try file.commit()
    #expect(bytes(of: path) == data)
    #expect(contents(of: directory) == ["out.bin"])
    #expect(faults.count(.syncFile) == 1)
    #expect(faults.count(.syncDirectory) == 1)
  }

  @Test(
    "a new file grants its group and others no more than its inputs do (an export of a private journal was 0644); a file replaced keeps its own permissions",
    arguments: TemporaryKind.allCases)
  func newFileNoMoreOpenThanItsInputs(kind: TemporaryKind) throws {
    let directory = TemporaryDirectory()
    let faults = faultyFileSystem(kind)
    let input = directory.file("in.journal")
    let other = directory.file("other.txt")
    write([1], to: input)
    write([2], to: other)
    #expect(chmod(other, 0o644) == 0)
    for (inputMode, number) in [(mode_t(0o600), 1), (0o640, 2), (0o604, 3)] {
      #expect(chmod(input, inputMode) == 0)
      let path = directory.file("out\(number).bin")
      let file = try AtomicFileWriter(
        FileDestination(path, inputs: [other, input, "/dev/null", directory.file("none")]),
        system: faults.calls)
      try file.write([3])
      try file.commit()
      // The group's and others' bits no more than the input's (the umask may take more);
      // the owner's as any new file's. A device and a missing input limit nothing.
      #expect(mode(of: path) & 0o077 & ~inputMode == 0, "\(String(mode(of: path), radix: 8))")
      #expect(mode(of: path) & 0o600 == 0o600)
    }
    // A link that leads nowhere, replaced: a new file, as private as its input (written
    // under a hidden name, it was given 0644).
    #expect(chmod(input, 0o600) == 0)
    let dangling = directory.file("dangling.bin")
    #expect(symlink(directory.file("nowhere"), dangling) == 0)
    let replacing = try AtomicFileWriter(
      FileDestination(dangling, replacingExisting: true, inputs: [input]), system: faults.calls)
    try replacing.write([6])
    try replacing.commit()
    #expect(mode(of: dangling) & 0o077 == 0, "\(String(mode(of: dangling), radix: 8))")
    // A file replaced keeps its own permissions, whatever its inputs.
    let replaced = directory.file("replaced.bin")
    write([4], to: replaced)
    #expect(chmod(replaced, 0o664) == 0)
    #expect(chmod(input, 0o600) == 0)
    let file = try AtomicFileWriter(
      FileDestination(replaced, replacingExisting: true, inputs: [input]), system: faults.calls)
    try file.write([5])
    try file.commit()
    #expect(mode(of: replaced) == 0o664)
  }

  #if os(Linux)
    @Test(
      "a file replaced keeps its access control list and its users' extended attributes (the list was dropped, and the permission bits alone gave its group what the list's mask did)",
      .enabled(if: Self.keepsAccessLists, "a file system with access control lists"),
      arguments: TemporaryKind.allCases)
    func accessListKept(kind: TemporaryKind) throws {
      let directory = TemporaryDirectory()
      let path = directory.file("listed.bin")
      write(Array("the previous file".utf8), to: path)
      #expect(chmod(path, 0o640) == 0)
      // The owner reads and writes, user 1 reads, the group nothing (the mask r--).
      let list = Self.accessList([
        (1, 6, nil), (2, 4, 1), (4, 0, nil), (0x10, 4, nil), (0x20, 0, nil),
      ])
      #expect(rewind_setxattr(path, "system.posix_acl_access", list, UInt(list.count), 0) == 0)
      #expect(rewind_setxattr(path, "user.note", "kept", 4, 0) == 0)
      let faults = faultyFileSystem(kind)
      let file = try AtomicFileWriter(
        FileDestination(path, replacingExisting: true), system: faults.calls)
      try file.write(Array("the new file".utf8))
      try file.commit()
      #expect(bytes(of: path) == Array("the new file".utf8))
      #expect(Self.attribute("system.posix_acl_access", of: path) == list)
      #expect(Self.attribute("user.note", of: path) == Array("kept".utf8))
      #expect(mode(of: path) == 0o640)
    }

    /// Whether the temporary directories' file system keeps access control lists.
    static let keepsAccessLists: Bool = {
      let directory = TemporaryDirectory()
      let path = directory.file("probe")
      write([0], to: path)
      let list = accessList([(1, 6, nil), (4, 4, nil), (0x20, 4, nil)])
      return rewind_setxattr(path, "system.posix_acl_access", list, UInt(list.count), 0) == 0
    }()

    /// The bytes of an access control list (Linux's `posix_acl_xattr`): version 2, then
    /// each entry's tag, permissions and id.
    static func accessList(_ entries: [(tag: UInt16, permissions: UInt16, id: UInt32?)]) -> [UInt8]
    {
      var bytes: [UInt8] = [2, 0, 0, 0]
      for entry in entries {
        withUnsafeBytes(of: entry.tag.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: entry.permissions.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: (entry.id ?? .max).littleEndian) { bytes += $0 }
      }
      return bytes
    }

    static func attribute(_ name: String, of path: String) -> [UInt8]? {
      var value = [UInt8](repeating: 0, count: 256)
      let count = Int(rewind_getxattr(path, name, &value, UInt(value.count)))
      return count < 0 ? nil : Array(value[..<count])
    }
  #endif

  @Test("an existing file is replaced only when asked", arguments: TemporaryKind.allCases)
  func replace(kind: TemporaryKind) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("out.bin")
    write([1, 2, 3], to: path)
    let faults = faultyFileSystem(kind)
    #expect {
      try AtomicFileWriter(FileDestination(path), system: faults.calls)
    } throws: { error in
      let error = error as! JournalError
      return error.code == .alreadyExists
        && error.description == "\(path): the file already exists; it is never overwritten silently"
    }
    let file = try AtomicFileWriter(
      FileDestination(path, replacingExisting: true), system: faults.calls)
    try file.write([4, 5])
    #expect(bytes(of: path) == [1, 2, 3], "the previous file stays until the commit")
    try file.commit()
    #expect(bytes(of: path) == [4, 5])
    #expect(contents(of: directory) == ["out.bin"])
  }

  @Test(
    "a file whose name is as long as a name may be is created and replaced",
    arguments: TemporaryKind.allCases)
  func longName(kind: TemporaryKind) throws {
    let directory = TemporaryDirectory()
    // 255 bytes, the most a name may have; "é" is 2 bytes, and the 200th byte is the first
    // of one: the hidden names cut the name before that character, not inside it.
    let path = directory.file("a" + String(repeating: "é", count: 125) + ".bin")
    for replacing in [false, true] {
      let file = try AtomicFileWriter(
        FileDestination(path, replacingExisting: replacing), system: faultyFileSystem(kind).calls)
      try file.write([replacing ? 2 : 1])
      try file.commit()
      #expect(bytes(of: path) == [replacing ? 2 : 1])
    }
    #expect(contents(of: directory).count == 1)
  }

  @Test("a file that appears while the new one is written is not overwritten")
  func appearedMeanwhile() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("out.bin")
    let file = try AtomicFileWriter(FileDestination(path))
    try file.write([1])
    write([9], to: path)
    #expect {
      try file.commit()
    } throws: { error in
      (error as! JournalError).code == .alreadyExists
    }
    #expect(bytes(of: path) == [9])
    #expect(contents(of: directory) == ["out.bin"])
  }

  @Test(
    "dropped or discarded without a commit, a writer leaves nothing",
    arguments: TemporaryKind.allCases)
  func dropped(kind: TemporaryKind) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("out.bin")
    write([7], to: path)
    let faults = faultyFileSystem(kind)
    do {
      let file = try AtomicFileWriter(
        FileDestination(path, replacingExisting: true), system: faults.calls)
      try file.write([1, 2, 3])
    }
    #expect(contents(of: directory) == ["out.bin"])
    let file = try AtomicFileWriter(
      FileDestination(path, replacingExisting: true), system: faults.calls)
    try file.write([1, 2, 3])
    file.discard()
    file.discard()
    #expect(contents(of: directory) == ["out.bin"])
    #expect(bytes(of: path) == [7])
  }

  /// Every step of writing and committing, failed with the errno a user would meet there.
  static let failures: [(FileStep, Int32)] = [
    (.create, EROFS), (.createUnnamed, ENOSPC), (.write, ENOSPC), (.write, EIO),
    (.syncFile, EIO), (.link, EIO), (.rename, EACCES), (.openDirectory, EACCES),
    (.syncDirectory, EIO),
  ]

  @Test(
    "a failure at any step leaves the previous file and nothing else",
    arguments: TemporaryKind.allCases, [false, true])
  func failures(kind: TemporaryKind, replacing: Bool) throws {
    for (step, cause) in Self.failures {
      let directory = TemporaryDirectory()
      let path = directory.file("out.bin")
      let previous: [UInt8]? = replacing ? Array("the previous file".utf8) : nil
      if let previous { write(previous, to: path) }
      let before = contents(of: directory)
      let faults = faultyFileSystem(kind)
      if step == .createUnnamed && kind == .named { continue }
      faults.fail(step, with: cause)
      // A failing unnamed file falls back to a named one: make that fail too.
      if step == .createUnnamed { faults.fail(.create, with: cause) }
      var thrown: JournalError?
      do {
        let file = try AtomicFileWriter(
          FileDestination(path, replacingExisting: replacing), system: faults.calls)
        try file.write([UInt8](repeating: 1, count: 100_000))
        try file.commit()
      } catch {
        thrown = error
      }
      guard let error = thrown else {
        // Only a step this mode never takes may pass (an unnamed file needs no `create`,
        // a new file is linked into place, not renamed), and the second name a replaced
        // file gets meanwhile, which a file system without hard links cannot give.
        let tolerated = kind == .named && replacing && step == .link
        #expect(faults.count(step) == 0 || tolerated, "\(kind) \(replacing) \(step): no error")
        #expect(contents(of: directory) == ["out.bin"], "\(kind) \(replacing) \(step)")
        continue
      }
      expectNothingChanged(
        by: error, writing: path, cause: cause, previous: previous, directory: directory,
        before: before)
    }
  }

  @Test("the destination may not be an input, under any name")
  func outputIsInput() throws {
    let directory = TemporaryDirectory()
    let input = directory.file("in.journal")
    try makeJournal(at: input, count: 10)
    let original = bytes(of: input)
    let symbolic = directory.file("symbolic.journal")
    let hard = directory.file("hard.journal")
    try FileManager.default.createSymbolicLink(atPath: symbolic, withDestinationPath: input)
    try FileManager.default.linkItem(atPath: input, toPath: hard)
    for destination in [input, symbolic, hard] {
      for replacing in [false, true] {
        #expect {
          try AtomicFileWriter(
            FileDestination(destination, replacingExisting: replacing, inputs: [input]))
        } throws: { error in
          let error = error as! JournalError
          let how = destination == input ? "" : " under another name"
          return error.code == .outputIsInput
            && error.description
              == "\(destination): the output would overwrite the input \(input) (the same file\(how)); choose another output file"
        }
      }
    }
    #expect(bytes(of: input) == original)
    #expect(contents(of: directory) == ["hard.journal", "in.journal", "symbolic.journal"])
    // Another file is fine, and an input that does not exist is no obstacle.
    try FileDestination(directory.file("other"), inputs: [input, directory.file("none")]).check()
  }

  @Test("a directory, a device, or a missing directory is refused with the destination named")
  func badDestinations() throws {
    let directory = TemporaryDirectory()
    #expect {
      try AtomicFileWriter(FileDestination(directory.path, replacingExisting: true))
    } throws: { error in
      "\(error)" == "\(directory.path): is a directory; give the path of a file to write"
    }
    // Created without replacing (a Store's journal): a directory is said as one too, not
    // as a file already there.
    #expect {
      try JournalWriter.create(
        at: directory.path,
        header: JournalHeader(
          domain: "test", schemaVersion: 1, sessionID: .random(), startTime: 0, device: "",
          settings: [], snapshotInterval: 64))
    } throws: { error in
      "\(error)" == "\(directory.path): is a directory; give the path of a file to write"
    }
    #expect {
      try AtomicFileWriter(FileDestination("/dev/null", replacingExisting: true))
    } throws: { error in
      "\(error)".hasPrefix("/dev/null: is not a regular file")
    }
    let missing = directory.file("nodir/x.journal")
    #expect {
      try AtomicFileWriter(FileDestination(missing))
    } throws: { error in
      let error = error as! JournalError
      return error.code == .notFound
        && error.description.hasPrefix(
          "\(missing): cannot create the file: there is no directory \(directory.file("nodir"))")
    }
    #expect(contents(of: directory).isEmpty)
  }

  @Test(
    "a name of a process's open file, or a link that leads to one, is refused, however reached")
  func openFileNames() throws {
    let directory = TemporaryDirectory()
    let target = directory.file("target")
    write([7], to: target)
    // A link like `/dev/stdout`, a link to that one, and a relative link into /proc.
    let stdout = directory.file("stdout")
    try FileManager.default.createSymbolicLink(
      atPath: stdout, withDestinationPath: "/proc/self/fd/1")
    let chained = directory.file("chained")
    try FileManager.default.createSymbolicLink(atPath: chained, withDestinationPath: "stdout")
    let relative = directory.file("relative")
    let up = String(repeating: "../", count: directory.path.split(separator: "/").count)
    try FileManager.default.createSymbolicLink(
      atPath: relative, withDestinationPath: up + "proc/self/fd/2")
    let cases: [(path: String, message: String)] = [
      (stdout, "\(stdout): leads to /proc/self/fd/1, a file this process has open"),
      (chained, "\(chained): leads to /proc/self/fd/1, a file this process has open"),
      (relative, "\(relative): leads to \(directory.path)/\(up)proc/self/fd/2, a file"),
      ("/proc/self/fd/1", "/proc/self/fd/1: is a file this process has open"),
      ("/dev/fd/1", "/dev/fd/1: is a file this process has open"),
    ]
    for (path, message) in cases {
      for replacing in [false, true] {
        #expect {
          try AtomicFileWriter(FileDestination(path, replacingExisting: replacing))
        } throws: { error in
          let error = error as! JournalError
          return error.code == .invalidArgument && error.description.hasPrefix(message)
        }
      }
    }
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: stdout) == "/proc/self/fd/1",
      "the link is left as it was")
    // A link to a file in a folder is replaced as before: the link, not its file.
    let link = directory.file("link")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    let file = try AtomicFileWriter(FileDestination(link, replacingExisting: true))
    try file.write([8])
    try file.commit()
    #expect(bytes(of: link) == [8])
    #expect(bytes(of: target) == [7])
  }

  @Test("a replaced file keeps its permissions; a new file has the default")
  func permissionsKept() throws {
    let directory = TemporaryDirectory()
    func mode(_ path: String) -> mode_t {
      var status = stat()
      return stat(path, &status) == 0 ? status.st_mode & 0o7777 : 0
    }
    for kind in TemporaryKind.allCases {
      for kept: mode_t in [0o600, 0o640, 0o755] {
        let path = directory.file("out-\(kind)-\(kept)")
        write([1], to: path)
        #expect(chmod(path, kept) == 0)
        let file = try AtomicFileWriter(
          FileDestination(path, replacingExisting: true), system: faultyFileSystem(kind).calls)
        try file.write([2])
        try file.commit()
        #expect(bytes(of: path) == [2])
        #expect(mode(path) == kept, "\(kind)")
      }
    }
    let fresh = directory.file("fresh")
    let file = try AtomicFileWriter(FileDestination(fresh))
    try file.commit()
    let mask = umask(0)
    umask(mask)
    #expect(mode(fresh) == 0o644 & ~mask)
  }

  /// Run as root, a replaced file became root's: a user's private journal, replaced by a
  /// `--force` or an in-place `recover` run as root, was then unreadable to its owner.
  @Test(
    "a replaced file keeps its owner and group where the process may give them",
    .enabled(if: geteuid() == 0, "only root gives a file to another user"))
  func ownerKept() throws {
    let directory = TemporaryDirectory()
    for kind in TemporaryKind.allCases {
      let path = directory.file("owned-\(kind)")
      write([1], to: path)
      #expect(chown(path, 4321, 4322) == 0)
      #expect(chmod(path, 0o600) == 0)
      let file = try AtomicFileWriter(
        FileDestination(path, replacingExisting: true), system: faultyFileSystem(kind).calls)
      try file.write([2])
      try file.commit()
      var status = stat()
      #expect(stat(path, &status) == 0)
      #expect(bytes(of: path) == [2])
      #expect(status.st_uid == 4321 && status.st_gid == 4322, "\(kind): \(status.st_uid)")
      #expect(status.st_mode & 0o7777 == 0o600, "\(kind)")
    }
  }

  @Test("a journal being written is never replaced")
  func lockedDestination() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("live.journal")
    let writer = try JournalWriter.create(at: path, header: header())
    #expect {
      try AtomicFileWriter(FileDestination(path, replacingExisting: true))
    } throws: { error in
      let error = error as! JournalError
      return error.code == .locked && "\(error)".contains("journal is being written")
    }
    try writer.close()
    let file = try AtomicFileWriter(FileDestination(path, replacingExisting: true))
    try file.commit()
    #expect(bytes(of: path).isEmpty)
  }

  @Test("text is buffered and appears whole on commit")
  func text() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("lines.jsonl")
    let output = try TextFileWriter(FileDestination(path))
    var expected = ""
    for line in 0..<20_000 {
      let text = "{\"seq\":\(line),\"label\":\"月曜日 🙂\"}\n"
      expected += text
      try output.write(text)
    }
    #expect(contents(of: directory).count <= 1)
    try output.commit()
    #expect(try String(contentsOfFile: path, encoding: .utf8) == expected)
    #expect(contents(of: directory) == ["lines.jsonl"])
  }

  @Test(
    "a text file that cannot be written leaves the previous one",
    arguments: [FileStep.write, .syncFile, .rename, .syncDirectory])
  func textFailure(step: FileStep) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("lines.jsonl")
    write(Array("old\n".utf8), to: path)
    let before = contents(of: directory)
    let faults = FaultyFileSystem()
    faults.fail(step, with: ENOSPC)
    var thrown: JournalError?
    do {
      let output = try TextFileWriter(
        FileDestination(path, replacingExisting: true), system: faults.calls)
      for _ in 0..<10_000 { try output.write("a line of text, repeated\n") }
      try output.commit()
    } catch {
      thrown = error
    }
    let error = try #require(thrown)
    expectNothingChanged(
      by: error, writing: path, cause: ENOSPC, previous: Array("old\n".utf8),
      directory: directory, before: before)
  }

  @Test(
    "a destination that cannot be stat'ed at the commit is an I/O error, not a file that appeared",
    arguments: TemporaryKind.allCases, [false, true])
  func statFailure(kind: TemporaryKind, replacing: Bool) throws {
    func attempt(_ faults: FaultyFileSystem, _ path: String) throws(JournalError) {
      let file = try AtomicFileWriter(
        FileDestination(path, replacingExisting: replacing), system: faults.calls)
      try file.write([1, 2, 3])
      try file.commit()
    }
    let directory = TemporaryDirectory()
    let path = directory.file("out.bin")
    let previous: [UInt8]? = replacing ? Array("the previous file".utf8) : nil
    if let previous { write(previous, to: path) }
    let before = contents(of: directory)
    // The commit's own stat of the destination: the last one before the file moves.
    let counting = faultyFileSystem(kind)
    try attempt(counting, path)
    let commitStat = try #require(
      (1...counting.callCount).last { counting.call($0) == "stat out.bin" })
    if let previous { write(previous, to: path) } else { unlink(path) }

    let faults = faultyFileSystem(kind)
    faults.failCall(commitStat, with: EIO)
    var thrown: JournalError?
    do { try attempt(faults, path) } catch { thrown = error }
    let error = try #require(thrown)
    #expect(error.code == .io, "\(error)")
    #expect(error.description.contains("cannot tell whether a file is there"), "\(error)")
    expectNothingChanged(
      by: error, writing: path, cause: EIO, previous: previous, directory: directory,
      before: before)
  }

  @Test(
    "without a second name for the previous file, a directory that cannot be synced leaves the new file in place, and the error says so"
  )
  func syncDirectoryFailureWithoutHardLinks() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("out.bin")
    write(Array("the previous file".utf8), to: path)
    // A file system without hard links (and without unnamed files), whose directory
    // cannot be synced.
    let faults = faultyFileSystem(.named)
    faults.fail(.link, with: EPERM)
    faults.fail(.syncDirectory, with: EIO)
    let error = try #require(replacingFails(path, faults))
    #expect(error.path == path, "\(error)")
    #expect(error.description.contains(String(cString: strerror(EIO))), "\(error)")
    // Removing the new file would have left neither; the error must not claim the
    // previous one is there.
    #expect(bytes(of: path) == Array("the new file".utf8))
    #expect(error.description.contains("it is in place"), "\(error)")
    #expect(!error.description.contains("left as it was"), "\(error)")
    #expect(contents(of: directory) == ["out.bin"])
  }

  @Test(
    "when neither the directory can be synced nor the previous file moved back, the previous file gets a name no writer's cleanup removes"
  )
  func previousKeptUnderAVisibleName() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("out.bin")
    let previous = Array("the previous file".utf8)
    write(previous, to: path)
    let faults = FaultyFileSystem()
    faults.fail(.syncDirectory, with: EIO)
    // The rename into place succeeds; the one that would move the previous file back fails.
    faults.fail(.rename, with: EIO, after: 1)
    let error = try #require(replacingFails(path, faults))
    #expect(
      error.description.contains(", and the previous file is at \(path).previous"), "\(error)")
    #expect(bytes(of: path + ".previous") == previous)
    #expect(contents(of: directory) == ["out.bin", "out.bin.previous"])
    // The next writer of the destination leaves it.
    let next = try AtomicFileWriter(FileDestination(path, replacingExisting: true))
    try next.write([1])
    try next.commit()
    #expect(bytes(of: path + ".previous") == previous)
  }

  /// A failed removal of the previous file's second name, once the new file was in place,
  /// left that name behind without a word (and the command exited 0).
  @Test(
    "a second name of the previous file that cannot be removed after the replacement is named in a warning",
    arguments: TemporaryKind.allCases)
  func leftoverNamedInAWarning(kind: TemporaryKind) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("out.bin")
    let previous = Array("the previous file".utf8)
    write(previous, to: path)
    let faults = faultyFileSystem(kind)
    faults.fail(.unlink, with: EIO)
    #expect(replacingFails(path, faults) == nil)
    #expect(bytes(of: path) == Array("the new file".utf8))
    let left = contents(of: directory).filter { $0 != "out.bin" }
    try #require(left.count == 1, "\(left)")
    #expect(bytes(of: directory.file(left[0])) == previous)
    #expect(faults.warnings.count == 1, "\(faults.warnings)")
    let warning = try #require(faults.warnings.first)
    #expect(warning.hasPrefix("\(path): "), "\(warning)")
    #expect(warning.contains(directory.file(left[0])), "\(warning)")
    #expect(warning.contains(String(cString: strerror(EIO))), "\(warning)")
  }

  /// A failed `fchmod` of the new file was ignored: a private (0600) file replaced became
  /// readable by everyone (0644), with no word.
  @Test(
    "a replacement whose permissions cannot be those of the file it replaces never grants more: it fails, the previous file left as it was",
    arguments: TemporaryKind.allCases)
  func permissionsNotKeptWouldGrantMore(kind: TemporaryKind) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("private.bin")
    let previous = Array("the previous file".utf8)
    write(previous, to: path)
    // Read-only, for its owner alone: a new file's default (0644 under the usual umask)
    // grants more.
    #expect(chmod(path, 0o400) == 0)
    let before = contents(of: directory)
    let faults = faultyFileSystem(kind)
    faults.fail(.changeMode, with: EPERM)
    let error = try #require(replacingFails(path, faults))
    #expect(
      error.description.contains(
        "cannot give the new file the permissions of the file it replaces (0400"),
      "\(error)")
    // A named new file that replaces one is made private (0600); an unnamed one 0644.
    let created = String((kind == .named ? 0o600 : 0o644) & ~currentUmask(), radix: 8)
    #expect(error.description.contains("0\(created)"), "\(error)")
    expectNothingChanged(
      by: error, writing: path, cause: EPERM, previous: previous, directory: directory,
      before: before)
    #expect(mode(of: path) == 0o400)
  }

  @Test(
    "a replacement whose permissions cannot be those of the file it replaces, but grant no more, is made with a warning naming the file and both modes",
    arguments: TemporaryKind.allCases)
  func permissionsNotKeptGrantLess(kind: TemporaryKind) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("shared.bin")
    write(Array("the previous file".utf8), to: path)
    #expect(chmod(path, 0o666) == 0)
    let faults = faultyFileSystem(kind)
    faults.fail(.changeMode, with: EPERM)
    #expect(replacingFails(path, faults) == nil)
    #expect(bytes(of: path) == Array("the new file".utf8))
    let created: mode_t = (kind == .named ? 0o600 : 0o644) & ~currentUmask()
    #expect(mode(of: path) == created)
    #expect(faults.warnings.count == 1, "\(faults.warnings)")
    let warning = try #require(faults.warnings.first)
    #expect(warning.hasPrefix("\(path): "), "\(warning)")
    #expect(
      warning.contains("0666") && warning.contains("0" + String(created, radix: 8)), "\(warning)")
    #expect(warning.contains(String(cString: strerror(EPERM))), "\(warning)")
    #expect(contents(of: directory) == ["shared.bin"])
  }

  @Test(
    "a replacement run as root that cannot give the new file the owner of the file it replaces says so; one not run as root is silent",
    .enabled(if: geteuid() == 0, "only root gives a file to another user"))
  func ownerNotKept() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("owned.bin")
    write(Array("the previous file".utf8), to: path)
    #expect(chown(path, 4321, 4322) == 0)
    let faults = FaultyFileSystem()
    faults.fail(.changeOwner, with: EPERM)
    #expect(replacingFails(path, faults) == nil)
    #expect(bytes(of: path) == Array("the new file".utf8))
    let warning = try #require(faults.warnings.first)
    #expect(faults.warnings.count == 1, "\(faults.warnings)")
    #expect(warning.hasPrefix("\(path): "), "\(warning)")
    #expect(warning.contains("4321") && warning.contains("4322"), "\(warning)")
  }

  @Test(
    "another user's file in a sticky directory is refused before anything is written (the rename failed at the end, leaving a second name of the file at each try); this user's own is replaced",
    .enabled(if: geteuid() == 0, "only root becomes another user"))
  func stickyDirectory() async throws {
    let directory = TemporaryDirectory()
    #expect(chmod(directory.path, 0o1777) == 0)
    let path = directory.file("theirs.bin")
    write(Array("the previous file".utf8), to: path)
    #expect(chmod(path, 0o666) == 0)
    let folder: String = directory.path
    #expect(symlink(folder + "/mine.bin", folder + "/root.link") == 0)
    await #expect(processExitsWith: .success) {
      [path = path as String, folder = folder as String] in
      guard setgid(65534) == 0, setuid(65534) == 0 else { exit(2) }
      do {
        _ = try AtomicFileWriter(FileDestination(path, replacingExisting: true))
        exit(3)
      } catch {
        guard
          "\(error)"
            == "\(path): cannot replace the file: it is another user's (uid 0) in \(folder), a sticky directory, where only a file's owner, the directory's or root may replace it; nothing was written (Operation not permitted (errno 1))"
        else { exit(4) }
      }
      let mine = folder + "/mine.bin"
      for content in ["first", "second"] {
        let file = try AtomicFileWriter(FileDestination(mine, replacingExisting: true))
        try file.write(Array(content.utf8))
        try file.commit()
      }
      guard bytes(of: mine) == Array("second".utf8) else { exit(5) }
      // What is replaced is the name: root's link to this user's file is refused, this
      // user's link to root's file is replaced (the file it led to untouched).
      guard
        (try? AtomicFileWriter(FileDestination(folder + "/root.link", replacingExisting: true)))
          == nil
      else { exit(6) }
      guard symlink(path, folder + "/own.link") == 0 else { exit(7) }
      let own = try AtomicFileWriter(FileDestination(folder + "/own.link", replacingExisting: true))
      try own.write(Array("own".utf8))
      try own.commit()
      exit(bytes(of: folder + "/own.link") == Array("own".utf8) ? 0 : 8)
    }
    #expect(bytes(of: path) == Array("the previous file".utf8))
    #expect(
      contents(of: directory).sorted() == ["mine.bin", "own.link", "root.link", "theirs.bin"])
  }

  @Test(
    "a replacement not run as root that cannot give the new file another user's ownership is silent about it",
    .enabled(if: geteuid() == 0, "only root becomes another user"))
  func ownerNotKeptSilently() async throws {
    let directory = TemporaryDirectory()
    #expect(chmod(directory.path, 0o777) == 0)
    let path = directory.file("theirs.bin")
    write(Array("the previous file".utf8), to: path)
    #expect(chown(path, 4321, 4322) == 0)
    #expect(chmod(path, 0o644) == 0)
    await #expect(processExitsWith: .success) { [path = path as String] in
      // `nobody`, who may give no file to another user.
      guard setgid(65534) == 0, setuid(65534) == 0 else { exit(2) }
      let faults = FaultyFileSystem()
      let file = try AtomicFileWriter(
        FileDestination(path, replacingExisting: true), system: faults.calls)
      try file.write(Array("the new file".utf8))
      try file.commit()
      // The owner and group, then the group alone.
      exit(faults.count(.changeOwner) == 2 && faults.warnings.isEmpty ? 0 : 1)
    }
    #expect(bytes(of: path) == Array("the new file".utf8))
  }

  /// Where a new file has a name while it is written (NFS, macOS: no unnamed files), one
  /// that replaces a private file was made `0644` and given the `0600` only as it moved
  /// in: another user could open it by its name meanwhile and read the new content. It is
  /// private while written now, and takes the replaced file's permissions as it moves in.
  @Test("a named new file that replaces one is private while it is written")
  func namedReplacementIsPrivateWhileWritten() async throws {
    let directory = TemporaryDirectory()
    let path = directory.file("private.bin")
    write(Array("the previous file".utf8), to: path)
    #expect(chmod(path, 0o640) == 0)
    await #expect(processExitsWith: .success) {
      [path = path as String, directory = directory.path as String] in
      AtomicFileWriter.unnamedFiles = false
      let file = try AtomicFileWriter(FileDestination(path, replacingExisting: true))
      try file.write(Array("the new file".utf8))
      let hidden =
        (try? FileManager.default.contentsOfDirectory(atPath: directory))?
        .filter { $0.hasPrefix(".") } ?? []
      var status = stat()
      guard hidden.count == 1, stat(directory + "/" + hidden[0], &status) == 0,
        status.st_mode & 0o077 == 0
      else { exit(1) }
      try file.commit()
      exit(0)
    }
    var status = stat()
    #expect(stat(path, &status) == 0)
    #expect(status.st_mode & 0o777 == 0o640)
    #expect(bytes(of: path) == Array("the new file".utf8))
  }

  /// A named new file made private to replace a file that is gone when it moves in
  /// (removed meanwhile) gets a new file's permissions, not the private ones it was
  /// written with.
  @Test(
    "a named new file whose file to replace is gone when it moves in gets a new file's permissions")
  func namedReplacementOfAFileGoneMeanwhile() async throws {
    let directory = TemporaryDirectory()
    let path = directory.file("gone.bin")
    write(Array("the previous file".utf8), to: path)
    await #expect(processExitsWith: .success) { [path = path as String] in
      AtomicFileWriter.unnamedFiles = false
      let file = try AtomicFileWriter(FileDestination(path, replacingExisting: true))
      try file.write(Array("the new file".utf8))
      guard unlink(path) == 0 else { exit(2) }
      try file.commit()
      exit(0)
    }
    #expect(mode(of: path) == 0o644 & ~currentUmask())
    #expect(bytes(of: path) == Array("the new file".utf8))
  }

  /// A user replacing another user's `0640` file of a group both are in gave the new file
  /// neither owner nor group (one `fchown` of both, which fails for the owner): the file
  /// became the writer's group's, readable by its members, who could not read the one it
  /// replaced. The group is given alone where the writer may give it; where it may not,
  /// the group gets no more than the others had.
  @Test(
    "a replacement not run as root keeps the group of the file it replaces where it may, and else gives the other group no more than the others",
    .enabled(if: geteuid() == 0, "only root becomes another user"),
    arguments: [true, false])
  func groupKeptOrNarrowed(member: Bool) async throws {
    let directory = TemporaryDirectory()
    #expect(chmod(directory.path, 0o777) == 0)
    let path = directory.file("theirs.bin")
    write(Array("the previous file".utf8), to: path)
    #expect(chown(path, 4321, 4322) == 0)
    #expect(chmod(path, 0o640) == 0)
    await #expect(processExitsWith: .success) { [path = path as String, member = member as Bool] in
      // `nobody`, in the file's group or not.
      var groups: [gid_t] = member ? [4322] : []
      guard setgroups(groups.count, &groups) == 0, setgid(65534) == 0, setuid(65534) == 0
      else { exit(2) }
      let faults = FaultyFileSystem()
      let file = try AtomicFileWriter(
        FileDestination(path, replacingExisting: true), system: faults.calls)
      try file.write(Array("the new file".utf8))
      try file.commit()
      // A member keeps the group silently; another is told of the permissions narrowed.
      exit(faults.warnings.count == (member ? 0 : 1) ? 0 : 1)
    }
    #expect(bytes(of: path) == Array("the new file".utf8))
    var status = stat()
    #expect(stat(path, &status) == 0)
    #expect(status.st_uid == 65534)
    #expect(status.st_gid == (member ? 4322 : 65534))
    #expect(status.st_mode & 0o777 == (member ? 0o640 : 0o600))
  }

  /// With `NAME.previous` taken (a user's file), the previous file stayed under its
  /// hidden second name, which the next writer's cleanup removed: it was lost.
  @Test(
    "when NAME.previous is taken, the previous file gets the first free NAME.previous-N, and no file is overwritten"
  )
  func previousKeptBesideTakenNames() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("out.bin")
    let previous = Array("the previous file".utf8)
    write(previous, to: path)
    let notes = Array("the user's own notes".utf8)
    write(notes, to: path + ".previous")
    write(notes + [2], to: path + ".previous-2")
    let faults = FaultyFileSystem()
    faults.fail(.syncDirectory, with: EIO)
    faults.fail(.rename, with: EIO, after: 1)
    let error = try #require(replacingFails(path, faults))
    #expect(
      error.description.contains(", and the previous file is at \(path).previous-3 "), "\(error)")
    #expect(bytes(of: path + ".previous-3") == previous)
    #expect(bytes(of: path + ".previous") == notes)
    #expect(bytes(of: path + ".previous-2") == notes + [2])
    let names = ["out.bin", "out.bin.previous", "out.bin.previous-2", "out.bin.previous-3"]
    #expect(contents(of: directory) == names)
    // The next writer of the destination leaves it.
    let next = try AtomicFileWriter(FileDestination(path, replacingExisting: true))
    try next.write([1])
    try next.commit()
    #expect(bytes(of: path + ".previous-3") == previous)
    #expect(contents(of: directory) == names)
  }

  @Test(
    "the next writer of a destination removes the hidden new files a dead process left, and no other"
  )
  func leftoversRemoved() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("out.bin")
    let dead = try #require(deadProcessID())
    // A process that is gone, this one (no writer holds the name: a simulated power
    // cut); a process that runs (init), names not of this form, another destination.
    let stale = [".out.bin.\(dead)-3.new.tmp", ".out.bin.\(getpid())-999999.new.tmp"]
    let kept = [
      ".out.bin.1-1.new.tmp", ".out.bin.x-1.new.tmp", ".out.bin.\(dead).new.tmp",
      ".other.bin.\(dead)-1.new.tmp", "out.bin.\(dead)-1.new.tmp",
    ]
    for name in stale + kept { write([1], to: directory.file(name)) }
    // A writer of this process holds its own hidden name while it works (a file system
    // without unnamed files gives it one).
    let first = try AtomicFileWriter(
      FileDestination(path), system: faultyFileSystem(.named).calls)
    try first.write([1])
    let held = Set(contents(of: directory)).subtracting(kept)
    #expect(held.count == 1 && held.isDisjoint(with: stale), "\(held)")
    // The next writer spares it.
    let second = try AtomicFileWriter(FileDestination(path, replacingExisting: true))
    #expect(Set(contents(of: directory)) == Set(kept).union(held))
    try first.commit()
    try second.write([2])
    try second.commit()
    #expect(bytes(of: path) == [2])
    #expect(Set(contents(of: directory)) == Set(kept + ["out.bin"]))
  }

  /// The cleanup removed any file named `.NAME.<digits>-<digits>.tmp` whose number was no
  /// running process, leading zeros and all: a user's own file so named, and the previous
  /// file's second name when it was that file's only name.
  @Test("the cleanup removes only names spelt exactly as a writer spells them, of regular files")
  func leftoversSpeltExactly() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("out.bin")
    write(Array("the destination".utf8), to: path)
    let dead = try #require(deadProcessID())
    let removed = [".out.bin.\(dead)-3.new.tmp", ".out.bin.\(dead)-18446744073709551615.new.tmp"]
    let kept = [
      ".out.bin.0\(dead)-3.new.tmp", ".out.bin.\(dead)-03.new.tmp", ".out.bin.\(dead)-0.new.tmp",
      ".out.bin.+\(dead)-3.new.tmp", ".out.bin.\(dead)-+3.new.tmp", ".out.bin.0-3.new.tmp",
      ".out.bin.99999999-3.new.tmp", ".out.bin.\(dead)-18446744073709551616.new.tmp",
      ".out.bin.\(dead)-3.old.tmp", ".out.bin.\(dead)-3-4.new.tmp", ".out.bin.\(dead)--3.new.tmp",
      // An earlier version's spelling with a leading zero, a second name of the destination.
      ".out.bin.0\(dead)-3.tmp",
    ]
    for name in removed + kept.dropLast() { write(Array("notes".utf8), to: directory.file(name)) }
    #expect(link(path, directory.file(kept.last!)) == 0)
    // Not regular files: a symbolic link (to the destination, even) and a directory.
    let link = ".out.bin.\(dead)-4.new.tmp"
    #expect(symlink(path, directory.file(link)) == 0)
    let folder = ".out.bin.\(dead)-5.new.tmp"
    #expect(mkdir(directory.file(folder), 0o755) == 0)
    let writer = try AtomicFileWriter(FileDestination(path, replacingExisting: true))
    writer.discard()
    #expect(Set(contents(of: directory)) == Set(kept + [link, folder, "out.bin"]))
    #expect(bytes(of: path) == Array("the destination".utf8))
  }

  @Test(
    "a second name of the previous file a dead process left is removed only while the destination is that file"
  )
  func previousNamesRemovedOnlyBesideTheirFile() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("out.bin")
    let destination = Array("the destination".utf8)
    write(destination, to: path)
    let elsewhere = directory.file("elsewhere.bin")
    write(Array("another file".utf8), to: elsewhere)
    let dead = try #require(deadProcessID())
    // Second names of the destination itself (the replacement never happened): spares.
    let spares = [".out.bin.\(dead)-1.previous.tmp", ".out.bin.\(dead)-2.tmp"]
    for name in spares { #expect(link(path, directory.file(name)) == 0) }
    // A previous file's only name (the replacement happened, or the move back failed), in
    // this version's spelling and an earlier one's, and a second name of another file.
    let only = [".out.bin.\(dead)-3.previous.tmp", ".out.bin.\(dead)-4.tmp"]
    for name in only { write(Array("PREVIOUS CONTENT".utf8), to: directory.file(name)) }
    let other = ".out.bin.\(dead)-5.previous.tmp"
    #expect(link(elsewhere, directory.file(other)) == 0)
    let writer = try AtomicFileWriter(FileDestination(path, replacingExisting: true))
    writer.discard()
    #expect(Set(contents(of: directory)) == Set(only + [other, "out.bin", "elsewhere.bin"]))
    for name in only { #expect(bytes(of: directory.file(name)) == Array("PREVIOUS CONTENT".utf8)) }
    #expect(bytes(of: path) == destination)
  }
}

/// A process number that no process has now, within the range a system gives (nil if
/// none is found near its top).
func deadProcessID() -> Int32? {
  #if os(Linux)
    let top: Int32 = 4_194_304
  #else
    let top: Int32 = 99_999
  #endif
  return (top - 1000..<top).reversed().first { kill($0, 0) != 0 && errno == ESRCH }
}
