import Foundation
import Navigation
import RewindCore

extension Bench {
  /// `Store.send` latency with recording on, timed call by call on the caller's thread
  /// (the writer thread compresses and writes meanwhile), against a store that records
  /// nothing and against writing JSON Lines on the caller's thread.
  func measureStoreSend(_ workload: Workload) throws {
    let count = options.sends
    let events = workload.events
    let domain = workload.domain
    log("  Store.send: \(count) sends after \(count) to warm up, timed one by one")

    let rounds = options.runs
    func latencies(_ send: (NavigationEvent) throws -> Void) rethrows -> [Latency] {
      try sendLatencies(
        events: events, count: count, rounds: rounds, overhead: clockOverhead, send)
    }

    let recording = try recordingSendLatencies(
      workload, path: directory + "/store.journal", count: count, rounds: rounds,
      overhead: clockOverhead)

    let memory = Store(domain: domain)
    let inMemory = latencies { _ = memory.send($0) }

    let jsonPath = directory + "/caller.jsonl.zst"
    let writer = try ZstdFileWriter(path: jsonPath, level: 3)
    let encoder = JSONEncoder()
    var state = domain.initialState
    var sequence: UInt64 = 0
    var buffer: [UInt8] = []
    buffer.reserveCapacity(JSONLinesBaseline.chunkSize + 512)
    let jsonLines = try latencies { event in
      _ = domain.reduce(&state, event)
      sequence += 1
      let line = try encoder.encode(
        JSONEvent(sequence: sequence, time: sequence * 16_667, event: event, domain: domain))
      buffer.append(contentsOf: line)
      buffer.append(0x0A)
      if buffer.count >= JSONLinesBaseline.chunkSize {
        try writer.write(buffer)
        buffer.removeAll(keepingCapacity: true)
      }
    }
    try writer.finish()
    try FileSystem.remove(jsonPath)

    for (key, label, pick) in [
      ("send.p50", "Store.send, recording, p50", \Latency.p50),
      ("send.p99", "Store.send, recording, p99", \Latency.p99),
      ("send.max", "Store.send, recording, max", \Latency.max),
    ] as [(String, String, KeyPath<Latency, Double>)] {
      func summary(_ rounds: [Latency]) -> Summary {
        Summary(rounds.map { $0[keyPath: pick] / 1e3 })
      }
      addRow(
        key, label, workload: nil, unit: "µs", higherIsBetter: false,
        rewind: summary(recording),
        baselines: [
          (Baseline.inMemoryStore, summary(inMemory)),
          (Baseline.jsonLinesOnCaller, summary(jsonLines)),
        ],
        note:
          "each send timed with clock_gettime(CLOCK_MONOTONIC), minus one reading's cost (\(String(format: "%.0f", clockOverhead)) ns); the median of \(rounds) rounds of \(count) sends after \(count) warm-up sends, back to back (range: the rounds' lowest and highest); default RecordingOptions (fsync per sealed frame, on the writer thread)"
      )
    }
  }
}

/// Times `send` call by call on the caller's thread: `count` untimed calls to warm up,
/// then `rounds` rounds of `count` timed ones, cycling through `events`; each sample
/// has one clock reading's cost (`overhead`, nanoseconds) subtracted. `between` runs,
/// untimed, before each timed round (with its index) and after the last (with `rounds`).
/// - Returns: the latencies of each round, in nanoseconds.
func sendLatencies(
  events: [TimedEvent<NavigationEvent>], count: Int, rounds: Int, overhead: Double,
  between: (Int) -> Void = { _ in }, _ send: (NavigationEvent) throws -> Void
) rethrows -> [Latency] {
  func event(_ index: Int) -> NavigationEvent { events[index % events.count].event }
  for index in 0..<count { try send(event(index)) }
  var result: [Latency] = []
  var samples = [Double](repeating: 0, count: count)
  for round in 0..<rounds {
    between(round)
    for index in 0..<count {
      let next = event(count * (round + 1) + index)
      let start = MonotonicClock.now()
      try send(next)
      let end = MonotonicClock.now()
      samples[index] = max(Double(end - start) - overhead, 0)
    }
    result.append(Latency(samples: samples))
  }
  between(rounds)
  return result
}

/// ``sendLatencies(events:count:rounds:overhead:_:)`` of a `Store` recording the workload
/// into a new journal at `path` with the default `RecordingOptions`; checks that the
/// journal holds every event sent, and removes it.
func recordingSendLatencies(
  _ workload: Workload, path: String, count: Int, rounds: Int, overhead: Double,
  between: (Int) -> Void = { _ in }
) throws -> [Latency] {
  try FileSystem.remove(path)
  let store = try Store(
    domain: workload.domain, recordingTo: path, session: workload.session,
    options: RecordingOptions())
  let latencies = sendLatencies(
    events: workload.events, count: count, rounds: rounds, overhead: overhead,
    between: between
  ) { _ = store.send($0) }
  try store.close()
  let recorded = try Timeline<NavigationDomain>(path: path).eventCount
  guard recorded == UInt64((rounds + 1) * count) else {
    throw BenchError("the store recorded \(recorded) events, not \((rounds + 1) * count)")
  }
  try FileSystem.remove(path)
  return latencies
}
