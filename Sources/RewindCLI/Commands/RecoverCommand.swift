import RewindArguments
import RewindCore
import RewindJournal

extension RewindTool {
  struct Recover: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "recover", abstract: "Repair a journal after a crash or damage.",
      discussion: """
        Cuts a torn tail (an incomplete frame left by a crash, or garbage at the end) back \
        to the last whole frame whose checksums verify, rebuilds a damaged header from its \
        copy, and writes a fresh index. A frame whose checksums verify is never dropped, \
        nor are events with good frames after them, unless --salvage is given: the damaged \
        frames are then dropped, the events they held are marked lost, and the events \
        after them are kept. The repaired journal is a new file: in place, the damaged \
        original is kept as JOURNAL.damaged (through a symbolic link, the file it leads to \
        is repaired and the link kept); with -o the repaired journal is written there \
        (a file already there is replaced only with --force) and the original is left as \
        it is.

        With --salvage the content is read with the journal's domain first, as `rewind \
        verify --deep` reads it, and whole frames whose content is wrong are not kept as \
        they are: a snapshot that does not match its hash, cannot be decoded or differs \
        from the state replayed up to it is written again from the replayed state, and a \
        frame whose wrong snapshot replay cannot put right (after events that cannot be \
        decoded or were lost, or in a journal of an older schema one that does not match \
        its hash) is dropped, its events marked lost. Events the domain does not decode in \
        a frame whose checksums verify are no damage: their bytes are as they were written \
        (for a journal of an older schema, the domain's upcast of that schema does not \
        read them), so salvage keeps their frame as it is, says why, and exits with 1; so \
        it does with a frame of a journal of an older schema whose snapshot matches its \
        hash but differs from the state replayed up to it (the domain's upcast or reducer \
        differs from the recording's, not the file).
        """,
      exitStatuses: [
        ExitStatusHelp(
          "1",
          "Also when --salvage kept frames whose content the domain does not read as recorded (said with their reason)."
        )
      ])

    let registry: DomainRegistry

    @Argument(help: "The journal to repair.")
    var journal: String
    @Option(short: "o", valueName: "journal", help: "Write the repaired journal here.")
    var output: String?
    @Flag(help: "Replace the file -o names if it exists.")
    var force: Bool
    @Flag(help: "Drop damaged frames in the middle and keep what follows.")
    var salvage: Bool
    @Flag(help: "Print JSON.")
    var json: Bool

    func run(_ context: Context) throws {
      try requireFile(journal, for: "recover")
      // Where the repaired journal goes is checked before the journal is read.
      if let output {
        _ = try outputDestination(output, force: force, inputs: [journal])
      } else if force {
        throw UsageError(
          "--force replaces the file -o names; without -o the journal is repaired in place and its original kept as JOURNAL.damaged"
        )
      }
      // In place through a symbolic link: the file it leads to is repaired (its original
      // kept beside it), and the link kept, as `check --update` writes through one; the
      // link's own name would become a copy, the file it led to left damaged.
      var journal = self.journal
      if output == nil {
        switch symbolicLinkTarget(of: journal, system: context.fileSystem) {
        case .notALink: break
        case .file(let file): journal = file
        case .unfollowable(let place):
          throw CommandError(
            "\(journal) is a symbolic link that leads to \(place); recover repairs the file a link leads to"
          )
        }
      }
      var repairs: [UInt64: ContentRepair] = [:]
      // Whole frames the domain does not read: salvage keeps them as they are.
      var kept: [VerificationProblem] = []
      if salvage {
        let content = context.withProgress("Reading the content") { bar in
          ContentCheck(journal, domains: registry.domains, progress: bar.update)
        }
        // A journal that cannot be opened for reading is recovery's to report.
        if let deep = content.report {
          if deep.contentChecked {
            repairs = deep.repairs
            kept = deep.kept
          } else if let problem = deep.problems.first {
            context.stderr.print(
              "\(context.stderr.style.yellow("warning:")) \(TerminalText.escaped(journal)): the content is not checked (\(TerminalText.escaped(problem.message))); salvage keeps the frames whose checksums verify"
            )
          }
        }
      }
      let report: RecoveryReport
      do throws(JournalError) {
        report = try context.withProgress("Checking frames") { bar throws(JournalError) in
          try Journal.recover(
            path: journal, output: output, replacingOutput: force, salvage: salvage,
            repairs: repairs,
            system: context.fileSystem, progress: bar.update)
        }
      } catch {
        // Writing over the journal itself is a usage error (exit 64).
        if error.code == .outputIsInput { throw UsageError(error.description) }
        throw namingWhatItIs(error)
      }
      if json {
        context.stdout.printJSON(RecoverOutput.json(report, kept: kept))
      } else {
        if journal != self.journal, report.changed {
          context.stdout.print(
            "\(TerminalText.escaped(self.journal)) is a symbolic link to \(TerminalText.escaped(journal)), which is repaired; the link is kept."
          )
        }
        RecoverOutput.print(report, kept: kept, to: context.stdout)
      }
      // The journal still holds content the domain does not read: salvage did not make
      // it readable, and says so with its status.
      if !kept.isEmpty { throw ExitCode.failure }
    }
  }
}

/// How `recover` says what it did.
enum RecoverOutput {
  /// - Parameter kept: the whole frames salvage kept as they are though the domain does
  ///   not decode them (``DeepCheckReport/kept``).
  static func json(_ report: RecoveryReport, kept: [VerificationProblem] = []) -> JSONValue {
    .object([
      ("path", .string(report.source)), ("output", .string(report.output)),
      ("originalKeptAt", report.originalKeptAt.map(JSONValue.string) ?? .null),
      ("changed", .bool(report.changed)), ("events", .int(Int64(report.keptRecords))),
      ("droppedEvents", .int(Int64(report.droppedRecords))),
      ("lastSequence", .int(Int64(report.lastSequence))),
      ("frames", .int(Int64(report.keptFrames))),
      ("droppedFrames", .int(Int64(report.droppedFrames.count))),
      (
        "droppedForContent",
        .array(
          report.droppedForContent.map {
            .object([
              ("frame", $0.frame.map { .int(Int64($0)) } ?? .null),
              ("offset", $0.byteOffset.map { .int(Int64($0)) } ?? .null),
              ("from", $0.sequenceRange.map { .int(Int64($0.lowerBound)) } ?? .null),
              ("to", $0.sequenceRange.map { .int(Int64($0.upperBound)) } ?? .null),
              ("reason", .string($0.message)),
            ])
          })
      ),
      (
        "keptForContent",
        .array(
          kept.map {
            .object([
              ("frame", $0.frame.map { .int(Int64($0)) } ?? .null),
              ("offset", $0.offset.map { .int(Int64($0)) } ?? .null),
              ("from", $0.sequences.map { .int(Int64($0.lowerBound)) } ?? .null),
              ("to", $0.sequences.map { .int(Int64($0.upperBound)) } ?? .null),
              ("reason", .string($0.message)),
            ])
          })
      ),
      (
        "replacedSnapshots",
        .array(
          report.replacedSnapshots.map {
            .object([("frame", .int(Int64($0.frame))), ("seq", .int(Int64($0.sequence)))])
          })
      ),
      (
        "repairedHeader",
        report.repairedHeader.map {
          .object([("offset", .int(Int64($0.offset))), ("reason", .string($0.reason))])
        } ?? .null
      ),
      (
        "droppedDamage",
        .array(
          report.droppedDamage.map {
            .object([
              ("offset", .int(Int64($0.byteRange.lowerBound))),
              ("bytes", .int(Int64($0.byteRange.count))), ("reason", .string($0.reason)),
            ])
          })
      ),
      (
        "cutTail",
        report.cutTail.map {
          .object([
            ("offset", .int(Int64($0.offset))), ("bytes", .int(Int64($0.length))),
            ("reason", .string($0.reason)), ("damagedEnd", .bool($0.isDamagedEnd)),
          ])
        } ?? .null
      ),
      (
        "lostEvents",
        .array(
          report.lostRanges.map {
            .object([("from", .int(Int64($0.lowerBound))), ("to", .int(Int64($0.upperBound)))])
          })
      ),
    ])
  }

  /// - Parameter kept: the whole frames salvage kept as they are though the domain does
  ///   not decode them (``DeepCheckReport/kept``): each said first, with why.
  static func print(
    _ report: RecoveryReport, kept: [VerificationProblem] = [], to output: Output
  ) {
    let style = output.style
    let source = TerminalText.escaped(report.source)
    for frame in kept {
      var place = "frame \(frame.frame ?? 0)"
      if let range = frame.sequences { place += " (\(Format.events(range)))" }
      if let offset = frame.offset { place += " at byte \(offset)" }
      output.print(
        style.yellow(
          "Kept \(place), whose content this domain does not read as recorded: \(TerminalText.escaped(frame.message))."
        ))
    }
    if !kept.isEmpty {
      output.print(
        "Salvage drops damage, never intact events: the \(kept.count == 1 ? "frame above is" : "frames above are") kept, and \(report.changed ? "the journal still holds events" : "\(source) is left as it was, holding events") this domain does not read as recorded."
      )
    }
    guard report.changed else {
      // Kept frames are no "OK": the journal is whole, but not read by this domain.
      guard kept.isEmpty else { return }
      output.print(
        "\(style.green("OK")) \(source) is whole: \(Format.count(report.keptRecords, "event")) in \(Format.count(report.keptFrames, "frame")); nothing to do."
      )
      return
    }
    if let header = report.repairedHeader {
      output.print("Rebuilt the header from its copy: \(header.reason).")
    }
    for damage in report.droppedDamage {
      output.print(
        "Dropped \(Format.count(UInt64(damage.byteRange.count), "damaged byte")) at byte \(damage.byteRange.lowerBound), which lost no event: \(damage.reason)."
      )
    }
    if let tail = report.cutTail, tail.isDamagedEnd {
      output.print(
        "Wrote a new index and trailer in place of the damaged end (\(Format.count(tail.length, "byte")) at byte \(tail.offset)): \(tail.reason)."
      )
    } else if let tail = report.cutTail {
      let events = tail.sequenceRange.map { " (\(Format.events($0)))" } ?? ""
      output.print(
        "Cut \(Format.count(tail.length, "byte")) at byte \(tail.offset)\(events): \(tail.reason).")
    }
    for frame in report.droppedForContent {
      var place = "frame \(frame.frame ?? 0)"
      if let range = frame.sequenceRange { place += " (\(Format.events(range)))" }
      if let offset = frame.byteOffset { place += " at byte \(offset)" }
      output.print(
        style.yellow(
          "Dropped \(place), whose content is wrong: \(TerminalText.escaped(frame.message))."))
    }
    for range in report.lostRanges {
      output.print(style.yellow("Dropped damaged \(Format.events(range)) (marked lost)."))
    }
    for replaced in report.replacedSnapshots {
      output.print(
        "Wrote the snapshot after event \(replaced.sequence) (frame \(replaced.frame)) again from the replayed state."
      )
    }
    output.print(
      "\(style.green("Recovered")) \(TerminalText.escaped(report.output)): kept \(Format.count(report.keptRecords, "event")) (last event \(report.lastSequence)) in \(Format.count(report.keptFrames, "frame")), dropped \(Format.count(report.droppedRecords, "event"))."
    )
    if let kept = report.originalKeptAt {
      // A journal only not closed was not damaged: its original is kept all the same.
      let damaged =
        !report.droppedFrames.isEmpty || !report.droppedForContent.isEmpty
        || report.repairedHeader != nil || !report.replacedSnapshots.isEmpty
        || report.droppedRecords > 0 || report.cutTail != nil || !report.droppedDamage.isEmpty
      output.print(
        "The \(damaged ? "damaged " : "")original is kept as \(TerminalText.escaped(kept)).")
    } else {
      output.print("The original \(source) is left as it was.")
    }
  }
}
