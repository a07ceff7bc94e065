public import RewindJournal

extension Replayer {
  /// Decodes every event up to and including `target` (or to the last, if it comes
  /// first) and calls `body` with each one's sequence number, time and event, applying
  /// none: the loop of `rewind export`, whose lines depend on nothing but the events.
  ///
  /// What ``step(_:trackChanges:skipping:)`` does with `skipping` always true, fused into
  /// the frame walk of ``forEachEvent(through:_:trackChanges:_:)``: a run of records at a
  /// time (`RecordCursor/forEachRecord(through:_:)`), the codec's memory reset after each
  /// snapshot, lost events crossed when ``crossesLostEvents`` is set (the state to
  /// restore after them is not needed and is dropped).
  ///
  /// - Throws: ``RewindError`` `undecodable` or `eventsLost`, `JournalError` for damage;
  ///   whatever `body` throws.
  /// - Complexity: O(target − current sequence): per event the record's header and the
  ///   domain's decoder, no allocation.
  @inlinable @inline(__always)
  mutating func forEachDecodedEvent(
    through target: UInt64,
    _ body: (_ sequence: UInt64, _ time: UInt64, _ event: D.Event) throws -> Void
  ) throws {
    let domain = timeline.domain
    while sequence < target {
      guard try inFrame() else { break }
      restart = nil
      startRunIfDue()
      let limit = Swift.min(target, runStarts.first ?? .max)
      var context = self.context
      var failed: (sequence: UInt64, error: CodecError)?
      let exhausted: Bool
      do {
        exhausted = try cursor!.forEachRecord(through: limit) { sequence, time, payload in
          let event: D.Event
          do throws(CodecError) {
            (_, event) = try Self.decode(payload, domain: domain, context: &context)
          } catch {
            failed = (sequence, error)
            throw error
          }
          try body(sequence, time, event)
          return true
        }
      } catch {
        // The decoder's error leaves the cursor's loop as it is: named here with its event.
        if let failed { throw undecodable(failed.sequence, failed.error) }
        throw error
      }
      self.context = context
      sequence = cursor!.sequence &- 1
      if exhausted { leaveFrame() }
    }
  }
}
