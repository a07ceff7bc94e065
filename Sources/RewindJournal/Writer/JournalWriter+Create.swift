extension JournalWriter {
  /// Creates a new journal at `path`, written in place, and writes its header: the
  /// journal of a live recording.
  ///
  /// The file exists from the start, so that a recording killed at any moment leaves a
  /// journal at its path that `rewind recover` repairs; but not before its header is
  /// written: a failure then, or a signal that ends the process where `EndingSignals` is
  /// installed (`rewind` installs it), removes the file. For batch work, whose journal must
  /// appear only when complete, use ``create(_:header:options:)``.
  ///
  /// - Parameters:
  ///   - path: where the journal goes.
  ///   - header: the session's header, written first (and its copy after it).
  ///   - options: frames, compression and durability.
  ///   - replacingExisting: replace a file already at `path` (never a journal being
  ///     written: its lock is checked); otherwise an existing file is an error. The file
  ///     there is replaced by name, as `AtomicFileWriter` replaces one: the new journal is
  ///     moved there once its header is durable, so that until then the previous file
  ///     stays, and another name of it (a hard link; the file a symbolic link at `path`
  ///     leads to) never changes.
  /// - Throws: ``JournalError`` if the file exists (and may not be replaced), is locked,
  ///   or cannot be written (a file this call created is then removed again); or if the
  ///   header or options are invalid.
  public static func create(
    at path: String, header: JournalHeader, options: JournalWriterOptions = .init(),
    replacingExisting: Bool = false
  ) throws(JournalError) -> JournalWriter {
    try options.validate()
    try header.validate()
    var header = header
    header.formatVersion = options.formatVersion
    let (file, created, replacing) = try createFile(
      at: path, replacingExisting: replacingExisting, options: options)
    // Until its header is written, a signal that ends the process (Ctrl-C as a recording
    // starts) removes the new file, as a failure here does: a journal without its header
    // is no journal, and an empty file left at the path made the next recording there
    // fail with "already exists". (A replacement's new file is its writer's to remove.)
    var slot = created ? EndingSignals.add(path) : -1
    var committing = false
    do {
      let writer = try JournalWriter(
        path: path, header: header, options: options, file: file, layout: nil)
      try writer.writeHeader()
      // From here on, the journal stays: `rewind recover` repairs whatever follows. (Taken
      // out once: its slot may be another writer's by a failure below.)
      EndingSignals.remove(slot)
      slot = -1
      if let replacing {
        // The journal takes the previous file's name now that it has its header.
        committing = true
        try replacing.commit(syncing: options.durability != .none)
      } else if options.durability != .none {
        try file.sync()
        if created { try JournalFile.syncDirectory(of: path, system: options.system) }
      }
      return writer
    } catch {
      // A journal without its header is no journal: leave nothing behind.
      if created {
        _ = options.system.unlink(path)
        EndingSignals.remove(slot)
      }
      // (A failed commit says what became of the previous file itself.)
      if let replacing, !committing { throw replacing.unwritten(error) }
      throw error
    }
  }

  /// Creates a new journal that appears at `destination.path` only when ``close()``
  /// succeeds: the journal of batch work (`record`, `generate`, `import`, `upgrade`).
  ///
  /// The journal is written to a temporary file beside the destination (see
  /// `AtomicFileWriter`) and moved into place, complete, by ``close()``. If writing or
  /// closing fails, or the writer is dropped without being closed, the previous file at
  /// the destination is untouched and nothing is left behind. Errors name the
  /// destination.
  ///
  /// - Parameters:
  ///   - destination: where the journal goes, whether an existing file may be replaced
  ///     (never a journal being written: its lock is checked), and the command's inputs,
  ///     which it may not be.
  ///   - header: the session's header, written first (and its copy after it).
  ///   - options: frames, compression and durability.
  /// - Throws: ``JournalError``: ``JournalError/Code/outputIsInput``,
  ///   ``JournalError/Code/alreadyExists``, ``JournalError/Code/locked``,
  ///   ``JournalError/Code/notFound`` (no such directory), ``JournalError/Code/io``; or
  ///   ``JournalError/Code/invalidArgument`` for an invalid header or options.
  public static func create(
    _ destination: FileDestination, header: JournalHeader, options: JournalWriterOptions = .init()
  ) throws(JournalError) -> JournalWriter {
    try options.validate()
    try header.validate()
    var header = header
    header.formatVersion = options.formatVersion
    let pending = try AtomicFileWriter(destination, system: options.system)
    let writer = try JournalWriter(
      path: destination.path, header: header, options: options, file: pending.file, layout: nil,
      pending: pending)
    try writer.writeHeader()
    return writer
  }

  /// Writes the header and its copy (FORMAT.md, "Journal header"), in one write.
  private func writeHeader() throws(JournalError) {
    let bytes =
      MetadataFrame.encode(.header, body: headerBody)
      + MetadataFrame.encode(.headerCopy, body: headerBody)
    do {
      try bytes.withBytes { buffer throws(JournalError) in
        try file.write(buffer, at: 0)
      }
    } catch {
      // The new file's offset means nothing to the user: what became of the destination
      // does (batch work writes beside it).
      throw pending.map { $0.unwritten(error) } ?? error
    }
    fileEnd = UInt64(bytes.count)
  }

  /// Creates and locks a new file at `path`; or, when a file is there and may be
  /// replaced, a locked new file beside it that replaces it when committed (after its
  /// header: the previous file, whose read lock keeps a journal being written from being
  /// replaced, stays until then). Dropped uncommitted, that file leaves nothing behind.
  /// - Returns: the file, whether this call created it at `path`, and what replaces the
  ///   file there.
  private static func createFile(
    at path: String, replacingExisting: Bool, options: JournalWriterOptions
  ) throws(JournalError) -> (JournalFile, created: Bool, replacing: AtomicFileWriter?) {
    do throws(JournalError) {
      let file = try JournalFile(path: path, mode: .create, system: options.system)
      do {
        try FileLock.acquire(file)
      } catch {
        _ = options.system.unlink(path)
        throw error
      }
      return (file, true, nil)
    } catch let error where error.code == .alreadyExists && replacingExisting {
      let replacing = try AtomicFileWriter(
        FileDestination(path, replacingExisting: true), system: options.system)
      try FileLock.acquire(replacing.file)
      return (replacing.file, false, replacing)
    }
  }

  /// Opens an existing journal to append to it, continuing after its last record.
  ///
  /// The index a closed journal ends with is cut away before the first new frame is
  /// written, and written anew on close.
  ///
  /// - Parameters:
  ///   - path: the journal to continue.
  ///   - domain: the domain the caller writes; a journal of another domain is refused.
  ///   - schemaVersion: the schema the caller writes; it must equal the journal's.
  ///   - options: frames, compression and durability.
  /// - Throws: ``JournalError`` with ``JournalError/Code/wrongDomain``,
  ///   ``JournalError/Code/unsupportedVersion``, ``JournalError/Code/locked``, or
  ///   ``JournalError/Code/tornTail`` / ``JournalError/Code/corruptFrame`` /
  ///   ``JournalError/Code/corruptHeader`` when the journal needs `recover` first.
  public static func open(
    at path: String, domain: String, schemaVersion: UInt32,
    options: JournalWriterOptions = .init()
  ) throws(JournalError) -> JournalWriter {
    try options.validate()
    let file = try JournalFile(path: path, mode: .update, system: options.system)
    try FileLock.acquire(file)
    let layout = try JournalLayout.read(file, trustIndex: true)
    let header = layout.header
    guard header.domain == domain else {
      throw JournalError(
        .wrongDomain,
        "journal records the '\(header.domain)' domain; this writer writes '\(domain)'",
        path: path)
    }
    guard header.schemaVersion == schemaVersion else {
      throw JournalError(
        .wrongDomain,
        "journal uses schema version \(header.schemaVersion) of '\(domain)'; this writer writes version \(schemaVersion), and one journal never mixes two",
        path: path)
    }
    if let damage = layout.headerDamage {
      throw JournalError(
        .corruptHeader,
        "\(damage.reason); run `rewind recover` on it before appending", path: path,
        byteOffset: damage.offset)
    }
    if let tail = layout.tail {
      throw JournalError(
        .tornTail,
        "\(tail.described); run `rewind recover` on it before appending",
        path: path, byteOffset: tail.offset)
    }
    if let damage = layout.damage.first {
      throw JournalError(
        .corruptFrame,
        "the journal is damaged (\(damage.reason)); run `rewind recover --salvage` on it before appending",
        path: path, sequenceRange: damage.sequenceRange, byteOffset: damage.byteRange.lowerBound)
    }
    return try JournalWriter(
      path: path, header: header, options: options, file: file, layout: layout)
  }
}
