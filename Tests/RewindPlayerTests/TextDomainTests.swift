import RewindCore
import RewindJournal
import RewindTerminal
import TestSupport
import Testing

@testable import RewindPlayer

/// A domain with no interactive screen: written against `Domain`'s defaults alone.
struct Counter: Domain, Codable {
  struct State: Codable, Equatable, Sendable {
    var count = 0
    var label = "start"
  }

  enum Event: Codable, Equatable, Sendable {
    case added(Int)
    case renamed(String)
  }

  static var identifier: String { "counter" }
  static var schemaVersion: UInt32 { 1 }
  var initialState: State { State() }

  func reduce(_ state: inout State, _ event: Event) -> Outcome<DomainRejection> {
    switch event {
    case .added(let amount):
      guard amount != 0 else { return .unchanged }
      guard amount < 100 else { return .rejected("too many at once") }
      state.count += amount
    case .renamed(let label):
      state.label = label
    }
    return .applied
  }
}

/// The player on a domain that has only its text rendering.
@Suite("Player app: a domain without a screen of its own")
struct TextDomainTests {
  @Test("the state is drawn as the domain's text; r says continuing live needs a screen")
  func textRendering() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("counter.journal")
    let recorder = try JournalRecorder.create(
      at: path, domain: Counter(),
      session: SessionInfo(startTime: 1_764_500_000_000_000, device: "test"))
    for (index, event) in [Counter.Event.added(2), .renamed("two\u{1B}[31m"), .added(500)]
      .enumerated()
    {
      try recorder.record(event, at: UInt64(index) * 1_000_000)
    }
    try recorder.close()
    let player = try Player(timeline: Timeline<Counter>(path: path), at: .end)
    var app = PlayerApp(player: player, title: "counter.journal")
    var screen = Screen(size: TerminalSize(columns: 120, rows: 30))
    app.draw(on: &screen)
    let lines = screen.lines
    #expect(lines[0].hasPrefix(" rewind play  counter.journal · counter"))
    #expect(lines.contains { $0.contains("\"count\": 2,") })
    // Text from the journal is shown escaped: the label's ESC cannot reach the terminal.
    #expect(lines.contains { $0.contains("\"label\": \"two\\u001b[31m\"") })
    #expect(lines.allSatisfy { !$0.unicodeScalars.contains { TerminalText.isControl($0) } })
    #expect(lines.contains { $0.contains("3  +2.000s  added 500") && $0.contains("rejected") })
    #expect(lines.contains { $0.contains("Rejected, nothing changed: too many at once") })
    #expect(app.handle(.key(.character("r"))) == .continue)
    #expect(app.continueRequest == nil)
    #expect(
      app.player.message
        == PlayerMessage(
          .error, "The 'counter' domain has no interactive screen: continuing live needs one."))
  }
}
