/// Operations on whole journal files: verification and recovery.
public enum Journal {}

extension Journal {
  /// Moves a finished journal file into place, atomically (`rename`), and makes the move
  /// durable.
  ///
  /// A journal already at `destination` is replaced only with `replacing`, and never
  /// while a writer holds it: its lock is taken first, so a live recording is not
  /// silently cut off from its file. New code creates the journal with
  /// ``JournalWriter/create(_:header:options:)`` instead, which needs no second step.
  /// - Throws: ``JournalError`` `alreadyExists`, `locked`, or `io`.
  public static func moveIntoPlace(_ source: String, to destination: String, replacing: Bool)
    throws(JournalError)
  {
    let system = FileSystemCalls.live
    var existing: JournalFile?
    if JournalFile.status(of: destination, system: system) != nil {
      guard replacing else {
        throw JournalError(
          .alreadyExists, "the file already exists; it is never overwritten silently",
          path: destination)
      }
      let file = try JournalFile(path: destination, mode: .update, system: system)
      try FileLock.acquire(file)
      existing = file
    }
    defer { existing.map(FileLock.release) }
    guard system.rename(source, destination) == 0 else {
      throw JournalError(
        .io, "cannot move the new journal into place", path: destination, cause: errnoCause())
    }
    try JournalFile.syncDirectory(of: destination, system: system)
  }
}
