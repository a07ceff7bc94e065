public import RewindCore

extension NavigationDomain: SimulatableDomain {
  /// A new session of the sample catalog in three columns, on a regular width.
  public static var sample: NavigationDomain { NavigationDomain() }

  /// Parses a navigation scenario script (``ScenarioScript``), whose interactions read
  /// like what a person does (`select item Swift Mini`).
  public static func parseScenario(_ text: String, directory: String) throws(ScenarioError)
    -> Scenario<NavigationDomain>
  {
    try ScenarioScript.parse(text, directory: directory)
  }

  /// Writes a navigation scenario script (``ScenarioScript/write(_:)``).
  public static func scenarioScript(_ scenario: Scenario<NavigationDomain>) -> String {
    ScenarioScript.write(scenario)
  }

  /// A ``SimulatedUser`` of this session, the source of `rewind generate`.
  public func simulatedUser(seed: UInt64) -> SimulatedUserEvents {
    SimulatedUserEvents(user: SimulatedUser(seed: seed, domain: self))
  }
}

/// A ``SimulatedUser`` as an endless sequence of timed events.
public struct SimulatedUserEvents: IteratorProtocol, Sendable {
  public var user: SimulatedUser

  @inlinable public mutating func next() -> TimedEvent<NavigationEvent>? {
    let (time, event) = user.next()
    return TimedEvent(time: time, event: event)
  }
}
