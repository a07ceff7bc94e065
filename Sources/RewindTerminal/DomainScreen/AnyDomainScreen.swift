public import RewindCore

/// The interactive screen of any domain's states, when the domain has one: for code that
/// is generic over `Domain` (a player) and draws with the screen of a domain that adopts
/// ``InteractiveDomain``.
///
/// ```swift
/// if var screen = AnyDomainScreen(domain: timeline.domain) {
///   screen.draw(state, in: area, on: &canvas, showsFocus: false)
/// } else {
///   // the domain's text rendering, `domain.render(state)`
/// }
/// ```
public struct AnyDomainScreen<D: Domain> {
  private var base: any DomainScreen

  /// The screen of `domain`, or nil when its type does not adopt
  /// ``InteractiveDomain``.
  public init?(domain: D) {
    guard let interactive = domain as? any InteractiveDomain else { return nil }
    base = Self.makeScreen(interactive)
  }

  private static func makeScreen<I: InteractiveDomain>(_ domain: I) -> any DomainScreen {
    domain.makeScreen()
  }

  /// ``DomainScreen/draw(_:in:on:showsFocus:)``.
  public mutating func draw(
    _ state: D.State, in area: Rect, on screen: inout Screen, showsFocus: Bool
  ) {
    Self.draw(&base, state, area, &screen, showsFocus)
  }

  /// ``DomainScreen/handle(_:state:)``.
  public mutating func handle(_ input: InputEvent, state: D.State) -> ScreenResponse<D.Event> {
    Self.handle(&base, input, state)
  }

  /// ``DomainScreen/keyHelp``.
  public var keyHelp: [KeyHelp] { base.keyHelp }

  /// ``DomainScreen/minimumSize``.
  public var minimumSize: TerminalSize { base.minimumSize }

  // The screen's `Model` is `D` (it came from a `D`), so the casts always succeed.

  private static func draw<S: DomainScreen>(
    _ base: inout S, _ state: D.State, _ area: Rect, _ screen: inout Screen, _ showsFocus: Bool
  ) {
    base.draw(state as! S.Model.State, in: area, on: &screen, showsFocus: showsFocus)
  }

  private static func handle<S: DomainScreen>(
    _ base: inout S, _ input: InputEvent, _ state: D.State
  ) -> ScreenResponse<D.Event> {
    let response = base.handle(input, state: state as! S.Model.State)
    return ScreenResponse(
      events: response.events.map { $0 as! D.Event }, handled: response.handled)
  }
}
