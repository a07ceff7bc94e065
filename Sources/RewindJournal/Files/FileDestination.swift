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
  ///   destination and the input), ``JournalError/Code/alreadyExists``, or
  ///   ``JournalError/Code/io`` for a directory.
  /// - Complexity: one `stat` per input and one of the destination.
  package func check() throws(JournalError) {
    _ = try check(system: .live)
  }

  /// ``check()`` through `system`.
  /// - Returns: the status of the file at the destination, nil if there is none.
  func check(system: FileSystemCalls) throws(JournalError) -> stat? {
    guard
      let existing = JournalFile.status(of: path, system: system)
        ?? JournalFile.danglingLinkStatus(of: path, system: system)
    else { return nil }
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
      throw JournalError(.io, "is a directory; give the path of a file to write", path: path)
    default:
      // Renaming over a device or a pipe would replace it, not write to it.
      throw JournalError(
        .io, "is not a regular file (a device, pipe or socket); give the path of a file to write",
        path: path)
    }
    guard replacingExisting else {
      throw JournalError(
        .alreadyExists, "the file already exists; it is never overwritten silently", path: path)
    }
    return existing
  }
}
