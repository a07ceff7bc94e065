import RewindArguments
import RewindCore

/// A session as the domain's scenario script, read back to make sure `rewind record`
/// records the same session from it: `rewind export --scenario` and `rewind shrink`.
struct ScenarioText {
  /// The script.
  var text: String
  /// Why the script does not record the same session (settings or events that the
  /// script language cannot write), nil when it does.
  var problem: String?

  /// - Parameter comments: Lines of comment above the script, their control characters
  ///   escaped (`\u{A}`).
  init<D: RecordableDomain>(_ scenario: Scenario<D>, comments: [String] = []) {
    let script = D.scenarioScript(scenario)
    text = Self.commentLines(comments) + script
    problem = Self.problem(reading: text, back: scenario)
  }

  /// Whether `D`'s scripts are made of their parts, so that `rewind export --scenario`
  /// writes them a batch of lines at a time (``ScenarioStream``): the domain's script of
  /// `probe` (a session's first events) is what its preamble and lines write, and its
  /// parser reads it as its reader does. A domain that gives
  /// `RecordableDomain.scenarioScript(_:)` or `parseScenario(_:directory:)` alone (a
  /// language of before the parts) is not: its script is written whole.
  static func isMadeOfParts<D: RecordableDomain>(_ probe: Scenario<D>) -> Bool {
    let whole = D.scenarioScript(probe)
    let parts = EventScript.script(
      probe.events, after: D.scenarioPreamble(probe), needsTime: probe.domain.scenarioLineNeedsTime
    ) { probe.domain.scenarioLine($0) }
    guard whole == parts else { return false }
    var reader = D.scenarioReader(directory: ".")
    let read = try? reader.readAll(whole)
    let parsed = try? D.parseScenario(whole, directory: ".")
    guard let read, let parsed else { return read == nil && parsed == nil }
    return read.domain.settingsJSON == parsed.domain.settingsJSON
      && read.device == parsed.device && read.startTime == parsed.startTime
      && read.events.count == parsed.events.count
      && zip(read.events, parsed.events).allSatisfy {
        $0.time == $1.time && $0.event == $1.event
      }
  }

  /// Lines of comment, each ending in a newline: a comment is one line, so a newline in
  /// it (a journal's name, say) is escaped with every other control character, lest the
  /// rest read as an interaction.
  static func commentLines(_ comments: [String]) -> String {
    comments.map { "# " + TerminalText.escaped($0) + "\n" }.joined()
  }

  /// What differs when `text` is read back, nil when it is `scenario` again.
  private static func problem<D: RecordableDomain>(
    reading text: String, back scenario: Scenario<D>
  ) -> String? {
    let read: Scenario<D>
    do throws(ScenarioError) {
      read = try D.parseScenario(text, directory: ".")
    } catch {
      // The settings first: a script read with other settings (another catalog) fails
      // at the first event naming what only the session's have.
      var settingsOnly = scenario
      settingsOnly.events = []
      if let read = try? D.parseScenario(D.scenarioScript(settingsOnly), directory: "."),
        read.domain.settingsJSON != scenario.domain.settingsJSON
      {
        return settingsProblem(read.domain.settingsJSON, scenario.domain.settingsJSON)
      }
      return
        "the script does not read back (line \(error.line), column \(error.column): \(error.message))"
    }
    if read.domain.settingsJSON != scenario.domain.settingsJSON {
      return settingsProblem(read.domain.settingsJSON, scenario.domain.settingsJSON)
    }
    if let problem = headerProblem(read, scenario) { return problem }
    guard read.events.count == scenario.events.count else {
      return "the script reads back as \(read.events.count) events, not \(scenario.events.count)"
    }
    for (index, (written, original)) in zip(read.events, scenario.events).enumerated() {
      let line = scenario.domain.scenarioLine(original.event)
      guard !isSame(written, in: read.domain, as: original, line: line, in: scenario.domain)
      else { continue }
      let readLine = read.domain.scenarioLine(written.event)
      guard readLine == line else {
        return
          "event \(index + 1) of the script reads back as another event: \(Format.quotedVisibly(line)) reads as \(Format.quotedVisibly(readLine))"
      }
      return "event \(index + 1) of the script reads back as another event or at another time"
    }
    return nil
  }

  /// Whether `read`, an event of a script read back (in `readDomain`, the session it reads
  /// as; nil when it set none up), is `written`, the event of `domain`'s session written
  /// as `line`: at the same time, and the same event.
  ///
  /// The same event is not always `==`: an id a domain keeps apart from its catalog is
  /// numbered in the order each session meets it, so a script of a part of a session
  /// numbers them otherwise (events `==` only by their JSON then), and `id:a # b` (a
  /// comment cut) read back as `a` is numbered alike (events `==` that are not the same:
  /// the line written again from the event read back tells).
  static func isSame<D: RecordableDomain>(
    _ read: TimedEvent<D.Event>, in readDomain: D?, as written: TimedEvent<D.Event>,
    line: String, in domain: D
  ) -> Bool {
    guard read.time == written.time else { return false }
    guard let readDomain else { return read.event == written.event }
    guard read.event == written.event else {
      return json(of: read.event, in: readDomain) == json(of: written.event, in: domain)
    }
    return readDomain.scenarioLine(read.event) == line
  }

  /// An event's JSON object, as `rewind export` writes it.
  static func json<D: Domain>(of event: D.Event, in domain: D) -> [UInt8] {
    var writer = JSONWriter(capacity: 128)
    writer.beginObject()
    domain.writeMembers(of: event, to: &writer)
    writer.endObject()
    return writer.withBytes { Array($0) }
  }

  /// That the script language cannot write the session's device or start, `original`'s,
  /// which `read` has otherwise: which of them, as it is and as it reads back (a `#` in a
  /// device starts a comment, spaces at its ends are dropped); nil when both read back.
  static func headerProblem<D: Domain>(_ read: Scenario<D>, _ original: Scenario<D>) -> String? {
    func shown(_ device: String?) -> String { device.map { Format.quoted($0) } ?? "none" }
    if read.device != original.device {
      return
        "the script language cannot write the session's device \(shown(original.device)): it reads back as \(shown(read.device)) (a # starts a comment, spaces at its ends are dropped)"
    }
    guard read.startTime != original.startTime else { return nil }
    func time(_ start: Int64?) -> String { start.map { ISO8601.format($0) } ?? "none" }
    return
      "the script language cannot write the session's start \(time(original.startTime)): it reads back as \(time(read.startTime))"
  }

  /// That the script language cannot write the session's settings `original`, naming
  /// those a script gives otherwise (`read`), by their paths: `the script language cannot
  /// write the session's settings menu.scrollsTappedTabIntoView, catalog`.
  static func settingsProblem(_ read: JSONValue, _ original: JSONValue) -> String {
    let given = Dictionary(read.leaves().map { ($0.path, $0.value) }) { first, _ in first }
    let kept = Set(original.leaves().map(\.path))
    var paths = original.leaves().filter { given[$0.path] != $0.value }.map(\.path)
    paths += read.leaves().map(\.path).filter { !kept.contains($0) }
    guard !paths.isEmpty else { return "the script language cannot write the session's settings" }
    let shown = paths.prefix(4).joined(separator: ", ")
    let more = paths.count > 4 ? " and \(paths.count - 4) more" : ""
    return
      "the script language cannot write the session's \(paths.count == 1 ? "setting" : "settings") \(shown)\(more)"
  }
}
