/// The lines of `rewind log` and the matches of `rewind find --all`, written as bytes by
/// loops compiled for one domain (issue 17).
///
/// The commands learn a journal's domain at run time: a line written by their own generic
/// code looks up the metadata of `ReplayedEvent<D>`, `Outcome<D.Rejection>?` and
/// `FindHit<D>` at every event (thousands of instructions a line). These loops are reached
/// through ``Domain/scans`` as the scans are, so they run specialised for the domain's
/// types: each line is written into a buffer reused from line to line, and the lines are
/// handed out a batch of about 64 KiB at a time.
@usableFromInline struct SessionLines<D: Domain>: Sendable {
  /// `log`: the lines of events `lines.first...lines.last` (with a query, those after
  /// which its condition holds), each batch handed to the last closure with its number of
  /// lines; returns the lost events crossed.
  @usableFromInline let log:
    @Sendable (
      Timeline<D>, LogLines, LogQuery?, (UInt64) -> Void,
      (UnsafeRawBufferPointer, Int) throws -> Void
    ) throws -> [ClosedRange<UInt64>]
  /// `find --all`: the matches of a range, each batch handed on with its number of
  /// matches.
  @usableFromInline let find:
    @Sendable (
      Timeline<D>, FindQuery, ClosedRange<UInt64>, MatchLines, (UInt64) -> Void,
      (UnsafeRawBufferPointer, Int) -> Void
    ) throws -> Void

  /// The loops, specialised for `D` where this initialiser is compiled for it.
  @inlinable init() {
    log = { timeline, lines, query, progress, emit in
      lines.changes
        ? try timeline.logChangesRun(lines, query, progress: progress, emit: emit)
        : try timeline.logLinesRun(lines, query, progress: progress, emit: emit)
    }
    find = { timeline, query, range, lines, progress, emit in
      try timeline.matchLinesRun(query, range, lines, progress: progress, emit: emit)
    }
  }
}

/// How `rewind log` writes its lines: which events it lists and in what form.
@usableFromInline package struct LogLines: Sendable {
  /// JSON Lines (`log --json`), or text.
  @usableFromInline package var json: Bool
  /// The terminal's style sequences the text carries (`Style` in the tool).
  @usableFromInline package var styling: TextStyling
  /// The width of the sequence column of the text.
  @usableFromInline package var width: Int
  /// The outcomes listed: bit 0 applied, 1 unchanged, 2 rejected.
  @usableFromInline package var outcomes: UInt8
  /// The kinds of events listed (every kind when empty).
  @usableFromInline package var kinds: Set<String>
  /// The first and last events listed.
  @usableFromInline package var first: UInt64
  @usableFromInline package var last: UInt64
  /// Whether each line is handed on as soon as it is written (the output is a terminal,
  /// which shows each line as it is found), not a batch at a time.
  @usableFromInline package var eachLine: Bool
  /// Whether each event is followed by the fields it changed, old → new (`--changes`; in
  /// JSON, a `"changes"` array of `{path, old, new}`).
  @usableFromInline package var changes: Bool

  /// - Parameters:
  ///   - outcomes: the names of the outcomes listed (`applied`, `unchanged`, `rejected`);
  ///     every outcome when empty.
  package init(
    json: Bool, styling: TextStyling, width: Int, outcomes: Set<String>, kinds: Set<String>,
    first: UInt64, last: UInt64, changes: Bool = false, eachLine: Bool = false
  ) {
    self.eachLine = eachLine
    self.changes = changes
    self.json = json
    self.styling = styling
    self.width = width
    var mask: UInt8 = outcomes.isEmpty ? 0b111 : 0
    if outcomes.contains("applied") { mask |= 1 }
    if outcomes.contains("unchanged") { mask |= 2 }
    if outcomes.contains("rejected") { mask |= 4 }
    self.outcomes = mask
    self.kinds = kinds
    self.first = first
    self.last = last
  }
}

/// How `rewind find --all` writes its matches.
@usableFromInline package struct MatchLines: Sendable {
  /// The elements of the `"matches"` array (`find --json`), or text lines.
  @usableFromInline package var json: Bool
  /// The terminal's style sequences the text carries.
  @usableFromInline package var styling: TextStyling
  /// Whether a match shows the value of the condition's fields.
  @usableFromInline package var showsValue: Bool
  /// Whether each match is handed on as soon as it is written (the output is a terminal),
  /// not a batch at a time.
  @usableFromInline package var eachLine: Bool

  package init(json: Bool, styling: TextStyling, showsValue: Bool, eachLine: Bool = false) {
    self.eachLine = eachLine
    self.json = json
    self.styling = styling
    self.showsValue = showsValue
  }
}

/// The lines written so far and their number, handed on a batch at a time.
@usableFromInline struct LineBatch {
  @usableFromInline var bytes: [UInt8] = []
  @usableFromInline var count = 0
  /// The bytes of a full batch: `size`, or 1 when each line is handed on at once.
  @usableFromInline let limit: Int
  @usableFromInline static var size: Int { 1 << 16 }

  /// A batch of `size` bytes, or of each line when `eachLine`.
  @inlinable init(eachLine: Bool = false) {
    limit = Self.limit(eachLine: eachLine)
    bytes.reserveCapacity(Self.size + 4096)
  }

  /// The bytes of a full batch.
  @inlinable static func limit(eachLine: Bool) -> Int { eachLine ? 1 : size }

  /// Hands on the lines when they fill a batch.
  @inlinable @inline(__always)
  mutating func emitIfFull(_ emit: (UnsafeRawBufferPointer, Int) throws -> Void) rethrows {
    if bytes.count >= limit { try emitAll(emit) }
  }

  @inlinable
  mutating func emitAll(_ emit: (UnsafeRawBufferPointer, Int) throws -> Void) rethrows {
    guard count > 0 else { return }
    // Emptied even when `emit` throws: a batch is handed on once.
    defer {
      bytes.removeAll(keepingCapacity: true)
      count = 0
    }
    try bytes.withUnsafeBytes { try emit($0, count) }
  }
}

extension Timeline {
  /// The lines of `rewind log` for events `lines.first...lines.last`, with `condition`
  /// (`--where`) those after which it holds, handed to `emit` a batch of whole lines at a
  /// time with their number: text (`   12    +1.234s  description  applied`) or JSON Lines
  /// (`{"seq":…,"time_us":…,` the event's members, its outcome). The loop of the domain's
  /// ``Domain/scans``, specialised for it; with `condition` and `jobs` above 1, parts of an
  /// intact journal are written on that many threads and handed on in order (the same
  /// bytes). Events lost to damage are crossed.
  ///
  /// - Parameters:
  ///   - progress: called now and then with the events replayed.
  ///   - emit: called with whole lines (each ending in `\n`) and their number; the bytes
  ///     are valid only during the call.
  /// - Returns: the lost events crossed.
  package func writeLogLines(
    _ lines: LogLines, where condition: ConditionEvaluator<D>?, jobs: Int,
    longestPart: UInt64 = 1 << 15, progress: (UInt64) -> Void = { _ in },
    emit: (UnsafeRawBufferPointer, Int) throws -> Void
  ) throws -> [ClosedRange<UInt64>] {
    var lines = lines
    lines.first = max(lines.first, 1)
    guard lines.first <= lines.last else { return [] }
    let write = D.scans.lines.log
    guard let compiled = condition?.compiled else {
      return try write(self, lines, nil, progress, emit)
    }
    let end = min(lines.last, lastSequence)
    guard lines.first <= end,
      let ranges = parallelRanges(jobs: jobs, in: (lines.first - 1)...end, longest: longestPart)
    else {
      let query = LogQuery(
        condition: compiled, first: lines.first, last: lines.last, keepsPrevious: lines.changes)
      return try write(self, lines, query, progress, emit)
    }
    let whole = lines
    try forEachPart(
      ranges, jobs: jobs, ahead: 2 * jobs, progress: progress, startingWith: WrittenPart(),
      keepingFound: { timeline, range, progress, written in
        var part = whole
        part.first = range.lowerBound + 1
        part.last = range.upperBound
        let query = LogQuery(
          condition: compiled, first: part.first, last: part.last, keepsPrevious: part.changes)
        _ = try write(timeline, part, query, progress) { bytes, count in
          written.bytes.append(contentsOf: bytes)
          written.count += count
        }
      },
      { part in
        guard part.count > 0 else { return }
        try part.bytes.withUnsafeBytes { try emit($0, part.count) }
      })
    return []
  }

  /// The matches of `condition` in `range` as `rewind find --all` prints them, handed to
  /// `emit` a batch at a time with their number: text lines (`  event 12 at +1.234s:
  /// description  → value`), or each match as an element of the `"matches"` array of
  /// `find --json`, indented as its pretty text and preceded by `,\n` (the caller drops
  /// the first two bytes of the first). The loop of the domain's ``Domain/scans``; with
  /// `jobs` above 1, parts of an intact journal are searched on that many threads (parts
  /// of half a streaming window, at most two a job ahead, as `forEachMatch` takes them)
  /// and handed on in order: the same bytes.
  /// - Throws: ``ConditionError`` for a condition that does not fit the fields;
  ///   ``RewindError`` `outOfRange` for a range outside the session.
  package func writeMatches(
    _ condition: Condition, in range: ClosedRange<UInt64>, _ lines: MatchLines, jobs: Int,
    progress: (UInt64) -> Void = { _ in }, emit: (UnsafeRawBufferPointer, Int) -> Void
  ) throws {
    let query = try findQuery(condition, in: range, all: true)
    let write = D.scans.lines.find
    guard let ranges = parallelRanges(jobs: jobs, in: range, longest: streamingWindow / 2)
    else {
      return try write(self, query, range, lines, progress, emit)
    }
    try forEachPart(
      ranges, jobs: jobs, ahead: 2 * jobs, progress: progress, startingWith: WrittenPart(),
      keepingFound: { timeline, part, progress, written in
        try write(timeline, query, part, lines, progress) { bytes, count in
          written.bytes.append(contentsOf: bytes)
          written.count += count
        }
      },
      { part in
        guard part.count > 0 else { return }
        part.bytes.withUnsafeBytes { emit($0, part.count) }
      })
  }

  /// The loop of ``writeLogLines(_:where:jobs:longestPart:progress:emit:)``: inlinable, so
  /// that ``SessionLines`` compiles it for the domain.
  @inlinable
  func logLinesRun(
    _ lines: LogLines, _ query: LogQuery?, progress: (UInt64) -> Void,
    emit: (UnsafeRawBufferPointer, Int) throws -> Void
  ) throws -> [ClosedRange<UInt64>] {
    let domain = self.domain
    let crossed: [ClosedRange<UInt64>]
    if lines.json {
      var json = JSONWriter(capacity: LineBatch.size + 4096, remembersNumbers: true)
      var lineStart = JSONLines.LineStart()
      var count = 0
      let limit = LineBatch.limit(eachLine: lines.eachLine)
      // On an error (a damaged frame), the lines of the events before it are handed on
      // first: a file or a pipe gets what a terminal shows (a batch was lost). A batch is
      // counted out before it is handed on, so that one `emit` refused is not sent again.
      // (No local function hands them on: one that the loop's closure calls boxes the
      // writer, an exclusivity check an access: a third more instructions.)
      defer { if count > 0 { try? json.withBytes { try emit($0, count) } } }
      crossed = try forEachLogged(lines, query, progress: progress) { event, outcome in
        Self.writeLogHead(event, outcome, domain: domain, lineStart: &lineStart, to: &json)
        json.endObject()
        json.newline()
        count += 1
        if json.count >= limit {
          let lines = count
          count = 0
          try json.withBytes { try emit($0, lines) }
          json.removeAll()
        }
      }
      let lines = count
      count = 0
      if lines > 0 { try json.withBytes { try emit($0, lines) } }
    } else {
      var batch = LineBatch(eachLine: lines.eachLine)
      defer { try? batch.emitAll(emit) }
      crossed = try forEachLogged(lines, query, progress: progress) { event, outcome in
        let (code, reason) = Self.logOutcome(outcome)
        LogText.append(
          sequence: event.sequence, time: event.time, description: domain.describe(event.event),
          outcome: code, reason: reason, width: lines.width, styling: lines.styling,
          to: &batch.bytes)
        batch.count += 1
        try batch.emitIfFull(emit)
      }
      try batch.emitAll(emit)
    }
    return crossed
  }

  /// ``logLinesRun(_:_:progress:emit:)`` with `--changes`: each event's line followed by
  /// the fields it changed, old → new (in JSON, its `"changes"` array), from the state
  /// before it (kept by the pass: with a query, the query's; else a copy each event).
  @inlinable
  func logChangesRun(
    _ lines: LogLines, _ query: LogQuery?, progress: (UInt64) -> Void,
    emit: (UnsafeRawBufferPointer, Int) throws -> Void
  ) throws -> [ClosedRange<UInt64>] {
    let domain = self.domain
    let fields = domain.fields
    let indent = [UInt8](repeating: 0x20, count: lines.width + 2)
    var batch = LineBatch(eachLine: lines.eachLine)
    var json = JSONWriter(capacity: 4096)
    var lineStart = JSONLines.LineStart()
    defer { try? batch.emitAll(emit) }
    let crossed = try forEachLoggedWithChanges(lines, query, progress: progress) {
      event, outcome, changed, before, state in
      if lines.json {
        json.removeAll()
        Self.writeLogHead(event, outcome, domain: domain, lineStart: &lineStart, to: &json)
        json.plainKey("changes")
        json.beginArray()
        Self.forEachChange(changed, fields, before, state) { path, old, new in
          json.beginObject()
          json.plainKey("path")
          json.string(path)
          if let old {
            json.plainKey("old")
            json.value(old)
          }
          json.plainKey("new")
          json.value(new)
          json.endObject()
        }
        json.endArray()
        json.endObject()
        json.newline()
        json.withBytes { batch.bytes.append(contentsOf: $0.assumingMemoryBound(to: UInt8.self)) }
      } else {
        let (code, reason) = Self.logOutcome(outcome)
        LogText.append(
          sequence: event.sequence, time: event.time, description: domain.describe(event.event),
          outcome: code, reason: reason, width: lines.width, styling: lines.styling,
          to: &batch.bytes)
        // The changes on lines of their own, before the line feed that ends the event's.
        batch.bytes.removeLast()
        Self.forEachChange(changed, fields, before, state) { path, old, new in
          LogText.appendChange(
            path: path, old: old, new: new, indent: indent, styling: lines.styling,
            to: &batch.bytes)
        }
        batch.bytes.append(0x0A)
      }
      batch.count += 1
      try batch.emitIfFull(emit)
    }
    try batch.emitAll(emit)
    return crossed
  }

  /// The outcome of `event` when `log` lists it: one of `outcomes` (bits: 1 applied, 2
  /// unchanged, 4 rejected) and of `kinds` (any when empty); nil when it does not.
  @inlinable @inline(__always)
  static func listedOutcome(
    _ event: ReplayedEvent<D>, _ outcomes: UInt8, _ kinds: Set<String>, _ domain: D
  ) -> Outcome<D.Rejection>? {
    guard let outcome = event.outcome else { return nil }
    let bit: UInt8
    switch outcome {
    case .applied: bit = 1
    case .unchanged: bit = 2
    case .rejected: bit = 4
    }
    guard outcomes & bit != 0 else { return nil }
    guard kinds.isEmpty || kinds.contains(domain.eventKind(event.event)) else { return nil }
    return outcome
  }

  /// Writes the start of a `log --json` line into `json` (between lines): `{"seq":…,
  /// "time_us":…`, the event's members, and its outcome (a rejection's reason after it),
  /// leaving the object open.
  @inlinable @inline(__always)
  static func writeLogHead(
    _ event: ReplayedEvent<D>, _ outcome: Outcome<D.Rejection>, domain: D,
    lineStart: inout JSONLines.LineStart, to json: inout JSONWriter
  ) {
    lineStart.write(sequence: event.sequence, time: event.time, to: &json)
    domain.writeMembers(of: event.event, to: &json)
    json.plainKey("outcome")
    switch outcome {
    case .applied: json.plainString("applied")
    case .unchanged: json.plainString("unchanged")
    case .rejected(let reason):
      json.plainString("rejected")
      json.plainKey("reason")
      json.string("\(reason)")
    }
  }

  /// An outcome as `LogText.append` takes it: 0 applied, 1 unchanged, 2 rejected with its
  /// rejection's description.
  @inlinable @inline(__always)
  static func logOutcome(_ outcome: Outcome<D.Rejection>) -> (code: Int, reason: String?) {
    switch outcome {
    case .applied: (0, nil)
    case .unchanged: (1, nil)
    case .rejected(let rejection): (2, "\(rejection)")
    }
  }

  /// Calls `body` with the path of each field of `changed`, in the fields' order, and its
  /// values before the event (nil when the state before is not known) and after it.
  @inlinable @inline(__always)
  static func forEachChange(
    _ changed: FieldSet, _ fields: [StateField<D.State>], _ before: D.State?, _ after: D.State,
    _ body: (String, JSONValue?, JSONValue) -> Void
  ) {
    var rest = changed.rawValue
    while rest != 0 {
      let index = rest.trailingZeroBitCount
      rest &= rest &- 1
      guard index < fields.count else { break }
      let field = fields[index]
      body(field.path, before.map(field.value), field.value(after))
    }
  }

  /// ``forEachLogged(_:_:progress:_:)`` for `--changes`: `body` also gets the fields each
  /// event changed, the state before it and the state after it.
  @inlinable @inline(__always)
  func forEachLoggedWithChanges(
    _ lines: LogLines, _ query: LogQuery?, progress: (UInt64) -> Void,
    _ body: (ReplayedEvent<D>, Outcome<D.Rejection>, FieldSet, D.State?, D.State) throws -> Void
  ) throws -> [ClosedRange<UInt64>] {
    let domain = self.domain
    let kinds = lines.kinds
    let outcomes = lines.outcomes
    @inline(__always) func listed(
      _ event: ReplayedEvent<D>, _ changed: FieldSet, _ before: D.State?, _ state: D.State
    ) throws {
      guard let outcome = Self.listedOutcome(event, outcomes, kinds, domain) else { return }
      try body(event, outcome, changed, before, state)
    }
    if let query {
      return try logRun(query, progress: progress) { logged, state in
        try listed(logged.event, logged.changed, logged.before, state)
        return true
      }
    }
    var (replayer, state) = try replayer(reaching: lines.first - 1, skipping: [])
    replayer.crossesLostEvents = true
    let start = lines.first
    func reported(_ sequence: UInt64) { progress(sequence &- start) }
    var previous = state
    var previousSequence = start - 1
    try replayer.forEachEvent(
      through: lines.last, &state, trackChanges: true, progress: reported
    ) { event, changed, state in
      var before: D.State? = previous
      if event.sequence != previousSequence &+ 1 {
        // After events lost to damage: the snapshot stored after them.
        before = try self.state(afterLostEventsEndingAt: event.sequence - 1)
      }
      previous = state
      previousSequence = event.sequence
      try listed(event, changed, before, state)
      return true
    }
    return replayer.crossedLostEvents
  }

  /// Calls `body` with each event of `lines.first...lines.last` that `log` lists (with
  /// `query`, after which its condition holds; of the kinds and outcomes asked for) and
  /// its outcome, in order; crosses lost events.
  @inlinable @inline(__always)
  func forEachLogged(
    _ lines: LogLines, _ query: LogQuery?, progress: (UInt64) -> Void,
    _ body: (ReplayedEvent<D>, Outcome<D.Rejection>) throws -> Void
  ) throws -> [ClosedRange<UInt64>] {
    let domain = self.domain
    let kinds = lines.kinds
    let outcomes = lines.outcomes
    @inline(__always) func listed(_ event: ReplayedEvent<D>) throws {
      guard let outcome = Self.listedOutcome(event, outcomes, kinds, domain) else { return }
      try body(event, outcome)
    }
    if let query {
      return try logRun(query, progress: progress) { logged, _ in
        try listed(logged.event)
        return true
      }
    }
    var (replayer, state) = try replayer(reaching: lines.first - 1, skipping: [])
    replayer.crossesLostEvents = true
    let start = lines.first
    func reported(_ sequence: UInt64) { progress(sequence &- start) }
    try replayer.forEachEvent(
      through: lines.last, &state, trackChanges: false, progress: reported
    ) { event, _, _ in
      try listed(event)
      return true
    }
    return replayer.crossedLostEvents
  }

  /// The loop of ``writeMatches(_:in:_:jobs:progress:emit:)``: inlinable, so that
  /// ``SessionLines`` compiles it for the domain.
  @inlinable
  func matchLinesRun(
    _ query: FindQuery, _ range: ClosedRange<UInt64>, _ lines: MatchLines,
    progress: (UInt64) -> Void, emit: (UnsafeRawBufferPointer, Int) -> Void
  ) throws {
    let domain = self.domain
    var batch = LineBatch(eachLine: lines.eachLine)
    var events = EventTexts<D.Event>()
    // On an error, the matches before it are handed on first (see `logLinesRun`).
    defer { batch.emitAll(emit) }
    try findRun(query, range, progress: progress) { hit in
      if lines.json {
        var outcome: Int?
        var reason: String?
        switch hit.event?.outcome {
        case .applied?: outcome = 0
        case .unchanged?: outcome = 1
        case .rejected(let rejection)?:
          outcome = 2
          reason = "\(rejection)"
        case nil: break
        }
        let value = lines.showsValue ? hit.value : JSONValue?.none
        if let event = hit.event {
          // The event's text written once for each event met: a JSON value built and
          // printed each match was most of the time.
          MatchText.appendJSON(
            sequence: hit.sequence, value: value, time: event.time, outcome: outcome,
            reason: reason, to: &batch.bytes
          ) { bytes in
            events.append(event.event, to: &bytes) {
              MatchText.appendEventJSON(domain.json($0), to: &$1)
            }
          }
        } else {
          MatchText.appendJSON(
            sequence: hit.sequence, value: value, time: nil, event: nil, outcome: outcome,
            reason: reason, to: &batch.bytes)
        }
      } else if let event = hit.event {
        var rejected = false
        if case .rejected? = event.outcome { rejected = true }
        MatchText.append(
          sequence: hit.sequence, time: event.time, description: domain.describe(event.event),
          rejected: rejected,
          value: lines.showsValue ? hit.value : JSONValue?.none, styling: lines.styling,
          to: &batch.bytes)
      } else {
        MatchText.appendStart(
          sequence: hit.sequence, value: hit.value, styling: lines.styling, to: &batch.bytes)
      }
      batch.count += 1
      batch.emitIfFull(emit)
    }
  }
}

/// The text of each event met, written once: remembered by the event's bits when they
/// stand for it (a plain type of at most 16 bytes: two events of the same bits are the
/// same event), up to 4,096 events; written each time otherwise.
@usableFromInline struct EventTexts<Event> {
  /// An event's bits, zero past its size.
  @usableFromInline struct Bits: Hashable {
    @usableFromInline var low: UInt64 = 0
    @usableFromInline var high: UInt64 = 0
    @inlinable init() {}
  }

  @usableFromInline var texts: [Bits: [UInt8]] = [:]
  @usableFromInline let remembers = _isPOD(Event.self) && MemoryLayout<Event>.size <= 16

  @inlinable init() {}

  /// Appends `event`'s text to `bytes`: remembered, or written by `write` (and remembered
  /// when there is room).
  @inlinable mutating func append(
    _ event: Event, to bytes: inout [UInt8], write: (Event, inout [UInt8]) -> Void
  ) {
    guard remembers else { return write(event, &bytes) }
    var bits = Bits()
    withUnsafeBytes(of: event) { source in
      withUnsafeMutableBytes(of: &bits) { $0.copyMemory(from: source) }
    }
    if let text = texts[bits] { return bytes.append(contentsOf: text) }
    let start = bytes.count
    write(event, &bytes)
    if texts.count < 4_096 { texts[bits] = Array(bytes[start...]) }
  }
}

/// What a part of a parallel `log` or `find --all` wrote.
private struct WrittenPart: Sendable {
  var bytes: [UInt8] = []
  var count = 0
}

/// The styles of the tool's text, the sequences around a piece: the one table of them
/// (`Style.Look` in `RewindCLI` is this type).
@usableFromInline package enum TextLook {
  case bold, dim, red, green, yellow, cyan

  /// Whether the look is a colour (a monochrome terminal shows only the others).
  package var isColour: Bool {
    switch self {
    case .bold, .dim: false
    case .red, .green, .yellow, .cyan: true
    }
  }

  package var sequences: (start: StaticString, end: StaticString) {
    switch self {
    case .bold: ("\u{1B}[1m", "\u{1B}[22m")
    case .dim: ("\u{1B}[2m", "\u{1B}[22m")
    case .red: ("\u{1B}[31m", "\u{1B}[39m")
    case .green: ("\u{1B}[32m", "\u{1B}[39m")
    case .yellow: ("\u{1B}[33m", "\u{1B}[39m")
    case .cyan: ("\u{1B}[36m", "\u{1B}[39m")
    }
  }

  /// Appends what `body` appends, in this look when `styling` shows it.
  func append(
    styling: TextStyling, to bytes: inout [UInt8], _ body: (inout [UInt8]) -> Void
  ) {
    guard styling.shows(self) else { return body(&bytes) }
    let (start, end) = sequences
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: start.utf8Start, count: start.utf8CodeUnitCount))
    body(&bytes)
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: end.utf8Start, count: end.utf8CodeUnitCount))
  }
}

/// Which of the terminal's style sequences a text carries (`Style` in the tool decides it
/// for a stream): none, the attributes only (bold, dim: a monochrome terminal), or all.
@usableFromInline package struct TextStyling: Sendable, Equatable {
  /// Whether bold and dim are written.
  @usableFromInline package var attributes: Bool
  /// Whether colours are written (only with the attributes).
  @usableFromInline package var colours: Bool

  package init(attributes: Bool, colours: Bool) {
    self.attributes = attributes
    self.colours = attributes && colours
  }

  /// No sequences.
  package static let plain = TextStyling(attributes: false, colours: false)

  /// Whether `look`'s sequences are written.
  @usableFromInline package func shows(_ look: TextLook) -> Bool {
    look.isColour ? colours : attributes
  }
}

/// Writing the pieces of the text lines into a byte buffer, with no `String` built for
/// a piece that is already printable ASCII.
enum LineBytes {
  /// Writes `text` at `out`; returns its length.
  @inline(__always)
  static func write(_ text: StaticString, to out: UnsafeMutablePointer<UInt8>) -> Int {
    out.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
    return text.utf8CodeUnitCount
  }

  /// Appends `text` as a terminal shows it (``TerminalText/escaped(_:keepingNewlines:)``)
  /// and returns its width in columns: printable ASCII as it is, a column a byte.
  @inline(__always)
  static func appendShown(_ text: String, to bytes: inout [UInt8]) -> Int {
    let ascii = text.utf8.withContiguousStorageIfAvailable { text -> Int? in
      for byte in text where byte < 0x20 || byte >= 0x7F { return nil }
      bytes.append(contentsOf: text)
      return text.count
    }
    if let ascii, let width = ascii { return width }
    let shown = TerminalText.escaped(text)
    bytes.append(contentsOf: shown.utf8)
    return TerminalText.width(shown)
  }
}

/// `log`'s text line of an event, written as bytes: not generic, so compiled once.
@usableFromInline enum LogText {
  /// Appends a line feed and `indent`, then `path: old → new` (escaped; `old →` red and
  /// `new` green when `styling` shows colours), as `log --changes` shows a field an event changed;
  /// `→ new` when the value before is not known.
  @usableFromInline static func appendChange(
    path: String, old: JSONValue?, new: JSONValue, indent: [UInt8], styling: TextStyling,
    to bytes: inout [UInt8]
  ) {
    bytes.append(0x0A)
    bytes.append(contentsOf: indent)
    bytes.append(contentsOf: TerminalText.escaped(path).utf8)
    bytes.append(contentsOf: ": ".utf8)
    TextLook.red.append(styling: styling, to: &bytes) {
      if let old {
        $0.append(contentsOf: TerminalText.escaped(old.compactText).utf8)
        $0.append(contentsOf: " → ".utf8)
      } else {
        $0.append(contentsOf: "→ ".utf8)
      }
    }
    TextLook.green.append(styling: styling, to: &bytes) {
      $0.append(contentsOf: TerminalText.escaped(new.compactText).utf8)
    }
  }

  /// Appends `   12    +1.234s  description (padded to 50 columns) applied` and a line
  /// feed: the sequence right-aligned to `width`, the time to 10 (both ASCII), the
  /// description (escaped) padded to 50 columns, the outcome (0 applied, 1 unchanged, 2
  /// rejected with `reason`, escaped).
  @usableFromInline static func append(
    sequence: UInt64, time: UInt64, description: String, outcome: Int, reason: String?,
    width: Int, styling: TextStyling, to bytes: inout [UInt8]
  ) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 160) { scratch in
      let out = scratch.baseAddress!
      // What is styled, decided once a line.
      let dims = styling.attributes
      let look: TextLook = outcome == 0 ? .green : outcome == 1 ? .dim : .red
      let looks = styling.shows(look)
      // The sequence and the time, right-aligned (ASCII: a byte a column).
      var count = 0
      count = DoubleText.writeDigits(sequence, to: out + 32)
      let pad = max(width - count, 0)
      (out + pad).update(from: out + 32, count: count)
      out.update(repeating: 0x20, count: pad)
      count += pad
      out[count] = 0x20
      out[count + 1] = 0x20
      count += 2
      if dims { count += LineBytes.write(TextLook.dim.sequences.start, to: out + count) }
      // Written apart from the line (at 128: the line so far is at most 26 bytes, the
      // time at most 32), then moved into it.
      if let written = Format.writeOffset(time, to: out + 128) {
        let pad = max(10 - written, 0)
        (out + count + pad).update(from: out + 128, count: written)
        (out + count).update(repeating: 0x20, count: pad)
        count += pad + written
      } else {
        bytes.append(contentsOf: UnsafeBufferPointer(start: out, count: count))
        count = 0
        let start = bytes.count
        Format.appendOffset(time, to: &bytes)
        let written = bytes.count - start
        if written < 10 {
          bytes.insert(contentsOf: repeatElement(0x20, count: 10 - written), at: start)
        }
      }
      if dims { count += LineBytes.write(TextLook.dim.sequences.end, to: out + count) }
      out[count] = 0x20
      out[count + 1] = 0x20
      count += 2
      bytes.append(contentsOf: UnsafeBufferPointer(start: out, count: count))
      // The description, padded to 50 columns, and the outcome.
      let columns = LineBytes.appendShown(description, to: &bytes)
      count = max(50 - columns, 0)
      out.update(repeating: 0x20, count: count + 1)
      count += 1
      if looks { count += LineBytes.write(look.sequences.start, to: out + count) }
      switch outcome {
      case 0: count += LineBytes.write("applied", to: out + count)
      case 1: count += LineBytes.write("unchanged", to: out + count)
      default:
        count += LineBytes.write("rejected: ", to: out + count)
        bytes.append(contentsOf: UnsafeBufferPointer(start: out, count: count))
        count = 0
        bytes.append(contentsOf: TerminalText.escaped(reason ?? "").utf8)
      }
      if looks { count += LineBytes.write(look.sequences.end, to: out + count) }
      out[count] = 0x0A
      bytes.append(contentsOf: UnsafeBufferPointer(start: out, count: count + 1))
    }
  }
}

/// `find --all`'s text line of a match, written as bytes: not generic, so compiled once.
@usableFromInline enum MatchText {
  /// Appends `  event 12 at +1.234s: description (rejected)  → value` and a line feed
  /// (`(rejected)` only for a rejected event, the value only when there is one).
  @usableFromInline static func append(
    sequence: UInt64, time: UInt64, description: String, rejected: Bool, value: JSONValue?,
    styling: TextStyling, to bytes: inout [UInt8]
  ) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { scratch in
      let out = scratch.baseAddress!
      // What is styled, decided once a line.
      let dims = styling.attributes
      let colours = styling.colours
      var count = LineBytes.write("  event ", to: out)
      count += DoubleText.writeDigits(sequence, to: out + count)
      count += LineBytes.write(" at ", to: out + count)
      if let written = Format.writeOffset(time, to: out + count) {
        count += written
      } else {
        bytes.append(contentsOf: UnsafeBufferPointer(start: out, count: count))
        count = 0
        Format.appendOffset(time, to: &bytes)
      }
      count += LineBytes.write(": ", to: out + count)
      if colours { count += LineBytes.write(TextLook.cyan.sequences.start, to: out + count) }
      bytes.append(contentsOf: UnsafeBufferPointer(start: out, count: count))
      _ = LineBytes.appendShown(description, to: &bytes)
      count = 0
      if colours { count += LineBytes.write(TextLook.cyan.sequences.end, to: out + count) }
      if rejected {
        out[count] = 0x20
        count += 1
        if dims { count += LineBytes.write(TextLook.dim.sequences.start, to: out + count) }
        count += LineBytes.write("(rejected)", to: out + count)
        if dims { count += LineBytes.write(TextLook.dim.sequences.end, to: out + count) }
      }
      if let value {
        count += LineBytes.write("  ", to: out + count)
        if dims { count += LineBytes.write(TextLook.dim.sequences.start, to: out + count) }
        count += LineBytes.write("→ ", to: out + count)
        bytes.append(contentsOf: UnsafeBufferPointer(start: out, count: count))
        count = 0
        value.appendCompact(to: &bytes)
        if dims { count += LineBytes.write(TextLook.dim.sequences.end, to: out + count) }
      }
      out[count] = 0x0A
      bytes.append(contentsOf: UnsafeBufferPointer(start: out, count: count + 1))
    }
  }

  /// Appends a match as an element of `find --json`'s `"matches"` array, after `,\n` and
  /// the element's indent: `{"seq": …, "value": …, "time_us": …, "event": …, "outcome":
  /// …}` as its pretty text reads two levels deep (`value` when there is one, the event's
  /// members when there is an event; outcome 0 applied, 1 unchanged, 2 rejected with
  /// `reason`).
  @usableFromInline static func appendJSON(
    sequence: UInt64, value: JSONValue?, time: UInt64?, event: JSONValue?, outcome: Int?,
    reason: String?, to bytes: inout [UInt8]
  ) {
    var members: [(String, JSONValue)] = [("seq", .int(Int64(sequence)))]
    if let value { members.append(("value", value)) }
    if let time, let event {
      members.append(("time_us", .int(Int64(time))))
      members.append(("event", event))
      switch outcome {
      case 0?: members.append(("outcome", "applied"))
      case 1?: members.append(("outcome", "unchanged"))
      case 2?:
        members.append(("outcome", "rejected"))
        members.append(("reason", .string(reason ?? "")))
      default: break
      }
    }
    bytes.append(contentsOf: ",\n    ".utf8)
    JSONValue.object(members).appendPretty(level: 2, to: &bytes)
  }

  /// ``appendJSON(sequence:value:time:event:outcome:reason:to:)`` of a match at an event,
  /// whose text `event` appends (``appendEventJSON(_:to:)``'s, at the element's third
  /// level): the same bytes, written without building the element as a value.
  @usableFromInline static func appendJSON(
    sequence: UInt64, value: JSONValue?, time: UInt64, outcome: Int?, reason: String?,
    to bytes: inout [UInt8], event: (inout [UInt8]) -> Void
  ) {
    bytes.append(contentsOf: ",\n    {\n      \"seq\": ".utf8)
    Format.appendDigits(sequence, to: &bytes)
    if let value {
      bytes.append(contentsOf: ",\n      \"value\": ".utf8)
      value.appendPretty(level: 3, to: &bytes)
    }
    bytes.append(contentsOf: ",\n      \"time_us\": ".utf8)
    Format.appendDigits(time, to: &bytes)
    bytes.append(contentsOf: ",\n      \"event\": ".utf8)
    event(&bytes)
    switch outcome {
    case 0?: bytes.append(contentsOf: ",\n      \"outcome\": \"applied\"".utf8)
    case 1?: bytes.append(contentsOf: ",\n      \"outcome\": \"unchanged\"".utf8)
    case 2?:
      bytes.append(contentsOf: ",\n      \"outcome\": \"rejected\",\n      \"reason\": ".utf8)
      JSONValue.appendQuoted(reason ?? "", to: &bytes)
    default: break
    }
    bytes.append(contentsOf: "\n    }".utf8)
  }

  /// Appends an event's JSON as a match's element holds it (three levels in).
  @usableFromInline static func appendEventJSON(_ event: JSONValue, to bytes: inout [UInt8]) {
    event.appendPretty(level: 3, to: &bytes)
  }

  /// Appends the line of a match at the start of the search (no event):
  /// `  at the start (initial state)  = value` at 0, `  at event 12 (the start of the
  /// search)  = value` after it.
  @usableFromInline static func appendStart(
    sequence: UInt64, value: JSONValue, styling: TextStyling, to bytes: inout [UInt8]
  ) {
    if sequence == 0 {
      bytes.append(contentsOf: "  at the start (initial state)  ".utf8)
    } else {
      bytes.append(contentsOf: "  at event ".utf8)
      Format.appendDigits(sequence, to: &bytes)
      bytes.append(contentsOf: " (the start of the search)  ".utf8)
    }
    TextLook.dim.append(styling: styling, to: &bytes) {
      $0.append(contentsOf: "= ".utf8)
      value.appendCompact(to: &$0)
    }
    bytes.append(0x0A)
  }
}
