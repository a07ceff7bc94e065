import RewindSpelling

/// A condition on a point of a session, for `find`, `shrink`, `log --where`, the
/// terminal player's `/` and the HTML page: comparisons of the state's fields and of the
/// event that led there, combined with `&&`, `||`, `!` and parentheses.
///
/// ```text
/// split.selectedItem == espresso-machines/leva
/// menu.selectedIndex >= 3 && split.overlay == true
/// split.expanded contains espresso-machines/leva
/// changed(split.columnVisibility) || !(split.style == automatic)
/// event == categorySelected && outcome == rejected
/// reason contains "category"
/// ```
///
/// - `PATH == VALUE`, `PATH != VALUE` compare any value; `<`, `<=`, `>`, `>=` compare
///   numbers (a field that holds no number there does not compare); `PATH contains
///   VALUE` holds when an array field has the value as an element, or a string holds it
///   as a part.
/// - `changed(PATH)` holds after an event that changed the field.
/// - `PATH` alone, for a boolean field, is `PATH == true` (`!split.overlay` its negation);
///   the check refuses any other field alone, and `true` or `false` alone, saying what to
///   write. (`true` alone is no constant condition: it would match only where a search
///   starts, or at every event in `log --where`, which a command without `--where` already
///   gives; a user who writes it has most likely left out a field.)
/// - `event` (the event's kind), `outcome` (`applied`, `unchanged` or `rejected`) and
///   `reason` (why it was rejected; `null` otherwise) name the event that led to the
///   point, unless the domain has a field of that path.
/// - `!` binds tightest, then `&&`, then `||`; parentheses group.
///
/// A value is JSON (`null`, `3`, `true`, `"two words"`, `[…]`) or a bare word without
/// spaces, quotes or parentheses, read as a string.
///
/// A condition is checked against the domain's fields, kinds and values before any
/// replay: an unknown field, a value of the wrong kind or outside an enum, an id the
/// session does not have is a ``ConditionError`` at its column.
public indirect enum Condition: Sendable, Equatable, CustomStringConvertible {
  case equals(path: String, value: JSONValue)
  case notEquals(path: String, value: JSONValue)
  case changed(path: String)
  /// `PATH < VALUE`, a number.
  case less(path: String, value: JSONValue)
  /// `PATH <= VALUE`, a number.
  case lessOrEqual(path: String, value: JSONValue)
  /// `PATH > VALUE`, a number.
  case greater(path: String, value: JSONValue)
  /// `PATH >= VALUE`, a number.
  case greaterOrEqual(path: String, value: JSONValue)
  /// `PATH contains VALUE`: an element of an array, or a part of a string.
  case contains(path: String, value: JSONValue)
  /// `!CONDITION`
  case not(Condition)
  /// `A && B`
  case and(Condition, Condition)
  /// `A || B`
  case or(Condition, Condition)

  /// How conditions are written, for help texts and errors.
  package static let syntax =
    "PATH == VALUE, PATH != VALUE, PATH < NUMBER (<=, >, >=), PATH contains VALUE, changed(PATH) or a boolean PATH alone, combined with &&, || and !"

  /// The words that name the event that led to a point rather than a state field.
  package static let eventWords = ["event", "outcome", "reason"]

  /// Parses a condition.
  /// - Throws: ``ConditionError`` saying what was expected, and at which column.
  public init(parsing text: String) throws(ConditionError) {
    self = try WrittenCondition(parsing: text).condition
  }

  /// Whether the text is a dotted field path: names joined by single dots, each of
  /// letters, digits, `_` and the marks that accent them, starting with no mark.
  static func isPath(_ text: String) -> Bool {
    !text.isEmpty
      && text.unicodeScalars.split(separator: ".", omittingEmptySubsequences: false).allSatisfy {
        name in
        name.first.map(startsPath) == true && name.allSatisfy(isPathScalar)
      }
  }

  /// Whether a name in a path may start with the scalar: a letter, a digit or `_`.
  static func startsPath(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar == "_"
  }

  /// Whether a name in a path may hold the scalar: what may start one, or a mark that
  /// accents it (the accent of an `é` written as `e` and U+0301).
  static func isPathScalar(_ scalar: Unicode.Scalar) -> Bool {
    if startsPath(scalar) { return true }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: return false
    }
  }

  /// The paths the condition names (fields, or the event's words), left to right, each
  /// once.
  public var paths: [String] {
    var paths: [String] = []
    forEachComparison { path, _, _ in
      if !paths.contains(path) { paths.append(path) }
    }
    return paths
  }

  /// Calls `body` with each comparison's path, operator (`==`, `changed`, …) and value
  /// (nil for `changed`), left to right.
  package func forEachComparison(_ body: (String, String, JSONValue?) throws -> Void) rethrows {
    switch self {
    case .not(let inner): try inner.forEachComparison(body)
    case .and(let left, let right), .or(let left, let right):
      try left.forEachComparison(body)
      try right.forEachComparison(body)
    case .changed(let path): try body(path, "changed", nil)
    default:
      let (path, symbol, value) = comparison!
      try body(path, symbol, value)
    }
  }

  /// A comparison's path, operator and value; nil for `changed` and the combinations.
  var comparison: (path: String, symbol: String, value: JSONValue)? {
    switch self {
    case .equals(let path, let value): (path, "==", value)
    case .notEquals(let path, let value): (path, "!=", value)
    case .less(let path, let value): (path, "<", value)
    case .lessOrEqual(let path, let value): (path, "<=", value)
    case .greater(let path, let value): (path, ">", value)
    case .greaterOrEqual(let path, let value): (path, ">=", value)
    case .contains(let path, let value): (path, "contains", value)
    case .changed, .not, .and, .or: nil
    }
  }

  /// The condition as it parses back: `||` and `&&` of their operands, parentheses only
  /// where precedence needs them, values as compact JSON.
  public var description: String { written(atLeast: 1) }

  /// The condition written as an operand that binds at least as tightly as `level`
  /// (1: `||`, 2: `&&`, 3: `!`, 4: a comparison), in parentheses when it binds less.
  private func written(atLeast level: Int) -> String {
    let (text, own): (String, Int)
    switch self {
    case .or(let left, let right):
      (text, own) = (left.written(atLeast: 1) + " || " + right.written(atLeast: 2), 1)
    case .and(let left, let right):
      (text, own) = (left.written(atLeast: 2) + " && " + right.written(atLeast: 3), 2)
    case .not(let inner):
      // `!(a == 1)`, not `!a == 1`, which reads as if `!` applied to the path.
      (text, own) = ("!" + inner.written(atLeast: inner.comparison == nil ? 3 : 5), 3)
    case .changed(let path):
      (text, own) = ("changed(\(path))", 4)
    default:
      let (path, symbol, value) = comparison!
      (text, own) = ("\(path) \(symbol) \(value.compactText)", 4)
    }
    return own < level ? "(\(text))" : text
  }
}

/// A condition that cannot be used: a malformed one, or one that does not fit the
/// domain's fields (an unknown field, a value of the wrong kind, a value outside an enum,
/// an id the session does not have).
public struct ConditionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong, e.g. `'Balanced' is not a value of split.style: …`.
  public var message: String
  /// Where in the condition the problem is: 1-based, in characters.
  public var column: Int
  /// The word at fault (a field path, a value), and the words it may be a slip of: where
  /// a tool looks for a "did you mean".
  public var word: String
  public var choices: [String]
  /// What was certainly meant, e.g. the id of an item whose name was written.
  public var suggestion: String?

  package init(
    _ message: String, column: Int, word: String = "", choices: [String] = [],
    suggestion: String? = nil
  ) {
    self.message = message
    self.column = column
    self.word = word
    self.choices = choices
    self.suggestion = suggestion
  }

  /// `at column 16: … Did you mean 'balanced'?`
  public var description: String {
    "at column \(column): \(message)" + (suggestion.map { ". Did you mean '\($0)'?" } ?? "")
  }
}

extension ConditionError {
  /// What the word was meant to be, for a "did you mean": the suggestion when it is
  /// certain, else the choice it is most likely a slip of; nil when none is near.
  package var meant: String? { suggestion ?? closestName(to: word, among: choices) }
}
