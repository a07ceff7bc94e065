#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A journal the scan figures run the commands on.
struct ScanJournal {
  /// `1M`, `10M`, …
  var name: String
  var count: Int
  var path: String
  /// A path prefix where the figures may write and delete files.
  var scratch: String
}

/// One command line of the scan figures.
private struct ScanCommand {
  var key: String
  /// The command as the table shows it.
  var figure: String
  /// `--jobs`: 1, nil for the default (the cores), or nil for a command without it.
  var jobs: Int?
  /// Whether the command takes `--jobs`.
  var takesJobs: Bool
  /// The events it scans: the journal's, or four times that for four copies.
  var copies = 1
  /// The program (a path) and its arguments, run without a shell.
  var arguments: [String]
  /// The file its standard output goes to.
  var output = "/dev/null"
  /// The key of the same command with one job, whose rate the speed-up divides.
  var oneJob: String?

  /// The command as a shell would run it, for the report.
  var line: String {
    arguments.map(shellWord).joined(separator: " ") + " > " + shellWord(output)
  }
}

extension Bench {
  /// Throughput of the scan figures on the workloads' journals (see
  /// ``measureScans(_:)``).
  func measureScanCommands(_ workloads: [Workload]) throws {
    try measureScans(
      workloads.map {
        ScanJournal(name: $0.name, count: $0.count, path: $0.journalPath, scratch: $0.scratchPath)
      })
  }

  /// `--scans-only`: the scan figures alone, on journals `rewind generate` writes (a
  /// child process, so that this program holds no workload: at 100 M events it stays
  /// small).
  func runScansOnly() throws {
    let binary = try rewindBinary()
    var journals: [ScanJournal] = []
    for size in options.sizes where measuresScans {
      let name = Workload.name(of: size)
      let directory = self.directory + "/" + name
      let path = try generateJournal(
        binary: binary, events: size, in: directory, logLabel: name)
      journals.append(
        ScanJournal(name: name, count: size, path: path, scratch: directory + "/scratch"))
    }
    if measuresScans {
      report.notes.append(
        "--scans-only: the journals are `rewind generate --events N --seed \(options.seed)`.")
      try measureScans(journals)
    }
    if measuresPage { try measurePageCommand() }
  }

  /// Writes `rewind generate --events EVENTS --seed SEED`'s journal as `events.journal` in
  /// `directory` (made first) with `binary`; returns its path.
  func generateJournal(binary: String, events: Int, in directory: String, logLabel: String)
    throws -> String
  {
    try FileSystem.makeDirectory(directory)
    let path = directory + "/events.journal"
    log("\(logLabel): rewind generate --events \(events) --seed \(options.seed)")
    let result = try ChildProcess.run(
      [
        binary, "generate", "--events", String(events), "--seed", String(options.seed), "-o",
        path, "--force",
      ])
    guard result.status == 0 else {
      throw BenchError("rewind generate exited with \(result.status)")
    }
    return path
  }

  /// Throughput and peak memory of the commands that walk a whole session, as child
  /// processes of the release `rewind` with their output to /dev/null or a file, against
  /// `zstd -dc` of the same journal to /dev/null in the same rounds.
  ///
  /// Each command that takes `--jobs` runs with one job and with the default (the
  /// cores); the rate with the default over the rate with one job is the parallel
  /// speed-up. `check` of four copies of the journal is `check` of several journals.
  /// `export` writes JSON Lines to a file that `import` then reads.
  ///
  /// The timed rounds spawn each program itself (`posix_spawn` of the binary with its
  /// arguments, standard output opened by the spawn's file actions, the wall clock from
  /// before the spawn to `wait4`): no shell and no `/usr/bin/time` in the figure, which at
  /// 1 M events (20–40 ms a command) would add their own start and its swings. When every
  /// scan took under 0.2 s in the memory round (the warm-up, through `/usr/bin/time`, so
  /// slower than a timed round: the test errs towards fewer rounds), there are at least 15
  /// timed rounds, for a stable median.
  ///
  /// Peak resident memory is measured in rounds of its own before the timed ones (which
  /// are also the warm-up: the journal and the binaries in the page cache, the file
  /// import reads written): the `ru_maxrss` that `wait4` gives `/usr/bin/time` for its
  /// child (a child this program spawned itself would carry this program's own high-water
  /// mark over `exec`); without `/usr/bin/time` it is not measured, and one untimed round
  /// warms up.
  func measureScans(_ journals: [ScanJournal]) throws {
    let binary = try rewindBinary()
    guard let zstd = ChildProcess.path(of: "zstd") else {
      throw BenchError("zstd is not in PATH: the scan figures compare with `zstd -dc`")
    }
    let cores = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    let measuresMemory = FileSystem.exists("/usr/bin/time")
    if !measuresMemory {
      report.notes.append("Scan figures: /usr/bin/time is missing, so peak memory is not measured.")
    }
    report.notes.append(
      "Scan figures: each program spawned itself (posix_spawn, output to /dev/null or the file, "
        + "wall clock to wait4: no shell, no /usr/bin/time in the times); peak memory from a round "
        + "of its own through /usr/bin/time, before the timed rounds (also the warm-up).")
    for journal in journals {
      let path = journal.path
      let copies = (1...3).map { "\(journal.scratch)-copy\($0).journal" }
      for copy in copies {
        let result = try ChildProcess.shell("cp '\(path)' '\(copy)'")
        guard result.status == 0 else { throw BenchError("cannot copy \(journal.path)") }
      }
      let jsonLines = journal.scratch + ".jsonl"
      let imported = journal.scratch + "-imported.journal"
      let condition = ["--where", "changed(split.style)"]
      let conditionFigure = "--where 'changed(split.style)'"
      var commands: [ScanCommand] = [
        ScanCommand(
          key: "zstd", figure: "zstd -dc", takesJobs: false, arguments: [zstd, "-dc", path])
      ]
      func add(
        _ key: String, _ figure: String, copies: Int = 1, jobs: Bool = true,
        _ arguments: [String]
      ) {
        if let only = options.scanCommands, !only.contains(String(key.dropFirst("scan.".count))) {
          return
        }
        guard jobs else {
          commands.append(
            ScanCommand(
              key: key, figure: figure, takesJobs: false, copies: copies,
              arguments: [binary] + arguments))
          return
        }
        commands.append(
          ScanCommand(
            key: key + ".jobs1", figure: figure, jobs: 1, takesJobs: true, copies: copies,
            arguments: [binary] + arguments + ["--jobs", "1"]))
        commands.append(
          ScanCommand(
            key: key, figure: figure, jobs: nil, takesJobs: true, copies: copies,
            arguments: [binary] + arguments, oneJob: key + ".jobs1"))
      }
      add("scan.find", "find \(conditionFigure) --all", ["find", path] + condition + ["--all"])
      add(
        "scan.count", "find \(conditionFigure) --count", ["find", path] + condition + ["--count"])
      add("scan.log", "log \(conditionFigure)", ["log", path] + condition)
      add("scan.check", "check", ["check", path])
      add("scan.checkFour", "check of 4 copies", copies: 4, ["check", path] + copies)
      add("scan.verifyDeep", "verify --deep", ["verify", path, "--deep"])
      add(
        "scan.export", "export -o FILE", jobs: false,
        ["export", path, "-o", jsonLines, "--force"])
      add(
        "scan.import", "import FILE -o JOURNAL", jobs: false,
        ["import", jsonLines, "-o", imported, "--force"])
      let rss = journal.scratch + ".rss"
      func run(_ command: ScanCommand) throws -> Double {
        let result = try ChildProcess.run(command.arguments, output: command.output)
        guard result.status == 0 else {
          throw BenchError("`\(command.line)` exited with \(result.status)")
        }
        return result.seconds
      }
      func peak(_ command: ScanCommand) throws -> (seconds: Double, kibibytes: Int) {
        let result = try ChildProcess.run(
          ["/usr/bin/time", "-f", "%M", "-o", rss] + command.arguments, output: command.output)
        guard result.status == 0 else {
          throw BenchError("`\(command.line)` exited with \(result.status)")
        }
        let text = FileSystem.text(rss) ?? ""
        guard let kibibytes = Int(text.split(separator: "\n").last ?? "") else {
          throw BenchError("/usr/bin/time wrote '\(text)' for `\(command.line)`")
        }
        return (result.seconds, kibibytes)
      }
      _ = try ChildProcess.run([binary, "--version"])
      // The memory round, which is also the warm-up (the journal and the binaries in the
      // page cache, the file import reads written).
      log("\(journal.name): whole-session commands and zstd -dc, peak memory (and warm-up)")
      var peaks = [Int?](repeating: nil, count: commands.count)
      var firstSeconds = [Double](repeating: 0, count: commands.count)
      for (index, command) in commands.enumerated() {
        if measuresMemory {
          (firstSeconds[index], peaks[index]) = try peak(command)
        } else {
          firstSeconds[index] = try run(command)
        }
      }
      let scans = commands.indices.filter { commands[$0].takesJobs || $0 == 0 }
      let short = scans.allSatisfy { firstSeconds[$0] < 0.2 }
      let rounds = short ? max(options.runs, 15) : options.runs
      if rounds > options.runs {
        report.notes.append(
          "Scan figures at \(journal.name): every scan took under 0.2 s, so \(rounds) timed rounds."
        )
      }
      log("\(journal.name): whole-session commands and zstd -dc, \(rounds) timed rounds")
      var seconds = [[Double]](repeating: [], count: commands.count)
      for _ in 0..<rounds {
        for (index, command) in commands.enumerated() {
          seconds[index].append(try run(command))
        }
      }
      for file in [jsonLines, imported, rss] + copies {
        try? FileSystem.remove(file)
      }
      let rates = commands.indices.map { index in
        Summary(seconds[index]).mapped { Double(journal.count * commands[index].copies) / $0 / 1e6 }
      }
      // The median of each round's ratio of two commands' times for one copy of the
      // journal (`Summary(ratiosOf:to:)`).
      func roundRatio(_ index: Int, over other: Int) -> Double {
        func perCopy(_ command: Int) -> [Double] {
          seconds[command].map { $0 / Double(commands[command].copies) }
        }
        return Summary(ratiosOf: perCopy(index), to: perCopy(other)).median
      }
      for (index, command) in commands.enumerated() {
        let oneJob = command.oneJob.flatMap { key in commands.firstIndex { $0.key == key } }
        let jobs =
          command.takesJobs ? command.jobs.map(String.init) ?? "default (\(cores))" : "—"
        report.scans.append(
          ScanFigure(
            key: command.key, command: command.figure, workload: journal.name,
            events: journal.count * command.copies, jobs: jobs, rate: rates[index],
            zstdTimeRatio: roundRatio(index, over: 0),
            speedUp: oneJob.map { roundRatio($0, over: index) },
            peakMiB: peaks[index].map { Double($0) / 1024 }, line: command.line))
      }
    }
    report.notes.append(
      "Scan figures: \"time ÷ zstd -dc's\" and \"speed-up over --jobs 1\" are the medians of each round's ratio of the two commands' times (for one copy of the journal)."
    )
    judgeScans(cores: cores)
  }

  /// The targets of issue 17 the scan figures measure.
  private func judgeScans(cores: Int) {
    // The html figure is judged on its own target (``measurePageCommand()``).
    let oneCore = report.scans.filter { $0.jobs == "1" && !$0.key.hasPrefix("html") }
    if !oneCore.isEmpty {
      report.targets.append(
        TargetCheck(
          target:
            "scans on one core (find --all/--count, log --where, check, verify --deep): ≥ 20 M events/s (issue 17)",
          measured: oneCore.map { "\($0.command) \($0.workload): \(Format.number($0.rate.median))" }
            .joined(separator: ", "),
          met: oneCore.allSatisfy { $0.rate.median >= 20 }))
    }
    let speedUps = report.scans.filter { $0.key == "scan.check" || $0.key == "scan.checkFour" }
    if !speedUps.isEmpty, cores >= 2 {
      report.targets.append(
        TargetCheck(
          target: "check, the cores (\(cores)) over one job: ≥ 1.7× (issue 17)",
          measured: speedUps.map {
            "\($0.command) \($0.workload): ×\(Format.number($0.speedUp ?? 0))"
          }.joined(separator: ", "),
          met: speedUps.allSatisfy { ($0.speedUp ?? 0) >= 1.7 }))
    }
    let memory = report.scans.filter { $0.peakMiB != nil && $0.key != "zstd" }
    if !memory.isEmpty {
      // One worker a job (the default: the cores); one for a command without --jobs.
      func workers(_ figure: ScanFigure) -> Double {
        Double(figure.jobs == "—" ? 1 : Int(figure.jobs) ?? cores)
      }
      report.targets.append(
        TargetCheck(
          target: "peak memory of the scans: ≤ 32 MiB a worker (issue 17)",
          measured: "largest \(Format.number(memory.map { $0.peakMiB! }.max()!)) MiB",
          met: memory.allSatisfy { $0.peakMiB! <= 32 * workers($0) }))
    }
  }
}

/// `text` as one word for the shell: itself when it holds only characters the shell
/// leaves alone, else in single quotes.
func shellWord(_ text: String) -> String {
  let plain =
    !text.isEmpty
    && text.utf8.allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "."),
        UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "+"), UInt8(ascii: ","),
        UInt8(ascii: ":"), UInt8(ascii: "="):
        return true
      default: return false
      }
    }
  if plain { return text }
  return "'"
    + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''")
    + "'"
}
