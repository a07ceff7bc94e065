import Foundation

extension Report {
  /// The report as Markdown: the machine, the figures with their baselines, the growth
  /// from the smallest to the largest workload, and the targets.
  var table: String {
    var lines: [String] = []
    lines.append(
      "Machine: \(machine.cpu), \(machine.cores) cores, \(machine.memory), \(machine.kernel)")
    lines.append("Toolchain: \(machine.swift); \(machine.zstd); \(machine.sqlite)")
    lines.append(
      "Load average: \(machine.loadAtStart) at the start, \(machine.loadAtEnd) at the end")
    lines.append("Command: `\(command)`")
    lines.append(
      "Runs: median of \(settings.runs) (baselines \(settings.baselineRuns)) after one warm-up; (min–max) in brackets; ×N: how many times better Rewind is (medians)."
    )
    lines.append("")
    let columns = [Baseline.jsonLines, Baseline.sqlite]
    if !rows.isEmpty {
      lines.append(
        "| figure | events | unit | Rewind | \(columns.joined(separator: " | ")) | other baseline |"
      )
      lines.append(
        "| --- | --- | --- | --- |" + String(repeating: " --- |", count: columns.count + 1))
      for row in rows {
        var cells = [
          row.figure, row.workload, row.unit + (row.better == "higher" ? " ↑" : " ↓"),
          Format.summary(row.rewind),
        ]
        for column in columns {
          if let comparison = row.baselines.first(where: { $0.name == column }) {
            cells.append(
              "\(Format.summary(comparison.value)) \(Format.advantage(comparison.rewindAdvantage))")
          } else {
            cells.append("—")
          }
        }
        let others = row.baselines.filter { !columns.contains($0.name) }.map {
          "\($0.name): \(Format.summary($0.value)) \(Format.advantage($0.rewindAdvantage))"
        }
        cells.append(others.isEmpty ? "—" : others.joined(separator: "; "))
        lines.append("| " + cells.map(escaped).joined(separator: " | ") + " |")
      }
    }
    if !scans.isEmpty {
      lines.append("")
      lines.append(
        "| scan | events | --jobs | M events/s ↑ | time ÷ zstd -dc's | speed-up over --jobs 1 | peak RSS (MiB) |"
      )
      lines.append("| --- | --- | --- | --- | --- | --- | --- |")
      for scan in scans {
        let cells = [
          scan.command,
          scan.key == "scan.checkFour" || scan.key == "scan.checkFour.jobs1"
            ? "4 × \(scan.workload)" : scan.workload,
          scan.jobs, Format.summary(scan.rate),
          scan.key == "zstd" ? "1" : "×" + Format.number(scan.zstdTimeRatio),
          scan.speedUp.map { "×" + Format.number($0) } ?? "—",
          scan.peakMiB.map(Format.number) ?? "—",
        ]
        lines.append("| " + cells.map(escaped).joined(separator: " | ") + " |")
      }
    }
    if !growth.isEmpty {
      lines.append("")
      lines.append("| growth | unit | small | large | cost per event (or query), large ÷ small |")
      lines.append("| --- | --- | --- | --- | --- |")
      for item in growth {
        lines.append(
          "| \(item.figure) | \(item.unit) | \(item.small): \(Format.number(item.smallValue)) | \(item.large): \(Format.number(item.largeValue)) | ×\(Format.number(item.costRatio)) |"
        )
      }
    }
    if !targets.isEmpty {
      lines.append("")
      lines.append("| target (BRIEF §5, issue 17) | measured (median) | met |")
      lines.append("| --- | --- | --- |")
      for target in targets {
        lines.append("| \(target.target) | \(target.measured) | \(target.met ? "yes" : "**no**") |")
      }
    }
    if !notes.isEmpty || rows.contains(where: { $0.note != nil }) {
      lines.append("")
      lines.append("Notes:")
      var seen: Set<String> = []
      for row in rows {
        guard let note = row.note, !seen.contains(row.key) else { continue }
        seen.insert(row.key)
        lines.append("- \(row.figure): \(note).")
      }
      for note in notes { lines.append("- \(note)") }
    }
    return lines.joined(separator: "\n")
  }
}

/// A table cell's text with its pipes escaped, so that Markdown keeps it in one cell.
private func escaped(_ cell: String) -> String {
  cell.replacingOccurrences(of: "|", with: "\\|")
}
