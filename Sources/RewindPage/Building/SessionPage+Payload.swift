import RewindCore
import RewindJournal

extension SessionPage {
  /// The text of a page's data before compression: lines of JSON (see <doc:PageFormat>).
  enum Payload {
    /// The version of the layout below, which the page's script checks.
    static let format = 1

    /// Replays the events `from + 1 ... to` and writes the page's data.
    ///
    /// One pass of the domain's specialised replay (`Timeline.visitEvents`), each event,
    /// its changes, its time and its code written as text into buffers reused for the
    /// whole page (`JSONWriter`): no `JSONValue` is built per event but the values of the
    /// fields it changed, which the domain hands out as such.
    static func build<D: Domain>(
      _ timeline: Timeline<D>, from: UInt64, to: UInt64, options: Options,
      rendererData: JSONValue, progress: (UInt64) -> Void
    ) throws -> [UInt8] {
      let domain = timeline.domain
      let fields = domain.fields
      let start = try timeline.state(after: from)
      let startJSON = domain.json(start)
      let fromTime = from == 0 ? 0 : try timeline.time(of: from)
      let count = Int(to - from)

      var keyframes = JSONWriter(capacity: 1 << 16)
      keyframes.value(startJSON)
      // A keyframe costs about a byte an event before compression.
      let keyframeInterval = UInt64(min(max(keyframes.count, 256), 4096))
      keyframes.newline()
      var keyframeCount = 1

      var kinds = D.eventKinds
      var kindIndex = [String: Int](uniqueKeysWithValues: kinds.enumerated().map { ($1, $0) })
      var lastKind: (name: String, index: Int)?
      var counts = (applied: 0, unchanged: 0, rejected: 0)
      var times = JSONWriter(capacity: count * 7 + 64)
      var codes = JSONWriter(capacity: count * 3 + 64)
      var events = JSONWriter(capacity: count * 110 + 4096)
      var changes = JSONWriter(capacity: count * 20 + 4096)
      times.beginArray()
      codes.beginArray()
      // The state as the page will rebuild it, to check that the fields rebuild it.
      var rebuilt = RebuiltState(startJSON, paths: fields.map(\.path))
      let values = fields.map(\.value)
      var previousTime = fromTime
      var scratch = JSONWriter(capacity: 4096)

      try timeline.visitEvents(from: from + 1, through: to) { visited, event, state in
        let kind = domain.eventKind(event)
        let index: Int
        if let last = lastKind, last.name == kind {
          index = last.index
        } else if let known = kindIndex[kind] {
          index = known
        } else {
          index = kinds.count
          kinds.append(kind)
          kindIndex[kind] = index
        }
        lastKind = (kind, index)
        switch visited.outcome {
        case 0: counts.applied += 1
        case 1: counts.unchanged += 1
        default: counts.rejected += 1
        }
        codes.int(Int64(index * 3 + visited.outcome))
        times.int(Int64(visited.time - previousTime))
        previousTime = visited.time

        // The line `rewind log --json` prints.
        events.beginObject()
        events.plainKey("seq")
        events.int(Int64(visited.sequence))
        events.plainKey("time_us")
        events.int(Int64(visited.time))
        domain.writeMembers(of: event, to: &events)
        events.plainKey("outcome")
        switch visited.outcome {
        case 0: events.plainString("applied")
        case 1: events.plainString("unchanged")
        default:
          events.plainString("rejected")
          events.plainKey("reason")
          events.string(visited.reason ?? "")
        }
        events.endObject()
        events.newline()

        // [field, value, field, value, ...]
        changes.beginArray()
        var changed = visited.changed.rawValue
        while changed != 0 {
          let field = changed.trailingZeroBitCount
          changed &= changed &- 1
          guard field < values.count else { continue }
          let value = values[field](state)
          changes.int(Int64(field))
          changes.value(value)
          rebuilt.set(value, field: field)
        }
        changes.endArray()
        changes.newline()

        let done = visited.sequence - from
        if done % keyframeInterval == 0 {
          let start = keyframes.count
          keyframes.value(domain.json(state))
          scratch.removeAll()
          scratch.value(rebuilt.value)
          let same = keyframes.withBytes { written in
            scratch.withBytes { rebuiltText in
              UnsafeRawBufferPointer(rebasing: written[start...]).elementsEqual(rebuiltText)
            }
          }
          guard same else {
            throw PageError(
              .fieldsDoNotCoverState,
              "the '\(D.identifier)' domain's fields do not rebuild its state's JSON after event \(visited.sequence): a page needs fields that are the leaves of the state's JSON (see Domain.fields)"
            )
          }
          keyframes.newline()
          keyframeCount += 1
        }
        if done & 0xFFF == 0 { progress(done) }
      }
      // The last state, checked like the keyframes.
      if to > from, (to - from) % keyframeInterval != 0 {
        let last = domain.json(try timeline.state(after: to)).compactText
        guard last == rebuilt.value.compactText else {
          throw PageError(
            .fieldsDoNotCoverState,
            "the '\(D.identifier)' domain's fields do not rebuild its state's JSON after event \(to): a page needs fields that are the leaves of the state's JSON (see Domain.fields)"
          )
        }
      }
      times.endArray()
      times.newline()
      codes.endArray()
      codes.newline()

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
            ("startTime", .int(timeline.header.startTime)),
            ("lastSequence", .int(Int64(timeline.lastSequence))),
            ("duration", .int(Int64(timeline.duration))),
            ("events", .int(Int64(to - from))),
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
            ("fields", .array(fields.map { fieldJSON($0, domain: domain) })),
            ("renderer", rendererData),
          ])
        )
      ])

      var payload: [UInt8] = []
      payload.reserveCapacity(
        events.count + changes.count + keyframes.count + times.count + codes.count + 65_536)
      append(meta.compactText, to: &payload)
      append(JSONLines.Header(timeline.header, domain: domain).json.compactText, to: &payload)
      times.withBytes { payload.append(contentsOf: $0) }
      codes.withBytes { payload.append(contentsOf: $0) }
      events.withBytes { payload.append(contentsOf: $0) }
      changes.withBytes { payload.append(contentsOf: $0) }
      keyframes.withBytes { payload.append(contentsOf: $0) }
      return payload
    }

    /// A field as the page's find box checks conditions on it: its path, its kind and,
    /// for identifiers, the values the session knows with their names.
    static func fieldJSON<D: Domain>(_ field: StateField<D.State>, domain: D) -> JSONValue {
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

    /// Appends `text` and a line feed.
    static func append(_ text: String, to bytes: inout [UInt8]) {
      var text = text
      text.withUTF8 { bytes.append(contentsOf: $0) }
      bytes.append(UInt8(ascii: "\n"))
    }
  }
}
