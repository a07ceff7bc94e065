import RewindJournal

/// Why an event does not decode, when its frame's checksums verify (replay and the deep
/// check read no other frame): its bytes are the ones its writer wrote, so it is not
/// damage. Either the recorded effect at the start of its record does not read (Rewind's
/// own part of the record: a wrong record, written so), or the domain's decoding does not
/// read the event after it: for a journal of an older schema, the domain's upcast of that
/// schema; for one of the domain's own schema, its decoder, changed since (or the writer
/// wrote what it does not read).
extension Timeline {
  /// How an event is decoded, said after "event N cannot be decoded": `as schema 2 of
  /// 'counter'`, the domain's schema (an older journal's events are upcast to it).
  var decodedAs: String { "as schema \(D.schemaVersion) of '\(D.identifier)'" }

  /// What an event that the domain's decoding does not read is, and what to do: said
  /// after the decoder's error.
  var undecodableEventNote: String {
    let intact = "its bytes are intact (its frame's checksums verify), so this is not damage"
    guard let upcast else {
      return
        "\(intact): the journal is schema \(D.schemaVersion), the domain's own, and the domain's decodeEvent does not read what was written; make it read them (a change to how events are written needs a new schema version, whose decoding upcasts the older one), or read the journal with the tool that wrote it"
    }
    let old = upcast.from
    return
      "\(intact): the journal is schema \(old), and the domain's upcast of schema \(old) (its decodeEvent for a journal of schema \(old)) does not read it; make that upcast read schema \(old)'s events, or read the journal with the tool of schema \(old)"
  }

  /// What a snapshot of a journal of an older schema that differs from the state replayed
  /// up to it is, though its bytes match its stored hash, and what to do: said after
  /// "differs from the state replayed up to it; ".
  static func differingUpcastNote(_ upcast: SchemaUpcast) -> String {
    let old = upcast.from
    return
      "its bytes match its stored state hash, so this is not damage: the journal is schema \(old), and the domain's upcast of schema \(old) (its decodeEvent and decodeState for a journal of schema \(old)) or its reducer does not replay what was recorded; make them agree, or read the journal with the tool of schema \(old)"
  }

  /// What decodes this journal's states, in a sentence about a snapshot that does not
  /// decode though its bytes hash right ("the domain's …"): `decodeState`, or `upcast of
  /// schema 1's states (decodeState for a journal of schema 1)`.
  var stateDecoding: String {
    guard let upcast else { return "decodeState" }
    return
      "upcast of schema \(upcast.from)'s states (decodeState for a journal of schema \(upcast.from))"
  }

  /// The error of replay for event `sequence`, which does not decode (`error`), in a
  /// frame whose checksums verify: it names the event, the schema it is decoded as and,
  /// when the domain's decoding is what does not read it, the journal's schema and what
  /// to do.
  func undecodableEvent(_ sequence: UInt64, _ error: CodecError) -> RewindError {
    guard let index = reader.frameIndex(containing: sequence),
      let frame = try? reader.loadFrame(index),
      Self.domainDoesNotRead(sequence, in: frame)
    else {
      return RewindError(.undecodable, "\(path): event \(sequence) cannot be decoded", cause: error)
    }
    var failure = RewindError(
      .undecodable, "\(path): event \(sequence) cannot be decoded \(decodedAs)", cause: error)
    failure.note = undecodableEventNote
    return failure
  }

  /// Whether the part of event `sequence`'s record that does not decode is the domain's
  /// event: the recorded effect before it reads. False when the effect does not, or the
  /// frame has no such event.
  /// - Complexity: O(records of the frame up to the event): an error path only.
  static func domainDoesNotRead(_ sequence: UInt64, in frame: FrameView) -> Bool {
    var cursor = frame.records()
    while let record = try? cursor.next() {
      guard record.sequence == sequence else { continue }
      var bytes = ByteReader(record.payload)
      return (try? RecordedEffect.decode(from: &bytes)) != nil
    }
    return false
  }
}
