import Navigation
import RewindCore
import RewindJournal

/// What every event a parser produced must survive, the checks shared by the targets of
/// text formats: reduced one after another as recording does, each event's JSON (what
/// `export` writes) and binary encoding (what a journal stores, in one run) read back as
/// the same event, and each state's encoding (a snapshot) read back as the same state.
///
/// What is recorded is read back as a reader of the journal would: with the domain built
/// from the settings the recording domain writes in the header, at the current schema
/// version (a domain upcast from an older version's settings writes current events).
enum DomainChecks {
  /// Plays `events` from the domain's initial state, checking each.
  /// - Throws: ``FuzzFailure`` naming the event or state that does not read back.
  static func play(
    _ events: some Sequence<NavigationDomain.Event>, in recording: NavigationDomain
  ) throws(FuzzFailure) {
    let domain: NavigationDomain
    do {
      domain = try NavigationDomain(settingsBlob: recording.settingsBlob)
    } catch {
      throw FuzzFailure(
        "the settings \(recording.settingsJSON.compactText) do not read back: \(error)")
    }
    var state = recording.initialState
    var encoding = recording.makeEventCodecContext()
    var decoding = domain.makeEventCodecContext()
    for event in events {
      _ = recording.describe(event)
      let json = recording.json(event)
      let fromJSON = try? recording.event(fromJSON: json)
      guard fromJSON == event else {
        throw FuzzFailure(
          "the event \(json.compactText) reads back from its JSON as \(fromJSON.map { recording.json($0).compactText } ?? "an error")"
        )
      }
      // Read by another domain, an unknown id is another reference: compare the JSON.
      var writer = ByteWriter()
      recording.encode(event, into: &writer, context: &encoding)
      let decoded = try? ByteReader.decodeAll(writer.bytes) { reader throws(CodecError) in
        try domain.decodeEvent(from: &reader, context: &decoding)
      }
      guard let decoded, domain.json(decoded) == json else {
        throw FuzzFailure(
          "the event \(json.compactText) encodes as \(writer.bytes), which decodes as \(decoded.map { domain.json($0).compactText } ?? "an error")"
        )
      }
      _ = recording.reduce(&state, event)
      try checkState(state, recordedBy: recording, readBy: domain)
    }
    _ = recording.render(state)
  }

  /// Checks that a state's binary encoding decodes as the same state.
  static func checkState(
    _ state: NavigationState, recordedBy recording: NavigationDomain,
    readBy domain: NavigationDomain
  ) throws(FuzzFailure) {
    var writer = ByteWriter()
    recording.encode(state, into: &writer)
    let decoded = try? ByteReader.decodeAll(writer.bytes) { reader throws(CodecError) in
      try domain.decodeState(from: &reader)
    }
    let json = recording.json(state)
    guard let decoded, domain.json(decoded) == json else {
      throw FuzzFailure(
        "the state \(json.compactText) encodes as \(writer.bytes), which decodes as \(decoded.map { domain.json($0).compactText } ?? "an error")"
      )
    }
  }
}
