import Testing

@testable import RewindCLI

/// A clock that moves by `step` nanoseconds each time it is read, and counts readings.
final class SteppingClock {
  var now: UInt64 = 0
  var step: UInt64
  var readings = 0

  init(step: UInt64) {
    self.step = step
  }

  func read() -> UInt64 {
    readings += 1
    now += step
    return now
  }
}

@Suite("The progress bar")
struct ProgressBarTests {
  static let erase = "\r\u{1B}[K"

  @Test("not shown, and the clock never read, when stderr is not a terminal")
  func notATerminal() {
    let clock = SteppingClock(step: 100_000_000)
    let context = Context.capture(stderrIsTerminal: false, clock: clock.read)
    let progress = context.progress("Replaying")
    for done in 0..<1_000_000 { progress.update(done, of: 1_000_000) }
    progress.finish()
    #expect(context.stderr.text == "")
    #expect(clock.readings == 1)  // when the bar was made
  }

  @Test("not shown for work shorter than a second")
  func shortWork() {
    let clock = SteppingClock(step: 1_000)  // 1 µs a reading
    let context = Context.capture(stderrIsTerminal: true, clock: clock.read)
    let progress = context.progress("Replaying")
    for done in 0..<1_000_000 { progress.update(done, of: 1_000_000) }
    progress.finish()
    #expect(context.stderr.text == "")
    #expect(clock.readings < 100)  // the stride grew: the clock is not read every call
    #expect(progress.stride > 1_000)
  }

  @Test("shown after a second, redrawn at most ten times a second, erased when finished")
  func longWork() {
    let clock = SteppingClock(step: 50_000_000)  // 50 ms a reading: each call reads it
    // NO_COLOR turns colour off, not the bar.
    let context = Context.capture(
      environment: ["NO_COLOR": "1"], stderrIsTerminal: true, columns: 60, clock: clock.read)
    let progress = context.progress("Replaying")
    for done in 0..<100 { progress.update(done, of: 100) }
    #expect(progress.stride == 1)
    progress.finish()
    progress.update(100, of: 100)  // ignored after finish

    let text = context.stderr.text
    #expect(text.hasSuffix("\u{1B}[K" + Self.erase))
    let frames = text.split(separator: "\r").dropLast()  // the last is the erasure
    // The bar appears once a second has passed (the 20th call, at 50 ms a call), then
    // every other call (100 ms).
    #expect(frames.count == 41)
    #expect(frames.first == Substring(frame(done: 19, total: 100, elapsed: 1_000_000_000)))
    for frame in frames {
      #expect(frame.hasPrefix("Replaying "))
      #expect(frame.hasSuffix("\u{1B}[K"))
      #expect(frame.dropLast(3).count <= 59)
    }
  }

  private func frame(done: Int, total: Int, elapsed: UInt64) -> String {
    ProgressBar.render(
      label: "Replaying", done: done, total: total, elapsed: elapsed, columns: 60, style: .plain)
      + "\u{1B}[K"
  }

  @Test("updates in large steps (bytes of a file, say) work the same")
  func largeSteps() {
    let clock = SteppingClock(step: 300_000_000)
    let context = Context.capture(
      environment: ["NO_COLOR": "1"], stderrIsTerminal: true, clock: clock.read)
    let progress = context.progress("Reading")
    for done in stride(from: 0, to: 10_000_000, by: 1_000_000) {
      progress.update(done, of: 10_000_000)
    }
    #expect(context.stderr.text.contains("\rReading "))
    #expect(context.stderr.text.contains("  90%  9.0M/10.0M  ETA 1s\u{1B}[K"))
    progress.finish()
    #expect(context.stderr.text.hasSuffix(Self.erase))
  }

  @Test("other text on stderr erases the bar first")
  func interleaved() {
    let clock = SteppingClock(step: 600_000_000)
    let context = Context.capture(
      environment: ["NO_COLOR": "1"], stderrIsTerminal: true, clock: clock.read)
    let progress = context.progress("Work")
    progress.update(1, of: 10)  // 600 ms: not yet
    progress.update(2, of: 10)  // 1.2 s: drawn
    context.stderr.print("warning: frame 3 is damaged")
    #expect(
      context.stderr.text == "\r"
        + ProgressBar.render(
          label: "Work", done: 2, total: 10, elapsed: 1_200_000_000, columns: 80, style: .plain)
        + "\u{1B}[K" + Self.erase + "warning: frame 3 is damaged\n")
    progress.finish()  // nothing left to erase
    #expect(context.stderr.text.hasSuffix("damaged\n"))
  }

  @Test("a frame: label, bar, percentage, counts and time left")
  func render() {
    #expect(
      ProgressBar.render(
        label: "Replaying", done: 41, total: 100, elapsed: 2_000_000_000, columns: 80,
        style: .plain)
        == "Replaying " + String(repeating: "█", count: 16) + String(repeating: "░", count: 24)
        + "  41%  41/100  ETA 3s")
    #expect(
      ProgressBar.render(
        label: "Replaying", done: 2_500_000, total: 10_000_000, elapsed: 1_000_000_000,
        columns: 50, style: .plain)
        == "Replaying " + String(repeating: "█", count: 3) + String(repeating: "░", count: 11)
        + "  25%  2.5M/10.0M  ETA 3s")
    // Too narrow for a bar: the numbers alone.
    #expect(
      ProgressBar.render(
        label: "Replaying", done: 41, total: 100, elapsed: 2_000_000_000, columns: 40,
        style: .plain) == "Replaying  41%  41/100  ETA 3s")
    // A label too long for the numbers to fit whole (a long path): shortened in its
    // middle, keeping the file name.
    #expect(
      ProgressBar.render(
        label:
          "Checking /home/someone/projects/an-app/recordings/2026-12-02/monday-morning.journal",
        done: 41, total: 100, elapsed: 2_000_000_000, columns: 80, style: .plain)
        == "Checking /home/some…ings/2026-12-02/monday-morning.journal  41%  41/100  ETA 3s")
    #expect(
      ProgressBar.render(
        label: "Reading /home/someone/projects/an-app/recordings/2026-12-02/monday-morning.journal",
        done: 12_345, total: 0, elapsed: 0, columns: 40, style: .plain)
        == "Reading /h…monday-morning.journal 12.3k")
    // Unknown total: the count alone.
    #expect(
      ProgressBar.render(
        label: "Reading", done: 12_345, total: 0, elapsed: 0, columns: 80, style: .plain)
        == "Reading 12.3k")
    // Done, and beyond: 100%, no time left.
    #expect(
      ProgressBar.render(
        label: "R", done: 120, total: 100, elapsed: 5, columns: 30, style: .plain)
        == "R " + String(repeating: "█", count: 13) + " 100%  100/100")
    // Coloured on a colour terminal.
    let coloured = ProgressBar.render(
      label: "R", done: 1, total: 2, elapsed: 1_000_000_000, columns: 40,
      style: Style(isEnabled: true))
    #expect(coloured.hasPrefix("R \u{1B}[36m█"))
  }

  @Test("counts and durations are compact")
  func compact() {
    #expect(ProgressBar.compactCount(950) == "950")
    #expect(ProgressBar.compactCount(9_999) == "9999")
    #expect(ProgressBar.compactCount(12_345) == "12.3k")
    #expect(ProgressBar.compactCount(4_199_999) == "4.1M")
    #expect(ProgressBar.compactCount(2_000_000_000) == "2.0G")
    #expect(ProgressBar.compactDuration(2.1) == "3s")
    #expect(ProgressBar.compactDuration(245) == "4m05s")
    #expect(ProgressBar.compactDuration(7_800) == "2h10m")
  }
}
