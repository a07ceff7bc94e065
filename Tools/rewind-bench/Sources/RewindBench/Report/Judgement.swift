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
    func rows(_ key: String) -> [Row] { report.rows.filter { $0.key == key } }
    func list(_ rows: [Row], _ format: (Row) -> String) -> String {
      rows.map { "\($0.workload): \(format($0))" }.joined(separator: ", ")
    }
    func add(_ target: String, _ rows: [Row], _ format: (Row) -> String, _ met: (Row) -> Bool) {
      guard !rows.isEmpty else { return }
      report.targets.append(
        TargetCheck(target: target, measured: list(rows, format), met: rows.allSatisfy(met)))
    }
    add(
      "append, batched, one core: ≥ 20 M events/s", rows("append.batched"),
      {
        "\(Format.number($0.rewind.median)) M/s"
      }
    ) { $0.rewind.median >= 20 }
    add("size: ≤ 1.5 bytes/event", rows("size"), { "\(Format.number($0.rewind.median)) B" }) {
      $0.rewind.median <= 1.5
    }
    add(
      "size: ≥ 5× smaller than JSON Lines + zstd -3",
      rows("size").filter { !$0.baselines.isEmpty },
      { "\(Format.number($0.baselines[0].rewindAdvantage))×" }
    ) { $0.baselines[0].rewindAdvantage >= 5 }
    add(
      "full replay, one core: ≥ 50 M events/s", rows("replay"),
      {
        "\(Format.number($0.rewind.median)) M/s"
      }
    ) { $0.rewind.median >= 50 }
    let p99 = rows("stateAt.p99")
    add("state at a random point: p99 ≤ 100 µs", p99, { "\(Format.number($0.rewind.median)) µs" }) {
      $0.rewind.median <= 100
    }
    if let small = p99.first(where: { $0.events == 1_000_000 }) ?? p99.first,
      let large = p99.first(where: { $0.events == 10_000_000 }) ?? p99.last, p99.count > 1
    {
      let ratio = large.rewind.median / small.rewind.median
      report.targets.append(
        TargetCheck(
          target:
            "state at a random point: flat from \(small.workload) to \(large.workload) (p99 within ×1.25)",
          measured: "×\(Format.number(ratio))", met: ratio <= 1.25))
    }
    add(
      "`rewind state --at`: ≤ 30 ms wall (p50)", rows("stateCommand.p50"),
      {
        "\(Format.number($0.rewind.median)) ms"
      }
    ) { $0.rewind.median <= 30 }
    add(
      "peak memory, streaming replay: ≤ 32 MiB", rows("peakMemory"),
      {
        "\(Format.number($0.rewind.median)) MiB"
      }
    ) { $0.rewind.median <= 32 }
    add(
      "Store.send with recording: p99 ≤ 1 µs", rows("send.p99"),
      {
        "\(Format.number($0.rewind.median)) µs"
      }
    ) { $0.rewind.median <= 1 }
  }
}
