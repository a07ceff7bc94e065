import RewindJournal

extension Timeline {
  /// Calls `visit` with the time and the recorded outcome of every event in the frames
  /// `frames` (indices into the reader's frames), in order: what the recording says each
  /// event did, read without decoding the events or reducing them.
  ///
  /// What a timeline bar draws its density strip from: cheap enough to read a whole
  /// journal when it is opened, and the frames a followed journal gains as they come.
  /// - Throws: `JournalError` for a damaged frame, ``RewindError`` `undecodable` for a
  ///   record whose effect cannot be read.
  /// - Complexity: O(events in the frames), one frame decompressed at a time.
  package func recordedOutcomes(
    inFrames frames: Range<Int>, _ visit: (_ time: UInt64, _ kind: RecordedEffect.Kind) -> Void
  ) throws {
    for index in frames {
      var cursor = try reader.loadFrame(index).records()
      while let record = try cursor.next() {
        var bytes = ByteReader(record.payload)
        do throws(CodecError) {
          visit(record.time, try RecordedEffect.decode(from: &bytes).kind)
        } catch {
          throw RewindError(
            .undecodable, "\(path): event \(record.sequence) cannot be decoded", cause: error)
        }
      }
    }
  }
}
