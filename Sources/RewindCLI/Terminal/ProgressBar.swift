import RewindCore

/// A progress bar on standard error for long work, shown only to a person watching.
///
/// Made by ``Context/progress(_:)``. The bar appears only when standard error is a
/// terminal and only once the work has run for a second, is redrawn at most ten times a
/// second, and is erased by ``finish()`` (or by any other write to standard error, or
/// when the bar is released), leaving the screen as it was:
///
/// ```swift
/// let progress = context.progress("Replaying")
/// for (index, event) in events.enumerated() {
///   progress.update(index, of: events.count)
///   ...
/// }
/// progress.finish()
/// ```
///
/// ``update(_:of:)`` is meant for hot loops: it compares `done` with a mark and returns.
/// Only when `done` reaches the mark is the clock read and the next mark set *n* units
/// further, *n* adapting so that the clock is read every few milliseconds whatever the
/// loop's speed. When the bar cannot be shown, the mark is never reached. The fast path
/// reads one stored property and writes none, so it adds no dependency between loop
/// iterations.
package final class ProgressBar {
  /// How long work runs before the bar appears.
  static let delay: UInt64 = 1_000_000_000
  /// The shortest time between two drawings.
  static let redrawInterval: UInt64 = 100_000_000
  /// The clock is read again sooner than this: read it less often.
  static let minimumCheckInterval: UInt64 = 2_000_000
  /// The clock is read again later than this: read it more often.
  static let maximumCheckInterval: UInt64 = 20_000_000
  static let maximumStride = 1 << 24

  let label: String
  let output: Output
  let now: () -> UInt64
  let startTime: UInt64
  /// The `done` at which the clock is read next; `Int.max` when the bar is off.
  @usableFromInline var nextCheck: Int
  /// Units of work between two readings of the clock.
  private(set) var stride = 1
  private var lastCheck: UInt64
  private var lastDraw: UInt64 = 0
  /// Whether the bar is on screen.
  private(set) var isShown = false
  private var isFinished = false

  /// - Parameter label: What is being done; text from outside in it (a path) is escaped.
  init(label: String, output: Output, now: @escaping () -> UInt64) {
    self.label = TerminalText.escaped(label)
    self.output = output
    self.now = now
    self.startTime = now()
    self.lastCheck = startTime
    self.nextCheck = output.isTerminal ? .min : .max
    self.isFinished = !output.isTerminal
  }

  deinit {
    finish()
  }

  /// Reports that `done` of `total` units of work are done; `done` is expected to grow.
  /// Cheap enough for every iteration of a hot loop. A `total` of 0 or less shows the
  /// count without a bar.
  @inlinable
  package func update(_ done: Int, of total: Int) {
    if done >= nextCheck { checkClock(done, total) }
  }

  /// Erases the bar if it is shown; later updates do nothing.
  package func finish() {
    guard !isFinished else { return }
    isFinished = true
    nextCheck = .max
    if isShown {
      isShown = false
      output.eraseTransientLine()
    }
  }

  @usableFromInline
  func checkClock(_ done: Int, _ total: Int) {
    guard !isFinished else {
      nextCheck = .max
      return
    }
    let time = now()
    let sinceCheck = time &- lastCheck
    lastCheck = time
    if sinceCheck < Self.minimumCheckInterval {
      stride = min(stride * 2, Self.maximumStride)
    } else if sinceCheck > Self.maximumCheckInterval {
      stride = max(stride / 2, 1)
    }
    nextCheck = done < Int.max - stride ? done + stride : .max
    guard time &- startTime >= Self.delay, !isShown || time &- lastDraw >= Self.redrawInterval
    else { return }
    lastDraw = time
    isShown = true
    output.showTransientLine(
      Self.render(
        label: label, done: done, total: total, elapsed: time &- startTime,
        columns: output.columns, style: output.style))
  }

  /// One frame of the bar, never wider than `columns - 1` so the terminal does not wrap
  /// it: `Replaying ████████░░░░░░░░  41%  4.1M/10.0M  ETA 3s`.
  package static func render(
    label: String, done: Int, total: Int, elapsed: UInt64, columns: Int, style: Style
  ) -> String {
    guard total > 0 else {
      let count = compactCount(done)
      let label = TerminalText.shortened(label, width: max(columns - 2 - count.count, 20))
      return String(TerminalText.prefix("\(label) \(count)", width: columns - 1))
    }
    let done = min(max(done, 0), total)
    let percent = done * 100 / total
    var tail = " \(percent < 10 ? "  " : percent < 100 ? " " : "")\(percent)%"
    tail += "  \(compactCount(done))/\(compactCount(total))"
    if done > 0 && done < total {
      let remaining = Double(elapsed) * Double(total - done) / Double(done) / 1e9
      tail += "  ETA \(compactDuration(remaining))"
    }
    let room = columns - 1 - TerminalText.width(label) - 1 - tail.count
    let width = min(room, 40)
    guard width >= 10 else {
      // No room for a bar: the label and the numbers, the label shortened in its middle
      // when the numbers would not fit whole (a long path keeps its file name).
      let label = TerminalText.shortened(label, width: max(columns - 1 - tail.count, 20))
      return String(TerminalText.prefix(label + tail, width: columns - 1))
    }
    let filled = done * width / total
    let bar =
      style.cyan(String(repeating: "█", count: filled))
      + style.dim(String(repeating: "░", count: width - filled))
    return "\(label) \(bar)\(tail)"
  }

  /// `950`, `12.3k`, `4.1M`, `2.0G`.
  package static func compactCount(_ count: Int) -> String {
    func scaled(_ unit: Double, _ suffix: String) -> String {
      let tenths = Int((Double(count) / unit * 10).rounded(.down))
      return "\(tenths / 10).\(tenths % 10)\(suffix)"
    }
    switch count {
    case ..<10_000: return "\(count)"
    case ..<1_000_000: return scaled(1e3, "k")
    case ..<1_000_000_000: return scaled(1e6, "M")
    default: return scaled(1e9, "G")
    }
  }

  /// `3s`, `4m05s`, `2h10m`.
  package static func compactDuration(_ seconds: Double) -> String {
    let total = Int(seconds.rounded(.up))
    if total < 60 { return "\(total)s" }
    if total < 3600 { return "\(total / 60)m\(total % 60 < 10 ? "0" : "")\(total % 60)s" }
    return "\(total / 3600)h\(total % 3600 / 60 < 10 ? "0" : "")\(total % 3600 / 60)m"
  }
}
