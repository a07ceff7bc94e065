/// Playing a session at its recorded speed: the events' own times, scaled by a factor,
/// measured on an injected clock.
///
/// Playback is anchored at a moment of the clock and a time of the session; a tick moves
/// the cursor to the last event at or before the anchor's session time plus the clock
/// time since, times the factor. Moving the cursor or changing the factor anchors again,
/// so that playback goes on from what is shown.
public struct Playback: Equatable, Sendable {
  /// The factors `+` and `-` step through.
  public static let speeds: [Double] = [0.25, 0.5, 1, 2, 4, 8, 16, 32, 64]
  /// Whether the session is playing.
  public internal(set) var isPlaying = false
  /// The index of the factor in ``speeds``.
  public internal(set) var speedIndex = 2
  /// The clock's reading when playback was last anchored, microseconds.
  var anchorClock: UInt64 = 0
  /// The session time shown then, microseconds since the session start.
  var anchorTime: UInt64 = 0

  public init() {}

  /// The current factor: 1 plays at the recorded speed.
  public var speed: Double { Self.speeds[speedIndex] }

  /// `×0.25`, `×1`, `×64`.
  public var speedLabel: String {
    let speed = speed
    if speed == speed.rounded() { return "×\(Int(speed))" }
    return "×\(speed)"
  }

  /// Anchors playback at session time `time`, now.
  mutating func anchor(at time: UInt64, clock now: UInt64) {
    anchorClock = now
    anchorTime = time
  }

  /// The session time to show at clock reading `now`.
  func sessionTime(at now: UInt64) -> UInt64 {
    let elapsed = now >= anchorClock ? now - anchorClock : 0
    let scaled = Double(elapsed) * speed
    guard scaled < Double(UInt64.max - anchorTime) else { return .max }
    return anchorTime + UInt64(scaled)
  }
}
