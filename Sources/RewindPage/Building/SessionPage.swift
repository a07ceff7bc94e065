package import RewindCore

/// The page `rewind html` writes: a session, or a part of it, as one self-contained HTML
/// file with a player, the events, the changes, a diff and a find box.
///
/// The page needs no reducer. Building it replays the session once and precomputes what
/// the page shows (see <doc:PageFormat>): each event as the JSON Lines object `rewind log
/// --json` prints, each event's changed fields with their new values, and keyframes of the
/// whole state's JSON every so often. The page rebuilds the state at any point from the
/// keyframe before it and the changes since; `window.rewind.shownState()` gives exactly the
/// JSON `rewind state --json` prints.
///
/// The text is compressed with ``Deflate`` and carried as Base64 in a script element of a
/// type no browser runs; the page's Content-Security-Policy allows no request at all and
/// runs only its own script and styles, named by their SHA-256 hashes.
@usableFromInline package enum SessionPage {
  /// The most events one page holds: a page of this many events stays under 40 bytes an
  /// event and opens in under 2 seconds (BENCHMARKS.md). A longer session is shown a part
  /// at a time.
  package static let maximumEvents: UInt64 = 200_000

  /// What the page says about where it came from.
  @usableFromInline package struct Options: Sendable {
    /// The page's title.
    @usableFromInline package var title: String
    /// The journal's file name, shown in the session header.
    @usableFromInline package var fileName: String
    /// The tool and version that wrote the page, e.g. `rewind 0.1.0`.
    @usableFromInline package var generator: String

    @usableFromInline package init(title: String, fileName: String, generator: String) {
      self.title = title
      self.fileName = fileName
      self.generator = generator
    }
  }

  /// Refuses a part of a session too long for one page, before any work: what
  /// ``html(of:from:to:options:renderer:limit:jobs:compressionJobs:progress:finished:)``
  /// checks first, for a caller that checks its other arguments after this one.
  /// - Parameters:
  ///   - timeline: the session.
  ///   - from: the state the page would start at.
  ///   - to: the last event the page would hold.
  ///   - limit: the most events a page may hold.
  /// - Throws: ``PageError`` `tooManyEvents` when the part holds more than `limit`,
  ///   saying the `--from` and `--to` of a part that fits.
  package static func requireFits<D: Domain>(
    _ timeline: Timeline<D>, from: UInt64, to: UInt64, limit: UInt64 = maximumEvents
  ) throws(PageError) {
    let count = to - from
    guard count <= limit else {
      let size = count == timeline.eventCount ? "the session has" : "the part asked for has"
      throw PageError(
        .tooManyEvents,
        "\(size) \(Format.count(count)) events (\(from + 1)–\(to)); a page holds at most \(Format.count(limit)): choose a part with --from and --to, e.g. --from \(from) --to \(from + limit)"
      )
    }
  }

  /// The page of the events after point `from` up to point `to` of a session.
  ///
  /// The page opens on the state at `from` and ends at the state at `to`.
  /// - Parameters:
  ///   - timeline: the session.
  ///   - from: the state the page starts at (0: the initial state).
  ///   - to: the last event the page holds.
  ///   - options: the title and the names the page shows.
  ///   - renderer: the domain's renderer of its screens; nil to show states as JSON.
  ///   - limit: the most events the page may hold; ``maximumEvents`` unless a test says.
  ///   - jobs: the threads that may build the page's data, in parts of the session (the
  ///     same bytes as one).
  ///   - compressionJobs: the threads that may compress the page's data, in chunks of
  ///     ``Deflate/chunkSize`` bytes (the same bytes as one).
  ///   - progress: called with the number of events done, every few thousand.
  ///   - finished: called as each step ends (the precomputation, the compression, the
  ///     assembling), for a caller that times them; the page's bytes do not depend on it.
  /// - Returns: the page, UTF-8.
  /// - Throws: ``PageError`` `tooManyEvents` when the part holds more than
  ///   ``maximumEvents``, `fieldsDoNotCoverState` when the domain's fields do not rebuild
  ///   its state's JSON; what replaying the journal throws.
  /// - Complexity: one replay of the events, then O(n) to compress.
  package static func html<D: Domain>(
    of timeline: Timeline<D>, from: UInt64, to: UInt64, options: Options,
    renderer: PageRenderer?, limit: UInt64 = maximumEvents, jobs: Int = 1,
    compressionJobs: Int = 1, progress: (UInt64) -> Void = { _ in },
    finished: (Step) -> Void = { _ in }
  ) throws -> [UInt8] {
    try requireFits(timeline, from: from, to: to, limit: limit)
    let payload = try Payload.buildSpecialised(
      timeline, from: from, to: to, options: options, rendererData: renderer?.data ?? .null,
      jobs: jobs, progress: progress)
    finished(.precomputed(bytes: payload.count))
    let data = payload.withBytes { Deflate.compress($0, jobs: compressionJobs) }
    finished(.compressed(bytes: data.count))
    let page = assemble(
      title: options.title, data: data, dataLength: payload.count,
      rendererScript: renderer?.script, rendererStyle: renderer?.style)
    finished(.assembled(bytes: page.count))
    return page
  }
}
