import RewindCore
import Testing

@Suite("Event scripts written back: the session a script records")
struct ScenarioWritingTests {
  @Test("a written script reads back as the same settings, device, start, events and times")
  func roundTrip() throws {
    let original = try Notes.parseScenario(
      """
      device: Pixel 9, Android 15
      start: 2026-11-30T09:15:00.250Z

      @3.000007s added text=milk
      +1.5s added text="two words # not a comment"
      renamed title=null
      +0s moved 1 0
      +250ms cleared
      +1h renamed title="Week 49"
      """, directory: "/")
    let text = Notes.scenarioScript(original)
    #expect(
      text == """
        device: Pixel 9, Android 15
        start: 2026-11-30T09:15:00.250Z

        @3.000007s added text=milk
        +1.5s added text="two words # not a comment"
        +500ms renamed title=null
        +0s moved 1 0
        +250ms cleared
        +3600s renamed title="Week 49"

        """)
    let again = try Notes.parseScenario(text, directory: "/")
    #expect(again.events.map(\.event) == original.events.map(\.event))
    #expect(again.events.map(\.time) == original.events.map(\.time))
    #expect(again.device == original.device && again.startTime == original.startTime)
  }

  @Test("settings other than the sample's are written")
  func settings() throws {
    let tally = Scenario(
      domain: StandardTally(start: 5), events: [TimedEvent(time: 0, event: .added(2))])
    let text = StandardTally.scenarioScript(tally)
    #expect(text.hasPrefix("settings: {\"start\":5}\n\n"), "\(text)")
    let again = try StandardTally.parseScenario(text, directory: "/")
    #expect(again.domain.start == 5)
    #expect(again.events.map(\.event) == [.added(2)])
  }

  @Test("the condition evaluator: changed needs a state before; comparisons read the state")
  func conditionEvaluator() throws {
    let domain = StandardTally()
    let changed = try ConditionEvaluator(Condition(parsing: "changed(tally.flag)"), in: domain)
    var state = domain.initialState
    #expect(!changed.holds(after: nil, previous: nil, state: state))
    let before = state
    state.flag = true
    #expect(changed.holds(after: nil, previous: before, state: state))
    #expect(!changed.holds(after: nil, previous: state, state: state))
    let equals = try ConditionEvaluator(Condition(parsing: "tally.value != 0"), in: domain)
    #expect(!equals.holds(after: nil, previous: nil, state: state))
    state.value = 3
    #expect(equals.holds(after: nil, previous: nil, state: state))
    #expect(throws: ConditionError.self) {
      try ConditionEvaluator(Condition(parsing: "tally.nothing == 1"), in: domain)
    }
  }
}
