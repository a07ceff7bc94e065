public import RewindJournal

/// What ``copyJournal(_:to:header:payload:snapshot:)`` changes on the way: a journal
/// whose checksums are all right but whose content is wrong, as a writer bug, a future
/// version or a crafted file leaves it.
public struct JournalChanges {
  /// Changes the header (its domain, schema version, settings…).
  public var header: (inout JournalHeader) -> Void = { _ in }
  /// Changes the payload of event `sequence`.
  public var payload: (_ sequence: UInt64, _ payload: inout [UInt8]) -> Void = { _, _ in }
  /// Changes a snapshot (its state bytes, its hash).
  public var snapshot: (inout Snapshot) -> Void = { _ in }

  public init() {}
}

/// Copies the journal at `source` to `destination` through a `JournalWriter`, record by
/// record and snapshot by snapshot, with `changes` applied, and closes it: every
/// checksum, the index and the trailer are right whatever the changes.
///
/// The copy has the source's frames (each is sealed where the source's ended) and its
/// snapshots at the same events, so that its runs of events are the source's.
/// - Precondition: the source is intact, has no lost events, and has a snapshot wherever
///   the writer asks for one (as every journal Rewind's recorder writes has).
public func copyJournal(_ source: String, to destination: String, changes: JournalChanges)
  throws
{
  let reader = try JournalReader(path: source)
  var header = reader.header
  changes.header(&header)
  let writer = try JournalWriter.create(
    at: destination, header: header,
    options: JournalWriterOptions(
      frameSize: JournalWriterOptions.frameSizeRange.upperBound, durability: .none))
  for index in reader.frames.indices {
    let frame = try reader.loadFrame(index)
    var snapshots: [UInt64: Snapshot] = [:]
    for stored in frame.snapshots { snapshots[stored.snapshot.sequence] = stored.snapshot }
    var cursor = frame.records()
    while let record = try cursor.next() {
      if writer.needsSnapshot || snapshots[writer.lastSequence] != nil {
        var snapshot = try snapshots[writer.lastSequence].unwrap(
          "the source has no snapshot after event \(writer.lastSequence)")
        changes.snapshot(&snapshot)
        try writer.addSnapshot(snapshot)
      }
      var payload = Array(record.payload)
      changes.payload(record.sequence, &payload)
      let assigned = try writer.append(time: record.time, payload: payload)
      precondition(
        assigned == record.sequence, "the copy numbers event \(record.sequence) \(assigned)")
    }
    try writer.flush()
  }
  try writer.close()
}

/// The journal at `path` as a writer killed after its last frame leaves it: without its
/// index and trailer.
public func cutIndex(_ path: String) throws {
  let reader = try JournalReader(path: path)
  let end = try reader.frames.last.unwrap("the journal has no frame").endOffset
  write(Array(bytes(of: path)[..<Int(end)]), to: path)
}

/// A missing value that a test's fixture needs.
public struct MissingValue: Error, CustomStringConvertible {
  public var description: String
}

extension Optional {
  /// The value, or an error saying what is missing.
  func unwrap(_ what: String) throws(MissingValue) -> Wrapped {
    guard let self else { throw MissingValue(description: what) }
    return self
  }
}
