import RewindArguments
import RewindCore
import RewindJournal

extension RewindTool {
  struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "verify", abstract: "Check every frame, checksum and index entry of journals.",
      discussion: """
        Checks the header and its copies, decompresses every frame and checks its \
        checksums, that sequence numbers follow each other, that times never go back, that \
        snapshots sit on event boundaries and that the index matches the frames. With \
        --deep it also reads the content with the journal's domain, as every command will: \
        the header's domain, schema version and settings, every event (decoded), and every \
        snapshot (its bytes against its stored state hash, decoded, and compared with the \
        state replayed up to it); `rewind check` compares each event's recorded outcome \
        too. The two checks read each frame once, decompressed once; a long journal is \
        checked in parts on --jobs threads, with the same output. Says when the journal \
        was not closed (its writer was killed, crashed or lost power, or is writing it \
        still) and how many events it holds. Exits with 1 and each problem's location \
        (frame, events, byte offset) when the journal is damaged or, with --deep, its \
        content is wrong. With --json the output is JSON whatever happens, one shape \
        whatever the number of journals: an object whose "journals" holds each journal's \
        report, each problem an object (kind, frame, offset, sequences, message), and whose \
        "whole" and "notWhole" count them. Several journals are verified in turn, each \
        reported as one is; one that cannot be verified at all is said in its place, alone \
        or among others (UNREADABLE on standard output, or a report with its "error"; a \
        path that is not UTF-8 text too, shown with each byte outside printable ASCII as \
        \\xHH) and the others are verified still; a last line counts several, and the exit \
        is 1 when any is not whole.
        """,
      exitStatuses: [
        ExitStatusHelp(
          "1",
          "Any journal is damaged or cannot be verified, or with --deep holds content that is wrong; the others are verified. A journal not closed is no failure."
        )
      ])

    let registry: DomainRegistry

    @Argument(name: "journal", help: "The journals to verify.")
    var journals: [String]
    @Flag(help: "Also decode the header, every event and every snapshot with the domain.")
    var deep: Bool
    @Flag(help: "Print JSON.")
    var json: Bool
    @Option(
      valueName: "n",
      help:
        "Check parts of a long journal on this many threads when --deep checks it in parts (default: the cores); taken and unused without --deep.",
      transform: Jobs.parse)
    var jobs: Int?

    func run(_ context: Context) throws {
      // The storage check alone reads the frames in order on one thread: --jobs is taken
      // (checked) and unused, so that a script may give it to every command.
      // A journal whose path is not UTF-8 text cannot be verified, said in its place.
      try context.argumentsNotUTF8.requireOnly(among: journals)
      for journal in journals { try requireFile(journal, for: "verify") }
      // Each in turn, one that cannot be verified said in its place (on standard output,
      // in order: said on standard error, it was away from its place in a log of both, and
      // out of a grep of the output) and the others verified still; a single journal as
      // one of several, so that a script reads one shape whatever the count: the same
      // UNREADABLE line, and the JSON an object whose "journals" holds the reports.
      var reports: [JSONValue] = []
      var failures = 0
      for journal in journals {
        do {
          let verified = try verify(journal, context: context)
          reports.append(verified.json)
          if !verified.clean { failures += 1 }
        } catch {
          failures += 1
          reports.append(Self.failure(journal, error))
          if !json {
            let path = context.escaped(journal)
            let said = context.escaped("\(error)")
            // An empty path would leave the line a bare `UNREADABLE :`; it is shown quoted,
            // as check shows it.
            context.stdout.print(
              context.stdout.style.red("UNREADABLE") + " "
                + (said.hasPrefix(path + ": ") ? said : "\(path.isEmpty ? "''" : path): \(said)"))
          }
        }
      }
      let whole = journals.count - failures
      if json {
        // The counts as the last line says them: `2 journals whole, 1 not`.
        context.stdout.printJSON(
          .object([
            ("journals", .array(reports)), ("whole", .int(Int64(whole))),
            ("notWhole", .int(Int64(failures))),
          ]))
      } else if journals.count > 1 {
        context.stdout.print("\(Format.count(whole, "journal")) whole, \(failures) not")
      }
      if failures > 0 { throw ExitCode.failure }
    }

    /// Verifies `journal`, printing its report in text: its JSON, and whether it is clean.
    /// - Throws: the error that kept the journal from being verified at all.
    private func verify(_ journal: String, context: Context) throws -> (
      json: JSONValue, clean: Bool
    ) {
      if let error = context.argumentsNotUTF8.error(naming: journal) { throw error }
      let report: VerificationReport
      var content: ContentCheck?
      do throws(JournalError) {
        (report, content) = try context.withProgress(
          journals.count == 1 ? "Verifying" : "Verifying \(journal)"
        ) {
          bar throws(JournalError) in
          guard deep else { return (try Journal.verify(path: journal, progress: bar.update), nil) }
          // The storage and the content in one pass: each frame decompressed once.
          let (storage, content) = try DeepCheck.verify(
            path: journal, domains: registry.domains.map { $0 as any Domain.Type },
            jobs: Jobs.count(jobs), progress: bar.update)
          return (storage, ContentCheck(content))
        }
      } catch {
        throw namingWhatItIs(error)
      }
      let output = VerifyOutput.json(report, content: content)
      if !json { VerifyOutput.print(report, content: content, to: context.stdout) }
      return (output, report.isClean && content?.isClean != false)
    }

    /// The JSON of a journal that could not be verified at all.
    private static func failure(_ journal: String, _ error: any Error) -> JSONValue {
      .object([
        ("path", .string(journal)), ("ok", .bool(false)), ("error", .string("\(error)")),
      ])
    }
  }
}

/// What `verify --deep` found in the content: the deep check's report, or why it could
/// not run (the journal cannot be opened for reading: its header and every copy are
/// damaged, which the storage check reports).
struct ContentCheck {
  var report: DeepCheckReport?
  var notRead: String?

  init(_ path: String, domains: [any RecordableDomain.Type], progress: (Int, Int) -> Void) {
    do throws(JournalError) {
      let reader = try JournalReader(path: path, options: .init(salvage: true))
      report = DeepCheck.check(
        reader, domains: domains.map { $0 as any Domain.Type }, progress: progress)
    } catch {
      notRead = error.message
    }
  }

  /// The deep check's report, or the error that kept it from reading the journal.
  init(_ result: Result<DeepCheckReport, JournalError>) {
    switch result {
    case .success(let report): self.report = report
    case .failure(let error): notRead = error.message
    }
  }

  var isClean: Bool { report?.isClean ?? true }
}

/// How `verify` shows its report.
enum VerifyOutput {
  static func json(_ report: VerificationReport, content: ContentCheck?) -> JSONValue {
    let writer = report.isClosed ? nil : report.currentWriter
    let problems = merged(report.problems, content?.report?.problems ?? [])
    return .object([
      ("path", .string(report.path)),
      ("ok", .bool(report.isClean && content?.isClean != false)),
      ("formatVersion", report.header.map { .string($0.formatVersion.description) } ?? .null),
      ("frames", .int(Int64(report.frameCount))),
      ("damagedFrames", .int(Int64(report.damagedFrameCount))),
      ("events", .int(Int64(report.recordCount))),
      ("lastSequence", .int(Int64(report.lastSequence))),
      ("damagedEvents", .int(Int64(report.damagedRecordCount))),
      ("snapshots", .int(Int64(report.snapshotCount))),
      ("lostEvents", .array(report.lostRanges.map(BlameCommand.json))),
      ("closed", .bool(report.isClosed)),
      ("writing", .bool(writer != nil)),
      ("writerPid", writer?.pid.map { .int(Int64($0)) } ?? .null),
      (
        "notClosed",
        report.isClosed ? .null : .string(notClosed(report))
      ),
      ("deep", .bool(content != nil)),
      ("content", content.map(json) ?? .null),
      ("problems", .array(problems.map(json))),
    ])
  }

  static func json(_ content: ContentCheck) -> JSONValue {
    guard let report = content.report else {
      return .object([("checked", .bool(false)), ("reason", .string(content.notRead ?? ""))])
    }
    return .object([
      ("checked", .bool(report.contentChecked)),
      ("eventsDecoded", .int(Int64(report.eventsDecoded))),
      ("snapshotsChecked", .int(Int64(report.snapshotsChecked))),
      ("snapshotsMatchingReplay", .int(Int64(report.snapshotsCompared))),
      ("snapshotsRestartingReplay", .int(Int64(report.snapshotsRestartingReplay))),
    ])
  }

  static func json(_ problem: VerificationProblem) -> JSONValue {
    .object([
      ("kind", .string(problem.kind.rawValue)),
      ("frame", problem.frame.map { .int(Int64($0)) } ?? .null),
      ("offset", problem.offset.map { .int(Int64($0)) } ?? .null),
      (
        "sequences",
        problem.sequences.map {
          .object([("from", .int(Int64($0.lowerBound))), ("to", .int(Int64($0.upperBound)))])
        } ?? .null
      ),
      ("message", .string(problem.message)),
    ])
  }

  /// The storage problems and the content's, in file order (the storage's first at one
  /// offset).
  static func merged(_ storage: [VerificationProblem], _ content: [VerificationProblem])
    -> [VerificationProblem]
  {
    (storage.map { ($0, 0) } + content.map { ($0, 1) }).enumerated().sorted {
      ($0.element.0.offset ?? .max, $0.element.1, $0.offset)
        < ($1.element.0.offset ?? .max, $1.element.1, $1.offset)
    }.map(\.element.0)
  }

  /// The sentence saying that the journal was not closed.
  static func notClosed(_ report: VerificationReport) -> String {
    Format.notClosed(
      events: report.recordCount, last: report.lastSequence, writer: report.currentWriter,
      repairable: report.header != nil, damagedEnd: report.endIsDamaged)
  }

  static func print(_ report: VerificationReport, content: ContentCheck?, to output: Output) {
    let style = output.style
    let path = TerminalText.escaped(report.path)
    let contents =
      "\(Format.count(report.recordCount, "event")), \(Format.count(report.snapshotCount, "snapshot"))"
    let contentProblems = content?.report?.problems ?? []
    if report.isClean && contentProblems.isEmpty {
      output.print(
        "\(style.green("OK")) \(path): \(Format.count(report.frameCount, "frame")), \(contents), \(report.isClosed ? "closed" : "not closed")"
      )
      printNotes(report, content: content, to: output)
      return
    }
    let problems = merged(report.problems, contentProblems)
    let readable = report.frameCount - report.damagedFrameCount
    var summary = "\(Format.count(problems.count, "problem")); "
    summary +=
      report.damagedFrameCount == 0
      ? "\(Format.count(report.frameCount, "frame")) readable (\(contents))"
      : "\(Format.count(readable)) of \(Format.count(report.frameCount, "frame")) readable (\(contents)); \(Format.count(report.damagedFrameCount, "frame")) damaged"
    if report.damagedRecordCount > 0 {
      summary += ", \(Format.count(report.damagedRecordCount, "event")) unreadable"
    }
    // Damage is the storage's; a journal whose bytes are whole but whose content is wrong
    // is invalid.
    let verdict = report.isClean ? style.red("INVALID") : style.red("DAMAGED")
    output.print("\(verdict) \(path): \(summary)")
    for problem in problems {
      output.print("  \(TerminalText.escaped("\(problem)"))")
    }
    printNotes(report, content: content, to: output)
    if !report.isClean {
      if report.header == nil {
        output.print(
          style.dim("  No intact copy of the header is left: the journal cannot be repaired."))
      } else {
        output.print(
          style.dim(
            "  `rewind recover \(Format.shellPath(path))` repairs it (with --salvage when damaged events have good frames after them)."
          ))
      }
    }
    if let deep = content?.report, deep.contentChecked, let salvage = salvage(deep.repairs) {
      output.print(style.dim("  `rewind recover --salvage \(Format.shellPath(path))` \(salvage)."))
    }
  }

  /// What `recover --salvage` does about the content the deep check found wrong, as the
  /// end of a sentence; nil when nothing: it keeps as they are the frames whose events
  /// or snapshots the domain does not decode (``DeepCheckReport/kept``), whose bytes are
  /// intact.
  static func salvage(_ repairs: [UInt64: ContentRepair]) -> String? {
    var does: [String] = []
    if repairs.values.contains(where: { if case .replaceSnapshots = $0 { true } else { false } }) {
      does.append("writes the wrong snapshots again from the replayed state")
    }
    if repairs.values.contains(where: { if case .drop = $0 { true } else { false } }) {
      does.append(
        "drops the frames whose content replay cannot put right (their events are marked lost)")
    }
    return does.isEmpty ? nil : does.joined(separator: " and ")
  }

  /// The lines after the verdict: that the journal was not closed, and what the deep
  /// check read.
  private static func printNotes(
    _ report: VerificationReport, content: ContentCheck?, to output: Output
  ) {
    if !report.isClosed {
      output.print("  \(Format.capitalized(notClosed(report))).")
    }
    for lost in report.lostRanges {
      output.print(
        "  \(Format.capitalized(Format.events(lost))) \(lost.count == 1 ? "was" : "were") lost to damage (salvaged away): the journal holds no frame for them."
      )
    }
    guard let content else { return }
    guard let deep = content.report else {
      output.print(
        "  The content was not read: \(TerminalText.escaped(content.notRead ?? "")).")
      return
    }
    guard deep.contentChecked else { return }
    let events = "\(Format.count(deep.eventsDecoded, "event")) decoded"
    let read = deep.snapshotsChecked
    var snapshots = read == 0 ? "no snapshot" : "\(Format.count(read, "snapshot")) read"
    if read > 0 && deep.snapshotsCompared == read {
      snapshots += ", \(read == 1 ? "equal" : "each equal") to the state replayed up to it"
    } else if read > 0 {
      let wrong = read - deep.snapshotsCompared - deep.snapshotsRestartingReplay
      let parts = [
        deep.snapshotsCompared > 0
          ? "\(Format.count(deep.snapshotsCompared)) equal to the state replayed up to \(deep.snapshotsCompared == 1 ? "it" : "them")"
          : nil,
        deep.snapshotsRestartingReplay > 0
          ? "\(Format.count(deep.snapshotsRestartingReplay)) where replay starts again, after events lost or not decoded"
          : nil,
        wrong > 0 ? "\(Format.count(wrong)) wrong" : nil,
      ]
      snapshots += ": " + parts.compactMap { $0 }.joined(separator: ", ")
    }
    output.print("  Content: \(events), \(snapshots).")
  }
}
