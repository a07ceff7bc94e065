import Navigation
import RewindCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The CPU time this process has used (user and system), in seconds.
func processCPUSeconds() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
    + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// The calling thread's voluntary and involuntary context switches and page faults so
/// far (`getrusage(RUSAGE_THREAD)`; zeros where the system does not count them per
/// thread).
func threadInterruptions() -> (voluntary: Int, involuntary: Int, pageFaults: Int) {
  #if os(Linux)
    var usage = rusage()
    let rusageThread: Int32 = 1  // RUSAGE_THREAD, which Glibc's module does not export
    getrusage(__rusage_who_t(rusageThread), &usage)
    return (usage.ru_nvcsw, usage.ru_nivcsw, usage.ru_minflt + usage.ru_majflt)
  #else
    return (0, 0, 0)
  #endif
}

/// The hidden `__profile` command: runs one Rewind figure alone, many times, so that a
/// profiler (`valgrind --tool=callgrind`, `perf record`) sees only its hot path:
///
///     rewind-bench __profile append|single|replay|state|send [events] [repeats]
///                            [frame size] [snapshot interval] [level]
///
/// `send` runs the Store figure alone: one recording store, `events` sends to warm up,
/// then `repeats` rounds of `events` sends timed one by one, then the same with a store
/// that records nothing; it prints each round's percentiles.
enum ProfileMode {
  static func run(_ arguments: [String]) throws {
    let figure = arguments.first ?? "replay"
    let count = arguments.count > 1 ? Options.count(arguments[1]) ?? 1_000_000 : 1_000_000
    let repeats = arguments.count > 2 ? Int(arguments[2]) ?? 1 : 1
    let frameSize = arguments.count > 3 ? Options.count(arguments[3]) : nil
    let interval = arguments.count > 4 ? Options.count(arguments[4]).map(UInt32.init) : nil
    let level = arguments.count > 5 ? Int32(arguments[5]) : nil
    RewindRuns.parameters = (frameSize, level, interval)
    let directory =
      "/tmp/rewind-bench-profile-\(count)-\(frameSize ?? 0)-\(interval ?? 0)-\(level ?? 0)"
    try FileSystem.makeDirectory(directory)
    let workload = Workload(count: count, seed: 1, directory: directory)
    if !FileSystem.exists(workload.journalPath) || figure == "append" || figure == "single" {
      _ = try RewindRuns.append(workload, batched: true, to: workload.journalPath)
    }
    if figure == "send" {
      // The Store figure alone, on one store: `count` sends to warm up, then `repeats`
      // rounds of `count` timed ones; then the same with a store that records nothing,
      // as a control: what the machine's interruptions alone do to the maximum. The
      // sending thread's context switches in each round tell a send that waited
      // (voluntary: it blocked) from one the system preempted (involuntary); its page
      // faults, a send that touched new memory.
      let overhead = MonotonicClock.readingOverhead()
      var switches: [(voluntary: Int, involuntary: Int, pageFaults: Int)] = []
      func noteSwitches(_ round: Int) { switches.append(threadInterruptions()) }
      let recording = try recordingSendLatencies(
        workload, path: directory + "/send.journal", count: count, rounds: repeats,
        overhead: overhead, between: noteSwitches)
      let memory = Store(domain: workload.domain)
      let control = sendLatencies(
        events: workload.events, count: count, rounds: repeats, overhead: overhead,
        between: noteSwitches
      ) { _ = memory.send($0) }
      for (index, (label, rounds)) in [("recording", recording), ("not recording", control)]
        .enumerated()
      {
        for (round, latency) in rounds.enumerated() {
          let before = switches[index * (repeats + 1) + round]
          let after = switches[index * (repeats + 1) + round + 1]
          print(
            "Store.send, \(label), µs: p50 \(Format.number(latency.p50 / 1e3)), p99 \(Format.number(latency.p99 / 1e3)), max \(Format.number(latency.max / 1e3)); context switches: \(after.voluntary - before.voluntary) voluntary, \(after.involuntary - before.involuntary) involuntary; page faults: \(after.pageFaults - before.pageFaults)"
          )
        }
      }
      return
    }
    var seconds: [Double] = []
    var cpu: [Double] = []
    for _ in 0..<repeats {
      let cpuStart = processCPUSeconds()
      defer { cpu.append(processCPUSeconds() - cpuStart) }
      switch figure {
      case "append":
        seconds.append(try RewindRuns.append(workload, batched: true, to: workload.journalPath))
      case "single":
        seconds.append(try RewindRuns.append(workload, batched: false, to: workload.journalPath))
      case "replay":
        seconds.append(try RewindRuns.replay(workload.journalPath, expecting: count))
      case "state":
        let timeline = try Timeline<NavigationDomain>(path: workload.journalPath)
        var random = SeededRandom(seed: 7)
        let points = (0..<2_000).map { _ in random.below(UInt64(count)) + 1 }
        var starts: [UInt64] = []
        let samples = try RewindRuns.stateLatencies(
          timeline, points: points, overhead: 0, starts: &starts)
        let sorted = samples.sorted()
        let ranks = [0.5, 0.9, 0.95, 0.99, 0.999, 1.0].map { fraction in
          "p\(Format.number(fraction * 100)) \(Format.number(sorted[min(sorted.count - 1, Int(fraction * Double(sorted.count)))] / 1e3))"
        }
        print("state(after:) µs: " + ranks.joined(separator: ", "))
        print("state(after:) " + Interruptions(samples: samples, starts: starts).line)
        seconds.append(samples.reduce(0, +) / 1e9)
      default:
        throw BenchError("unknown figure '\(figure)' (append, single, replay, state, send)")
      }
    }
    let best = seconds.min() ?? 0
    let bestCPU = cpu.min() ?? 0
    print(
      "\(figure) \(Workload.name(of: count)): best of \(repeats): \(Format.number(Double(count) / best / 1e6)) M events/s wall, \(Format.number(Double(count) / bestCPU / 1e6)) M events/s CPU time"
    )
  }
}
