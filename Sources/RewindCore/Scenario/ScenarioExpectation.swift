/// A line of a scenario script that asserts something about the event before it:
/// `expect split.selectedItem == espresso-machines/leva/leva-x` (a condition of `find`'s
/// language on the state after it), `expect rejected`, `expect unchanged`. `rewind record`
/// checks each after its event and stops at the first that fails.
public struct ScenarioExpectation: Sendable, Equatable {
  /// What is expected.
  public enum Kind: Sendable, Equatable {
    /// The condition holds on the state after the event (on the initial state before
    /// any event); `changed(PATH)` holds when the event changed the field.
    case condition(Condition)
    /// The event was rejected.
    case rejected
    /// The event was accepted and changed nothing.
    case unchanged
  }

  public var kind: Kind
  /// The script's line, for messages.
  public var line: Int
  /// How many events come before it: it is checked after event `afterEvents`.
  public var afterEvents: Int

  public init(_ kind: Kind, line: Int, afterEvents: Int) {
    self.kind = kind
    self.line = line
    self.afterEvents = afterEvents
  }

  /// Parses the text after `expect` and checks a condition against the domain's fields
  /// (as `find` does).
  /// - Parameters:
  ///   - text: what follows `expect`.
  ///   - domain: the domain whose fields and values a condition names.
  ///   - line: the script's line the expectation is on.
  ///   - column: where `text` starts on its line.
  ///   - afterEvents: how many events the script has before it.
  /// - Throws: ``ScenarioError`` at the column of the problem.
  public static func parse<D: Domain>(
    _ text: String, domain: D, line: Int, column: Int, afterEvents: Int
  ) throws(ScenarioError) -> ScenarioExpectation {
    let trimmed = text.trimmingWhitespace()
    switch trimmed {
    case "rejected", "unchanged":
      guard afterEvents > 0 else {
        throw ScenarioError(
          line: line, column: column, "'expect \(trimmed)' needs an event before it")
      }
      return ScenarioExpectation(
        trimmed == "rejected" ? .rejected : .unchanged, line: line, afterEvents: afterEvents)
    case "":
      throw ScenarioError(
        line: line, column: column,
        "expected 'rejected', 'unchanged' or a condition (\(Condition.syntax)) after 'expect'")
    default:
      let written: WrittenCondition
      let evaluator: ConditionEvaluator<D>
      do throws(ConditionError) {
        written = try WrittenCondition(parsing: trimmed)
        evaluator = try ConditionEvaluator(written, in: domain)
      } catch {
        let offset = text.prefix { $0.isWhitespace }.count
        throw ScenarioError(
          line: line, column: column + offset + error.column - 1,
          error.message + (error.meant.map { ". Did you mean '\($0)'?" } ?? ""))
      }
      if evaluator.isAboutEvents, afterEvents == 0 {
        throw ScenarioError(
          line: line, column: column,
          "'expect \(trimmed)' names the event (event, outcome, reason or changed(…)) and needs an event before it"
        )
      }
      return ScenarioExpectation(
        .condition(written.condition), line: line, afterEvents: afterEvents)
    }
  }

  /// Why the expectation fails after an event, nil when it holds, on one line: the
  /// expectation, what was found (the values of the fields it names), and the fields the
  /// event changed (`path old → new`).
  /// - Parameters:
  ///   - domain: the domain that reduced the event.
  ///   - event: the event; nil before any event (or when it is not known: then a
  ///     condition on the event's kind sees none).
  ///   - outcome: the event's outcome; nil before any event.
  ///   - before: the state before the event.
  ///   - after: the state after it.
  public func failure<D: Domain>(
    domain: D, event: D.Event? = nil, outcome: Outcome<D.Rejection>?, before: D.State,
    after: D.State
  ) -> String? {
    var found: String
    switch kind {
    case .rejected:
      guard let outcome, !outcome.isRejected else { return nil }
      found = "the event was \(outcome.name)"
    case .unchanged:
      switch outcome {
      case .unchanged?, nil: return nil
      case .applied?: found = "the event was applied"
      case .rejected(let reason)?: found = "the event was rejected (\(reason))"
      }
    case .condition(let condition):
      guard let evaluator = try? ConditionEvaluator(condition, in: domain) else { return nil }
      let replayed = event.map {
        ReplayedEvent<D>(
          sequence: UInt64(afterEvents), time: 0, event: $0, outcome: outcome,
          recorded: RecordedEffect(kind: .applied, changed: []))
      }
      if evaluator.holds(after: replayed, previous: outcome == nil ? nil : before, state: after) {
        return nil
      }
      let values = zip(evaluator.compiled.paths, evaluator.compiled.fields).map { path, index in
        "\(path) is \(domain.fields[index].value(after).compactText)"
      }
      found = values.isEmpty ? "it does not hold" : values.joined(separator: ", ")
    }
    var text = "expected \(description), but \(found)"
    if outcome != nil {
      let changes = domain.diff(before, after).map {
        "\($0.path) \($0.old.compactText) → \($0.new.compactText)"
      }
      text +=
        changes.isEmpty
        ? "; the event changed nothing" : "; the event changed " + changes.joined(separator: ", ")
    }
    return text
  }

  /// `rejected`, `unchanged` or the condition.
  public var description: String {
    switch kind {
    case .rejected: "rejected"
    case .unchanged: "unchanged"
    case .condition(let condition): condition.description
    }
  }
}
