public import RewindCore
import RewindJournal

extension SessionPage {
  /// A page's data before compression: lines of JSON, then the events' rows (see
  /// <doc:PageFormat>).
  @usableFromInline enum Payload {
    /// The version of the layout below, which the page's script checks.
    @usableFromInline static let format = 3

    /// Replays the events `from + 1 ... to` and writes the page's data.
    ///
    /// One pass of the domain's specialised replay (`Timeline.visitEvents`). Each event's
    /// body (its JSON object less `seq`, `time_us`, `outcome` and `reason`), its change
    /// list and a rejected event's reason is kept once, in a `DistinctTexts`, and the
    /// event costs its time, its code and two or three numbers (a row of an `EventNumbers`,
    /// written as the page's varints as it is met; a rejected event's reason in a
    /// `RawNumbers`, written as text by a `NumberLine`).
    ///
    /// What was met before is not written again (with `memoize`, the default):
    /// - an event's body and kind are remembered by the event's bits when the domain's
    ///   events are plain bits (`_isPOD`: two events of the same bits are the same event,
    ///   and an event written otherwise is only met once more), in a `ShortKeys`, so that
    ///   an event seen before costs a hash of its few bytes. Not the journal's bytes of
    ///   the event: an event codec may write an event relative to the one before (the
    ///   navigation domain's scroll offsets), so equal bytes there can be different
    ///   events;
    /// - a change list is remembered by a `ValueKey` of its fields and values (their bits,
    ///   not their text: no digit is written), in a `ShortKeys`, so that its JSON text is
    ///   written and looked up only for a list not met before; the page rebuilds the state
    ///   from the lists' values at each keyframe, the last value of each field
    ///   (`RebuiltState.takesLastValues`).
    /// - a rejected event's reason is remembered by its rejection's bits when the domain's
    ///   rejections are plain bits (as events are above), so that a rejection met before
    ///   costs a hash of its bytes, not its description written, escaped and looked up.
    ///
    /// Without `memoize` (the tests' reference), every body and change list is written as
    /// text and looked up: the same bytes.
    ///
    /// With `jobs` over 1, a journal long enough is built in parts on that many threads
    /// (`buildPage`, `SessionPage+Parts.swift`): the same bytes, the same errors.
    ///
    /// Inlinable, so that a domain's `PageRenderingDomain.pagePrecomputation` compiles it for
    /// the domain's own types; there `inline` is true, and the replay
    /// (`Timeline.visitEventsInline`) and the work of each event are one loop. Called
    /// generically (`inline` false), the replay is the domain's specialised one
    /// (`Timeline.visitEvents`) and each event a call of the generic work.
    @inlinable static func build<D: Domain>(
      _ timeline: Timeline<D>, from: UInt64, to: UInt64, options: Options,
      rendererData: JSONValue, memoize: Bool = true, inline: Bool = false, jobs: Int = 1,
      progress: (UInt64) -> Void
    ) throws -> PageData {
      try buildPage(
        timeline, from: from, to: to, options: options, rendererData: rendererData, jobs: jobs,
        progress: progress
      ) { timeline, from, to, start, isLast, progress in
        try buildPart(
          timeline, from: from, to: to, start: start, isLast: isLast, memoize: memoize,
          inline: inline, progress: progress)
      }
    }

    /// The page's data from what the pass over the events made: the page's and the
    /// journal's headers, the reasons' line, the tables and the keyframes, then the rows.
    @usableFromInline static func lines<D: Domain>(
      _ timeline: Timeline<D>, from: UInt64, to: UInt64, fromTime: UInt64, nextTime: UInt64?,
      options: Options, rendererData: JSONValue, kinds: [String],
      counts: (applied: Int, unchanged: Int, rejected: Int),
      keyframeInterval: UInt64, keyframeCount: Int, keyframes: borrowing JSONWriter,
      numbers: consuming EventNumbers, reasonNumbers: borrowing RawNumbers,
      tables: (bodies: DistinctTexts, changeLists: DistinctTexts, reasons: DistinctTexts)
    ) -> PageData {
      let domain = timeline.domain
      let fields = domain.fields
      let (bodies, changeLists, reasons) = tables
      let meta: JSONValue = .object([
        (
          "page",
          .object([
            ("format", .int(Int64(format))),
            ("title", .string(options.title)),
            ("file", .string(options.fileName)),
            ("generator", .string(options.generator)),
            ("from", .int(Int64(from))),
            ("to", .int(Int64(to))),
            ("fromTime", .int(Int64(fromTime))),
            ("nextTime", nextTime.map { .int(Int64($0)) } ?? .null),
            ("startTime", .int(timeline.header.startTime)),
            // The schema the journal was recorded in (its header line gives the one its
            // events are read in, upcast).
            ("recordedSchema", .int(Int64(timeline.header.schemaVersion))),
            ("lastSequence", .int(Int64(timeline.lastSequence))),
            ("duration", .int(Int64(timeline.duration))),
            ("events", .int(Int64(to - from))),
            ("rows", .int(Int64(numbers.byteCount))),
            ("kinds", .array(kinds.map(JSONValue.string))),
            // How many of the kinds the domain lists (the rest were met in the events):
            // a condition's `event == KIND` is checked against those.
            ("listedKinds", .int(Int64(D.eventKinds.count))),
            (
              "counts",
              .object([
                ("applied", .int(Int64(counts.applied))),
                ("unchanged", .int(Int64(counts.unchanged))),
                ("rejected", .int(Int64(counts.rejected))),
              ])
            ),
            ("keyframeInterval", .int(Int64(keyframeInterval))),
            ("keyframes", .int(Int64(keyframeCount))),
            (
              "tables",
              .object([
                ("bodies", .int(Int64(bodies.count))),
                ("changes", .int(Int64(changeLists.count))),
                ("reasons", .int(Int64(reasons.count))),
              ])
            ),
            ("fields", .array(fields.map { fieldJSON($0, domain: domain) })),
            ("renderer", rendererData),
          ])
        )
      ])

      // The lines written once, in the room before the rows (`EventNumbers.data`): their
      // length first, the reasons' line written from its raw numbers to learn its own.
      // The header as `export` writes it, but for the parent session's path, which
      // could name a server with its password and which the page does not show.
      var header = JSONLines.Header(timeline.header, domain: domain)
      header.parent = nil
      var texts = [meta.compactText, header.json.compactText]
      let reasonLine = [UInt8](unsafeUninitializedCapacity: reasonNumbers.lineBound) {
        buffer, written in
        written = reasonNumbers.writeLine(to: buffer.baseAddress!) - buffer.baseAddress!
      }
      var head = keyframes.count + reasonLine.count
      for index in texts.indices { head += texts[index].utf8.count + 1 }
      for table in [bodies, changeLists, reasons] { head += table.byteCount + table.count }
      return numbers.data(head: head) { lines in
        var output = Output(lines)
        for index in texts.indices {
          texts[index].withUTF8 { output.put(UnsafeRawBufferPointer($0)) }
          output.newline()
        }
        reasonLine.withUnsafeBytes { output.put($0) }
        for table in [bodies, changeLists, reasons] {
          for index in 0..<table.count {
            table.withText(index) { output.put($0) }
            output.newline()
          }
        }
        keyframes.withBytes { output.put($0) }
        return output.written
      }
    }

    /// Bytes written into a buffer, each write checked against its end: the lines of a
    /// page's data, in the room `EventNumbers.data(head:writing:)` gives, whose length was
    /// counted from the same texts.
    private struct Output {
      let buffer: UnsafeMutableBufferPointer<UInt8>
      /// The bytes written.
      var written = 0

      init(_ buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

      /// Writes `bytes`.
      mutating func put(_ bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count <= buffer.count - written, "the page's lines overrun their room")
        guard let source = bytes.baseAddress, let start = buffer.baseAddress else { return }
        UnsafeMutableRawPointer(start + written).copyMemory(from: source, byteCount: bytes.count)
        written += bytes.count
      }

      /// Writes a line feed.
      mutating func newline() {
        precondition(written < buffer.count, "the page's lines overrun their room")
        buffer[written] = UInt8(ascii: "\n")
        written += 1
      }
    }

    /// The change list of each field's last change since the state was last rebuilt, and
    /// those fields in the order of their first change since: what `RebuiltState` is set
    /// to at a keyframe, when it takes the last values (`RebuiltState.takesLastValues`).
    ///
    /// It cannot be copied: its buffer is its own, written in place each event (an array
    /// would check that it is not shared at each write).
    @usableFromInline struct LastChanges: ~Copyable {
      /// The key number of each field's last change (-1: none since).
      @usableFromInline let last: UnsafeMutablePointer<Int>
      @usableFromInline var order: [Int] = []

      @usableFromInline init(fields: Int) {
        last = .allocate(capacity: max(fields, 1))
        last.initialize(repeating: -1, count: max(fields, 1))
      }

      @inlinable deinit { last.deallocate() }

      /// Notes that the fields `changed` (a `FieldSet`'s bits, each below `fields`) changed
      /// to their values in change list `key`.
      @inlinable @inline(__always) mutating func note(_ changed: UInt64, _ key: Int) {
        var rest = changed
        while rest != 0 {
          let field = rest.trailingZeroBitCount
          rest &= rest &- 1
          if last[field] < 0 { order.append(field) }
          last[field] = key
        }
      }

      /// Sets each field noted since the last call to its last value (`values[key]`
      /// holds change list `key`'s fields and values).
      @usableFromInline mutating func set(
        in rebuilt: inout RebuiltState, _ values: [[(field: Int, value: JSONValue)]]
      ) {
        for field in order {
          let key = last[field]
          rebuilt.set(values[key].first { $0.field == field }!.value, field: field, key: key)
          last[field] = -1
        }
        order.removeAll(keepingCapacity: true)
      }
    }

    /// A field as the page's find box checks conditions on it: its path, its kind and,
    /// for identifiers, the values the session knows with their names.
    @usableFromInline static func fieldJSON<D: Domain>(_ field: StateField<D.State>, domain: D)
      -> JSONValue
    {
      var members: [(String, JSONValue)] = [
        ("path", .string(field.path)), ("kind", field.kind.pageJSON),
      ]
      if let known = domain.knownValues(for: field.path) {
        members.append(
          (
            "known",
            .array(known.map { .array([.string($0.value), .string($0.name)]) })
          ))
      }
      return .object(members)
    }
  }
}
