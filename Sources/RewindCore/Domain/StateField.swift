/// One leaf of a domain's state, addressed by its dotted JSON path.
public struct StateField<State>: Sendable {
  /// The dotted path, e.g. `split.selectedItem`.
  public let path: String
  /// What values the field holds, for checking conditions on it.
  public let kind: FieldKind
  /// Reads the field's value from a state.
  public let value: @Sendable (State) -> JSONValue

  /// - Parameters:
  ///   - path: the dotted path, e.g. `split.selectedItem`.
  ///   - kind: what values the field holds; `any` (nothing is checked) by default.
  ///   - value: reads the field's value from a state.
  public init(
    _ path: String, kind: FieldKind = .any, value: @escaping @Sendable (State) -> JSONValue
  ) {
    self.path = path
    self.kind = kind
    self.value = value
  }
}

/// A set of field indices (into ``Domain/fields``), at most 64.
public struct FieldSet: Hashable, Sendable, SetAlgebra {
  /// Bit `i` set when field `i` is in the set.
  public var rawValue: UInt64

  @inlinable public init() { rawValue = 0 }
  @inlinable public init(rawValue: UInt64) { self.rawValue = rawValue }
  /// The set of one field.
  public init(field index: Int) {
    precondition(index >= 0 && index < 64, "a FieldSet holds field indices 0..<64")
    rawValue = 1 << UInt64(index)
  }

  @inlinable public func contains(_ member: Int) -> Bool {
    member >= 0 && member < 64 && rawValue & (1 << UInt64(member)) != 0
  }
  public func union(_ other: FieldSet) -> FieldSet { FieldSet(rawValue: rawValue | other.rawValue) }
  @inlinable public func intersection(_ other: FieldSet) -> FieldSet {
    FieldSet(rawValue: rawValue & other.rawValue)
  }
  public func symmetricDifference(_ other: FieldSet) -> FieldSet {
    FieldSet(rawValue: rawValue ^ other.rawValue)
  }
  @discardableResult public mutating func insert(_ member: Int) -> (
    inserted: Bool, memberAfterInsert: Int
  ) {
    let had = contains(member)
    rawValue |= FieldSet(field: member).rawValue
    return (!had, member)
  }
  @discardableResult public mutating func remove(_ member: Int) -> Int? {
    guard contains(member) else { return nil }
    rawValue &= ~FieldSet(field: member).rawValue
    return member
  }
  @discardableResult public mutating func update(with member: Int) -> Int? {
    insert(member).inserted ? nil : member
  }
  public mutating func formUnion(_ other: FieldSet) { rawValue |= other.rawValue }
  public mutating func formIntersection(_ other: FieldSet) { rawValue &= other.rawValue }
  public mutating func formSymmetricDifference(_ other: FieldSet) { rawValue ^= other.rawValue }

  /// The indices in the set, ascending.
  public var indices: [Int] { (0..<64).filter { contains($0) } }
  @inlinable public var isEmpty: Bool { rawValue == 0 }
}
