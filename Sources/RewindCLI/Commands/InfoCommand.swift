import RewindArguments
import RewindCore
import RewindJournal
import RewindStream

extension RewindTool {
  struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "info", abstract: "Describe a journal: its session, size and condition.",
      discussion: """
        Reads the header and the index only, so it is instant on a closed journal (one \
        whose index is missing or damaged is read frame by frame); `rewind verify` checks \
        every frame. With --json, `integrity` gives the condition's lines \
        and `lostEvents` the events a salvage lost, as `verify --json` does: \
        [{"from": N, "to": M}], empty when none were.
        """)

    let registry: DomainRegistry

    @Argument(help: "The journal to describe.")
    var journal: String
    @Flag(help: "Print JSON.")
    var json: Bool

    func run(_ context: Context) throws {
      try registry.open(journal, warnings: nil, InfoCommand(json: json, context: context))
    }
  }
}

struct InfoCommand: TimelineVisitor {
  let json: Bool
  let context: Context

  func visit<D: RecordableDomain>(_ timeline: Timeline<D>) throws {
    let reader = timeline.reader
    let header = reader.header
    let condition = reader.condition
    let events = reader.recordCount
    let snapshots = reader.frames.reduce(0) { $0 + Int($1.snapshotCount) }
    let bytesPerEvent = events > 0 ? Double(reader.fileSize) / Double(events) : 0
    var integrity: [String] = []
    let writer = condition.isClosed ? nil : reader.currentWriter()
    if condition.openedFromIndex && condition.isClosed {
      integrity.append("closed, index present")
    } else if condition.openedFromIndex {
      // A session on a server, whose index the server keeps, pushed from a journal that
      // was not closed yet.
      integrity.append(
        "not closed on the server: it holds \(Format.count(events, "event")), up to event \(reader.lastSequence); pushing the journal again once it is closed closes it"
      )
    } else if !condition.isClosed {
      integrity.append(
        Format.notClosed(
          events: events, last: reader.lastSequence, writer: writer,
          damagedEnd: condition.tornTail?.isDamagedEnd ?? false))
    } else if condition.isWrittenPastTrailer {
      // Its index is whole; the bytes after it (said below) made the reader walk.
      integrity.append("closed, then written past: bytes follow its trailer")
    } else {
      integrity.append("index unusable: \(condition.walkReason ?? "its frames were walked")")
    }
    if let reason = condition.headerDamage?.reason ?? condition.headerCopyDamage?.reason {
      integrity.append("\(reason); run `rewind recover`")
    }
    if let tail = condition.tornTail {
      integrity.append(
        tail.isDamagedEnd
          ? "damaged end: \(Format.count(tail.length, "byte")) at byte \(tail.offset), its index or trailer (\(tail.reason)); no event is in them; run `rewind recover`"
          : "torn tail: \(Format.count(tail.length, "byte")) at byte \(tail.offset) (\(tail.reason)); run `rewind recover`"
      )
    }
    for damage in condition.damage {
      let range = damage.sequenceRange.map { " (\(Format.events($0)))" } ?? ""
      integrity.append("damaged at byte \(damage.byteRange.lowerBound)\(range): \(damage.reason)")
    }
    for lost in condition.lostRanges {
      integrity.append("\(Format.events(lost)) lost (salvaged)")
    }
    if json {
      context.stdout.printJSON(
        .object([
          ("path", .string(timeline.path)),
          ("formatVersion", .string(header.formatVersion.description)),
          ("domain", .string(header.domain)), ("schemaVersion", .int(Int64(header.schemaVersion))),
          ("readAsSchemaVersion", .int(Int64(D.schemaVersion))),
          ("upcast", .bool(timeline.upcast != nil)),
          ("session", .string(header.sessionID.description)),
          ("start", .string(ISO8601.format(header.startTime))), ("device", .string(header.device)),
          ("events", .int(Int64(events))), ("lastSequence", .int(Int64(reader.lastSequence))),
          ("durationMicroseconds", .int(Int64(reader.lastTime))),
          ("frames", .int(Int64(reader.frames.count))), ("snapshots", .int(Int64(snapshots))),
          ("snapshotInterval", .int(Int64(header.snapshotInterval))),
          ("bytes", .int(Int64(reader.fileSize))),
          ("bytesPerEvent", .double((bytesPerEvent * 1_000).rounded() / 1_000)),
          ("closed", .bool(condition.isClosed)), ("intact", .bool(condition.isIntact)),
          // `intact` is what opening found (the header, the index, the end): the frames'
          // checksums are not read, as the text's integrity line says; `verify` reads them.
          ("framesChecked", .bool(false)),
          ("writing", .bool(writer != nil)),
          ("writerPid", writer?.pid.map { .int(Int64($0)) } ?? .null),
          ("integrity", .array(integrity.map(JSONValue.string))),
          ("lostEvents", .array(condition.lostRanges.map(BlameCommand.json))),
          ("settings", timeline.domain.settingsJSON),
          (
            "parent",
            header.parent.map { parent in
              .object([
                // (An older Rewind may have written a session URL's password there.)
                (
                  "path",
                  .string(StreamStore.maskingPasswords(in: parent.path, hidingTokens: true))
                ),
                ("session", .string(parent.sessionID.description)),
                ("seq", .int(Int64(parent.sequence))),
              ])
            } ?? .null
          ),
        ]))
      return
    }
    let style = context.stdout.style
    func row(_ label: String, _ value: String) {
      context.stdout.print(style.bold(Format.padded(label, to: 11)) + value)
    }
    // The path, the domain and the device are text from outside: shown escaped.
    row("Journal", TerminalText.escaped(timeline.path))
    row(
      "Domain",
      "\(TerminalText.escaped(header.domain)) (schema \(header.schemaVersion), format \(header.formatVersion))"
    )
    if let upcast = timeline.upcast {
      // A salvaged journal cannot be upgraded whole (the replay cannot cross its lost
      // events): `upgrade` says what it can rewrite.
      let rewrite =
        reader.lostRanges.isEmpty
        ? "`rewind upgrade` rewrites the journal in schema \(upcast.to)"
        : "`rewind upgrade` cannot rewrite it whole, as events were lost to damage, and says which part it can"
      row("Upcast", "schema \(upcast.from) is read as schema \(upcast.to); \(rewrite)")
    }
    row("Session", header.sessionID.description)
    row("Started", "\(ISO8601.format(header.startTime)) on \(TerminalText.escaped(header.device))")
    if let parent = header.parent {
      // Continued from `play`'s cursor, or an edited copy (`state -o`): the parent's events
      // up to the point, then its own.
      let point =
        parent.sequence == 0
        ? "at the start: none of its events is that session's"
        : "after event \(parent.sequence): "
          + (parent.sequence == 1
            ? "its event 1 is that session's"
            : "its events 1–\(parent.sequence) are that session's")
      row(
        "Branched",
        "from \(TerminalText.escaped(StreamStore.maskingPasswords(in: parent.path))) (session \(parent.sessionID)) \(point)"
      )
    }
    let first = reader.frames.first?.firstSequence ?? 1
    let span =
      events == 0
      ? "" : first == reader.lastSequence ? " (\(first))" : " (\(first)–\(reader.lastSequence))"
    row("Events", "\(Format.count(events))\(span) over \(Format.duration(reader.lastTime))")
    row(
      "Storage",
      "\(Format.count(reader.frames.count, "frame")), \(Format.count(snapshots, "snapshot")) (every \(Format.count(header.snapshotInterval, "event")))"
    )
    // A session on a server: its header and frames as a journal file holds them (no index
    // or trailer: the server keeps its own).
    let place =
      StreamStore.looksLikeSessionURL(timeline.path) ? "in its header and frames" : "on disk"
    row(
      "Size",
      "\(Format.bytes(reader.fileSize)) \(place), \(Format.decimal(bytesPerEvent, places: 2)) bytes/event"
    )
    let healthy = condition.isIntact && condition.lostRanges.isEmpty && condition.isClosed
    for (index, line) in integrity.enumerated() {
      // The header and the index read, not the frames: said, where all looks well.
      let unread = healthy && index == 0 ? " (frames not checked: `rewind verify` checks them)" : ""
      let shown = TerminalText.escaped(line) + unread
      row(index == 0 ? "Integrity" : "", healthy ? shown : style.yellow(shown))
    }
  }
}
