package import RewindJournal

extension DeepCheck {
  /// What `rewind verify --deep` finds: the storage check (`Journal.verify`) and the deep
  /// check of the content (``DeepCheck/check(_:domains:progress:)``) in one pass over the
  /// file, each frame decompressed once; on `jobs` threads when the journal splits into
  /// parts (``Timeline/deepVerifyInParts(jobs:progress:)``). The reports are those of the
  /// two checks run one after the other.
  ///
  /// - Parameters:
  ///   - path: the journal.
  ///   - domains: the domains this program knows.
  ///   - jobs: the threads to check parts on; 1 checks the frames in order on this one.
  ///   - progress: called with the frames checked and the total.
  /// - Returns: the storage check's report, and the content's, or why the journal could
  ///   not be opened for reading (its header and every copy are damaged).
  /// - Throws: what `Journal.verify` throws: the file cannot be read as a journal at all.
  package static func verify(
    path: String, domains: [any Domain.Type], jobs: Int, progress: (Int, Int) -> Void
  ) throws(JournalError) -> (
    storage: VerificationReport, content: Result<DeepCheckReport, JournalError>
  ) {
    let reader: JournalReader
    do throws(JournalError) {
      reader = try JournalReader(path: path, options: .init(salvage: true))
    } catch {
      return (try Journal.verify(path: path, progress: progress), .failure(error))
    }
    guard let type = domains.first(where: { $0.identifier == reader.header.domain }) else {
      let storage = try Journal.verify(path: path, progress: progress)
      return (storage, .success(check(reader, domains: domains)))
    }
    return try verify(type, reader, jobs: jobs, progress: progress)
  }

  private static func verify<D: Domain>(
    _ type: D.Type, _ reader: JournalReader, jobs: Int, progress: (Int, Int) -> Void
  ) throws(JournalError) -> (
    storage: VerificationReport, content: Result<DeepCheckReport, JournalError>
  ) {
    do throws(RewindError) {
      _ = try Timeline<D>.domain(of: reader.header)
    } catch {
      let storage = try Journal.verify(path: reader.path, progress: progress)
      return (
        storage, .success(headerProblem(reader, "\(error); no command of this build can read it"))
      )
    }
    let timeline: Timeline<D>
    do {
      timeline = try Timeline<D>(reader: reader)
    } catch {
      let storage = try Journal.verify(path: reader.path, progress: progress)
      return (storage, .success(headerProblem(reader, "\(error)")))
    }
    let (storage, content) = try timeline.verifyDeep(jobs: jobs, progress: progress)
    return (storage, .success(content))
  }
}

extension Timeline {
  /// The storage check of this timeline's journal and the deep check of its content
  /// (``deepCheck(progress:)``) in one pass: the storage check walks the file and
  /// decompresses each frame, and the deep check reads the same decompressed frame. A
  /// frame of this reader's that the walk does not find (under damaged bytes, say) is
  /// loaded on its own, as the deep check alone loads it.
  ///
  /// With `jobs` above 1 and a journal that splits into parts
  /// (``deepVerifyInParts(jobs:progress:)``), the parts are checked on `jobs` threads;
  /// the reports are the same.
  ///
  /// - Parameter progress: called with the frames checked and the total.
  /// - Throws: what `Journal.verify` throws: the file cannot be read as a journal at all.
  package func verifyDeep(jobs: Int, progress: (Int, Int) -> Void) throws(JournalError) -> (
    storage: VerificationReport, content: DeepCheckReport
  ) {
    var run = DeepCheckRun(self)
    var inParts: DeepCheckReport?
    let frames = reader.frames
    // The next of this reader's frames for the deep check.
    var next = 0
    let storage = try Journal.verify(
      path: path, system: reader.options.system, progress: progress,
      checkAll: { walked in
        guard jobs > 1, walked == frames,
          let parts = deepVerifyInParts(jobs: jobs, progress: progress)
        else { return nil }
        inParts = parts.report
        return parts.checks
      },
      each: { info, view in
        while next < frames.count, frames[next].offset < info.offset {
          deepCheckFrame(frames[next], try? reader.loadFrame(next), &run)
          next += 1
        }
        guard next < frames.count, frames[next] == info else { return nil }
        next += 1
        // The deep check's walk of the records, which the storage check need not repeat.
        return deepCheckFrame(info, view, &run)
      })
    if let inParts { return (storage, inParts) }
    while next < frames.count {
      deepCheckFrame(frames[next], try? reader.loadFrame(next), &run)
      next += 1
    }
    return (storage, run.report)
  }

  /// The parts a parallel deep check splits the frames into: ranges of frame indices
  /// (as `UInt64`), in order, together every frame: the parts of a parallel scan of the
  /// session (``partRanges(of:jobs:longest:atFrameEndsOnly:)``, each of at least
  /// ``minimumEventsPerPart`` events and about a share of what is left after the ones
  /// before it, a quarter for two jobs) cut at frame ends only; nil when the journal is
  /// checked in one pass (one job, too few events, damage or lost events found on
  /// opening).
  package func deepCheckParts(jobs: Int) -> [ClosedRange<UInt64>]? {
    let condition = reader.condition
    let frames = reader.frames
    guard jobs > 1, frames.count > 1, condition.framesAreIntact, condition.lostRanges.isEmpty,
      let ranges = partRanges(
        of: (frames[0].firstSequence - 1)...frames[frames.count - 1].lastSequence, jobs: jobs,
        atFrameEndsOnly: true)
    else { return nil }
    var parts: [ClosedRange<UInt64>] = []
    var next = 0
    for range in ranges {
      // The part's last frame is the one ending at its upper bound.
      var last = next
      while last + 1 < frames.count, frames[last].lastSequence < range.upperBound { last += 1 }
      parts.append(UInt64(next)...UInt64(last))
      next = last + 1
    }
    return parts
  }

  /// The storage check of every frame (`JournalReader.checkFrame(_:)`) and the deep
  /// check of the content, on `jobs` threads, each part (``deepCheckParts(jobs:)``) from
  /// the snapshot at the start of its first frame; nil when the journal does not split
  /// or when anything is found wrong (a damaged frame, a problem of the content, a part
  /// that does not start at a snapshot equal to the state the part before it ends with):
  /// the journal is then checked in one pass, whose reports say what and where in their
  /// order.
  ///
  /// - Parameter progress: called on this thread with the frames checked and the total.
  /// - Returns: the frames' checks, in order, and the deep check's report, equal to
  ///   ``deepCheck(progress:)``'s.
  package func deepVerifyInParts(jobs: Int, progress: (Int, Int) -> Void) -> (
    checks: [JournalScan.FrameCheck], report: DeepCheckReport
  )? {
    guard let parts = deepCheckParts(jobs: jobs) else { return nil }
    let frames = reader.frames
    var checks: [JournalScan.FrameCheck] = []
    checks.reserveCapacity(frames.count)
    var report = DeepCheckReport(path: path, contentChecked: true)
    var encoded = ByteWriter(capacity: 256)
    // The state the part before ends with.
    var previous: D.State?
    var merged = 0
    do {
      // The results are merged at the end, so that this thread takes parts too; a part
      // that finds anything wrong fails at once, and no part after it starts.
      try forEachPart(
        parts, jobs: jobs, ahead: parts.count, handsOnAtEnd: true,
        progress: { progress(Int($0), frames.count) },
        { timeline, part, progress in
          let checked = timeline.deepVerifyPart(part, progress: progress)
          guard checked.isGood else { throw PartsDisagree() }
          return checked
        },
        { part in
          defer { merged += 1 }
          if merged == 0 {
            report.snapshotsRestartingReplay += part.report.snapshotsRestartingReplay
            report.snapshotsCompared += part.report.snapshotsCompared
          } else {
            // The one pass compares this snapshot with the state replayed up to it, and
            // goes on from that state: the part went on from the snapshot's.
            let first = frames[Int(parts[merged].lowerBound)]
            guard let start = part.start, start.snapshot.sequence + 1 == first.firstSequence,
              let state = start.state, let previous, state == previous,
              compare(start.snapshot, with: previous, encoded: &encoded).problem == nil
            else { throw PartsDisagree() }
            report.snapshotsRestartingReplay += part.report.snapshotsRestartingReplay - 1
            report.snapshotsCompared += part.report.snapshotsCompared + 1
          }
          report.eventsDecoded += part.report.eventsDecoded
          report.snapshotsChecked += part.report.snapshotsChecked
          checks += part.checks
          previous = part.end
        })
    } catch {
      return nil
    }
    return (checks, report)
  }

  /// One part of ``deepVerifyInParts(jobs:progress:)``: the frames `part` numbers,
  /// checked and read from the state of the snapshot at the start of the first (from the
  /// initial state for the journal's first frame).
  private func deepVerifyPart(_ part: ClosedRange<UInt64>, progress: (UInt64) -> Void)
    -> DeepCheckPart<D>
  {
    let frames = reader.frames
    let first = Int(part.lowerBound)
    var run =
      first == 0
      ? DeepCheckRun(self) : DeepCheckRun(self, partAfter: frames[first].firstSequence - 1)
    var checks: [JournalScan.FrameCheck] = []
    checks.reserveCapacity(Int(part.upperBound) - first + 1)
    for index in first...Int(part.upperBound) {
      var handedOn = false
      let (view, check) = reader.checkFrame(index) { view in
        handedOn = true
        return deepCheckFrame(frames[index], view, &run)
      }
      checks.append(check)
      if !handedOn { deepCheckFrame(frames[index], view, &run) }
      progress(UInt64(index - first + 1))
    }
    return DeepCheckPart(checks: checks, report: run.report, start: run.start, end: run.state)
  }
}

/// What one part of a parallel deep check found.
struct DeepCheckPart<D: Domain>: Sendable {
  var checks: [JournalScan.FrameCheck]
  var report: DeepCheckReport
  /// The snapshot the part started from, and its state (``DeepCheckRun/start``).
  var start: (snapshot: Snapshot, state: D.State?)?
  /// The state after the part's last event; nil when replay did not know it.
  var end: D.State?

  /// Whether nothing was found wrong: every frame whole, no problem of the content, no
  /// repair.
  var isGood: Bool {
    checks.allSatisfy(\.isGood) && report.problems.isEmpty && report.repairs.isEmpty
  }
}

/// A parallel deep check found something that the one pass must say in its order.
private struct PartsDisagree: Error {}
