import RewindArguments
import RewindCore
import RewindJournal
import RewindSpelling
import RewindStream

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension RewindTool {
  struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "check", abstract: "Replay journals as reducer tests against what was recorded.",
      discussion: """
        Replays each journal with the current reducer and compares every event's outcome \
        and changed fields with those recorded, every snapshot's state hash with the one \
        stored (and the snapshot's bytes with that hash), and the final state with an expected state: the file given with --expect, \
        or else NAME.state.json beside NAME.journal when it exists. An expected state may \
        be partial: only the fields it gives are compared (the output says how many of the \
        state's it gives). A journal without one is reported as such, and fails with \
        --require-expected. Every diverging event is counted, and the first \
        --max-divergences are described (0: none, only the count, eventDivergenceCount \
        in --json). --update writes (or refreshes) each journal's \
        expected state from its replayed final state, atomically (through a symbolic \
        link, the file it leads to); a partial one keeps to \
        the fields it gave, and one that gives a field the state has not is left as it \
        is (the journal fails). A journal whose expected state cannot be read fails, and \
        the others are checked, as a journal that cannot be read fails (a path that is \
        not UTF-8 text too, shown with each byte outside printable ASCII as \\xHH). A \
        journal of an older schema is compared upcast, on the fields \
        its schema had. A journal with a torn tail (bytes after its last whole frame: a \
        crash's unfinished frame, a file cut short) fails, since what they hold is not \
        checked (`rewind recover` cuts them), unless a writer holds it (its frame in \
        progress). A journal that was not closed, cut at a frame's end (its writer killed, \
        or writing still), is checked and said to be not closed: the session may have \
        gone on, and --update writes no state of it (and fails it). Several journals are \
        checked at once on --jobs threads, a long one in parts that any free thread \
        takes; the output is the same, in the order given.
        """,
      exitStatuses: [
        ExitStatusHelp(
          "1",
          "Any journal fails (an event or snapshot that replays otherwise, a final state other than the expected one, a torn tail, no expected state with --require-expected, a journal not closed with --update) or cannot be checked (a path that is not UTF-8 too); the others are checked."
        )
      ])

    let registry: DomainRegistry

    @Argument(name: "journal", help: "The journals to check.")
    var journals: [String]
    @Option(
      valueName: "state.json",
      help:
        "The expected final state (JSON, as `rewind state --json` prints it). A file that cannot be read is the command's error (exit 1, no report, --json's either), where a NAME.state.json beside a journal fails that journal alone.",
      transform: parseExpectedStateFile)
    var expect: String?
    @Flag(help: "Print JSON.")
    var json: Bool
    @Option(
      valueName: "n",
      help:
        "Check journals, and parts of a long journal, on this many threads (default: the cores).",
      transform: Jobs.parse)
    var jobs: Int?
    @Option(
      valueName: "n",
      help:
        "Describe at most this many diverging events per journal; 0 describes none, only counts them.",
      transform: { text throws(InvalidValue) in
        try parseCount(text, of: "divergences", minimum: 0)
      })
    var maxDivergences: Int = 10
    @Flag(help: "Fail a journal that has no expected state.")
    var requireExpected: Bool
    @Flag(help: "Write each journal's expected state from its replayed final state.")
    var update: Bool

    func run(_ context: Context) throws {
      if expect != nil && journals.count > 1 {
        throw UsageError(
          "--expect applies to one journal; give each journal NAME.state.json instead")
      }
      // A journal whose path is not UTF-8 text fails in its place; an option's value is
      // refused, as every command refuses it.
      try context.argumentsNotUTF8.requireOnly(among: journals)
      let jobs = Jobs.count(jobs)
      var results: [CheckResult] = []
      // Several journals are checked on up to `jobs` threads at once, their parts on the
      // `jobs` cores they share. --update writes what a later journal may read: a journal
      // given twice is checked in turn.
      // A journal whose expected state cannot be read fails, named with the reason; the
      // others are checked. A journal that cannot have one to update is a usage error,
      // found before any is checked.
      if update && expect == nil {
        for journal in journals { _ = try expectedStatePath(of: journal) }
      }
      if journals.count > 1 && jobs > 1 && !(update && Set(journals).count < journals.count) {
        let states = journals.map { journal in
          Result {
            if let error = context.argumentsNotUTF8.error(naming: journal) { throw error }
            return try expectedState(of: journal, context: context)
          }
        }
        let workers = min(jobs, journals.count)
        // A journal splits into parts on one thread more than its share of the jobs, but a
        // part runs only on one of the `jobs` cores all the journals share: a journal that
        // is late takes a core another gave back (the parts' threads and open files stay
        // within twice the jobs, however many journals).
        let cores = SharedCores(jobs)
        let (registry, journals) = (registry, journals)
        let (update, requireExpected, maxDivergences) = (update, requireExpected, maxDivergences)
        results = context.inOrder(
          journals.count, workers: workers,
          label: "Checking \(Format.count(journals.count, "journal"))"
        ) { index, context, progress in
          let state: ExpectedState
          switch states[index] {
          case .success(let read): state = read
          case .failure(let error): return Self.failure(journals[index], error, context: context)
          }
          var command = CheckCommand(
            expected: state.expected, expectedPath: state.path, expectedText: state.text,
            update: update, requireExpected: requireExpected, maxDivergences: maxDivergences,
            jobs: jobs / workers + 1, context: context)
          command.progress = progress
          command.cores = cores
          return Self.check(journals[index], command, registry: registry, context: context)
        }
      } else {
        for journal in journals {
          if let error = context.argumentsNotUTF8.error(naming: journal) {
            results.append(Self.failure(journal, error, context: context))
            continue
          }
          let state: ExpectedState
          do {
            state = try expectedState(of: journal, context: context)
          } catch {
            // The file --expect names is the command's own input.
            if expect != nil { throw error }
            results.append(Self.failure(journal, error, context: context))
            continue
          }
          let command = CheckCommand(
            expected: state.expected, expectedPath: state.path, expectedText: state.text,
            update: update, requireExpected: requireExpected, maxDivergences: maxDivergences,
            jobs: jobs, context: context)
          results.append(Self.check(journal, command, registry: registry, context: context))
        }
      }
      let passed = results.filter(\.passed).count
      let failed = results.count - passed
      if json {
        context.stdout.printJSON(
          .object([
            ("journals", .array(results.map(\.json))), ("passed", .int(Int64(passed))),
            ("failed", .int(Int64(failed))),
          ]))
      } else {
        for result in results { for line in result.lines { context.stdout.print(line) } }
        context.stdout.print(context.stdout.style.bold("\(passed) passed, \(failed) failed"))
      }
      if failed > 0 { throw ExitCode.failure }
    }

    /// The expected state of `journal`, read (an error when it cannot be), and where it
    /// is read from or, with --update, written.
    private func expectedState(of journal: String, context: Context) throws -> ExpectedState {
      // NAME.state.json that is a link leading nowhere: an expected state meant to be
      // there (a fixture not checked out), which fails the journal (it read as none, and
      // the journal passed). --update writes the file it leads to.
      // One that another user's link planted in a sticky directory leads to is not read
      // either (root's check printed what such a file held).
      if expect == nil, journal.hasSuffix(".journal") {
        let candidate = String(journal.dropLast(".journal".count)) + ".state.json"
        switch symbolicLinkTarget(of: candidate, system: context.fileSystem) {
        case .notALink: break
        case .file(let target):
          if !update, !fileExists(candidate) {
            throw CommandError(
              "\(candidate) is a symbolic link to \(target), which does not exist: the expected state cannot be read (`--update` writes it there)"
            )
          }
        case .unfollowable(let leads):
          // --update says so where it writes, naming what it did not write.
          if !update || fileExists(candidate) {
            throw CommandError(
              "\(candidate) is a symbolic link that leads to \(leads): the expected state cannot be read"
            )
          }
        }
      }
      var expectedPath = expect ?? adjacentExpectedState(of: journal)
      let updatePath = update ? try expect ?? expectedStatePath(of: journal) : nil
      var expected: JSONValue?
      var read: String?
      if let expectedPath, !update || fileExists(expectedPath) {
        // One found beside the journal is a file: a named pipe there would hold the check
        // of every journal until something wrote to it (a hang in CI), and a device would
        // be read to the line limit. Given with --expect, it is read as given
        // (/dev/stdin).
        var status = stat()
        if expect == nil, context.fileSystem.stat(expectedPath, &status) == 0,
          status.st_mode & S_IFMT != S_IFREG
        {
          let what =
            status.st_mode & S_IFMT == S_IFDIR
            ? "is a directory" : "is not a regular file (a device, pipe or socket)"
          throw CommandError(
            "\(expectedPath) \(what): the expected state beside a journal is read from a file (--expect reads another)"
          )
        }
        let text: String
        do throws(TextFileError) {
          text = try TextFileReader(
            path: expectedPath, system: context.fileSystem,
            waiting: { waitingForWriter(expectedPath, context) }
          ).remainingText()
        } catch {
          // What was read, and the line of a problem of a line; a journal given as the
          // expected state (not text) is named as one.
          let place = error.line.map { ":\($0)" } ?? ""
          let journal =
            error.code == .notText && startsAsJournal(expectedPath)
            ? " (it is a journal; the expected state is JSON, as `rewind state --json` prints it)"
            : ""
          throw CommandError(
            "\(expectedPath)\(place): cannot read the expected state: \(error.message)\(journal)")
        }
        do throws(JSONParseError) {
          expected = try JSONValue(parsing: text)
        } catch {
          throw CommandError(
            "\(expectedPath): the expected state is not JSON at line \(error.line), column \(error.column): \(error.message)"
          )
        }
        read = text
        switch expected {
        case .object(let members)? where members.isEmpty:
          // It would compare nothing, and pass every replay.
          guard update else {
            throw CommandError(
              "\(expectedPath): the expected state gives no field, so it checks nothing; write it as `rewind state --json` prints it, or with the fields to check (`check --update` writes the whole state over it)"
            )
          }
          expected = nil
        case .object?, nil: break
        case let found?:
          throw CommandError(
            "\(expectedPath): the expected state is \(found.typeName), not an object; write it as `rewind state --json` prints it"
          )
        }
      }
      if update { expectedPath = updatePath }
      return ExpectedState(expected: expected, path: expectedPath, text: read)
    }

    /// The result of checking `journal`: a failure naming the error when it cannot be
    /// checked.
    private static func check(
      _ journal: String, _ command: CheckCommand, registry: DomainRegistry, context: Context
    ) -> CheckResult {
      do {
        return try registry.open(
          journal, warnings: context.stderr, notesNotClosed: false, system: context.fileSystem,
          command)
      } catch {
        return failure(journal, error, context: context)
      }
    }

    /// The failure of `journal`, which could not be checked for `error`: its line names
    /// the journal once, the error's own naming of it left out. A session on a server is
    /// named `nats://HOST:PORT/SESSION`, as a journal that passes is, without the user and
    /// password its URL may give (a message never shows a password); the server's error
    /// names the server and the session, which the line names.
    private static func failure(_ journal: String, _ error: any Error, context: Context)
      -> CheckResult
    {
      let name = StreamStore.displayName(journal)
      var message = "\(error)"
      if message.hasPrefix(journal + ": ") {
        message = name + message.dropFirst(journal.count)
      }
      var reason =
        message.hasPrefix(name + ": ") ? String(message.dropFirst(name.count + 2)) : message
      if let error = error as? StreamError { reason = error.message }
      // An empty path would leave the line a bare `FAIL :`; it is shown quoted.
      let shown = name.isEmpty ? "''" : TerminalText.escaped(name)
      return CheckResult(
        path: name, passed: false,
        json: .object([
          ("path", .string(name)), ("passed", false), ("error", .string(message)),
        ]),
        lines: [
          context.stdout.style.red("FAIL")
            + " \(shown): \(TerminalText.escaped(reason))"
        ])
    }
  }
}

/// Reads `--expect`: a path, `-` only for a file of that name (as a journal's `-` is
/// read), not standard input: the expected state is a file that `--update` writes, and
/// `-` would otherwise be reported as no such file.
private func parseExpectedStateFile(_ text: String) throws(InvalidValue) -> String {
  guard text != "-" || fileExists(text) else {
    throw InvalidValue(
      "- is not standard input here: --expect names the expected state's file, which --update writes (/dev/stdin reads standard input; ./- for a file named -)"
    )
  }
  return text
}

/// `NAME.state.json` beside `NAME.journal`, if it exists.
func adjacentExpectedState(of journal: String) -> String? {
  guard journal.hasSuffix(".journal") else { return nil }
  let candidate = String(journal.dropLast(".journal".count)) + ".state.json"
  return fileExists(candidate) ? candidate : nil
}

/// `NAME.state.json` for `NAME.journal`, whether or not it exists: where `--update`
/// writes.
private func expectedStatePath(of journal: String) throws -> String {
  guard journal.hasSuffix(".journal") else {
    throw UsageError(
      "\(journal) does not end in .journal, so it has no NAME.state.json; give --expect FILE to update"
    )
  }
  return String(journal.dropLast(".journal".count)) + ".state.json"
}

/// A journal's expected state (nil when it has none, or --update writes a new one) and
/// its path (nil when it has none).
struct ExpectedState {
  var expected: JSONValue?
  var path: String?
  /// The file's lines as read, joined by line feeds (for --update: a file that holds what
  /// it would write is not written).
  var text: String?
}

struct CheckResult {
  var path: String
  var passed: Bool
  var json: JSONValue
  var lines: [String]
}

struct CheckCommand: TimelineVisitor {
  let expected: JSONValue?
  let expectedPath: String?
  /// The expected state file's lines as read, joined by line feeds; nil when there is none.
  var expectedText: String?
  /// `--update`: write the replayed final state to `expectedPath` (keeping to the fields
  /// of `expected` when it is partial) instead of comparing with it.
  var update = false
  var requireExpected = false
  var maxDivergences = 10
  var jobs: Int
  var context: Context
  /// Where the events replayed are counted when this journal is one of several checked
  /// at once (which share one progress bar); nil for a bar of its own.
  var progress: ItemProgress?
  /// The cores this journal's parts share with the other journals checked at once; nil
  /// for its jobs alone.
  var cores: SharedCores?

  func visit<D: RecordableDomain>(_ timeline: Timeline<D>) throws -> CheckResult {
    timeline.sharedCores = cores
    let bar = context.progress("Checking \(timeline.path)")
    let total = Int(timeline.lastSequence)
    progress?.size(timeline.lastSequence)
    var report = try timeline.check(
      expected: update ? nil : expected, jobs: jobs, maxDivergences: maxDivergences
    ) { done in
      bar.update(Int(done), of: total)
      progress?.update(done)
    }
    progress?.update(timeline.lastSequence)
    bar.finish()
    // A torn tail's events are not read: the check cannot vouch for them, and a journal
    // cut short (a fixture half copied, a crash's unfinished frame) fails (the report's
    // `cutShort`), where it passed on the events before (none, cut at its first frame);
    // --update writes no state of it. A journal a writer holds is being written: its
    // frame in progress is not torn.
    let tail = timeline.reader.condition.tornTail
    let cutShort = report.cutShort != nil
    // Cut at a frame's end (its writer killed, or writing still): every event in it is
    // checked, but the session may have gone on; said with the result (it passed without
    // a word), and --update writes no state of it.
    let notClosed = Format.notClosed(timeline.reader)
    /// Whether --update wrote the file (false: it held the state's text already).
    var written: Bool?
    /// The fields --update changed in the expected state it read (old: what it gave).
    var updated: [FieldChange] = []
    /// The file --update wrote through the symbolic link at the expected state's path.
    var linkTarget: String?
    if update, let expectedPath {
      // Not the state at a tear: the session's end is not in the journal.
      if cutShort, let tail {
        throw CommandError(
          "\(TerminalText.escaped(timeline.path)): \(tail.described), so its last state is not known; --update wrote nothing to \(TerminalText.escaped(expectedPath)) (`rewind recover` cuts \(tail.length == 1 ? "it" : "them"), then update from what is left)"
        )
      }
      if let notClosed {
        throw CommandError(
          "\(TerminalText.escaped(timeline.path)): \(notClosed), so its last state may not be the session's; --update wrote nothing to \(TerminalText.escaped(expectedPath)) (update once it is closed)"
        )
      }
      // The state the check's replay ended in, with the current reducer from the start:
      // not the journal's last snapshot, which the recording's reducer made.
      let state =
        try report.finalState ?? timeline.domain.json(timeline.state(after: timeline.lastSequence))
      if let expected {
        // A partial state keeps to its fields: one the state has not would be dropped.
        let unknown = Self.unknownPaths(of: expected, in: state)
        if !unknown.isEmpty {
          throw CommandError(
            "\(expectedPath): the expected state gives \(unknown.map { "'\($0)'" }.joined(separator: ", ")), which the replayed state has not; --update keeps a partial expected state to its fields and would drop \(unknown.count == 1 ? "it" : "them"): correct \(unknown.count == 1 ? "it" : "them"), or delete the file to write the whole state"
          )
        }
      }
      let json = expected.map { Self.keeping(state, fieldsOf: $0) } ?? state
      let text = json.prettyText + "\n"
      written = !Self.file(expectedPath, holds: text, read: expectedText, context)
      if written == true {
        // A symbolic link (to a fixture kept elsewhere) stays: the file it leads to is the
        // expected state, and is written.
        switch symbolicLinkTarget(of: expectedPath, system: context.fileSystem) {
        case .notALink: break
        case .file(let file): linkTarget = file
        case .unfollowable(let place):
          // Replaced by a file, the link (to a fixture kept elsewhere) would be lost.
          throw CommandError(
            "\(expectedPath) is a symbolic link that leads to \(place); --update writes the file a link leads to, and wrote nothing"
          )
        }
        let file = try TextFileWriter(
          FileDestination(
            linkTarget ?? expectedPath, replacingExisting: true, inputs: [timeline.path]),
          system: context.fileSystem)
        try file.write(text)
        do {
          try file.commit()
        } catch {
          // Written meanwhile by another --update of the journal: the same state.
          let path = linkTarget ?? expectedPath
          guard error.code == .alreadyExists, Self.file(path, holds: text, read: nil, context)
          else { throw error }
          written = false
        }
        if let expected, written == true {
          updated = Timeline<D>.compare(expected: expected, actual: json)
        }
      }
      report.expectedFieldCount = json.leaves().count
      report.stateFieldCount = state.leaves().count
    }
    let missing = expectedPath == nil
    let passed = report.passed && !(missing && requireExpected)
    let style = context.stdout.style
    var lines: [String] = []
    // After a snapshot that differs the state has drifted: the later ones are not compared,
    // and the count is not the journal's.
    var summary = "\(TerminalText.escaped(timeline.path)): \(report.summary)"
    let partial = report.expectedFieldCount < report.stateFieldCount
    if let expectedPath {
      // What was written and how much is checked, in one parenthesis.
      // Written with no field changed: only its layout was the tool's to write (indentation,
      // the members' order); written where there was none: created.
      let change: String? = written.map {
        guard $0 else { return "unchanged" }
        if expectedText == nil { return "written" }
        // A file of no field (`{}`) is filled: updated, every field.
        return expected != nil && updated.isEmpty
          ? "updated: reformatted, no field changed" : "updated"
      }
      let notes =
        (change.map { [$0] } ?? [])
        + (partial
          ? ["partial: \(report.expectedFieldCount) of \(report.stateFieldCount) fields"] : [])
      summary +=
        ", expected state \(TerminalText.escaped(expectedPath))"
        + (linkTarget.map { " through the link to \(TerminalText.escaped($0))" } ?? "")
        + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))")
    }
    lines.append((passed ? style.green("PASS") : style.red("FAIL")) + " " + summary)
    // Why a journal without an expected state fails (`--require-expected`), for `--json`.
    var required: String?
    if missing {
      let name =
        timeline.path.hasSuffix(".journal")
        ? String(timeline.path.dropLast(".journal".count)) + ".state.json" : nil
      if requireExpected {
        required =
          (name.map { "\($0) does not exist" } ?? "no expected state (give --expect FILE)")
          + " (--require-expected)"
      }
      // With no snapshot compared either, no state is: a reducer that computes other
      // values with the same outcomes passes.
      let unchecked =
        report.eventsReplayed == 0
        ? "; the session has no events, and its state is not checked"
        : report.snapshotsCompared == 0
          ? "; no state is compared (no snapshot after the first event either): only each event's outcome and changed fields are"
          : "; the final state is not checked"
      lines.append(
        "  no expected state"
          + (name.map { ": \(TerminalText.escaped($0)) does not exist" } ?? " (give --expect FILE)")
          + (requireExpected ? " (--require-expected)" : unchecked))
    }
    // A torn tail's events are not read: said with the result (a warning on stderr alone
    // was lost in CI, and the JSON did not say it).
    // A damaged header read from its copy: every event is checked, and the file needs
    // repair (said on standard error alone, it was lost in CI, and the JSON did not say it).
    // The copy after a whole header, damaged, is said so too (it passed without a word).
    let condition = timeline.reader.condition
    let headerDamage = condition.headerDamage?.reason
    let copyDamage = condition.headerCopyDamage?.reason
    if let damage = headerDamage ?? copyDamage {
      lines.append("  \(TerminalText.escaped(damage)); `rewind recover` rebuilds it")
    }
    if let notClosed { lines.append("  \(notClosed)") }
    if let tail, tail.isDamagedEnd {
      lines.append("  damaged end: \(tail.described); `rewind recover` writes them again")
    } else if let tail = report.cutShort {
      lines.append("  " + CheckReport.line(cutShort: tail))
    } else if let tail {
      // Torn, and not cut short: a writer holds the journal (the check's one answer:
      // asked again, a writer that exited meanwhile left the line without its pid).
      let writer = report.writer
      let events = tail.sequenceRange.map { ", \(Format.events($0))" } ?? ""
      lines.append(
        "  torn tail: the last \(Format.count(tail.length, "byte")) (from byte \(tail.offset)\(events)) \(tail.length == 1 ? "is" : "are") not a whole frame, and \(tail.length == 1 ? "is" : "are") not checked: the journal is being written\(writer?.pid.map { " (pid \($0))" } ?? ""), and \(tail.length == 1 ? "it is" : "they are") the frame in progress"
      )
    }
    var members: [(String, JSONValue)] = [
      ("path", .string(timeline.path)), ("passed", .bool(passed)),
      ("events", .int(Int64(report.eventsReplayed))),
      ("snapshots", .int(Int64(report.snapshotsCompared))),
      ("expectedState", .string(expectedPath)),
    ]
    // Apart: a header read from its copy has no copy left; a damaged copy, a whole header.
    if let required { members.append(("noExpectedState", .string(required))) }
    if let notClosed { members.append(("notClosed", .string(notClosed))) }
    if let headerDamage { members.append(("headerDamage", .string(headerDamage))) }
    if let copyDamage { members.append(("headerCopyDamage", .string(copyDamage))) }
    if let tail {
      var torn: [(String, JSONValue)] = [
        ("offset", .int(Int64(tail.offset))), ("bytes", .int(Int64(tail.length))),
      ]
      if let range = tail.sequenceRange {
        torn.append(("from", .int(Int64(range.lowerBound))))
        torn.append(("to", .int(Int64(range.upperBound))))
      }
      // Its index or trailer, damaged or cut short: no event is in them.
      torn.append(("damagedEnd", .bool(tail.isDamagedEnd)))
      members.append(("tornTail", .object(torn)))
    }
    if expectedPath != nil {
      members.append(("expectedFields", .int(Int64(report.expectedFieldCount))))
      members.append(("stateFields", .int(Int64(report.stateFieldCount))))
      members.append(("partial", .bool(partial)))
    }
    if let written { members.append(("updated", .bool(written))) }
    if !updated.isEmpty {
      // What --update changed: the expected state it read differed there.
      lines.append("  updated the fields that differed (- was expected, + written):")
      lines += updated.map(CheckReport.line(of:))
      members.append(("updatedFields", .array(updated.map(\.json))))
    }
    if report.eventDivergenceCount > 0 {
      members.append(("eventDivergenceCount", .int(Int64(report.eventDivergenceCount))))
      if let first = report.eventDivergence {
        members.append(("eventDivergence", eventDivergenceJSON(first)))
      }
      members.append(
        ("eventDivergences", .array(report.eventDivergences.map { eventDivergenceJSON($0) })))
    }
    lines += report.eventDivergenceLines
    let cut = report.eventDivergenceCount - report.eventDivergences.count
    if cut > 0 && maxDivergences == 0 {
      // None described: the count alone, where the first would have been.
      lines.append(
        "  \(Format.count(cut, "diverging event")) (--max-divergences 0 describes none)")
    } else if cut > 0 {
      lines.append(
        "  … and \(Format.count(cut, "more diverging event")) (--max-divergences \(maxDivergences) describes the first \(Format.count(maxDivergences)))"
      )
    }
    if let divergence = report.stateDivergence {
      lines += CheckReport.lines(describing: divergence)
      members.append(
        (
          "stateDivergence",
          .object([
            ("seq", .int(Int64(divergence.sequence))),
            ("problem", .string(divergence.problem.description)),
            ("changes", .array(divergence.differences.map(\.json))),
          ])
        ))
    }
    if !report.expectedStateDifferences.isEmpty {
      lines.append("  the final state differs from the expected state (- expected, + replayed):")
      let fields = timeline.domain.fields.map(\.path)
      for change in report.expectedStateDifferences {
        let path = TerminalText.escaped(change.path)
        guard report.stateLacks(change.path) else {
          lines.append(CheckReport.line(of: change))
          continue
        }
        // A field the state has not (a typo in a partial expected state): said as such,
        // not as a value the replayed state lacks, with the field most likely meant.
        let near = closestName(to: change.path, among: fields).map { ". Did you mean '\($0)'?" }
        lines.append(
          "    \(path): - \(change.old.compactText), a field the state has not\(near ?? "")")
      }
      members.append(
        ("expectedStateDifferences", .array(report.expectedStateDifferences.map(\.json))))
    }
    return CheckResult(path: timeline.path, passed: passed, json: .object(members), lines: lines)
  }

  private func eventDivergenceJSON(_ divergence: CheckReport.EventDivergence) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("seq", .int(Int64(divergence.sequence))), ("event", .string(divergence.event)),
      ("recordedOutcome", .string("\(divergence.recorded.kind)")),
      ("recordedChanges", .array(divergence.recordedPaths.map(JSONValue.string))),
      ("replayedOutcome", .string("\(divergence.replayed.kind)")),
      ("replayedChanges", .array(divergence.replayedPaths.map(JSONValue.string))),
    ]
    if let reason = divergence.replayedReason {
      members.append(("replayedReason", .string(reason)))
    }
    return .object(members)
  }

  /// `state` with only the members `expected` gives, at every level of objects: a partial
  /// expected state refreshed.
  static func keeping(_ state: JSONValue, fieldsOf expected: JSONValue) -> JSONValue {
    guard case .object(let members) = state, case .object(let given) = expected, !given.isEmpty
    else { return state }
    return .object(
      members.compactMap { key, value in
        guard let wanted = given.first(where: { $0.0 == key })?.1 else { return nil }
        return (key, keeping(value, fieldsOf: wanted))
      })
  }

  /// The paths of the members `expected` gives that `state` has not, at every level of
  /// objects (those `keeping(_:fieldsOf:)` would drop): members of an object given where
  /// the state has a number, a string or an array (`menu.selectedIndex.a`) too.
  static func unknownPaths(of expected: JSONValue, in state: JSONValue, at path: String = "")
    -> [String]
  {
    guard case .object(let given) = expected else { return [] }
    guard case .object(let members) = state else {
      return given.map { key, _ in path.isEmpty ? key : path + "." + key }
    }
    return given.flatMap { key, value in
      let inner = path.isEmpty ? key : path + "." + key
      guard let found = members.first(where: { $0.0 == key })?.1 else { return [inner] }
      return unknownPaths(of: value, in: found, at: inner)
    }
  }
}

extension CheckCommand {
  /// Whether the file at `path` holds `text` (a state's pretty JSON and a line feed):
  /// `read`, its lines as read and joined, when they were, else read now.
  static func file(_ path: String, holds text: String, read: String?, _ context: Context) -> Bool {
    // The text read is its lines joined: the same lines and one byte more (the last line
    // feed) are the same bytes.
    var status = stat()
    guard context.fileSystem.stat(path, &status) == 0, Int(status.st_size) == text.utf8.count,
      let lines = read
        ?? (try? TextFileReader(path: path, system: context.fileSystem).remainingText())
    else { return false }
    return lines + "\n" == text
  }
}
