import RewindCore
import RewindJournal

extension SessionPage {
  /// The text of a page's data before compression: lines of JSON (see <doc:PageFormat>).
  enum Payload {
    /// The version of the layout below, which the page's script checks.
    static let format = 2

    /// Replays the events `from + 1 ... to` and writes the page's data.
    ///
    /// One pass of the domain's specialised replay (`Timeline.visitEvents`). Each event's
    /// body (its JSON object less `seq`, `time_us`, `outcome` and `reason`), its change
    /// list and a rejected event's reason is kept once, in a `DistinctTexts`, and the
    /// event costs its time, its code and two or three numbers (each written by a
    /// `NumberLine`).
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
    ///
    /// Without `memoize` (the tests' reference), every body and change list is written as
    /// text and looked up: the same bytes.
    static func build<D: Domain>(
      _ timeline: Timeline<D>, from: UInt64, to: UInt64, options: Options,
      rendererData: JSONValue, memoize: Bool = true, progress: (UInt64) -> Void
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
      var times = NumberLine(capacity: count * 7 + 64)
      var codes = NumberLine(capacity: count * 3 + 64)
      var bodyNumbers = NumberLine(capacity: count * 3 + 64)
      var changeNumbers = NumberLine(capacity: count * 3 + 64)
      var reasonNumbers = NumberLine(capacity: 64)
      var bodies = DistinctTexts()
      var changeLists = DistinctTexts()
      var reasons = DistinctTexts(capacity: 16)
      // The number of `[]`, once an event has changed nothing.
      var noChanges: Int?
      var text = JSONWriter(capacity: 4096)
      // The state as the page will rebuild it, to check that the fields rebuild it.
      var rebuilt = RebuiltState(startJSON, paths: fields.map(\.path))
      let values = fields.map(\.value)
      let fieldCount = values.count
      var previousTime = fromTime
      var scratch = JSONWriter(capacity: 4096)

      // The events met, by their bits: each one's body number and kind index.
      let eventsAreBits = memoize && _isPOD(D.Event.self)
      var eventKeys = ShortKeys()
      var eventBodies: [Int] = []
      var eventKinds: [Int] = []
      // The change lists met, by their `ValueKey`: each one's number and values.
      var changeKeys = ShortKeys()
      var keyLists: [Int] = []
      var keyValues: [[(field: Int, value: JSONValue)]] = []
      var key = ValueKey()
      let setsLastValues = memoize && rebuilt.takesLastValues
      var lastChanges = LastChanges(fields: fieldCount)

      try values.withUnsafeBufferPointer { values in
        try timeline.visitEvents(from: from + 1, through: to) { visited, event, state in
          // The body and the kind: remembered by the event's bits, or written and looked up.
          var index = -1
          var body = -1
          var eventKey = -1
          if eventsAreBits {
            eventKey = withUnsafeBytes(of: event) { eventKeys.number(of: $0) }
          }
          if eventKey >= 0, eventKey < eventBodies.count {
            index = eventKinds[eventKey]
            body = eventBodies[eventKey]
          }
          if body < 0 {
            let kind = domain.eventKind(event)
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
            // The line `rewind log --json` prints less seq, time_us, outcome, reason.
            text.removeAll()
            text.beginObject()
            domain.writeMembers(of: event, to: &text)
            text.endObject()
            body = text.withBytes { bodies.number(of: $0) }
            if eventKey >= 0 {
              eventBodies.append(body)
              eventKinds.append(index)
            }
          }
          switch visited.outcome {
          case 0: counts.applied += 1
          case 1: counts.unchanged += 1
          default: counts.rejected += 1
          }
          codes.append(UInt64(index * 3 + visited.outcome))
          times.append(visited.time - previousTime)
          previousTime = visited.time
          bodyNumbers.append(UInt64(body))
          if visited.outcome > 1 {
            text.removeAll()
            text.string(visited.reason ?? "")
            reasonNumbers.append(UInt64(text.withBytes { reasons.number(of: $0) }))
          }

          // [field, value, field, value, ...]
          let changed = visited.changed.rawValue
          if changed == 0, let none = noChanges {
            changeNumbers.append(UInt64(none))
          } else if memoize {
            key.removeAll()
            var rest = changed
            while rest != 0 {
              let field = rest.trailingZeroBitCount
              rest &= rest &- 1
              guard field < fieldCount else { continue }
              key.append(field: field)
              key.append(values[field](state))
            }
            let keyNumber = key.withBytes { changeKeys.number(of: $0) }
            if keyNumber == keyLists.count {
              // A list not met before: its text, and its values for `rebuilt`.
              var list: [(field: Int, value: JSONValue)] = []
              text.removeAll()
              text.beginArray()
              rest = changed
              while rest != 0 {
                let field = rest.trailingZeroBitCount
                rest &= rest &- 1
                guard field < fieldCount else { continue }
                let value = values[field](state)
                text.int(Int64(field))
                text.value(value)
                list.append((field, value))
              }
              text.endArray()
              keyLists.append(text.withBytes { changeLists.number(of: $0) })
              keyValues.append(list)
            }
            let number = keyLists[keyNumber]
            changeNumbers.append(UInt64(number))
            if changed == 0 { noChanges = number }
            if setsLastValues {
              lastChanges.note(
                changed & (fieldCount < 64 ? (1 &<< fieldCount) &- 1 : ~0), keyNumber)
            } else {
              for (field, value) in keyValues[keyNumber] { rebuilt.set(value, field: field) }
            }
          } else {
            text.removeAll()
            text.beginArray()
            var rest = changed
            while rest != 0 {
              let field = rest.trailingZeroBitCount
              rest &= rest &- 1
              guard field < fieldCount else { continue }
              let value = values[field](state)
              text.int(Int64(field))
              text.value(value)
              rebuilt.set(value, field: field)
            }
            text.endArray()
            let number = text.withBytes { changeLists.number(of: $0) }
            changeNumbers.append(UInt64(number))
            if changed == 0 { noChanges = number }
          }

          let done = visited.sequence - from
          if done % keyframeInterval == 0 {
            let start = keyframes.count
            keyframes.value(domain.json(state))
            lastChanges.set(in: &rebuilt, keyValues)
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
      }
      lastChanges.set(in: &rebuilt, keyValues)
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

      var payload: [UInt8] = []
      payload.reserveCapacity(
        times.count + codes.count + bodyNumbers.count + changeNumbers.count + reasonNumbers.count
          + bodies.byteCount + bodies.count + changeLists.byteCount + changeLists.count
          + reasons.byteCount + reasons.count + keyframes.count + 65_536)
      append(meta.compactText, to: &payload)
      append(JSONLines.Header(timeline.header, domain: domain).json.compactText, to: &payload)
      times.write(to: &payload)
      codes.write(to: &payload)
      bodyNumbers.write(to: &payload)
      changeNumbers.write(to: &payload)
      reasonNumbers.write(to: &payload)
      for table in [bodies, changeLists, reasons] {
        for index in 0..<table.count {
          table.withText(index) { payload.append(contentsOf: $0) }
          payload.append(UInt8(ascii: "\n"))
        }
      }
      keyframes.withBytes { payload.append(contentsOf: $0) }
      return payload
    }

    /// The change list of each field's last change since the state was last rebuilt, and
    /// those fields in the order of their first change since: what `RebuiltState` is set
    /// to at a keyframe, when it takes the last values (`RebuiltState.takesLastValues`).
    struct LastChanges {
      /// The key number of each field's last change (-1: none since).
      private var last: [Int]
      private var order: [Int] = []

      init(fields: Int) { last = Array(repeating: -1, count: fields) }

      /// Notes that the fields `changed` (a `FieldSet`'s bits, each below `fields`) changed
      /// to their values in change list `key`.
      @inline(__always) mutating func note(_ changed: UInt64, _ key: Int) {
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
      mutating func set(
        in rebuilt: inout RebuiltState, _ values: [[(field: Int, value: JSONValue)]]
      ) {
        for field in order {
          rebuilt.set(values[last[field]].first { $0.field == field }!.value, field: field)
          last[field] = -1
        }
        order.removeAll(keepingCapacity: true)
      }
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
