/// One field that differs between two states.
public struct FieldChange: Sendable, Equatable, CustomStringConvertible {
  /// The field's dotted path, e.g. `split.selectedItem`.
  public var path: String
  public var old: JSONValue
  public var new: JSONValue

  package init(path: String, old: JSONValue, new: JSONValue) {
    self.path = path
    self.old = old
    self.new = new
  }

  /// `{"path": …, "old": …, "new": …}`.
  public var json: JSONValue {
    .object([("path", .string(path)), ("old", old), ("new", new)])
  }

  /// The change on one line: `path: old → new`, each value as compact JSON
  /// (`cart.count: 2 → 3`).
  public var description: String { "\(path): \(old.compactText) → \(new.compactText)" }

  /// The change as readable lines: the path, then `- old` and `+ new`.
  package var lines: [String] {
    [path, "  - \(old.compactText)", "  + \(new.compactText)"]
  }
}

extension Domain {
  /// The fields that differ between two states, in field order (a field differs when its
  /// JSON text does, as in ``Domain/changedFields(from:to:)``); empty when they are equal.
  /// - Complexity: O(fields).
  public func diff(_ old: State, _ new: State) -> [FieldChange] {
    fields.compactMap { field in
      let before = field.value(old)
      let after = field.value(new)
      return before.isWrittenAs(after)
        ? nil : FieldChange(path: field.path, old: before, new: after)
    }
  }

  /// The index in ``Domain/fields`` of a path.
  /// - Throws: ``RewindError`` `invalidInput` listing the paths there are.
  package func fieldIndex(of path: String) throws(RewindError) -> Int {
    if let index = fields.firstIndex(where: { $0.path == path }) { return index }
    let known = fields.map(\.path).joined(separator: ", ")
    throw RewindError(
      .invalidInput, "\(Format.quoted(path)) is not a state field; the fields are \(known)")
  }

  /// The paths of the fields in a set.
  package func paths(of set: FieldSet) -> [String] {
    set.indices.compactMap { $0 < fields.count ? fields[$0].path : nil }
  }
}
