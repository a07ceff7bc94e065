extension JournalReader {
  /// The journal header as one metadata frame (`RWJH`) of the body read (the header's,
  /// or its copy's when the header is damaged): how a session starts on a stream store.
  package var headerFrameBytes: [UInt8] { MetadataFrame.encode(.header, body: layout.headerBody) }

  /// The frame at `index` in ``frames`` as the file holds it: its header frame (with its
  /// snapshots) then its zstd data frame, checked against the index entry and the
  /// checksums but not decompressed. A stream store keeps a frame as these bytes.
  /// - Throws: ``JournalError/Code/corruptFrame`` naming the frame; I/O errors.
  package func frameBytes(_ index: Int) throws(JournalError) -> [UInt8] {
    precondition(frames.indices.contains(index), "frame \(index) is not in 0..<\(frames.count)")
    return try loader.bytes(of: frames[index])
  }
}
