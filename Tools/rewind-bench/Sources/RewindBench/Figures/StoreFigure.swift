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
    func event(_ index: Int) -> NavigationEvent { events[index % events.count].event }
    log("  Store.send: \(count) sends after \(count) to warm up, timed one by one")

    let rounds = options.runs
    /// Times `send` for `rounds` rounds of `count` events after `count` untimed ones.
    func latencies(_ send: (NavigationEvent) throws -> Void) rethrows -> [Latency] {
      for index in 0..<count { try send(event(index)) }
      var result: [Latency] = []
      var samples = [Double](repeating: 0, count: count)
      for round in 0..<rounds {
        for index in 0..<count {
          let next = event(count * (round + 1) + index)
          let start = MonotonicClock.now()
          try send(next)
          let end = MonotonicClock.now()
          samples[index] = max(Double(end - start) - clockOverhead, 0)
        }
        result.append(Latency(samples: samples))
      }
      return result
    }

    let path = directory + "/store.journal"
    try FileSystem.remove(path)
    let store = try Store(
      domain: domain, recordingTo: path, session: workload.session, options: RecordingOptions())
    let recording = latencies { _ = store.send($0) }
    try store.close()
    let recorded = try Timeline<NavigationDomain>(path: path).eventCount
    guard recorded == UInt64((rounds + 1) * count) else {
      throw BenchError("the store recorded \(recorded) events, not \((rounds + 1) * count)")
    }
    try FileSystem.remove(path)

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
