/// A state saved in the journal so that a reader can start from it instead of the
/// beginning: the domain's encoded state after event ``sequence`` and its hash.
///
/// The journal never interprets the state bytes; the replay engine encodes and decodes
/// them. ``stateHash`` is the XXH64 of those bytes (`FORMAT.md`): the replay engine checks
/// it before using a snapshot (`hashMatches`), and compares it with the hash of the state
/// it computes.
public struct Snapshot: Sendable, Equatable {
  /// The state is the one just after this event (0: before any event).
  public var sequence: UInt64
  /// The XXH64 of ``state``, stored so that the bytes and replays can be checked against
  /// it.
  public var stateHash: UInt64
  /// The domain's encoding of the state.
  public var state: [UInt8]

  public init(sequence: UInt64, stateHash: UInt64, state: [UInt8]) {
    self.sequence = sequence
    self.stateHash = stateHash
    self.state = state
  }

  /// Whether the state's bytes hash to ``stateHash``: false for a snapshot whose bytes
  /// were changed after it was written (the frame header's checksum, recomputed by
  /// whoever changed them, cannot tell).
  /// - Complexity: O(state bytes), XXH64 over them.
  package var hashMatches: Bool { XXH64.hash(state) == stateHash }
}

/// A snapshot as stored in a frame header: with the time of its event and the offset,
/// in the frame's records as rows, of the record that follows it, so that a reader can
/// start decoding there (`FrameView.records(after:)`).
@usableFromInline package struct StoredSnapshot: Sendable, Equatable {
  package var snapshot: Snapshot
  /// The time of event `snapshot.sequence` (0 for the state before any event).
  package var time: UInt64
  /// Where event `snapshot.sequence + 1` starts in the frame's records as rows: the size
  /// of the headers and the payloads before it (FORMAT.md, "Uncompressed records").
  package var recordOffset: UInt32
}
