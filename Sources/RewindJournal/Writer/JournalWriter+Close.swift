extension JournalWriter {
  /// Seals the last frame, writes the index and trailer, syncs, and releases the lock.
  ///
  /// A closed journal opens without walking its frames. Closing twice is harmless.
  /// - Throws: I/O errors; the journal then stays readable by walking its frames.
  public func close() throws(JournalError) {
    if isClosed { return }
    try checkUsable()
    try seal(syncing: false)
    let index = JournalIndex(frames: frames, lostRanges: lostRanges).encoded()
    let trailer = JournalTrailer(
      indexOffset: fileEnd, indexSize: UInt32(index.count), recordCount: recordCount
    ).encoded()
    try writeAtEnd(index + trailer, sequenceRange: nil)
    if options.durability != .none { try syncOrFail() }
    isClosed = true
    FileLock.release(file)
  }

  /// The number of records in the journal (events lost to salvaged damage excluded).
  public var recordCount: UInt64 {
    frames.reduce(0) { $0 + UInt64($1.recordCount) } + UInt64(open.pointee.recordCount)
  }
}
