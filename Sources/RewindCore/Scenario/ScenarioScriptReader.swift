/// What a line of a scenario script gives: an event at its time, or an `expect` line.
public enum ScenarioScriptLine<Event: Sendable>: Sendable {
  case event(TimedEvent<Event>)
  case expectation(ScenarioExpectation)
}

/// A domain's scenario scripts read a few lines at a time, as
/// ``RecordableDomain/parseScenario(_:directory:)`` reads a whole one: for a script too
/// long to hold, which `rewind record` records and `rewind export --scenario` reads back
/// as it writes it.
///
/// ```swift
/// var reader = D.scenarioReader(directory: ".")
/// try reader.read(text[..<endOfSomeLine]) { line in … }
/// try reader.read(text[endOfSomeLine...]) { line in … }
/// let session = try reader.session()
/// ```
public protocol ScenarioScriptReader<Domain> {
  associatedtype Domain: RecordableDomain

  /// Reads the lines of `text`, which follow those read before, and hands each event and
  /// `expect` line they give to `visit`, in order.
  ///
  /// - Parameters:
  ///   - text: whole lines: it ends after a line break, or where the script ends (a line
  ///     break, `\n`, is never a line's last character, and a cut after one is one
  ///     ``RecordableDomain/parseScenario(_:directory:)`` makes too). A byte-order mark
  ///     is skipped at the script's start.
  ///   - visit: called with what each line gives.
  /// - Throws: ``ScenarioError`` with the line (counted from the script's first) and
  ///   column of the first problem.
  mutating func read(_ text: Substring, _ visit: (ScenarioScriptLine<Domain.Event>) -> Void)
    throws(ScenarioError)

  /// The session the lines read so far set up, with neither events nor expectations: its
  /// domain (made from its settings), device, start and the files it read.
  ///
  /// A script's settings come before its first event or `expect` line: once ``read(_:_:)``
  /// has handed one on, this is the script's session, which `rewind record` starts its
  /// journal with before it reads on.
  /// - Throws: ``ScenarioError`` when the settings make no domain.
  func session() throws(ScenarioError) -> Scenario<Domain>
}

extension ScenarioScriptReader {
  /// Reads a whole script: the session with its events and expectations.
  /// - Throws: ``ScenarioError`` with the line and column of the first problem.
  /// - Complexity: O(length of the text).
  public mutating func readAll(_ text: String) throws(ScenarioError) -> Scenario<Domain> {
    var events: [TimedEvent<Domain.Event>] = []
    var expectations: [ScenarioExpectation] = []
    try read(Substring(text)) { line in
      switch line {
      case .event(let event): events.append(event)
      case .expectation(let expectation): expectations.append(expectation)
      }
    }
    var scenario = try session()
    scenario.events = events
    scenario.expectations = expectations
    return scenario
  }
}

/// The lines of `text` for a ``ScenarioScriptReader``: cut at each character `isBreak`
/// says is a line break, the byte-order mark skipped at the script's start (`first`),
/// and the empty piece after a last line break left out (the next text goes on from
/// there).
///
/// ASCII text, most scripts, is cut byte by byte: at `\r\n` (one character, a break in
/// every script language) and at each byte `isBreak` says is one; other text character
/// by character.
/// - Complexity: O(length of the text).
package func scriptLines(
  _ text: Substring, first: Bool, isBreak: (Character) -> Bool
) -> [Substring] {
  var text = text
  if first, text.first == "\u{FEFF}" { text = text.dropFirst() }
  var lines: [Substring] = []
  let ascii: Bool? = text.utf8.withContiguousStorageIfAvailable { bytes in
    // Whether each control character breaks a line, asked once.
    var breaking: [Bool?] = Array(repeating: nil, count: 0x20)
    let utf8 = text.utf8
    var start = 0
    var index = 0
    func cut(_ end: Int, next: Int) {
      let from = utf8.index(utf8.startIndex, offsetBy: start)
      lines.append(text[from..<utf8.index(from, offsetBy: end - start)])
      start = next
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte >= 0x80 { return false }
      if byte >= 0x20 {
        index += 1
      } else if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
        cut(index, next: index + 2)
        index += 2
      } else {
        let breaks = breaking[Int(byte)] ?? isBreak(Character(Unicode.Scalar(byte)))
        breaking[Int(byte)] = breaks
        if breaks { cut(index, next: index + 1) }
        index += 1
      }
    }
    if start < bytes.count { cut(bytes.count, next: bytes.count) }
    return true
  }
  if ascii == true { return lines }
  lines = text.split(omittingEmptySubsequences: false, whereSeparator: isBreak)
  if lines.last?.isEmpty == true { lines.removeLast() }
  return lines
}
