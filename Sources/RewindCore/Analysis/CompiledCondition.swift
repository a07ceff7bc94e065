/// A condition checked against a domain and compiled for evaluation: its fields resolved
/// to indices into ``Domain/fields``, its values checked, the event's words resolved.
///
/// What the scans evaluate after every event: the values of the fields it reads are kept
/// in `slots` (one per field, in ``fields`` order) and re-read only after an event that
/// changed one of them.
@usableFromInline package struct CompiledCondition: Sendable {
  @usableFromInline let root: ConditionNode
  /// The fields the condition reads, as indices into ``Domain/fields``, in the order the
  /// condition first names them: slot `i` holds field `fields[i]`.
  @usableFromInline package let fields: [Int]
  /// The paths of ``fields``.
  @usableFromInline package let paths: [String]
  /// The fields as a set (those below 64, as change tracking counts them).
  @usableFromInline let fieldSet: FieldSet
  /// Whether the condition names the event (`event`, `outcome`, `reason`,
  /// `changed(…)`): then it is matched after every event where it holds, else where it
  /// becomes true.
  @usableFromInline package let isAboutEvents: Bool
  /// Fields one of which an event must change for the condition to hold after it; nil
  /// when it may hold after an event that changed none of them.
  @usableFromInline let triggers: FieldSet?
  /// Whether it reads the event's kind.
  @usableFromInline let readsKind: Bool
  /// Whether it reads the fields an event changed (`changed(…)`): only then do the scans
  /// that evaluate it with ``predicates(in:)`` follow changes for it.
  @usableFromInline let readsChanges: Bool
  /// Whether it is one comparison of a field (its leaf 0), nothing else.
  @usableFromInline let isOneComparison: Bool
  /// Its comparisons of fields, by leaf (the `leaf` of ``ConditionNode/field(slot:leaf:_:)``):
  /// the field (an index into ``Domain/fields``) and the comparison.
  @usableFromInline let leaves: [(field: Int, comparison: FieldComparison)]

  init(
    root: ConditionNode, fields: [Int], paths: [String], isAboutEvents: Bool,
    leaves: [(field: Int, comparison: FieldComparison)]
  ) {
    self.root = root
    self.fields = fields
    self.paths = paths
    self.isAboutEvents = isAboutEvents
    self.leaves = leaves
    var set = FieldSet()
    for field in fields where field < 64 { set.insert(field) }
    fieldSet = set
    triggers = root.triggers
    readsKind = root.readsKind
    readsChanges = root.readsChanges
    if case .field = root { isOneComparison = true } else { isOneComparison = false }
  }

  /// The comparisons of fields, by leaf, compiled for `domain`: its
  /// ``Domain/predicate(for:_:)``, or else the comparison of the field's JSON value. What
  /// ``holds(_:_:changed:event:domain:)`` evaluates them with.
  @usableFromInline func predicates<D: Domain>(in domain: D) -> [@Sendable (D.State) -> Bool] {
    let all = domain.fields
    return leaves.map { field, comparison in
      if let compiled = domain.predicate(for: field, comparison) { return compiled }
      let value = all[field].value
      return { comparison.holds(value($0)) }
    }
  }

  /// Whether the condition holds at `state`, its comparisons of fields evaluated there
  /// with `predicates` (``predicates(in:)``), given the fields the event changed and the
  /// event (nil: no event, at the start). The same answer as
  /// ``holds(_:changed:event:domain:)`` with the fields' JSON values at `state`.
  @inlinable
  func holds<D: Domain>(
    _ state: D.State, _ predicates: [@Sendable (D.State) -> Bool], changed: FieldSet,
    event: ReplayedEvent<D>?, domain: D
  ) -> Bool {
    // One comparison of a field, the most common condition: no walk of the tree.
    if isOneComparison { return predicates[0](state) }
    return root.holds(state, predicates, changed: changed, event: event, domain: domain)
  }

  /// Whether the condition holds, given the values of its fields (by slot), the fields
  /// the event changed and the event (nil: no event, at the start).
  @inlinable
  func holds<D: Domain>(
    _ values: [JSONValue], changed: FieldSet, event: ReplayedEvent<D>?, domain: D
  ) -> Bool {
    root.holds(values, changed: changed, event: event, domain: domain)
  }

  /// The value a match at `state` shows (``shown(_:)``), read with the condition's
  /// fields (`fields[slot]` reads field `self.fields[slot]`).
  @inlinable func shown<State>(_ fields: [StateField<State>], at state: State) -> JSONValue {
    shown(fields.map { $0.value(state) })
  }

  /// The value a match shows: the field's when the condition reads one, an object of
  /// path → value when it reads several, null when it reads none.
  @inlinable func shown(_ values: [JSONValue]) -> JSONValue {
    switch values.count {
    case 0: .null
    case 1: values[0]
    default: .object(Array(zip(paths, values)))
    }
  }
}

/// One node of a compiled condition.
@usableFromInline indirect enum ConditionNode: Sendable {
  /// A test of the value of the field in `slot`, the condition's `leaf`th comparison of a
  /// field (see ``CompiledCondition/leaves``).
  case field(slot: Int, leaf: Int, ValueTest)
  /// Whether the event changed field `field` (an index into ``Domain/fields``).
  case changed(field: Int)
  /// A test of the event's kind (a string; null at the start).
  case eventKind(ValueTest)
  /// A test of the event's outcome (`applied`, `unchanged`, `rejected`; null at the start
  /// or for a skipped event), tabulated: bit 0 set when it holds for `applied`, 1 for
  /// `unchanged`, 2 for `rejected`, 3 for null (see ``outcomeBit(_:)``).
  case outcome(holding: UInt8)
  /// A test of why the event was rejected (a string; null unless it was rejected).
  case reason(ValueTest)
  case not(ConditionNode)
  case and(ConditionNode, ConditionNode)
  case or(ConditionNode, ConditionNode)

  @inlinable
  func holds<D: Domain>(
    _ values: [JSONValue], changed: FieldSet, event: ReplayedEvent<D>?, domain: D
  ) -> Bool {
    switch self {
    case .field(let slot, _, let test):
      return test.holds(values[slot])
    case .changed(let field):
      return changed.contains(field)
    case .eventKind, .outcome, .reason:
      return holdsForEvent(event, domain: domain)
    case .not(let inner):
      return !inner.holds(values, changed: changed, event: event, domain: domain)
    case .and(let left, let right):
      return left.holds(values, changed: changed, event: event, domain: domain)
        && right.holds(values, changed: changed, event: event, domain: domain)
    case .or(let left, let right):
      return left.holds(values, changed: changed, event: event, domain: domain)
        || right.holds(values, changed: changed, event: event, domain: domain)
    }
  }

  /// Whether the node holds at `state`, its comparisons of fields evaluated with
  /// `predicates`, by leaf.
  @inlinable
  func holds<D: Domain>(
    _ state: D.State, _ predicates: [@Sendable (D.State) -> Bool], changed: FieldSet,
    event: ReplayedEvent<D>?, domain: D
  ) -> Bool {
    switch self {
    case .field(_, let leaf, _):
      return predicates[leaf](state)
    case .changed(let field):
      return changed.contains(field)
    case .eventKind, .outcome, .reason:
      return holdsForEvent(event, domain: domain)
    case .not(let inner):
      return !inner.holds(state, predicates, changed: changed, event: event, domain: domain)
    case .and(let left, let right):
      return left.holds(state, predicates, changed: changed, event: event, domain: domain)
        && right.holds(state, predicates, changed: changed, event: event, domain: domain)
    case .or(let left, let right):
      return left.holds(state, predicates, changed: changed, event: event, domain: domain)
        || right.holds(state, predicates, changed: changed, event: event, domain: domain)
    }
  }

  /// Whether a leaf about the event (its kind, outcome or reason) holds for `event` (nil
  /// at the start of a range); what both evaluations of a node share.
  @inlinable @inline(__always)
  func holdsForEvent<D: Domain>(_ event: ReplayedEvent<D>?, domain: D) -> Bool {
    switch self {
    case .eventKind(let test):
      guard let event else { return test.holds(.null) }
      return test.holds(.string(domain.eventKind(event.event)))
    case .outcome(let holding):
      return holding & Self.outcomeBit(event?.outcome) != 0
    case .reason(let test):
      guard case .rejected(let reason)? = event?.outcome else { return test.holds(.null) }
      return test.holds(.string("\(reason)"))
    case .field, .changed, .not, .and, .or:
      preconditionFailure("not a leaf about the event")
    }
  }

  /// The bit of an outcome in ``outcome(holding:)``.
  @inlinable @inline(__always)
  static func outcomeBit<Rejection: Equatable & Sendable>(_ outcome: Outcome<Rejection>?) -> UInt8 {
    switch outcome {
    case .applied?: 1
    case .unchanged?: 2
    case .rejected?: 4
    case nil: 8
    }
  }

  /// The ``outcome(holding:)`` of a test of the outcome's name: what `test` answers for
  /// `applied`, `unchanged`, `rejected` and null.
  static func outcome(_ test: ValueTest) -> ConditionNode {
    let names: [JSONValue] = [.string("applied"), .string("unchanged"), .string("rejected"), .null]
    var holding: UInt8 = 0
    for (bit, name) in names.enumerated() where test.holds(name) { holding |= 1 << bit }
    return .outcome(holding: holding)
  }

  /// Fields one of which an event must change for the node to hold after it.
  var triggers: FieldSet? {
    switch self {
    case .changed(let field): field < 64 ? FieldSet(field: field) : nil
    case .and(let left, let right): left.triggers ?? right.triggers
    case .or(let left, let right):
      if let left = left.triggers, let right = right.triggers { left.union(right) } else { nil }
    case .field, .eventKind, .outcome, .reason, .not: nil
    }
  }

  var readsChanges: Bool {
    switch self {
    case .changed: true
    case .not(let inner): inner.readsChanges
    case .and(let left, let right), .or(let left, let right):
      left.readsChanges || right.readsChanges
    case .field, .eventKind, .outcome, .reason: false
    }
  }

  var readsKind: Bool {
    switch self {
    case .eventKind: true
    case .not(let inner): inner.readsKind
    case .and(let left, let right), .or(let left, let right): left.readsKind || right.readsKind
    case .field, .changed, .outcome, .reason: false
    }
  }
}

/// A comparison of a value with the one a condition gives.
@usableFromInline enum ValueTest: Sendable {
  case equals(JSONValue)
  case notEquals(JSONValue)
  case less(JSONValue)
  case lessOrEqual(JSONValue)
  case greater(JSONValue)
  case greaterOrEqual(JSONValue)
  /// An element of an array, or a part of a string.
  case contains(JSONValue)

  @inlinable func holds(_ value: JSONValue) -> Bool {
    switch self {
    case .equals(let expected): return value == expected
    case .notEquals(let expected): return value != expected
    case .less(let bound): return Self.order(value, bound).map { $0 < 0 } ?? false
    case .lessOrEqual(let bound): return Self.order(value, bound).map { $0 <= 0 } ?? false
    case .greater(let bound): return Self.order(value, bound).map { $0 > 0 } ?? false
    case .greaterOrEqual(let bound): return Self.order(value, bound).map { $0 >= 0 } ?? false
    case .contains(let part):
      switch (value, part) {
      case (.array(let elements), _): return elements.contains(part)
      case (.string(let text), .string(let part)): return Self.contains(text, part)
      default: return false
      }
    }
  }

  /// Whether `part` is a part of `text` (the empty string is a part of every string).
  @usableFromInline static func contains(_ text: String, _ part: String) -> Bool {
    part.isEmpty || text.firstRange(of: part) != nil
  }

  /// -1, 0 or 1 as the number `value` is below, at or above `bound`; nil when `value` is
  /// not a number. Integers compare exactly.
  @inlinable static func order(_ value: JSONValue, _ bound: JSONValue) -> Int? {
    switch (value, bound) {
    case (.int(let a), .int(let b)): return a < b ? -1 : a == b ? 0 : 1
    default:
      guard let a = value.doubleValue, let b = bound.doubleValue else { return nil }
      return a < b ? -1 : a == b ? 0 : 1
    }
  }
}

/// Checks a condition's comparisons against a domain, left to right, and builds its
/// compiled form.
struct ConditionCompiler<D: Domain> {
  let domain: D
  let places: [WrittenCondition.Place]
  let domainFields: [StateField<D.State>]
  var next = 0
  var fields: [Int] = []
  var leaves: [(field: Int, comparison: FieldComparison)] = []
  var isAboutEvents = false

  init(domain: D, places: [WrittenCondition.Place]) {
    self.domain = domain
    self.places = places
    domainFields = domain.fields
  }

  static var outcomes: [String] { ["applied", "unchanged", "rejected"] }

  mutating func compile(_ condition: Condition) throws(ConditionError) -> ConditionNode {
    switch condition {
    case .not(let inner): return .not(try compile(inner))
    case .and(let left, let right): return .and(try compile(left), try compile(right))
    case .or(let left, let right): return .or(try compile(left), try compile(right))
    case .changed(let path):
      let place = nextPlace()
      guard let field = domainFields.firstIndex(where: { $0.path == path }) else {
        if Condition.eventWords.contains(path) {
          throw ConditionError(
            "changed(…) takes a state field; \(Format.quoted(path)) names the event",
            column: place.path)
        }
        throw unknownPath(path, at: place)
      }
      isAboutEvents = true
      // A match shows the field's value.
      _ = slot(of: field)
      return .changed(field: field)
    default:
      let (path, symbol, value) = condition.comparison!
      let place = nextPlace()
      if place.isPathAlone { try checkAlone(path, at: place) }
      let test = Self.test(symbol, value)
      if let field = domainFields.firstIndex(where: { $0.path == path }) {
        try checkField(field, symbol: symbol, value: value, place: place)
        leaves.append((field, FieldComparison(test)))
        return .field(slot: slot(of: field), leaf: leaves.count - 1, test)
      }
      guard Condition.eventWords.contains(path) else { throw unknownPath(path, at: place) }
      isAboutEvents = true
      try checkEventWord(path, symbol: symbol, value: value, place: place)
      switch path {
      case "event": return .eventKind(test)
      case "outcome": return ConditionNode.outcome(test)
      default: return .reason(test)
      }
    }
  }

  mutating func nextPlace() -> WrittenCondition.Place {
    defer { next += 1 }
    return next < places.count ? places[next] : WrittenCondition.Place(path: 1, value: 1)
  }

  mutating func slot(of field: Int) -> Int {
    if let slot = fields.firstIndex(of: field) { return slot }
    fields.append(field)
    return fields.count - 1
  }

  static func test(_ symbol: String, _ value: JSONValue) -> ValueTest {
    switch symbol {
    case "==": .equals(value)
    case "!=": .notEquals(value)
    case "<": .less(value)
    case "<=": .lessOrEqual(value)
    case ">": .greater(value)
    case ">=": .greaterOrEqual(value)
    default: .contains(value)
    }
  }

  /// Checks a path written alone (`split.overlay`, read as `split.overlay == true`): only
  /// a boolean field is a condition alone. Anything else is refused saying what to write:
  /// another field or an event word compared with a value, `true` or `false` (a value,
  /// not a field) put in a comparison.
  func checkAlone(_ path: String, at place: WrittenCondition.Place) throws(ConditionError) {
    let compare = "so it is no condition alone: compare it, e.g."
    if let field = domainFields.first(where: { $0.path == path }) {
      guard !field.kind.isBoolean else { return }
      throw ConditionError(
        "\(path) is not a boolean (it holds \(field.kind)), \(compare) \(path) \(field.kind.example)",
        column: place.path)
    }
    if Condition.eventWords.contains(path) {
      let example =
        switch path {
        case "event": "event == \(D.eventKinds.first ?? "…")"
        case "outcome": "outcome == rejected"
        default: "reason != null"
        }
      throw ConditionError(
        "\(Self.eventWordMeaning(path)), not a boolean, \(compare) \(example)", column: place.path)
    }
    if path == "true" || path == "false" {
      let boolean = domainFields.first { $0.kind.isBoolean }?.path
      let examples =
        boolean.map { "\($0) == \(path), or \($0) alone for a boolean field" } ?? "PATH == \(path)"
      throw ConditionError(
        "\(path) is a value, not a condition: compare a field with it, e.g. \(examples)",
        column: place.path)
    }
  }

  func unknownPath(_ path: String, at place: WrittenCondition.Place) -> ConditionError {
    let paths = domainFields.map(\.path)
    return ConditionError(
      "\(Format.quoted(path)) is not a state field; the fields are \(paths.joined(separator: ", ")) "
        + "(and event, outcome, reason name the event)",
      column: place.path, word: path, choices: paths + Condition.eventWords)
  }

  func checkField(
    _ index: Int, symbol: String, value: JSONValue, place: WrittenCondition.Place
  ) throws(ConditionError) {
    let field = domainFields[index]
    let problem: ValueProblem?
    switch symbol {
    case "==", "!=":
      problem = domain.problem(with: value, kind: field.kind, path: field.path)
    case "contains":
      switch field.kind.searched {
      case .list(let element)?:
        problem = domain.problem(
          with: value, kind: element, path: field.path,
          holder: "each element of \(field.path) is")
      case .string?:
        problem =
          value.stringValue != nil
          ? nil
          : ValueProblem(
            "\(field.path) holds \(field.kind), and contains looks for a string in it, not \(value.typeName) (\(Format.quoted(value.compactText, quote: "")))"
          )
      case nil:
        throw ConditionError(
          "contains looks into a list or a string, and \(field.path) holds \(field.kind)",
          column: place.path)
      }
    default:
      guard field.kind.holdsNumbers else {
        throw ConditionError(
          "'\(symbol)' compares numbers, and \(field.path) holds \(field.kind)",
          column: place.path)
      }
      problem = nil
    }
    guard let problem else { return }
    throw ConditionError(
      problem.message, column: place.value, word: problem.word, choices: problem.choices,
      suggestion: problem.suggestion)
  }

  func checkEventWord(
    _ word: String, symbol: String, value: JSONValue, place: WrittenCondition.Place
  ) throws(ConditionError) {
    let what = Self.eventWordMeaning(word)
    switch symbol {
    case "==", "!=", "contains":
      if symbol == "contains", word == "outcome" {
        throw ConditionError(
          "\(what): compare it with == or !=", column: place.path)
      }
      if word == "reason", value == .null, symbol != "contains" { return }
      guard let text = value.stringValue else {
        throw ConditionError(
          "\(what), a string, not \(value.typeName) (\(Format.quoted(value.compactText, quote: "")))",
          column: place.value)
      }
      guard symbol != "contains" else { return }
      let choices =
        word == "event" ? D.eventKinds : word == "outcome" ? Self.outcomes : []
      guard !choices.isEmpty, !choices.contains(text) else { return }
      throw ConditionError(
        "\(Format.quoted(text)) is not \(word == "event" ? "an event kind" : "an outcome"); they are "
          + choices.joined(separator: ", "),
        column: place.value, word: text, choices: choices)
    default:
      throw ConditionError(
        "'\(symbol)' compares numbers, and \(what)", column: place.path)
    }
  }
}

extension ConditionCompiler {
  /// What an event word stands for, for messages: `event is the event's kind`.
  static func eventWordMeaning(_ word: String) -> String {
    switch word {
    case "event": "event is the event's kind"
    case "outcome": "outcome is applied, unchanged or rejected"
    default: "reason is why the event was rejected (null when it was not)"
    }
  }
}

extension FieldKind {
  /// Whether the field holds `true` or `false` (or null): a field that is a condition
  /// alone.
  var isBoolean: Bool {
    switch self {
    case .boolean: true
    case .optional(let wrapped): wrapped.isBoolean
    default: false
    }
  }

  /// How a field of this kind is compared, for a message that shows one: `== automatic`
  /// (an enum's first value), `contains …` (a list), `== …`.
  var example: String {
    switch self {
    case .oneOf(let values) where !values.isEmpty: "== \(values[0])"
    case .list: "contains …"
    case .optional(let wrapped): wrapped.example
    default: "== …"
    }
  }

  /// Whether `<`, `<=`, `>`, `>=` compare the field's values.
  var holdsNumbers: Bool {
    switch self {
    case .integer, .number, .any: true
    case .optional(let wrapped): wrapped.holdsNumbers
    default: false
    }
  }

  /// What `contains` looks into: a list (with its elements' kind) or a string; nil for
  /// neither.
  var searched: Searched? {
    switch self {
    case .list(let element): .list(element)
    case .string, .oneOf, .identifier, .text: .string
    case .any: .list(.any)
    case .optional(let wrapped): wrapped.searched
    default: nil
    }
  }

  enum Searched {
    case list(FieldKind)
    case string
  }
}
