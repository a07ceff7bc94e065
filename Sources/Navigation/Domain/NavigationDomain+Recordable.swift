public import RewindCore

extension NavigationDomain: SimulatableDomain {
  /// A new session of the sample catalog in three columns, on a regular width.
  public static var sample: NavigationDomain { NavigationDomain() }

  /// Reads a navigation scenario script (``ScenarioScript``), whose interactions read
  /// like what a person does (`select item Swift Mini`), a few lines at a time
  /// (``ScenarioScript/Reader``).
  public static func scenarioReader(directory: String) -> ScenarioScript.Reader {
    ScenarioScript.Reader(directory: directory)
  }

  /// A navigation script's settings lines (``ScenarioScript/preamble(_:)``).
  public static func scenarioPreamble(_ scenario: Scenario<NavigationDomain>) -> String {
    ScenarioScript.preamble(scenario)
  }

  /// A navigation script's line for an event: `select item espresso-machines/leva`.
  public func scenarioLine(_ event: NavigationEvent) -> String {
    ScenarioScript.interaction(event, domain: self)
  }

  /// A `size` line first at the session's start would read as the setting: it is written
  /// after `@0s` (`ScenarioScript.needsTime`).
  public func scenarioLineNeedsTime(_ event: NavigationEvent) -> Bool {
    ScenarioScript.needsTime(event)
  }

  /// The navigation script described for people (``ScenarioScript/help``).
  public static var scenarioHelp: String { ScenarioScript.help }

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
