/// Which event last changed a field.
public struct Blame<D: Domain>: Sendable {
  public var path: String
  /// The field's value at the point asked about.
  public var value: JSONValue
  /// The event that set it, or nil when it still has its initial value.
  public var event: ReplayedEvent<D>?
}

extension Timeline {
  /// The event that last changed the field at `path`, at or before event `sequence`.
  ///
  /// Replays backwards one snapshot interval at a time: the interval holding `sequence`
  /// first, then the one before it, until an event changed the field or the start is
  /// reached.
  /// - Throws: ``RewindError`` `invalidInput` for an unknown path.
  /// - Complexity: O(events since the last change), in steps of one snapshot interval.
  public func blame(_ path: String, at sequence: UInt64) throws -> Blame<D> {
    let field = try domain.fieldIndex(of: path)
    let value = domain.fields[field].value(try state(after: sequence))
    var end = sequence
    while end > 0 {
      var (replayer, state) = try replayer(toReach: end - 1)
      let start = replayer.sequence
      var culprit: ReplayedEvent<D>?
      while replayer.sequence < end,
        let (event, changed) = try replayer.step(&state, trackChanges: true)
      {
        if changed.contains(field) { culprit = event }
      }
      if let culprit { return Blame(path: path, value: value, event: culprit) }
      end = start
    }
    return Blame(path: path, value: value, event: nil)
  }
}
