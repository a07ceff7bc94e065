import Navigation
import Testing

@testable import RewindCore

/// The condition language: how it parses (precedence, every operator, errors at their
/// columns), how it is checked against a domain, and what it evaluates to.
@Suite("The condition language")
struct ConditionLanguageTests {
  let navigation = NavigationDomain()

  func parsed(_ text: String) throws -> Condition { try Condition(parsing: text) }

  func parseError(_ text: String) -> ConditionError? {
    do {
      _ = try WrittenCondition(parsing: text)
      return nil
    } catch {
      return error
    }
  }

  func checkError(_ text: String) -> ConditionError? {
    do {
      _ = try ConditionEvaluator(WrittenCondition(parsing: text), in: navigation)
      return nil
    } catch {
      return error
    }
  }

  @Test("! binds tightest, then &&, then ||; parentheses group; && and || go left to right")
  func precedence() throws {
    let a = Condition.equals(path: "a", value: 1)
    let b = Condition.equals(path: "b", value: 2)
    let c = Condition.equals(path: "c", value: 3)
    #expect(try parsed("a == 1 || b == 2 && !c == 3") == .or(a, .and(b, .not(c))))
    #expect(try parsed("a == 1 && b == 2 || c == 3") == .or(.and(a, b), c))
    #expect(try parsed("(a == 1 || b == 2) && c == 3") == .and(.or(a, b), c))
    #expect(try parsed("a == 1 && b == 2 && c == 3") == .and(.and(a, b), c))
    #expect(try parsed("a == 1 && (b == 2 && c == 3)") == .and(a, .and(b, c)))
    #expect(try parsed("!!(a == 1)") == .not(.not(a)))
    #expect(try parsed("!(a == 1 || b == 2)") == .not(.or(a, b)))
    #expect(try parsed("((a==1))&&b==2") == .and(a, b))
  }

  @Test(
    "every operator, and values that end at a parenthesis or &&",
    arguments: [
      ("n < 3", Condition.less(path: "n", value: 3)),
      ("n <= -1.5", .lessOrEqual(path: "n", value: -1.5)),
      ("n > 0", .greater(path: "n", value: 0)),
      ("n >= 2", .greaterOrEqual(path: "n", value: 2)),
      ("list contains a/b", .contains(path: "list", value: "a/b")),
      ("list contains \"two words\"", .contains(path: "list", value: "two words")),
      ("list contains [1, 2]", .contains(path: "list", value: [1, 2])),
      ("(s == x)", .equals(path: "s", value: "x")),
      ("s == x&&t != y", .and(.equals(path: "s", value: "x"), .notEquals(path: "t", value: "y"))),
      ("changed(a.b)||s == [\")\"]", .or(.changed(path: "a.b"), .equals(path: "s", value: [")"]))),
      ("event == categorySelected", .equals(path: "event", value: "categorySelected")),
      ("contains contains x", .contains(path: "contains", value: "x")),
      ("changed == 1", .equals(path: "changed", value: 1)),
    ])
  func operators(text: String, expected: Condition) throws {
    #expect(try parsed(text) == expected)
  }

  @Test(
    "a field path alone is the field being true: split.overlay is split.overlay == true, wherever a condition may stand"
  )
  func pathAlone() throws {
    let overlay = Condition.equals(path: "split.overlay", value: true)
    let one = Condition.equals(path: "n", value: 1)
    #expect(try parsed("split.overlay") == overlay)
    #expect(try parsed("  split.overlay  ") == overlay)
    #expect(try parsed("!split.overlay") == .not(overlay))
    #expect(try parsed("! split.overlay") == .not(overlay))
    #expect(try parsed("(split.overlay)") == overlay)
    #expect(try parsed("split.overlay&&n == 1") == .and(overlay, one))
    #expect(try parsed("n == 1 || !split.overlay") == .or(one, .not(overlay)))
    #expect(try parsed("!(split.overlay || n == 1)") == .not(.or(overlay, one)))
    // Placed at the path's column, so that the check can refuse one that is no boolean
    // there (ConditionCheckTests).
    let written = try WrittenCondition(parsing: "n == 1 && !split.overlay")
    #expect(written.places.map(\.path) == [1, 12])
    #expect(written.places.map(\.value) == [6, 12])
    // It prints as what it means, which parses back.
    #expect(try parsed("!split.overlay").description == "!(split.overlay == true)")
    // A path followed by anything else still needs its operator.
    #expect(
      parseError("split.overlay true")?.message
        == "expected ==, !=, <, <=, >, >= or contains after the field path, found 'true'")
  }

  @Test(
    "a condition prints as it parses back, with parentheses only where they are needed",
    arguments: [
      ("a == 1 || b == 2 && !c == 3", "a == 1 || b == 2 && !(c == 3)"),
      ("(a == 1 || b == 2) && c == 3", "(a == 1 || b == 2) && c == 3"),
      ("a == 1 && (b == 2 && c == 3)", "a == 1 && (b == 2 && c == 3)"),
      ("a == 1 || (b == 2 || c == 3)", "a == 1 || (b == 2 || c == 3)"),
      ("!(a == 1 && changed(b))", "!(a == 1 && changed(b))"),
      ("!changed(b)", "!changed(b)"),
      ("s contains x", "s contains \"x\""),
      ("n>=2", "n >= 2"),
    ])
  func printing(text: String, printed: String) throws {
    let condition = try parsed(text)
    #expect(condition.description == printed)
    #expect(try parsed(printed) == condition)
  }

  @Test(
    "malformed conditions say what was expected, at the column",
    arguments: [
      ("a == 1 &&", 10, "expected a condition (a field path, changed(…), ! or '('), found the end"),
      ("&& a == 1", 1, "expected a condition before '&&'"),
      ("(a == 1", 8, "expected ')' to close the '(' at column 1, found the end"),
      ("a == 1)", 7, "')' has no matching '('"),
      (
        "a == 1 and b == 2", 8,
        "expected &&, || or the end of the condition after the value, found 'and' (quote a value with spaces)"
      ),
      (
        "a = 1", 3,
        "expected ==, !=, <, <=, >, >= or contains after the field path: a single = does not compare; write =="
      ),
      (
        "a === 1", 3,
        "expected ==, !=, <, <=, >, >= or contains after the field path: === is not an operator; write =="
      ),
      (
        "a !== b", 3,
        "expected ==, !=, <, <=, >, >= or contains after the field path: !== is not an operator; write !="
      ),
      // Other languages' operators, and blame's element of a field (walk of the query
      // commands, WQ-7).
      (
        "a=>1", 2,
        "expected ==, !=, <, <=, >, >= or contains after the field path: => is not an operator; write >="
      ),
      (
        "a =< 1", 3,
        "expected ==, !=, <, <=, >, >= or contains after the field path: =< is not an operator; write <="
      ),
      (
        "a <> 1", 3,
        "expected ==, !=, <, <=, >, >= or contains after the field path: <> is not an operator; write !="
      ),
      (
        "s.e[x]", 4,
        "a condition tests an element of a field with contains: s.e contains ELEMENT (PATH[ELEMENT] is blame's)"
      ),
      (
        "changed(s.e[x])", 12,
        "changed(…) takes a whole field, changed(s.e); an element is tested with contains (s.e contains ELEMENT)"
      ),
      ("a < x", 5, "'<' compares numbers: \"x\" is not a number"),
      ("a >= null", 6, "'>=' compares numbers: null is not a number"),
      ("a contains", 11, "expected a value after contains"),
      (
        "a containsx", 3,
        "expected ==, !=, <, <=, >, >= or contains after the field path, found 'containsx'"
      ),
      ("a == (b)", 6, "expected a value after ==, found '(b)'"),
      (
        "changed(a) x", 12,
        "expected &&, || or the end of the condition after changed(…), found 'x'"
      ),
      ("a == [1, 2", 11, "not a JSON value"),
      ("!", 2, "expected a condition (a field path, changed(…), ! or '('), found the end"),
    ])
  func malformed(text: String, column: Int, message: String) {
    let error = parseError(text)
    #expect(error?.column == column, "\(text)")
    #expect(error?.message.hasPrefix(message) == true, "\(text): \(error?.message ?? "no error")")
  }

  @Test(
    "a value in single quotes is refused at the quote, saying how to write it: in double quotes, or bare when it reads bare as the same text",
    arguments: [
      (
        "split.selectedItem == 'espresso-machines/strada/strada-mp'", 23,
        #"single quotes do not quote a value: write "espresso-machines/strada/strada-mp" (in double quotes) or espresso-machines/strada/strada-mp (a bare word)"#
      ),
      (
        "reason == 'not allowed' && s == x", 11,
        #"single quotes do not quote a value: write "not allowed" (in double quotes)"#
      ),
      ("(n == '3')", 7, #"single quotes do not quote a value: write "3" (in double quotes)"#),
      ("s == ''", 6, #"single quotes do not quote a value: write "" (in double quotes)"#),
      (
        #"s == 'say "hi"'"#, 6,
        #"single quotes do not quote a value: write "say \"hi\"" (in double quotes)"#
      ),
      (
        "s != 'a(b)'", 6,
        #"single quotes do not quote a value: write "a(b)" (in double quotes)"#
      ),
    ])
  func singleQuotes(text: String, column: Int, message: String) throws {
    let error = try #require(parseError(text), "\(text)")
    #expect(error.column == column, "\(text)")
    #expect(error.message == message, "\(text)")
    #expect(error.suggestion == nil)
  }

  /// A value that only starts with a single quote, with no other ending it, is a bare
  /// word, as it always was: an id or a text may start with one.
  @Test(
    "a single quote inside a bare value, at its start alone, or in a JSON string is the text's own")
  func singleQuotesInValues() throws {
    #expect(try parsed("s == o'brien") == .equals(path: "s", value: "o'brien"))
    #expect(try parsed("s == '90s-mix") == .equals(path: "s", value: "'90s-mix"))
    #expect(try parsed("s == 'it's") == .equals(path: "s", value: "'it's"))
    #expect(
      try parsed("s == 'leva && t == 1")
        == .and(.equals(path: "s", value: "'leva"), .equals(path: "t", value: 1)))
    #expect(try parsed(#"s == "'leva'""#) == .equals(path: "s", value: "'leva'"))
    #expect(
      try parsed("s == x' && t == 1")
        == .and(.equals(path: "s", value: "x'"), .equals(path: "t", value: 1)))
  }

  @Test(
    "a mark that joins the character after it (U+0605, a prepend mark) does not hide a quote, an operator or a parenthesis",
    arguments: [
      "j == 8e8sx8S\u{0605}", "j == \"a\u{0605}\"", "j == \"\u{0605}\" && k == 1",
      "j == x\u{0605}&&k == 1", "(j == x\u{0605})", "j == \"\u{0301}\"",
      "j == \"e\u{0301}\" || k contains \"\u{0600}\"",
    ])
  func joiningMarks(text: String) throws {
    let condition = try parsed(text)
    #expect(
      try parsed(condition.description) == condition, "\(condition.description.debugDescription)")
  }

  @Test("columns count characters as they are seen, however many scalars each has")
  func columnsCountCharacters() {
    // "é" written as e and a combining accent is one character, two scalars.
    #expect(parseError("e\u{0301}x == 1 &&")?.column == 11)
    #expect(parseError("e\u{0301}x == 1 &&") == parseError("\u{00E9}x == 1 &&"))
    #expect(parseError("a == \"\u{0605}\" x")?.column == 9)
    #expect(parseError("a == \"e\u{0301}\" x")?.column == 10)
    #expect(parseError("a == [\"e\u{0301}\", x]")?.column == 12)
    #expect(parseError("a == x\u{0605}\"")?.column == 7)
  }

  @Test("deep nesting and very long conditions are errors, not crashes")
  func limits() throws {
    let deep = String(repeating: "(", count: 100) + "a == 1" + String(repeating: ")", count: 100)
    #expect(parseError(deep)?.message.contains("nests more than 64 levels") == true)
    let nots = String(repeating: "!", count: 10_000) + "a == 1"
    #expect(parseError(nots)?.message.contains("nests more than 64 levels") == true)
    let long = Array(repeating: "a == 1", count: 300).joined(separator: " && ")
    #expect(parseError(long)?.message.contains("more than 256 comparisons") == true)
    let fine = String(repeating: "(", count: 60) + "a == 1" + String(repeating: ")", count: 60)
    #expect(try parsed(fine) == .equals(path: "a", value: 1))
  }

  @Test(
    "a condition nested to the limit parses again once printed: `!(…)` is one level, as the printer writes `!` of a comparison"
  )
  func nestingLimitRoundTrip() throws {
    // The fuzzer's find: 64 `!` before a comparison printed with parentheses around it.
    let max = WrittenCondition.maximumNesting
    for (text, levels) in [
      (String(repeating: "!", count: max) + "a != 1", max),
      (String(repeating: "!", count: max - 1) + "!(a == 1 || b == 2)", max),
      (String(repeating: "!(", count: max) + "a == 1" + String(repeating: ")", count: max), max),
      (
        String(repeating: "!", count: max / 2) + String(repeating: "(", count: max / 2) + "a == 1"
          + String(repeating: ")", count: max / 2), max
      ),
    ] {
      let condition = try parsed(text)
      var depth = 0
      var inner = condition
      while case .not(let next) = inner {
        depth += 1
        inner = next
      }
      #expect(depth == levels || depth == max / 2, "\(text)")
      #expect(try parsed(condition.description) == condition, "\(condition)")
    }
    // One more level is refused, however it is written.
    for text in [
      String(repeating: "!", count: max + 1) + "a != 1",
      String(repeating: "!(", count: max + 1) + "a == 1" + String(repeating: ")", count: max + 1),
      "!!" + String(repeating: "(", count: max) + "a == 1" + String(repeating: ")", count: max),
    ] {
      #expect(parseError(text)?.message.contains("nests more than 64 levels") == true, "\(text)")
    }
  }

  @Test("every comparison of a compound condition is checked, at its own column")
  func checking() {
    let enumValue = checkError("split.overlay == true && split.style == Balanced")
    #expect(enumValue?.column == 41)
    #expect(enumValue?.word == "Balanced")
    #expect(enumValue?.choices == ["automatic", "balanced", "prominentDetail"])

    let path = checkError("menu.selectedIndex > 2 || !(split.stlye == balanced)")
    #expect(path?.column == 29)
    #expect(path?.word == "split.stlye")
    #expect(path?.choices.contains("split.style") == true)

    let kind = checkError("event == categorySelectd")
    #expect(kind?.column == 10)
    #expect(kind?.word == "categorySelectd")
    #expect(kind?.choices == NavigationDomain.eventKinds)

    let outcome = checkError("outcome == refused")
    #expect(
      outcome?.message == "'refused' is not an outcome; they are applied, unchanged, rejected")
    #expect(outcome?.column == 12)

    #expect(
      checkError("split.style < 3")?.message.hasPrefix(
        "'<' compares numbers, and split.style holds one of") == true)
    #expect(checkError("split.style < 3")?.column == 1)
    #expect(
      checkError("menu.selectedIndex contains 3")?.message
        == "contains looks into a list or a string, and menu.selectedIndex holds an integer")
    let element = checkError("split.expanded contains Leva")
    #expect(element?.column == 25)
    #expect(element?.suggestion == "espresso-machines/leva")
    #expect(
      checkError("split.visibleColumns contains side")?.choices == ["sidebar", "content", "detail"])
    #expect(checkError("split.selectedItem contains 3")?.column == 29)
    #expect(
      checkError("changed(event)")?.message
        == "changed(…) takes a state field; 'event' names the event")
    #expect(checkError("outcome contains app")?.column == 1)
    #expect(checkError("reason < 2")?.column == 1)
    #expect(
      checkError("event == 3")?.message == "event is the event's kind, a string, not a number (3)")

    for fitting in [
      "reason == null", "reason contains category", "event contains Selected",
      "split.selectedItem contains leva", "menu.scrollOffset >= 12.5",
      "split.selectedCategory != null && !(outcome == rejected) || changed(split.style)",
    ] {
      #expect(checkError(fitting) == nil, "\(fitting)")
    }
  }

  /// The states after `events`, each with the event's outcome, from the initial state.
  func steps(_ events: [NavigationEvent]) -> [(
    ReplayedEvent<NavigationDomain>, NavigationState, NavigationState
  )] {
    var state = navigation.initialState
    return events.enumerated().map { index, event in
      let before = state
      let outcome = navigation.reduce(&state, event)
      let replayed = ReplayedEvent<NavigationDomain>(
        sequence: UInt64(index + 1), time: 0, event: event, outcome: outcome,
        recorded: RecordedEffect(kind: .applied, changed: []))
      return (replayed, before, state)
    }
  }

  func holds(
    _ text: String, after step: (ReplayedEvent<NavigationDomain>, NavigationState, NavigationState)
  ) throws -> Bool {
    try ConditionEvaluator(Condition(parsing: text), in: navigation).holds(
      after: step.0, previous: step.1, state: step.2)
  }

  @Test("evaluation: comparisons of fields and of the event, combined")
  func evaluation() throws {
    let steps = steps([
      .categorySelected(navigation.ref("espresso-machines")),
      .itemExpanded(navigation.ref("espresso-machines/leva")),
      .menuTabTapped(index: 3),
      .itemSelected(navigation.ref("espresso-machines/leva")),
      .itemSelected(navigation.ref("espresso-machines/leva")),
      .itemSelected(navigation.ref("grinders")),
    ])
    let (category, expanded, tab, selected, again, wrong) =
      (steps[0], steps[1], steps[2], steps[3], steps[4], steps[5])
    #expect(try holds("split.selectedCategory == espresso-machines", after: category))
    #expect(try holds("event == categorySelected && outcome == applied", after: category))
    #expect(try !holds("event == categorySelected", after: expanded))
    #expect(try holds("split.expanded contains espresso-machines/leva", after: expanded))
    #expect(try !holds("split.expanded contains espresso-machines/leva", after: category))
    #expect(try holds("split.selectedCategory contains machines", after: expanded))
    #expect(try holds("menu.selectedIndex >= 3 && menu.selectedIndex < 4", after: tab))
    #expect(try !holds("menu.selectedIndex > 3 || menu.selectedIndex <= 2", after: tab))
    #expect(try holds("changed(menu.selectedIndex)", after: tab))
    #expect(try !holds("changed(menu.selectedIndex)", after: selected))
    #expect(try holds("changed(split.selectedItem) && !changed(split.expanded)", after: selected))
    #expect(try holds("outcome == unchanged", after: again))
    #expect(try !holds("changed(split.selectedItem)", after: again))
    #expect(try holds("outcome == rejected && reason != null", after: wrong))
    #expect(try holds("reason == null", after: again))
    #expect(try holds("event contains Selected && !(outcome == applied)", after: wrong))
    guard case .rejected(let rejection)? = wrong.0.outcome else {
      Issue.record("selecting a category as an item is rejected")
      return
    }
    let word = try #require("\(rejection)".split(separator: " ").last.map(String.init))
    #expect(try holds("reason contains \"\(word)\"", after: wrong))
    #expect(try !holds("reason contains \"\(word)\"", after: again))
    // A value that is not a number does not compare; integers compare exactly.
    #expect(!ValueTest.less(3).holds(.null))
    #expect(!ValueTest.greaterOrEqual(3).holds("4"))
    #expect(ValueTest.less(.int(Int64.max)).holds(.int(Int64.max - 1)))
    #expect(ValueTest.lessOrEqual(2.5).holds(2))
    #expect(ValueTest.contains("a").holds(["b", "a"]))
    #expect(!ValueTest.contains("a").holds(["ab"]))
    #expect(ValueTest.contains("a").holds("cab"))
  }

  @Test("at the initial state there is no event: nothing changed, the event's words are null")
  func initialState() throws {
    let state = navigation.initialState
    func holds(_ text: String) throws -> Bool {
      try ConditionEvaluator(Condition(parsing: text), in: navigation).holds(
        after: nil, previous: nil, state: state)
    }
    #expect(try !holds("changed(split.style)"))
    #expect(try holds("!changed(split.style)"))
    #expect(try !holds("event == categorySelected"))
    #expect(try holds("event != categorySelected"))
    #expect(try holds("reason == null && split.selectedItem == null"))
    #expect(
      try ConditionEvaluator(Condition(parsing: "outcome == rejected"), in: navigation)
        .isAboutEvents)
    #expect(
      try !ConditionEvaluator(Condition(parsing: "menu.selectedIndex == 0"), in: navigation)
        .isAboutEvents)
  }
}
