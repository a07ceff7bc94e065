import RewindCore
import RewindJournal

@testable import RewindPage

/// The page's data as `SessionPage.Payload.build` wrote it before issue 17 made it fast:
/// every event replayed through `Timeline.events` and printed as a `JSONValue`, each
/// change set into the rebuilt state as it came. Kept as the oracle the fast builder must
/// match byte for byte.
enum ReferencePayload {
  static func build<D: Domain>(
    _ timeline: Timeline<D>, from: UInt64, to: UInt64, options: SessionPage.Options,
    rendererData: JSONValue, progress: (UInt64) -> Void
  ) throws -> [UInt8] {
    let domain = timeline.domain
    let fields = domain.fields
    let start = try timeline.state(after: from)
    let startJSON = domain.json(start)
    let fromTime = from == 0 ? 0 : try timeline.time(of: from)
    // Four times the keyframe's length in events (256 to 16,384): a keyframe costs about a
    // quarter of a byte an event before compression.
    let keyframeInterval = UInt64(min(max(startJSON.compactText.utf8.count * 4, 256), 16_384))

    var kinds = D.eventKinds
    var kindIndex = [String: Int](uniqueKeysWithValues: kinds.enumerated().map { ($1, $0) })
    var counts = [0, 0, 0]
    var times: [UInt64] = []
    var codes: [Int] = []
    var events: [UInt8] = []
    var changes: [UInt8] = []
    var keyframes: [UInt8] = []
    times.reserveCapacity(Int(to - from))
    codes.reserveCapacity(Int(to - from))
    appendLine(startJSON.compactText, to: &keyframes)
    var keyframeCount = 1
    // The state as the page will rebuild it, to check that the fields rebuild it.
    var rebuilt = startJSON
    var previousTime = fromTime

    try timeline.events(from: from + 1, through: to) { replayed, changed, state in
      guard let outcome = replayed.outcome else { return true }
      let kind = domain.eventKind(replayed.event)
      let index: Int
      if let known = kindIndex[kind] {
        index = known
      } else {
        index = kinds.count
        kinds.append(kind)
        kindIndex[kind] = index
      }
      let outcomeCode =
        switch outcome {
        case .applied: 0
        case .unchanged: 1
        case .rejected: 2
        }
      counts[outcomeCode] += 1
      codes.append(index * 3 + outcomeCode)
      times.append(replayed.time - previousTime)
      previousTime = replayed.time

      var members = JSONLines.eventMembers(
        sequence: replayed.sequence, time: replayed.time, event: replayed.event, in: domain)
      members += outcome.jsonMembers
      appendLine(JSONValue.object(members).compactText, to: &events)

      changes.append(UInt8(ascii: "["))
      for (position, field) in changed.indices.enumerated() where field < fields.count {
        let value = fields[field].value(state)
        if position > 0 { changes.append(UInt8(ascii: ",")) }
        var line = String(field) + "," + value.compactText
        line.withUTF8 { changes.append(contentsOf: $0) }
        rebuilt = rebuilt.setting(value, atPath: Substring(fields[field].path))
      }
      changes.append(contentsOf: [UInt8(ascii: "]"), UInt8(ascii: "\n")])

      let done = replayed.sequence - from
      if done % keyframeInterval == 0 {
        let json = domain.json(state).compactText
        guard json == rebuilt.compactText else {
          throw PageError(
            .fieldsDoNotCoverState,
            "the '\(D.identifier)' domain's fields do not rebuild its state's JSON after event \(replayed.sequence): a page needs fields that are the leaves of the state's JSON (see Domain.fields)"
          )
        }
        appendLine(json, to: &keyframes)
        keyframeCount += 1
      }
      if done & 0xFFF == 0 { progress(done) }
      return true
    }
    // The last state, checked like the keyframes.
    if to > from, (to - from) % keyframeInterval != 0 {
      let last = domain.json(try timeline.state(after: to)).compactText
      guard last == rebuilt.compactText else {
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
          ("format", 1),  // the layout it wrote: each event's line and changes in full
          ("title", .string(options.title)),
          ("file", .string(options.fileName)),
          ("generator", .string(options.generator)),
          ("from", .int(Int64(from))),
          ("to", .int(Int64(to))),
          ("fromTime", .int(Int64(fromTime))),
          (
            "nextTime",
            to < timeline.lastSequence ? .int(Int64(try timeline.time(of: to + 1))) : .null
          ),
          ("startTime", .int(timeline.header.startTime)),
          ("recordedSchema", .int(Int64(timeline.header.schemaVersion))),
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
              ("applied", .int(Int64(counts[0]))), ("unchanged", .int(Int64(counts[1]))),
              ("rejected", .int(Int64(counts[2]))),
            ])
          ),
          ("keyframeInterval", .int(Int64(keyframeInterval))),
          ("keyframes", .int(Int64(keyframeCount))),
          ("fields", .array(fields.map { SessionPage.Payload.fieldJSON($0, domain: domain) })),
          ("renderer", rendererData),
        ])
      )
    ])

    var payload: [UInt8] = []
    payload.reserveCapacity(events.count + changes.count + keyframes.count + times.count * 8)
    appendLine(meta.compactText, to: &payload)
    appendLine(
      JSONLines.Header(timeline.header, domain: domain).json.compactText, to: &payload)
    appendLine(
      "[" + times.map(String.init).joined(separator: ",") + "]", to: &payload)
    appendLine(
      "[" + codes.map(String.init).joined(separator: ",") + "]", to: &payload)
    payload += events
    payload += changes
    payload += keyframes
    return payload
  }
}

/// Appends `text` and a line feed.
private func appendLine(_ text: String, to bytes: inout [UInt8]) {
  bytes.append(contentsOf: text.utf8)
  bytes.append(UInt8(ascii: "\n"))
}
