import RewindArguments
import RewindCore
import RewindJournal
import RewindPage

extension RewindTool {
  struct HTML: RangeCommand {
    static let configuration = CommandConfiguration(
      name: "html", abstract: "Write a session as one self-contained web page.",
      discussion: """
        The page works offline, from disk, in any browser: the screens at the cursor \
        (drawn by the domain, or the state as JSON), a timeline with every event as a tick \
        (play, pause, ×2 ×8 ×32, ←/→ step by event), the events with their outcomes, the \
        changes of the event at the cursor, a diff with a pinned point, and a find box that \
        takes the conditions of `rewind find`. It carries the events, their changes and \
        keyframes of the state, compressed: no reducer runs in the browser, and the page \
        makes no request. A page holds at most 200,000 events; choose a part of a longer \
        session with --from and --to. The page's data is compressed in chunks on the cores \
        (about half of the work), and built from the journal on one thread. With --jobs \
        N, both run on N threads: the chunks, and the data built from parts of the journal, \
        each replayed from a snapshot (by default one thread: on two cores the parts took \
        more time than one pass, at 200,000 events). Every setting writes the same page. Open \
        it at a point with PAGE.html#at=POINT; the address follows the cursor once it rests \
        (#at=SEQUENCE). Scripts can drive it through window.rewind: \
        seek(point), position(), find(condition) (the points `rewind find --all` gives), \
        event(sequence) (the JSON `rewind log --json` prints), pinned() (the pinned point, \
        or null) and shownState(), which returns the JSON `rewind state --json` prints. \
        With --timings, after the page is written, it says on standard error how long each \
        step took (the journal opened, the precomputation that replays it and builds the \
        page's data, the compression, the assembling, the writing), in milliseconds of a \
        monotonic clock; standard output and the page stay the same, with --json too.
        """,
      exitStatuses: [
        ExitStatusHelp(
          "64",
          "Also when the part asked for holds more than 200,000 events: choose a part with --from and --to."
        )
      ])

    let registry: DomainRegistry

    @Argument(help: "The journal to show.")
    var journal: String
    @Option(
      short: "o", valueName: "page.html",
      help: "The page to write (default: the journal's name with .html, here).")
    var output: String?
    @Option(valueName: "point", help: "Start the page at this point.")
    var from: PointArgument = .start
    @Option(valueName: "point", help: "End the page at this point.")
    var to: PointArgument = .end
    @Option(
      valueName: "text", help: "The page's title (default: the journal's file name).",
      transform: parseTitle)
    var title: String?
    @Flag(help: "Replace the page if it exists.")
    var force: Bool
    @Flag(help: "Print JSON.")
    var json: Bool
    @Option(
      valueName: "n",
      help:
        "Compress the page's data, and build it from parts of the journal, on this many threads (default: the cores to compress, one thread to build).",
      transform: Jobs.parse)
    var jobs: Int?
    @Flag(help: "After writing the page, print how long each step took on standard error.")
    var timings: Bool

    func run(_ context: Context) throws {
      let started = context.clock()
      // Refuse a bad destination before replaying anything (one already there once the
      // range is known to be right). The default is named once the journal is open: a
      // session on a server by its whole id, which the id typed may be the start of.
      let destination = try output.map {
        try outputDestination($0, force: force, inputs: [journal], existingLater: true)
      }
      let command = HTMLCommand(
        from: from, to: to, title: title, destination: destination, force: force, json: json,
        jobs: jobs, timings: timings ? started : nil, context: context)
      try registry.open(journal, warnings: context.stderr, command)
    }
  }
}

struct HTMLCommand: TimelineVisitor {
  let from: PointArgument
  let to: PointArgument
  /// `--title`; nil for the journal's name.
  let title: String?
  /// The page to write; nil for the default, named after the journal as it is opened
  /// (a session on a server by its whole id).
  let destination: FileDestination?
  let force: Bool
  let json: Bool
  /// `--jobs`: the threads of both the compression and the precomputation; nil for the
  /// default, the cores for the compression and one thread for the precomputation.
  let jobs: Int?
  /// `--timings`: the clock's reading when the command started; nil without it.
  let timings: UInt64?
  let context: Context

  /// The last component of a path (a session's URL: its id).
  static func fileName(of path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
    return String(trimmed.split(separator: "/").last ?? trimmed)
  }

  /// `session.html` for `…/session.journal`, here (any other name gets `.html` added).
  static func pageName(for path: String) -> String {
    let name = fileName(of: path)
    return (name.hasSuffix(".journal") ? String(name.dropLast(".journal".count)) : name) + ".html"
  }

  func visit<D: RecordableDomain>(_ timeline: Timeline<D>) throws {
    let fileName = Self.fileName(of: timeline.path)
    let title = title ?? fileName
    let destination =
      try destination
      ?? outputDestination(
        Self.pageName(for: timeline.path), force: force, inputs: [timeline.path],
        existingLater: true, argument: nil)
    var lap = context.clock()
    var steps = HTMLTimings(
      events: 0, precomputationJobs: jobs ?? 1, compressionJobs: Jobs.count(jobs))
    steps.opening = lap &- (timings ?? lap)
    /// Nanoseconds since the last step ended.
    func elapsed() -> UInt64 {
      let now = context.clock()
      defer { lap = now }
      return now &- lap
    }
    let range = try timeline.resolveRange(from: from, to: to, knownStates: true)
    try timeline.refuseLostEvents(in: range, writing: "a page", startsAtLostEvent: false)
    // The page's times count from its first point's, which was lost with the events it
    // ends (its state, the snapshot after them, is known).
    if range.from > 0, let lost = timeline.lostEvents(in: (range.from - 1)...range.from).first,
      lost.contains(range.from)
    {
      throw CommandError(
        "\(timeline.path): a page cannot start at event \(range.from): its time was lost to damage with \(Format.events(lost)); start it at the first event kept after them (--from \(lost.upperBound + 1))"
      )
    }
    // Too many events: another part is asked for with other arguments (--from, --to), as
    // a range past the end is, so it is a usage error, said before --force is asked for.
    do throws(PageError) {
      try SessionPage.requireFits(timeline, from: range.from, to: range.to)
    } catch {
      throw UsageError("\(timeline.path): \(error.message)")
    }
    try requireAvailable(destination)
    let renderer = (timeline.domain as? any PageRenderingDomain)?.pageRenderer(
      device: timeline.header.device)
    let events = range.to - range.from
    steps.events = events
    let page: [UInt8]
    do {
      page = try context.withProgress("Writing the page") { bar in
        try SessionPage.html(
          of: timeline, from: range.from, to: range.to,
          options: SessionPage.Options(
            title: title, fileName: fileName, generator: "rewind \(RewindTool.version)"),
          renderer: renderer, jobs: jobs ?? 1, compressionJobs: Jobs.count(jobs)
        ) { done in
          bar.update(Int(done), of: Int(events))
        } finished: { step in
          switch step {
          case .precomputed(let bytes):
            (steps.precomputation, steps.dataBytes) = (elapsed(), bytes)
          case .compressed(let bytes):
            (steps.compression, steps.compressedBytes) = (elapsed(), bytes)
          case .assembled(let bytes):
            (steps.assembling, steps.pageBytes) = (elapsed(), bytes)
          }
        }
      }
    } catch let error as PageError {
      throw CommandError("\(timeline.path): \(error.message)")
    }
    let file = try AtomicFileWriter(destination, system: context.fileSystem)
    do {
      try file.write(page)
      try file.commit()
    } catch {
      file.discard()
      throw error
    }
    steps.writing = elapsed()
    let perEvent = events > 0 ? Double(page.count) / Double(events) : 0
    if json {
      context.stdout.printJSON(
        .object([
          ("page", .string(destination.path)), ("events", .int(Int64(events))),
          ("from", .int(Int64(range.from))), ("to", .int(Int64(range.to))),
          ("bytes", .int(Int64(page.count))),
          ("bytesPerEvent", .double((perEvent * 1_000).rounded() / 1_000)),
        ]))
    } else {
      context.stdout.print(
        "Wrote \(TerminalText.escaped(destination.path)): \(Format.count(events, "event")) (points \(range.from)–\(range.to)), \(Format.bytes(UInt64(page.count))), \(Format.decimal(perEvent, places: 1)) bytes/event"
      )
    }
    if timings != nil {
      // After the result, where both streams go to one place.
      context.stdout.flush()
      for line in steps.lines(label: context.stderr.style.dim("timing:")) {
        context.stderr.print(line)
      }
    }
  }
}

/// A page's title as `--title` gives it: not empty nor blank (a page titled with nothing
/// has an empty heading, and its tab shows its address).
private func parseTitle(_ text: String) throws(InvalidValue) -> String {
  guard text.contains(where: { !$0.isWhitespace }) else {
    throw InvalidValue("a page's title cannot be blank; leave --title out for the journal's name")
  }
  return text
}
