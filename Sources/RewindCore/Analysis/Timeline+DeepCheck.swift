public import RewindJournal

/// What the deep check of a journal found: whether its domain can read it, every event
/// decodes, every snapshot decodes and matches its hash and the state replayed up to it.
///
/// The storage check (`Journal.verify`) knows bytes and checksums only; this one reads
/// the content with the journal's domain, as every command will.
public struct DeepCheckReport: Sendable {
  public var path: String
  /// The problems found, in file order, of the kinds `domain`, `event` and `snapshot`
  /// (`VerificationProblem.Kind`).
  public var problems: [VerificationProblem]
  /// Whether the events and snapshots were read: false when the header's domain is
  /// unknown, its schema version unreadable or its settings invalid (one problem says
  /// which).
  public var contentChecked: Bool
  /// The events decoded.
  public var eventsDecoded: UInt64 = 0
  /// The snapshots read (hashed and decoded).
  public var snapshotsChecked = 0
  /// The snapshots found to match the state replayed up to them (those after events that
  /// cannot be decoded or were lost cannot be compared: they are checked on their own and
  /// replay goes on from them).
  public var snapshotsCompared = 0
  /// The snapshots found whole (hashed and decoded) where replay did not know the state,
  /// after events lost or not decoded: replay started again from them.
  public var snapshotsRestartingReplay = 0
  /// What salvage must do with the frames whose content is wrong, by the frame's byte
  /// offset.
  package var repairs: [UInt64: ContentRepair] = [:]
  /// The frames whose content is wrong that salvage must keep as they are (each with
  /// why, in file order): whole frames (their checksums verify) holding events or
  /// snapshots that the domain's decoding does not read, or events whose run starts at
  /// such an event. Their bytes are as they were written: no damage, and no reason to
  /// mark their events lost.
  package var kept: [VerificationProblem] = []

  /// No problem found.
  public var isClean: Bool { problems.isEmpty }

  package init(path: String, problems: [VerificationProblem] = [], contentChecked: Bool) {
    self.path = path
    self.problems = problems
    self.contentChecked = contentChecked
  }
}

/// The deep check of a journal whose domain is read from its header.
public enum DeepCheck {
  /// Checks the content of the journal `reader` opened: its header against the domains
  /// this program knows (the domain, its schema version, its settings), then, when one
  /// of them reads it, every event and snapshot (``Timeline/deepCheck(progress:)``).
  ///
  /// - Parameters:
  ///   - reader: the journal, opened with salvage so that damaged frames are stepped over
  ///     (the storage check reports them).
  ///   - domains: the domains this program knows.
  ///   - progress: called after each frame with the frames done and the total.
  /// - Complexity: a full replay: every frame decompressed, every event decoded and
  ///   reduced, every snapshot decoded and compared.
  public static func check(
    _ reader: JournalReader, domains: [any Domain.Type],
    progress: (Int, Int) -> Void = { _, _ in }
  ) -> DeepCheckReport {
    let header = reader.header
    guard let type = domains.first(where: { $0.identifier == header.domain }) else {
      let known = domains.map { "'\($0.identifier)'" }.joined(separator: ", ")
      return headerProblem(
        reader,
        "the journal records the '\(header.domain)' domain, which this rewind does not know (it knows \(known)): no command of this build can read it"
      )
    }
    return check(type, reader, progress: progress)
  }

  private static func check<D: Domain>(
    _ type: D.Type, _ reader: JournalReader, progress: (Int, Int) -> Void
  ) -> DeepCheckReport {
    do throws(RewindError) {
      _ = try Timeline<D>.domain(of: reader.header)
    } catch {
      return headerProblem(reader, "\(error); no command of this build can read it")
    }
    do {
      return try Timeline<D>(reader: reader).deepCheck(progress: progress)
    } catch {
      return headerProblem(reader, "\(error)")
    }
  }

  /// The report of a journal whose header no domain of this program reads.
  static func headerProblem(_ reader: JournalReader, _ message: String) -> DeepCheckReport {
    let last = reader.lastSequence
    return DeepCheckReport(
      path: reader.path,
      problems: [
        VerificationProblem(
          kind: .domain, offset: reader.condition.headerDamage?.copyOffset ?? 0,
          sequences: last > 0 ? 1...last : nil, message: message)
      ], contentChecked: false)
  }
}

extension Timeline {
  /// Reads the whole journal with its domain and reports every event that does not
  /// decode and every snapshot that does not match its stored hash, does not decode, or
  /// differs from the state replayed up to it (as `check` compares them, without its
  /// expectations and without comparing events' recorded effects).
  ///
  /// Each problem names its frame, its events and the frame header's byte offset. After
  /// an event that cannot be decoded, the rest of its run cannot be read (events are
  /// encoded relative to the ones before them in their run); reading goes on at the next
  /// snapshot, from its state, as it does after lost events. A snapshot that is wrong
  /// where the replayed state is known is repaired by salvage with that state; one where
  /// it is not known (after undecodable or lost events) cannot be, and its frame is
  /// dropped, as is a frame holding an event whose recorded effect does not read.
  ///
  /// An event that the domain's decoding does not read, in a frame whose checksums
  /// verify, is not damage: its bytes are as they were written, and for a journal of an
  /// older schema it is the domain's upcast of that schema that does not read them. Its
  /// problem says so and what to do, and salvage keeps its frame as it is
  /// (`DeepCheckReport.kept`), with the frames its run continues into, as it keeps one
  /// whose snapshot the domain does not decode though its bytes hash right.
  ///
  /// Frames that cannot be read at all (their checksums fail) are stepped over: the
  /// storage check reports them.
  ///
  /// - Parameter progress: called after each frame with the frames done and the total.
  /// - Returns: the problems found and what salvage must do about each frame concerned.
  /// - Complexity: O(events): every frame decompressed, every event decoded and reduced,
  ///   every snapshot decoded and hashed.
  public func deepCheck(progress: (Int, Int) -> Void = { _, _ in }) -> DeepCheckReport {
    var run = DeepCheckRun(self)
    let frames = reader.frames
    for index in frames.indices {
      deepCheckFrame(frames[index], try? reader.loadFrame(index), &run)
      progress(index + 1, frames.count)
    }
    return run.report
  }

  /// The deep check of one frame, the next of `run`: `frame` is its decompressed view,
  /// nil when it cannot be loaded (the storage check reports it).
  ///
  /// - Returns: the number of the frame's records when its walk found them as the
  ///   storage check's `Journal.intactRecords(of:)` requires (every record read from the
  ///   first with `RecordCursor`'s checks to the end the header says, each snapshot of
  ///   the frame where it points), so that the storage check need not walk them again;
  ///   nil otherwise.
  @discardableResult
  func deepCheckFrame(_ info: FrameInfo, _ frame: FrameView?, _ run: inout DeepCheckRun<D>)
    -> UInt64?
  {
    defer { run.position = info.lastSequence }
    if info.firstSequence != run.position + 1 {
      run.state = nil
      run.context = nil
      run.undecodedRunStart = nil
    }
    guard let frame else {
      run.state = nil
      run.context = nil
      run.undecodedRunStart = nil
      return nil
    }
    var check = FrameContentCheck(info: info)
    var snapshots = frame.snapshots[...]
    var cursor = frame.records()
    // Whether the records and snapshots are what the storage check requires, so far.
    var intact = true
    while true {
      let next = cursor.sequence
      while let stored = snapshots.first, stored.snapshot.sequence < next {
        snapshots.removeFirst()
        // A snapshot out of place breaks a rule of the format: the storage check says so.
        guard stored.snapshot.sequence + 1 == next else {
          intact = false
          continue
        }
        if Int(exactly: stored.recordOffset) != cursor.offset
          || (cursor.offset != 0 && stored.time != cursor.time)
        {
          intact = false
        }
        run.report.snapshotsChecked += 1
        let comparison =
          run.state.map { compare(stored.snapshot, with: $0, encoded: &run.encoded) }
          ?? examine(stored.snapshot)
        if let problem = comparison.problem {
          var found = check.snapshotProblem(stored.snapshot.sequence, problem)
          let differsUpcast = problem == .differs ? upcast.map(Self.differingUpcastNote) : nil
          if let differsUpcast { found.message += "; \(differsUpcast)" }
          run.report.problems.append(found)
          if case .undecodable(let why) = problem, upcast != nil || run.state == nil {
            // Its bytes hash right: the domain's decoding does not read them, which is
            // no damage, and no reason to drop the frame's events.
            check.keep(
              "the snapshot after event \(stored.snapshot.sequence) cannot be decoded \(decodedAs) (\(why)), though its bytes match its stored state hash, so this is not damage: the domain's \(stateDecoding) does not read it, and replay does not use it"
            )
          } else if let differsUpcast {
            // Its bytes are as written, and the events' too: the upcast of the journal's
            // schema (or the reducer) replays another state than the recording's. The
            // code is the suspect, not the file: dropping the frame would lose intact
            // events, and its state cannot be written in the older schema.
            check.keep(
              "the snapshot after event \(stored.snapshot.sequence) differs from the state replayed up to it; \(differsUpcast)"
            )
          } else if let state = run.state {
            check.replace(stored.snapshot.sequence, with: state, domain: domain, upcast: upcast)
          } else {
            check.drop(
              "the snapshot after event \(stored.snapshot.sequence) \(problem), and replay cannot tell the right state"
            )
          }
        } else if run.state == nil {
          run.state = comparison.storedState
          if run.report.snapshotsRestartingReplay == 0, run.report.eventsDecoded == 0,
            run.report.problems.isEmpty
          {
            // A part of a parallel check starts here (``DeepCheckRun/start``).
            run.start = (stored.snapshot, run.state)
          }
          run.report.snapshotsRestartingReplay += 1
        } else {
          run.report.snapshotsCompared += 1
        }
        run.context = domain.makeEventCodecContext()
        run.undecodedRunStart = nil
      }
      if var known = run.state, var codec = run.context {
        // The hot path: decode and reduce the run of records up to the next snapshot
        // in the domain's specialised loop.
        run.state = nil
        let limit = snapshots.first.map(\.snapshot.sequence) ?? info.lastSequence
        let decoded = D.scans.decodeRun(domain, &cursor, limit, &known, &codec)
        run.report.eventsDecoded &+= decoded.decoded
        if decoded.malformed {
          // Malformed records are the storage check's to report.
          run.context = nil
          run.undecodedRunStart = nil
          intact = false
          break
        }
        if let failure = decoded.failure {
          eventProblem(failure.sequence, runEnd: limit, failure.error, in: frame, &check, &run)
          continue
        }
        run.state = known
        run.context = codec
        if decoded.exhausted { break }
        continue
      }
      let record: Record
      do throws(JournalError) {
        guard let next = try cursor.next() else { break }
        record = next
      } catch {
        // Malformed records are the storage check's to report.
        run.state = nil
        run.context = nil
        run.undecodedRunStart = nil
        intact = false
        break
      }
      guard var codec = run.context else {
        check.unreadable(record.sequence, runStart: run.undecodedRunStart)
        continue
      }
      do throws(CodecError) {
        let (_, event) = try Replayer<D>.decode(record.payload, domain: domain, context: &codec)
        run.context = codec
        run.report.eventsDecoded += 1
        if run.state != nil { _ = domain.reduce(&run.state!, event) }
      } catch {
        let runEnd = snapshots.first.map(\.snapshot.sequence) ?? info.lastSequence
        eventProblem(record.sequence, runEnd: runEnd, error, in: frame, &check, &run)
        run.state = nil
      }
    }
    if let problem = check.unreadableProblem() { run.report.problems.append(problem) }
    if let repair = check.repair { run.report.repairs[info.offset] = repair }
    if let reason = check.keptReason {
      run.report.kept.append(
        VerificationProblem(
          kind: .event, frame: info.number, offset: info.offset, sequences: info.sequenceRange,
          message: reason))
    }
    // The walk ended where the header says (`RecordCursor` checks it) unless it broke off.
    guard intact, snapshots.isEmpty else { return nil }
    return frame.info.lastSequence &+ 1 &- frame.info.firstSequence
  }
}

extension Timeline {
  /// Reports event `sequence` of `frame`, which does not decode (`error`), and the rest
  /// of its run, up to event `runEnd`, which cannot be read after it; the run's codec
  /// memory is gone until the next snapshot. Whether salvage keeps the frame or drops
  /// it depends on which part of the record does not read: the domain's event
  /// (``domainDoesNotRead(_:in:)``) is no damage.
  private func eventProblem(
    _ sequence: UInt64, runEnd: UInt64, _ error: CodecError, in frame: FrameView,
    _ check: inout FrameContentCheck, _ run: inout DeepCheckRun<D>
  ) {
    let domainFails = Self.domainDoesNotRead(sequence, in: frame)
    run.report.problems.append(
      check.eventProblem(
        sequence, runEnd: runEnd, error,
        domain: domainFails ? (decodedAs, undecodableEventNote) : nil))
    run.context = nil
    run.undecodedRunStart = domainFails ? sequence : nil
  }
}

/// Where the deep check of a journal (or of a part of one) is between two frames: what
/// replay knows before the next event, and the report so far.
struct DeepCheckRun<D: Domain> {
  var report: DeepCheckReport
  /// The state (nil after events that cannot be decoded or were lost, until a snapshot
  /// restarts it).
  var state: D.State?
  /// The codec's memory of the run (nil after an event that cannot be decoded, until the
  /// next run).
  var context: D.EventCodecContext?
  /// The event that the domain's decoding does not read, when the run that cannot be
  /// read since (``context`` nil) starts there; nil when it broke otherwise (events
  /// lost, damage, a recorded effect that does not read) or is read.
  var undecodedRunStart: UInt64?
  /// The last event of the frame before.
  var position: UInt64
  /// Scratch space for the replayed states' encodings.
  var encoded = ByteWriter(capacity: 256)
  /// The snapshot that replay started from when the run started without a state (a part
  /// of a parallel check: `Timeline.deepVerifyInParts(jobs:progress:)`), before any
  /// event or problem, and its state.
  var start: (snapshot: Snapshot, state: D.State?)?

  /// The run of a whole journal: from the initial state, before the first event.
  init(_ timeline: Timeline<D>) {
    report = DeepCheckReport(path: timeline.path, contentChecked: true)
    state = timeline.domain.initialState
    context = timeline.domain.makeEventCodecContext()
    position = 0
  }

  /// The run of a part of a journal that starts after event `position`, where replay
  /// does not know the state yet (a snapshot must start it).
  init(_ timeline: Timeline<D>, partAfter position: UInt64) {
    report = DeepCheckReport(path: timeline.path, contentChecked: true)
    state = nil
    context = nil
    self.position = position
  }
}

/// What the deep check found in one frame, and what salvage must do with it.
private struct FrameContentCheck {
  let info: FrameInfo
  private var dropReason: String?
  /// Why salvage must keep the frame as it is, though its content is wrong: the
  /// domain's decoding does not read some of it. It wins over a reason to drop it.
  private(set) var keptReason: String?
  private var replaced: [UInt64: Snapshot] = [:]
  /// The events of this frame that could not be read because their run broke in an
  /// earlier frame.
  private var unreadableEvents: ClosedRange<UInt64>?
  /// The event, of an earlier frame, that the domain's decoding does not read and that
  /// starts the run of ``unreadableEvents``; nil when the run broke otherwise.
  private var unreadableRunStart: UInt64?
  /// Whether an event of this frame failed to decode.
  private var hasEventProblem = false

  init(info: FrameInfo) { self.info = info }

  /// What salvage must do with the frame; nil to keep it as it is.
  var repair: ContentRepair? {
    if let dropReason, keptReason == nil { return .drop(reason: dropReason) }
    return replaced.isEmpty ? nil : .replaceSnapshots(replaced)
  }

  mutating func drop(_ reason: String) {
    if dropReason == nil { dropReason = reason }
  }

  /// Salvage must not drop the frame: `reason` says why (the first one given).
  mutating func keep(_ reason: String) {
    if keptReason == nil { keptReason = reason }
  }

  /// Repairs the snapshot after event `sequence` with the replayed `state`; a journal of
  /// an older schema, whose states this build cannot write in that schema, drops the
  /// frame instead.
  mutating func replace<D: Domain>(
    _ sequence: UInt64, with state: D.State, domain: D, upcast: SchemaUpcast?
  ) {
    guard upcast == nil else {
      drop(
        "the snapshot after event \(sequence) is wrong, and this rewind cannot write a state of the journal's older schema"
      )
      return
    }
    var writer = ByteWriter(capacity: 256)
    domain.encode(state, into: &writer)
    let bytes = writer.bytes
    replaced[sequence] = Snapshot(sequence: sequence, stateHash: XXH64.hash(bytes), state: bytes)
  }

  func snapshotProblem(_ sequence: UInt64, _ problem: SnapshotProblem) -> VerificationProblem {
    VerificationProblem(
      kind: .snapshot, frame: info.number, offset: info.offset, sequences: info.sequenceRange,
      message: "the snapshot after event \(sequence) \(problem)")
  }

  /// The problem of event `sequence`, which does not decode (`error`), and of the rest
  /// of its run, up to event `runEnd`.
  /// - Parameter domain: when the domain's decoding is what does not read the event, how
  ///   it is decoded (``Timeline/decodedAs``) and what that is and what to do
  ///   (``Timeline/undecodableEventNote``): the frame is then kept, not dropped.
  mutating func eventProblem(
    _ sequence: UInt64, runEnd: UInt64, _ error: CodecError,
    domain: (decodedAs: String, note: String)?
  ) -> VerificationProblem {
    hasEventProblem = true
    let decodedAs = domain.map { " \($0.decodedAs)" } ?? ""
    var message = "event \(sequence) cannot be decoded\(decodedAs) (\(error))"
    if runEnd > sequence {
      let rest = (sequence + 1)...runEnd
      message +=
        "; the rest of its run (\(JournalError.describe(rest))) is read relative to it and cannot be read either"
    }
    if let domain {
      message += "; \(domain.note)"
      keep(message)
    } else {
      drop("event \(sequence) cannot be decoded")
    }
    return VerificationProblem(
      kind: .event, frame: info.number, offset: info.offset, sequences: sequence...runEnd,
      message: message)
  }

  /// Event `sequence` cannot be read: its run broke before this frame, at event
  /// `runStart` when the domain's decoding does not read that one.
  mutating func unreadable(_ sequence: UInt64, runStart: UInt64?) {
    guard !hasEventProblem else { return }
    if unreadableEvents == nil { unreadableRunStart = runStart }
    unreadableEvents = (unreadableEvents?.lowerBound ?? sequence)...sequence
  }

  /// The problem of events that could not be read because their run started in an
  /// earlier frame whose events cannot be decoded, or was lost. Those of a run that
  /// starts at an event the domain's decoding does not read are kept with it.
  mutating func unreadableProblem() -> VerificationProblem? {
    guard let range = unreadableEvents, !hasEventProblem else { return nil }
    let events = JournalError.describe(range)
    let message: String
    if let start = unreadableRunStart {
      message =
        "\(events) cannot be read: their run of events starts before this frame, at event \(start), which the domain does not decode, and no snapshot starts a new one; their bytes are intact (this frame's checksums verify), so this is not damage"
      keep(message)
    } else {
      message =
        "\(events) cannot be read: their run of events starts before this frame, where events cannot be decoded or were lost, and no snapshot starts a new one"
      drop("\(events) cannot be read")
    }
    return VerificationProblem(
      kind: .event, frame: info.number, offset: info.offset, sequences: range, message: message)
  }
}

/// How a run of ``Timeline``'s deep check ended: the events decoded, and the event that
/// could not be decoded or whether the records were malformed or exhausted.
@usableFromInline struct DecodeRun {
  @usableFromInline var decoded: UInt64 = 0
  @usableFromInline var failure: (sequence: UInt64, error: CodecError)?
  @usableFromInline var malformed = false
  @usableFromInline var exhausted = false

  @inlinable init() {}

  /// Decodes and reduces the records of `cursor` up to and including event `limit` (or
  /// the frame's last), as the deep check does: stops after an event that cannot be
  /// decoded (`failure`) or at malformed records; inlinable, so that ``SessionScans``
  /// specialises it for the domain.
  @inlinable
  static func run<D: Domain>(
    _ domain: D, _ cursor: inout RecordCursor, through limit: UInt64, _ state: inout D.State,
    _ context: inout D.EventCodecContext
  ) -> DecodeRun {
    var run = DecodeRun()
    // Locals, not the callers' memory: the codec's memory stays in registers.
    var codec = context
    defer { context = codec }
    do {
      // The common record in the cursor's inner loop, with no call; any other by the
      // full decoder, from its outer loop.
      var decoded: UInt64 = 0
      defer { run.decoded &+= decoded }
      run.exhausted = try cursor.forEachRecord(
        through: limit,
        fast: { _, _, payload in
          guard let (_, event) = Replayer<D>.decodeShort(payload, domain: domain, context: &codec)
          else { return false }
          decoded &+= 1
          _ = domain.reduce(&state, event)
          return true
        },
        slow: { sequence, _, payload in
          do throws(CodecError) {
            let event: D.Event
            (_, event, codec) = try Replayer<D>.decodeOutOfLine(
              payload, domain: domain, context: codec)
            run.decoded &+= 1
            _ = domain.reduce(&state, event)
            return true
          } catch {
            run.failure = (sequence, error)
            return false
          }
        })
    } catch {
      run.malformed = true
    }
    return run
  }
}
