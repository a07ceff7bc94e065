package import RewindJournal

extension CheckReport: CustomStringConvertible {
  /// The replay's verdict as `rewind check` prints it for one journal: `PASS` or `FAIL`,
  /// the journal, the events replayed and snapshots compared, then what differs (each
  /// diverging event described, recorded against replayed; the first snapshot that
  /// differs; the fields of the final state that differ from the expected one). What a
  /// test's failure shows (`#expect(report.passed)`), where it showed Swift's reflection
  /// of every member, and a frame cut short (``cutShort``). The command adds what it knows
  /// of the file: the expected state's path, a damaged header, a damaged end and a frame
  /// in progress.
  public var description: String {
    var lines = [
      (passed ? "PASS " : "FAIL ") + TerminalText.escaped(path) + ": " + summary
    ]
    lines += eventDivergenceLines
    let cut = eventDivergenceCount - eventDivergences.count
    if cut > 0 { lines.append("  … and \(Format.count(cut, "more diverging event"))") }
    if let stateDivergence { lines += Self.lines(describing: stateDivergence) }
    if !expectedStateDifferences.isEmpty {
      lines.append("  the final state differs from the expected state (- expected, + replayed):")
      lines += expectedStateDifferences.map { change in
        // A field the state has not (one removed since, or a typo): said as such, not as
        // a value the replayed state lacks (`+ null`), as `rewind check` says it.
        guard stateLacks(change.path) else { return Self.line(of: change) }
        return
          "    \(TerminalText.escaped(change.path)): - \(change.old.compactText), a field the state has not"
      }
    }
    if let cutShort { lines.append("  " + Self.line(cutShort: cutShort)) }
    return lines.joined(separator: "\n")
  }

  /// `torn tail: the last 36 bytes (from byte 5169, events 201–230) are not a whole
  /// frame, and what they hold is not checked, so the journal fails; …`: a frame cut
  /// short, as the report and `rewind check` say it.
  package static func line(cutShort tail: JournalCondition.TornTail) -> String {
    let events = tail.sequenceRange.map { ", \(Format.events($0))" } ?? ""
    let (are, they, them) =
      tail.length == 1 ? ("is", "it holds", "it") : ("are", "they hold", "them")
    return
      "torn tail: the last \(Format.count(tail.length, "byte")) (from byte \(tail.offset)\(events)) \(are) not a whole frame, and what \(they) is not checked, so the journal fails; `rewind recover` cuts \(them) (then check what is left)"
  }

  /// `N events, M snapshots`, and ` compared, up to the first that differs` after a
  /// snapshot that differs (the later ones are not compared: the state has drifted).
  package var summary: String {
    "\(Format.count(eventsReplayed, "event")), \(Format.count(snapshotsCompared, "snapshot"))"
      + (stateDivergence == nil ? "" : " compared, up to the first that differs")
  }

  /// Each diverging event described: its sequence, time and description, then what was
  /// recorded and what is replayed, three lines an event.
  package var eventDivergenceLines: [String] {
    eventDivergences.flatMap { divergence in
      [
        "  event \(divergence.sequence) at \(Format.offset(divergence.time)) (\(TerminalText.escaped(divergence.event))) diverges:",
        "    recorded: \(Self.describe(divergence.recorded.kind, divergence.recordedPaths))",
        "    replayed: \(Self.describe(divergence.replayed.kind, divergence.replayedPaths))"
          + (divergence.replayedReason.map { ": \(TerminalText.escaped($0))" } ?? ""),
      ]
    }
  }

  /// Whether the replayed final state has no member at `path`, a path an expected state
  /// gives (as ``expectedFieldCount`` counts fields): one removed since, or a typo.
  package func stateLacks(_ path: String) -> Bool {
    guard let finalState else { return false }
    return finalState.value(atPath: path) == nil
  }

  /// `applied, changing PATHS`, or the outcome's kind.
  package static func describe(_ kind: RecordedEffect.Kind, _ paths: [String]) -> String {
    kind == .applied
      ? "applied, changing \(TerminalText.escaped(paths.joined(separator: ", ")))" : "\(kind)"
  }

  /// A field that differs, indented under its heading: `path: - old  + new`.
  package static func line(of change: FieldChange) -> String {
    "    \(TerminalText.escaped(change.path)): - \(change.old.compactText)  + \(change.new.compactText)"
  }

  /// The lines that say how the first snapshot that does not match differs: a heading,
  /// then the fields that differ, or why none is listed. Never a heading that ends in a
  /// colon with nothing under it.
  package static func lines(describing divergence: StateDivergence) -> [String] {
    let event = divergence.sequence
    let changes = divergence.differences.map(line(of:))
    guard divergence.problem == .differs else {
      let problem = TerminalText.escaped(divergence.problem.description)
      guard !changes.isEmpty else { return ["  the snapshot after event \(event) \(problem)"] }
      return ["  the snapshot after event \(event) \(problem) (- recorded, + replayed):"] + changes
    }
    guard !changes.isEmpty else {
      // The stored hash is not that of the replayed state's encoding, yet the two states
      // read the same in every field.
      return [
        "  the state after event \(event) differs from its snapshot in its bytes alone: every field reads the same",
        "    its encoding depends on more than its fields show: the order of a set or a dictionary that the state's own code writes element by element, say, or a journal recorded before Rewind wrote sets and dictionaries of values that are not comparable in one order (`rewind recover --salvage` writes such snapshots again: with the reducer that recorded the journal, as it writes every snapshot that differs from its replay)",
      ]
    }
    return ["  the state after event \(event) differs from its snapshot (- recorded, + replayed):"]
      + changes
  }
}
