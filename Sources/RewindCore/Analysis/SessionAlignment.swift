import RewindJournal

/// Where two recordings of the same scenario first took different paths, and whether they
/// came back together: what `rewind diff A B --align` reports.
///
/// The alignment rule: the sessions are walked side by side, event *n* of one beside
/// event *n* of the other, as long as the two events are the same (compared as JSON,
/// their times ignored) and the states after them are the same (compared field by field
/// as JSON, so that two sessions with different settings compare by ids). The first pair
/// where the events or the states differ is the divergence (a session that ends first
/// diverges where it has no event left; sessions whose initial states differ diverge at
/// point 0). From there on each session goes its own way, and they *rejoin* at the first
/// pair of points, one in each, whose states are equal: found by walking both forward
/// together and remembering the states of the last `window` points of each, so that one
/// session may take up to `window` more (or fewer) events to get back.
public struct SessionAlignment<D: Domain>: Sendable {
  /// One side's event at the divergence.
  public struct Step: Sendable {
    public var event: ReplayedEvent<D>
    /// The event's JSON, as its session's domain writes it.
    public var json: JSONValue
  }

  /// The points both sessions share: events 1…`commonEvents` are the same, with the same
  /// states after them.
  public var commonEvents: UInt64
  /// Whether the sessions never part: same events, same states, same length.
  public var isSamePath: Bool { divergence == nil }
  /// Where they first differ: the event there in each (nil for a session that has ended,
  /// or at point 0), and how the states after them differ (left `old`, right `new`).
  public var divergence: (left: Step?, right: Step?, differences: [FieldChange])?
  /// Where they come back together after the divergence: the points (one in each) whose
  /// states are equal; nil when they do not within the window.
  public var rejoin: (left: UInt64, right: UInt64)?
  /// How the end states differ (empty when equal).
  public var endDifferences: [FieldChange]
  /// The sessions' lengths.
  public var leftEvents: UInt64
  public var rightEvents: UInt64
}

extension Timeline {
  /// Aligns this session (the left) with `other` (the right) by event, by the rule of
  /// ``SessionAlignment``.
  ///
  /// - Parameters:
  ///   - other: the other session, of the same domain (its settings may differ).
  ///   - window: how many points of each session are remembered while looking for the
  ///     rejoin: one session may take up to this many more events than the other.
  /// - Throws: ``RewindError`` when a journal cannot be replayed.
  /// - Complexity: O(events of both) steps. Up to the divergence, sessions with the same
  ///   settings compare events and states with `==`, others as JSON; after it, each
  ///   step writes the state's fields as JSON, one text in a reused writer, to look it up
  ///   by a hash of it among the O(`window`) states kept.
  public func align(with other: Timeline<D>, window: Int = 1_024) throws -> SessionAlignment<D> {
    let left = domain
    let right = other.domain
    var (leftReplayer, leftState) = try replayer(toReach: 0)
    var (rightReplayer, rightState) = try other.replayer(toReach: 0)
    var alignment = SessionAlignment<D>(
      commonEvents: 0, divergence: nil, rejoin: nil, endDifferences: [],
      leftEvents: lastSequence, rightEvents: other.lastSequence)
    // Sessions with the same settings compare their events and states directly; others
    // through JSON, by ids.
    let sameSettings = left.settingsJSON == right.settingsJSON
    // The fields' JSON, a line each, in one writer (not the state's JSON: a domain's
    // fields may be fewer than its JSON's leaves, or map them).
    let (leftFields, rightFields) = (left.fields, right.fields)
    var text = JSONWriter(capacity: 4096)
    func key(_ state: D.State, _ fields: [StateField<D.State>]) -> StateKey {
      text.removeAll()
      for field in fields {
        text.value(field.value(state))
        text.newline()
      }
      return StateKey(text.bytes)
    }
    func sameStates() -> Bool {
      sameSettings
        ? leftState == rightState : key(leftState, leftFields) == key(rightState, rightFields)
    }
    var parted = !sameStates()
    if parted {
      alignment.divergence = (nil, nil, Self.differences(leftState, left, rightState, right))
    }
    // Walk side by side until they part.
    while !parted {
      let leftStep = try leftReplayer.step(&leftState, trackChanges: false)
      let rightStep = try rightReplayer.step(&rightState, trackChanges: false)
      if leftStep == nil && rightStep == nil { break }
      if let (leftEvent, _) = leftStep, let (rightEvent, _) = rightStep,
        sameSettings
          ? leftEvent.event == rightEvent.event
          : left.json(leftEvent.event) == right.json(rightEvent.event),
        sameStates()
      {
        alignment.commonEvents += 1
        continue
      }
      parted = true
      alignment.divergence = (
        leftStep.map { SessionAlignment<D>.Step(event: $0.0, json: left.json($0.0.event)) },
        rightStep.map { SessionAlignment<D>.Step(event: $0.0, json: right.json($0.0.event)) },
        Self.differences(leftState, left, rightState, right)
      )
    }
    guard parted else { return alignment }
    var leftKey = key(leftState, leftFields)
    var rightKey = key(rightState, rightFields)
    // Each session on its own: the first pair of points with equal states.
    let window = UInt64(max(window, 1))
    var leftSeen = StateMemory(window: window)
    var rightSeen = StateMemory(window: window)
    leftSeen.remember(leftKey, at: leftReplayer.sequence)
    rightSeen.remember(rightKey, at: rightReplayer.sequence)
    while alignment.rejoin == nil {
      if let point = rightSeen.point(of: leftKey, near: leftReplayer.sequence) {
        alignment.rejoin = (leftReplayer.sequence, point)
        break
      }
      if let point = leftSeen.point(of: rightKey, near: rightReplayer.sequence) {
        alignment.rejoin = (point, rightReplayer.sequence)
        break
      }
      let leftMoved = try leftReplayer.step(&leftState, trackChanges: false) != nil
      let rightMoved = try rightReplayer.step(&rightState, trackChanges: false) != nil
      guard leftMoved || rightMoved else { break }
      if leftMoved {
        leftKey = key(leftState, leftFields)
        leftSeen.remember(leftKey, at: leftReplayer.sequence)
      }
      if rightMoved {
        rightKey = key(rightState, rightFields)
        rightSeen.remember(rightKey, at: rightReplayer.sequence)
      }
      // A session that has ended is left behind: once the other is more than the window
      // past its last point, no pair is near enough.
      let (ahead, behind) =
        leftReplayer.sequence > rightReplayer.sequence
        ? (leftReplayer.sequence, rightReplayer.sequence)
        : (rightReplayer.sequence, leftReplayer.sequence)
      if !(leftMoved && rightMoved), ahead - behind > window { break }
    }
    let leftEnd = try state(after: lastSequence)
    let rightEnd = try other.state(after: other.lastSequence)
    alignment.endDifferences = Self.differences(leftEnd, left, rightEnd, right)
    return alignment
  }

  /// The fields that differ between a state of each session (left `old`, right `new`).
  private static func differences(
    _ leftState: D.State, _ left: D, _ rightState: D.State, _ right: D
  )
    -> [FieldChange]
  {
    left.fields.indices.compactMap { index in
      let old = left.fields[index].value(leftState)
      let new = right.fields[index].value(rightState)
      return old.isWrittenAs(new)
        ? nil : FieldChange(path: left.fields[index].path, old: old, new: new)
    }
  }
}

/// A state's fields as JSON text, a line each: equal for equal states of two sessions,
/// whatever their settings (their ids, not the catalogs' numbers); looked up by a hash of
/// it, compared whole.
private struct StateKey: Hashable {
  let hash: UInt64
  let text: [UInt8]

  init(_ text: [UInt8]) {
    self.text = text
    hash = XXH64.hash(text)
  }

  static func == (left: StateKey, right: StateKey) -> Bool {
    left.hash == right.hash && left.text == right.text
  }

  func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

/// The states of a session's last points, by their JSON: where a rejoin is looked
/// up. It remembers the last `window` points; a state is found at the first of them that
/// is within `window` events of the other session's point.
private struct StateMemory {
  /// The points remembered and those forgotten but not yet dropped, from `dropped` on:
  /// each with its state and the number of the next point of the same state, if any.
  private var entries: [(key: StateKey, point: UInt64, next: Int?)] = []
  /// How many entries were dropped from the front of `entries` (numbers count from the
  /// first point ever remembered).
  private var dropped = 0
  /// The number of the first point still remembered.
  private var start = 0
  /// The numbers of the first and the last point still remembered of each state.
  private var first: [StateKey: Int] = [:]
  private var last: [StateKey: Int] = [:]
  let window: UInt64

  init(window: UInt64) { self.window = window }

  /// Remembers that the session's state at `point` is `key`, forgetting the oldest point
  /// beyond the window.
  mutating func remember(_ key: StateKey, at point: UInt64) {
    let number = dropped + entries.count
    if let previous = last[key] {
      entries[previous - dropped].next = number
    } else {
      first[key] = number
    }
    last[key] = number
    entries.append((key, point, nil))
    guard UInt64(number - start + 1) > window else { return }
    let oldest = entries[start - dropped]
    if let next = oldest.next {
      first[oldest.key] = next
    } else {
      first[oldest.key] = nil
      last[oldest.key] = nil
    }
    start += 1
    // Drop the forgotten entries now and then, not at every step.
    if start - dropped > 4_096 {
      entries.removeFirst(start - dropped)
      dropped = start
    }
  }

  /// The first point remembered whose state is `key` and that is within the window of
  /// `other` (the other session's point), nil when there is none.
  func point(of key: StateKey, near other: UInt64) -> UInt64? {
    var number = first[key]
    while let current = number {
      let entry = entries[current - dropped]
      let distance = entry.point > other ? entry.point - other : other - entry.point
      if distance <= window { return entry.point }
      number = entry.next
    }
    return nil
  }
}
