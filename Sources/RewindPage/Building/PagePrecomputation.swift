public import RewindCore

/// The precomputation of `rewind html`'s page (the data it shows: bodies, change lists,
/// keyframes), compiled for one domain: ``PageRenderingDomain/pagePrecomputation``.
///
/// `rewind html` learns a journal's domain from its header, at run time, so the page
/// builder it calls is generic: each event is a call of generic code, whose reading of
/// the event's bits, the fields' values and the state's JSON go through generic metadata.
/// The default of ``PageRenderingDomain/pagePrecomputation``, compiled where the domain's
/// conformance is, builds the page's data in one loop specialised for the domain's types
/// (the replay, the reducer and the page's work of each event together); the data is the
/// same bytes.
public struct PagePrecomputation<D: Domain>: Sendable {
  /// Builds a part of a page (or a whole one): `SessionPage.Payload.buildPart`, compiled
  /// for `D`.
  @usableFromInline let part: SessionPage.Payload.PartBuild<D>

  /// The precomputation, specialised for `D` where this initialiser is compiled for it.
  @inlinable public init() {
    part = { timeline, from, to, start, isLast, progress in
      try SessionPage.Payload.buildPart(
        timeline, from: from, to: to, start: start, isLast: isLast, memoize: true,
        inline: true, progress: progress)
    }
  }
}

extension SessionPage.Payload {
  /// The page's data, built by the domain's specialised precomputation when it has one
  /// (a ``PageRenderingDomain``), else by the generic `build`: the same bytes. With `jobs`
  /// over 1, in parts on that many threads when the journal splits (the same bytes).
  @usableFromInline static func buildSpecialised<D: Domain>(
    _ timeline: Timeline<D>, from: UInt64, to: UInt64, options: SessionPage.Options,
    rendererData: JSONValue, jobs: Int = 1, progress: (UInt64) -> Void
  ) throws -> PageData {
    if let page = D.self as? any PageRenderingDomain.Type,
      let part = precomputation(page, of: D.self)
    {
      return try buildPage(
        timeline, from: from, to: to, options: options, rendererData: rendererData, jobs: jobs,
        progress: progress, part: part)
    }
    return try build(
      timeline, from: from, to: to, options: options, rendererData: rendererData, jobs: jobs,
      progress: progress)
  }

  /// `P`'s precomputation of a page's part, for the timelines of `D` (which is `P`; nil if
  /// it were not).
  static func precomputation<P: PageRenderingDomain, D: Domain>(_: P.Type, of _: D.Type)
    -> PartBuild<D>?
  {
    guard P.self == D.self else { return nil }
    let part = P.pagePrecomputation.part
    return { timeline, from, to, start, isLast, progress in
      // Casts of the same types: once a part.
      try part(timeline as! Timeline<P>, from, to, start, isLast, progress) as! PagePart<D>
    }
  }
}
