extension JSONLines {
  /// Writes a session as JSON Lines: the writer of `rewind export`.
  ///
  /// Each line is built here and handed, with its `\n`, to the closure given, which puts
  /// it where it goes (standard output, a `TextFileWriter`, a message).
  ///
  /// ```swift
  /// let writer = JSONLines.Writer(domain: timeline.domain) { try file.write($0) }
  /// try writer.write(JSONLines.Header(timeline.header, domain: timeline.domain))
  /// try writer.write(sequence: 1, time: 0, event: event)
  /// ```
  package struct Writer<D: Domain> {
    /// The domain that writes the events' JSON.
    package let domain: D
    private let emit: (String) throws -> Void

    /// - Parameters:
    ///   - domain: the session's domain.
    ///   - emit: called with each line, ending in `\n`; what it throws, the writer's
    ///     methods throw.
    package init(domain: D, emit: @escaping (String) throws -> Void) {
      self.domain = domain
      self.emit = emit
    }

    /// Writes the header line, `{"header": {...}}`.
    package func write(_ header: Header) throws {
      try emit(header.json.compactText + "\n")
    }

    /// Writes an event's line: `{"seq": …, "time_us": …, "event": …, …payload}`.
    /// - Complexity: O(size of the event's JSON).
    package func write(sequence: UInt64, time: UInt64, event: D.Event) throws {
      let members = JSONLines.eventMembers(
        sequence: sequence, time: time, event: event, in: domain)
      try emit(JSONValue.object(members).compactText + "\n")
    }
  }
}
