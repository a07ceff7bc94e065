extension JSONLines {
  /// Writes a session as JSON Lines: the writer of `rewind export`.
  ///
  /// Each line is appended, as UTF-8 with its `\n`, to one buffer the writer reuses, and
  /// handed to the closure given, which puts it where it goes (a `TextFileWriter`,
  /// standard output, a message): no text is built per line.
  ///
  /// ```swift
  /// let writer = JSONLines.Writer(domain: timeline.domain) { try file.write(bytes: $0) }
  /// try writer.write(JSONLines.Header(timeline.header, domain: timeline.domain))
  /// try writer.write(sequence: 1, time: 0, event: event)
  /// ```
  ///
  /// Not thread-safe.
  package final class Writer<D: Domain> {
    /// The domain that writes the events' JSON.
    package let domain: D
    private let emit: (UnsafeRawBufferPointer) throws -> Void
    private var line = JSONWriter()

    /// - Parameters:
    ///   - domain: the session's domain.
    ///   - emit: called with the bytes of each line, ending in `\n`, valid only during
    ///     the call; what it throws, the writer's methods throw.
    package init(domain: D, emit: @escaping (UnsafeRawBufferPointer) throws -> Void) {
      self.domain = domain
      self.emit = emit
    }

    /// Writes the header line, `{"header": {...}}`.
    package func write(_ header: Header) throws {
      line.removeAll()
      line.value(header.json)
      line.newline()
      try line.withBytes { try emit($0) }
    }

    /// Writes an event's line: `{"seq": …, "time_us": …, "event": …, …payload}`, the
    /// bytes ``JSONLines/eventMembers(sequence:time:event:in:)`` print as (the event's
    /// members written by ``Domain/writeMembers(of:to:)``).
    /// - Complexity: O(size of the event's JSON).
    package func write(sequence: UInt64, time: UInt64, event: D.Event) throws {
      line.removeAll()
      line.beginObject()
      line.key(JSONLines.sequenceKey)
      line.int(Int64(sequence))
      line.key(JSONLines.timeKey)
      line.int(Int64(time))
      domain.writeMembers(of: event, to: &line)
      line.endObject()
      line.newline()
      try line.withBytes { try emit($0) }
    }
  }
}
