/// Which event last changed a field, or last added or removed an element of an array
/// field.
public struct Blame<D: Domain>: Sendable {
  public var path: String
  /// The element asked about (`split.expanded[espresso-machines/leva]`), nil for a whole
  /// field.
  public var element: JSONValue?
  /// The field's value at the point asked about; for an element, whether the array holds
  /// it there (`true` or `false`).
  public var value: JSONValue
  /// The event that set it (for an element, that added or removed it), or nil when it
  /// still has its initial value.
  public var event: ReplayedEvent<D>?
}

/// One event that changed a field (or added or removed an element of an array field),
/// with the values before and after it: a line of `blame --history`.
public struct BlameChange<D: Domain>: Sendable {
  public var event: ReplayedEvent<D>
  /// The value before the event and after it; for an element, whether the array held it
  /// (`false` → `true`: added, `true` → `false`: removed).
  public var old: JSONValue
  public var new: JSONValue
}

/// What `blame` looks at: a state field (`split.selectedItem`), or whether an array field
/// holds an element (`split.expanded[espresso-machines/leva]`).
public struct BlameTarget: Sendable, Equatable, CustomStringConvertible {
  /// The field's dotted path.
  public var path: String
  /// The element, nil for the whole field.
  public var element: JSONValue?

  /// Reads `PATH` or `PATH[ELEMENT]`; the element is JSON (`3`, `"a b"`) or a bare word,
  /// read as a string, as a condition's value is.
  /// - Throws: ``RewindError`` `invalidInput` for an empty element or a `[` without its
  ///   `]`.
  public init(parsing text: String) throws(RewindError) {
    guard let open = text.firstIndex(of: "[") else {
      path = text
      element = nil
      return
    }
    guard text.last == "]" else {
      throw RewindError(
        .invalidInput,
        "'\(text)' is not a field or an element: write PATH or PATH[ELEMENT], the element between [ and ] at the end"
      )
    }
    path = String(text[..<open])
    let inside = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
    guard !inside.isEmpty else {
      throw RewindError(
        .invalidInput, "'\(text)' names no element: write the element between [ and ]")
    }
    element = (try? JSONValue(parsing: inside)) ?? .string(inside)
  }

  public init(path: String, element: JSONValue? = nil) {
    self.path = path
    self.element = element
  }

  /// `split.expanded[espresso-machines/leva]`: the element as written when it is a
  /// string, as JSON otherwise.
  public var description: String {
    guard let element else { return path }
    return "\(path)[\(element.stringValue ?? element.compactText)]"
  }
}

extension Timeline {
  /// The event that last changed the field at `path` (or, for `PATH[ELEMENT]`, last added
  /// or removed the element of the array field), at or before event `sequence`.
  ///
  /// Replays backwards one snapshot interval at a time: the interval holding `sequence`
  /// first, then the one before it, until an event changed the field or the start is
  /// reached.
  /// - Throws: ``RewindError`` `invalidInput` for an unknown path, an element of a field
  ///   that is not an array, or an element of the wrong kind.
  /// - Complexity: O(events since the last change), in steps of one snapshot interval.
  public func blame(_ path: String, at sequence: UInt64) throws -> Blame<D> {
    let target = try BlameTarget(parsing: path)
    let probe = try probe(for: target)
    let value = probe.read(try state(after: sequence))
    let last = try changesBackwards(probe, before: sequence, limit: 1).first
    return Blame(path: target.path, element: target.element, value: value, event: last?.event)
  }

  /// Every event at or before event `sequence` that changed the field at `path` (or, for
  /// `PATH[ELEMENT]`, that added or removed the element), newest first, with the values
  /// before and after it.
  ///
  /// Replays backwards one snapshot interval at a time, as ``blame(_:at:)`` does, each
  /// interval once, collecting its changes; stops at the start, or as soon as `limit`
  /// changes are found.
  /// - Parameters:
  ///   - path: the field, or `PATH[ELEMENT]`.
  ///   - sequence: the point to look back from.
  ///   - limit: the most changes to return (the newest).
  /// - Throws: ``RewindError`` as ``blame(_:at:)``.
  /// - Complexity: O(`sequence`) events for the whole history; with a limit, O(events
  ///   since the `limit`-th newest change), in steps of one snapshot interval.
  public func blameHistory(_ path: String, at sequence: UInt64, limit: Int = .max) throws
    -> [BlameChange<D>]
  {
    let probe = try probe(for: BlameTarget(parsing: path))
    try checkInSession(sequence)
    return try changesBackwards(probe, before: sequence, limit: limit)
  }

  /// The field index a target watches and how its value is read from a state.
  private func probe(for target: BlameTarget) throws(RewindError) -> BlameProbe<D> {
    let index = try domain.fieldIndex(of: target.path)
    let field = domain.fields[index]
    guard let element = target.element else {
      return BlameProbe(field: index, read: field.value)
    }
    let kind = field.kind
    switch kind {
    case .list(let elementKind):
      if let problem = domain.problem(
        with: element, kind: elementKind, path: target.path,
        holder: "each element of \(target.path) is")
      {
        throw RewindError(
          .invalidInput,
          "'\(element.stringValue ?? element.compactText)' cannot be an element of \(target.path): \(problem.message)"
            + (problem.suggestion.map { ". Did you mean '\($0)'?" } ?? ""))
      }
    case .any: break
    default:
      throw RewindError(
        .invalidInput,
        "\(target.path) holds \(kind), not an array: only an array field has elements; blame \(target.path) itself"
      )
    }
    let read = field.value
    return BlameProbe(field: index) { state in
      guard case .array(let elements) = read(state) else { return false }
      return .bool(elements.contains(element))
    }
  }

  /// The changes of the probe's value at or before event `sequence`, newest first, at most
  /// `limit`: replaying backwards one snapshot interval at a time.
  private func changesBackwards(_ probe: BlameProbe<D>, before sequence: UInt64, limit: Int)
    throws -> [BlameChange<D>]
  {
    var found: [BlameChange<D>] = []
    var end = sequence
    while end > 0, found.count < limit {
      var (replayer, state) = try replayer(toReach: end - 1)
      let start = replayer.sequence
      var current = probe.read(state)
      var interval: [BlameChange<D>] = []
      while replayer.sequence < end,
        let (event, changed) = try replayer.step(&state, trackChanges: true)
      {
        guard changed.contains(probe.field) else { continue }
        let value = probe.read(state)
        if !value.isWrittenAs(current) {
          interval.append(BlameChange(event: event, old: current, new: value))
          current = value
        }
      }
      found += interval.reversed().prefix(limit - found.count)
      end = start
    }
    return found
  }
}

/// What blame watches: a field's index, to skip the events that did not change it, and
/// the value compared before and after each that did.
private struct BlameProbe<D: Domain> {
  var field: Int
  var read: @Sendable (D.State) -> JSONValue
}
