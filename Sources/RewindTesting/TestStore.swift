public import RewindCore
public import Testing

/// Sends events to a domain's reducer one at a time and checks each step: its outcome,
/// and exactly what it changed, in the style of TCA's `TestStore`.
///
/// ```swift
/// @Test func selectingACategory() {
///   let domain = NavigationDomain()
///   let grinders = domain.ref("grinders")
///   let vulcano = domain.ref("grinders/vulcano")
///   let store = TestStore(domain)
///   store.send(.categorySelected(grinders)) {
///     $0.split.selectedCategory = grinders
///   }
///   store.send(.itemExpanded(vulcano), rejected: .notExpandable)
/// }
/// ```
///
/// A step's closure states the change: it receives the state before the step and sets
/// what the event should have changed. With ``Exhaustivity/exhaustive`` (the default)
/// the state after the event must be exactly that: a field the event changed and the
/// closure did not state fails the test, as does a field the closure stated and the
/// event did not change. A step with no closure states that nothing changed. With
/// ``Exhaustivity/partial`` (for long tests that care about a few fields) only the
/// fields the closure sets are compared with the state after the event: there the
/// closure receives the state after the event, and sets the values those fields must
/// have (`$0.count = 3`; a change relative to the value, `$0.count += 1`, applies to the
/// new value and fails).
///
/// Failures are Swift Testing issues (`Issue.record`) at the source location of the
/// `send` call, one per problem, each with a field-by-field diff (the domain's
/// `Domain.fields`, compared as `Domain.diff(_:_:)` compares them). A failure does
/// not throw: the store goes on from the state the reducer actually produced, so one
/// run reports every step that differs, as TCA's store does. `send` rethrows only what
/// the closure throws (a closure may `try #require(…)`).
///
/// The store also checks the domain's own report: an event reported applied must change
/// the state, and one reported unchanged or rejected must leave it as it was.
///
/// A store belongs to one test: it is a class with mutable state, not `Sendable`.
public final class TestStore<D: Domain> {
  /// How much of each step's change a test must state.
  public enum Exhaustivity: Sendable, Equatable {
    /// The closure states the whole change: any other difference fails.
    case exhaustive
    /// Only the fields the closure sets are compared; others may change unstated. The
    /// closure receives the state after the event and sets the values its fields must
    /// have (not changes relative to them).
    case partial
  }

  /// The domain whose reducer runs.
  public let domain: D
  /// The state after the last step (the state the reducer produced, even after a
  /// failure).
  public private(set) var state: D.State
  /// How much of each step's change a test must state; may change between steps.
  public var exhaustivity: Exhaustivity
  /// How many events have been sent.
  public private(set) var stepCount = 0
  /// Where failures go: Swift Testing issues, or a test's own list.
  let report: (String, SourceLocation) -> Void

  /// A store at `state` (the domain's initial state by default).
  /// - Parameters:
  ///   - domain: the domain whose reducer runs.
  ///   - state: the state before the first step; `Domain.initialState` by default.
  ///   - exhaustivity: ``Exhaustivity/exhaustive`` by default.
  public convenience init(
    _ domain: D, state: D.State? = nil, exhaustivity: Exhaustivity = .exhaustive
  ) {
    self.init(domain, state: state, exhaustivity: exhaustivity) { message, location in
      Issue.record(Comment(rawValue: message), sourceLocation: location)
    }
  }

  /// A store that hands its failures to `report` rather than to Swift Testing: for the
  /// store's own tests.
  package init(
    _ domain: D, state: D.State? = nil, exhaustivity: Exhaustivity = .exhaustive,
    report: @escaping (String, SourceLocation) -> Void
  ) {
    self.domain = domain
    self.state = state ?? domain.initialState
    self.exhaustivity = exhaustivity
    self.report = report
  }

  /// Sends an event that must not be rejected, and checks its change.
  ///
  /// - Parameters:
  ///   - event: the event.
  ///   - sourceLocation: where a failure is reported: the caller's line unless given.
  ///   - change: sets, on the state before the event, what the event should change.
  /// - Returns: the outcome the reducer reported.
  /// - Throws: only what `change` throws; failures are recorded as issues.
  @discardableResult
  public func send(
    _ event: D.Event, sourceLocation: SourceLocation = #_sourceLocation,
    _ change: (inout D.State) throws -> Void
  ) rethrows -> Outcome<D.Rejection> {
    try step(event, expecting: nil, sourceLocation: sourceLocation, change)
  }

  /// Sends an event and checks that the reducer reports `outcome` (`.applied`,
  /// `.unchanged`, or `.rejected` with its reason), then checks its change as
  /// ``send(_:sourceLocation:_:)`` does.
  @discardableResult
  public func send(
    _ event: D.Event, _ outcome: Outcome<D.Rejection>,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ change: (inout D.State) throws -> Void
  ) rethrows -> Outcome<D.Rejection> {
    try step(event, expecting: outcome, sourceLocation: sourceLocation, change)
  }

  /// Sends an event that must not be rejected and must change nothing (in
  /// ``Exhaustivity/partial`` mode: must not be rejected).
  @discardableResult
  public func send(_ event: D.Event, sourceLocation: SourceLocation = #_sourceLocation)
    -> Outcome<D.Rejection>
  {
    step(event, expecting: nil, sourceLocation: sourceLocation) { _ in }
  }

  /// Sends an event whose outcome must be `outcome` and that must change nothing (in
  /// ``Exhaustivity/partial`` mode: whose outcome must be `outcome`).
  @discardableResult
  public func send(
    _ event: D.Event, _ outcome: Outcome<D.Rejection>,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Outcome<D.Rejection> {
    step(event, expecting: outcome, sourceLocation: sourceLocation) { _ in }
  }

  /// Sends an event that must be rejected for `reason`, leaving the state as it was.
  @discardableResult
  public func send(
    _ event: D.Event, rejected reason: D.Rejection,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Outcome<D.Rejection> {
    step(event, expecting: .rejected(reason), sourceLocation: sourceLocation) { _ in }
  }

  /// Checks the current state against a statement of some of its fields, whatever the
  /// exhaustivity: `store.assert { $0.split.selectedItem = leva }` fails if the field
  /// holds anything else.
  public func assert(
    sourceLocation: SourceLocation = #_sourceLocation, _ statement: (inout D.State) throws -> Void
  ) rethrows {
    var stated = state
    try statement(&stated)
    let differences = domain.diff(state, stated)
    if !differences.isEmpty {
      report(
        Self.diffMessage("the state differs from what the test states", differences, flip: true),
        sourceLocation)
    } else if stated != state {
      report("the state differs from what the test states, outside its fields", sourceLocation)
    }
  }

  func step(
    _ event: D.Event, expecting outcome: Outcome<D.Rejection>?, sourceLocation: SourceLocation,
    _ change: (inout D.State) throws -> Void
  ) rethrows -> Outcome<D.Rejection> {
    stepCount += 1
    let before = state
    var after = state
    let actual = domain.reduce(&after, event)
    state = after
    let what = "step \(stepCount), \(domain.describe(event))"
    if let outcome, outcome != actual {
      report("\(what): expected \(Self.name(outcome)), got \(Self.name(actual))", sourceLocation)
    } else if outcome == nil, case .rejected = actual {
      report("\(what): expected the event to be accepted, got \(Self.name(actual))", sourceLocation)
    }
    switch actual {
    case .applied where after == before:
      report("\(what): the domain reported applied but changed nothing", sourceLocation)
    case .unchanged where after != before, .rejected where after != before:
      report("\(what): the domain reported \(actual.name) but changed the state", sourceLocation)
    default: break
    }
    switch exhaustivity {
    case .exhaustive:
      var expected = before
      try change(&expected)
      let differences = domain.diff(expected, after)
      if !differences.isEmpty {
        report(
          Self.diffMessage("\(what): the step changed more or less than stated", differences),
          sourceLocation)
      } else if expected != after {
        report(
          "\(what): the state differs from the stated change outside the domain's fields",
          sourceLocation)
      }
    case .partial:
      // Setting the stated fields on the actual state must change nothing.
      var stated = after
      try change(&stated)
      let differences = domain.diff(stated, after)
      if !differences.isEmpty {
        report(
          Self.diffMessage("\(what): a stated field differs", differences), sourceLocation)
      }
    }
    return actual
  }

  /// `title`, then each field as
  /// ```
  ///   split.selectedItem
  ///     expected: null
  ///     actual:   "grinders/swift"
  /// ```
  /// from changes whose `old` is the expected value and `new` the actual one (swapped
  /// with `flip`).
  static func diffMessage(_ title: String, _ changes: [FieldChange], flip: Bool = false) -> String {
    var lines = [title + ":"]
    for change in changes {
      let (expected, actual) = flip ? (change.new, change.old) : (change.old, change.new)
      lines.append("  \(change.path)")
      lines.append("    expected: \(expected.compactText)")
      lines.append("    actual:   \(actual.compactText)")
    }
    return lines.joined(separator: "\n")
  }

  static func name(_ outcome: Outcome<D.Rejection>) -> String {
    switch outcome {
    case .applied, .unchanged: outcome.name
    case .rejected(let reason): "rejected (\(reason))"
    }
  }
}
