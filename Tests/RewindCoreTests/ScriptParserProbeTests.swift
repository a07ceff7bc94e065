import Foundation
import RewindCore
import Synchronization
import Testing

/// A counter whose scripts a parser of its own reads (one `+` a line), as a domain wrote
/// its language before scripts had parts: no reader of its own.
private struct PlusCounter: RecordableDomain, Codable {
  struct State: Codable, Equatable, Sendable { var count = 0 }
  enum Event: Codable, Equatable, Sendable { case added }

  static let identifier = "plus-counter"
  static let schemaVersion: UInt32 = 1

  var initialState: State { State() }

  func reduce(_ state: inout State, _ event: Event) -> Outcome<DomainRejection> {
    state.count += 1
    return .applied
  }

  static func parseScenario(_ text: String, directory: String) throws(ScenarioError)
    -> Scenario<PlusCounter>
  {
    // Another domain's scripts, read by the default, are not this one's.
    _ = try? Notes.parseScenario(text, directory: directory)
    let events = text.split(separator: "\n").filter { $0 == "+" }.enumerated().map {
      TimedEvent(time: UInt64($0.offset), event: Event.added)
    }
    return Scenario(domain: PlusCounter(), events: events)
  }
}

@Suite("Whether a domain's scripts are read by its reader alone")
struct ScriptParserProbeTests {
  @Test("the default parseScenario is the reader's; one of a domain's own is not")
  func probe() throws {
    #expect(Notes.parsesScenariosWithItsReader)
    #expect(StandardTally.parsesScenariosWithItsReader)
    #expect(!PlusCounter.parsesScenariosWithItsReader)
    // On a thread of no task too, as the tool asks.
    let answers = Mutex<[Bool]>([])
    let done = DispatchSemaphore(value: 0)
    Thread {
      answers.withLock {
        $0 = [Notes.parsesScenariosWithItsReader, PlusCounter.parsesScenariosWithItsReader]
      }
      done.signal()
    }.start()
    done.wait()
    #expect(answers.withLock { $0 } == [true, false])
    // The probe leaves nothing behind: parsing goes on as before.
    #expect(try PlusCounter.parseScenario("+\n+\n", directory: ".").events.count == 2)
  }
}
