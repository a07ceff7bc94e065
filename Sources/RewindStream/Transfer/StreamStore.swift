public import RewindJournal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Sessions on a NATS JetStream server: pushes journals there frame by frame, lists
/// them, and reads them back (the header, the index, any frame) without reading whole
/// sessions. FORMAT.md, "Sessions on a NATS JetStream server", gives the layout.
///
/// A store holds one connection; it is not thread-safe.
public final class StreamStore {
  /// The server connected to.
  public let server: StreamServer
  let connection: NatsConnection
  /// How long a push retries a frame the server did not acknowledge (a cluster electing
  /// a new leader, a connection moving to another node), in milliseconds.
  public var retryMilliseconds: Int64 = 30_000
  /// Told of each try that failed and will be made again (a shipper says it as its last
  /// error while its round goes on).
  package var triedOnce: ((StreamError) -> Void)?
  /// Told of each key of a bucket a push is about to write (the tests write it meanwhile).
  package var beforeStoring: ((String) -> Void)?
  /// Asked after each write of a key of a bucket that the server acknowledged: an error
  /// returned stands for the acknowledgement lost on the way (the tests).
  package var losingAnswer: ((String) -> StreamError?)?
  /// The number of frame messages read so far (the tests count them).
  package private(set) var framesFetched = 0
  /// The number of index chunks read so far (the tests count them).
  package private(set) var indexChunksFetched = 0
  /// The number of times a push read the session again, another writer having changed its
  /// summary or index meanwhile (the tests count them).
  package private(set) var sessionsReadAgain = 0

  /// Whether this process can connect: it loads the NATS C client when it first does,
  /// which a statically linked executable cannot (the release `rewind` on Linux hands
  /// such command lines to `rewind-nats`, its dynamically linked twin).
  public static var connectsInProcess: Bool { NatsLibrary.isLoadable }

  /// Ends what the NATS C client still runs once every store is released, before the
  /// process exits: its threads may otherwise use OpenSSL while `exit` cleans it up, a
  /// crash after the command succeeded (`NatsLibrary.close(waitingAtMost:)`). Nothing
  /// when no store connected. Call it last, with every store released.
  /// - Returns: false when it waited `milliseconds` in vain (a store still connected).
  @discardableResult
  public static func closeClientLibrary(waitingAtMost milliseconds: Int64 = 5000) -> Bool {
    NatsLibrary.close(waitingAtMost: milliseconds)
  }

  /// Connects to `server`.
  /// - Throws: ``StreamError`` naming the server: no server answers, the credentials
  ///   are refused, TLS fails.
  public init(_ server: StreamServer) throws(StreamError) {
    self.server = server
    connection = try NatsConnection(server)
  }

  // MARK: Reading

  /// Every session on the server, by start time.
  /// - Throws: ``StreamError/Kind/streamMissing`` when nothing was ever pushed there.
  ///
  /// An entry of the sessions' bucket that is no session's summary (damaged, or put there
  /// by another program) is left out; ``sessions(unreadable:)`` says which.
  public func sessions() throws(StreamError) -> [SessionSummary] {
    var unreadable: [StreamError] = []
    return try sessions(unreadable: &unreadable)
  }

  /// ``sessions()``, with an error for each entry of the sessions' bucket left out in
  /// `unreadable`: one bad entry does not hide the others.
  ///
  /// A list that meets the server going away for a moment (a timeout, a lost connection:
  /// a cluster electing a leader) is made again, as ``summary(of:)`` looks a session up.
  public func sessions(unreadable: inout [StreamError]) throws(StreamError) -> [SessionSummary] {
    let (found, left) = try reading([.timeout, .noServer]) {
      () throws(StreamError) -> ([SessionSummary], [StreamError]) in
      try requireLayout()
      return try summaries(of: try connection.keys(bucket: StreamLayout.sessionsBucket))
    }
    unreadable += left
    return found.sorted {
      ($0.startTime, $0.session.description) < ($1.startTime, $1.session.description)
    }
  }

  /// The session whose id is `text`, or starts with it when one session's does.
  /// - Throws: ``StreamError/Kind/sessionMissing`` when none (or more than one, which the
  ///   error names) matches.
  ///
  /// A lookup that meets the server going away for a moment (a timeout, a lost
  /// connection) waits for it, as the reads after it do; a stream or a
  /// session that is not there is said at once.
  public func summary(of text: String) throws(StreamError) -> SessionSummary {
    guard !text.isEmpty else {
      throw StreamError(
        .sessionMissing, "no session id given (`rewind sessions` lists them)",
        server: server.displayURL)
    }
    return try reading([.timeout, .noServer]) { () throws(StreamError) in try lookUp(text) }
  }

  /// ``summary(of:)``, once.
  private func lookUp(_ text: String) throws(StreamError) -> SessionSummary {
    try requireLayout()
    let key = text.lowercased()
    if SessionID(parsing: key) != nil,
      let bytes = try connection.value(key: key, bucket: StreamLayout.sessionsBucket)
    {
      return try decodeSummary(bytes, key)
    }
    let matches = try connection.keys(bucket: StreamLayout.sessionsBucket).filter {
      $0.hasPrefix(key)
    }
    // The first two whose summary reads, and the damaged entries met before the second.
    let (found, damaged) = try summaries(of: matches, upTo: 2)
    if found.count == 1, damaged.isEmpty { return found[0] }
    // One damaged entry alone is said as it is.
    if found.isEmpty, damaged.count == 1 { throw damaged[0] }
    let problem: String
    switch (found.count, damaged.count) {
    case (0, 0): problem = "no such session on the server (`rewind sessions` lists them)"
    case (2, 0):
      problem =
        "more than one session starts with \(text) (\(Self.listing(matches))); give more of the id"
    default:
      // Entries `rewind sessions` leaves out: a user who copied the id from its list sees
      // one session (or none) there.
      let sessions =
        found.isEmpty ? "no session" : found.count == 1 ? "1 session" : "more than one session"
      let entries = damaged.count == 1 ? "1 damaged entry" : "\(damaged.count) damaged entries"
      problem =
        "\(sessions) and \(entries) (which `rewind sessions` leaves out) start with \(text); give more of the id"
    }
    throw StreamError(.sessionMissing, problem, server: server.displayURL, session: text)
  }

  /// The number of sessions an ambiguous beginning's error names (``listing(_:)``).
  static let sessionsNamed = 5

  /// The session ids `keys`, in order, as an ambiguous beginning's error names them: the
  /// first ``sessionsNamed``, and how many more (`a, b, c, d, e, and 3 more`), so that the
  /// user sees how much more of the id to give.
  private static func listing(_ keys: [String]) -> String {
    let sorted = keys.sorted()
    let named = sorted.prefix(sessionsNamed).joined(separator: ", ")
    return sorted.count > sessionsNamed
      ? "\(named), and \(sorted.count - sessionsNamed) more" : named
  }

  /// The summaries of the sessions' bucket's entries `keys`, in order, up to `limit` of
  /// them, and an error for each entry met that is no summary (damaged, or put there by
  /// another program); a key another program deleted is listed, its value reading as
  /// none, and is left out.
  private func summaries(of keys: [String], upTo limit: Int = .max) throws(StreamError) -> (
    found: [SessionSummary], damaged: [StreamError]
  ) {
    var found: [SessionSummary] = []
    var damaged: [StreamError] = []
    for key in keys where found.count < limit {
      guard let bytes = try connection.value(key: key, bucket: StreamLayout.sessionsBucket)
      else { continue }
      do throws(StreamError) {
        found.append(try decodeSummary(bytes, key))
      } catch {
        damaged.append(error)
      }
    }
    return (found, damaged)
  }

  /// The session's frames on the stream, in order, read from its index (one value of
  /// the index bucket per ``StreamLayout/indexChunkSize`` frames).
  /// - Throws: ``StreamError/Kind/invalidData`` for a value of the index that is missing
  ///   or damaged, saying that a push of the journal rebuilds it.
  public func frames(of summary: SessionSummary) throws(StreamError) -> [StreamFrame] {
    let (frames, damage, _) = try indexedFrames(of: summary)
    if var damage {
      damage.message += Self.indexRebuilt
      throw damage
    }
    return frames
  }

  /// What the error of a damaged or missing value of the index ends with: what to do.
  static let indexRebuilt =
    "; a push of the session's journal (a copy holding every frame the server has) rebuilds the index from the session's messages"

  /// The session's frames its index lists, up to the first value of the index that is
  /// missing or damaged (no entries, a count of bytes no entries make, fewer entries than
  /// its frames, or more than a value holds), and the error of that value, if any: a push
  /// holds the journal, and finds the frames after it on the session's subject. With them,
  /// the revision of each value read (by its chunk's number; a missing one's is 0), which a
  /// push writes the values it read over with.
  private func indexedFrames(of summary: SessionSummary) throws(StreamError) -> (
    frames: [StreamFrame], damage: StreamError?, revisions: [Int: UInt64]
  ) {
    let id = summary.session.description
    var revisions: [Int: UInt64] = [:]
    let (frames, problem) = try StreamFrame.indexed(frameCount: summary.frameCount) {
      chunk throws(StreamError) in
      indexChunksFetched += 1
      let value = try reading { () throws(StreamError) in
        try connection.entry(
          key: StreamLayout.indexKey(id, chunk: chunk), bucket: StreamLayout.indexBucket)
      }
      revisions[chunk] = value?.revision ?? 0
      return value?.value
    }
    let damage = problem.map {
      StreamError(.invalidData, $0, server: server.displayURL, session: id)
    }
    return (frames, damage, revisions)
  }

  /// The session's header message: the journal header as one metadata frame.
  public func headerFrame(of summary: SessionSummary) throws(StreamError) -> [UInt8] {
    try messageData(summary, summary.headerSequence, what: "the header")
  }

  /// The message of `frame`: its frame header then its data frame, as a journal holds
  /// them.
  public func frameBytes(_ frame: StreamFrame, of summary: SessionSummary) throws(StreamError)
    -> [UInt8]
  {
    try frameBytes(frame, number: nil, of: summary)
  }

  /// The message of `frame`, frame `number` of the session when given (which errors
  /// name).
  func frameBytes(_ frame: StreamFrame, number: Int?, of summary: SessionSummary)
    throws(StreamError) -> [UInt8]
  {
    framesFetched += 1
    let sequence = frame.streamSequence
    return try messageData(
      summary, sequence,
      what: number.map { "frame \($0) (stream sequence \(sequence))" }
        ?? "the frame at stream sequence \(sequence)")
  }

  /// The data of the session's message at `sequence`; every error names the session and
  /// `what` the message is.
  private func messageData(_ summary: SessionSummary, _ sequence: UInt64, what: String)
    throws(StreamError) -> [UInt8]
  {
    let id = summary.session.description
    let found: StoredMessage?
    do throws(StreamError) {
      found = try reading {
        () throws(StreamError) in
        try connection.message(StreamLayout.stream, sequence: sequence, what: what)
      }
    } catch {
      throw error.about(id)
    }
    guard let message = found else {
      throw StreamError(
        .invalidData, "\(what) is missing from the stream", server: server.displayURL, session: id)
    }
    guard message.subject == summary.subject else {
      throw StreamError(
        .invalidData, "\(what) is on \(message.subject), not on \(summary.subject)",
        server: server.displayURL, session: id)
    }
    return message.data
  }

  /// Every message on the session's subject, in order, read one after another (the
  /// whole session): their stream sequences and message ids, for checking that nothing
  /// is stored twice.
  package func storedMessages(of summary: SessionSummary) throws(StreamError) -> [(
    sequence: UInt64, id: String
  )] {
    var found: [(UInt64, String)] = []
    var next: UInt64 = 1
    while let message = try connection.nextMessage(
      StreamLayout.stream, subject: summary.subject, from: next)
    {
      found.append((message.sequence, message.headers["Nats-Msg-Id"] ?? ""))
      next = message.sequence + 1
    }
    return found
  }

  /// Writes the session `text` names as a journal at `destination`: its header and
  /// frames checked as they arrive, an index and trailer when the session is closed on
  /// the server (a session still being pushed is written as a journal not yet closed).
  /// - Returns: the session's summary.
  /// - Throws: ``StreamError``, or the `JournalError` of a frame that is not the next
  ///   one or of the file.
  public func pull(
    _ text: String, to destination: FileDestination, progress: (Int, Int) -> Void = { _, _ in }
  ) throws -> SessionSummary {
    let summary: SessionSummary
    let frames: [StreamFrame]
    do throws(StreamError) {
      summary = try self.summary(of: text)
      frames = try self.frames(of: summary)
    } catch {
      throw error.about(text)
    }
    let source = "\(server.displayURL)/\(summary.session)"
    let assembler = try JournalAssembler(
      destination, headerFrame: try headerFrame(of: summary), source: source)
    for (number, frame) in frames.enumerated() {
      progress(number, frames.count)
      try assembler.append(
        frame: try frameBytes(frame, number: number, of: summary), source: source)
    }
    try assembler.commit(closing: summary.isClosed)
    return summary
  }

  // MARK: Pushing

  /// The copies the server's stream of sessions keeps, as this store's last push found
  /// or made it (nil before one): ``StreamServer/replicas`` applies only to a stream a
  /// push creates, and an existing one keeps its own.
  public var streamReplicas: Int? { connection.streamReplicas }

  /// What a push did.
  public struct PushReport: Sendable, Equatable {
    public var summary: SessionSummary
    /// Frames the server had already: before this push (from an earlier one, maybe
    /// interrupted), or stored meanwhile by another push of the session, whose copies the
    /// server dropped as duplicates (by their message ids). With ``framesSent``, every
    /// frame of the journal.
    public var framesFound: Int
    /// Frames this push stored on the server.
    public var framesSent: Int
    /// Whether this push wrote again the session's index, which was damaged on the server
    /// (a value missing or no index), from the session's messages.
    public var rebuiltIndex = false
  }

  /// Ships the journal at `path`: its header and each frame the server does not have
  /// yet, in order, each with its message id and the sequence the session's last message
  /// must have; then its index and summary. Pushing again sends nothing twice: a push
  /// that was interrupted resumes after the last frame the server holds.
  ///
  /// Creates the stream and buckets when the server has none.
  /// - Throws: ``StreamError`` (the server holds another journal under the session's id,
  ///   a message too large, a lost connection); the `JournalError` of the file, said
  ///   before anything is sent (one that cannot be read, damaged, or with lost events).
  public func push(_ path: String, progress: (Int, Int) -> Void = { _, _ in }) throws
    -> PushReport
  {
    try push(checked: try Self.pushable(path), reopening: path, progress: progress)
  }

  /// The journal at `path`, opened, when it can be pushed: whole (no damage, every
  /// frame's checksums verified) and with no events lost to damage; checked before
  /// anything is sent, or before a server is connected to (`rewind push` asks it first,
  /// so that the file's problem is said of the file, not of a server).
  /// - Throws: the `JournalError` of the file: one that cannot be read, damaged, or with
  ///   lost events.
  public static func pushable(_ path: String) throws(JournalError) -> JournalReader {
    try pushable(path, checkingFrom: { _ in 0 })
  }

  /// ``pushable(_:)``, which checks the frames from the one `firstUnchecked` gives of the
  /// journal opened (the frames before were checked by an earlier push, and are the same).
  static func pushable(_ path: String, checkingFrom firstUnchecked: (JournalReader) -> Int)
    throws(JournalError) -> JournalReader
  {
    let reader = try JournalReader(path: path)
    let condition = reader.condition
    guard condition.damage.isEmpty, condition.headerDamage == nil,
      reader.frames.enumerated().allSatisfy({ $0.element.number == $0.offset })
    else {
      // The file's problem, said of the file: no server is asked.
      throw JournalError(
        .corruptFrame, "the journal is damaged; `rewind recover` it first, then push",
        path: path)
    }
    // Every frame reads whole (its checksums) before anything is sent or made on the server
    // (each is read again to be sent: cheap next to the network): a damaged one met part way
    // would leave there a session no push completes, deletes being denied.
    for number in firstUnchecked(reader)..<reader.frames.count {
      do throws(JournalError) {
        _ = try reader.frameBytes(number)
      } catch {
        var damage = error
        damage.message += "; `rewind recover` it first, then push"
        if damage.path == nil { damage.path = path }
        throw damage
      }
    }
    // Salvage's lost ranges stay after recovery: a session on the server holds every
    // event from the first, so recovering again would not help.
    guard condition.lostRanges.isEmpty else {
      let lost = condition.lostRanges.map(JournalError.describe).joined(separator: " and ")
      throw JournalError(
        .corruptFrame,
        "it lacks \(lost), lost to damage (salvaged away); a session on the server holds every event, so a journal with lost events cannot be pushed",
        path: path)
    }
    return reader
  }

  /// ``push(_:progress:)`` of a journal ``pushable(_:)`` opened and checked; `path`, when
  /// given, is opened again (and checked) if the push must read the session again, another
  /// writer having changed it meanwhile: the journal may have grown since.
  public func push(
    checked reader: JournalReader, reopening path: String? = nil,
    progress: (Int, Int) -> Void = { _, _ in }
  ) throws -> PushReport {
    try push(
      checked: reader, after: nil, progress: progress,
      reopen: path.map { path in { () throws -> JournalReader in try Self.pushable(path) } }
    ).report
  }

  /// What a push left of a journal on the server, as this store sent and read it: the
  /// next push of the same journal by the same store sends the frames after it, without
  /// reading back the session's summary, index and header (``push(_:after:)``).
  package struct PushPosition: Sendable {
    /// The journal's header frame, as the server holds it.
    let headerBytes: [UInt8]
    var summary: SessionSummary
    /// The session's frames on the server, which are the journal's first.
    var frames: [StreamFrame]
    /// The revisions of the summary and the index values this store last wrote.
    var revisions: ValueRevisions

    /// Whether `reader`'s journal is the one pushed and holds its frames, unchanged (its
    /// first frames, as the journal's index or frame headers list them).
    func continues(_ reader: JournalReader) -> Bool {
      reader.frames.count >= frames.count
        && (try? JournalAssembler.headerFrameWithCopies(reader.headerFrameBytes)) == headerBytes
        && zip(frames, reader.frames).allSatisfy {
          $0 == StreamFrame($1, streamSequence: $0.streamSequence)
        }
    }
  }

  /// ``push(_:progress:)`` that continues from `position`, what this store's last push of
  /// the journal at `path` left on the server (nil for a first push): the frames known to
  /// be there are not checked or read back again, and only the new ones are sent. A
  /// shipper's round is one such push: without the position, each round read the
  /// session's whole index back. Another writer of the session meanwhile is found as a
  /// push finds it (the subject's last message is not the one expected), and a journal
  /// that is not the one pushed (replaced, recovered) is pushed as a first time.
  /// - Returns: the push's report, and the position to continue from next.
  package func push(_ path: String, after position: PushPosition?) throws -> (
    report: PushReport, position: PushPosition
  ) {
    var continuing: PushPosition?
    let reader = try Self.pushable(path) { reader in
      // The frames pushed before were checked then: a journal only grows.
      guard let position, position.continues(reader) else { return 0 }
      continuing = position
      return position.frames.count
    }
    return try push(
      checked: reader, after: continuing, progress: { _, _ in },
      reopen: { () throws -> JournalReader in try Self.pushable(path) })
  }

  /// The revisions of a session's summary and index values (by chunk) as a push read or
  /// wrote them: each value is written only over the revision the push knows
  /// (``NatsConnection/put(_:key:bucket:replacing:)``), so that a push that read the session
  /// before another writer stored more of it (a shipper's round, while a push rebuilds the
  /// index) does not write over what the other wrote. 0 for a value the push found none of.
  struct ValueRevisions: Sendable {
    var summary: UInt64 = 0
    var chunks: [Int: UInt64] = [:]
  }

  /// How many times in a row a push reads the session again and goes on when another
  /// writer changed its summary or index meanwhile (``StreamError/Kind/changedMeanwhile``)
  /// and the session holds no more frames than when it was last read: a read that finds it
  /// grown (another push ahead of this one) does not count.
  static let readsAgain = 3

  /// Pushes `reader`'s journal, continuing from `position`; when another writer changed the
  /// session's summary or index meanwhile, reads the session again (the journal opened
  /// again by `reopen`, when given: it may have grown since) and goes on.
  private func push(
    checked reader: JournalReader, after position: PushPosition?, progress: (Int, Int) -> Void,
    reopen: (() throws -> JournalReader)? = nil
  ) throws -> (report: PushReport, position: PushPosition) {
    let id = reader.header.sessionID
    var reader = reader
    var position = position
    // Re-reads in a row that found the session no larger, and its frames at the last read.
    var stalled = 0
    var lastSeen = -1
    var seen = 0
    // The frames this push published (not found there): read again, the session holds
    // them, and the push's report still counts them as sent.
    var sent = Set<Int>()
    do {
      if position == nil {
        // Its first requests wait for a cluster electing a leader as the next ones do (the
        // stream does not answer until it has one): not tried again, a push started in an
        // election failed after one timeout, however long the new leader had been up.
        // A server without JetStream is said at once.
        try retrying([.timeout, .noServer]) { () throws(StreamError) in
          try connection.ensureStream(
            StreamLayout.stream, subjects: StreamLayout.subjects, create: true)
          try connection.ensureBucket(StreamLayout.sessionsBucket, create: true)
          try connection.ensureBucket(StreamLayout.indexBucket, create: true)
        }
      }
      while true {
        do {
          return try push(reader, after: position, sent: &sent, seen: &seen, progress: progress)
        } catch let error as StreamError {
          // Another writer changed the summary or the index after this push read them:
          // read them again (the frames this push sent are found on the subject).
          guard error.kind == .changedMeanwhile else { throw error }
          if seen > lastSeen { stalled = 0 }
          lastSeen = seen
          guard stalled < Self.readsAgain else {
            var failure = error
            failure.message +=
              "; read again \(Self.readsAgain) times in a row, the session had changed again each time, with no more frames: another writer is writing it; push again once it is done"
            throw failure
          }
          stalled += 1
          sessionsReadAgain += 1
          // Two pushes at the same point of the session, each writing over the other's
          // revision, part (20 to 100 ms).
          usleep(UInt32.random(in: 20_000...100_000))
          position = nil
          if let reopen {
            // The same journal, which may have grown: a file that holds another session
            // now (replaced meanwhile) is not pushed in its place.
            let reopened = try reopen()
            guard reopened.header.sessionID == id else {
              throw conflict(
                "the journal was replaced while it was pushed: it now holds session \(reopened.header.sessionID); push it again"
              )
            }
            reader = reopened
          }
        }
      }
    } catch let error as StreamError {
      throw error.about(id.description)
    }
  }

  private func push(
    _ reader: JournalReader, after position: PushPosition?, sent: inout Set<Int>,
    seen: inout Int, progress: (Int, Int) -> Void
  ) throws -> (report: PushReport, position: PushPosition) {
    let header = reader.header
    let id = header.sessionID
    let subject = StreamLayout.subject(domain: header.domain, session: id)
    // The header as the journal pulled back holds it: a 1.0 journal's says 1.1 (a pull
    // writes the header's copies), so that the pulled copy pushes as the same session. One
    // pushed before with the 1.0 header is the same session too (``sameHeader(_:_:)``).
    let headerBytes = try JournalAssembler.headerFrameWithCopies(reader.headerFrameBytes)
    var summary: SessionSummary
    var frames: [StreamFrame]
    var revisions = ValueRevisions()
    // The first frame whose index entry is rewritten, the index being damaged there.
    var reindexFrom: Int?
    if let position {
      summary = position.summary
      frames = position.frames
      revisions = position.revisions
    } else if let stored = try connection.entry(
      key: id.description, bucket: StreamLayout.sessionsBucket)
    {
      summary = try decodeSummary(stored.value, id.description)
      revisions.summary = stored.revision
      // A value of the index missing or damaged: the frames after the last one listed
      // are found on the subject (below), each checked against the journal, and the
      // index is written again from there.
      let indexed = try indexedFrames(of: summary)
      frames = indexed.frames
      revisions.chunks = indexed.revisions
      if indexed.damage != nil { reindexFrom = frames.count }
      guard try Self.sameHeader(try headerFrame(of: summary), headerBytes) else {
        throw conflict("the server holds another journal under this session's id")
      }
    } else {
      let headerSequence: UInt64
      if let first = try connection.nextMessage(StreamLayout.stream, subject: subject, from: 1) {
        // An earlier push stopped between the header and the summary.
        guard try Self.sameHeader(first.data, headerBytes) else {
          throw conflict("the server holds another journal under this session's id")
        }
        headerSequence = first.sequence
      } else {
        headerSequence = try publish(
          headerBytes, subject: subject, id: StreamLayout.headerMessageID(id),
          headers: [(StreamLayout.kindHeader, "header")], after: 0
        ).sequence
      }
      summary = SessionSummary(
        session: id, domain: header.domain, device: header.device, startTime: header.startTime,
        subject: subject, headerSequence: headerSequence, frameCount: 0, eventCount: 0,
        lastTime: 0, storedBytes: UInt64(headerBytes.count), isClosed: false)
      frames = []
    }
    seen = summary.frameCount
    if position == nil {
      // The values of the index this push may write that it did not read (past the
      // summary's frames: left by a push interrupted before its summary, or none), read
      // now, before any frame is sent, so that one another writer stores meanwhile is not
      // written over.
      let size = StreamLayout.indexChunkSize
      for chunk in 0..<((reader.frames.count + size - 1) / size)
      where revisions.chunks[chunk] == nil {
        indexChunksFetched += 1
        revisions.chunks[chunk] =
          try reading { () throws(StreamError) in
            try connection.entry(
              key: StreamLayout.indexKey(id.description, chunk: chunk),
              bucket: StreamLayout.indexBucket)
          }?.revision ?? 0
      }
    }
    // Frames published after the index was last written (a push interrupted between the
    // two), found on the subject after the last indexed one; none after this store's
    // last push (a frame another writer published meanwhile fails the next publish).
    var last = frames.last?.streamSequence ?? summary.headerSequence
    while position == nil,
      let message = try connection.nextMessage(
        StreamLayout.stream, subject: subject, from: last + 1)
    {
      let number = frames.count
      // Another program's message on the session's subject, with neither of a frame's
      // headers (readers pass it by, as the index does): named, not taken for a longer
      // copy of the journal.
      guard
        message.headers[StreamLayout.kindHeader] == "frame"
          || message.headers[StreamLayout.frameHeader] != nil
      else {
        throw StreamError(
          .invalidData,
          "the message at sequence \(message.sequence) of the stream \(StreamLayout.stream), on the session's subject, is no frame of Rewind's (another program published it): delete it (nats stream rmm \(StreamLayout.stream) \(message.sequence)) and push again; nothing was sent",
          server: server.displayURL)
      }
      guard number < reader.frames.count else { throw holdsMore(reader, sent: sent.count) }
      guard message.data == (try reader.frameBytes(number)) else {
        throw conflict("the server holds frames this journal does not have (frame \(number))")
      }
      frames.append(StreamFrame(reader.frames[number], streamSequence: message.sequence))
      last = message.sequence
    }
    guard
      zip(frames, reader.frames).allSatisfy({
        $0 == StreamFrame($1, streamSequence: $0.streamSequence)
      })
    else {
      throw conflict("the server holds frames this journal does not have")
    }
    guard frames.count <= reader.frames.count else { throw holdsMore(reader, sent: sent.count) }
    // The session's messages, walked past a damaged index, are fewer than the summary
    // counts: what the index lacks is not on the server, and nothing is written.
    if reindexFrom != nil, frames.count < summary.frameCount {
      throw StreamError(
        .invalidData,
        "its summary counts \(Journal.count(UInt64(summary.frameCount), "frame")), its messages hold \(frames.count), and its index is damaged: the server lost messages of the session, which a push cannot restore",
        server: server.displayURL)
    }
    let found = frames.count
    // The session closed on the server, with every frame of this journal indexed: a copy
    // that adds nothing to it (taken before the journal was closed, pushed after it) leaves
    // it closed. Frames a killed push left past the index are new: the session goes on.
    let closedWithEveryFrame = summary.isClosed && summary.frameCount == reader.frames.count
    let journalIsClosed = reader.condition.isClosed && reader.condition.tornTail == nil
    if frames.count > summary.frameCount || reindexFrom != nil {
      try record(
        &summary, frames, from: min(reindexFrom ?? summary.frameCount, summary.frameCount),
        headerSize: headerBytes.count, revisions: &revisions, journalIsClosed: journalIsClosed,
        journalFrames: reader.frames.count)
    }
    let closed = journalIsClosed || closedWithEveryFrame
    if frames.count < reader.frames.count, summary.isClosed {
      // A closed journal continued since it was pushed: the summary says so before the
      // first frame is sent, and says closed again when the push ends (if it is).
      summary.isClosed = false
      summary.isIncomplete = journalIsClosed
      try put(summary, revision: &revisions.summary)
    }
    // The index is written as each value of it fills, and at the end: a value written
    // again after each frame made a push of many frames send 6 KiB more a frame on
    // average (a shipper's round of one frame still writes its value once). A push
    // interrupted between frames and the index leaves frames the next one finds (above).
    let chunk = StreamLayout.indexChunkSize
    var firstUnindexed = frames.count
    for number in frames.count..<reader.frames.count {
      progress(number, reader.frames.count)
      let bytes = try reader.frameBytes(number)
      let info = reader.frames[number]
      let (sequence, alreadyThere) = try publish(
        bytes, subject: subject, id: StreamLayout.frameMessageID(id, number),
        headers: [
          (StreamLayout.kindHeader, "frame"), (StreamLayout.frameHeader, "\(number)"),
          (StreamLayout.eventsHeader, "\(info.firstSequence)-\(info.lastSequence)"),
        ], after: last, frame: number)
      if !alreadyThere { sent.insert(number) }
      frames.append(StreamFrame(info, streamSequence: sequence))
      last = sequence
      if frames.count % chunk == 0 {
        try record(
          &summary, frames, from: firstUnindexed, headerSize: headerBytes.count,
          revisions: &revisions, journalIsClosed: journalIsClosed,
          journalFrames: reader.frames.count)
        firstUnindexed = frames.count
      }
    }
    if firstUnindexed < frames.count {
      try record(
        &summary, frames, from: firstUnindexed, headerSize: headerBytes.count,
        revisions: &revisions, journalIsClosed: journalIsClosed, journalFrames: reader.frames.count)
    }
    if closed != summary.isClosed || summary.isIncomplete || frames.isEmpty && found == 0 {
      summary.isClosed = closed
      summary.isIncomplete = false
      try put(summary, revision: &revisions.summary)
    }
    return (
      PushReport(
        summary: summary, framesFound: frames.count - sent.count, framesSent: sent.count,
        rebuiltIndex: reindexFrom != nil),
      PushPosition(
        headerBytes: headerBytes, summary: summary, frames: frames, revisions: revisions)
    )
  }

  /// Whether the header frame `stored` on the server is the journal's, `pushed` (as a
  /// push sends it): equal, or once a format-1.0 header is read as 1.1 (a session pushed
  /// with its 1.0 header, before a push sent it as 1.1, and a copy of it pulled back).
  private static func sameHeader(_ stored: [UInt8], _ pushed: [UInt8]) throws -> Bool {
    if stored == pushed { return true }
    guard let upgraded = try? JournalAssembler.headerFrameWithCopies(stored) else { return false }
    return upgraded == pushed
  }

  /// Writes the index chunks holding frames `from…` and the summary, each over the
  /// revision `revisions` holds of it (set to the one written).
  private func record(
    _ summary: inout SessionSummary, _ frames: [StreamFrame], from first: Int, headerSize: Int,
    revisions: inout ValueRevisions, journalIsClosed: Bool, journalFrames: Int
  ) throws(StreamError) {
    let id = summary.session.description
    let size = StreamLayout.indexChunkSize
    for chunk in (first / size)...((frames.count - 1) / size) {
      let slice = frames[(chunk * size)..<min(frames.count, (chunk + 1) * size)]
      try store(
        StreamFrame.encode(slice), key: StreamLayout.indexKey(id, chunk: chunk),
        bucket: StreamLayout.indexBucket, revision: &revisions.chunks[chunk, default: 0])
    }
    summary.frameCount = frames.count
    summary.eventCount = frames.last?.lastSequence ?? 0
    summary.lastTime = frames.last?.lastTime ?? 0
    summary.storedBytes = frames.reduce(UInt64(headerSize)) { $0 + UInt64($1.size) }
    // Listed from its first index, a closed journal's session is said incomplete until
    // every frame is there (a push cut short is not taken for a recording that stopped).
    summary.isIncomplete = journalIsClosed && !summary.isClosed && frames.count < journalFrames
    try put(summary, revision: &revisions.summary)
  }

  /// Writes `summary` into the sessions' bucket over `revision` (set to the one written).
  private func put(_ summary: SessionSummary, revision: inout UInt64) throws(StreamError) {
    try store(
      summary.encoded(), key: summary.session.description, bucket: StreamLayout.sessionsBucket,
      revision: &revision)
  }

  /// Writes `value` under `key` over `revision`, the one this push read or wrote last (set
  /// to the one written), tried again as the push's other steps are. A try that went
  /// unanswered may have stored it: the next finds the key changed, and then the value
  /// there, if it is this one, is taken for this push's.
  /// - Throws: ``StreamError/Kind/changedMeanwhile`` when another writer changed the key.
  private func store(_ value: [UInt8], key: String, bucket: String, revision: inout UInt64)
    throws(StreamError)
  {
    beforeStoring?(key)
    var unanswered = false
    var written = revision
    try retrying { () throws(StreamError) in
      do throws(StreamError) {
        let stored = try connection.put(value, key: key, bucket: bucket, replacing: written)
        if let lost = losingAnswer?(key) { throw lost }
        written = stored
      } catch {
        if error.kind == .timeout || error.kind == .noServer { unanswered = true }
        guard error.kind == .changedMeanwhile, unanswered else { throw error }
        // (A failure to read it is said as itself, not as another writer's change.)
        guard let stored = try connection.entry(key: key, bucket: bucket), stored.value == value
        else { throw error }
        written = stored.revision
      }
    }
    revision = written
  }

  /// Publishes one message of a session after the subject's message `last`; a message
  /// the server did not acknowledge (a timeout, a lost connection, a new leader) is sent
  /// again, and one it stored meanwhile is found on the subject instead.
  /// - Returns: the message's stream sequence, and whether another writer of the session
  ///   had stored it (the server took this one for a duplicate, or refused it, on the
  ///   first try or after tries that could not have stored it): a frame already there,
  ///   which this push did not send. One found after a try that went unanswered (this
  ///   writer's, most likely, its acknowledgement lost) is this push's.
  private func publish(
    _ bytes: [UInt8], subject: String, id: String, headers: [(String, String)], after last: UInt64,
    frame: Int? = nil
  ) throws(StreamError) -> (sequence: UInt64, alreadyThere: Bool) {
    let deadline = Self.now() + retryMilliseconds
    var noLeader = false
    // Whether a try went unanswered (a timeout, a lost connection): the server may have
    // stored it.
    var mayHaveStored = false
    while true {
      do throws(StreamError) {
        let (sequence, duplicate) = try connection.publish(
          bytes, subject: subject, id: id, headers: headers, expectedLastSubjectSequence: last)
        guard duplicate else { return (sequence, false) }
        // The server had a message of this id (in its deduplication window, which it checks
        // before the subject's last sequence): this writer's, whose acknowledgement was
        // lost, or another writer's of the same session, which may hold other bytes.
        let stored = try connection.message(StreamLayout.stream, sequence: sequence)
        guard let stored, stored.subject == subject, stored.data == bytes,
          stored.headers[StreamLayout.frameHeader].flatMap({ Int($0) }) == frame
        else {
          throw StreamError(
            .conflict,
            "another writer stored \(frame.map { "frame \($0)" } ?? "the header") of the session meanwhile, with other bytes",
            server: server.displayURL)
        }
        return (sequence, !mayHaveStored)
      } catch {
        guard [.timeout, .noServer, .conflict, .streamMissing].contains(error.kind) else {
          throw error
        }
        noLeader = noLeader || error.noLeader
        if error.kind == .timeout || error.kind == .noServer { mayHaveStored = true }
        // Stored although unacknowledged? (Not asked while the connection is lost.)
        if error.kind != .noServer,
          let stored = try? connection.lastMessage(StreamLayout.stream, subject: subject),
          stored.sequence > last
        {
          let number = stored.headers[StreamLayout.frameHeader].flatMap { Int($0) }
          if stored.data == bytes, number == frame { return (stored.sequence, !mayHaveStored) }
          throw error.kind == .conflict
            ? error
            : StreamError(
              .conflict, "another writer appended to the session meanwhile",
              server: server.displayURL)
        }
        guard error.kind != .conflict else { throw error }
        // A frame unacknowledged on a slow link is no election: the server is not asked.
        guard Self.now() < deadline else {
          var failure = triedAgain(error, noLeaderMet: noLeader, askingServer: false)
          if failure.kind == .timeout, !failure.noLeader {
            // Each try sends the whole message again: a timeout shorter than its upload
            // never gets it through, and "no answer" alone points at the server.
            failure.message +=
              "; on a slow link, a longer --timeout may get it through: each try sends the whole message (\(bytes.count) bytes) again, and must be acknowledged within the timeout"
          }
          throw failure
        }
        triedOnce?(error)
        usleep(200_000)
      }
    }
  }

  /// Runs `body` until it succeeds or fails otherwise than by one of `kinds` (a timeout,
  /// a lost connection, no responder while a cluster elects a leader), for up to
  /// ``retryMilliseconds``.
  private func retrying(
    _ kinds: Set<StreamError.Kind> = [.timeout, .noServer, .streamMissing],
    _ body: () throws(StreamError) -> Void
  ) throws(StreamError) {
    let deadline = Self.now() + retryMilliseconds
    var noLeader = false
    while true {
      do throws(StreamError) {
        return try body()
      } catch {
        guard kinds.contains(error.kind) else { throw error }
        noLeader = noLeader || error.noLeader
        guard Self.now() < deadline else { throw triedAgain(error, noLeaderMet: noLeader) }
        triedOnce?(error)
        usleep(200_000)
      }
    }
  }

  /// Runs `body`, a read of a session (its summary, index, header and frames), again as
  /// ``retrying(_:_:)`` runs a push's steps, when it fails by one of `kinds`: a server
  /// restarted, or a cluster electing a leader, part way through a long read or `pull` is
  /// waited for, up to ``retryMilliseconds``, as a push waits.
  private func reading<T>(
    _ kinds: Set<StreamError.Kind> = [.timeout, .noServer, .streamMissing],
    _ body: () throws(StreamError) -> T
  ) throws(StreamError) -> T {
    var result: T?
    try retrying(kinds) { () throws(StreamError) in result = try body() }
    // `retrying` returns only once `body` has.
    return result!
  }

  /// `error`, of the last of the tries ``retryMilliseconds`` allowed, saying they were
  /// made: its own message says only how long the last one waited. A timeout says, too,
  /// that the stream had no leader (a cluster electing one) when a try was told so, or
  /// when the server answers now (``NatsConnection/serverAnswers()``) where the stream
  /// did not: "no answer" alone sent users looking for a server that was up.
  private func triedAgain(
    _ error: StreamError, noLeaderMet: Bool, askingServer: Bool = true
  ) -> StreamError {
    var copy = error
    let time = retryMilliseconds
    copy.message += ", tried again for " + (time % 1000 == 0 ? "\(time / 1000) s" : "\(time) ms")
    if copy.kind == .timeout, !copy.noLeader,
      noLeaderMet || askingServer && connection.serverAnswers()
    {
      copy.message +=
        "; the stream had no leader (an election: the server answered, the stream did not)"
      copy.noLeader = true
    }
    return copy
  }

  /// The name of the server leading the stream of sessions now (nil on one server).
  package func streamLeader() throws(StreamError) -> String? {
    try connection.leader(of: StreamLayout.stream)
  }

  private static func now() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
  }

  /// The error of a journal whose frames the server holds, and more after them: a shorter
  /// copy of the journal pushed, such as a recovery's `NAME.damaged` or a copy made while
  /// it was recorded. `sent`: the frames this push published before it found that (a
  /// longer copy pushed meanwhile).
  private func holdsMore(_ reader: JournalReader, sent: Int) -> StreamError {
    let frames = Journal.count(UInt64(reader.frames.count), "frame")
    let what =
      sent == 0
      ? "nothing was sent"
      : "this push sent \(Journal.count(UInt64(sent), "frame")) of it before another writer stored more"
    return conflict(
      "the server holds more of this session than this journal has (its \(frames), then more): it was pushed from a longer copy of the journal; \(what)"
    )
  }

  private func conflict(_ message: String) -> StreamError {
    StreamError(.conflict, message, server: server.displayURL)
  }

  private func requireLayout() throws(StreamError) {
    try connection.ensureStream(StreamLayout.stream, subjects: StreamLayout.subjects, create: false)
    try connection.ensureBucket(StreamLayout.sessionsBucket, create: false)
    try connection.ensureBucket(StreamLayout.indexBucket, create: false)
  }

  private func decodeSummary(_ bytes: [UInt8], _ key: String) throws(StreamError) -> SessionSummary
  {
    do throws(CodecError) {
      return try SessionSummary.decode(bytes)
    } catch {
      throw StreamError(
        .invalidData, "its summary is damaged: \(error.message)", server: server.displayURL,
        session: key)
    }
  }
}
