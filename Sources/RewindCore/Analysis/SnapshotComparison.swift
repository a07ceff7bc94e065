import RewindJournal

/// What is wrong with a stored snapshot.
public enum SnapshotProblem: Sendable, Equatable, CustomStringConvertible {
  /// Its bytes do not hash to its stored state hash: they were changed after it was
  /// written.
  case hashMismatch
  /// Its bytes hash right but the domain cannot decode them; why.
  case undecodable(String)
  /// It is intact but stands for another state than the one replayed up to it.
  case differs

  /// The end of a sentence that starts "the snapshot after event N".
  public var description: String {
    switch self {
    case .hashMismatch: "does not match its stored state hash"
    case .undecodable(let why): "cannot be decoded (\(why))"
    case .differs: "differs from the state replayed up to it"
    }
  }
}

/// How a stored snapshot compares with the state replayed up to it: the one comparison
/// `check`, the deep check and time travel share.
enum SnapshotComparison<State> {
  /// Its bytes hash to its stored hash, decode, and (when a replayed state was given)
  /// stand for that state.
  case matches(State)
  /// Its bytes do not hash to its stored state hash; the state they decode to, if they
  /// do.
  case hashMismatch(State?)
  /// Its bytes hash right but the domain cannot decode them.
  case undecodable(RewindError)
  /// It is intact but stands for another state than the replayed one.
  case differs(State)

  /// What is wrong; nil when it matches.
  var problem: SnapshotProblem? {
    switch self {
    case .matches: nil
    case .hashMismatch: .hashMismatch
    case .undecodable(let error): .undecodable(error.cause.map { "\($0)" } ?? error.message)
    case .differs: .differs
    }
  }

  /// The state the snapshot's bytes decode to, if they do.
  var storedState: State? {
    switch self {
    case .matches(let state), .differs(let state): state
    case .hashMismatch(let state): state
    case .undecodable: nil
    }
  }
}

extension Timeline {
  /// Checks a stored snapshot's own bytes: that they hash to its stored state hash and
  /// that the domain decodes them.
  /// - Returns: ``SnapshotComparison/matches(_:)`` with the decoded state, or what is
  ///   wrong.
  /// - Complexity: XXH64 over the snapshot's bytes and one decode, no other allocation.
  func examine(_ snapshot: Snapshot) -> SnapshotComparison<D.State> {
    let stored: D.State
    do {
      stored = try decodeState(snapshot)
    } catch {
      return snapshot.hashMatches ? .undecodable(error) : .hashMismatch(nil)
    }
    return snapshot.hashMatches ? .matches(stored) : .hashMismatch(stored)
  }

  /// Compares a stored snapshot with `replayed`, the state after its event as replay
  /// computed it, after checking its own bytes (``examine(_:)``).
  ///
  /// A journal of the current schema is compared by hash: the stored hash with the hash
  /// of the replayed state's encoding. One of an older schema (``upcast``), whose
  /// snapshots hash their older encoding, is compared as states, decoded and upcast.
  /// - Parameter encoded: scratch space for the replayed state's encoding.
  /// - Complexity: XXH64 over the snapshot's bytes and the replayed state's encoding, and
  ///   one decode.
  func compare(_ snapshot: Snapshot, with replayed: D.State, encoded: inout ByteWriter)
    -> SnapshotComparison<D.State>
  {
    let examined = examine(snapshot)
    guard case .matches(let stored) = examined else { return examined }
    if upcast == nil {
      encoded.removeAll()
      domain.encode(replayed, into: &encoded)
      return XXH64.hash(encoded.bytes) == snapshot.stateHash ? examined : .differs(stored)
    }
    return stored == replayed ? examined : .differs(stored)
  }
}
