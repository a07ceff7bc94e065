#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The html figure: `rewind html` of the page's largest session against `zstd -dc` of the
/// same journal, in the same rounds.
extension Bench {
  /// Whether the html figure runs: `--scans` names it, or names nothing.
  var measuresPage: Bool { options.scanCommands?.contains("html") ?? true }

  /// Whether any scan figure but html runs.
  var measuresScans: Bool { options.scanCommands.map { !$0.subtracting(["html"]).isEmpty } ?? true }

  /// `rewind html` of a journal of the most events a page holds (200,000; 20,000 with
  /// `--quick`), `rewind generate --events N --seed SEED` writes, as child processes of the
  /// release `rewind`: the whole command with `--jobs 1` and with the default (the cores
  /// compress), and the precomputation's time (replaying the journal and building the
  /// page's data, the target of issue 17) as `--timings` prints it with `--jobs 1`, each
  /// against `zstd -dc` of the same journal to /dev/null in the same rounds. The
  /// precomputation is judged against issue 17's 2× by the median of each round's ratio of
  /// the two (but with `--quick`, whose 20,000 events `zstd -dc` reads in little more than
  /// its own start).
  ///
  /// The rounds run the three programs in turn, spawned as the scan figures spawn theirs
  /// (``measureScans(_:)``): no shell, the wall clock from before the spawn to `wait4`. Both
  /// `html` runs print `--timings` to a file (six lines, after the page is written), read
  /// after the clock stops. One untimed round warms up; when every program took under
  /// 0.2 s in it, there are at least 15 timed rounds.
  func measurePageCommand() throws {
    let binary = try rewindBinary()
    guard let zstd = ChildProcess.path(of: "zstd") else {
      throw BenchError("zstd is not in PATH: the html figure compares with `zstd -dc`")
    }
    let events = options.quick ? 20_000 : 200_000
    let name = Workload.name(of: events)
    let directory = self.directory + "/html-" + name
    let journal = try generateJournal(
      binary: binary, events: events, in: directory, logLabel: "html")
    let page = directory + "/page.html"
    let timings = directory + "/timings.txt"
    let html = [binary, "html", journal, "-o", page, "--force", "--timings"]
    let commands: [(key: String, figure: String, jobs: String, arguments: [String])] = [
      ("zstd", "zstd -dc", "—", [zstd, "-dc", journal]),
      ("html.jobs1", "html -o FILE --timings", "1", html + ["--jobs", "1"]),
      ("html", "html -o FILE --timings", "default (\(cores))", html),
    ]
    /// Runs a command; returns its seconds and, for html, the steps `--timings` printed.
    func run(_ arguments: [String]) throws -> (seconds: Double, steps: [String: Double]) {
      let isPage = arguments.count > 1 && arguments[1] == "html"
      let result = try ChildProcess.run(arguments, errors: isPage ? timings : nil)
      let line = arguments.map(shellWord).joined(separator: " ")
      guard result.status == 0 else {
        throw BenchError(
          "`\(line)` exited with \(result.status): \(FileSystem.text(timings) ?? "")")
      }
      guard isPage else { return (result.seconds, [:]) }
      let steps = try PageTimings.parse(FileSystem.text(timings) ?? "", of: line)
      return (result.seconds, steps)
    }
    _ = try ChildProcess.run([binary, "--version"])
    log("html \(name): rewind html and zstd -dc, warm-up")
    let first = try commands.map { try run($0.arguments).seconds }
    let rounds = first.allSatisfy { $0 < 0.2 } ? max(options.runs, 15) : options.runs
    log("html \(name): rewind html and zstd -dc, \(rounds) timed rounds")
    var seconds = [[Double]](repeating: [], count: commands.count)
    var steps = [[String: [Double]]](repeating: [:], count: commands.count)
    for _ in 0..<rounds {
      for (index, command) in commands.enumerated() {
        let (time, timed) = try run(command.arguments)
        seconds[index].append(time)
        for (step, value) in timed { steps[index][step, default: []].append(value) }
      }
    }
    FileSystem.removeTree(directory)
    let rates = seconds.map { Summary($0).mapped { Double(events) / $0 / 1e6 } }
    let lines = commands.map { command in
      command.arguments.map(shellWord).joined(separator: " ") + " > /dev/null"
        + (command.key == "zstd" ? "" : " 2> TIMINGS")
    }
    for (index, command) in commands.enumerated() {
      report.scans.append(
        ScanFigure(
          key: command.key, command: command.figure, workload: name, events: events,
          jobs: command.jobs, rate: rates[index],
          zstdTimeRatio: rates[0].median / rates[index].median,
          speedUp: command.key == "html" ? rates[index].median / rates[1].median : nil,
          peakMiB: nil, line: lines[index]))
    }
    let precomputations = steps[1]["precomputation"] ?? []
    let precomputationRate = Summary(precomputations).mapped { Double(events) / $0 / 1e6 }
    // Each round's precomputation over the same round's `zstd -dc`.
    let roundRatios = Summary(ratiosOf: precomputations, to: seconds[0])
    report.scans.append(
      ScanFigure(
        key: "html.precomputation", command: "html: the precomputation (--timings)",
        workload: name, events: events, jobs: "1", rate: precomputationRate,
        zstdTimeRatio: roundRatios.median, speedUp: nil, peakMiB: nil, line: lines[1]))
    for index in 1..<commands.count {
      let medians = PageTimings.steps.map { step in
        "\(step) \(Format.number(Summary(steps[index][step] ?? [0]).median * 1e3)) ms"
      }
      report.notes.append(
        "html figure, \(name), --jobs \(commands[index].jobs): the steps of --timings (medians of \(rounds) rounds): \(medians.joined(separator: ", ")); zstd -dc \(Format.number(Summary(seconds[0]).median * 1e3)) ms."
      )
    }
    report.notes.append(
      "html figure: the journal is `rewind generate --events \(events) --seed \(options.seed)`, the same file for rewind html and zstd -dc; both html runs print --timings to a file."
    )
    report.notes.append(
      "html figure: the precomputation's time ÷ zstd -dc's is the median of the rounds' own ratios (×\(Format.number(roundRatios.min))–×\(Format.number(roundRatios.max))); the ratio of the two medians is ×\(Format.number(rates[0].median / precomputationRate.median))."
    )
    let ratio = roundRatios.median
    // At --quick's 20,000 events `zstd -dc` is mostly its own start: no judgement.
    guard !options.quick else {
      report.notes.append("html figure: --quick's journal is too small to judge the target on.")
      return
    }
    report.targets.append(
      TargetCheck(
        target:
          "html's precomputation on one core: within 2× of zstd -dc's time of the same journal (issue 17)",
        measured:
          "\(name): ×\(Format.number(ratio)) (\(Format.number(precomputationRate.median)) M events/s)",
        met: ratio <= 2))
  }

  /// The number of cores online.
  private var cores: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
}

/// What `rewind html --timings` prints: `timing: STEP MILLISECONDS ms (WHAT)`, a line a step.
enum PageTimings {
  /// The steps, in the order printed.
  static let steps = [
    "opening", "precomputation", "compression", "assembling", "writing", "total",
  ]

  /// The seconds of each step in `text`.
  /// - Throws: `BenchError` when a step is missing (a `rewind` without `--timings`, or
  ///   one that prints them otherwise).
  static func parse(_ text: String, of command: String) throws(BenchError) -> [String: Double] {
    var seconds: [String: Double] = [:]
    for line in text.split(separator: "\n") {
      let words = line.split(separator: " ")
      guard words.count >= 4, words[0] == "timing:", words[3] == "ms",
        let milliseconds = Double(words[2])
      else { continue }
      seconds[String(words[1])] = milliseconds / 1e3
    }
    for step in steps where seconds[step] == nil {
      throw BenchError("`\(command)` printed no '\(step)' timing: '\(text)'")
    }
    return seconds
  }
}
