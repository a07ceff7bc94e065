public import RewindCore

/// A domain's interactive terminal screen: how it draws a state into a rectangle, and
/// how keys and clicks on it become the domain's events.
///
/// A screen is a value that keeps what the state does not: which part has the focus,
/// which row is highlighted, how far a list is scrolled, and where the last draw put
/// what (for clicks). It never changes the domain's state itself: ``handle(_:state:)``
/// returns events, which the caller sends through the live `Store` (so that everything
/// that changes the state is recorded), or changes only its own focus and highlights.
///
/// `rewind live` runs a screen with its focus shown (``draw(_:in:on:showsFocus:)`` with
/// `showsFocus: true`); `rewind play` draws the states of a journal with it, without
/// focus, when the journal's domain adopts ``InteractiveDomain``, and with the domain's
/// text rendering otherwise.
public protocol DomainScreen {
  /// The domain whose states this screen draws.
  associatedtype Model: Domain

  /// Draws `state` in `area` of `screen`, and remembers where it drew what.
  /// - Parameters:
  ///   - state: The state to draw.
  ///   - area: The rectangle to draw in; nothing is drawn outside it.
  ///   - screen: The screen.
  ///   - showsFocus: Whether the focus and the highlighted row show (an interactive
  ///     session), or only the state (a player).
  mutating func draw(_ state: Model.State, in area: Rect, on screen: inout Screen, showsFocus: Bool)

  /// What `input` does on `state`: the events to send, in order, or a change of focus,
  /// highlight or scrolling of the screen's own, or nothing.
  ///
  /// Clicks are matched against the last ``draw(_:in:on:showsFocus:)``.
  mutating func handle(_ input: InputEvent, state: Model.State) -> ScreenResponse<Model.Event>

  /// The keys the screen understands, for a help overlay.
  var keyHelp: [KeyHelp] { get }

  /// The smallest area the screen draws in.
  var minimumSize: TerminalSize { get }
}

/// What a ``DomainScreen`` did with an input.
public struct ScreenResponse<Event> {
  /// The events to send, in order: what the person did, for the domain's reducer.
  public var events: [Event]
  /// Whether the screen used the input (for events, or its own focus or scrolling);
  /// an input it did not use is the caller's (a quit key, a help key).
  public var handled: Bool

  public init(events: [Event] = [], handled: Bool) {
    self.events = events
    self.handled = handled
  }

  /// The screen did not use the input.
  public static var ignored: ScreenResponse { ScreenResponse(handled: false) }
  /// The screen changed only its own focus, highlight or scrolling.
  public static var changedView: ScreenResponse { ScreenResponse(handled: true) }
  /// The screen asks for `events` to be sent.
  public static func send(_ events: Event...) -> ScreenResponse {
    ScreenResponse(events: events, handled: true)
  }
}

/// One line of a help overlay: keys and what they do.
public struct KeyHelp: Equatable, Sendable {
  /// The keys, as they are written on a keyboard: `←` `→`, `Tab`, `q`.
  public var keys: String
  /// What they do.
  public var action: String

  public init(_ keys: String, _ action: String) {
    self.keys = keys
    self.action = action
  }
}

/// A domain with an interactive terminal screen: `rewind live` records sessions of it
/// by hand, and `rewind play` draws its journals with the screen.
public protocol InteractiveDomain: RecordableDomain {
  /// The domain's screen.
  associatedtype InteractiveScreen: DomainScreen where InteractiveScreen.Model == Self

  /// A screen for a session of this domain value, its focus at its start.
  func makeScreen() -> InteractiveScreen

  /// The domain of a new session recorded by hand (`rewind live`), and the device its
  /// journal's header names, from the command line's options.
  /// - Throws: ``LiveOptionError`` naming the option whose value the domain does not
  ///   take.
  static func liveSession(_ options: LiveOptions) throws(LiveOptionError) -> LiveSession<Self>
}

/// The `rewind live` options that shape a new session: each nil when not given. A domain
/// reads those that mean something to it.
public struct LiveOptions: Equatable, Sendable {
  /// `--layout`: how the screen is laid out (`twoColumn`, `threeColumn`).
  public var layout: String?
  /// `--device`: the kind of device the session pretends to run on (`iphone`, `ipad`).
  public var device: String?
  /// `--size-class`: the width class it starts in (`compact`, `regular`).
  public var sizeClass: String?

  public init(layout: String? = nil, device: String? = nil, sizeClass: String? = nil) {
    self.layout = layout
    self.device = device
    self.sizeClass = sizeClass
  }
}

/// The start of a session recorded by hand: its domain and the device its header names.
public struct LiveSession<D: Domain> {
  public var domain: D
  /// The device, as a journal header names it (`iPhone (rewind live)`).
  public var device: String

  public init(domain: D, device: String) {
    self.domain = domain
    self.device = device
  }
}

/// A `rewind live` option whose value a domain does not take.
public struct LiveOptionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The option, as it is written: `--layout`.
  public var option: String
  /// The value given.
  public var value: String
  /// What the domain expects: `expected twoColumn or threeColumn`.
  public var expected: String

  public init(option: String, value: String, expected: String) {
    self.option = option
    self.value = value
    self.expected = expected
  }

  /// `--layout 'fourColumn': expected twoColumn or threeColumn`.
  public var description: String { "\(option) '\(value)': \(expected)" }
}
