import Navigation
import RewindCore
import TestSupport
import Testing

@testable import RewindCLI

/// `log --json`'s line written as bytes (`logJSONLine`) against the line it printed before,
/// the compact text of a `JSONValue` built from the event's JSON (`logJSONValue`).
@Suite("log --json's line, written as bytes")
struct LogJSONLineTests {
  @Test("every event of a random session, each outcome, with and without changes")
  func linesMatchTheirValues() {
    let seed = testSeed("LogJSONLineTests.linesMatchTheirValues")
    var random = SplitMix64(seed: seed)
    let domain = NavigationDomain.sample
    var generator = RandomEventGenerator(seed: random.next(), domain: domain)
    var state = domain.initialState
    let texts: [JSONValue] = [
      "plain", "with \"quotes\" and \\", "a\u{1B}[31mcontrol", "bidi \u{202E}x", "é → ü", "",
      .null, 3, -0.5, 1e300, true, .array([1, "two"]), .object([("k", "v\n")]),
    ]
    var lines = 0
    for index in 0..<5_000 {
      let event =
        index % 97 == 0
        ? NavigationEvent.menuTabTapped(index: 99)
        : generator.next()
      let outcome = domain.reduce(&state, event)
      var changes: [LoggedChange]?
      if random.next() % 2 == 0 {
        changes = (0..<Int(random.next() % 4)).map { _ in
          LoggedChange(
            path: random.next() % 5 == 0
              ? "odd\u{0}path"
              : domain.fields[Int(random.next() % UInt64(domain.fields.count))].path,
            old: random.next() % 3 == 0 ? nil : texts[Int(random.next() % UInt64(texts.count))],
            new: texts[Int(random.next() % UInt64(texts.count))])
        }
      }
      let sequence = UInt64(index + 1)
      let time = random.next() >> (1 + random.next() % 63)
      let line = logJSONLine(
        sequence: sequence, time: time, event: event, outcome: outcome, changes: changes,
        in: domain)
      let expected = logJSONValue(
        sequence: sequence, time: time, event: event, outcome: outcome, changes: changes,
        in: domain
      ).compactText
      #expect(line == expected, "seed \(seed), event \(index)")
      lines += 1
    }
    #expect(lines == 5_000)
  }

  @Test("a rejection's reason is escaped as the value's text escapes it")
  func rejectedReason() {
    let domain = NavigationDomain.sample
    var state = domain.initialState
    let event = NavigationEvent.menuTabTapped(index: 99)
    let outcome = domain.reduce(&state, event)
    #expect(outcome.isRejected)
    let line = logJSONLine(
      sequence: 1, time: 0, event: event, outcome: outcome, changes: [], in: domain)
    #expect(
      line
        == logJSONValue(
          sequence: 1, time: 0, event: event, outcome: outcome, changes: [], in: domain
        ).compactText)
    #expect(line.contains("\"outcome\":\"rejected\",\"reason\":"))
  }
}
