#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command writes a new file: the path, whether a file already there may be
/// replaced, and the files the command reads, which it must never write over.
///
/// `AtomicFileWriter`, `TextFileWriter` and
/// ``JournalWriter/create(_:header:options:)`` check a destination before they write
/// anything; `check()` (package access) does it alone, for a command that wants to refuse
/// before doing its work.
public struct FileDestination: Sendable, Equatable {
  /// The file to create or replace.
  public var path: String
  /// Replace a file already at ``path`` (a command's `--force`); otherwise an existing
  /// file is an error.
  public var replacingExisting: Bool
  /// The files the command reads. The destination may be none of them, whatever name
  /// leads to it: the comparison is of device and inode, so a symbolic link or a hard
  /// link to an input counts as the input.
  public var inputs: [String]

  public init(_ path: String, replacingExisting: Bool = false, inputs: [String] = []) {
    self.path = path
    self.replacingExisting = replacingExisting
    self.inputs = inputs
  }

  /// Checks that the destination can be written: it is none of the inputs, and absent
  /// unless it may be replaced, and then a regular file (never a directory or a device).
  ///
  /// - Throws: ``JournalError`` with ``JournalError/Code/outputIsInput`` (naming the
  ///   destination and the input), ``JournalError/Code/alreadyExists``,
  ///   ``JournalError/Code/notFound`` when the destination's directory is missing, or
  ///   ``JournalError/Code/invalidArgument`` for a path that can never be the file
  ///   written: a directory, a device, pipe or socket, a name in `/proc` or `/dev/fd`, or
  ///   a symbolic link that leads there (`/dev/stdout`): replacing the link would write
  ///   nothing where it leads.
  /// - Complexity: one `stat` per input and one of the destination.
  package func check() throws(JournalError) {
    _ = try check(system: .live)
  }

  /// ``check()`` through `system`.
  /// - Returns: the status of the file at the destination, nil if there is none.
  func check(system: FileSystemCalls) throws(JournalError) -> stat? {
    if let open = Self.openFileLink(of: path, system: system) {
      // `/dev/stdout` leads to `/proc/self/fd/1`, whose target is whatever standard output
      // is: replacing the link would write nothing there and replace a system file.
      let what = open == path ? "is" : "leads to \(open),"
      throw JournalError(
        .invalidArgument,
        "\(what) a file this process has open (standard output, say), not a file in a folder; give the path of a file to write",
        path: path)
    }
    guard
      let existing = JournalFile.status(of: path, system: system)
        ?? JournalFile.danglingLinkStatus(of: path, system: system)
    else {
      // Said before the work, as the writer would say it at the end.
      let directory = JournalFile.directory(of: path)
      var status = stat()
      if !path.isEmpty, system.stat(directory, &status) != 0, errno == ENOENT {
        throw JournalError(
          .notFound, "cannot create the file: there is no directory \(directory)", path: path,
          cause: errnoCause(ENOENT))
      }
      return nil
    }
    let identity = FileIdentity(existing)
    for input in inputs {
      guard let status = JournalFile.status(of: input, system: system),
        FileIdentity(status) == identity
      else { continue }
      let how = input == path ? "" : " under another name"
      throw JournalError(
        .outputIsInput,
        "the output would overwrite the input \(input) (the same file\(how)); choose another output file",
        path: path)
    }
    switch existing.st_mode & S_IFMT {
    // A symbolic link that leads nowhere is replaced as a file is (as --force replaces a
    // link to a file: the link, not the file it leads to).
    case S_IFREG, S_IFLNK: break
    case S_IFDIR:
      throw JournalError.directoryGiven(path)
    default:
      // Renaming over a device or a pipe would replace it, not write to it.
      throw JournalError(
        .invalidArgument,
        "is not a regular file (a device, pipe or socket); give the path of a file to write",
        path: path)
    }
    guard replacingExisting else {
      throw JournalError(
        .alreadyExists, "the file already exists; it is never overwritten silently", path: path)
    }
    return existing
  }

  /// Where `path` or a symbolic link on the way from it leads into a folder of a process's
  /// open files (`/proc/PID/fd`, which `/proc/self/fd`, `/dev/fd` and `/dev/stdout` lead
  /// to), or nil: the first such name met.
  /// - Complexity: a `realpath` of the folder and an `lstat`; for a symbolic link, a
  ///   `readlink` and the same again each step, at most 40 steps (the system's limit).
  static func openFileLink(of path: String, system: FileSystemCalls) -> String? {
    var current = path
    for step in 0...40 {
      // The name with its directory's links resolved: `/proc/self/fd/1`, however reached.
      let directory = JournalFile.directory(of: current)
      guard let resolved = realpath(directory, nil) else { return nil }
      let folder = String(cString: resolved)
      free(resolved)
      if isOpenFileFolder(folder) { return current }
      guard step < 40 else { return nil }
      var status = stat()
      guard system.lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else {
        return nil
      }
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink(current, &buffer, buffer.count - 1)
      guard count > 0 else { return nil }
      let target = String(
        decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      current = target.hasPrefix("/") ? target : folder + "/" + target
    }
    return nil
  }

  /// Whether `folder` (a resolved path) is `/proc/PID/fd` or `/proc/PID/task/TID/fd`.
  static func isOpenFileFolder(_ folder: String) -> Bool {
    let parts = folder.split(separator: "/")
    func isNumber(_ index: Int) -> Bool {
      parts.indices.contains(index) && parts[index].utf8.allSatisfy { (0x30...0x39).contains($0) }
    }
    guard parts.first == "proc", isNumber(1) else { return false }
    return parts.count == 3 && parts[2] == "fd"
      || parts.count == 5 && parts[2] == "task" && isNumber(3) && parts[4] == "fd"
  }
}
