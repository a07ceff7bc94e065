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
  @usableFromInline let build:
    @Sendable (
      _ timeline: Timeline<D>, _ from: UInt64, _ to: UInt64,
      _ texts: (title: String, fileName: String, generator: String), _ rendererData: JSONValue,
      _ progress: (UInt64) -> Void
    ) throws -> [UInt8]

  /// The precomputation, specialised for `D` where this initialiser is compiled for it.
  @inlinable public init() {
    build = { timeline, from, to, texts, rendererData, progress in
      try SessionPage.Payload.build(
        timeline, from: from, to: to,
        options: SessionPage.Options(
          title: texts.title, fileName: texts.fileName, generator: texts.generator),
        rendererData: rendererData, inline: true, progress: progress)
    }
  }
}

extension SessionPage.Payload {
  /// The page's data, built by the domain's specialised precomputation when it has one
  /// (a ``PageRenderingDomain``), else by the generic `build`: the same bytes.
  @usableFromInline static func buildSpecialised<D: Domain>(
    _ timeline: Timeline<D>, from: UInt64, to: UInt64, options: SessionPage.Options,
    rendererData: JSONValue, progress: (UInt64) -> Void
  ) throws -> [UInt8] {
    if let page = D.self as? any PageRenderingDomain.Type,
      let payload = try precomputed(
        page, timeline, from: from, to: to, options: options, rendererData: rendererData,
        progress: progress)
    {
      return payload
    }
    return try build(
      timeline, from: from, to: to, options: options, rendererData: rendererData,
      progress: progress)
  }

  /// `P`'s precomputation of the timeline of `D` (which is `P`; nil if it were not).
  static func precomputed<P: PageRenderingDomain, D: Domain>(
    _: P.Type, _ timeline: Timeline<D>, from: UInt64, to: UInt64,
    options: SessionPage.Options, rendererData: JSONValue, progress: (UInt64) -> Void
  ) throws -> [UInt8]? {
    guard let timeline = timeline as? Timeline<P> else { return nil }
    return try P.pagePrecomputation.build(
      timeline, from, to, (options.title, options.fileName, options.generator), rendererData,
      progress)
  }
}
