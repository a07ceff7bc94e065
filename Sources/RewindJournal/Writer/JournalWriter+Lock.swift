extension JournalWriter {
  /// Takes again the record lock that names this process to a second writer.
  ///
  /// POSIX record locks are dropped when a process closes *any* descriptor of the file,
  /// so reading the journal in the writer's own process (a `Timeline` to rebuild its
  /// state) loses it; the exclusive lock itself is unaffected on Linux, an open file
  /// description lock (`F_OFD_SETLK`). Elsewhere (macOS) the exclusion is a POSIX lock
  /// too, dropped likewise, and this takes back only the marker (README, "Platforms").
  package func markLockHolder() {
    FileLock.markHolder(file)
  }
}
