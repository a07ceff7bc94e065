import RewindCore

extension Format {
  /// A point as the player's messages and its diff name it, as `rewind diff` does: `the
  /// start` for 0 (the state before any event), else `event 3,041`, its number grouped as
  /// the position line writes it.
  static func point(_ sequence: UInt64) -> String {
    sequence == 0 ? "the start" : "event \(count(sequence))"
  }
}

extension Format {
  /// `+12.345s`, `+1m 07.100s`, `+43h 42m 29.247s`: an offset from the session start to
  /// the millisecond, in minutes and hours as ``duration(_:)`` writes a session's length
  /// once it is a minute or more, so that the player's position line reads both alike
  /// (`+157349.247s` is not read at a glance).
  ///
  /// The milliseconds are rounded as ``Format/offset(_:)`` rounds them (its arithmetic),
  /// so that the line shows an event's time as its pane, `log` and the page do, and the
  /// offset typed back (`g`, `--at`) stands for the same events: rounding half a
  /// millisecond up exactly, the line said `+36h 56m 08.648s` of an event `log` shows at
  /// `+132968.647s`.
  static func readableOffset(_ microseconds: UInt64) -> String {
    let milliseconds = UInt64(((Double(microseconds) / 1_000_000) * 1000).rounded())
    let fraction = String(milliseconds % 1_000)
    let secondsText =
      "." + String(repeating: "0", count: 3 - fraction.count) + fraction + "s"
    let seconds = milliseconds / 1_000
    if seconds < 60 { return "+\(seconds)" + secondsText }
    return "+" + hoursAndMinutes(seconds / 60) + (seconds % 60 < 10 ? "0" : "")
      + "\(seconds % 60)" + secondsText
  }
}
