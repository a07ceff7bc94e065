import RewindArguments
import RewindCore
import RewindJournal
import RewindStream

extension RewindTool {
  struct Export: RangeCommand {
    static let configuration = CommandConfiguration(
      name: "export", abstract: "Write a session's events as JSON Lines or a scenario script.",
      discussion: """
        The first line is {"header": {...}} with the session's settings; then one object \
        per event: {"seq": 1, "time_us": 250000, "event": "categorySelected", "id": \
        "grinders"}. `rewind import` reads the same format back, a whole session: a range \
        from a later --from keeps its events' sequence numbers, and import, whose seq counts \
        from 1, refuses it. A journal of an older \
        schema is written upcast to the current one (and a note on stderr says so). With \
        --scenario, the events are written as the domain's scenario script instead, with \
        their settings, device, start and times (to the microsecond, as time steps), which \
        `rewind record` records as the same events; a range's script starts from the \
        initial state, not from the state before the range, and a salvaged session's \
        script goes on across the events lost to damage from the state before them, not \
        from the snapshot after them: a warning on stderr names the first event it then \
        records otherwise than the session did. A session whose settings or \
        events the script language cannot write is refused (exit 1), nothing written.
        """)

    let registry: DomainRegistry

    @Argument(help: "The journal to export.")
    var journal: String
    @Option(valueName: "point", help: "Export events after this point.")
    var from: PointArgument = .start
    @Option(valueName: "point", help: "Export events up to this point.")
    var to: PointArgument = .end
    @Option(
      short: "o", valueName: "file", help: "Write to this file instead of standard output.")
    var output: String?
    @Flag(help: "Replace the output file if it exists.")
    var force: Bool
    @Flag(help: "Write a scenario script that `rewind record` records as the same events.")
    var scenario: Bool

    func run(_ context: Context) throws {
      // A file already there is refused once the range is known to be right.
      let destination = try outputDestination(
        output, force: force, inputs: [journal], existingLater: true)
      let command = ExportCommand(
        from: from, to: to, destination: destination, scenario: scenario, context: context)
      try registry.open(journal, warnings: context.stderr, command)
    }
  }
}

struct ExportCommand: TimelineVisitor {
  let from: PointArgument
  let to: PointArgument
  /// The file to write; nil for standard output.
  let destination: FileDestination?
  var scenario = false
  let context: Context

  func visit<D: RecordableDomain>(_ timeline: Timeline<D>) throws {
    let range = try timeline.resolveRange(from: from, to: to)
    let (first, last) = (range.from + 1, range.to)
    if let destination { try requireAvailable(destination) }
    if scenario {
      try writeScenario(timeline, first: first, last: last)
      return warnIfRecordedOtherwise(timeline, first: first, last: last)
    }
    // The events are replayed from the --from point: one lost to damage is refused before
    // the header goes to standard output.
    try timeline.checkScanStart(range.from)
    // A file appears, complete, only when every line is written.
    let file = try destination.map { try TextFileWriter($0, system: context.fileSystem) }
    let stdout = context.stdout
    let writer = JSONLines.Writer(domain: timeline.domain) { line in
      if let file { try file.write(bytes: line) } else { stdout.write(bytes: line) }
    }
    if let upcast = timeline.upcast {
      context.stderr.print(
        "\(context.stderr.style.yellow("note:")) \(TerminalText.escaped(timeline.path)) has schema \(upcast.from) of '\(D.identifier)'; it is exported upcast to schema \(upcast.to)"
      )
    }
    // A server's password, or a user libnats sends as a token, hidden; a range's last event
    // before the branch point is the last the two share (a prefix of a branch is one).
    var header = JSONLines.Header(timeline.header, domain: timeline.domain) {
      StreamStore.maskingPasswords(in: $0, hidingTokens: true)
    }
    if let shared = header.parent?.sequence { header.parent?.sequence = min(shared, last) }
    try writer.write(header)
    let progress = context.progress("Exporting")
    // The domain's own loop writes the events, a batch of lines at a time.
    try timeline.writeJSONLines(from: first, through: last) { lines in
      if let file { try file.write(bytes: lines) } else { stdout.write(bytes: lines) }
    } progress: { sequence in
      progress.update(Int(sequence + 1 - first), of: Int(last - first + 1))
    }
    progress.finish()
    try file?.commit()
    // Those at the end of the range too, which no replay crosses.
    warnLost(timeline.lostEvents(in: range.from...range.to), in: timeline.path, to: context.stderr)
  }
}

extension ExportCommand {
  /// `--scenario`: the events `first...last` as the domain's scenario script, read back
  /// as it is written to make sure it records the same session (``ScenarioStream``), a
  /// batch of lines at a time: in memory that does not grow with the session.
  ///
  /// A file appears only when the whole script reads back. Standard output gets nothing
  /// from a script that does not: its events are read twice, once to read their lines
  /// back, then to write them.
  func writeScenario<D: RecordableDomain>(_ timeline: Timeline<D>, first: UInt64, last: UInt64)
    throws
  {
    let header = timeline.header
    var comments = ["Exported from \(timeline.path)"]
    let total = timeline.lastSequence
    if last < first && total > 0 {
      comments[0] +=
        ": none of its \(Format.count(total, "event")) (the range after event \(first - 1) holds none)"
    } else if first > 1 || last < total {
      let range = first == last ? "event \(first)" : "events \(first) to \(last)"
      comments[0] += ": \(range) of \(total), recorded from the initial state"
    }
    // Those at the end of the range too, which no replay crosses.
    let lost = timeline.lostEvents(in: (first - 1)...max(last, first - 1))
    comments += lost.map(missingSentence)
    let session = Scenario(
      domain: timeline.domain, device: header.device, startTime: header.startTime, events: [])
    // A domain whose script is not made of its parts is written whole, as it always was.
    var probe = session
    try timeline.decodedEvents(from: first, through: min(last, first &+ 63)) { _, time, event in
      probe.events.append(TimedEvent(time: time, event: event))
    }
    guard ScenarioText.isMadeOfParts(probe) else {
      return try writeWholeScenario(
        timeline, first: first, last: last, session: session, comments: comments, lost: lost)
    }
    /// The script through `emit`, its lines read back when `checking`, under a progress
    /// bar labelled `label` (erased when it ends, whether or not it throws).
    func write(_ label: String, checking: Bool, _ emit: @escaping (String) throws -> Void)
      throws
    {
      let progress = context.progress(label)
      defer { progress.finish() }
      do {
        var script = try ScenarioStream(
          session, comments: comments, checking: checking, emit: emit)
        try timeline.decodedEvents(from: first, through: last) { sequence, time, event in
          try script.append(TimedEvent(time: time, event: event))
          if sequence & 0xFFF == 0 {
            progress.update(Int(sequence + 1 - first), of: Int(last - first + 1))
          }
        }
        try script.finish()
      } catch let problem as ScenarioStream<D>.Problem {
        throw CommandError(
          "\(timeline.path): cannot be written as a scenario script: \(problem.message); export it as JSON Lines (without --scenario)"
        )
      }
    }
    if let destination {
      let file = try TextFileWriter(destination, system: context.fileSystem)
      do {
        try write("Exporting", checking: true) { try file.write($0) }
      } catch {
        file.discard()
        throw error
      }
      try file.commit()
    } else {
      // Read back first, as nothing written to standard output can be taken back.
      try write("Checking", checking: true) { _ in }
      let stdout = context.stdout
      try write("Exporting", checking: false) { text in
        stdout.write(bytes: Array(TerminalText.escaped(text, keepingNewlines: true).utf8))
      }
    }
    warnLost(lost, in: timeline.path, to: context.stderr)
  }

  /// `--scenario` for a domain whose script is not made of its parts
  /// (``ScenarioText/isMadeOfParts(_:)``): the events held, the script written whole by
  /// the domain and read back whole (``ScenarioText``), then written.
  func writeWholeScenario<D: RecordableDomain>(
    _ timeline: Timeline<D>, first: UInt64, last: UInt64, session: Scenario<D>,
    comments: [String], lost: [ClosedRange<UInt64>]
  ) throws {
    var scenario = session
    _ = try context.withProgress("Exporting") { progress in
      try timeline.decodedEvents(from: first, through: last) { sequence, time, event in
        scenario.events.append(TimedEvent(time: time, event: event))
        if sequence & 0xFFF == 0 {
          progress.update(Int(sequence + 1 - first), of: Int(last - first + 1))
        }
      }
    }
    let script = ScenarioText(scenario, comments: comments)
    if let problem = script.problem {
      throw CommandError(
        "\(timeline.path): cannot be written as a scenario script: \(problem); export it as JSON Lines (without --scenario)"
      )
    }
    if let destination {
      let file = try TextFileWriter(destination, system: context.fileSystem)
      try file.write(script.text)
      try file.commit()
    } else {
      context.stdout.write(
        bytes: Array(TerminalText.escaped(script.text, keepingNewlines: true).utf8))
    }
    warnLost(lost, in: timeline.path, to: context.stderr)
  }
}

extension ExportCommand {
  /// Says on standard error when the script records an event otherwise than the session
  /// replays it (another outcome, or other fields changed), naming the first, where the
  /// two start from different states: a range after the first event, whose script starts
  /// from the initial state, not from the state before the range; and the events after
  /// events lost to damage, which the session replays from the snapshot stored after the
  /// lost ones, and the script from the state before them (no line can set a state). From
  /// each such start the events are run through the reducer from both states side by side
  /// until one does something else, the two states become the same (then the rest do the
  /// same), or ``comparedEvents`` were compared (a bound on the cost: each event is
  /// reduced twice, by generic code).
  func warnIfRecordedOtherwise<D: RecordableDomain>(
    _ timeline: Timeline<D>, first: UInt64, last: UInt64
  ) {
    guard first <= last else { return }
    let domain = timeline.domain
    let lost = timeline.lostEvents(in: first...last).filter { $0.upperBound < last }
    // The script's state and the session's, at the range's start.
    guard var session = first > 1 ? try? timeline.state(after: first - 1) : domain.initialState
    else { return }
    var script = domain.initialState
    // Each part between lost events, in order: the script goes on from where it was, the
    // session from the state after the lost ones.
    for part in 0...lost.count {
      if part > 0 {
        let gap = lost[part - 1]
        // The part before ended with the two states the same: the script's is the
        // session's before the lost events.
        guard let before = try? timeline.state(after: gap.lowerBound - 1),
          let after = try? timeline.state(after: gap.upperBound)
        else { return }
        (script, session) = (before, after)
      }
      let start = part == 0 ? first : lost[part - 1].upperBound + 1
      let end = part < lost.count ? lost[part].lowerBound - 1 : last
      // The same state: the part's events do the same from both (none is read).
      var settled = session == script
      guard start <= end, !settled else { continue }
      var expected = start
      var found: (sequence: UInt64, event: D.Event, was: RecordedEffect, now: RecordedEffect)?
      do {
        try timeline.decodedEvents(from: start, through: end) { sequence, _, event in
          guard !settled, sequence == expected, sequence - start < Self.comparedEvents else {
            throw RangeSettled()
          }
          expected += 1
          let (was, wasChanged) = domain.reduceTrackingChanges(&session, event)
          let (now, nowChanged) = domain.reduceTrackingChanges(&script, event)
          let (before, after) = (
            RecordedEffect(was, changed: wasChanged), RecordedEffect(now, changed: nowChanged)
          )
          if before != after {
            found = (sequence, event, before, after)
            throw RangeSettled()
          }
          settled = session == script
        }
      } catch {}
      if let (sequence, event, was, now) = found {
        let from =
          part == 0
          ? "the range from the initial state, not from the state after event \(first - 1)"
          : "the events after the lost ones (\(Format.events(lost[part - 1]))) from the state before them, not from the state the journal holds after them"
        let remedy =
          part == 0
          ? "Export from the start (without --from) to record the same events"
          : "No script records the session's state across events lost to damage"
        return warn(
          timeline, domain, from: from, sequence: sequence, event: event, was: was, now: now,
          remedy: remedy)
      }
      // Not settled within the bound: what the script's state is after the part is not known.
      guard settled else { return }
    }
  }

  /// The warning of ``warnIfRecordedOtherwise(_:first:last:)``: the script records `from`,
  /// so event `sequence` records otherwise, then `remedy`.
  private func warn<D: RecordableDomain>(
    _ timeline: Timeline<D>, _ domain: D, from: String, sequence: UInt64, event: D.Event,
    was: RecordedEffect, now: RecordedEffect, remedy: String
  ) {
    // `applied, changing a, b and c`: the fields apart from the sentence's own commas.
    func said(_ effect: RecordedEffect) -> String {
      var paths = domain.paths(of: effect.changed).map { TerminalText.escaped($0) }
      guard effect.kind == .applied, let last = paths.popLast() else { return "\(effect.kind)" }
      return "applied, changing "
        + (paths.isEmpty ? last : "\(paths.joined(separator: ", ")) and \(last)")
    }
    context.stderr.print(
      "\(context.stderr.style.yellow("warning:")) \(TerminalText.escaped(timeline.path)): the script records \(from), so event \(sequence) (\(TerminalText.escaped(domain.describe(event)))) records otherwise: in the session it was \(said(was)); from the script it is \(said(now)). \(remedy)"
    )
  }
}

extension ExportCommand {
  /// The most events of a range ``warnIfRecordedOtherwise(_:first:last:)`` compares.
  static let comparedEvents: UInt64 = 1 << 20
}

/// Ends ``ExportCommand/warnIfRecordedOtherwise(_:first:last:)``'s pass early.
private struct RangeSettled: Error {}
