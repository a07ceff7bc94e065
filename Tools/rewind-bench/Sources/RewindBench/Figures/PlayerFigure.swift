import Navigation
import RewindCore
import RewindPlayer
import RewindTerminal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The CPU time the calling thread has used, nanoseconds (`CLOCK_THREAD_CPUTIME_ID`):
/// what a keypress costs without the time the machine gave to other processes.
func threadCPUNanoseconds() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// The terminal size the player figure draws at: a large full-screen terminal, so that
/// drawing and diffing cost what they cost on a big screen.
let playerScreenSize = TerminalSize(columns: 200, rows: 50)

extension Bench {
  /// The time-travel player, in process: keypresses through the player app to a
  /// finished redraw into an off-screen buffer (the model's step, the draw on a fresh
  /// `Screen`, and the diff renderer's bytes against the previous screen).
  ///
  /// Holding `→`: from the start and from four points spread over the journal, a run of
  /// `→` presses each, every press timed. A jump: `g` to a random event, timed the same
  /// way. Opening: the journal opened and the player made (its density strip reads the
  /// outcome of every event) and drawn once.
  func measurePlayer(journal path: String, workload: String) throws {
    let events = Int(try Timeline<NavigationDomain>(path: path).eventCount)
    let presses = options.playerPresses
    let jumps = max(presses / 4, 10)
    log(
      "  player on \(path): \(options.runs) rounds of \(presses) → presses and \(jumps) jumps, 200×50"
    )
    var opens: [Double] = []
    var holds: [Latency] = []
    var jumpLatencies: [Latency] = []
    var skipLatencies: [Latency] = []
    let skips = 5
    var bytes: [Double] = []
    // The model's step, the draw and the diff of every timed press, nanoseconds.
    var parts: [[Double]] = [[], [], []]
    // The thread's CPU time of every timed press, nanoseconds.
    var cpu: [Double] = []
    var cpuLatencies: [Latency] = []
    var random = SeededRandom(seed: options.seed &+ 0x9_1A7E)
    for round in 0...options.runs {
      let start = MonotonicClock.now()
      let timeline = try Timeline<NavigationDomain>(path: path)
      var app = PlayerApp(player: try Player(timeline: timeline), title: path)
      var shown = Screen(size: playerScreenSize)
      app.draw(on: &shown)
      _ = ScreenRenderer.update(from: nil, to: shown, colors: .trueColor)
      let opened = Double(MonotonicClock.now() - start) / 1e9
      let last = app.player.lastSequence
      // One timed keypress: the model, the draw, the diff (each part timed too).
      func press(_ event: InputEvent) -> (nanoseconds: Double, bytes: Int) {
        let cpuBefore = threadCPUNanoseconds()
        let before = MonotonicClock.now()
        _ = app.handle(event)
        let stepped = MonotonicClock.now()
        var next = Screen(size: playerScreenSize)
        app.draw(on: &next)
        let drawn = MonotonicClock.now()
        let output = ScreenRenderer.update(from: shown, to: next, colors: .trueColor)
        let after = MonotonicClock.now()
        cpu.append(Double(threadCPUNanoseconds() - cpuBefore))
        shown = next
        blackHole(output.count)
        parts[0].append(Double(stepped - before))
        parts[1].append(Double(drawn - stepped))
        parts[2].append(Double(after - drawn))
        return (max(Double(after - before) - clockOverhead, 0), output.count)
      }
      var samples: [Double] = []
      var written = 0
      if round == 1 { parts = [[], [], []] }
      cpu = []
      let starts = [0] + (1...4).map { last / 5 * UInt64($0) }
      for point in starts {
        _ = press(.key(.home))
        if point > 0 { _ = app.player.perform(.go(to: .sequence(point))) }
        for _ in 0..<(presses / starts.count) {
          let (time, count) = press(.key(.right))
          samples.append(time)
          written += count
        }
      }
      var jumpSamples: [Double] = []
      for _ in 0..<jumps {
        let target = random.below(last + 1)
        let before = MonotonicClock.now()
        _ = app.player.perform(.go(to: .sequence(target)))
        var next = Screen(size: playerScreenSize)
        app.draw(on: &next)
        blackHole(ScreenRenderer.update(from: shown, to: next, colors: .trueColor).count)
        jumpSamples.append(max(Double(MonotonicClock.now() - before) - clockOverhead, 0))
        shown = next
      }
      // x at events drawn at random: the counterfactual without the event, its later
      // events compared with the recording to the session's end; x again restores it,
      // untimed.
      var skipSamples: [Double] = []
      for _ in 0..<skips where last > 0 {
        _ = app.player.perform(.go(to: .sequence(1 + random.below(last))))
        var next = Screen(size: playerScreenSize)
        app.draw(on: &next)
        shown = next
        let before = MonotonicClock.now()
        _ = app.handle(.key(.character("x")))
        next = Screen(size: playerScreenSize)
        app.draw(on: &next)
        blackHole(ScreenRenderer.update(from: shown, to: next, colors: .trueColor).count)
        skipSamples.append(max(Double(MonotonicClock.now() - before) - clockOverhead, 0))
        _ = app.handle(.key(.character("x")))
        shown = Screen(size: playerScreenSize)
        app.draw(on: &shown)
      }
      guard round > 0 else { continue }  // the first round warms up
      if !skipSamples.isEmpty { skipLatencies.append(Latency(samples: skipSamples)) }
      opens.append(opened)
      holds.append(Latency(samples: samples))
      cpuLatencies.append(Latency(samples: cpu))
      jumpLatencies.append(Latency(samples: jumpSamples))
      bytes.append(Double(written) / Double(samples.count))
    }
    let medians = parts.map { Latency(samples: $0).p50 / 1e3 }
    let note =
      "\(workload == "given" ? path : "the \(workload) workload"): \(Format.number(Double(events) / 1e6)) M events; the median of \(options.runs) rounds after a warm-up round (range: the rounds' lowest and highest); each round \(presses) → presses (from the start and from 1/5…4/5 of the journal), timed one by one from the key to the renderer's bytes for a \(playerScreenSize.columns)×\(playerScreenSize.rows) screen; \(Format.number(Summary(bytes).median)) bytes written per press; of a press at the median, the model's step \(Format.number(medians[0])) µs, the draw \(Format.number(medians[1])) µs, the diff \(Format.number(medians[2])) µs"
    for (key, label, pick) in [
      ("player.right.p50", "player, → to redraw, p50", \Latency.p50),
      ("player.right.p99", "player, → to redraw, p99", \Latency.p99),
      ("player.right.max", "player, → to redraw, max", \Latency.max),
    ] as [(String, String, KeyPath<Latency, Double>)] {
      addRow(
        key, label, workload: nil, unit: "ms", higherIsBetter: false,
        rewind: Summary(holds.map { $0[keyPath: pick] / 1e6 }), note: note)
    }
    addRow(
      "player.right.cpu.p99", "player, → to redraw, p99 of the thread's CPU time", workload: nil,
      unit: "ms", higherIsBetter: false, rewind: Summary(cpuLatencies.map { $0.p99 / 1e6 }),
      note:
        "the same presses measured with CLOCK_THREAD_CPUTIME_ID: the work of a press without the time the machine gave to other processes (median of the rounds' p50: \(Format.number(Summary(cpuLatencies.map { $0.p50 / 1e3 }).median)) µs)"
    )
    addRow(
      "player.jump.p99", "player, g to a random event and redraw, p99", workload: nil, unit: "ms",
      higherIsBetter: false, rewind: Summary(jumpLatencies.map { $0.p99 / 1e6 }),
      note: "\(jumps) jumps a round to events drawn at random, timed like a → press")
    if !skipLatencies.isEmpty {
      addRow(
        "player.skip.p50", "player, x at a random event and redraw, p50", workload: nil,
        unit: "ms", higherIsBetter: false, rewind: Summary(skipLatencies.map { $0.p50 / 1e6 }),
        note:
          "\(skips) events a round drawn at random, each skipped with x (the state without it, and every later event's effect compared with the recording's to the session's end) and redrawn, timed like a → press; x again restores it, untimed"
      )
    }
    addRow(
      "player.open", "player, open and first draw", workload: nil, unit: "s",
      higherIsBetter: false, rewind: Summary(opens),
      note:
        "the journal opened, the density strip read from every event's recorded outcome, the first screen drawn"
    )
  }
}
