extension JournalWriter {
  /// Takes again the record lock that names this process to a second writer.
  ///
  /// POSIX record locks are dropped when a process closes *any* descriptor of the file,
  /// so reading the journal in the writer's own process (a `Timeline` to rebuild its
  /// state) loses it; the exclusive lock itself is unaffected.
  package func markLockHolder() {
    FileLock.markHolder(file)
  }
}
