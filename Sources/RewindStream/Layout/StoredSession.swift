package import RewindJournal

/// A session as a server holds it, in memory: its summary (a value of
/// ``StreamLayout/sessionsBucket``), its index chunks (values of
/// ``StreamLayout/indexBucket``), its header message and its frame messages, the header at
/// stream sequence 1 and the frames after it.
///
/// What a reader takes on trust from a server, read without one, through the decoders
/// ``StreamStore`` uses: the fuzz target of the stream's messages feeds arbitrary bytes
/// through it, so that a damaged or hostile server ends in a typed error, never a trap.
package struct StoredSession: Sendable, Equatable {
  package var summary: [UInt8]
  package var indexChunks: [[UInt8]]
  package var header: [UInt8]
  package var frames: [[UInt8]]

  package init(summary: [UInt8], indexChunks: [[UInt8]], header: [UInt8], frames: [[UInt8]]) {
    self.summary = summary
    self.indexChunks = indexChunks
    self.header = header
    self.frames = frames
  }

  /// The values and messages a push of `reader`'s journal to an empty stream stores.
  /// - Throws: ``JournalError`` for a frame that cannot be read.
  package init(journal reader: JournalReader) throws(JournalError) {
    let header = reader.header
    self.header = reader.headerFrameBytes
    var frames: [[UInt8]] = []
    var entries: [StreamFrame] = []
    for number in reader.frames.indices {
      frames.append(try reader.frameBytes(number))
      entries.append(StreamFrame(reader.frames[number], streamSequence: UInt64(number) + 2))
    }
    self.frames = frames
    indexChunks = stride(from: 0, to: entries.count, by: StreamLayout.indexChunkSize).map {
      StreamFrame.encode(entries[$0..<min($0 + StreamLayout.indexChunkSize, entries.count)])
    }
    summary = SessionSummary(
      session: header.sessionID, domain: header.domain, device: header.device,
      startTime: header.startTime,
      subject: StreamLayout.subject(domain: header.domain, session: header.sessionID),
      headerSequence: 1, frameCount: entries.count, eventCount: reader.lastSequence,
      lastTime: reader.lastTime,
      storedBytes: UInt64(self.header.count + frames.reduce(0) { $0 + $1.count }),
      isClosed: reader.condition.isClosed
    ).encoded()
  }

  /// The summary, decoded.
  /// - Throws: `CodecError` for a damaged summary.
  package func decodedSummary() throws(CodecError) -> SessionSummary {
    try SessionSummary.decode(summary)
  }

  /// The index's frames, as many as `summary` says, decoded and checked chunk by chunk as
  /// a reader of a server checks them (``StreamFrame/indexed(frameCount:chunk:)``).
  /// - Throws: `CodecError` for a damaged chunk or an index shorter than the summary says.
  package func decodedFrames(_ summary: SessionSummary) throws(CodecError) -> [StreamFrame] {
    let (frames, problem) = StreamFrame.indexed(frameCount: summary.frameCount) { number in
      indexChunks.indices.contains(number) ? indexChunks[number] : nil
    }
    if let problem { throw CodecError(.invalidValue, problem, at: 0) }
    return frames
  }

  /// A reader of the session, as ``StreamStore/reader(session:)`` makes one: each frame
  /// fetched from ``frames`` by the stream sequence its index entry gives, and checked as
  /// a file's frame is.
  /// - Throws: `CodecError` for a damaged summary or index; ``JournalError`` for a header
  ///   that cannot be read.
  package func reader(name: String) throws -> JournalReader {
    let summary = try decodedSummary()
    let entries = try decodedFrames(summary)
    let body = try JournalAssembler.headerBody(of: header, source: name)
    return try JournalReader(
      name: name, headerBody: body,
      frames: entries.enumerated().map { $0.element.info(number: $0.offset) },
      isClosed: summary.isClosed,
      source: MemoryFrameSource(messages: frames, entries: entries, name: name))
  }
}

/// The frame messages of a ``StoredSession``, fetched by stream sequence.
private final class MemoryFrameSource: FrameSource {
  let messages: [[UInt8]]
  let entries: [StreamFrame]
  let name: String

  init(messages: [[UInt8]], entries: [StreamFrame], name: String) {
    self.messages = messages
    self.entries = entries
    self.name = name
  }

  func frameBytes(_ info: FrameInfo) throws(JournalError) -> [UInt8] {
    guard entries.indices.contains(info.number) else {
      throw JournalError(.outOfRange, "the session has no frame \(info.number)", path: name)
    }
    // The header is message 1, the frames follow.
    let sequence = entries[info.number].streamSequence
    guard sequence >= 2, sequence - 2 < UInt64(messages.count) else {
      throw JournalError(
        .io, "no message at stream sequence \(sequence)", path: name, frame: info.number)
    }
    return messages[Int(sequence - 2)]
  }

  func another() throws(JournalError) -> any FrameSource { self }
}
