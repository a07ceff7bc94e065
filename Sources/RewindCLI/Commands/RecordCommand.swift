import RewindArguments
import RewindCore
import RewindJournal
import RewindSpelling

extension RewindTool {
  struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "record", abstract: "Record a scenario script into a journal.",
      discussion: """
        Runs the script's interactions through the domain's reducer, as a live Store \
        would, and writes the journal: it appears complete, or not at all. The script is \
        read a batch of lines at a time, in memory that does not grow with it; each \
        `expect` line is checked after its event, and nothing is written when one fails \
        or a line does not read. 'rewind help scenario' describes the script language.
        """)

    let registry: DomainRegistry

    @Argument(help: "The scenario script, or - for standard input (./- for a file named -).")
    var scenario: String
    @Option(short: "o", valueName: "journal", help: "The journal to write.")
    var output: String
    @Option var domain: String?  // its help names the default domain: see init(registry:)
    @Option(
      valueName: "events", help: "Store a snapshot every this many events.",
      transform: parseSnapshotInterval)
    var snapshotInterval: UInt32 = 1024
    @Flag(help: "Replace the journal if it exists.")
    var force: Bool
    @Flag(help: "Print JSON.")
    var json: Bool

    init(registry: DomainRegistry) {
      self.registry = registry
      _domain = Option(
        valueName: "name", help: "The domain of the script (default: \(registry.names[0])).",
        transform: registry.domainName)
    }

    func run(_ context: Context) throws {
      let file: TextFileReader
      do throws(TextFileError) {
        file = try textInput(scenario, what: "the scenario script", context: context)
      } catch {
        throw Self.readingProblem(error, scenario)
      }
      let command = RecordCommand(
        scenarioPath: scenario, file: file, output: output, interval: snapshotInterval,
        force: force, json: json, context: context)
      try registry.with(domain, command)
    }

    /// What is said of a script that cannot be read, or is no text, at any line.
    static func readingProblem(_ error: TextFileError, _ scenario: String) -> any Error {
      if error.code == .notText, startsAsJournal(inputFile(scenario)) {
        return CommandError(
          "\(TerminalText.escaped(scenario)) is a journal, not a scenario script: `rewind export --scenario \(TerminalText.escaped(Format.shellPath(scenario)))` writes its script"
        )
      }
      // A problem of a line is named with it; one of the file says what was read.
      guard error.line == nil, !scenario.isEmpty else { return error }
      return CommandError("\(error.path): cannot read the scenario script: \(error.message)")
    }
  }
}

/// `rewind record` of a domain: the script read, checked and recorded a batch of lines at
/// a time (``ScenarioRecording``), in memory that does not grow with it.
///
/// It says what a script held whole said, first what came first in this order: the text
/// not read (a line that is no UTF-8 text, a read that fails), a line that does not parse
/// (line, column, what was meant, and what the script reads as when it is JSON), the
/// output refused, an `expect` line that fails, the journal not written. So a problem
/// found makes it read on, to the end, for one that comes before it; and nothing is
/// written unless the whole script records.
struct RecordCommand: DomainVisitor {
  let scenarioPath: String
  /// The script, opened.
  let file: TextFileReader
  let output: String
  let interval: UInt32
  let force: Bool
  let json: Bool
  let context: Context
  /// About how many bytes of whole lines are read at a time.
  var batchSize = 64 << 10
  /// The session's id (tests give one to compare journals byte for byte).
  var sessionID = SessionID.random()

  func visit<D: RecordableDomain>(_ type: D.Type) throws {
    // What messages call the script: its path, or standard input for `-`.
    let name = file.path
    let slash = scenarioPath.lastIndex(of: "/")
    let directory =
      slash.map { $0 == scenarioPath.startIndex ? "/" : String(scenarioPath[..<$0]) } ?? "."
    let options = context.batchRecordingOptions(snapshotInterval: interval)
    func recording(_ session: Scenario<D>) -> ScenarioRecording<D> {
      ScenarioRecording(
        session, scenarioPath: name, input: inputFile(scenarioPath), output: output,
        force: force, options: options, id: sessionID)
    }
    // A domain that parses its scripts its own way reads them whole.
    let streaming = D.parsesScenariosWithItsReader
    var batches = ScriptBatches(file, size: streaming ? batchSize : .max)
    var recorded: ScenarioRecording<D>?
    var problem: ScenarioError?
    do throws(TextFileError) {
      if streaming {
        var reader = D.scenarioReader(directory: directory)
        var lines: [ScenarioScriptLine<D.Event>] = []
        while let batch = try batches.next() {
          do throws(ScenarioError) {
            try reader.read(Substring(batch)) { lines.append($0) }
            // The session is the script's from its first event or `expect` line on.
            if recorded == nil && !lines.isEmpty { recorded = recording(try reader.session()) }
          } catch {
            problem = error
            // The journal begun is dropped: nothing is left of it.
            recorded = nil
            break
          }
          recorded?.take(lines)
          lines.removeAll(keepingCapacity: true)
        }
        if problem == nil && recorded == nil {
          do throws(ScenarioError) {
            recorded = recording(try reader.session())
          } catch {
            problem = error
          }
        }
      } else {
        let text = try batches.next() ?? ""
        do throws(ScenarioError) {
          let scenario = try D.parseScenario(text, directory: directory)
          // Its events and expectations, in the order of the script's lines.
          var lines: [ScenarioScriptLine<D.Event>] = []
          var expectations = scenario.expectations[...]
          func expectationsAfter(_ count: Int) {
            while let next = expectations.first, next.afterEvents == count {
              lines.append(.expectation(next))
              expectations.removeFirst()
            }
          }
          expectationsAfter(0)
          for (index, timed) in scenario.events.enumerated() {
            lines.append(.event(timed))
            expectationsAfter(index + 1)
          }
          var recording = recording(scenario)
          recording.take(lines)
          recorded = recording
        } catch {
          problem = error
        }
      }
      // A line that is no text, after one that does not parse, is said instead.
      if problem != nil { try batches.readToEnd() }
    } catch {
      throw RewindTool.Record.readingProblem(error, scenarioPath)
    }
    if let problem {
      let meant = closestName(to: problem.word, among: problem.choices).map {
        ". Did you mean '\($0)'?"
      }
      // A Git LFS pointer, JSON Lines or JSON given for a script (its first line that is
      // not blank is the one refused): said what it is, and what takes it.
      let start = batches.start
      let hint =
        problem.line == start.number
        ? start.content.flatMap {
          lfsPointerHint($0, for: "script") ?? jsonHint($0, path: scenarioPath)
        } ?? "" : ""
      throw CommandError(
        "\(name):\(problem.line):\(problem.column): \(problem.message)\(meant ?? "")\(hint)"
      )
    }
    // No line but blank ones: most likely a wrong path, or a pipe that wrote nothing (a
    // script of settings alone, or of comments, records the initial state). The journal
    // begun is dropped, not closed: nothing is written.
    if batches.start.content == nil {
      let what = file.bytesConsumed == 0 ? "is empty" : "holds only blank lines"
      throw CommandError(
        "\(name) \(what): nothing to record (a scenario script: 'rewind help scenario'); nothing was written"
      )
    }
    let summary = try recorded!.finish()
    if json {
      context.stdout.printJSON(
        .object([
          ("journal", .string(output)), ("events", .int(Int64(summary.events))),
          ("rejected", .int(Int64(summary.rejected))),
          ("durationMicroseconds", .int(Int64(summary.duration))),
        ]))
    } else {
      context.stdout.print(
        "Recorded \(Format.count(summary.events, "event")) (\(Format.count(summary.rejected)) rejected) over \(Format.duration(summary.duration)) to \(TerminalText.escaped(output))"
      )
    }
  }
}

/// A scenario script's lines, a batch at a time, as ``RecordCommand`` reads them: all the
/// batches, one after the other, are the text ``TextFileReader/remainingText()`` gives
/// (each line followed by `\n` but the last), so that a domain's reader reads them as it
/// reads that text whole.
struct ScriptBatches {
  private let file: TextFileReader
  private let size: Int
  /// The script's first line that is not blank, as far as it was read.
  private(set) var start = FirstContentLine()
  /// The last line read: followed by `\n` once another one comes.
  private var held: String?
  /// The bytes of the batch being made (kept for their capacity).
  private var bytes: [UInt8] = []

  /// - Parameter size: about how many bytes of whole lines a batch is (one line at least).
  init(_ file: TextFileReader, size: Int) {
    self.file = file
    self.size = size
  }

  /// The next lines, of about `size` bytes, each but the script's last followed by `\n`;
  /// nil after the last.
  /// - Throws: ``TextFileError`` for a line that is no text or a read that fails.
  /// - Complexity: O(size of the lines).
  mutating func next() throws(TextFileError) -> String? {
    bytes.removeAll(keepingCapacity: true)
    while bytes.count < size {
      guard let line = try file.nextLine() else {
        if let held { bytes.append(contentsOf: held.utf8) }
        held = nil
        start.finish()
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
      }
      start.add(line)
      if let held {
        bytes.append(contentsOf: held.utf8)
        bytes.append(0x0A)
      }
      held = line
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Reads the lines left, for the problem of one that is no text.
  mutating func readToEnd() throws(TextFileError) {
    while let line = try file.nextLine() { start.add(line) }
    held = nil
    start.finish()
  }
}

/// The first line of a script that is not blank, found as its lines are read: a parse
/// error there may be JSON given for a script (`jsonHint(_:path:)`).
///
/// Lines as `text.split(separator: "\n")` cuts a script's text: where a line ends in
/// `\r`, that `\r` and the `\n` after it are one `Character`, which it does not cut at.
struct FirstContentLine {
  /// The lines before it, all blank.
  private var blank = 0
  /// The line being read: the lines since the last cut (its first ``longest`` bytes or so:
  /// a script whose lines all end in `\r\r\n` is one such line, which is not held whole).
  private var line: String?
  /// Whether the last line added ends in `\r`: the next one joins it.
  private var joinsNext = false
  private var lineHasContent = false
  /// The first line that is not blank, once it was read whole.
  private(set) var content: String?

  /// The most bytes of a line held: a hint for JSON given for a script reads its start.
  static let longest = 1 << 20

  /// The first line that is not blank's number (from 1); 1 when all are.
  var number: Int { content == nil ? 1 : blank + 1 }

  /// Takes the next line of the text, as ``TextFileReader`` gives it.
  mutating func add(_ next: String) {
    guard content == nil else { return }
    if line != nil, joinsNext {
      // Appended in place (a copy each time took time in the square of the lines).
      if line!.utf8.count < Self.longest {
        line!.append("\n")
        line!.append(next)
      }
    } else {
      finish()
      guard content == nil else { return }
      line = next
    }
    joinsNext = next.hasSuffix("\r")
    if !lineHasContent { lineHasContent = next.contains { !$0.isWhitespace } }
  }

  /// Ends the line being read: the text ends, or a line that is cut at comes.
  mutating func finish() {
    guard let line else { return }
    if lineHasContent { content = line } else { blank += 1 }
    self.line = nil
    joinsNext = false
    lineHasContent = false
  }
}

/// `--snapshot-interval`: a number of events the journal allows between snapshots.
func parseSnapshotInterval(_ text: String) throws(InvalidValue) -> UInt32 {
  guard let value = groupedNumber(text).flatMap({ UInt32(exactly: $0) }), value >= 1,
    value <= JournalLimits.maximumSnapshotInterval
  else {
    throw InvalidValue(
      "expected a number of events from 1 to \(Format.count(JournalLimits.maximumSnapshotInterval))"
    )
  }
  return value
}
