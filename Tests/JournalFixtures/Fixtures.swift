// Deterministic records shared by the journal tests and the crash-test child process.
public import RewindJournal

/// The payload the tests write for event `sequence`: its number and a few bytes that
/// depend on it, so that any mix-up of records shows.
public func payload(for sequence: UInt64) -> [UInt8] {
  var writer = ByteWriter()
  writer.writeVarint(sequence)
  let extra = Int(sequence % 7)
  for index in 0..<extra {
    writer.write(UInt8(truncatingIfNeeded: sequence &* 31 &+ UInt64(index)))
  }
  return writer.bytes
}

/// The time the tests give event `sequence`: non-decreasing, with repeats.
public func time(for sequence: UInt64) -> UInt64 {
  sequence / 3 * 1_000 + (sequence % 3 == 2 ? 5 : 0)
}

/// The snapshot the tests supply after event `sequence`.
public func snapshot(after sequence: UInt64) -> Snapshot {
  let state = Array("state after \(sequence)".utf8)
  return Snapshot(sequence: sequence, stateHash: XXH64.hash(state), state: state)
}

public func header(interval: UInt32 = 100, domain: String = "test") -> JournalHeader {
  JournalHeader(
    domain: domain, schemaVersion: 1, sessionID: SessionID(bytes: Array(0..<16)),
    startTime: 1_764_500_000_000_000, device: "test device", settings: Array("{}".utf8),
    snapshotInterval: interval)
}

/// Appends events `from...to` with their snapshots, as the replay engine does.
public func appendEvents(_ writer: JournalWriter, _ range: ClosedRange<UInt64>) throws {
  for sequence in range {
    if writer.needsSnapshot { try writer.addSnapshot(snapshot(after: writer.lastSequence)) }
    let assigned = try writer.append(time: time(for: sequence), payload: payload(for: sequence))
    precondition(assigned == sequence)
  }
}
