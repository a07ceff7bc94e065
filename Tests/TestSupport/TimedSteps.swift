import Foundation

/// The named steps of a long test and how long each took, to say where its time went.
///
/// A step still running after `slowSeconds` is written to stderr at once, by a thread of
/// its own (not the cooperative pool's, nor Dispatch's, either of which a slow test may be
/// waiting for), so that a test stopped by its time limit still names the step it was in;
/// the step's time is written again when it ends. ``description`` lists every step's
/// time, for the test's expectations and its last check on the total, and ``finish()``
/// writes it to stderr when a step was slow (or always, when the environment sets
/// `REWIND_TEST_STEPS`). Quiet while every step is quick.
public final class TimedSteps: @unchecked Sendable, CustomStringConvertible {
  /// The test the steps are of, as stderr names it.
  public let test: String
  /// How long a step may take before it is written to stderr.
  public let slowSeconds: Double
  private let started = Date()
  private let lock = NSLock()
  private var done: [(name: String, seconds: Double)] = []
  private var current: (name: String, started: Date, reported: Bool)?
  private var anySlow = false
  private var finished = false

  /// Starts timing the steps of `test`, and the watcher that reports a slow one.
  public init(_ test: String, slowSeconds: Double = 10) {
    self.test = test
    self.slowSeconds = slowSeconds
    let watcher = Thread { [weak self] in
      while let self, self.watch() { usleep(200_000) }
    }
    watcher.start()
  }

  deinit { lock.withLock { finished = true } }

  /// Seconds since the steps began.
  public var total: Double { Date().timeIntervalSince(started) }

  /// Runs `body` as the step `name`.
  public func step<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
    begin(name)
    defer { end() }
    return try body()
  }

  /// Every step's time, the one under way (if any) and the total: `ready 3.1 s, …,
  /// total 25.0 s`.
  public var description: String {
    lock.withLock {
      var parts = done.map { "\($0.name) \(Self.format($0.seconds))" }
      if let current {
        parts.append(
          "\(current.name) \(Self.format(Date().timeIntervalSince(current.started))) so far")
      }
      parts.append("total \(Self.format(Date().timeIntervalSince(started)))")
      return parts.joined(separator: ", ")
    }
  }

  /// Stops the watcher; writes every step's time to stderr if one was slow or the
  /// environment sets `REWIND_TEST_STEPS`.
  public func finish() {
    let slow = lock.withLock { () -> Bool in
      finished = true
      return anySlow
    }
    if slow || ProcessInfo.processInfo.environment["REWIND_TEST_STEPS"] != nil {
      Self.write("\(test): its steps: \(self)")
    }
  }

  private func begin(_ name: String) {
    lock.withLock { current = (name, Date(), false) }
  }

  private func end() {
    let step = lock.withLock { () -> (name: String, seconds: Double)? in
      guard let current else { return nil }
      self.current = nil
      let seconds = Date().timeIntervalSince(current.started)
      done.append((current.name, seconds))
      if seconds > slowSeconds { anySlow = true }
      return (current.name, seconds)
    }
    if let step, step.seconds > slowSeconds {
      Self.write(
        "\(test): step \"\(step.name)\" took \(Self.format(step.seconds)) (at \(Self.format(total)))"
      )
    }
  }

  /// Reports the step under way once it has run `slowSeconds`.
  /// - Returns: whether to keep watching.
  private func watch() -> Bool {
    let late = lock.withLock { () -> String? in
      guard !finished else { return nil }
      guard let step = current, !step.reported,
        Date().timeIntervalSince(step.started) > slowSeconds
      else { return "" }
      current?.reported = true
      anySlow = true
      return step.name
    }
    guard let late else { return false }
    if !late.isEmpty {
      Self.write(
        "\(test): step \"\(late)\" is still running after \(Self.format(slowSeconds)) (at \(Self.format(total)))"
      )
    }
    return true
  }

  private static func format(_ seconds: Double) -> String {
    String(format: "%.1f s", seconds)
  }

  private static func write(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}
