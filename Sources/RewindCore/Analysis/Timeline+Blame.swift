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
  /// still has its initial value, or when that event cannot be known (``lostEvents``).
  public var event: ReplayedEvent<D>?
  /// In a salvaged journal, events lost to damage after which no event up to the point
  /// changed the field (added or removed the element): the event that set it may have
  /// been among them, so it cannot be known, and ``event`` is nil. Nil otherwise.
  public var lostEvents: ClosedRange<UInt64>?
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
        "\(Format.quoted(text)) is not a field or an element: write PATH or PATH[ELEMENT], the element between [ and ] at the end"
      )
    }
    path = String(text[..<open])
    let inside = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
    guard !inside.isEmpty else {
      throw RewindError(
        .invalidInput, "\(Format.quoted(text)) names no element: write the element between [ and ]")
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
  /// Replays backwards a window at a time: the last snapshot interval up to `sequence`
  /// first, then windows twice as long as the one before (up to 2^20 events), each
  /// replayed forwards by the domain's own loop, until an event changed the field or the
  /// start is reached. In a salvaged journal, when it reaches events lost to damage first (no
  /// event after them changed the field), the answer depends on them: the event that set
  /// the value may have been one of them, so it is not named (an event before them would
  /// be a wrong answer whenever a lost one set the value), and ``Blame/lostEvents`` says
  /// so.
  /// - Throws: ``RewindError`` `invalidInput` for an unknown path, an element of a field
  ///   that is not an array, or an element of the wrong kind; `eventsLost` for a point
  ///   among events lost to damage.
  /// - Complexity: O(events since the last change), in windows of one snapshot interval
  ///   and more.
  public func blame(_ path: String, at sequence: UInt64) throws -> Blame<D> {
    try blame(path, at: sequence, largestWindow: Self.blameWindow)
  }

  /// ``blame(_:at:)`` in windows of at most `largestWindow` events (for the tests).
  package func blame(_ path: String, at sequence: UInt64, largestWindow: UInt64) throws
    -> Blame<D>
  {
    let target = try BlameTarget(parsing: path)
    let probe = try probe(for: target, at: sequence)
    let value = probe.read(try state(after: sequence))
    var event: ReplayedEvent<D>?
    let (_, lost) = try changesBackwards(
      probe, before: sequence, limit: 1, largestWindow: largestWindow,
      stoppingAtLostEvents: true
    ) { event = event ?? $0.first?.event }
    return Blame(
      path: target.path, element: target.element, value: value, event: event, lostEvents: lost)
  }

  /// Every event at or before event `sequence` that changed the field at `path` (or, for
  /// `PATH[ELEMENT]`, that added or removed the element), newest first, with the values
  /// before and after it.
  ///
  /// Replays backwards a window at a time, as ``blame(_:at:)`` does, each window once,
  /// collecting its changes; stops at the start, or as soon as `limit` changes are
  /// found. In a salvaged journal it goes on past events lost to damage, as
  /// `find` and `log` do: the window after them starts from the snapshot stored after
  /// them (so the change after them is from the value there), the one before them ends
  /// at the event before them. The changes are those of the events kept;
  /// ``lostEvents(in:)`` names the others (those after the oldest change listed, when
  /// `limit` stopped it).
  /// - Parameters:
  ///   - path: the field, or `PATH[ELEMENT]`.
  ///   - sequence: the point to look back from.
  ///   - limit: the most changes to return (the newest).
  /// - Throws: ``RewindError`` as ``blame(_:at:)``.
  /// - Complexity: O(`sequence`) events for the whole history; with a limit, O(events
  ///   since the `limit`-th newest change), in windows of one snapshot interval and more.
  public func blameHistory(_ path: String, at sequence: UInt64, limit: Int = .max) throws
    -> [BlameChange<D>]
  {
    try blameHistory(path, at: sequence, limit: limit, largestWindow: Self.blameWindow)
  }

  /// ``blameHistory(_:at:limit:)`` in windows of at most `largestWindow` events (for the
  /// tests).
  package func blameHistory(
    _ path: String, at sequence: UInt64, limit: Int = .max, largestWindow: UInt64
  ) throws -> [BlameChange<D>] {
    var found: [BlameChange<D>] = []
    _ = try blameHistory(path, at: sequence, limit: limit, largestWindow: largestWindow) {
      found += $0
    }
    return found
  }

  /// ``blameHistory(_:at:limit:)`` handed to `body` as it is found, a window's changes at a
  /// time (newest first, each window older than the one before): memory holds one
  /// window's, however many changes there are; returns how many were handed on. Windows
  /// are at most `largestWindow` events (by default ``blameHistoryWindow``).
  package func blameHistory(
    _ path: String, at sequence: UInt64, limit: Int = .max, largestWindow: UInt64? = nil,
    _ body: ([BlameChange<D>]) throws -> Void
  ) throws -> Int {
    let probe = try probe(for: BlameTarget(parsing: path), at: sequence)
    try checkScanStart(sequence)
    return try changesBackwards(
      probe, before: sequence, limit: limit,
      largestWindow: largestWindow ?? Self.blameHistoryWindow, body
    ).count
  }

  /// The most events a window of a whole history holds: its changes are held at once
  /// (a few hundred bytes each), where one change is looked for in windows of
  /// ``blameWindow``.
  package static var blameHistoryWindow: UInt64 { 1 << 16 }

  /// The most events a window of blame's replays (``changesBackwards``) holds.
  package static var blameWindow: UInt64 { 1 << 20 }

  /// The field index a target watches and how its value is read from a state; `sequence`,
  /// the point asked about, is read only to suggest an element in an error.
  private func probe(for target: BlameTarget, at sequence: UInt64) throws(RewindError)
    -> BlameProbe<D>
  {
    let index = try domain.fieldIndex(of: target.path)
    let field = domain.fields[index]
    guard let element = target.element else {
      return BlameProbe(field: index, read: field.value)
    }
    var kind = field.kind
    // A list or null (what the default fields infer for an array): null holds no element.
    if case .optional(let wrapped) = kind { kind = wrapped }
    switch kind {
    case .list(let elementKind):
      if let problem = domain.problem(
        with: element, kind: elementKind, path: target.path,
        holder: "each element of \(target.path) is")
      {
        throw elementError(target, element, problem, field: index, at: sequence)
      }
    case .any: break
    default:
      throw RewindError(
        .invalidInput,
        "\(target.path) holds \(field.kind), which has no elements: only a list field has; blame \(target.path) itself"
      )
    }
    let read = field.value
    return BlameProbe(field: index) { state in
      guard case .array(let elements) = read(state) else { return false }
      return .bool(elements.contains(element))
    }
  }

  /// The error for an element of the wrong kind, with a whole `PATH[ELEMENT]` to type as
  /// the suggestion. A number where the elements are not numbers is read as a position
  /// (`menu.labels[0]`, as an index is written elsewhere): the message says an element is
  /// named by its value and suggests the element at that position at the point (or the
  /// first one), else the whole field.
  private func elementError(
    _ target: BlameTarget, _ element: JSONValue, _ problem: ValueProblem, field index: Int,
    at sequence: UInt64
  ) -> RewindError {
    let path = target.path
    var message =
      "\(Format.quoted(element.stringValue ?? element.compactText)) cannot be an element of \(path): "
    guard case .int(let position) = element else {
      message += problem.message
      if let suggestion = problem.suggestion {
        // `a' or 'b` when there are several.
        let targets = suggestion.split(separator: "' or '").map { "\(path)[\($0)]" }
        message += ". Did you mean '\(targets.joined(separator: "' or '"))'?"
      }
      return RewindError(.invalidInput, message)
    }
    message +=
      "an element is written as its value, not its position, and \(problem.message)"
    let elements: [JSONValue]
    if let state = try? state(after: sequence),
      case .array(let values) = domain.fields[index].value(state)
    {
      elements = values
    } else {
      elements = []
    }
    guard !elements.isEmpty else {
      return RewindError(.invalidInput, message + "; blame \(path) for the whole array")
    }
    let inRange = position >= 0 && position < Int64(elements.count)
    let example = elements[inRange ? Int(position) : 0]
    let written =
      if case .string(let text) = example, (try? JSONValue(parsing: text)) == nil {
        text
      } else {
        example.compactText
      }
    let which = inRange ? "the element at position \(position)" : "the first element"
    return RewindError(
      .invalidInput,
      message + ". Did you mean '\(path)[\(Format.quoted(written, quote: ""))]' (\(which))?")
  }

  /// The changes of the probe's value at or before event `sequence`, newest first, at most
  /// `limit`, handed to `body` a window's at a time (none for a window without one):
  /// replaying backwards a window at a time, going on past events lost to damage (from
  /// the snapshot stored after them), or, `stoppingAtLostEvents`, stopping at the first
  /// it reaches and returning them. Returns how many changes were handed on.
  ///
  /// Each window is replayed forwards by the domain's own loop (``Domain/scans``,
  /// specialised for it: no call an event), from the state at its start; a window is one
  /// snapshot interval, then twice the one before, up to `largestWindow` events (2^20),
  /// so that a change far back costs few seeks, and a recent one one interval.
  private func changesBackwards(
    _ probe: BlameProbe<D>, before sequence: UInt64, limit: Int, largestWindow: UInt64,
    stoppingAtLostEvents: Bool = false, _ body: ([BlameChange<D>]) throws -> Void
  ) throws -> (count: Int, stoppedAt: ClosedRange<UInt64>?) {
    var found = 0
    var end = sequence
    let interval = UInt64(max(header.snapshotInterval, 1))
    var window = interval
    while end > 0, found < limit {
      if let lost = reader.lostRange(containing: end) {
        if stoppingAtLostEvents { return (found, lostEvents(in: 0...end).last ?? lost) }
        end = lost.lowerBound - 1
        continue
      }
      // From a multiple of the snapshot interval (where snapshots are stored, so that the
      // replay starts there); not back across events lost to damage: the state after them
      // is the snapshot stored after them, where this window starts.
      var start = end > window ? (end - window) / interval * interval : 0
      if let lost = lostEvents(in: 0...end).last { start = max(start, lost.upperBound) }
      var current = JSONValue.null
      var changes: [BlameChange<D>] = []
      try D.scans.fieldChanges(self, (start + 1)...end, probe.field) { state in
        current = probe.read(state)
      } _: { event, state in
        let value = probe.read(state)
        guard !value.isWrittenAs(current) else { return }
        // The newest `limit` are kept (a window may hold more changes).
        if changes.count == limit - found { changes.removeFirst() }
        changes.append(BlameChange(event: event, old: current, new: value))
        current = value
      }
      if !changes.isEmpty {
        try body(changes.reversed())
        found += changes.count
      }
      end = start
      window = min(window * 2, max(largestWindow, interval))
    }
    return (found, nil)
  }
}

/// What blame watches: a field's index, to skip the events that did not change it, and
/// the value compared before and after each that did.
private struct BlameProbe<D: Domain> {
  var field: Int
  var read: @Sendable (D.State) -> JSONValue
}
