import RewindArguments
import RewindCore
import RewindJournal

extension RewindTool {
  struct State: PointCommand {
    static let configuration = CommandConfiguration(
      name: "state", abstract: "Print the state at a point in a session.",
      discussion: """
        With --skip, the state is replayed as if the skipped events had not happened (a \
        counterfactual, like skipping an action in Redux DevTools); --replace N:EVENT \
        replays event N as another event (at its time), and --insert N:EVENT adds an event \
        after event N (0: before the first; at event N's time; several at one point in the \
        order given; those at the --at point are included). EVENT is an event as a line of \
        `rewind export` or `rewind import` writes it, e.g. \
        '{"event":"categorySelected","id":"grinders"}' (seq and time_us, if there, are not \
        used). The journal is not changed: the differences from the recorded state are \
        listed after the state, then each event the edits put in with what the reducer \
        did with it (one it rejected changes nothing), then the later events (to the end \
        of the session) whose outcome or changed fields are no longer what the recording \
        says. -o writes the \
        whole edited session as a new journal (atomically; an existing file only with \
        --force), its header naming the journal it came from. --json prints the state \
        alone.
        """)

    let registry: DomainRegistry

    @Argument(help: "The journal to read.")
    var journal: String
    @Option(valueName: "point", help: "The point in the session.")
    var at: PointArgument = .end
    @Option(
      valueName: "seq,...", help: "Sequence numbers of events to leave out.",
      transform: sequenceNumbers)
    var skip: [[UInt64]]
    @Option(
      valueName: "seq:event", help: "Insert an event after event seq (0: at the start).",
      transform: { text throws(InvalidValue) in try EventEditArgument(text, allowingZero: true) })
    var insert: [EventEditArgument]
    @Option(
      valueName: "seq:event", help: "Replay event seq as this event instead.",
      transform: { text throws(InvalidValue) in try EventEditArgument(text, allowingZero: false) })
    var replace: [EventEditArgument]
    @Option(short: "o", valueName: "journal", help: "Write the edited session as a journal.")
    var output: String?
    @Flag(help: "Replace the -o journal if it exists.")
    var force: Bool
    @Flag(help: "Print the state as JSON.")
    var json: Bool

    func run(_ context: Context) throws {
      let edited = !skip.isEmpty || !insert.isEmpty || !replace.isEmpty
      guard output == nil || edited else {
        throw UsageError("-o writes an edited session: give --skip, --insert or --replace")
      }
      // An event skipped twice is a slip (another number meant), as one replaced twice.
      var seen = Set<UInt64>()
      for event in skip.joined() where !seen.insert(event).inserted {
        throw UsageError(
          .invalidValue,
          "The value '\(event)' is invalid for '--skip <seq,...>': event \(event) is already skipped"
        )
      }
      // One already there is refused once the point and the edits are known to be right.
      let destination = try outputDestination(
        output, force: force, inputs: [journal], existingLater: true)
      var command = StateCommand(
        at: at, skip: Set(skip.joined()), json: json, context: context)
      command.inserts = insert
      command.replacements = replace
      command.destination = destination
      command.journal = journal
      try registry.open(journal, warnings: context.stderr, command)
    }
  }
}

/// `--insert` or `--replace`: `SEQ:EVENT`, the event's JSON decoded once the journal's
/// domain is known.
struct EventEditArgument: Sendable {
  var sequence: UInt64
  var text: String
  /// The argument as given, for messages.
  var argument: String

  init(_ argument: String, allowingZero: Bool) throws(InvalidValue) {
    let expected =
      "expected SEQ:EVENT, a sequence number, a colon and the event's JSON, e.g. 3:{\"event\":\"backTapped\"}"
    guard let colon = argument.firstIndex(of: ":") else { throw InvalidValue(expected) }
    let sequence = try sequenceNumber(argument[..<colon], expected: expected)
    guard allowingZero || sequence > 0 else {
      throw InvalidValue("there is no event 0: events count from 1")
    }
    self.sequence = sequence
    self.text = String(argument[argument.index(after: colon)...])
    self.argument = argument
  }
}

struct StateCommand: TimelineVisitor {
  let at: PointArgument
  let skip: Set<UInt64>
  let json: Bool
  let context: Context
  var inserts: [EventEditArgument] = []
  var replacements: [EventEditArgument] = []
  var destination: FileDestination?
  var journal = ""

  /// The edits, their events decoded by the journal's domain and their places checked
  /// against the point.
  func edits<D: Domain>(_ timeline: Timeline<D>, at sequence: UInt64) throws -> EventEdits<D.Event>
  {
    var edits = EventEdits<D.Event>(skipped: skip)
    func decode(_ edit: EventEditArgument, option: String) throws -> D.Event {
      do throws(RewindError) {
        return try JSONLines.event(parsing: edit.text, in: timeline.domain)
      } catch {
        throw UsageError(
          .invalidValue,
          "The value \(Format.quoted(edit.argument)) is invalid for '\(option)': \(error.message)"
        )
      }
    }
    for edit in replacements {
      guard edit.sequence <= sequence else {
        throw UsageError(
          .invalidValue,
          "The value \(Format.quoted(edit.argument)) is invalid for '--replace <seq:event>': only \(sequence == 0 ? "events before the point" : Format.events(1...sequence) + ", up to the point,") can be replaced"
        )
      }
      guard edits.replaced[edit.sequence] == nil, !skip.contains(edit.sequence) else {
        throw UsageError(
          .invalidValue,
          "The value \(Format.quoted(edit.argument)) is invalid for '--replace <seq:event>': event \(edit.sequence) is already skipped or replaced"
        )
      }
      edits.replaced[edit.sequence] = try decode(edit, option: "--replace <seq:event>")
    }
    for edit in inserts {
      guard edit.sequence <= sequence else {
        throw UsageError(
          .invalidValue,
          "The value \(Format.quoted(edit.argument)) is invalid for '--insert <seq:event>': events can be inserted at points 0–\(sequence), up to the point"
        )
      }
      edits.inserted[edit.sequence, default: []].append(
        try decode(edit, option: "--insert <seq:event>"))
    }
    return edits
  }

  /// Refuses an edit of an event lost to damage in a salvaged journal: one skipped or
  /// replaced is not there, and one inserted after it would be at its time, which is not
  /// known (named as given: the replay's own error names the point before it).
  func refuseLostEdits<D: Domain>(_ timeline: Timeline<D>) throws(UsageError) {
    let lost = timeline.lostEvents(in: 0...timeline.lastSequence)
    func refuse(_ event: UInt64, _ value: String, _ option: String, _ why: String)
      throws(UsageError)
    {
      guard let range = lost.first(where: { $0.contains(event) }) else { return }
      throw UsageError(
        .invalidValue,
        "The value \(Format.quoted(value)) is invalid for '\(option)': event \(event) was lost to damage (\(Format.events(range)) \(range.count == 1 ? "was" : "were") salvaged away): \(why)"
      )
    }
    for event in skip.sorted() {
      try refuse(event, String(event), "--skip <seq,...>", "it is not there to skip")
    }
    for edit in replacements {
      try refuse(
        edit.sequence, edit.argument, "--replace <seq:event>", "it is not there to replace")
    }
    for edit in inserts {
      try refuse(
        edit.sequence, edit.argument, "--insert <seq:event>",
        "its time, at which the event would be inserted, is not known")
    }
  }

  /// Refuses edits before events lost to damage where what they change would have to be
  /// carried across them to the point: replay cannot cross them. With -o, any events lost
  /// to damage: the whole session is replayed from its first event.
  func refuseEditsAcrossLost<D: Domain>(
    _ timeline: Timeline<D>, edits: EventEdits<D.Event>, through point: UInt64
  ) throws {
    let path = TerminalText.escaped(timeline.path)
    if destination != nil, let lost = timeline.lostEvents(in: 0...timeline.lastSequence).first {
      throw CommandError(
        "\(path): \(Format.events(lost)) \(lost.count == 1 ? "was" : "were") lost to damage, and -o writes the whole edited session, replayed from its first event, which cannot cross them"
      )
    }
    guard let unchanged = edits.lastUnchangedPoint, unchanged < point,
      let lost = timeline.lostEvents(in: unchanged...point).first(where: {
        $0.lowerBound > unchanged
      })
    else { return }
    throw CommandError(
      "\(path): \(Format.events(lost)) \(lost.count == 1 ? "was" : "were") lost to damage after the first edit, and replay cannot carry the edits across them: see the edited state at a point before them (--at \(lost.lowerBound - 1) or earlier), or edit events after them"
    )
  }

  func visit<D: RecordableDomain>(_ timeline: Timeline<D>) throws {
    // With -o, the whole session is edited: edits may lie anywhere in it.
    let sequence = try timeline.resolve(at, option: "--at <point>")
    let editable = destination == nil ? sequence : timeline.lastSequence
    for event in skip where event == 0 || event > editable {
      let allowed =
        editable == 0
        ? "no event comes before the point"
        : "only \(Format.events(1...editable)), up to the point, can be skipped"
      throw UsageError(
        .invalidValue, "The value '\(event)' is invalid for '--skip <seq,...>': \(allowed)")
    }
    try refuseLostEdits(timeline)
    let edits = try edits(timeline, at: editable)
    try refuseEditsAcrossLost(timeline, edits: edits, through: editable)
    if let destination { try requireAvailable(destination) }
    let state = try timeline.state(after: sequence, editing: edits)
    if edits.isEmpty { try timeline.warnOfDrift(reaching: sequence, to: context.stderr) }
    let domain = timeline.domain
    if let destination {
      try write(timeline, edits: edits, to: destination)
    }
    if json {
      context.stdout.printJSON(domain.json(state))
      return
    }
    let style = context.stdout.style
    // A time after the last event is the end state: say that it is the last.
    var title = "State after event \(sequence)"
    if sequence == timeline.lastSequence { title += ", the last" }
    if let lost = timeline.lostEvents(in: (max(sequence, 1) - 1)...sequence).first,
      lost.contains(sequence)
    {
      // The last of events lost to damage: its state is the snapshot stored after them.
      title +=
        " (the last of \(JournalError.describe(lost)), lost to damage: the snapshot stored after them)"
    } else if sequence > 0 {
      let time = try timeline.time(of: sequence)
      title += " (\(Format.offset(time)))"
    } else {
      title = "Initial state (before any event)"
    }
    if !skip.isEmpty {
      title += ", skipping " + skip.sorted().map(String.init).joined(separator: ", ")
    }
    if !replacements.isEmpty {
      title +=
        ", replacing " + replacements.map { String($0.sequence) }.joined(separator: ", ")
    }
    if !inserts.isEmpty {
      let points = Set(inserts.map(\.sequence)).sorted().map(String.init)
      title +=
        ", inserting \(Format.count(UInt64(inserts.count), "event")) at \(points.joined(separator: ", "))"
    }
    context.stdout.print(style.bold(title))
    context.stdout.print()
    context.stdout.print(domain.shownRendering(state))
    guard !edits.isEmpty else { return }
    let changes = domain.diff(try timeline.state(after: sequence), state)
    context.stdout.print()
    if changes.isEmpty {
      context.stdout.print("Same as the recorded state: the edits changed nothing here.")
    } else {
      context.stdout.print(
        style.bold("Compared with the recorded state (- recorded, + with the edits):"))
      for change in changes { printChange(change, to: context.stdout) }
    }
    try printChangedOutcomes(timeline, edits: edits)
    if let destination {
      context.stdout.print()
      context.stdout.print("Wrote the edited session to \(TerminalText.escaped(destination.path))")
    }
  }
}

extension StateCommand {
  /// The most later events listed whose outcome changed.
  static let listLimit = 20

  /// The later events (to the end of the session) that no longer do what the recording
  /// says: another outcome, or other fields changed.
  func printChangedOutcomes<D: Domain>(_ timeline: Timeline<D>, edits: EventEdits<D.Event>)
    throws
  {
    let domain = timeline.domain
    let style = context.stdout.style
    var lines: [String] = []
    var count = 0
    // The events the edits put in (replacing or inserted), with what they did: one the
    // reducer rejected changes nothing, which the state alone does not say.
    var put: [String] = []
    // In a salvaged journal, up to the events lost to damage after the first edit: replay
    // cannot cross them (said below).
    let firstEdited = (edits.lastUnchangedPoint ?? 0) + 1
    let lost =
      firstEdited <= timeline.lastSequence
      ? timeline.lostEvents(in: firstEdited...timeline.lastSequence).first : nil
    let last = lost.map { $0.lowerBound - 1 } ?? timeline.lastSequence
    // Only the events the edits put in and those that differ reach here: the domain's loop
    // passes over the others (the generic one looked up type metadata every event).
    try timeline.forEachEditedDifference(edits, through: last) { edited in
      if edited.edit == .replaced || edited.edit == .inserted, let outcome = edited.outcome,
        put.count < Self.listLimit
      {
        let place =
          edited.edit == .replaced
          ? "event \(edited.sequence) (replaced)" : "after event \(edited.sequence) (inserted)"
        put.append(
          "  \(place) at \(Format.offset(edited.time)): \(style.cyan(domain.shownDescription(edited.event)))  → \(TerminalText.escaped(outcome.summary))"
        )
      }
      guard edited.differsFromRecording, let recorded = edited.recorded,
        let outcome = edited.outcome
      else { return }
      count += 1
      guard lines.count < Self.listLimit else { return }
      // Both sides' fields when both applied: the difference may be only in them.
      var was = Self.name(of: recorded.recorded.kind)
      var now = TerminalText.escaped(outcome.summary)
      if outcome.isApplied, recorded.recorded.kind == .applied {
        was = CheckReport.describe(.applied, domain.paths(of: recorded.recorded.changed))
        now = CheckReport.describe(.applied, domain.paths(of: edited.changed))
      }
      lines.append(
        "  event \(edited.sequence) at \(Format.offset(edited.time)): \(style.cyan(domain.shownDescription(edited.event)))  \(style.dim("recorded \(was)")) → \(now)"
      )
    }
    if !put.isEmpty {
      context.stdout.print()
      context.stdout.print(style.bold("The events the edits put in:"))
      for line in put { context.stdout.print(line) }
    }
    context.stdout.print()
    if let lost {
      context.stdout.print(
        style.dim(
          "The later events are compared up to event \(Format.count(last)): \(JournalError.describe(lost)) were lost to damage, and replay cannot cross them."
        ))
    }
    guard count > 0 else {
      context.stdout.print(
        "No later event's outcome changed: each does what the recording says.")
      return
    }
    context.stdout.print(
      style.bold(
        "\(count == 1 ? "1 later event does" : "\(count) later events do") something else than recorded:"
      ))
    for line in lines { context.stdout.print(line) }
    if count > lines.count { context.stdout.print("  … and \(count - lines.count) more") }
  }

  /// `applied`, `unchanged` or `rejected`.
  static func name(of kind: RecordedEffect.Kind) -> String {
    switch kind {
    case .applied: "applied"
    case .unchanged: "unchanged"
    case .rejected: "rejected"
    }
  }

  /// Writes the whole edited session as a new journal: the recorded events with the
  /// edits, at their times, in a session whose header names this one as its parent.
  func write<D: RecordableDomain>(
    _ timeline: Timeline<D>, edits: EventEdits<D.Event>, to destination: FileDestination
  ) throws {
    let header = timeline.header
    // Events 1…shared are the recorded session's own.
    let shared = min(edits.lastUnchangedPoint ?? .max, timeline.lastSequence)
    let session = SessionInfo(
      startTime: header.startTime, device: header.device,
      parent: ParentSession(
        path: context.resolvedPath(timeline.path), sessionID: header.sessionID, sequence: shared))
    let recorder = try JournalRecorder.create(
      destination, domain: timeline.domain, session: session,
      options: context.batchRecordingOptions(snapshotInterval: header.snapshotInterval))
    // The domain's loop, specialised: the generic one looked up type metadata every event
    // (47 s for 10 M events).
    try timeline.record(edits, into: recorder)
    try recorder.close()
  }
}

/// `--skip`: sequence numbers separated by commas, `3,5`.
private func sequenceNumbers(_ text: String) throws(InvalidValue) -> [UInt64] {
  try text.split(separator: ",", omittingEmptySubsequences: false).map {
    (part) throws(InvalidValue) in
    try sequenceNumber(part, expected: "expected sequence numbers separated by commas, e.g. 12,40")
  }
}

/// One sequence number of an argument, spaces around it ignored; the error names the
/// word that is not one (`expected` says what the whole argument should be) or says that
/// a number is too large.
private func sequenceNumber(_ part: Substring, expected: String) throws(InvalidValue) -> UInt64 {
  let word = part.trimmingCharacters(in: " ")
  if let value = UInt64(word) { return value }
  if !word.isEmpty, word.allSatisfy({ ("0"..."9").contains($0) }) {
    throw InvalidValue(
      "\(Format.quoted(String(word))) is too large for a sequence number (the largest is \(UInt64.max))"
    )
  }
  let what =
    word.isEmpty ? "no sequence number" : "\(Format.quoted(String(word))) is not a sequence number"
  throw InvalidValue("\(what); \(expected)")
}

extension Substring {
  func trimmingCharacters(in set: Character) -> Substring {
    var text = self
    while text.first == set { text.removeFirst() }
    while text.last == set { text.removeLast() }
    return text
  }
}

/// Prints a field change as `path`, `  - old`, `  + new`, coloured on a terminal.
func printChange(_ change: FieldChange, to output: Output) {
  let style = output.style
  output.print(style.bold(TerminalText.escaped(change.path)))
  output.print(style.red("  - \(change.old.compactText)"))
  output.print(style.green("  + \(change.new.compactText)"))
}
