public import RewindCore
import RewindJournal

/// The time-travel player's model: a cursor over a recorded session and everything the
/// player does with it, with no terminal.
///
/// Keys come in as ``PlayerAction``s (``perform(_:)``), time as ``tick()``; what to draw
/// is read from the properties (``view``, ``playback``, ``prompt``, ``overlay``,
/// ``message``, ``density``). Every query goes through the session's `Timeline`, whose
/// snapshots make reaching any point cost at most one snapshot interval of replay,
/// whatever the journal's length.
///
/// Generic over the domain: any domain gets the player, drawn with its text rendering
/// or its interactive screen. Not thread-safe, like the timeline it holds.
public final class Player<D: Domain> {
  /// How many events around the cursor ``CursorView/nearby`` lists on each side: 65 events
  /// fill the events panel of a terminal of up to 70 rows.
  public static var nearbyRadius: UInt64 { 32 }

  /// The session played; opened again when a followed journal grows.
  public internal(set) var timeline: Timeline<D>
  /// Whether the player follows a journal another process is recording.
  public let isFollowing: Bool
  /// What the followed journal's file says of what is to come: written still, closed,
  /// left by a writer that stopped, or removed; nil when not following.
  public internal(set) var followed: FollowedJournal?
  /// The process last seen writing the followed journal, to name it when it is gone.
  var lastWriter: Int32?
  /// Microseconds on a monotonic clock: playback's time (injected by tests).
  let clock: () -> UInt64

  /// What is shown at the cursor; ``CursorView/sequence`` is the cursor.
  public internal(set) var view: CursorView<D>
  /// Playing at the recorded speed.
  public internal(set) var playback = Playback()
  /// The condition of the last search (`/`), which `n` and `N` look for.
  public internal(set) var search: Condition?
  /// The point marked with `m`.
  public internal(set) var mark: UInt64?
  /// The events the counterfactual leaves out (`x`).
  public internal(set) var skipped: Set<UInt64> = []
  /// The later events that do something else without the skipped ones, found when an
  /// event was skipped.
  public internal(set) var divergence: SkipDivergence?
  /// The prompt being typed in, if any.
  public internal(set) var prompt: Prompt?
  /// What covers the screen: the keys, or a diff.
  public internal(set) var overlay: PlayerOverlay? {
    didSet { overlayScroll = 0 }
  }
  /// The first line of the diff shown (`↑` `↓` `PgUp` `PgDn` scroll it); 0 whenever the
  /// overlay changes. The drawing keeps it within the diff's lines.
  public var overlayScroll = 0
  /// The line under the timeline: what the last action did, or why it could not.
  public internal(set) var message: PlayerMessage?
  /// The events over time, coloured by outcome.
  public internal(set) var density: DensityStrip
  /// The times during which events were lost to damage, one span per lost range: from
  /// the last event kept before it (the start when none is) to the first kept after it
  /// (the end when none is). The lost events lie somewhere in it; the strip marks it.
  public internal(set) var lostTimes: [ClosedRange<UInt64>] = []
  /// The frames counted in ``density`` and the journal's size when last read (follow).
  var countedFrames: Int
  var knownFileSize: UInt64?

  /// Opens the player on a session.
  ///
  /// - Parameters:
  ///   - timeline: the session.
  ///   - point: where the cursor starts; by default the start, or the end when following.
  ///   - following: watch the journal for events another process appends.
  ///   - clock: microseconds on a monotonic clock; by default `MonotonicClock`.
  /// - Throws: `RewindError` for a point outside the session, or when the journal
  ///   cannot be replayed there (as `JournalError` too).
  /// - Complexity: one pass over the records' outcomes (for the density strip), without
  ///   decoding events; then one seek.
  public init(
    timeline: Timeline<D>, at point: Point? = nil, following: Bool = false,
    clock: (() -> UInt64)? = nil
  ) throws {
    self.timeline = timeline
    isFollowing = following
    self.clock = clock ?? MonotonicClock.microsecondsFromNow()
    density = DensityStrip(expectedDuration: timeline.duration)
    countedFrames = 0
    // The size the reader saw, not the size now: what was appended since is read on the
    // first tick.
    knownFileSize = following ? timeline.reader.fileSize : nil
    let start = try timeline.resolveKnown(point ?? (following ? .end : .start))
    view = CursorView(
      sequence: 0, time: 0, state: timeline.domain.initialState, event: nil, changes: [],
      nearby: [], differencesFromRecording: [])
    try countNewFrames()
    lostTimes = try Self.lostTimes(of: timeline)
    view = try makeView(at: start)
    if following { noteFollowed(currentFollowed()) }
  }

  /// The spans of ``lostTimes`` in `timeline`.
  static func lostTimes(of timeline: Timeline<D>) throws -> [ClosedRange<UInt64>] {
    let last = timeline.lastSequence
    guard last > 0 else { return [] }
    return try timeline.lostEvents(in: 0...last).map { lost in
      let start = lost.lowerBound > 1 ? try timeline.time(of: lost.lowerBound - 1) : 0
      let end =
        lost.upperBound < last ? try timeline.time(of: lost.upperBound + 1) : timeline.duration
      return start...max(start, end)
    }
  }

  /// The cursor: the state shown is the state after this event (0: before any).
  public var cursor: UInt64 { view.sequence }
  /// The session's domain.
  public var domain: D { timeline.domain }
  /// The sequence number of the last event.
  public var lastSequence: UInt64 { timeline.lastSequence }

  /// Does what an action asks.
  ///
  /// An action that cannot be done (a point outside the session, a condition that does
  /// not fit the fields, a journal that cannot be read there) leaves the cursor where it
  /// was and says why in ``message``.
  /// - Returns: whether to go on, quit, or continue the session live.
  public func perform(_ action: PlayerAction) -> PlayerOutcome {
    if prompt != nil, let outcome = performInPrompt(action) { return outcome }
    if case .dismiss = action {
    } else if case .toggleHelp = action {
    } else {
      message = nil
    }
    do {
      switch action {
      case .step(let count): try step(by: count)
      case .go(let point): try go(to: point)
      case .togglePlayback: try togglePlayback()
      case .faster: changeSpeed(by: 1)
      case .slower: changeSpeed(by: -1)
      case .beginPrompt(let kind):
        overlay = nil
        prompt = Prompt(kind)
      case .type, .erase, .clearPrompt, .submit: break
      case .dismiss:
        if overlay != nil { overlay = nil } else { message = nil }
      case .nextMatch: try findNext(forward: true)
      case .previousMatch: try findNext(forward: false)
      case .mark: markCursor()
      case .showDiff: try showDiff()
      case .toggleSkip: try toggleSkip()
      case .continueHere: return continueHere()
      case .toggleHelp: overlay = overlay == .help ? nil : .help
      case .scrollOverlay(let lines):
        let scrolled = overlayScroll.addingReportingOverflow(lines)
        overlayScroll = scrolled.overflow ? (lines > 0 ? .max : 0) : max(scrolled.partialValue, 0)
      case .quit: return .quit
      }
    } catch {
      playback.isPlaying = false
      message = PlayerMessage(.error, Self.describe(error))
    }
    return .continue
  }

  /// Moves the cursor to event `sequence` and shows what is there.
  func move(to sequence: UInt64) throws {
    let sequence = min(sequence, lastSequence)
    view = try makeView(at: sequence)
    if playback.isPlaying { playback.anchor(at: view.time, clock: clock()) }
  }

  /// Shows the same point again (after the skipped events changed).
  func refresh() throws {
    view = try makeView(at: cursor)
  }

  /// A message for an error: its own words, without the journal's path when it names it.
  static func describe(_ error: any Error) -> String {
    switch error {
    case let error as RewindError: error.description
    case let error as ConditionError: error.description
    default: "\(error)"
    }
  }
}

/// What covers the player's screen until it is dismissed.
public enum PlayerOverlay: Equatable, Sendable {
  /// The keys and what they do (`?`).
  case help
  /// The fields that differ between the mark and the cursor (`d`).
  case diff(PointDiff)
}

/// The full diff between two points, as `d` shows it.
public struct PointDiff: Equatable, Sendable {
  /// The earlier point and the later one (the mark and the cursor, in order).
  public var from: UInt64
  public var to: UInt64
  /// Each field that differs: `old` at `from`, `new` at `to`.
  public var changes: [FieldChange]
}

/// The later events that do something else when events are skipped: what `x` finds by
/// replaying the rest of the session without them.
public struct SkipDivergence: Equatable, Sendable {
  /// The events skipped.
  public var skipped: [UInt64]
  /// The first of the later events that differ from the recording, at most
  /// ``listLimit``.
  public var events: [UInt64]
  /// How many later events differ, all counted.
  public var count: Int
  /// The state at the end of the session differs from the recorded one.
  public var endStateDiffers: Bool

  /// The most events ``events`` lists.
  public static var listLimit: Int { 1_000 }
}
