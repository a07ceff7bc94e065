/// Operations on whole journal files: verification and recovery.
public enum Journal {}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Journal {
  /// Moves a finished journal file into place, atomically (`rename`), and makes the move
  /// durable.
  ///
  /// A journal already at `destination` is replaced only with `replacing`, and never
  /// while a writer holds it: its lock is taken first, so a live recording is not
  /// silently cut off from its file.
  /// - Throws: ``JournalError`` `alreadyExists`, `locked`, or `io`.
  public static func moveIntoPlace(_ source: String, to destination: String, replacing: Bool)
    throws(JournalError)
  {
    var existing: JournalFile?
    if access(destination, F_OK) == 0 {
      guard replacing else {
        throw JournalError(
          .alreadyExists, "the file already exists; it is never overwritten silently",
          path: destination)
      }
      let file = try JournalFile(path: destination, mode: .update)
      try FileLock.acquire(file)
      existing = file
    }
    defer { existing.map(FileLock.release) }
    guard rename(source, destination) == 0 else {
      throw JournalError(
        .io, "cannot move \(source) into place", path: destination, cause: errnoCause())
    }
    JournalFile.syncDirectory(of: destination)
  }
}
