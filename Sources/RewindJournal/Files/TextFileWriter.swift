/// A new text file written through a buffer and moved into place on ``commit()``, like
/// every file of ``AtomicFileWriter``: the writer of long outputs such as an export's
/// JSON Lines.
///
/// Text is kept in a buffer of about 64 KiB and written when it fills, so that writing a
/// line costs a copy, not a system call. Nothing appears at the destination before
/// ``commit()``; a failure, a ``discard()`` or a writer dropped without a commit leaves
/// the previous file untouched and nothing behind.
///
/// ```swift
/// let output = try TextFileWriter(FileDestination("session.jsonl", inputs: [journal]))
/// for line in lines { try output.write(line + "\n") }
/// try output.commit()
/// ```
///
/// Not thread-safe.
package final class TextFileWriter {
  private let file: AtomicFileWriter
  private var buffer: [UInt8] = []
  private static let bufferSize = 64 << 10

  /// Checks `destination` and creates the temporary file; see
  /// ``AtomicFileWriter/init(_:)`` for what it throws.
  package convenience init(_ destination: FileDestination) throws(JournalError) {
    try self.init(destination, system: .live)
  }

  /// Like ``init(_:)``, through `system`.
  package init(_ destination: FileDestination, system: FileSystemCalls) throws(JournalError) {
    file = try AtomicFileWriter(destination, system: system)
    buffer.reserveCapacity(TextFileWriter.bufferSize)
  }

  /// Where the file goes.
  package var destination: FileDestination { file.destination }

  /// Appends `text`, as UTF-8.
  ///
  /// - Throws: ``JournalError/Code/io`` naming the destination when a full buffer cannot
  ///   be written.
  /// - Complexity: O(text), plus a write every 64 KiB.
  package func write(_ text: String) throws(JournalError) {
    var text = text
    text.withUTF8 { buffer.append(contentsOf: $0) }
    if buffer.count >= TextFileWriter.bufferSize { try drain() }
  }

  /// Appends bytes (UTF-8 text).
  ///
  /// - Throws: ``JournalError/Code/io`` naming the destination when a full buffer cannot
  ///   be written.
  /// - Complexity: O(bytes), plus a write every 64 KiB.
  package func write(bytes: UnsafeRawBufferPointer) throws(JournalError) {
    // As bytes of `UInt8`, appended with one copy (a raw buffer is read byte by byte).
    buffer.append(contentsOf: bytes.assumingMemoryBound(to: UInt8.self))
    if buffer.count >= TextFileWriter.bufferSize { try drain() }
  }

  /// Writes what is buffered, makes the file durable and moves it into place; see
  /// ``AtomicFileWriter/commit()``.
  package func commit() throws(JournalError) {
    do {
      try drain()
    } catch {
      file.discard()
      throw error
    }
    try file.commit()
  }

  /// Drops the text written; the destination is not touched.
  package func discard() {
    buffer.removeAll()
    file.discard()
  }

  private func drain() throws(JournalError) {
    guard !buffer.isEmpty else { return }
    try file.write(buffer)
    buffer.removeAll(keepingCapacity: true)
  }
}
