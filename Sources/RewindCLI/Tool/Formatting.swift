import RewindCore
import RewindJournal

extension Outcome {
  /// `applied`, `unchanged`, `rejected: reason`, as shown (the reason escaped).
  var summary: String {
    switch self {
    case .applied: "applied"
    case .unchanged: "unchanged"
    case .rejected(let reason): "rejected: \(TerminalText.escaped("\(reason)"))"
    }
  }
}

extension Domain {
  /// The event's one-line description (``Domain/describe(_:)``) as it is shown: the text
  /// of ids and labels in it comes from the journal, so its control characters are
  /// escaped (see ``TerminalText/escaped(_:keepingNewlines:)``).
  func shownDescription(_ event: Event) -> String {
    TerminalText.escaped(describe(event))
  }

  /// The state drawn as text (``Domain/render(_:)``) as it is shown: its lines are the
  /// domain's, every other control character is escaped.
  func shownRendering(_ state: State) -> String {
    TerminalText.escaped(render(state), keepingNewlines: true)
  }
}

extension Output {
  /// Prints a JSON document, indented.
  func printJSON(_ value: JSONValue) {
    print(value.prettyText)
  }
}
