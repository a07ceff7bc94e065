import Navigation
import RewindCore
import TestSupport
import Testing

@testable import RewindCLI

/// `rewind export --scenario`'s script written a batch of lines at a time
/// (``ScenarioStream``) against the whole script held and read back at once
/// (``ScenarioText``, which `rewind shrink` writes): the same bytes, and the same verdict.
@Suite("A scenario script written a batch at a time")
struct ScenarioStreamTests {
  /// The stream's script of `scenario`, in batches of about `batchSize` bytes, and its
  /// problem; with `checking` false, the text alone.
  func streamed<D: RecordableDomain>(
    _ scenario: Scenario<D>, comments: [String], batchSize: Int, checking: Bool = true
  ) throws -> (text: String, problem: String?) {
    var text = ""
    var batches = 0
    do {
      var stream = try ScenarioStream(
        Scenario(
          domain: scenario.domain, device: scenario.device, startTime: scenario.startTime,
          events: []), comments: comments, checking: checking, batchSize: batchSize
      ) { batch in
        #expect(batch.hasSuffix("\n"))
        text += batch
        batches += 1
      }
      for event in scenario.events { try stream.append(event) }
      try stream.finish()
    } catch let problem as ScenarioStream<D>.Problem {
      return (text, problem.message)
    }
    if batchSize == 1 { #expect(batches >= scenario.events.count) }
    return (text, nil)
  }

  /// Compares the stream with the held script for `scenario`, with each batch size;
  /// returns whether the script is refused.
  @discardableResult
  func expectSame<D: RecordableDomain>(
    _ scenario: Scenario<D>, comments: [String], _ note: String
  ) throws -> Bool {
    let held = ScenarioText(scenario, comments: comments)
    for batchSize in [1, 97, 4096, 64 << 10] {
      let stream = try streamed(scenario, comments: comments, batchSize: batchSize)
      #expect(stream.problem == held.problem, "\(note), batches of \(batchSize)")
      if held.problem == nil {
        #expect(stream.text == held.text, "\(note), batches of \(batchSize)")
      }
    }
    let unchecked = try streamed(scenario, comments: comments, batchSize: 512, checking: false)
    #expect(unchecked.text == held.text && unchecked.problem == nil, "\(note), unchecked")
    return held.problem != nil
  }

  @Test("random navigation sessions: the same bytes as the held script, or the same problem")
  func navigation() throws {
    let seed = testSeed("scenarioStreamNavigation")
    var random = SplitMix64(seed: seed)
    let domains = [
      NavigationDomain(),
      try ScenarioScript.parse("layout two-column\nsize compact\norientation portrait\n").domain,
    ]
    let devices: [String?] = [nil, "iPad Air 13-inch, iPadOS 18.1", "two\nlines", " padded "]
    var refused = 0
    for trial in 0..<soakCount("SCENARIO_STREAM", standard: 24) {
      let domain = domains[trial % domains.count]
      var user = domain.simulatedUser(seed: random.next())
      var events = (0..<Int.random(in: 0...3_000, using: &random)).map { _ in user.next()! }
      // Now and then an event the script cannot write: a scroll to NaN reads back as
      // another event (NaN is no number equal to itself).
      if !events.isEmpty && trial % 5 == 4 {
        let index = Int.random(in: 0..<events.count, using: &random)
        events[index].event = .menuScrolled(offset: .nan)
      }
      let start: Int64? =
        trial % 3 == 0 ? nil : 1_764_000_000_000_000 + Int64.random(in: 0...999_999, using: &random)
      let scenario = Scenario(
        domain: domain, device: devices[trial % devices.count], startTime: start, events: events)
      let comments =
        trial % 2 == 0 ? [] : ["Exported from a\njournal", "events 3 to 9 are missing"]
      if try expectSame(scenario, comments: comments, "seed \(seed), trial \(trial)") {
        refused += 1
      }
    }
    // Both verdicts were compared: the devices with a newline or spaces, and the NaNs.
    #expect(refused > 0)
  }

  @Test("a domain of event scripts: the same bytes, a bare empty script included")
  func eventScripts() throws {
    let seed = testSeed("scenarioStreamEventScripts")
    var random = SplitMix64(seed: seed)
    let kinds: [Counter.Event] = [.incremented, .decremented, .reset]
    for trial in 0..<16 {
      var time: UInt64 = 0
      let events = (0..<(trial == 0 ? 0 : Int.random(in: 0...2_000, using: &random))).map {
        _ -> TimedEvent<Counter.Event> in
        time += UInt64.random(in: 0...3_000_000, using: &random)
        let event =
          Bool.random(using: &random)
          ? kinds.randomElement(using: &random)!
          : .stepChanged(to: Int.random(in: -5...200, using: &random))
        return TimedEvent(time: time, event: event)
      }
      let scenario = Scenario(
        domain: Counter(), device: trial % 2 == 0 ? nil : "Pixel 9", events: events)
      try expectSame(
        scenario, comments: trial % 3 == 0 ? [] : ["a comment"], "seed \(seed), \(trial)")
    }
    #expect(
      try streamed(Scenario(domain: Counter(), events: []), comments: [], batchSize: 1).text == "\n"
    )
  }

  @Test("a preamble that does not read back is refused before any line is handed on")
  func settingsFirst() throws {
    let script = """
      layout two-column
      size compact

      select category grinders
      """
    var scenario = try ScenarioScript.parse(script)
    // A device the script cannot name (a control character in it).
    scenario.device = "iPad\u{1B}[2J"
    var handedOn = 0
    do {
      _ = try ScenarioStream(scenario, comments: [], batchSize: 1) { _ in handedOn += 1 }
      Issue.record("the settings were not refused")
    } catch let problem as ScenarioStream<NavigationDomain>.Problem {
      #expect(problem.message == ScenarioText(scenario).problem)
    }
    #expect(handedOn == 0)
  }
}
