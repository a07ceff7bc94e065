import RewindCore
import RewindTerminal
import Testing

@testable import Navigation

/// A navigation screen over a state that its events are reduced into, as `rewind live`
/// runs it with a store: keys and clicks in, the events they became out.
struct ScreenHarness {
  let domain: NavigationDomain
  var state: NavigationState
  var screen = NavigationScreen()
  var canvas: Screen
  /// Every event sent, in order.
  var sent: [NavigationEvent] = []

  init(
    _ domain: NavigationDomain = Fixtures.three, size: TerminalSize = .init(columns: 120, rows: 30),
    events: [NavigationEvent] = []
  ) {
    self.domain = domain
    state = domain.initialState
    canvas = Screen(size: size)
    for event in events { _ = domain.reduce(&state, event) }
    draw()
  }

  /// Draws the state as the app would after each input.
  mutating func draw() {
    canvas = Screen(size: canvas.size)
    screen.draw(state, in: canvas.bounds, on: &canvas, showsFocus: true)
  }

  /// Hands `input` to the screen, reduces the events it returns, and draws.
  /// - Returns: The events.
  @discardableResult
  mutating func input(_ input: InputEvent) -> [NavigationEvent] {
    let response = screen.handle(input, state: state)
    for event in response.events {
      _ = domain.reduce(&state, event)
      sent.append(event)
    }
    draw()
    return response.events
  }

  @discardableResult
  mutating func keys(_ keys: Key...) -> [NavigationEvent] {
    keys.flatMap { input(.key($0)) }
  }

  /// A left click on the first cell showing `text` (after `skipping` earlier matches).
  @discardableResult
  mutating func click(
    _ text: String, skipping: Int = 0, sourceLocation: SourceLocation = #_sourceLocation
  ) -> [NavigationEvent] {
    guard let (column, row) = find(text, skipping: skipping) else {
      Issue.record("\(text) is not on the screen:\n\(lines)", sourceLocation: sourceLocation)
      return []
    }
    return input(.mouse(MouseEvent(.press, column: column, row: row)))
  }

  /// The cell where `text` starts on the screen, by display column.
  func find(_ text: String, skipping: Int = 0) -> (column: Int, row: Int)? {
    var seen = 0
    for row in 0..<canvas.size.rows {
      for column in 0..<canvas.size.columns where !canvas[column, row].isContinuation {
        var matched = true
        var x = column
        for character in text {
          guard x < canvas.size.columns, canvas[x, row].character == character else {
            matched = false
            break
          }
          x += max(Int(canvas[x, row].width), 1)
        }
        if matched {
          if seen == skipping { return (column, row) }
          seen += 1
        }
      }
    }
    return nil
  }

  var lines: String { canvas.lines.joined(separator: "\n") }

  /// Whether the cells of `text`'s first occurrence are reversed (highlighted).
  func isHighlighted(_ text: String) -> Bool {
    guard let (column, row) = find(text) else { return false }
    return canvas[column, row].style.reverse
  }

  func ref(_ id: String) -> NodeRef { domain.ref(id) }
}
