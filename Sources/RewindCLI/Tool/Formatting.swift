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

  /// Prints the object of the members `head`, then `key`, an array of the elements
  /// `elements` hands out, then the members `tail` gives once they are out: the bytes
  /// ``printJSON(_:)`` prints for that object, written an element at a time (a long list,
  /// held whole with its text, took gigabytes).
  func printJSON(
    _ head: [(String, JSONValue)], streaming key: String,
    _ elements: ((JSONValue) -> Void) throws -> Void, tail: () -> [(String, JSONValue)]
  ) rethrows {
    write(
      (head.isEmpty ? "{" : String(JSONValue.object(head).prettyText.dropLast(2)) + ",")
        + "\n  \(JSONValue.string(key).compactText): [")
    var count = 0
    try elements { element in
      write((count == 0 ? "\n    " : ",\n    ") + element.prettyText(level: 2))
      count += 1
    }
    write(count == 0 ? "]" : "\n  ]")
    for (name, value) in tail() {
      write(",\n  \(JSONValue.string(name).compactText): " + value.prettyText(level: 1))
    }
    print("\n}")
  }
}
