import RewindArguments
import RewindCore
import RewindJournal

extension RewindTool {
  struct Upgrade: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "upgrade", abstract: "Rewrite a journal of an older schema in the current one.",
      discussion: """
        Reads the journal's events and snapshots upcast to the current schema (as every \
        command does), makes sure the current reducer replays them as they were recorded \
        (as `rewind check` does: each event's outcome and changed fields, and the states \
        its snapshots stored; a journal without snapshots gets a note, since there a \
        value the upcast gets wrong keeps every outcome), and records them again in a new journal of the current \
        schema, with the same session id, start, device, event times and snapshot \
        interval. The new journal appears only once it is complete; the original is \
        never written. A journal with a torn tail (its last frame cut short by a crash) is \
        refused, nothing written: the new journal would leave out what the tail holds \
        without a trace. `rewind recover JOURNAL -o RECOVERED.journal` cuts the tail \
        first, saying what it drops; then upgrade RECOVERED.journal. A salvaged journal \
        (events lost to damage) is refused too, nothing written: its replay cannot cross \
        them. Every command reads it as it is; `rewind export JOURNAL --to N` (N the last \
        event before the lost ones), then `rewind import`, rewrites the events before \
        them in the current schema. A journal already of the current schema has nothing \
        to upgrade: that is said on standard error, nothing is written (-o is neither \
        created nor changed) and the exit is 0, so that a script may upgrade a folder. \
        The journal's expected state (NAME.state.json, which `rewind check` compares) is \
        not upgraded: it gives only the fields of the older schema, and `check --update` \
        refreshes only the fields it gives. Check the new journal against it (`rewind \
        check NEW.journal --expect NAME.state.json`), then, with no NEW.state.json there, \
        `rewind check --update NEW.journal` writes the whole state.
        """,
      exitStatuses: [
        ExitStatusHelp(
          "0", "Also when the journal is already of the current schema: nothing is written."),
        ExitStatusHelp(
          "1",
          "Also when the journal cannot be upgraded (damaged, a torn tail, events lost to damage, a replay other than the recording): nothing is written."
        ),
      ])

    let registry: DomainRegistry

    @Argument(help: "The journal to upgrade.")
    var journal: String
    @Option(short: "o", valueName: "journal", help: "The journal to write.")
    var output: String
    @Flag(help: "Replace the output file if it exists.")
    var force: Bool
    @Flag(help: "Print JSON.")
    var json: Bool

    func run(_ context: Context) throws {
      // Refuse a bad destination before replaying anything; a file already there, once
      // the journal is known to need an upgrade (one already current writes nothing).
      let destination = try outputDestination(
        output, force: force, inputs: [journal], existingLater: true)
      // Warned of by the command, which refuses a torn tail instead.
      try registry.open(
        journal, warnings: nil,
        UpgradeCommand(destination: destination, json: json, context: context))
    }
  }
}

struct UpgradeCommand: TimelineVisitor {
  let destination: FileDestination
  let json: Bool
  let context: Context

  func visit<D: RecordableDomain>(_ timeline: Timeline<D>) throws {
    let header = timeline.header
    guard let upcast = timeline.upcast else {
      // Nothing to do is no failure: a script upgrading a folder tells it from one by the
      // status. Nothing is written, so -o is left as it was.
      let output = TerminalText.escaped(destination.path)
      let left =
        fileExists(destination.path) ? "\(output) is left as it was" : "\(output) was not created"
      context.stderr.print(
        "\(context.stderr.style.yellow("note:")) \(TerminalText.escaped(timeline.path)): the journal already has schema \(D.schemaVersion) of '\(D.identifier)', the current one; there is nothing to upgrade, so nothing was written (\(left))"
      )
      if json {
        context.stdout.printJSON(
          .object([
            ("journal", .null), ("upgraded", false), ("events", .int(Int64(timeline.eventCount))),
            ("fromSchemaVersion", .int(Int64(D.schemaVersion))),
            ("schemaVersion", .int(Int64(D.schemaVersion))),
            ("session", .string(header.sessionID.description)),
          ]))
      }
      return
    }
    // A torn tail (a crash while writing the last frame) is what readers skip: the new
    // journal, closed and whole, would lose what it held without a trace. Recovery cuts it
    // and says what it drops; the recovered journal upgrades. (A damaged index or trailer
    // holds no event: the new journal has its own.)
    if let tail = timeline.reader.condition.tornTail, !tail.isDamagedEnd {
      let path = timeline.path
      let events = tail.sequenceRange.map { " (\(JournalError.describe($0)))" } ?? ""
      let (they, them) = tail.length == 1 ? ("it holds", "it") : ("they hold", "them")
      throw CommandError(
        "\(path): \(tail.described); an upgrade would leave out what \(they)\(events), so nothing was written. `rewind recover \(Format.shellPath(path)) -o RECOVERED.journal` cuts \(them), says what it drops and leaves \(path) as it is; then upgrade RECOVERED.journal"
      )
    }
    // Events lost to damage (a salvaged journal): the new journal, replayed from the start,
    // cannot cross them, nor hold the events after them as they were. The journal reads
    // as it is; the events before the first lost ones export and import in the current
    // schema.
    let lost = timeline.lostEvents(in: 0...timeline.lastSequence)
    if let first = lost.first {
      let path = timeline.path
      let described = lost.map { JournalError.describe($0) }.joined(separator: ", ")
      let verb = lost.count == 1 && first.count == 1 ? "was" : "were"
      var message =
        "\(path): \(described) \(verb) lost to damage; an upgrade replays and records the whole session, which cannot cross them, so nothing was written. Every command reads \(path) as it is (schema \(upcast.from) upcast to \(upcast.to))."
      if first.lowerBound > 1 {
        let kept = first.lowerBound - 1
        message +=
          " To rewrite \(JournalError.describe(1...kept)), before the lost ones, in schema \(upcast.to): `rewind export \(Format.shellPath(path)) --to \(kept) -o BEFORE.jsonl`, then `rewind import BEFORE.jsonl -o UPGRADED.journal`"
      }
      throw CommandError(message)
    }
    try requireAvailable(destination)
    DomainRegistry.warn(about: timeline.reader, to: context.stderr)
    timeline.warnOfUntrustedSnapshots(to: context.stderr)
    let progress = context.progress("Upgrading")
    let count = timeline.eventCount
    // The current reducer must replay the journal as it was recorded: otherwise the new
    // recording would rewrite what the events did. The timeline's domain writes the
    // current schema, and knows the ids the events name that the catalog lacks.
    let report: CheckReport
    do {
      report = try timeline.upgrade(
        to: destination,
        options: context.batchRecordingOptions(snapshotInterval: header.snapshotInterval).journal
      ) { done in
        progress.update(Int(done), of: Int(count) * 2)
      }
    } catch let error as UpgradeDivergence {
      progress.finish()
      throw CommandError(
        "\(error.message), so nothing was written (`rewind check \(Format.shellPath(timeline.path))` shows the difference)"
      )
    }
    progress.finish()
    if report.snapshotsCompared == 0, count > 0 {
      // Outcomes and changed fields hold whatever value an upcast gives a field: only a
      // stored state compares values.
      context.stderr.print(
        "\(context.stderr.style.yellow("note:")) \(TerminalText.escaped(timeline.path)) stores no snapshot: the upgrade compared each event's outcome and changed fields with the recording, not the values of its states (an upcast that gives a field a wrong value, a unit changed, passes); compare a state you know with `rewind state` of the new journal"
      )
    }
    if json {
      context.stdout.printJSON(
        .object([
          ("journal", .string(destination.path)), ("upgraded", true),
          ("events", .int(Int64(count))),
          ("fromSchemaVersion", .int(Int64(upcast.from))),
          ("schemaVersion", .int(Int64(upcast.to))),
          ("session", .string(header.sessionID.description)),
        ]))
    } else {
      context.stdout.print(
        "Upgraded \(Format.count(count, "event")) of \(TerminalText.escaped(timeline.path)) from schema \(upcast.from) to schema \(upcast.to) of '\(D.identifier)': \(TerminalText.escaped(destination.path))"
      )
    }
  }
}
