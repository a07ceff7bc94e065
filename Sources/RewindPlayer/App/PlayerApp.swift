public import RewindCore
public import RewindTerminal

/// The time-travel player as a full-screen terminal program: a ``Player`` driven by
/// keys, clicks and ticks, drawn on a `Screen`.
///
/// The screen shows the state at the cursor (with the domain's interactive screen when
/// its domain adopts `InteractiveDomain`, else with its text rendering), a panel with
/// the events around the cursor and the fields the cursor's event changed (old → new),
/// and a timeline bar: a density strip of the session's events coloured by outcome, the
/// cursor's position, event number and time.
public struct PlayerApp<D: Domain>: TerminalApp {
  /// The model.
  public let player: Player<D>
  /// The journal's name as the header line shows it.
  public let title: String
  /// The domain's interactive screen, when it has one.
  var domainScreen: AnyDomainScreen<D>?
  /// Where the last draw put the density strip, for clicks.
  var stripArea: Rect?
  /// How many of the diff's lines the last draw showed: a page for `PgUp` `PgDn`.
  var diffPage = 0
  /// Whether the terminal shows colours (`TerminalSession.colors`): without them, the
  /// density strip tells rejected events apart by drawing the other columns dim (red alone
  /// was lost, and every column looked the same).
  public var showsColour = true
  /// What `r` asked for: set when the app quit to continue the session live.
  public private(set) var continueRequest: ContinueRequest?
  /// Why the session cannot be continued here (the new journal's folder cannot be
  /// written, say), asked before the player quits for it; nil when it can.
  let continuingProblem: () -> String?

  /// A player app on `player`.
  /// - Parameters:
  ///   - player: the model.
  ///   - title: the journal's name for the header line (escaped when drawn).
  ///   - continuingProblem: why `r` cannot continue the session live, said on the
  ///     message line (the player stays); nil when it can.
  public init(
    player: Player<D>, title: String, continuingProblem: @escaping () -> String? = { nil }
  ) {
    self.player = player
    self.title = title
    self.continuingProblem = continuingProblem
    domainScreen = AnyDomainScreen(domain: player.domain)
  }

  /// Behind the notice that the terminal is too small: q to quit, or Esc to close an open
  /// prompt or overlay (where q would be typed into the prompt).
  public func takesWhileTooSmall(_ event: InputEvent) -> Bool {
    event == .key(.escape)
      || (event == .key(.character("q")) && player.prompt == nil)
  }

  /// Hands a key or a click to the model.
  public mutating func handle(_ event: InputEvent) -> TerminalAppAction {
    let action: PlayerAction?
    switch event {
    case .key(let key):
      if case .diff = player.overlay, let lines = diffScroll(for: key) {
        action = .scrollOverlay(lines)
      } else {
        action = PlayerKeys.action(for: key, promptOpen: player.prompt != nil)
      }
    case .mouse(let mouse):
      action = self.action(for: mouse)
    case .resize:
      action = nil
    case .paste(let text):
      // Into an open prompt, as typed (a line break as a space, other controls dropped);
      // never read as keys.
      guard player.prompt != nil else {
        player.message = PlayerMessage(
          .info, "Pasted text goes into a prompt only: / to find, g to go to a point.")
        return .continue
      }
      for character in text {
        if character.isNewline {
          _ = player.perform(.type(" "))
        } else if !character.unicodeScalars.contains(where: {
          $0.properties.generalCategory == .control
        }) {
          _ = player.perform(.type(character))
        }
      }
      return .continue
    }
    guard let action else { return .continue }
    switch player.perform(action) {
    case .continue: return .continue
    case .quit: return .quit
    case .continueFrom(let request):
      guard domainScreen != nil else {
        player.message = PlayerMessage(
          .error,
          "The '\(D.identifier)' domain has no interactive screen: continuing live needs one.")
        return .continue
      }
      if let problem = continuingProblem() {
        player.message = PlayerMessage(.error, problem)
        return .continue
      }
      // The new journal replays the events up to the point: not across events lost to
      // damage (said here, the player staying, not after it has quit).
      if let lost = player.timeline.lostEvents(in: 0...request.sequence).first {
        player.message = PlayerMessage(
          .error,
          "Cannot continue from here: \(Format.events(lost)) \(lost.count == 1 ? "was" : "were") lost to damage, and the new journal would replay through them; continue from a point before event \(Format.count(lost.lowerBound))."
        )
        return .continue
      }
      continueRequest = request
      return .quit
    }
  }

  /// The lines a key scrolls the open diff by: `↑` `↓` one, `PgUp` `PgDn` the lines the
  /// last draw showed, `Home` `End` to the first or the last; nil for other keys.
  func diffScroll(for key: Key) -> Int? {
    switch key {
    case .up: -1
    case .down: 1
    case .pageUp: -max(diffPage, 1)
    case .pageDown: max(diffPage, 1)
    case .home: Int.min
    case .end: Int.max
    default: nil
    }
  }

  /// A click on the density strip goes to the last event of that column's slice of
  /// time; the wheel steps one event.
  func action(for mouse: MouseEvent) -> PlayerAction? {
    switch mouse.action {
    // Not while a prompt is open: a turn of the wheel closed it, losing what was typed.
    case .wheelUp: return player.prompt == nil ? .step(-1) : nil
    case .wheelDown: return player.prompt == nil ? .step(1) : nil
    case .press where mouse.button == .left:
      guard let strip = stripArea, strip.contains(column: mouse.column, row: mouse.row)
      else { return nil }
      let duration = player.timeline.duration
      // The column's slice of time, to its end: the last event in it.
      let fraction = Double(mouse.column - strip.column + 1) / Double(strip.width)
      return .go(to: .offset(microseconds: UInt64(fraction * Double(duration))))
    default: return nil
    }
  }

  /// Ticks while playing (often) or following (now and then).
  public var tickInterval: Duration? {
    player.tickInterval.map { .microseconds($0) }
  }

  /// Moves playback on and reads what a followed journal gained.
  public mutating func tick() -> TerminalAppAction {
    player.tick()
    return .continue
  }

  /// Room for the state, the panel and the bar.
  public var minimumSize: TerminalSize { TerminalSize(columns: 60, rows: 16) }
}
