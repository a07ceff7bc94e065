/// A fuzz target: one parser of outside input, with the checks its output must pass.
///
/// Each target takes arbitrary bytes and feeds them to a parser the way a command does:
/// a journal file (`rewind info`, `verify`, `state`, `check`), JSON Lines (`rewind
/// import`), a scenario script (`rewind record`), JSON, a `find` condition, points, a
/// session's values and messages on a NATS server (every reading command). Bad
/// input must end in a typed error, never in a trap, an overflow, a hang or a memory
/// error; and where a parser has a printer, what it prints must read back as the same
/// value. libFuzzer runs the targets (`Tools/fuzz`, through the runner in
/// `Tools/rewind-fuzz`), and the unit tests run every input of the corpus in `Fuzz/`
/// through them, so that a parser that starts to crash fails `swift test` too.
public enum FuzzTarget: String, CaseIterable, Sendable {
  /// Arbitrary bytes as a journal: opened plain and salvaging, verified, every frame
  /// decompressed, every event decoded and replayed, every snapshot decoded, checked.
  case journal
  /// The same, after the checksums of every frame the bytes hold were recomputed
  /// (`JournalChecksums`), so that changed bytes reach the parsers behind the checks.
  case journalChecksummed = "journal-checksummed"
  /// JSON Lines as `rewind import` reads them, each event reduced, its JSON and binary
  /// encodings read back, and the state's encoding read back.
  case jsonLines = "jsonl"
  /// A scenario script of the navigation domain (`rewind record`), its events reduced.
  case scenario
  /// The generic event script (`EventScript`) for the navigation domain.
  case eventScript = "event-script"
  /// JSON: parsed, printed compact and indented, and each print parsed back to the same
  /// value and printed the same again.
  case json
  /// A `find` condition: parsed, printed and parsed back to the same condition, checked
  /// against the navigation domain's fields and searched for in a sample session.
  case condition
  /// Points and a range (`--at`, `--from`/`--to`): each line parsed, printed and parsed
  /// back, and resolved against a sample session.
  case point
  /// A session as a NATS server holds it (`StreamHarness`): its summary and index
  /// read back, its header and frame messages opened as a reader of
  /// `nats://HOST:PORT/SESSION-ID` opens them, replayed as a journal is.
  case stream

  /// Runs the target on `bytes`; traps, with the reason, when a check fails.
  ///
  /// A parser that traps on the input traps here too: that is what the fuzzer looks
  /// for.
  public func run(_ bytes: UnsafeRawBufferPointer) {
    do {
      try check(Array(bytes))
    } catch {
      // fatalError, not preconditionFailure: its message survives optimisation.
      fatalError("fuzz target \(rawValue): \(error)")
    }
  }

  /// Turns a file into an input of this target: the identity, except for
  /// ``journalChecksummed``, whose inputs are journals whose data frames are stored
  /// without compression (`UncompressedFrames`) so that changed bytes land in the
  /// records rather than in compressed data.
  public func seed(from bytes: [UInt8]) -> [UInt8] {
    switch self {
    case .journalChecksummed: UncompressedFrames.rewrite(bytes)
    default: bytes
    }
  }

  /// Inputs this module makes for the target, besides the repository's files: for the
  /// journal targets, a small recorded session with several frames and snapshots, in
  /// every condition a reader meets (closed, not closed, a torn tail, a damaged header,
  /// salvaged); for the stream, the same sessions as a push stores them; none for the
  /// others.
  public func builtInSeeds() -> [[UInt8]] {
    switch self {
    case .journal: SampleSession.journals()
    case .journalChecksummed: SampleSession.journals().map(seed(from:))
    case .stream: StreamHarness.seeds()
    default: []
    }
  }

  /// Runs the target on `bytes`.
  /// - Throws: ``FuzzFailure`` when a check of the parser's output fails (a value that
  ///   does not read back as itself, say); a parser's own errors are expected and do
  ///   not throw.
  package func check(_ bytes: [UInt8]) throws(FuzzFailure) {
    switch self {
    case .journal: try JournalHarness.run(bytes)
    case .journalChecksummed: try JournalHarness.run(JournalChecksums.recomputed(bytes))
    case .jsonLines: try JSONLinesHarness.run(bytes)
    case .scenario: try ScriptHarness.runScenario(bytes)
    case .eventScript: try ScriptHarness.runEventScript(bytes)
    case .json: try JSONHarness.run(bytes)
    case .condition: try ConditionHarness.run(bytes)
    case .point: try PointHarness.run(bytes)
    case .stream: try StreamHarness.run(bytes)
    }
  }
}

/// A check of a parser's output that failed: what was read, what came back.
package struct FuzzFailure: Error, CustomStringConvertible {
  package var message: String

  package init(_ message: String) { self.message = message }

  package var description: String { message }
}
