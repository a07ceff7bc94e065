public import RewindCore
import RewindJournal

// The page's data built in parts on several threads (`rewind html --jobs N`), as the scans
// are: the events `from + 1 ... to` split where the scans split them
// (`Timeline.parallelRanges`: at frame ends when one is near), each
// part replayed from the snapshot at its start by a `Builder` of its own, and the parts
// merged in order into the first one's builder, which then writes the data. The bytes are
// the sequential build's:
// - a part's builder writes the keyframes of the events the whole page's does (the page's
//   interval, counted from the page's first point) and its times from the time of its
//   first point, so that the keyframes and the times' line concatenate;
// - its tables number the texts it meets from 0: merged, the texts the parts before did
//   not meet are numbered after theirs in the order this part met them, which is the
//   order of their first use in the page (the sequential numbering), and the part's
//   numbers of bodies, change lists and reasons (its rows, `EventNumbers`, read back; the
//   reasons' kept raw, `RawNumbers`) are renumbered; so are its codes when it met event
//   kinds the domain does not list;
// - the page checks that the fields rebuild the state at each keyframe. A part rebuilds
//   from the state at its first point, not from what the parts before rebuilt: the two are
//   the same when each part's rebuilt state at its end is the next one's first state (the
//   merge checks that, by their JSON text), and then the parts refuse exactly what one
//   pass refuses. When any part fails, or the parts do not join, the page is built again
//   in one pass, which refuses or accepts it as it always does.

extension SessionPage.Payload {
  /// Where a part after the first starts: the page's first point and keyframe interval.
  @usableFromInline struct PartStart: Sendable {
    /// The page's first point: keyframes are counted from it.
    @usableFromInline let pageFrom: UInt64
    /// The page's keyframe interval (chosen from the size of the page's first keyframe).
    @usableFromInline let keyframeInterval: UInt64

    @usableFromInline init(pageFrom: UInt64, keyframeInterval: UInt64) {
      self.pageFrom = pageFrom
      self.keyframeInterval = keyframeInterval
    }
  }

  /// A part's builder, handed from the thread that built it to the one that merges it
  /// (once, through the parallel scan's lock: never used by two threads at once), with
  /// the JSON texts the merge compares.
  @usableFromInline final class PagePart<D: Domain>: @unchecked Sendable {
    @usableFromInline var builder: Builder<D>?
    /// The state's JSON at the part's first point (nil for the first part).
    @usableFromInline let startText: String?
    /// The rebuilt state's JSON after the part's last event (nil for the last part).
    @usableFromInline let endText: String?

    @usableFromInline init(_ builder: consuming Builder<D>, startText: String?, endText: String?) {
      self.builder = consume builder
      self.startText = startText
      self.endText = endText
    }
  }

  /// Builds the part `from + 1 ... to` of a page: `start` is nil for the page's first
  /// part (or the whole page), else where the page starts; `isLast` when no part follows.
  ///
  /// Inlinable, for the same reason as `build`: compiled for a domain
  /// (`PagePrecomputation`), `inline` runs the replay and the builder's step in one loop.
  @inlinable static func buildPart<D: Domain>(
    _ timeline: Timeline<D>, from: UInt64, to: UInt64, start: PartStart?, isLast: Bool,
    memoize: Bool, inline: Bool, progress: (UInt64) -> Void
  ) throws -> PagePart<D> {
    var builder = try Builder(timeline, from: from, to: to, memoize: memoize, part: start)
    let startText = start == nil ? nil : builder.rebuiltText()
    if inline {
      // The common step as a local function, which the compiler inlines where it is
      // called (into the replay's inner loop) as it does not inline a closure literal
      // there; a local function cannot capture the non-copyable builder, so both steps
      // reach it through a pointer.
      try withUnsafeMutablePointer(to: &builder) { builder in
        @inline(__always) func common(_ visited: VisitedEvent, _ event: D.Event, _ state: D.State)
          -> Bool
        {
          builder.pointee.addCommon(visited, event, state)
        }
        try timeline.visitEventsInline(from: from + 1, through: to, common: common) {
          visited, event, state, rejection in
          try builder.pointee.add(visited, event, state, rejection: rejection, progress: progress)
        }
      }
    } else {
      try timeline.visitEventsOutlined(from: from + 1, through: to) { visited, event, state in
        try builder.add(visited, event, state, progress: progress)
      }
    }
    let endText = isLast ? nil : builder.rebuiltText()
    // What only the last part's `finish` reads, let go on this thread, not the merging one.
    if !isLast { builder.forgetValues() }
    return PagePart(builder, startText: startText, endText: endText)
  }

  /// Builds a page's part (see `buildPart`): `(timeline, from, to, start, isLast,
  /// progress)`.
  @usableFromInline typealias PartBuild<D: Domain> =
    @Sendable (
      _ timeline: Timeline<D>, _ from: UInt64, _ to: UInt64, _ start: PartStart?,
      _ isLast: Bool, _ progress: (UInt64) -> Void
    ) throws -> PagePart<D>

  /// The page's data of the events `from + 1 ... to`, built in parts on `jobs` threads
  /// when the journal splits (`Timeline.parallelRanges`), else in one pass; each part built
  /// by `part`. The bytes and the errors are one pass's: when a part fails or the parts do
  /// not join, the page is built again in one pass.
  ///
  /// - Parameter progress: called on this thread with the events done by all the parts.
  @usableFromInline static func buildPage<D: Domain>(
    _ timeline: Timeline<D>, from: UInt64, to: UInt64, options: SessionPage.Options,
    rendererData: JSONValue, jobs: Int, progress: (UInt64) -> Void,
    part: @escaping PartBuild<D>
  ) throws -> PageData {
    if jobs > 1, to > from, let ranges = partRanges(timeline, from: from, to: to, jobs: jobs),
      let payload = try? inParts(
        timeline, ranges, options: options, rendererData: rendererData, jobs: jobs,
        progress: progress, part: part)
    {
      return payload
    }
    let whole = try part(timeline, from, to, nil, true, progress)
    guard let builder = whole.builder.take() else { preconditionFailure("a part built twice") }
    return try builder.finish(timeline, to: to, options: options, rendererData: rendererData)
  }

  /// The parts a page's events are built in with `jobs` threads: the scans' parts
  /// (`Timeline.parallelRanges`, cut at frame ends), joined in order into parts of at least
  /// a `partsPerJob × jobs`-th of the events. A part costs the page more than a scan: its
  /// builder writes and looks up again the bodies and change lists that the parts before
  /// it met (about 1,000 of each in a part of 200,000 navigation events), and its numbers
  /// are renumbered at the merge; the scans' shortest parts (about a frame) would spend
  /// more on that than the threads' ends save. Nil when the page is built in one pass.
  static func partRanges<D: Domain>(_ timeline: Timeline<D>, from: UInt64, to: UInt64, jobs: Int)
    -> [ClosedRange<UInt64>]?
  {
    guard let ranges = timeline.parallelRanges(jobs: jobs, in: from...to) else { return nil }
    let least = (to - from) / UInt64(partsPerJob * jobs)
    var joined: [ClosedRange<UInt64>] = []
    var start = from
    for range in ranges where range.upperBound - start >= least || range.upperBound == to {
      joined.append(start...range.upperBound)
      start = range.upperBound
    }
    // A short rest goes to the part before it.
    if joined.count > 1, let last = joined.last, last.upperBound - last.lowerBound < least {
      joined.removeLast()
      joined[joined.count - 1] = joined[joined.count - 1].lowerBound...to
    }
    return joined.count > 1 ? joined : nil
  }

  /// The parts a page's build takes for each job (see `partRanges`).
  static let partsPerJob = 3

  /// The page's data built in the parts `ranges` (which cover the page's events in order)
  /// on `jobs` threads, merged as they come, in order.
  /// - Throws: a part's error, or `PartsDoNotJoin`: the caller builds the page in one pass.
  static func inParts<D: Domain>(
    _ timeline: Timeline<D>, _ ranges: [ClosedRange<UInt64>], options: SessionPage.Options,
    rendererData: JSONValue, jobs: Int, progress: (UInt64) -> Void,
    part: @escaping PartBuild<D>
  ) throws -> PageData {
    guard let from = ranges.first?.lowerBound, let to = ranges.last?.upperBound else {
      throw PartsDoNotJoin()
    }
    // The page's keyframe interval, which the parts after the first need before the first
    // has written its keyframe.
    let interval = Builder<D>.keyframeInterval(
      of: timeline.domain.json(try timeline.state(after: from)))
    let start = PartStart(pageFrom: from, keyframeInterval: interval)
    let work: @Sendable (Timeline<D>, ClosedRange<UInt64>, (UInt64) -> Void) throws -> PagePart<D> =
      {
        timeline, range, progress in
        // The builders count the events done from the page's first point.
        let before = range.lowerBound - from
        return try part(
          timeline, range.lowerBound, range.upperBound, range.lowerBound == from ? nil : start,
          range.upperBound == to, { progress($0 - before) })
      }
    var merged: PagePart<D>?
    try timeline.forEachPart(ranges, jobs: jobs, ahead: ranges.count, progress: progress, work) {
      part in
      if let first = merged {
        merged = try first.appending(part)
      } else {
        merged = part
      }
    }
    guard let builder = merged?.builder.take() else { throw PartsDoNotJoin() }
    return try builder.finish(timeline, to: to, options: options, rendererData: rendererData)
  }

  /// The time of event `sequence` (0 for the initial state), where a part starts: from the
  /// frames' index when it is a frame's last event (the part starts at the next frame and
  /// does not decompress this one), else read from its frame.
  @usableFromInline static func startTime<D: Domain>(of sequence: UInt64, in timeline: Timeline<D>)
    throws -> UInt64
  {
    guard sequence > 0 else { return 0 }
    let reader = timeline.reader
    if let index = reader.frameIndex(containing: sequence),
      reader.frames[index].lastSequence == sequence
    {
      return reader.frames[index].lastTime
    }
    return try timeline.time(of: sequence)
  }

  /// Parts that do not make the page one pass makes: their times, keyframe intervals or
  /// rebuilt states do not meet (the page is built in one pass instead).
  struct PartsDoNotJoin: Error {}
}

extension SessionPage.Payload.PagePart {
  /// This part (all the parts so far, merged) with `next`, the part after it, merged in:
  /// a part whose builder is the two's, and whose end is `next`'s.
  /// - Throws: `PartsDoNotJoin` when `next` does not start where this one ends.
  func appending(_ next: SessionPage.Payload.PagePart<D>) throws -> SessionPage.Payload.PagePart<D>
  {
    guard var merged = builder.take(), let part = next.builder.take(),
      let endText, endText == next.startText
    else { throw SessionPage.Payload.PartsDoNotJoin() }
    try merged.append(part)
    return SessionPage.Payload.PagePart(merged, startText: startText, endText: next.endText)
  }
}

extension SessionPage.Payload.Builder {
  /// The interval between keyframes of a page whose first keyframe is `keyframeBytes`
  /// long: four times that many events (256 to 16,384), so that keyframes cost about a
  /// quarter of a byte an event before compression. A keyframe is written, and the state
  /// the fields rebuild checked against it, out of the replay's loop, with its caches cold:
  /// at a byte an event, the keyframes were a ninth of the precomputation of the navigation
  /// domain's page (its state's JSON is about 420 bytes), at a quarter of a byte a
  /// sixteenth. The page rebuilds a state from the keyframe before it: a seek applies up to
  /// four times as many change lists (a random seek drawn in headless Chromium took a
  /// median of 5.1–5.6 ms before, 5.7–5.8 after: BENCHMARKS.md, session 56).
  @usableFromInline static func keyframeInterval(keyframeBytes: Int) -> UInt64 {
    UInt64(min(max(keyframeBytes * 4, 256), 16_384))
  }

  /// The interval between keyframes of a page whose first keyframe is `start`.
  static func keyframeInterval(of start: JSONValue) -> UInt64 {
    var written = JSONWriter(capacity: 1 << 12)
    written.value(start)
    return keyframeInterval(keyframeBytes: written.count)
  }

  /// The state the page rebuilds from the fields, as JSON text: after the last event
  /// added (what the next part's first state must be), or the first state before any.
  @usableFromInline mutating func rebuiltText() -> String {
    lastChanges.set(in: &rebuilt, keyValues)
    return rebuilt.value.compactText
  }

  /// Lets go of the change lists' values, once the rebuilt state holds them
  /// (`rebuiltText()`): a part that is not the last one needs them no more.
  @usableFromInline mutating func forgetValues() {
    keyValues = []
  }

  /// Appends `part`, the builder of the events after this one's last: its events, tables,
  /// counts and keyframes, its numbers renumbered to this one's tables; its rebuilt state
  /// becomes this one's (what `finish` checks the last state with).
  /// - Throws: `PartsDoNotJoin` when its times or keyframes do not continue these.
  mutating func append(_ part: consuming Self) throws {
    guard part.keyframeInterval == keyframeInterval, part.from == from,
      part.fromTime == previousTime
    else { throw SessionPage.Payload.PartsDoNotJoin() }

    // The kinds the domain does not list, numbered by their first appearance.
    let listed = D.eventKinds.count
    var kindMap = Array(0..<part.kinds.count)
    for index in listed..<part.kinds.count {
      let kind = part.kinds[index]
      if let known = kindIndex[kind] {
        kindMap[index] = known
      } else {
        kindMap[index] = kinds.count
        kindIndex[kind] = kinds.count
        kinds.append(kind)
      }
    }
    let bodyMap = Self.numbers(of: part.bodies, in: &bodies)
    let changeMap = Self.numbers(of: part.changeLists, in: &changeLists)
    let reasonMap = Self.numbers(of: part.reasons, in: &reasons)

    // A code is a kind's index × 3 + an outcome.
    numbers.append(
      part.numbers, code: { UInt64(kindMap[Int($0 / 3)] * 3) + $0 % 3 },
      body: { UInt64(bodyMap[Int($0)]) }, changes: { UInt64(changeMap[Int($0)]) })
    reasonNumbers.append(part.reasonNumbers) { UInt64(reasonMap[Int($0)]) }
    counts.applied += part.counts.applied
    counts.unchanged += part.counts.unchanged
    counts.rejected += part.counts.rejected
    part.keyframes.withBytes { keyframes.append($0.assumingMemoryBound(to: UInt8.self)) }
    keyframeCount += part.keyframeCount
    previousTime = part.previousTime
    // The state rebuilt to the part's end (the parts joined: the one this builder's would
    // be), which `finish` compares with the last state.
    rebuilt = part.rebuilt
    lastChanges = part.lastChanges
    keyValues = part.keyValues
  }

  /// The number in `table` of each text of `texts`, in order: a text not in `table` is
  /// numbered after its texts.
  static func numbers(of texts: borrowing DistinctTexts, in table: inout DistinctTexts) -> [Int] {
    (0..<texts.count).map { index in texts.withText(index) { table.number(of: $0) } }
  }
}
