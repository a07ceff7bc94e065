import RewindCore

extension FieldKind {
  /// The kind as a page's script reads it to check a `find` condition's value as
  /// `rewind find` does: `"integer"`, `"number"`, `"boolean"`, `"string"`, `"any"`,
  /// `{"oneOf": [...]}`, `{"identifier": noun}`, `{"list": kind}`, `{"optional": kind}`.
  var pageJSON: JSONValue {
    switch self {
    case .integer: "integer"
    case .number: "number"
    case .boolean: "boolean"
    case .string: "string"
    case .any: "any"
    case .oneOf(let values): .object([("oneOf", .array(values.map(JSONValue.string)))])
    case .identifier(let noun): .object([("identifier", .string(noun))])
    case .text(let noun): .object([("text", .string(noun))])
    case .list(let element): .object([("list", element.pageJSON)])
    case .optional(let wrapped): .object([("optional", wrapped.pageJSON)])
    }
  }
}

extension JSONValue {
  /// The value with the leaf at a dotted path replaced by `value` (objects on the way
  /// made when missing): how a page rebuilds a state from a keyframe and the changed
  /// fields of the events since.
  func setting(_ value: JSONValue, atPath path: Substring) -> JSONValue {
    guard let dot = path.firstIndex(of: ".") else {
      return replacing(member: String(path), with: value)
    }
    let key = String(path[..<dot])
    let inner = self[key] ?? .object([])
    return replacing(
      member: key, with: inner.setting(value, atPath: path[path.index(after: dot)...]))
  }

  /// ``setting(_:atPath:)`` in place, the path split at its dots: the objects on the path
  /// are changed where they are when held only here, not copied.
  mutating func set(_ value: JSONValue, at path: ArraySlice<String>) {
    guard let key = path.first else {
      self = value
      return
    }
    var members: [(String, JSONValue)] = []
    if case .object(let held) = self { members = held }
    // The members held only by `members`, so that they change in place.
    self = .null
    let rest = path.dropFirst()
    if let index = members.firstIndex(where: { $0.0 == key }) {
      if rest.isEmpty {
        members[index].1 = value
      } else {
        members[index].1.set(value, at: rest)
      }
    } else if rest.isEmpty {
      members.append((key, value))
    } else {
      var inner = JSONValue.object([])
      inner.set(value, at: rest)
      members.append((key, inner))
    }
    self = .object(members)
  }

  private func replacing(member key: String, with value: JSONValue) -> JSONValue {
    guard case .object(var members) = self else { return .object([(key, value)]) }
    if let index = members.firstIndex(where: { $0.0 == key }) {
      members[index].1 = value
    } else {
      members.append((key, value))
    }
    return .object(members)
  }
}
