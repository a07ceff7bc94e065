package import RewindJournal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a text file line by line: the one way Rewind reads the text a user gives it
/// (scenario scripts, JSON Lines, expected states, catalogs).
///
/// The file is read in chunks of 64 KiB, so a file of any size streams in memory bounded
/// by its longest line. Lines end in `\n`; a `\r` before it is dropped (files written on
/// Windows read the same), and so is a UTF-8 byte-order mark at the start of the file.
/// The last line needs no `\n`. Every line must be UTF-8 without NUL bytes: a file that
/// breaks that is refused with the line and column, never misread. Working on bytes
/// matters here: in a Swift `String`, `"\r\n"` is one `Character`, so splitting text on
/// `"\n"` would not split such lines at all.
///
/// ```swift
/// let file = try TextFileReader(path: "session.jsonl")
/// while let line = try file.nextLine() { … file.lineNumber … }
/// ```
///
/// Reads go through the journal's `FileSystemCalls` seam (`open`, `fstat`, `read`,
/// `close`), so tests can make them fail. Standard input is read the same way
/// (``init(standardInputWith:)``). Not thread-safe.
package final class TextFileReader {
  /// The file's path, as given: errors name it.
  package let path: String
  // The reader is used by one thread, one call at a time, so accesses to its state never
  // overlap: its hot properties are `@exclusivity(unchecked)`, which spares the runtime's
  // dynamic check of every access (issue 17: `rewind import` spent about 380
  // instructions an event in them).

  /// The number of the line ``nextLine()`` returned last (1-based); 0 before the first.
  @exclusivity(unchecked) package private(set) var lineNumber = 0

  /// The longest line accepted, in bytes: 64 MiB, beyond the largest JSON a journal
  /// header holds. A longer line is refused before it is read whole.
  package static let maximumLineLength = 64 << 20
  /// The longest line this reader accepts: ``maximumLineLength`` unless a test lowers it.
  @exclusivity(unchecked) package var lineLimit = TextFileReader.maximumLineLength
  private static let chunkSize = 64 << 10

  private let system: FileSystemCalls
  /// The open file; -1 for text in memory, and once the file's end was read.
  private var descriptor: Int32
  /// Bytes read and not yet returned start at `start`.
  @exclusivity(unchecked) private var buffer: [UInt8] = []
  @exclusivity(unchecked) private var start = 0
  @exclusivity(unchecked) private var atEnd: Bool
  /// Bytes of the file dropped from the front of `buffer` so far.
  @exclusivity(unchecked) private var dropped = 0
  /// The file's size when it was opened, in bytes (nil when it has none: a pipe).
  package let size: Int?
  /// The bytes of the file read and returned as lines so far: how far a reading is.
  package var bytesConsumed: Int { dropped + start }

  /// Opens the file at `path`.
  ///
  /// - Throws: ``TextFileError`` ``TextFileError/Code/notFound`` (no such file) or
  ///   ``TextFileError/Code/unreadable`` (a directory, no permission), naming `path`
  ///   and the system's reason.
  package convenience init(path: String) throws(TextFileError) {
    try self.init(path: path, system: .live)
  }

  /// Like ``init(path:)``, through `system`.
  ///
  /// A named pipe (FIFO) is read as what a program writes to it, to its end; opening it
  /// would wait for a writer, forever if none comes. So it is opened without waiting, and
  /// when nothing has come after a second, `waiting` is called (a command says what it is
  /// waiting for), then the reader waits on.
  /// - Parameter waiting: Called at most once, when a FIFO has had nothing to read for a
  ///   second.
  package init(
    path: String, system: FileSystemCalls, waiting: () -> Void = {}
  ) throws(TextFileError) {
    self.path = path
    self.system = system
    guard !path.isEmpty else { throw TextFileError(.notFound, emptyPathMessage, path: path) }
    var before = stat()
    let isFIFO = system.stat(path, &before) == 0 && before.st_mode & S_IFMT == S_IFIFO
    var descriptor: Int32
    repeat {
      descriptor = system.open(path, O_RDONLY | O_CLOEXEC | (isFIFO ? O_NONBLOCK : 0), 0)
    } while descriptor < 0 && errno == EINTR
    guard descriptor >= 0 else {
      let number = errno
      if number == ENOENT { throw TextFileError(.notFound, "no such file", path: path) }
      throw TextFileError(
        .unreadable, "cannot open the file (\(Self.describe(errno: number)))", path: path)
    }
    size = try Self.sizeLeft(descriptor, path: path, system: system)
    self.descriptor = descriptor
    atEnd = false
    if isFIFO { Self.awaitWriter(descriptor, waiting: waiting) }
  }

  /// The bytes left to read at `descriptor`, open for reading: a regular file's size less
  /// the offset it is at; nil for a pipe, a terminal or a file whose status is unknown.
  /// - Throws: ``TextFileError/Code/unreadable`` for a directory, `descriptor` closed.
  private static func sizeLeft(_ descriptor: Int32, path: String, system: FileSystemCalls)
    throws(TextFileError) -> Int?
  {
    var status = stat()
    guard system.fstat(descriptor, &status) == 0 else { return nil }
    switch status.st_mode & S_IFMT {
    case S_IFDIR:
      _ = system.close(descriptor)
      throw TextFileError(.unreadable, "is a directory, not a file", path: path)
    case S_IFREG:
      let offset = lseek(descriptor, 0, SEEK_CUR)
      return max(Int(status.st_size) - max(Int(offset), 0), 0)
    default:
      return nil
    }
  }

  /// Waits until the FIFO open without waiting at `descriptor` has bytes to read or its
  /// writer closed it, calling `waiting` if nothing came within a second; then makes its
  /// reads wait for bytes again.
  private static func awaitWriter(_ descriptor: Int32, waiting: () -> Void) {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    var told = false
    while true {
      let ready = poll(&entry, 1, told ? -1 : 1_000)
      if ready > 0 || (ready < 0 && errno != EINTR) { break }
      if ready == 0 && !told {
        told = true
        waiting()
      }
    }
    let flags = fcntl(descriptor, F_GETFL)
    if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
  }

  /// What errors call standard input, which has no path.
  package static let standardInputName = "standard input"

  /// Reads standard input (a command's `-`), as it comes: a pipe, a terminal, a file.
  ///
  /// Reading needs no seek (the file is read once, front to back, in chunks), so a pipe
  /// reads as a file does. The reader reads a duplicate of descriptor 0 (`fcntl` with
  /// `F_DUPFD_CLOEXEC`), which it closes at the end, leaving the process's standard input
  /// open; errors name it ``standardInputName``. A regular file's size is what is left of
  /// it after the offset standard input is at.
  /// - Throws: ``TextFileError`` ``TextFileError/Code/unreadable`` when standard input is
  ///   closed or a directory.
  package init(standardInputWith system: FileSystemCalls) throws(TextFileError) {
    let name = Self.standardInputName
    path = name
    self.system = system
    let descriptor = fcntl(0, F_DUPFD_CLOEXEC, 0)
    guard descriptor >= 0 else {
      throw TextFileError(
        .unreadable, "cannot read it (\(Self.describe(errno: errno)))", path: name)
    }
    size = try Self.sizeLeft(descriptor, path: name, system: system)
    self.descriptor = descriptor
    atEnd = false
  }

  /// Reads text already in memory, with the same rules as a file.
  /// - Parameter name: what errors call it (a file name, `standard input`).
  package init(bytes: [UInt8], name: String) {
    path = name
    system = .live
    descriptor = -1
    buffer = bytes
    size = bytes.count
    atEnd = true
  }

  deinit { closeFile() }

  /// The next line, without its line end; nil after the last.
  ///
  /// - Throws: ``TextFileError`` naming the line: ``TextFileError/Code/notText`` for a
  ///   NUL byte, invalid UTF-8 (with the column) or a line longer than
  ///   ``maximumLineLength``; ``TextFileError/Code/unreadable`` if reading fails.
  /// - Complexity: O(length of the line), plus a `read` per 64 KiB.
  package func nextLine() throws(TextFileError) -> String? {
    guard let bytes = try nextLineBytes() else { return nil }
    lineNumber += 1
    return try decode(bytes)
  }

  /// The next line's bytes as the file holds them (with a `\r` before its `\n`, and on
  /// the first line any byte-order mark), unchecked; nil after the last. Counts the
  /// line, as ``nextLine()`` does; ``text(ofLine:)`` checks the bytes and gives them as
  /// text. For readers that look at a line's bytes before they make text of it.
  ///
  /// - Throws: ``TextFileError``: a line longer than ``maximumLineLength``, or reading
  ///   fails.
  package func nextRawLine() throws(TextFileError) -> ArraySlice<UInt8>? {
    guard let bytes = try nextLineBytes() else { return nil }
    lineNumber += 1
    return bytes
  }

  /// The text of the line ``nextRawLine()`` returned last, checked as ``nextLine()``
  /// checks it.
  /// - Throws: ``TextFileError``, as ``nextLine()``.
  package func text(ofLine bytes: ArraySlice<UInt8>) throws(TextFileError) -> String {
    try decode(bytes)
  }

  /// Every line left, in order.
  package func remainingLines() throws(TextFileError) -> [String] {
    var lines: [String] = []
    while let line = try nextLine() { lines.append(line) }
    return lines
  }

  /// The lines left joined by `\n` (without a `\r` before them or a byte-order mark),
  /// for parsers that take a whole text and report lines of their own: their line
  /// numbers are the file's.
  ///
  /// - Throws: ``TextFileError``, as ``nextLine()``.
  /// - Complexity: O(size of the text).
  package func remainingText() throws(TextFileError) -> String {
    try remainingLines().joined(separator: "\n")
  }

  /// The whole text of the regular file at `path`, of at most `limit` bytes:
  /// ``remainingText()`` of a new reader. For a file that a setting names (a scenario's
  /// catalog), which has a size bound: a device (`/dev/zero`), a FIFO or a file larger
  /// than that would otherwise be read at length, or waited on, before being refused.
  ///
  /// - Parameter what: What the file is, for the error (`a catalog file`).
  /// - Throws: ``TextFileError``, as ``init(path:)`` and ``nextLine()``;
  ///   ``TextFileError/Code/unreadable`` for no regular file, ``TextFileError/Code/notText``
  ///   for one longer than `limit`.
  /// - Complexity: O(size of the file), at most `limit`.
  package static func text(ofFile path: String, atMost limit: Int, describedAs what: String)
    throws(TextFileError) -> String
  {
    var status = stat()
    if !path.isEmpty, FileSystemCalls.live.stat(path, &status) == 0 {
      let type = status.st_mode & S_IFMT
      if type != S_IFREG && type != S_IFDIR {
        throw TextFileError(
          .unreadable, "is not a regular file (a device, pipe or socket), which \(what) must be",
          path: path)
      }
    }
    let reader = try TextFileReader(path: path)
    func tooLong(_ size: Int) -> TextFileError {
      TextFileError(
        .notText,
        "is \(Format.count(size)) bytes long; \(what) holds at most \(describe(bytes: limit))",
        path: path)
    }
    if let size = reader.size, size > limit { throw tooLong(size) }
    reader.lineLimit = limit
    var lines: [String] = []
    while let line = try reader.nextLine() {
      // The file may have grown since it was opened.
      guard reader.bytesConsumed <= limit else { throw tooLong(reader.bytesConsumed) }
      lines.append(line)
    }
    return lines.joined(separator: "\n")
  }

  /// The bytes of the next line (with its `\r`, without its `\n`), reading more as
  /// needed; nil at the end.
  private func nextLineBytes() throws(TextFileError) -> ArraySlice<UInt8>? {
    var searchFrom = start
    while true {
      if let newline = Self.newline(in: buffer, from: searchFrom) {
        try checkLength(newline - start)
        defer { start = newline + 1 }
        return buffer[start..<newline]
      }
      // A line begun is refused as soon as it is too long, before more is read.
      try checkLength(buffer.count - start)
      if atEnd {
        guard start < buffer.count else { return nil }
        defer { start = buffer.count }
        return buffer[start...]
      }
      // Keep only the line begun, then read the next chunk after it.
      if start > 0 {
        buffer.removeSubrange(0..<start)
        dropped += start
        start = 0
      }
      searchFrom = buffer.count
      try readChunk()
    }
  }

  /// The index of the first `\n` at or after `start`.
  private static func newline(in buffer: [UInt8], from start: Int) -> Int? {
    buffer.withUnsafeBufferPointer { bytes in
      guard start < bytes.count, let base = bytes.baseAddress,
        let found = memchr(base + start, 0x0A, bytes.count - start)
      else { return nil }
      return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
  }

  private func checkLength(_ length: Int) throws(TextFileError) {
    guard length > lineLimit else { return }
    throw TextFileError(
      .notText,
      "the line is longer than \(Self.describe(bytes: lineLimit)); this is not a text file of lines",
      path: path, line: lineNumber + 1)
  }

  /// Appends up to 64 KiB from the file to the buffer; at the end, closes the file.
  private func readChunk() throws(TextFileError) {
    let old = buffer.count
    buffer.append(contentsOf: repeatElement(0, count: Self.chunkSize))
    var count: Int
    var number: Int32 = 0
    repeat {
      count = buffer.withUnsafeMutableBytes { bytes in
        system.read(descriptor, bytes.baseAddress! + old, Self.chunkSize)
      }
      number = errno
    } while count < 0 && number == EINTR
    buffer.removeLast(Self.chunkSize - max(count, 0))
    guard count >= 0 else {
      throw TextFileError(
        .unreadable, "cannot read the file (\(Self.describe(errno: number)))", path: path,
        line: lineNumber + 1)
    }
    if count == 0 {
      atEnd = true
      closeFile()
    }
  }

  private func closeFile() {
    guard descriptor >= 0 else { return }
    _ = system.close(descriptor)
    descriptor = -1
  }

  /// The text of a line's bytes, checked.
  private func decode(_ bytes: ArraySlice<UInt8>) throws(TextFileError) -> String {
    var line = bytes
    if lineNumber == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
    if line.last == 0x0D { line = line.dropLast() }
    // Columns count the characters before, as an editor shows them (a line's first
    // invalid byte follows valid UTF-8).
    func column(_ index: Int) -> Int {
      String(decoding: line[line.startIndex..<index], as: UTF8.self).count + 1
    }
    if let nul = line.firstIndex(of: 0) {
      throw TextFileError(
        .notText, "a NUL byte at column \(column(nul)); this is not a text file", path: path,
        line: lineNumber)
    }
    if let text = String(validating: line, as: UTF8.self) { return text }
    let offset = Self.firstInvalidUTF8(in: line)
    let byte = line[line.startIndex + offset]
    throw TextFileError(
      .notText,
      "invalid UTF-8 at column \(column(line.startIndex + offset)) (byte 0x\(String(byte, radix: 16, uppercase: true))); the file must be UTF-8 text",
      path: path, line: lineNumber)
  }

  /// The offset of the first byte that is not part of valid UTF-8.
  private static func firstInvalidUTF8(in bytes: ArraySlice<UInt8>) -> Int {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    while case .valid(let scalar) = parser.parseScalar(from: &iterator) {
      offset += scalar.count
    }
    return offset
  }

  /// `64 MiB`, `100 bytes`.
  private static func describe(bytes: Int) -> String {
    bytes >= 1 << 20 && bytes % (1 << 20) == 0
      ? "\(bytes >> 20) MiB" : "\(Format.count(bytes)) bytes"
  }

  /// `Permission denied (errno 13)`.
  static func describe(errno number: Int32) -> String {
    "\(String(cString: strerror(number))) (errno \(number))"
  }
}
