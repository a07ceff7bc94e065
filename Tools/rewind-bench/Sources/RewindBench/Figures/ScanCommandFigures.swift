extension Bench {
  /// Throughput of the commands that walk a whole session, as child processes of the
  /// release `rewind` with their output to /dev/null or a file, against `zstd -dc` of the
  /// same journal to /dev/null in the same rounds (a ratio of 0.5: half zstd's speed).
  ///
  /// `find --all` and `check` run with one job, then `check` with the default jobs (the
  /// cores), whose ratio to one job is the parallel speed-up; `export` writes its JSON
  /// Lines to a file.
  func measureScanCommands(_ workloads: [Workload]) throws {
    let binary = try rewindBinary()
    for workload in workloads {
      let journal = "'\(workload.journalPath)'"
      let output = "'\(workload.scratchPath).jsonl'"
      let commands: [(key: String, figure: String, command: String)] = [
        ("zstd", "zstd -dc", "zstd -dc \(journal) > /dev/null"),
        (
          "scan.find", "`find --where 'changed(split.style)' --all --jobs 1`",
          "'\(binary)' find \(journal) --where 'changed(split.style)' --all --jobs 1 > /dev/null"
        ),
        ("scan.check", "`check --jobs 1`", "'\(binary)' check \(journal) --jobs 1 > /dev/null"),
        ("scan.checkJobs", "`check` (jobs: the cores)", "'\(binary)' check \(journal) > /dev/null"),
        (
          "scan.export", "`export -o FILE`",
          "'\(binary)' export \(journal) -o \(output) --force > /dev/null"
        ),
      ]
      log(
        "\(workload.name): whole-session commands and zstd -dc, \(options.runs) rounds after a warm-up"
      )
      func run(_ command: String) throws -> Double {
        let result = try ChildProcess.shell(command)
        guard result.status == 0 else {
          throw BenchError("`\(command)` exited with \(result.status): \(result.output)")
        }
        return result.seconds
      }
      for item in commands { _ = try run(item.command) }
      var seconds = [[Double]](repeating: [], count: commands.count)
      for _ in 0..<options.runs {
        for (index, item) in commands.enumerated() { seconds[index].append(try run(item.command)) }
      }
      try? FileSystem.remove(workload.scratchPath + ".jsonl")
      let events = Double(workload.count)
      let rates = seconds.map { Summary($0).mapped { events / $0 / 1e6 } }
      for index in commands.indices.dropFirst() {
        var baselines = [(Baseline.zstdJournal, rates[0])]
        if commands[index].key == "scan.checkJobs" {
          baselines.append((Baseline.oneJob, rates[2]))
        }
        addRow(
          commands[index].key, commands[index].figure, workload: workload, unit: "M events/s",
          higherIsBetter: true, rewind: rates[index], baselines: baselines,
          note:
            "wall clock of the child process, process start included; the same rounds time `zstd -dc JOURNAL > /dev/null`"
        )
      }
    }
  }
}
