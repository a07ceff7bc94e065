import Foundation
import TestSupport
import Testing

/// Input of any length quoted in an error is shortened: its first 60 characters, `…` and
/// its length. A megabyte key in `rewind import` made a megabyte error line; each case
/// here printed the whole input before.
@Suite("Errors quote long input shortened")
struct LongInputMessageTests {
  let journal = sample("day-menu.journal")

  /// The first line of stderr, which holds the error, checked to be short and to hold
  /// the shortened quote.
  func expectShortened(
    _ result: ProcessResult, _ quoted: String, status: Int32,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(result.status == status, "\(result.stderr.prefix(500))", sourceLocation: sourceLocation)
    let line = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
    #expect(line.utf8.count < 700, "\(line.prefix(500))", sourceLocation: sourceLocation)
    #expect(result.stderr.utf8.count < 1_500, sourceLocation: sourceLocation)
    #expect(line.contains(quoted), "\(line.prefix(500))", sourceLocation: sourceLocation)
  }

  @Test("import: a huge unknown key, duplicate key, event kind and number")
  func importLines() throws {
    let directory = TemporaryDirectory()
    let key = String(repeating: "a", count: 1_048_576)
    let shortKey = String(repeating: "a", count: 60)
    let cases: [(String, String)] = [
      (
        "{\"seq\":1,\"time_us\":0,\"event\":\"backTapped\",\"\(key)\":1}",
        "unknown key \"\(shortKey)…\" (1,048,576 characters) in the event \"backTapped\""
      ),
      (
        "{\"seq\":1,\"time_us\":0,\"event\":\"backTapped\",\"\(key)\":1,\"\(key)\":2}",
        "duplicate key \"\(shortKey)…\" (1,048,576 characters)"
      ),
      (
        "{\"seq\":1,\"time_us\":0,\"event\":\"\(key)\"}",
        "unknown event kind \"\(shortKey)…\" (1,048,576 characters); the kinds are"
      ),
      (
        "{\"seq\":\(String(repeating: "9", count: 100_000)),\"time_us\":0,\"event\":\"backTapped\"}",
        "number \(String(repeating: "9", count: 60))… (100,000 characters) is out of range"
      ),
    ]
    for (index, (line, quoted)) in cases.enumerated() {
      let input = directory.file("events\(index).jsonl")
      write(Array((line + "\n").utf8), to: input)
      let result = try rewind("import", input, "-o", directory.file("out\(index).journal"))
      expectShortened(result, quoted, status: 1)
    }
  }

  @Test("record: a huge tab label, category name and interaction")
  func scenarioNames() throws {
    let directory = TemporaryDirectory()
    let name = String(repeating: "b", count: 100_000)
    let shown = "'\(String(repeating: "b", count: 60))…' (100,000 characters)"
    let cases = [
      ("tap \(name)", "no tab is labelled \(shown); the tabs are"),
      ("select category \(name)", "nothing in the catalog is called \(shown); write its id"),
      ("\(name) now", "found \(shown)"),
    ]
    for (index, (line, quoted)) in cases.enumerated() {
      let script = directory.file("s\(index).scenario")
      write(Array("layout three-column\n\(line)\n".utf8), to: script)
      let result = try rewind("record", script, "-o", directory.file("s\(index).journal"))
      expectShortened(result, quoted, status: 1)
    }
  }

  @Test("state --insert, a point, a condition, a blame path and an option, each huge")
  func arguments() throws {
    let word = String(repeating: "c", count: 100_000)
    let start = String(repeating: "c", count: 60)
    let event = "1:{\"event\":\"\(word)\"}"
    let inserted = try rewind("state", journal, "--insert", event)
    expectShortened(
      inserted,
      "The value '\(String(event.prefix(60)))…' (100,014 characters) is invalid for '--insert <seq:event>': unknown event kind \"\(start)…\" (100,000 characters)",
      status: 64)
    expectShortened(
      try rewind("state", journal, "--at", word),
      "The value '\(start)…' (100,000 characters) is invalid for '--at <point>'", status: 64)
    expectShortened(
      try rewind("find", journal, "--where", "menu.selectedIndex == \(word)"),
      "holds an integer, not a string", status: 64)
    expectShortened(
      try rewind("blame", journal, word),
      "'\(start)…' (100,000 characters) is not a state field", status: 64)
    expectShortened(
      try rewind("log", journal, "--" + word),
      "Unknown option '--\(String(repeating: "c", count: 58))…' (100,002 characters)", status: 64)
  }

  @Test("input of up to 80 characters is quoted whole")
  func shortInput() throws {
    let label = String(repeating: "d", count: 80)
    let directory = TemporaryDirectory()
    let script = directory.file("s.scenario")
    write(Array("layout three-column\ntap \(label)\n".utf8), to: script)
    let result = try rewind("record", script, "-o", directory.file("s.journal"))
    #expect(result.status == 1)
    #expect(
      result.stderr.contains("no tab is labelled '\(label)'; the tabs are"), "\(result.stderr)")
  }
}
