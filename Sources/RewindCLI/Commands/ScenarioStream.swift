import RewindCore

/// A session as the domain's scenario script, written a batch of lines at a time and
/// read back as it is written: `rewind export --scenario` of a session of any length, in
/// memory that does not grow with it.
///
/// The text is ``ScenarioText``'s, byte for byte, and so is the verdict: the lines are
/// read back by the domain's ``RecordableDomain/ScenarioReader`` a batch at a time, the
/// settings as soon as they are written, and each event compared with the one it was
/// written for. The problems are found in the order ``ScenarioText`` finds them in the
/// whole script: settings read otherwise (or that do not read), then a line that does not
/// read, then the device or start, then a count of events that differs, then the first event read
/// otherwise.
///
/// ```swift
/// var stream = try ScenarioStream(session, comments: ["Exported from a.journal"]) { text in … }
/// for event in events { try stream.append(event) }
/// try stream.finish()
/// ```
struct ScenarioStream<D: RecordableDomain> {
  /// Why a script does not record the same session, in the words of
  /// ``ScenarioText/problem``.
  struct Problem: Error {
    var message: String
  }

  private let session: Scenario<D>
  private let emit: (String) throws -> Void
  /// A batch of lines is about this many bytes.
  private let batchSize: Int
  /// Whether the lines are read back (standard output's second pass writes what its
  /// first one read back).
  private let checking: Bool
  private var reader: D.ScenarioReader
  /// The lines written since the last batch was handed on.
  private var text = ""
  /// How many bytes of `text` were read back (the settings, before they are handed on).
  private var textRead = 0
  /// Whether the script has no settings lines (with no event either, it is a blank line).
  private let bare: Bool
  private var previous: UInt64?
  /// The events written, and those read back.
  private var events = 0
  private var eventsRead = 0
  /// The events written and those read back that are not yet compared (one side is
  /// empty): a batch's, or more when a line reads back as another number of events.
  private var written: [TimedEvent<D.Event>] = []
  /// The lines of `written`'s events, as written.
  private var writtenLines: [String] = []
  private var read: [TimedEvent<D.Event>] = []
  /// The device or start read otherwise, said unless a line does not read back.
  private var deviceProblem: String?
  /// The first event read back otherwise, said unless the counts differ.
  private var eventProblem: String?

  /// Writes the comments and the session's settings, and reads them back.
  ///
  /// - Parameters:
  ///   - session: the domain, device and start (its events are not read).
  ///   - comments: lines of comment above the script, their control characters escaped.
  ///   - checking: whether to read the lines back.
  ///   - batchSize: about how many bytes of whole lines `emit` is called with.
  ///   - emit: called with a batch of whole lines.
  /// - Throws: ``Problem`` when the settings do not read back as the session's.
  init(
    _ session: Scenario<D>, comments: [String], checking: Bool = true,
    batchSize: Int = 64 << 10, emit: @escaping (String) throws -> Void
  ) throws {
    self.session = session
    self.batchSize = batchSize
    self.emit = emit
    self.checking = checking
    reader = D.scenarioReader(directory: ".")
    let preamble = D.scenarioPreamble(session)
    bare = preamble.isEmpty
    text = ScenarioText.commentLines(comments) + preamble
    guard checking else { return }
    try readBack()
    let settings: Scenario<D>
    do throws(ScenarioError) {
      settings = try reader.session()
    } catch {
      throw Self.unreadable(error)
    }
    if settings.domain.settingsJSON != session.domain.settingsJSON {
      throw Problem(
        message: ScenarioText.settingsProblem(
          settings.domain.settingsJSON, session.domain.settingsJSON))
    }
    deviceProblem = ScenarioText.headerProblem(settings, session)
  }

  /// Writes an event's line.
  /// - Throws: ``Problem`` when a line of the batch it ends does not read back; what
  ///   `emit` throws.
  /// - Complexity: amortised O(1): a line, and a batch every `batchSize` bytes.
  mutating func append(_ timed: TimedEvent<D.Event>) throws {
    text += EventScript.timeStep(
      timed, after: previous, needsTime: session.domain.scenarioLineNeedsTime)
    let line = session.domain.scenarioLine(timed.event)
    text += line
    text += "\n"
    previous = timed.time
    events += 1
    if checking && eventProblem == nil {
      written.append(timed)
      writtenLines.append(line)
    }
    if text.utf8.count >= batchSize { try handOn() }
  }

  /// Writes what is left and says whether the whole script reads back as the session.
  /// - Throws: ``Problem`` for the first difference, as ``ScenarioText/problem`` says it;
  ///   what `emit` throws.
  mutating func finish() throws {
    if bare && events == 0 { text += "\n" }
    try handOn()
    guard checking else { return }
    if let deviceProblem { throw Problem(message: deviceProblem) }
    guard eventsRead == events else {
      throw Problem(message: "the script reads back as \(eventsRead) events, not \(events)")
    }
    if let eventProblem { throw Problem(message: eventProblem) }
  }

  /// Reads the batch back, compares its events and hands it on.
  private mutating func handOn() throws {
    if checking { try readBack() }
    if !text.isEmpty { try emit(text) }
    text.removeAll(keepingCapacity: true)
    textRead = 0
  }

  /// Reads `text` back (what was not) and compares the events it gives with those
  /// written, in order.
  private mutating func readBack() throws {
    let batch = Substring(text.utf8.dropFirst(textRead))
    textRead = text.utf8.count
    // Those before the ones left over were compared.
    let compared = eventsRead - self.read.count
    var read = self.read
    self.read = []
    var count = 0
    let keeping = eventProblem == nil
    do throws(ScenarioError) {
      try reader.read(batch) { line in
        guard case .event(let event) = line else { return }
        count += 1
        if keeping { read.append(event) }
      }
    } catch {
      throw Self.unreadable(error)
    }
    guard keeping else {
      eventsRead += count
      return
    }
    let pairs = min(read.count, written.count)
    let readDomain = try? reader.session().domain
    let (sent, lines) = (written, writtenLines)
    func readsOtherwise(_ index: Int) -> Bool {
      !ScenarioText.isSame(
        read[index], in: readDomain, as: sent[index], line: lines[index], in: session.domain)
    }
    if let index = (0..<pairs).first(where: readsOtherwise) {
      eventProblem = Self.otherEvent(
        compared + index, written: writtenLines[index],
        read: readDomain?.scenarioLine(read[index].event))
    } else if max(read.count, written.count) - pairs > Self.leftOverEvents {
      // Lines that read back as no event, or as more than one, for so long: the events
      // from there are taken as read otherwise, rather than held.
      eventProblem = Self.otherEvent(compared + pairs)
    }
    if eventProblem == nil {
      read.removeFirst(pairs)
      written.removeFirst(pairs)
      writtenLines.removeFirst(pairs)
      self.read = read
    } else {
      written = []
      writtenLines = []
    }
    eventsRead += count
  }

  /// The most events written and not read back, or read back and not written, that are
  /// held to be compared.
  static var leftOverEvents: Int { 1 << 16 }

  /// That event `index` (from 0) reads back otherwise: its line `written` as `read`, when
  /// they are given and differ.
  private static func otherEvent(_ index: Int, written: String? = nil, read: String? = nil)
    -> String
  {
    guard let written, let read, written != read else {
      return "event \(index + 1) of the script reads back as another event or at another time"
    }
    return
      "event \(index + 1) of the script reads back as another event: \(Format.quotedVisibly(written)) reads as \(Format.quotedVisibly(read))"
  }

  private static func unreadable(_ error: ScenarioError) -> Problem {
    Problem(
      message:
        "the script does not read back (line \(error.line), column \(error.column): \(error.message))"
    )
  }
}
