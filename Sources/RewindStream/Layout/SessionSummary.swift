public import RewindJournal

/// What the server knows of a session without reading its messages: the value of its
/// key in ``StreamLayout/sessionsBucket``, written after every frame pushed.
public struct SessionSummary: Sendable, Equatable {
  /// The session's id, as the journal header has it.
  public var session: SessionID
  public var domain: String
  public var device: String
  /// The session's start, microseconds since the Unix epoch (UTC).
  public var startTime: Int64
  /// The subject of its messages.
  public var subject: String
  /// The stream sequence of its header message.
  public var headerSequence: UInt64
  /// Frames, events and the time of the last event (µs from the start) on the server.
  public var frameCount: Int
  public var eventCount: UInt64
  public var lastTime: UInt64
  /// The bytes of its messages' data on the server.
  public var storedBytes: UInt64
  /// Whether its journal was closed and every frame is on the server.
  public var isClosed: Bool
  /// Whether the journal pushed was closed but not every frame of it is on the server: a
  /// push under way, or one cut short (pushing the journal again completes the session).
  /// Never with ``isClosed``.
  public var isIncomplete = false

  static let version: UInt8 = 1

  package func encoded() -> [UInt8] {
    var writer = ByteWriter()
    writer.write(SessionSummary.version)
    writer.write(contentsOf: session.bytes)
    writer.writeString(domain)
    writer.writeString(device)
    writer.writeLittleEndian(startTime)
    writer.writeString(subject)
    writer.writeLittleEndian(headerSequence)
    writer.writeLittleEndian(UInt32(frameCount))
    writer.writeLittleEndian(eventCount)
    writer.writeLittleEndian(lastTime)
    writer.writeLittleEndian(storedBytes)
    writer.write(isClosed ? 1 : isIncomplete ? 2 : 0)
    return writer.bytes
  }

  package static func decode(_ bytes: [UInt8]) throws(CodecError) -> SessionSummary {
    try bytes.withBytes { buffer throws(CodecError) in
      var reader = ByteReader(buffer)
      let version = try reader.readByte()
      guard version == SessionSummary.version else {
        throw CodecError(.invalidValue, "summary version \(version)", at: 0)
      }
      let id = SessionID(bytes: Array(try reader.readBytes(16)))
      let domain = try reader.readString(maxLength: 255)
      let device = try reader.readString(maxLength: 4096)
      let start = try reader.readLittleEndian(Int64.self)
      let subject = try reader.readString(maxLength: 1024)
      let headerSequence = try reader.readLittleEndian(UInt64.self)
      let frames = try reader.readLittleEndian(UInt32.self)
      let events = try reader.readLittleEndian(UInt64.self)
      let lastTime = try reader.readLittleEndian(UInt64.self)
      let stored = try reader.readLittleEndian(UInt64.self)
      let closed = try reader.readByte()
      return SessionSummary(
        session: id, domain: domain, device: device, startTime: start, subject: subject,
        headerSequence: headerSequence, frameCount: Int(frames), eventCount: events,
        lastTime: lastTime, storedBytes: stored, isClosed: closed == 1, isIncomplete: closed == 2)
    }
  }
}

/// Where one frame of a session is on the stream, and what it holds: an entry of the
/// session's index in ``StreamLayout/indexBucket``.
public struct StreamFrame: Sendable, Equatable {
  /// The stream sequence of the frame's message.
  public var streamSequence: UInt64
  /// The sizes of the frame header (a metadata frame) and of the data frame, which
  /// follow each other in the message's data.
  public var headerSize: UInt32
  public var compressedSize: UInt32
  public var firstSequence: UInt64
  public var recordCount: UInt32
  public var firstTime: UInt64
  public var lastTime: UInt64
  public var snapshotCount: UInt32

  /// The sequence number of the frame's last event.
  public var lastSequence: UInt64 { firstSequence + UInt64(recordCount) - 1 }
  /// The size of the message's data.
  public var size: UInt32 { headerSize + compressedSize }

  static let encodedSize = 48

  /// The frame as a journal's index lists it, numbered `number` (its offset 0: the
  /// reader sets it).
  func info(number: Int) -> FrameInfo {
    FrameInfo(
      number: number, offset: 0, headerSize: headerSize, compressedSize: compressedSize,
      firstSequence: firstSequence, recordCount: recordCount, firstTime: firstTime,
      lastTime: lastTime, snapshotCount: snapshotCount)
  }

  init(_ info: FrameInfo, streamSequence: UInt64) {
    self.streamSequence = streamSequence
    headerSize = info.headerSize
    compressedSize = info.compressedSize
    firstSequence = info.firstSequence
    recordCount = info.recordCount
    firstTime = info.firstTime
    lastTime = info.lastTime
    snapshotCount = info.snapshotCount
  }

  init(
    streamSequence: UInt64, headerSize: UInt32, compressedSize: UInt32, firstSequence: UInt64,
    recordCount: UInt32, firstTime: UInt64, lastTime: UInt64, snapshotCount: UInt32
  ) {
    self.streamSequence = streamSequence
    self.headerSize = headerSize
    self.compressedSize = compressedSize
    self.firstSequence = firstSequence
    self.recordCount = recordCount
    self.firstTime = firstTime
    self.lastTime = lastTime
    self.snapshotCount = snapshotCount
  }

  package static func encode(_ frames: ArraySlice<StreamFrame>) -> [UInt8] {
    var writer = ByteWriter(capacity: frames.count * encodedSize)
    for frame in frames {
      writer.writeLittleEndian(frame.streamSequence)
      writer.writeLittleEndian(frame.headerSize)
      writer.writeLittleEndian(frame.compressedSize)
      writer.writeLittleEndian(frame.firstSequence)
      writer.writeLittleEndian(frame.recordCount)
      writer.writeLittleEndian(frame.firstTime)
      writer.writeLittleEndian(frame.lastTime)
      writer.writeLittleEndian(frame.snapshotCount)
    }
    return writer.bytes
  }

  /// A session's `frameCount` frames as the values of its index list them (`chunk(n)`:
  /// the value of chunk `n`, nil when there is none), each value checked as it is read: a
  /// count of bytes that no entries make, fewer entries than its frames (each value holds
  /// ``StreamLayout/indexChunkSize``, the last the rest; more when written before the
  /// summary counted them), or more than a value holds. What a push and a reader
  /// (``StreamStore``) and the fuzz target's sessions (``StoredSession``) check alike.
  /// - Returns: the frames listed before the first value that fails, and what is wrong
  ///   with that value (nil when every value holds its frames).
  package static func indexed<Failure: Error>(
    frameCount: Int, chunk: (Int) throws(Failure) -> [UInt8]?
  ) throws(Failure) -> (frames: [StreamFrame], problem: String?) {
    let size = StreamLayout.indexChunkSize
    var frames: [StreamFrame] = []
    // Room for the frames the values read hold, not for the count a summary says (a
    // damaged or hostile one asked for about 890 million frames: 43 GB reserved before a
    // value was read, and the process ended out of memory; found by the stream fuzz
    // target, `Fuzz/Regressions/stream/huge-frame-count-in-summary`).
    frames.reserveCapacity(min(frameCount, 64 * size))
    var number = 0
    while frames.count < frameCount {
      guard let bytes = try chunk(number) else {
        return (frames, "the index lacks frames from \(frames.count) on")
      }
      let entries: [StreamFrame]
      do throws(CodecError) {
        entries = try decode(bytes)
      } catch {
        return (frames, "index chunk \(number) is damaged: \(error.message)")
      }
      let expected = min(size, frameCount - frames.count)
      guard (expected...size).contains(entries.count) else {
        return (
          frames,
          "index chunk \(number) is damaged: it holds \(entries.count) frames, not \(expected)"
        )
      }
      frames += entries
      number += 1
    }
    return (Array(frames.prefix(frameCount)), nil)
  }

  package static func decode(_ bytes: [UInt8]) throws(CodecError) -> [StreamFrame] {
    guard bytes.count % encodedSize == 0 else {
      throw CodecError(.invalidValue, "an index chunk of \(bytes.count) bytes", at: 0)
    }
    return try bytes.withBytes { buffer throws(CodecError) in
      var reader = ByteReader(buffer)
      var frames: [StreamFrame] = []
      while !reader.isAtEnd {
        frames.append(
          StreamFrame(
            streamSequence: try reader.readLittleEndian(UInt64.self),
            headerSize: try reader.readLittleEndian(UInt32.self),
            compressedSize: try reader.readLittleEndian(UInt32.self),
            firstSequence: try reader.readLittleEndian(UInt64.self),
            recordCount: try reader.readLittleEndian(UInt32.self),
            firstTime: try reader.readLittleEndian(UInt64.self),
            lastTime: try reader.readLittleEndian(UInt64.self),
            snapshotCount: try reader.readLittleEndian(UInt32.self)))
      }
      return frames
    }
  }
}
