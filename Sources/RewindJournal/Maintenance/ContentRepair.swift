/// What salvage does with a whole frame (its checksums verify) whose content is wrong:
/// what the deep check of the replay engine, which reads the content with the journal's
/// domain, asks `Journal.recover(path:output:salvage:repairs:system:progress:)` to do.
///
/// The journal layer cannot read events or states; this is how the layer that can tells
/// it which frames not to keep as they are.
package enum ContentRepair: Sendable, Equatable {
  /// Drop the frame and mark its events lost: a record's recorded effect does not read,
  /// its events' run cannot be read, or one of its snapshots is wrong and replay cannot
  /// tell the right state. The reason, as a sentence. (Events that the domain does not
  /// decode are no reason: their bytes are intact, and their frame is kept.)
  case drop(reason: String)
  /// Keep the frame's events and write its header again with these snapshots (by the
  /// event they follow) in place of the stored ones: the states replayed up to them.
  case replaceSnapshots([UInt64: Snapshot])
}

/// A snapshot that salvage wrote again from the replayed state.
public struct ReplacedSnapshot: Sendable, Equatable {
  /// The frame's number in the repaired journal.
  public var frame: Int
  /// The snapshot is of the state after this event.
  public var sequence: UInt64
}
