extension JournalWriter {
  /// Seals the last frame, writes the index and trailer, syncs, releases the lock and
  /// closes the file; a journal created with ``create(_:header:options:)`` is then moved to
  /// its path.
  ///
  /// A closed journal opens without walking its frames. Closing twice is harmless.
  /// - Throws: I/O errors; a journal written in place then stays readable by walking its
  ///   frames, and one created beside its path is withdrawn (nothing appears there).
  public func close() throws(JournalError) {
    if isClosed { return }
    try checkUsable()
    try seal(syncing: false)
    let index = JournalIndex(frames: frames, lostRanges: lostRanges, headerCopy: headerBody)
      .encoded()
    let trailer = JournalTrailer(
      indexOffset: fileEnd, indexSize: UInt32(index.count), recordCount: recordCount
    ).encoded()
    try writeAtEnd(index + trailer, sequenceRange: nil)
    if let pending {
      do {
        try pending.commit(syncing: options.durability != .none)
      } catch {
        failure = error
        throw error
      }
    } else if options.durability != .none {
      try syncOrFail()
    }
    isClosed = true
    if isLocked {
      FileLock.release(file)
      isLocked = false
    }
    // Closed now, not when the writer is released (see `JournalFile.closeDescriptor()`).
    file.closeDescriptor()
  }

  /// The number of records in the journal (events lost to salvaged damage excluded).
  public var recordCount: UInt64 {
    frames.reduce(0) { $0 + UInt64($1.recordCount) } + UInt64(open.pointee.recordCount)
  }
}
