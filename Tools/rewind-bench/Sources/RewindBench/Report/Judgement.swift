extension Bench {
  /// How each figure's cost grows from the smallest to the largest workload measured.
  func computeGrowth() {
    let keys = ["append.batched", "append.single", "size", "replay", "stateAt.p50", "stateAt.p99"]
    for key in keys {
      let rows = report.rows.filter { $0.key == key }
      guard let small = rows.first, let large = rows.last, rows.count > 1 else { continue }
      // Per-event (or per-query) cost: the inverse of a throughput.
      let ratio =
        small.better == "higher"
        ? small.rewind.median / large.rewind.median : large.rewind.median / small.rewind.median
      report.growth.append(
        Growth(
          key: key, figure: small.figure, unit: small.unit, small: small.workload,
          large: large.workload, smallValue: small.rewind.median,
          largeValue: large.rewind.median, costRatio: ratio))
    }
  }

  /// Judges the targets of BRIEF §5 on the medians (p99 where the target says p99).
  func checkTargets() {
    let checks: [(target: String, key: String, unit: String, met: (Double) -> Bool)] = [
      ("append, batched, one core: ≥ 20 M events/s", "append.batched", "M/s", { $0 >= 20 }),
      ("size: ≤ 1.5 bytes/event", "size", "B", { $0 <= 1.5 }),
      ("full replay, one core: ≥ 50 M events/s", "replay", "M/s", { $0 >= 50 }),
      ("state at a random point: p99 ≤ 100 µs", "stateAt.p99", "µs", { $0 <= 100 }),
      ("`rewind state --at`: ≤ 30 ms wall (p50)", "stateCommand.p50", "ms", { $0 <= 30 }),
      ("peak memory, streaming replay: ≤ 32 MiB", "peakMemory", "MiB", { $0 <= 32 }),
      ("Store.send with recording: p99 ≤ 1 µs", "send.p99", "µs", { $0 <= 1 }),
      (
        "terminal player, → to finished redraw: p99 ≤ 16 ms", "player.right.p99", "ms", { $0 <= 16 }
      ),
    ]
    for check in checks {
      let rows = report.rows.filter { $0.key == check.key }
      guard !rows.isEmpty else { continue }
      let measured = rows.map { "\($0.workload): \(Format.number($0.rewind.median)) \(check.unit)" }
      report.targets.append(
        TargetCheck(
          target: check.target, measured: measured.joined(separator: ", "),
          met: rows.allSatisfy { check.met($0.rewind.median) }))
      if check.key == "size" {
        let compared = rows.filter { !$0.baselines.isEmpty }
        if !compared.isEmpty {
          let ratios = compared.map { ($0.workload, $0.baselines[0].rewindAdvantage) }
          report.targets.append(
            TargetCheck(
              target: "size: ≥ 5× smaller than JSON Lines + zstd -3",
              measured: ratios.map { "\($0.0): ×\(Format.number($0.1))" }.joined(separator: ", "),
              met: ratios.allSatisfy { $0.1 >= 5 }))
        }
      }
      if check.key == "stateAt.p99", rows.count > 1 {
        let small = rows.first { $0.events == 1_000_000 } ?? rows[0]
        let large = rows.first { $0.events == 10_000_000 } ?? rows[rows.count - 1]
        let ratio = large.rewind.median / small.rewind.median
        report.targets.append(
          TargetCheck(
            target:
              "state at a random point: flat from \(small.workload) to \(large.workload) (p99 within ×1.25)",
            measured: "×\(Format.number(ratio))", met: ratio <= 1.25))
      }
    }
  }
}
