/// Streams the records of a journal from a sequence number on, one frame in memory at a
/// time: the tests' way to read every record. (Replay reads frames through
/// ``JournalReader/loadFrame(_:)`` and ``RecordCursor``.)
///
/// By default the first damaged frame stops the iteration with its error. With
/// ``JournalReader/Options/salvage`` the damaged frame is skipped, noted in ``skipped``,
/// and iteration goes on with the next good frame.
package struct RecordIterator {
  let reader: JournalReader
  let start: UInt64
  var frameIndex: Int
  var cursor: RecordCursor?
  /// Frames skipped as damaged (salvage mode only), with the error each gave.
  package private(set) var skipped: [JournalError] = []

  init(reader: JournalReader, from sequence: UInt64) {
    let start = max(sequence, 1)
    self.reader = reader
    self.start = start
    self.frameIndex =
      reader.frameIndex(containing: start)
      ?? reader.frames.firstIndex { $0.firstSequence >= start } ?? reader.frames.count
  }

  /// The next record, or nil after the last one. Its payload is valid until the next
  /// call.
  package mutating func next() throws(JournalError) -> Record? {
    while true {
      if var current = cursor {
        do throws(JournalError) {
          if let record = try current.next() {
            cursor = current
            if record.sequence < start { continue }
            return record
          }
        } catch  where reader.options.salvage {
          skipped.append(error)
        }
        cursor = nil
        frameIndex += 1
      }
      guard frameIndex < reader.frames.count else { return nil }
      do throws(JournalError) {
        cursor = try reader.loadFrame(frameIndex).records()
      } catch  where error.code == .corruptFrame && reader.options.salvage {
        skipped.append(error)
        frameIndex += 1
      }
    }
  }
}

extension JournalReader {
  /// Iterates the records from event `sequence` on (from the first by default).
  package func records(from sequence: UInt64 = 1) -> RecordIterator {
    RecordIterator(reader: self, from: sequence)
  }
}
