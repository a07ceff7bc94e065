import RewindCore
import RewindJournal

extension Player {
  /// Moves the cursor by `count` events, stopping at the start and the end.
  func step(by count: Int) throws {
    var target: UInt64
    if count < 0 {
      let back = UInt64(count.magnitude)
      target = cursor > back ? cursor - back : 0
    } else {
      target = min(cursor &+ UInt64(count), lastSequence)
    }
    // A step onto events lost to damage goes over them (their states are not known): on
    // to the state after them, the last of them (the snapshot stored after them), or
    // back to the last event before them. The state after the last of them is known only
    // when events follow them.
    var over: ClosedRange<UInt64>?
    if target > 0, let lost = timeline.lostEvents(in: (target - 1)...target).first,
      lost.contains(target), target != lost.upperBound || lost.upperBound == lastSequence
    {
      over = lost
      target =
        count > 0 && lost.upperBound < lastSequence ? lost.upperBound : lost.lowerBound - 1
    }
    if target == cursor {
      message = PlayerMessage(
        .info, count < 0 ? "At the start of the session." : "At the end of the session.")
      return
    }
    try move(to: target)
    if let over {
      message = PlayerMessage(
        .info,
        "\(Format.capitalized(Format.events(over))) \(over.count == 1 ? "was" : "were") lost to damage: stepped over them."
      )
    }
  }

  /// Moves the cursor to a point; a time among the times of events lost to damage is
  /// refused (the state there is not known).
  func go(to point: Point, written text: String? = nil) throws {
    try move(to: timeline.resolveKnown(point, written: text))
  }

  /// Builds what is shown at event `sequence`: one seek to just before the events
  /// listed around it, then those events stepped one by one.
  ///
  /// - Complexity: one seek (at most one snapshot interval of replay; with skipped events
  ///   before it, a replay from the first of them) and 2 × ``nearbyRadius`` + 1 events
  ///   stepped (at the ends of the session too: the events listed are so many there).
  ///
  /// In a salvaged journal the events listed stop at events lost to damage; after them,
  /// the replay starts again from the snapshot stored after them, unless events skipped
  /// before them make that state unknown. The point of the last of them is that state
  /// (as `rewind state --at` shows it), with no event of its own and the events after it
  /// listed; any other lost event's point is refused.
  func makeView(at sequence: UInt64) throws -> CursorView<D> {
    let domain = timeline.domain
    let radius = Self.nearbyRadius
    var lostBefore: ClosedRange<UInt64>?
    if sequence > 0, let lost = timeline.lostEvents(in: (sequence - 1)...sequence).first,
      lost.upperBound == sequence
    {
      lostBefore = lost
    } else {
      try timeline.checkReachable(sequence)
    }
    var first = sequence > radius ? sequence - radius : 1
    var last = min(sequence &+ radius, lastSequence)
    // Near either end of the session, the other side lists more: 2 × radius + 1 events
    // where there are that many, which a tall panel shows (it had rows left empty).
    if last >= first, last - first < 2 * radius {
      if first == 1 {
        last = min(1 + 2 * radius, lastSequence)
      } else {
        first = lastSequence > 2 * radius ? lastSequence - 2 * radius : 1
      }
    }
    let firstSkipped = skipped.min()
    var state = domain.initialState
    var before = domain.initialState
    // Where the replay starts, and whether it crosses lost events to reach `first`.
    var replayFrom = first
    var crossing = false
    for lost in timeline.lostEvents(in: (first > 1 ? first - 2 : 0)...last) {
      if lost.lowerBound > sequence {
        last = min(last, lost.lowerBound - 1)
      } else {
        first = lost.upperBound + 1
        replayFrom = lost.lowerBound
        crossing = firstSkipped.map { $0 > lost.upperBound } ?? true
        if crossing, first == sequence || lost.upperBound == sequence,
          let after = try timeline.state(afterLostEventsEndingAt: lost.upperBound)
        {
          before = after
          if lost.upperBound == sequence { state = after }
        }
      }
    }
    var cursorLine: EventLine?
    // After lost events, the last time known: the last event's kept before them.
    var time: UInt64 = 0
    if let lostBefore, lostBefore.lowerBound > 1 {
      time = try timeline.time(of: lostBefore.lowerBound - 1)
    }
    var nearby: [EventLine] = []
    nearby.reserveCapacity(Int(last >= first ? last - first + 1 : 0))
    try timeline.events(
      from: replayFrom, through: last, skipping: skipped, crossingLostEvents: crossing
    ) { event, changed, after in
      guard event.sequence >= first else { return true }
      let line = self.line(for: event, changed: changed, after: firstSkipped)
      if event.sequence + 1 == sequence { before = after }
      if event.sequence == sequence {
        state = after
        cursorLine = line
        time = event.time
      }
      nearby.append(line)
      return true
    }
    var differences: [FieldChange] = []
    if let firstSkipped, firstSkipped <= sequence {
      differences = domain.diff(try timeline.state(after: sequence), state)
    }
    return CursorView(
      sequence: sequence, time: time, state: state, event: cursorLine,
      changes: sequence == 0 ? [] : domain.diff(before, state), nearby: nearby,
      differencesFromRecording: differences, lostEvents: lostBefore)
  }

  /// An event as the player lists it; `firstSkipped` is the first event left out, after
  /// which an event may do something else than it did when recorded.
  func line(for event: ReplayedEvent<D>, changed: FieldSet, after firstSkipped: UInt64?)
    -> EventLine
  {
    let fate: EventLine.Fate
    var differs = false
    if let outcome = event.outcome {
      switch outcome {
      case .applied: fate = .applied
      case .unchanged: fate = .unchanged
      case .rejected(let reason): fate = .rejected(reason.description)
      }
      if let firstSkipped, event.sequence > firstSkipped {
        differs = replayedEffect(outcome, changed: changed) != event.recorded
      }
    } else {
      fate = .skipped
    }
    return EventLine(
      sequence: event.sequence, time: event.time, description: domain.describe(event.event),
      fate: fate, changedPaths: domain.paths(of: changed), differsFromRecording: differs,
      recordedOutcome: event.recorded.kind.name)
  }

  /// An outcome and its changes as the recording would hold them; for a journal of an
  /// older schema, only the fields that schema had.
  func replayedEffect(_ outcome: Outcome<D.Rejection>, changed: FieldSet) -> RecordedEffect {
    RecordedEffect(
      outcome, changed: timeline.upcast.map { changed.intersection($0.knownFields) } ?? changed)
  }

  // MARK: Playback

  /// Starts or stops playing. Playing from the end starts again from the start (unless
  /// the journal is followed: then it waits for new events).
  func togglePlayback() throws {
    if playback.isPlaying {
      playback.isPlaying = false
      return
    }
    if cursor == lastSequence && !isFollowing {
      try move(to: 0)
    }
    playback.isPlaying = true
    playback.anchor(at: view.time, clock: clock())
  }

  /// Doubles or halves the factor, within ``Playback/speeds``.
  func changeSpeed(by step: Int) {
    let index = playback.speedIndex + step
    guard Playback.speeds.indices.contains(index) else {
      // The speed is the player's whether it plays or not.
      message = PlayerMessage(
        .info,
        "The speed is \(playback.speedLabel) already, the \(step > 0 ? "fastest" : "slowest")."
      )
      return
    }
    // Keep the session time reached so far, so that the change does not jump.
    let now = clock()
    let reached = playback.sessionTime(at: now)
    playback.speedIndex = index
    if playback.isPlaying { playback.anchor(at: max(reached, view.time), clock: now) }
  }

  /// How often ``tick()`` wants to be called, in microseconds: often while playing,
  /// now and then while following, never otherwise.
  public var tickInterval: UInt64? {
    if playback.isPlaying { return 33_000 }
    if isFollowing { return 250_000 }
    return nil
  }

  /// Advances time: moves the cursor on while playing, and reads what a followed
  /// journal gained.
  /// - Returns: whether anything shown changed (the screen needs drawing).
  @discardableResult
  public func tick() -> Bool {
    var changed = false
    do {
      if isFollowing { changed = try follow() }
      if playback.isPlaying { changed = try advancePlayback() || changed }
    } catch {
      playback.isPlaying = false
      message = PlayerMessage(.error, Self.describe(error))
      changed = true
    }
    return changed
  }

  /// Moves the cursor to the last event at or before the session time playback has
  /// reached; stops at the end (a followed journal keeps playing, waiting for events).
  private func advancePlayback() throws -> Bool {
    let time = playback.sessionTime(at: clock())
    let reached =
      time >= timeline.duration ? lastSequence : try timeline.resolve(.offset(microseconds: time))
    var changed = false
    if reached > cursor {
      view = try makeView(at: reached)
      changed = true
    }
    if cursor == lastSequence && !isFollowing {
      playback.isPlaying = false
      message = PlayerMessage(.info, "Played to the end of the session.")
      changed = true
    }
    return changed
  }
}
