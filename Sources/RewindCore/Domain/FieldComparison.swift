/// One comparison of a condition on a state field, `split.selectedItem == grinders/vulcano`
/// less its path: the operator and the value it compares with. What a domain compiles
/// against its own values in ``Domain/predicate(for:_:)``.
///
/// Its meaning is ``holds(_:)``, on the field's value as JSON (`StateField.value`): a
/// compiled predicate must return what `holds` returns for every state.
public struct FieldComparison: Sendable {
  /// How a field's value is compared with ``value``.
  public enum Operator: String, Sendable, CaseIterable {
    case equals = "=="
    case notEquals = "!="
    /// Numbers only: a field that holds no number there does not compare.
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    /// An element of an array, or a part of a string.
    case contains
  }

  /// The test the scans evaluate.
  @usableFromInline let test: ValueTest

  /// The comparison of a field's value with `value`.
  public init(_ operator: Operator, _ value: JSONValue) {
    test =
      switch `operator` {
      case .equals: .equals(value)
      case .notEquals: .notEquals(value)
      case .less: .less(value)
      case .lessOrEqual: .lessOrEqual(value)
      case .greater: .greater(value)
      case .greaterOrEqual: .greaterOrEqual(value)
      case .contains: .contains(value)
      }
  }

  init(_ test: ValueTest) { self.test = test }

  /// The operator.
  public var `operator`: Operator {
    switch test {
    case .equals: .equals
    case .notEquals: .notEquals
    case .less: .less
    case .lessOrEqual: .lessOrEqual
    case .greater: .greater
    case .greaterOrEqual: .greaterOrEqual
    case .contains: .contains
    }
  }

  /// The value the field's is compared with, as the condition gives it.
  public var value: JSONValue {
    switch test {
    case .equals(let value), .notEquals(let value), .less(let value), .lessOrEqual(let value),
      .greater(let value), .greaterOrEqual(let value), .contains(let value):
      value
    }
  }

  /// Whether the comparison holds for a field whose value (as JSON) is `fieldValue`:
  /// `==` and `!=` compare JSON values, `<`, `<=`, `>`, `>=` numbers (integers exactly;
  /// false when `fieldValue` is not a number), `contains` looks for an element of an
  /// array or a part of a string.
  public func holds(_ fieldValue: JSONValue) -> Bool { test.holds(fieldValue) }
}
