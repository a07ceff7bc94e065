/// Scenario scripts for any domain: one event per line, written as its JSON is, with an
/// optional time. The default of ``RecordableDomain/parseScenario(_:directory:)``.
///
/// ```
/// # A counter, by hand
/// device: iPhone 15 Pro
/// start: 2026-11-30T09:15:00Z
///
/// added amount=5                 # at +0s
/// +1.5s reset                    # 1.5 s after the event before
/// added amount=-3                # 0.5 s after the event before
/// expect total == 2              # the state after it
/// @10s renamed title="Two words" # 10 s after the session started
/// ```
///
/// - **Events.** The event's kind (its `"event"` in JSON), then each payload field as
///   `NAME=VALUE`, or as `VALUE` alone for the unlabelled payloads of an enum case
///   (`_0`, `_1`, … in its JSON). A value is JSON when it reads as JSON (`5`, `-2.5`,
///   `true`, `null`, `"two words"`, `[1,2]`, `{"x":1}`) and otherwise a word taken as a
///   string (`title=Groceries`). The line `added amount=5` is the event
///   `{"event":"added","amount":5}`, and `added 5` is `{"event":"added","_0":5}`;
///   ``Domain/describe(_:)`` writes events in this form by default, so `rewind log`
///   lines can be pasted into a script. Every key must be one the event's JSON has, as
///   `rewind import` requires: a misspelt key (`noted txet=hi`) or a word the event has no
///   place for (`cleared now`) is an error at its column that names the event's keys,
///   never dropped (a key given as `null` is let through, as a domain may leave a nil
///   field out of its JSON).
/// - **Time.** A line may start with a time step: `+0.8s`, `+250ms`, `+90us`, `+2m` after
///   the event before, or `@12.5s` from the session start (never before the event
///   before). A line without one comes ``defaultStep`` after the event before; the first
///   event is at `+0s`.
/// - **Settings**, before the first event, each at most once: `device: TEXT` (the
///   recording device), `start: TIME` (ISO 8601, e.g. `2026-11-30T09:15:00Z`),
///   `settings: JSON` (the domain's settings, as in a journal header; by default the
///   domain's ``RecordableDomain/sample``).
/// - **Expectations.** A line `expect CONDITION` asserts a condition of `rewind find`'s
///   language (``Condition``) on the state after the event before it (on the initial
///   state before any event), `expect changed(count)` that the event changed a field,
///   `expect rejected` that it was rejected, `expect unchanged` that it was accepted and
///   changed nothing (``ScenarioExpectation``). A condition is checked against the
///   domain's fields as the script is read; `rewind record` checks each expectation after
///   its event and records nothing when one fails. A line whose first word is `expect`
///   (in any case) is always an expectation, and one after a time step is refused: an
///   event kind named `expect` cannot be written in a script.
/// - `#` outside quotes starts a comment; blank lines are ignored; lines may end in
///   `\r\n`; a leading byte-order mark is skipped. A NUL character is an error.
public enum EventScript {
  /// The pause before an event whose line gives no time step: half a second.
  public static let defaultStep: UInt64 = 500_000

  /// The language described for people (`rewind help scenario`).
  public static let help = """
    One event per line, written as its JSON is: the event's kind (its "event"), then
    each payload field as NAME=VALUE, or VALUE alone for an enum case's unlabelled
    payload (_0, _1, ...). A value is JSON when it reads as JSON (5, -2.5, true, null,
    "two words", [1,2]) and otherwise a word taken as a string. `rewind log` shows
    events in this form, so its lines can be pasted into a script.

    TIME
      +0.8s, +250ms, +90us, +2m   before the event: after the event before it (units
                                  together, largest first: +1m30s)
      @12.5s                      from the session's start (never earlier)
      (none)                      0.5 s after the event before; the first at +0s

    SETTINGS (before the first event, each at most once)
      device: TEXT                the recording device
      start: TIME                 when the session started (ISO 8601)
      settings: JSON              the domain's settings, as a journal's header holds
                                  them (rewind info --json)

    EXPECTATIONS (checked after the event before them; nothing is recorded when one
    fails)
      expect CONDITION            a condition of `rewind help conditions`
      expect changed(PATH)        the event changed the field
      expect rejected             the reducer rejected the event
      expect unchanged            it accepted it and changed nothing

    # starts a comment outside quotes; blank lines are ignored.

    EXAMPLE
        device: iPhone 15 Pro
        start: 2026-11-30T09:15:00Z
        added amount=5
        +1.5s reset
        expect total == 0
    """

  /// Parses a script for domain `D`.
  /// - Throws: ``ScenarioError`` with the line and column of the first problem and what
  ///   was expected there.
  /// - Complexity: O(length of the text).
  public static func parse<D: RecordableDomain>(_ text: String, as type: D.Type)
    throws(ScenarioError) -> Scenario<D>
  {
    var reader = Reader<D>()
    return try reader.readAll(text)
  }

  /// A value as a script writes it: a word for a string that reads as nothing else, JSON
  /// otherwise (`Groceries`, `"two words"`, `"5"`, `5`, `true`).
  package static func token(_ value: JSONValue) -> String {
    guard case .string(let text) = value, isWord(text) else { return value.compactText }
    return text
  }

  /// Whether a string can be written without quotes and read back as itself.
  static func isWord(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, !"\"[{".unicodeScalars.contains(first) else {
      return false
    }
    let plain = text.unicodeScalars.allSatisfy { scalar in
      !scalar.properties.isWhitespace && scalar != "#" && scalar != "=" && scalar.value >= 0x20
        && !(0x7F...0x9F).contains(scalar.value)
    }
    return plain && (try? JSONValue(parsing: text)) == nil
  }

  /// What an event's payload is, from the keys of its JSON (less `event`), to end a
  /// message: `its keys are text, pinned`, `it takes 2 values without names`, `it has no
  /// payload`.
  static func payload(_ keys: [String]) -> String {
    let named = keys.filter { !isPosition($0) }
    let unnamed = keys.count - named.count
    let values = unnamed == 1 ? "1 value without a name" : "\(unnamed) values without names"
    let list = named.joined(separator: ", ")
    switch (named.isEmpty, unnamed == 0) {
    case (true, true): return "it has no payload"
    case (true, false): return "it takes \(values)"
    case (false, true): return "its keys are \(list)"
    case (false, false): return "its keys are \(list), and it takes \(values)"
    }
  }

  /// Whether `text` is a payload field's name: a letter or `_`, then letters, digits and
  /// `_`.
  static func isName(_ text: Substring) -> Bool {
    guard let first = text.first, first.isLetter || first == "_" else { return false }
    return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
  }

  /// Whether a payload field's name is an enum's unlabelled position (`_0`, `_1`, …),
  /// written without its name.
  static func isPosition(_ name: String) -> Bool {
    name.count > 1 && name.first == "_" && name.dropFirst().allSatisfy(\.isASCII)
      && name.dropFirst().allSatisfy(\.isNumber)
  }

  /// One line of a script, cut into words at whitespace outside quotes and brackets, with
  /// the column each word starts at; a `#` outside quotes ends it.
  struct Line {
    var words: [(text: String, column: Int)] = []
    let number: Int
    /// The line as written.
    let text: Substring
    /// Where the line's content ends (for errors about what is missing).
    var endColumn = 1
    /// A problem found while cutting the line (an unclosed quote, a NUL).
    var problem: ScenarioError?

    init(_ line: Substring, number: Int) {
      self.number = number
      text = line
      var word = ""
      var wordColumn = 0
      var column = 0
      var quoted = false
      var escaped = false
      var depth = 0
      func finishWord(_ words: inout [(text: String, column: Int)]) {
        if !word.isEmpty { words.append((word, wordColumn)) }
        word = ""
      }
      for character in line {
        column += 1
        if character == "\0" {
          problem = ScenarioError(line: number, column: column, "a NUL character")
          return
        }
        if !quoted && character == "#" { break }
        if !quoted && depth == 0 && character.isWhitespace {
          finishWord(&words)
          continue
        }
        if word.isEmpty { wordColumn = column }
        word.append(character)
        endColumn = column + 1
        if quoted {
          if escaped {
            escaped = false
          } else if character == "\\" {
            escaped = true
          } else if character == "\"" {
            quoted = false
          }
        } else if character == "\"" {
          quoted = true
        } else if character == "[" || character == "{" {
          depth += 1
        } else if character == "]" || character == "}" {
          depth = max(depth - 1, 0)
        }
      }
      if quoted {
        problem = ScenarioError(line: number, column: wordColumn, "a quote is not closed")
      }
      finishWord(&words)
    }

    func error(_ message: String, at word: Int? = nil) -> ScenarioError {
      let column = word.flatMap { $0 < words.count ? words[$0].column : nil } ?? endColumn
      return ScenarioError(line: number, column: column, message)
    }

    /// The line's content from `column` on, up to a comment.
    func content(from column: Int) -> Substring {
      text.prefix(max(endColumn - 1, 0)).dropFirst(column - 1)
    }
  }
}

extension EventScript {
  /// An event script read a few lines at a time: the ``RecordableDomain/ScenarioReader``
  /// of a domain whose scripts are event scripts.
  public struct Reader<D: RecordableDomain>: ScenarioScriptReader {
    private var parser = EventScriptParser<D>()
    private var lines = 0

    public init() {}

    public mutating func read(
      _ text: Substring, _ visit: (ScenarioScriptLine<D.Event>) -> Void
    ) throws(ScenarioError) {
      for line in scriptLines(text, first: lines == 0, isBreak: \.isNewline) {
        lines += 1
        if let read = try parser.parse(Line(line, number: lines)) { visit(read) }
      }
    }

    public func session() throws(ScenarioError) -> Scenario<D> {
      try parser.session()
    }
  }
}

/// The state of parsing one script.
struct EventScriptParser<D: RecordableDomain> {
  private var settings: (json: JSONValue, line: EventScript.Line)?
  private var device: String?
  private var startTime: Int64?
  /// The session's domain, made from the settings at the first event or `expect` line
  /// (settings come before both).
  private var domain: D?
  /// The events read so far.
  private var events = 0
  private var time: UInt64 = 0

  /// Reads a line: the event or expectation it gives, nil for a setting, a comment or a
  /// blank line.
  mutating func parse(_ line: EventScript.Line) throws(ScenarioError)
    -> ScenarioScriptLine<D.Event>?
  {
    if let problem = line.problem { throw problem }
    guard var first = line.words.first else { return nil }
    if first.text.hasSuffix(":") {
      try apply(setting: String(first.text.dropLast()), line)
      return nil
    }
    if first.text.lowercased() == "expect" {
      let column = first.column + first.text.count
      return .expectation(
        try ScenarioExpectation.parse(
          String(line.content(from: column)), domain: try sessionDomain(), line: line.number,
          column: column, afterEvents: events))
    }
    var wordIndex = 0
    var step = EventScript.defaultStep
    var absolute: UInt64?
    if let timeStep = try ScriptTimeStep.parse(first.text, problem: { line.error($0, at: 0) }) {
      if case .at = timeStep { absolute = timeStep.amount } else { step = timeStep.amount }
      if let absolute, absolute < time {
        throw line.error(
          "@\(Point.formatOffset(absolute)) is before the event before, at +\(Point.formatOffset(time))",
          at: 0)
      }
      wordIndex = 1
      guard line.words.count > 1 else { throw line.error("expected an event after the time step") }
      first = line.words[1]
      if first.text.lowercased() == "expect" {
        throw line.error(
          "an expect line takes no time step: it is checked after the event before it",
          at: 0)
      }
    }
    if let absolute {
      time = absolute
    } else if events > 0 || wordIndex == 1 {
      let (sum, overflow) = time.addingReportingOverflow(step)
      time = overflow ? .max : sum
    }
    guard time <= ScriptTimeStep.latestTime else {
      throw line.error(
        ScriptTimeStep.tooLateMessage,
        at: 0)
    }
    var members: [(String, JSONValue)] = [("event", .string(first.text))]
    /// The word each member after the kind was written as.
    var words: [Int] = []
    var positional = 0
    for index in (wordIndex + 1)..<line.words.count {
      let word = line.words[index].text
      let name: String
      var valueText = Substring(word)
      if let equals = word.firstIndex(of: "="), EventScript.isName(word[..<equals]) {
        name = String(word[..<equals])
        valueText = word[word.index(after: equals)...]
        guard !valueText.isEmpty else {
          throw line.error("expected a value after '\(name)='", at: index)
        }
      } else {
        name = "_\(positional)"
        positional += 1
      }
      guard !members.contains(where: { $0.0 == name }) else {
        throw line.error("\(Format.quoted(name)) is given twice", at: index)
      }
      let column =
        line.words[index].column + word.distance(from: word.startIndex, to: valueText.startIndex)
      members.append((name, try Self.value(String(valueText), line, column: column)))
      words.append(index)
    }
    let domain = try sessionDomain()
    let event: D.Event
    do throws(DomainError) {
      event = try domain.event(fromJSON: .object(members))
    } catch {
      // A key missing where another is given in its place (`qty=1` for `quantity`): said
      // at the key given, which it reads as (it was said as missing, at the line's start).
      if let missing = error.missingKey,
        let (index, read) = Self.misspelling(of: missing, in: members, domain)
      {
        let keys = Self.keys(of: read, in: domain)
        throw line.error(
          "unknown key \(Format.quoted(members[index].0, quote: "\"")) in the event \(Format.quoted(domain.eventKind(read), quote: "\"")) (did you mean \(Format.quoted(missing, quote: "\""))?); \(EventScript.payload(keys))",
          at: words[index - 1])
      }
      throw line.error(error.message(givenKeys: members.map(\.0)), at: wordIndex)
    }
    try checkKeys(members, words: words, of: event, in: domain, line)
    events += 1
    return .event(TimedEvent(time: time, event: event))
  }

  /// The session's domain: made from the settings (or the sample) the first time.
  /// - Throws: ``ScenarioError`` at the settings when the domain refuses them.
  private mutating func sessionDomain() throws(ScenarioError) -> D {
    let made = try madeDomain()
    domain = made
    return made
  }

  /// The session's domain, made from the settings (or the sample) unless it was.
  private func madeDomain() throws(ScenarioError) -> D {
    if let domain { return domain }
    if let settings {
      do throws(DomainError) {
        return try D(settingsJSON: settings.json)
      } catch {
        throw settings.line.error("the settings are not valid: \(error.message)", at: 1)
      }
    }
    do throws(DomainError) {
      return try D.sample
    } catch {
      // Said at the first line, where a `settings:` line would go.
      throw ScenarioError(
        line: 1, column: 1, "the script has no `settings:` line, and \(error.message)")
    }
  }

  /// The member of `members` (a line's event: its kind, then the keys given) that names
  /// the key `missing` misspelt: the first named one that, renamed `missing`, makes an
  /// event the domain reads, and is no key of that event (given as well as `missing`,
  /// its event's JSON does not hold it: an optional key given alone is not a misspelling);
  /// with that event.
  private static func misspelling(
    of missing: String, in members: [(String, JSONValue)], _ domain: D
  ) -> (index: Int, event: D.Event)? {
    for index in members.indices.dropFirst()
    where !EventScript.isPosition(members[index].0) && members[index].0 != missing {
      var renamed = members
      renamed[index].0 = missing
      guard let event = try? domain.event(fromJSON: .object(renamed)) else { continue }
      let both = members + [(missing, members[index].1)]
      if let kept = try? domain.event(fromJSON: .object(both)),
        keys(of: kept, in: domain).contains(members[index].0)
      {
        continue
      }
      return (index, event)
    }
    return nil
  }

  /// The keys of `event`'s JSON, its kind's aside.
  private static func keys(of event: D.Event, in domain: D) -> [String] {
    guard case .object(let members) = domain.json(event) else { return [] }
    return members.map(\.0).filter { $0 != JSONLines.eventKey }
  }

  /// Refuses a key the event's JSON does not have, as `rewind import` does: a domain's
  /// decoder passes over a key it does not know, so that a misspelt key of an optional
  /// field would read as nil and a stray word be dropped. A key given as `null` is let
  /// through, as a domain may leave a nil field out of its JSON.
  /// - Parameters:
  ///   - members: the line's event as JSON: its kind, then the keys given.
  ///   - words: the word of the line each key after the kind was written as.
  /// - Throws: ``ScenarioError`` at the first such key's word, naming the event's keys.
  private func checkKeys(
    _ members: [(String, JSONValue)], words: [Int], of event: D.Event, in domain: D,
    _ line: EventScript.Line
  ) throws(ScenarioError) {
    guard case .object = domain.json(event) else { return }
    // The kind is among the event's keys, and the line's first member.
    let keys = Self.keys(of: event, in: domain)
    let given = Array(members.dropFirst())
    guard let index = JSONLines.firstUnknownKey(of: given, among: Set(keys)) else { return }
    let kind = domain.eventKind(event)
    let name = given[index].0
    let word = words[index]
    let payload = EventScript.payload(keys)
    guard !EventScript.isPosition(name) || line.words[word].text.hasPrefix(name + "=") else {
      throw line.error(
        "unexpected \(Format.quoted(line.words[word].text, quote: "\"")) in the event \(Format.quoted(kind, quote: "\"")); \(payload)",
        at: word)
    }
    throw line.error(
      "\(JSONLines.unknownKey(name, inEvent: kind, keys: keys, given: given.map(\.0))); \(payload)",
      at: word)
  }

  /// A value: JSON when it reads as JSON, otherwise a word taken as a string.
  /// - Parameter column: where the value starts on its line.
  private static func value(_ text: String, _ line: EventScript.Line, column: Int)
    throws(ScenarioError) -> JSONValue
  {
    do {
      return try JSONValue(parsing: text)
    } catch {
      if let first = text.first, "\"[{".contains(first) {
        throw ScenarioError(
          line: line.number, column: column + error.column - 1, "not valid JSON: \(error.message)")
      }
      return .string(text)
    }
  }

  private mutating func apply(setting name: String, _ line: EventScript.Line)
    throws(ScenarioError)
  {
    guard domain == nil else {
      let first = events == 0 ? "the first 'expect'" : "the first event"
      throw line.error("settings come before \(first)", at: 0)
    }
    let value = line.words.dropFirst().map(\.text).joined(separator: " ")
    guard !value.isEmpty else { throw line.error("expected a value after '\(name):'") }
    switch name {
    case "device":
      guard device == nil else { throw line.error("'device:' is given twice", at: 0) }
      if let problem = TerminalText.controlCharacterProblem(in: value, describedAs: "the device") {
        throw line.error(problem, at: 1)
      }
      device = value
    case "start":
      guard startTime == nil else { throw line.error("'start:' is given twice", at: 0) }
      guard line.words.count == 2, let start = ISO8601.parse(value) else {
        throw line.error("expected an ISO-8601 time such as 2026-11-30T09:00:00Z", at: 1)
      }
      startTime = start
    case "settings":
      guard settings == nil else { throw line.error("'settings:' is given twice", at: 0) }
      do {
        settings = (try JSONValue(parsing: value), line)
      } catch {
        throw line.error("the settings are not JSON: \(error.message)", at: 1)
      }
    default:
      throw line.error(
        "unknown setting '\(name):'; the settings are device:, start: and settings:", at: 0)
    }
  }

  /// The session the settings read so far set up, without events or expectations.
  func session() throws(ScenarioError) -> Scenario<D> {
    Scenario(domain: try madeDomain(), device: device, startTime: startTime, events: [])
  }
}
