extension JSONLines {
  /// Reads a session's JSON Lines, line by line, checking each: the reader of `rewind
  /// import`.
  ///
  /// The header, if any, is read when the reader is made: it names the domain the events
  /// are decoded with (``domain(_:default:)``). Then ``next(in:)`` returns the events in
  /// order, each checked against the rules of ``JSONLines`` before it is returned; the
  /// first line that breaks one throws a ``TextFileError`` naming the file, the line and
  /// what is wrong (`events.jsonl:7: "time_us" is -5; …`), and the reader is done.
  ///
  /// ```swift
  /// let reader = try JSONLines.Reader(path: "session.jsonl")
  /// let domain = try reader.domain(NavigationDomain.self, default: .sample)
  /// while let timed = try reader.next(in: domain) { … }
  /// ```
  ///
  /// Memory is bounded by the longest line (``TextFileReader``). Not thread-safe.
  @usableFromInline package final class Reader {
    // One thread reads, one call at a time: the state's accesses never overlap, and the
    // hot properties are `@exclusivity(unchecked)` (as ``TextFileReader``'s are).
    /// The session's header: the first line, if it is `{"header": {...}}`.
    package let header: Header?
    /// The header's line number (after any blank lines before it); nil without a header.
    package let headerLine: Int?
    /// The number of events returned so far: the sequence number of the last.
    @exclusivity(unchecked) package private(set) var eventCount: UInt64 = 0
    /// The time of the last event returned, microseconds since the session's start.
    @exclusivity(unchecked) package private(set) var lastTime: UInt64 = 0
    private let file: TextFileReader
    /// The first line that is not blank, when it is not a header.
    @exclusivity(unchecked) private var pending: (text: String, number: Int)?
    /// For each event kind read so far, the keys its events have (their JSON's): a line
    /// whose keys are all known is not encoded again to check them.
    private var knownKeys: [String: Set<String>] = [:]
    /// The fields of the line read in place, kept from line to line.
    @exclusivity(unchecked) private var fieldStorage = JSONFieldBuffer()
    /// `{"seq":N,"time_us":` of the next event's line as `rewind export` writes it.
    @exclusivity(unchecked) private var expectedStart = JSONLines.LineStart()

    /// Opens the file at `path` and reads its header.
    /// - Throws: ``TextFileError``: the file cannot be read, or the header line is not
    ///   valid (an unknown key, a member of the wrong type or out of range).
    package convenience init(path: String) throws(TextFileError) {
      try self.init(TextFileReader(path: path))
    }

    /// Reads the JSON Lines of `file` from its current line, starting with the header.
    /// - Throws: ``TextFileError``, as ``init(path:)``.
    package init(_ file: TextFileReader) throws(TextFileError) {
      self.file = file
      var header: Header?
      var headerLine: Int?
      while let line = try file.nextLine() {
        if JSONLines.isBlank(line) { continue }
        guard let value = try? JSONValue(parsing: line), value[JSONLines.headerKey] != nil,
          case .object(let members) = value
        else {
          pending = (line, file.lineNumber)
          break
        }
        do throws(LineProblem) {
          if let other = members.first(where: { $0.0 != JSONLines.headerKey }) {
            throw LineProblem(
              "unknown key \(Format.quoted(other.0, quote: "\"")) beside \"header\"; the header line has that key alone"
            )
          }
          header = try Header(parsing: value[JSONLines.headerKey]!)
        } catch {
          throw TextFileError(.invalidLine, error.message, path: file.path, line: file.lineNumber)
        }
        headerLine = file.lineNumber
        break
      }
      self.header = header
      self.headerLine = headerLine
    }

    /// The file's path, as given.
    package var path: String { file.path }

    /// The session's domain: built from the header's settings, or `fallback`'s when there
    /// are none (read as the schema version the header names). Settings of an older schema
    /// version are upcast (the domain then reads
    /// that version's events and hands out current ones), so what is recorded from them
    /// is current.
    ///
    /// - Throws: ``TextFileError`` at the header's line when the header names another
    ///   domain, a schema version `D` cannot read (a newer one named with both versions),
    ///   or settings `D` refuses, or when there are no settings and `fallback` throws (a
    ///   domain with no sample).
    package func domain<D: Domain>(
      _ type: D.Type, default fallback: @autoclosure () throws(DomainError) -> D
    ) throws(TextFileError) -> D {
      /// `fallback`, or the error that the file gives no settings and it has none.
      func fallbackDomain() throws(TextFileError) -> D {
        do throws(DomainError) {
          return try fallback()
        } catch {
          throw TextFileError(
            .invalidLine,
            "\(header == nil ? "there is no header line" : "the header gives no settings"), and \(error.message), or the file a header with its settings ({\"header\":{…,\"settings\":{…}}})",
            path: path, line: headerLine ?? 1)
        }
      }
      guard let header else { return try fallbackDomain() }
      if let name = header.domain, name != D.identifier {
        throw headerError("the session's domain is '\(name)', not '\(D.identifier)'")
      }
      let version = header.schemaVersion ?? D.schemaVersion
      do throws(RewindError) {
        try D.checkReadable(schemaVersion: version)
      } catch {
        throw headerError(error.message)
      }
      // No settings: the fallback's, read as the schema the header names (an older one
      // upcast, as its settings would be; they were read as the current schema's, and an
      // older event's meaning was lost).
      let given = header.settings
      if given == nil, version == D.schemaVersion { return try fallbackDomain() }
      let settings: JSONValue
      if let given { settings = given } else { settings = try fallbackDomain().settingsJSON }
      do throws(DomainError) {
        return try D(settingsJSON: settings, schemaVersion: version, device: header.device ?? "")
      } catch {
        throw headerError(
          given == nil
            ? "the header gives no settings, and the sample's cannot be read as schema \(version): \(error)"
            : "the header's settings are invalid: \(error)")
      }
    }

    /// `fallback` with what the header says about the session (its id, start and
    /// device) put in.
    package func session(default fallback: SessionInfo) -> SessionInfo {
      var session = fallback
      if let id = header?.session { session.id = id }
      if let start = header?.startTime { session.startTime = start }
      if let device = header?.device { session.device = device }
      if let parent = header?.parent { session.parent = parent }
      return session
    }

    /// The next event, decoded by `domain`; nil after the last line.
    ///
    /// - Throws: ``TextFileError`` naming the line: not a JSON object, a `seq` that does
    ///   not follow the last, a `time_us` missing, negative, too large or going back, a
    ///   header line after the first, an event `domain` cannot decode, a key the event
    ///   does not have (one whose value is `null` counts as absent).
    /// - Complexity: O(length of the line) plus the domain's decoding.
    @usableFromInline package func next<D: Domain>(in domain: D) throws(TextFileError)
      -> TimedEvent<D.Event>?
    {
      // Most lines are read in place (``JSONFields``) and decoded by the domain
      // (``Domain/event(fromFields:)``); any other line, good or bad, is read below.
      var decoded: D.Event?
      if pending == nil {
        switch try nextInPlace({ fields in
          decoded = domain.event(fromFields: fields)
          return decoded != nil
        }) {
        case .event(let time): return TimedEvent(time: time, event: decoded!)
        case .end: return nil
        case .other: break
        }
      }
      guard let line = try nextLine() else { return nil }
      do throws(LineProblem) {
        let event: D.Event
        do throws(DomainError) {
          event = try domain.event(fromJSON: line.event)
        } catch {
          var keys: [String] = []
          if case .object(let members) = line.event { keys = members.map(\.0) }
          throw LineProblem(error.message(givenKeys: keys))
        }
        // Every key must be one the event has, whatever the domain's decoder ignores. The
        // keys of the kind's events read before answer most lines; only a line with a key
        // they lack is checked against its own event's JSON.
        guard case .object(let members) = line.event else {
          return TimedEvent(time: line.time, event: event)
        }
        let kind = line.event[JSONLines.eventKey]?.stringValue ?? ""
        guard JSONLines.firstUnknownKey(of: members, among: knownKeys[kind] ?? []) != nil,
          case .object(let known) = domain.json(event)
        else {
          return TimedEvent(time: line.time, event: event)
        }
        let keys = Set(known.map(\.0))
        if let index = JSONLines.firstUnknownKey(of: members, among: keys) {
          let names = [JSONLines.sequenceKey, JSONLines.timeKey] + known.map(\.0)
          throw LineProblem(
            "\(JSONLines.unknownKey(members[index].0, inEvent: domain.eventKind(event), keys: names, given: members.map(\.0))); its keys are \(names.joined(separator: ", "))"
          )
        }
        knownKeys[kind, default: []].formUnion(keys)
        return TimedEvent(time: line.time, event: event)
      } catch {
        throw TextFileError(.invalidLine, error.message, path: path, line: line.number)
      }
    }

    /// What ``nextInPlace(_:)`` made of the next line.
    @usableFromInline enum InPlaceLine {
      /// An event's line, checked, whose event `decode` took: its time.
      case event(time: UInt64)
      /// No line is left.
      case end
      /// A line to read as text, kept for ``next(in:)``: not a flat object of ASCII, a
      /// header, a `seq` or `time_us` that is not the one expected, an event the domain
      /// leaves to its JSON.
      case other
    }

    /// Reads the next line that is not blank in place, as bytes, when it has the usual
    /// shape, and hands the fields of its event (less `seq` and `time_us`) to `decode`,
    /// which says whether it took the event; `.other` keeps any line it did not take for
    /// ``next(in:)``, whose event or error only the full reading gives.
    ///
    /// - Throws: ``TextFileError`` when the file cannot be read, or the line kept is not
    ///   text.
    @usableFromInline func nextInPlace(_ decode: (JSONFields) -> Bool) throws(TextFileError)
      -> InPlaceLine
    {
      // The first line, kept when the header was looked for, is read in full.
      if pending != nil { return .other }
      while true {
        guard let raw = try file.nextRawLine() else { return .end }
        let first = file.lineNumber == 1
        let result = raw.withUnsafeBufferPointer { raw -> InPlaceLine? in
          var line = raw
          if first, line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF {
            line = UnsafeBufferPointer(rebasing: line[3...])
          }
          if let last = line.last, last == 0x0D {
            line = UnsafeBufferPointer(rebasing: line[..<(line.count - 1)])
          }
          // The flat parser takes only ASCII without NUL (outside a string a byte of more
          // is a syntax error, inside one it is refused), so any other line is `.other`;
          // a blank line, skipped, is one too.
          let result = inPlace(line, storage: &fieldStorage, decode)
          if case .other = result, line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return nil }
          return result
        }
        switch result {
        case nil: continue
        case .other?:
          pending = (try file.text(ofLine: raw), file.lineNumber)
          return .other
        case let result?: return result
        }
      }
    }

    /// One line of ASCII, not blank, read in place.
    private func inPlace(
      _ line: UnsafeBufferPointer<UInt8>, storage: inout JSONFieldBuffer,
      _ decode: (JSONFields) -> Bool
    ) -> InPlaceLine {
      // A line as `rewind export` writes it: its start compared with the next event's, or
      // `seq` and `time_us` read at once.
      let next = eventCount &+ 1
      var exportedTime: UInt64?
      if let prefix = expectedStart.prefixCount(ofLine: line, sequence: next) {
        exportedTime = JSONFields.parseExportedLine(line, afterPrefix: prefix, into: &storage)
      }
      if exportedTime == nil,
        let (sequence, time) = JSONFields.parseExportedLine(line, into: &storage),
        sequence == next
      {
        exportedTime = time
      }
      if let time = exportedTime, time >= lastTime {
        let fields = storage.fields
        for field in fields
        where field.hasKey("seq") || field.hasKey("time_us") || field.hasKey("header") {
          return .other
        }
        guard decode(JSONFields(UnsafeBufferPointer(fields))) else { return .other }
        eventCount = next
        lastTime = time
        return .event(time: time)
      }
      guard JSONFields.parse(line, into: &storage) else { return .other }
      // `seq` and `time_us` first, as `rewind export` writes them; elsewhere, taken out.
      var sequence: JSONField?
      var time: JSONField?
      var rest = 0
      let fields = storage.fields
      for index in fields.indices {
        let field = fields[index]
        if field.hasKey("seq") {
          sequence = field
        } else if field.hasKey("time_us") {
          time = field
        } else if field.hasKey("header") {
          return .other
        } else {
          fields[rest] = field
          rest += 1
        }
      }
      guard let sequence, sequence.kind == .integer, sequence.integer == Int64(eventCount + 1),
        let time, time.kind == .integer, time.integer >= 0, UInt64(time.integer) >= lastTime
      else { return .other }
      let taken = decode(JSONFields(UnsafeBufferPointer(rebasing: fields[..<rest])))
      guard taken else { return .other }
      eventCount += 1
      lastTime = UInt64(time.integer)
      return .event(time: lastTime)
    }

    /// The file's size in bytes, when it has one (not a pipe).
    package var size: Int? { file.size }
    /// The bytes of the file read so far (of ``size``).
    @usableFromInline package var bytesRead: Int { file.bytesConsumed }

    /// Reads every event left and records it with `recorder`, a batch at a time: the loop
    /// of `rewind import`, run specialised for the domain (``Domain/scans``).
    ///
    /// - Parameter progress: called after each batch with the bytes of the file read so
    ///   far (of ``size``).
    /// - Throws: ``TextFileError`` for a bad line, as ``next(in:)``; what the recorder
    ///   throws. Events of the batch read before a bad line may not have been recorded.
    package func record<D: Domain>(
      into recorder: JournalRecorder<D>, domain: D, progress: (Int) -> Void = { _ in }
    ) throws {
      try D.scans.importLines(self, domain, recorder, progress)
    }

    /// The loop of ``record(into:domain:)``, inlinable so that ``SessionScans`` compiles
    /// it for the domain.
    @inlinable package func recordRun<D: Domain>(
      into recorder: JournalRecorder<D>, domain: D, progress: (Int) -> Void
    ) throws {
      let batchSize = 4096
      var batch: [TimedEvent<D.Event>] = []
      batch.reserveCapacity(batchSize)
      var decoded: D.Event?
      while true {
        switch try nextInPlace({ fields in
          decoded = domain.event(fromFields: fields)
          return decoded != nil
        }) {
        case .event(let time):
          batch.append(TimedEvent(time: time, event: decoded!))
        case .other:
          if let timed = try next(in: domain) { batch.append(timed) }
        case .end:
          try recorder.record(contentsOf: batch)
          return
        }
        if batch.count >= batchSize {
          try recorder.record(contentsOf: batch)
          batch.removeAll(keepingCapacity: true)
          progress(bytesRead)
        }
      }
    }

    /// An event's line, checked but not decoded: its number, `seq` and `time_us`, and the
    /// rest of its members (the event's JSON).
    struct EventLine {
      var number: Int
      var time: UInt64
      var event: JSONValue
    }

    /// The next line that is not blank, checked as an event's line.
    func nextLine() throws(TextFileError) -> EventLine? {
      while true {
        let text: String
        let number: Int
        if let pending {
          (text, number) = pending
          self.pending = nil
        } else {
          guard let line = try file.nextLine() else { return nil }
          (text, number) = (line, file.lineNumber)
        }
        if JSONLines.isBlank(text) { continue }
        do throws(LineProblem) {
          return try eventLine(text, number: number)
        } catch {
          throw TextFileError(.invalidLine, error.message, path: path, line: number)
        }
      }
    }

    private func eventLine(_ text: String, number: Int) throws(LineProblem) -> EventLine {
      let value: JSONValue
      do throws(JSONParseError) {
        value = try JSONValue(parsing: text)
      } catch {
        throw LineProblem("not JSON: column \(error.column): \(error.message)")
      }
      guard case .object(let members) = value else {
        throw LineProblem("expected a JSON object")
      }
      if value[JSONLines.headerKey] != nil {
        throw LineProblem(
          eventCount > 0
            ? "a header line after events; the header ({\"header\": …}) may only be the first line"
            : "a second header line; a session has one header, on its first line")
      }
      let expected = eventCount + 1
      guard let sequenceValue = value[JSONLines.sequenceKey] else {
        throw LineProblem(
          "missing \"seq\" (an integer)"
            + Format.slip(of: JSONLines.sequenceKey, given: members.map(\.0))
            + Self.members(members))
      }
      if sequenceValue.isRoundedWhole {
        throw LineProblem(
          "\"seq\" is \(sequenceValue.compactText), \(JSONValue.roundedWholeProblem)")
      }
      guard let sequence = sequenceValue.intValue else {
        // A whole number beyond 64 bits parses as a Double: an integer, only not the next.
        if case .double(let number) = sequenceValue, number.rounded() == number {
          let size = number > 0 ? ", too large for a sequence number (64 bits)" : ""
          throw LineProblem(
            "\"seq\" is about \(sequenceValue.compactText)\(size), expected \(expected) (seq counts from 1 without gaps)"
          )
        }
        throw LineProblem(
          "\"seq\" must be an integer, found \(JSONLines.show(sequenceValue)) (seq counts from 1 without gaps)"
        )
      }
      guard sequence == Int64(expected) else {
        // A first event past 1: most likely the events of `export --from P` (after P).
        // Later, a gap: most likely the export of a salvaged journal, which leaves out the
        // events lost to damage.
        let range =
          expected == 1 && sequence > 1
          ? ": a session starts at event 1; this looks like the events after \(sequence - 1) that `rewind export --from \(sequence - 1)` writes, which cannot be imported on their own (export the whole session)"
          : sequence > Int64(expected)
            ? " (seq counts from 1 without gaps): \(Format.events(expected...UInt64(sequence - 1))) \(sequence - 1 > Int64(expected) ? "are" : "is") missing, as the export of a salvaged journal leaves out the events lost to damage; no session goes on across them (`rewind export --to \(expected - 1)` writes those before them)"
            : " (seq counts from 1 without gaps)"
        throw LineProblem("\"seq\" is \(sequence), expected \(expected)\(range)")
      }
      let time: UInt64
      do throws(LineProblem) {
        time = try Self.time(value[JSONLines.timeKey])
      } catch {
        guard value[JSONLines.timeKey] == nil else { throw error }
        throw LineProblem(
          error.message + Format.slip(of: JSONLines.timeKey, given: members.map(\.0))
            + Self.members(members))
      }
      guard time >= lastTime else {
        throw LineProblem("\"time_us\" \(time) is before the previous event's \(lastTime)")
      }
      eventCount = expected
      lastTime = time
      let event = members.filter { $0.0 != JSONLines.sequenceKey && $0.0 != JSONLines.timeKey }
      return EventLine(number: number, time: time, event: .object(event))
    }

    /// The end of the error of a line that lacks `seq` or `time_us`: the members it has,
    /// where a name written otherwise (`time`, `sequence`) shows.
    private static func members(_ members: [(String, JSONValue)]) -> String {
      guard !members.isEmpty else { return "; the line is an empty object" }
      let names = members.prefix(8).map { Format.quoted($0.0, quote: "\"") }
      let more = members.count > 8 ? ", …" : ""
      return "; the line's members are \(names.joined(separator: ", "))\(more)"
    }

    /// A line's `time_us`: a whole number of microseconds from 0 to 2^63 − 1.
    private static func time(_ value: JSONValue?) throws(LineProblem) -> UInt64 {
      guard let value else {
        throw LineProblem(
          "missing \"time_us\" (microseconds since the session's start, a whole number ≥ 0)")
      }
      if !value.isRoundedWhole, let number = value.intValue {
        guard number >= 0 else {
          throw LineProblem(
            "\"time_us\" is \(number); a time is microseconds since the session's start, never negative"
          )
        }
        return UInt64(number)
      }
      if value.isRoundedWhole {
        throw LineProblem("\"time_us\" is \(value.compactText), \(JSONValue.roundedWholeProblem)")
      }
      // A whole number beyond 64 bits parses as a Double.
      if case .double(let number) = value, number.rounded() == number {
        throw LineProblem(
          number < 0
            ? "\"time_us\" is \(value.compactText); a time is microseconds since the session's start, never negative"
            : "\"time_us\" is \(value.compactText), beyond the largest time a journal holds (2^63 − 1 µs)"
        )
      }
      throw LineProblem(
        "\"time_us\" must be a whole number of microseconds since the session's start, found \(JSONLines.show(value))"
      )
    }

    private func headerError(_ message: String) -> TextFileError {
      TextFileError(.invalidLine, message, path: path, line: headerLine)
    }
  }

  /// Whether a line holds nothing but spaces and tabs.
  static func isBlank(_ line: String) -> Bool {
    line.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 }
  }
}
