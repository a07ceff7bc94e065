/// A condition on the state for `find`: a field compared with a value, or a field
/// changing.
///
/// Written `split.selectedItem == espresso-machines/leva`, `menu.selectedIndex != 0`,
/// `changed(split.columnVisibility)`. A value is read as JSON when it is JSON (`null`,
/// `3`, `true`, `"text"`, `[…]`), otherwise as a bare string.
public enum Condition: Sendable, Equatable, CustomStringConvertible {
  case equals(path: String, value: JSONValue)
  case notEquals(path: String, value: JSONValue)
  case changed(path: String)

  /// How conditions are written, for help texts and errors.
  public static let syntax = "PATH == VALUE, PATH != VALUE or changed(PATH)"

  /// Parses a condition.
  /// - Throws: ``RewindError`` `invalidInput` saying what was expected.
  public init(parsing text: String) throws(RewindError) {
    let trimmed = text.trimmingWhitespace()
    if trimmed.hasPrefix("changed(") && trimmed.hasSuffix(")") {
      let path = String(trimmed.dropFirst("changed(".count).dropLast()).trimmingWhitespace()
      guard Condition.isPath(path) else {
        throw RewindError(.invalidInput, "'\(text)': expected a field path inside changed(…)")
      }
      self = .changed(path: path)
      return
    }
    for (operator_, make) in [
      ("==", Condition.equals), ("!=", Condition.notEquals),
    ] as [(String, (String, JSONValue) -> Condition)] {
      guard let range = trimmed.firstRange(of: operator_) else { continue }
      let path = String(trimmed[..<range.lowerBound]).trimmingWhitespace()
      let valueText = String(trimmed[range.upperBound...]).trimmingWhitespace()
      guard Condition.isPath(path) else {
        throw RewindError(.invalidInput, "'\(text)': expected a field path before \(operator_)")
      }
      guard !valueText.isEmpty else {
        throw RewindError(.invalidInput, "'\(text)': expected a value after \(operator_)")
      }
      let value = (try? JSONValue(parsing: valueText)) ?? .string(valueText)
      self = make(path, value)
      return
    }
    throw RewindError(.invalidInput, "'\(text)' is not a condition: expected \(Condition.syntax)")
  }

  static func isPath(_ text: String) -> Bool {
    !text.isEmpty
      && text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
        !part.isEmpty && part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
      }
  }

  /// The field the condition is about.
  public var path: String {
    switch self {
    case .equals(let path, _), .notEquals(let path, _), .changed(let path): path
    }
  }

  /// Whether the condition holds for a field's value (always false for `changed`).
  public func holds(for value: JSONValue) -> Bool {
    switch self {
    case .equals(_, let expected): value == expected
    case .notEquals(_, let expected): value != expected
    case .changed: false
    }
  }

  public var description: String {
    switch self {
    case .equals(let path, let value): "\(path) == \(value.compactText)"
    case .notEquals(let path, let value): "\(path) != \(value.compactText)"
    case .changed(let path): "changed(\(path))"
    }
  }
}
