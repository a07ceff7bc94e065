import RewindCore
import Testing

@Suite("Event scripts: scenarios for any domain")
struct EventScriptTests {
  func parse(_ text: String) throws(ScenarioError) -> Scenario<Notes> {
    try Notes.parseScenario(text, directory: "/")
  }

  @Test("events with their times, settings, comments, quoted and positional values")
  func script() throws {
    let scenario = try parse(
      """
      # groceries
      device: Pixel 9, Android 15   # the phone
      start: 2026-11-30T09:15:00Z

      added text=milk
      +1.5s added text="two words # not a comment"
      renamed title=null
      @10s moved 1 0
      +250ms cleared
      renamed title="Week 49"
      """)
    #expect(scenario.device == "Pixel 9, Android 15")
    #expect(scenario.startTime == ISO8601.parse("2026-11-30T09:15:00Z"))
    #expect(
      scenario.events.map(\.time) == [0, 1_500_000, 2_000_000, 10_000_000, 10_250_000, 10_750_000])
    #expect(
      scenario.events.map(\.event) == [
        .added(text: "milk"), .added(text: "two words # not a comment"), .renamed(title: nil),
        .moved(1, 0), .cleared, .renamed(title: "Week 49"),
      ])
  }

  @Test("a first line with a step starts after it; CRLF and a byte-order mark are read")
  func lineEndings() throws {
    let scenario = try parse("\u{FEFF}+2s added text=a\r\nadded text=b\r\n")
    #expect(scenario.events.map(\.time) == [2_000_000, 2_500_000])
    #expect(scenario.events.map(\.event) == [.added(text: "a"), .added(text: "b")])
  }

  @Test("a step of several units, largest first, adds them up")
  func compoundSteps() throws {
    let scenario = try parse("+1m30s added text=a\n@1h2m added text=b\n+1s500ms added text=c\n")
    #expect(scenario.events.map(\.time) == [90_000_000, 3_720_000_000, 3_721_500_000])
    #expect(throws: ScenarioError.self) { try parse("+30s1m added text=a\n") }
  }

  @Test("settings give the domain of the session")
  func settings() throws {
    let scenario = try StandardTally.parseScenario(
      "settings: {\"start\": 40}\nadded 2\ntoggled", directory: "/")
    #expect(scenario.domain.start == 40)
    #expect(scenario.events.map(\.event) == [.added(2), .toggled])
  }

  @Test(
    "errors name the line, the column and what was expected",
    arguments: [
      ("added text=a\nflew", 2, 1, #"unknown event kind "flew""#),
      ("+2s\n", 1, 4, "expected an event after the time step"),
      (
        "+2x added text=a", 1, 1,
        "expected a time step such as +0.8s, +250ms or @12.5s, found '+2x'"
      ),
      ("@5s added text=a\n@4s cleared", 2, 1, "@4s is before the event before, at +5s"),
      (
        "+99999999999999999999ms added text=a", 1, 1,
        "'+99999999999999999999ms' is too large: the session would last longer than 8760000 hours"
      ),
      ("added text=", 1, 7, "expected a value after 'text='"),
      ("added text=a text=b", 1, 14, "'text' is given twice"),
      (#"added text="open"#, 1, 7, "a quote is not closed"),
      ("added text=[1,", 1, 15, "not valid JSON: expected a JSON value, found the end of the text"),
      ("added\tnope=1 text=a\u{0}", 1, 20, "a NUL character"),
      ("cleared\ndevice: x", 2, 1, "settings come before the first event"),
      ("expect unchanged\ndevice: x", 1, 7, "'expect unchanged' needs an event before it"),
      // Any case is an expectation; after a time step, refused as one.
      ("Expect unchanged", 1, 7, "'expect unchanged' needs an event before it"),
      (
        "added text=a\n+1s expect unchanged", 2, 1,
        "an expect line takes no time step: it is checked after the event before it"
      ),
      ("expect title == x\ndevice: x", 2, 1, "settings come before the first 'expect'"),
      (
        "colour: red", 1, 1,
        "unknown setting 'colour:'; the settings are device:, start: and settings:"
      ),
      ("start: yesterday", 1, 8, "expected an ISO-8601 time such as 2026-11-30T09:00:00Z"),
      ("added text=5", 1, 1, "added.text: expected a string, found a number"),
      ("+1s added", 1, 5, #"added: missing "text""#),
      (
        "device: iPad \u{1B}]0;x\u{7}", 1, 9,
        #"the device "iPad \u{1B}]0;x\u{7}" contains a control character (U+001B)"#
      ),
    ] as [(String, Int, Int, String)])
  func errors(text: String, line: Int, column: Int, message: String) {
    #expect(throws: ScenarioError(line: line, column: column, message)) { try parse(text) }
  }

  @Test(
    "a key the event has not, or a word it has no place for, is refused at its column",
    arguments: [
      (
        "renamed titel=x", 9,
        #"unknown key "titel" (did you mean "title"?) in the event "renamed"; its keys are title"#
      ),
      ("added text=a extra=1", 14, #"unknown key "extra" in the event "added"; its keys are text"#),
      ("added extra=1 text=a", 7, #"unknown key "extra" in the event "added"; its keys are text"#),
      ("cleared now", 9, #"unexpected "now" in the event "cleared"; it has no payload"#),
      ("cleared _0=1", 9, #"unknown key "_0" in the event "cleared"; it has no payload"#),
      ("renamed Week", 9, #"unexpected "Week" in the event "renamed"; its keys are title"#),
      (
        "+1s moved 1 0 2", 15,
        #"unexpected "2" in the event "moved"; it takes 2 values without names"#
      ),
      // A key misspelt where one is missing: at the key given, which it reads as (it was
      // said as the missing one, at the line's start).
      (
        "added txt=milk", 7,
        #"unknown key "txt" in the event "added" (did you mean "text"?); its keys are text"#
      ),
      (
        "added words=milk", 7,
        #"unknown key "words" in the event "added" (did you mean "text"?); its keys are text"#
      ),
    ] as [(String, Int, String)])
  func unknownKeys(text: String, column: Int, message: String) {
    // The same line after lines of the same kind that were fine: the keys learnt from
    // them do not let it through.
    let kind = text.split(separator: " ").first { !$0.hasPrefix("+") }!
    let before = ["added text=a", "renamed title=b", "cleared", "moved 0 0", "cleared"]
      .filter { $0.hasPrefix(kind) }
    #expect(throws: ScenarioError(line: 1, column: column, message)) { try parse(text) }
    #expect(throws: ScenarioError(line: before.count + 1, column: column, message)) {
      try parse((before + [text]).joined(separator: "\n"))
    }
  }

  @Test("a key given as null is let through: a domain may leave a nil field out of its JSON")
  func nullKeys() throws {
    #expect(
      try parse("renamed title=null other=null").events.map(\.event) == [.renamed(title: nil)])
  }

  @Test("expect lines: a condition, changed, rejected or unchanged after the event before")
  func expectations() throws {
    let scenario = try parse(
      """
      expect items == []
      added text=milk
      expect changed(items) && items contains milk   # a comment
      +1s checked index=5
      expect rejected
      renamed title=null
      expect unchanged
      """)
    #expect(scenario.events.count == 3)
    #expect(scenario.expectations.map(\.afterEvents) == [0, 1, 2, 3])
    #expect(scenario.expectations.map(\.line) == [1, 3, 5, 7])
    #expect(
      scenario.expectations.map(\.description) == [
        "items == []", #"changed(items) && items contains "milk""#, "rejected", "unchanged",
      ])
    #expect(
      throws: ScenarioError(
        line: 2, column: 8,
        "'nope' is not a state field; the fields are title, items, checked, mode (and event, outcome, reason name the event). Did you mean 'mode'?"
      )
    ) {
      try parse("added text=a\nexpect nope == 1")
    }
  }

  @Test("a domain's settings that do not fit are named on their line")
  func badSettings() {
    #expect(
      throws: ScenarioError(
        line: 2, column: 11,
        "the settings are not valid: start: expected an integer, found a string")
    ) {
      try StandardTally.parseScenario("# x\nsettings: {\"start\": \"a\"}\nreset", directory: "/")
    }
  }

  @Test("what describe writes, a script reads back as the same event")
  func describeRoundTrip() throws {
    let domain = try Notes.sample
    let events: [Notes.Event] = [
      .added(text: "milk"), .added(text: "two words"), .added(text: "true"), .added(text: "a=b"),
      .added(text: "#hash"), .added(text: "tab\there"), .added(text: "[x]"), .renamed(title: nil),
      .renamed(title: "ok"), .moved(-1, 3), .checked(index: 0), .cleared,
    ]
    let script = events.map(domain.describe).joined(separator: "\n")
    #expect(try parse(script).events.map(\.event) == events)
  }
}

/// Tallies from scripts: the default `sample` would be built from `{}`, which lacks the
/// tally's `start`, so the tally gives its own.
extension Tally: RecordableDomain {
  static var sample: Tally { Tally() }
}

/// A note with a text and an optional tag: a line giving the tag alone lacks the text.
private struct Tagged: RecordableDomain, Codable {
  enum Event: Codable, Equatable, Sendable { case noted(text: String, tag: String?) }
  static let identifier = "tagged"
  static let schemaVersion: UInt32 = 1
  var initialState: Int { 0 }

  func reduce(_ state: inout Int, _ event: Event) -> Outcome<DomainRejection> {
    state += 1
    return .applied
  }
}

@Suite("Event scripts: a missing key and the keys given")
struct MissingKeyTests {
  /// An optional key given alone is no misspelling of the missing one: the missing key is
  /// said, at the line's start (it was said as an unknown key, among the event's keys).
  @Test func anOptionalKeyGivenAloneIsNoMisspelling() {
    #expect {
      try EventScript.parse("noted tag=x", as: Tagged.self)
    } throws: { error in
      let error = error as! ScenarioError
      return error.column == 1 && error.message.hasPrefix(#"noted: missing "text""#)
    }
    #expect(
      throws: ScenarioError(
        line: 1, column: 7,
        #"unknown key "words" in the event "noted" (did you mean "text"?); its keys are text, tag"#)
    ) { try EventScript.parse("noted words=x", as: Tagged.self) }
  }
}
