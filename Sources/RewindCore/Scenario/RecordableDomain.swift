import Synchronization

/// An event at a time: microseconds since the session's start.
public struct TimedEvent<Event: Sendable>: Sendable {
  public var time: UInt64
  public var event: Event

  public init(time: UInt64, event: Event) {
    self.time = time
    self.event = event
  }
}

/// A session described by a scenario script: the domain it runs with and its events.
public struct Scenario<D: Domain>: Sendable {
  public var domain: D
  /// The recording device named in the script, if any.
  public var device: String?
  /// When the session started (microseconds since the epoch), if the script says.
  public var startTime: Int64?
  public var events: [TimedEvent<D.Event>]
  /// The files the script read (a catalog it names, say): a command that records the
  /// script never writes over them.
  public var files: [String]
  /// The script's `expect` lines, in order: what `rewind record` checks.
  public var expectations: [ScenarioExpectation]

  public init(
    domain: D, device: String? = nil, startTime: Int64? = nil, events: [TimedEvent<D.Event>],
    files: [String] = [], expectations: [ScenarioExpectation] = []
  ) {
    self.domain = domain
    self.device = device
    self.startTime = startTime
    self.events = events
    self.files = files
    self.expectations = expectations
  }
}

/// A scenario script that does not parse: where, and what was expected.
public struct ScenarioError: Error, Equatable, Sendable, CustomStringConvertible {
  /// 1-based line and column of the problem.
  public var line: Int
  public var column: Int
  public var message: String
  /// The word that is no choice here (an interaction or a name misspelt), and the
  /// choices: for the tool to say which one was most likely meant; empty when the
  /// problem is of another kind.
  public var word: String
  public var choices: [String]

  public init(
    line: Int, column: Int, _ message: String, word: String = "", choices: [String] = []
  ) {
    self.line = line
    self.column = column
    self.message = message
    self.word = word
    self.choices = choices
  }

  public var description: String { "line \(line), column \(column): \(message)" }
}

/// A domain the `rewind` tool can create sessions for: from scenario scripts
/// (`rewind record`) and from JSON Lines without settings (`rewind import`).
///
/// Both requirements have defaults: the ``sample`` is the domain built from empty
/// settings, and scenario scripts are ``EventScript``s, one event per line in a syntax
/// derived from the event's JSON. A domain with a simulated user for
/// `rewind generate` also adopts ``SimulatableDomain``.
public protocol RecordableDomain: Domain {
  /// The domain for a new session when nothing says otherwise (the built-in sample).
  ///
  /// A domain's own (`static var sample: Self { Self(…) }`) need not throw.
  /// - Throws: ``DomainError`` when there is none: the default's, for a domain that
  ///   cannot be built from empty settings.
  static var sample: Self { get throws(DomainError) }

  /// Parses a scenario script (`rewind record`). By default the domain's reader
  /// (``scenarioReader(directory:)``) reads it whole.
  ///
  /// A domain with a script language of its own gives its parts (the reader,
  /// ``scenarioPreamble(_:)`` and ``scenarioLine(_:)``), of which this and
  /// ``scenarioScript(_:)`` are made, and `rewind record` reads a script a batch of lines
  /// at a time with the reader. One that gives these two alone (a language written before
  /// the parts were) keeps its language: `rewind record` reads its scripts whole with its
  /// own `parseScenario`, and `rewind export --scenario` finds that its script is not what
  /// the parts write and holds the whole script to write it.
  /// - Parameters:
  ///   - text: the script.
  ///   - directory: the script's directory, where files it names are found.
  /// - Throws: ``ScenarioError`` with the line and column of the first problem.
  static func parseScenario(_ text: String, directory: String) throws(ScenarioError)
    -> Scenario<Self>

  /// Writes a session as a scenario script that ``parseScenario(_:directory:)`` reads
  /// back as the same settings, device, start, events and times (`rewind export
  /// --scenario`, `rewind shrink`). By default the ``scenarioPreamble(_:)``, then each
  /// event's ``scenarioLine(_:)`` after its time step (`+0.8s`, `@12.5s` for the first).
  static func scenarioScript(_ scenario: Scenario<Self>) -> String

  /// A reader of this domain's scenario scripts a few lines at a time: what
  /// ``parseScenario(_:directory:)`` reads whole, and `rewind export --scenario` reads
  /// each line back with as it writes it. The default reads an ``EventScript``.
  associatedtype ScenarioReader: ScenarioScriptReader<Self> = EventScript.Reader<Self>

  /// A reader of a script whose files (a catalog it names) are found in `directory`.
  static func scenarioReader(directory: String) -> ScenarioReader

  /// The lines a session's scenario script starts with, before its first event, each
  /// ending in a newline (the settings, device and start, then a blank line); nothing
  /// for a script that needs none. `scenario`'s events are not read.
  ///
  /// With ``scenarioLine(_:)``, the two parts of ``scenarioScript(_:)``, which
  /// `rewind export --scenario` writes a line at a time. The default writes an
  /// ``EventScript``'s.
  static func scenarioPreamble(_ scenario: Scenario<Self>) -> String

  /// An event's line in a scenario script, without its time step or newline:
  /// `select item espresso-machines/leva`, `added amount=5`. The default writes an
  /// ``EventScript``'s.
  func scenarioLine(_ event: Event) -> String

  /// Whether the event's line (``scenarioLine(_:)``), first in a script and at the
  /// session's start, where it is written with no time step, would read as something else
  /// (a setting): it is then written after `@0s`. The default: never.
  func scenarioLineNeedsTime(_ event: Event) -> Bool

  /// The script language described for people, as `rewind help scenario` prints it: lines
  /// of at most 80 columns, with an example script indented by four spaces under a line
  /// `EXAMPLE`. The default describes an ``EventScript`` (``EventScript/help``).
  static var scenarioHelp: String { get }
}

extension RecordableDomain {
  /// The domain built from empty settings (`{}`).
  ///
  /// - Throws: ``DomainError`` when the domain cannot be built from `{}` (a `Codable`
  ///   property the JSON lacks, whatever its initializer's default): such a domain gives
  ///   a `sample` of its own. `rewind record` of a script with no `settings:` line,
  ///   `import` without settings and `generate` say so and stop (they trapped).
  public static var sample: Self {
    get throws(DomainError) {
      do throws(DomainError) {
        return try Self(settingsJSON: .object([]))
      } catch {
        throw DomainError(
          "the '\(identifier)' domain cannot be built from empty settings ({}): \(error.message); give it a `static var sample: \(Self.self) { … }` that builds it"
        )
      }
    }
  }

  /// Parses a scenario script with the domain's reader (``scenarioReader(directory:)``).
  public static func parseScenario(_ text: String, directory: String) throws(ScenarioError)
    -> Scenario<Self>
  {
    DefaultParsingProbe.current?.ran.withLock { $0 = ObjectIdentifier(Self.self) }
    var reader = scenarioReader(directory: directory)
    return try reader.readAll(text)
  }

  /// Whether the domain reads its scripts with its reader alone: its
  /// ``parseScenario(_:directory:)`` is the default, the reader's, so that `rewind record`
  /// reads a script a batch of lines at a time as it reads it whole. A domain that gives a
  /// `parseScenario` of its own (a language of before the parts) is not: its scripts are
  /// read whole, by it.
  ///
  /// Asked by calling `parseScenario` on an empty script and seeing whether the default
  /// ran for this domain.
  package static var parsesScenariosWithItsReader: Bool {
    let probe = DefaultParsingProbe()
    DefaultParsingProbe.$current.withValue(probe) {
      _ = try? parseScenario("", directory: ".")
    }
    return probe.ran.withLock { $0 } == ObjectIdentifier(Self.self)
  }

  /// Reads an ``EventScript``.
  public static func scenarioReader(directory: String) -> EventScript.Reader<Self> {
    EventScript.Reader()
  }

  /// An ``EventScript``'s settings lines.
  public static func scenarioPreamble(_ scenario: Scenario<Self>) -> String {
    EventScript.preamble(scenario)
  }

  /// An ``EventScript``'s line: the event's kind and payload, as its JSON is.
  public func scenarioLine(_ event: Event) -> String {
    EventScript.eventLine(event, domain: self)
  }

  /// An ``EventScript``'s line is never read as a setting.
  public func scenarioLineNeedsTime(_ event: Event) -> Bool { false }

  /// An ``EventScript``'s description (``EventScript/help``).
  public static var scenarioHelp: String { EventScript.help }

  /// The ``scenarioPreamble(_:)``, then each event's ``scenarioLine(_:)`` after its time
  /// step (`+0.8s`, `@12.5s` for the first); a script of neither settings nor events is a
  /// blank line.
  /// - Complexity: O(events).
  public static func scenarioScript(_ scenario: Scenario<Self>) -> String {
    EventScript.script(
      scenario.events, after: scenarioPreamble(scenario),
      needsTime: scenario.domain.scenarioLineNeedsTime
    ) { scenario.domain.scenarioLine($0) }
  }
}

/// Which domain's default ``RecordableDomain/parseScenario(_:directory:)`` ran while
/// ``RecordableDomain/parsesScenariosWithItsReader`` asked.
private final class DefaultParsingProbe: Sendable {
  @TaskLocal static var current: DefaultParsingProbe?
  let ran = Mutex<ObjectIdentifier?>(nil)
}

/// A domain with a seeded model of its user, the source of `rewind generate`.
public protocol SimulatableDomain: RecordableDomain {
  /// A seeded source of realistic events, endless, with non-decreasing times.
  associatedtype SimulatedEvents: IteratorProtocol<TimedEvent<Event>>

  /// A simulated user of this session's domain; the same seed gives the same events on
  /// every machine.
  func simulatedUser(seed: UInt64) -> SimulatedEvents
}
