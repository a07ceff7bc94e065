public import RewindCore

/// A domain that draws its screens in the page `rewind html` writes of a session.
///
/// The page itself knows no domain: it shows the timeline, the events, the changes, the
/// diff and the find box of any session, and draws the state at the cursor with the
/// domain's renderer when the domain has one, as indented JSON otherwise. A renderer is a
/// script and a style sheet (files of the domain's own, embedded at build time) and the
/// data they need beyond the session's settings and states:
///
/// ```swift
/// extension NavigationDomain: PageRenderingDomain {
///   public func pageRenderer(device: String) -> PageRenderer {
///     PageRenderer(
///       script: EmbeddedResources.navigationScreenJS, style: EmbeddedResources.navigationScreenCSS,
///       data: .object([("screen", …)]))
///   }
/// }
/// ```
///
/// The script registers the renderer with `RewindPage.defineRenderer`:
///
/// ```js
/// RewindPage.defineRenderer({
///   render(element, state, session) { … },
/// });
/// ```
///
/// `render` is called with the element to draw into (the same element every time, so the
/// renderer may keep what it drew; the page sizes it, as wide as its column and about as
/// high as most of the window, and the renderer fits what it draws into it), the state at the cursor as plain JavaScript values
/// (the JSON of `rewind state --json`, numbers as numbers), and the session:
/// `session.header` (the JSON Lines header: domain, session, start, device and the
/// domain's `settings`) and `session.data` (``PageRenderer/data``). Text from the session
/// must go into the page as text (`textContent`), never as markup: the page's
/// Content-Security-Policy runs no script but its own, but a renderer is what keeps an id
/// holding `<img>` from being drawn as one.
public protocol PageRenderingDomain: Domain {
  /// The renderer of this domain's screens for a session recorded on `device` (the
  /// journal header's device text).
  func pageRenderer(device: String) -> PageRenderer

  /// The page's precomputation compiled for this domain's types: the default, specialised
  /// where the conformance is compiled (as `Domain.scans` is). A domain never needs to
  /// write it.
  static var pagePrecomputation: PagePrecomputation<Self> { get }
}

extension PageRenderingDomain {
  /// The page's precomputation compiled for this domain.
  @inlinable public static var pagePrecomputation: PagePrecomputation<Self> {
    PagePrecomputation()
  }
}

/// The script, style and data that draw a domain's states in a page.
public struct PageRenderer: Sendable {
  /// JavaScript that calls `RewindPage.defineRenderer({render(element, state, session)})`.
  public var script: String
  /// CSS for what the script draws; its selectors should start with a class of the
  /// domain's own, so that they do not style the page around it.
  public var style: String
  /// What the script needs to know of the session beyond its header and states (a
  /// screen's size, the texts of placeholders), as `session.data`.
  public var data: JSONValue

  /// - Parameters:
  ///   - script: JavaScript that registers the renderer.
  ///   - style: CSS for what it draws.
  ///   - data: what it needs to know of the session, as `session.data`.
  public init(script: String, style: String, data: JSONValue = .null) {
    self.script = script
    self.style = style
    self.data = data
  }
}
