extension EventScript {
  /// Writes a session as an event script that ``parse(_:as:)`` reads back as the same
  /// settings, device, start, events and times.
  ///
  /// The settings are written (`settings: JSON`) unless they are the domain's
  /// ``RecordableDomain/sample``'s (always, for a domain without one); each event is its kind and payload, as its JSON is;
  /// the first event's time is written from the session start (`@12.5s`, nothing at
  /// `+0s`), each later one as the step after the event before (`+0.8s`), to the
  /// microsecond.
  /// - Complexity: O(events).
  public static func write<D: RecordableDomain>(_ scenario: Scenario<D>) -> String {
    script(scenario.events, after: preamble(scenario)) { eventLine($0, domain: scenario.domain) }
  }

  /// `preamble`, then each event's `line` after its time step
  /// (``timeStep(_:after:needsTime:)``), each line ending in a newline; a blank line when
  /// that is nothing.
  package static func script<Event>(
    _ events: [TimedEvent<Event>], after preamble: String,
    needsTime: (Event) -> Bool = { _ in false }, line: (Event) -> String
  ) -> String {
    var text = preamble
    var previous: UInt64?
    for timed in events {
      text += timeStep(timed, after: previous, needsTime: needsTime) + line(timed.event) + "\n"
      previous = timed.time
    }
    return text.isEmpty ? "\n" : text
  }

  /// The lines of ``write(_:)`` before the first event, each ending in a newline: the
  /// device, start and settings lines, then a blank line; nothing when none is written.
  public static func preamble<D: RecordableDomain>(_ scenario: Scenario<D>) -> String {
    var lines: [String] = []
    if let device = scenario.device { lines.append("device: \(device)") }
    if let start = scenario.startTime { lines.append("start: \(ISO8601.format(start))") }
    let settings = scenario.domain.settingsJSON
    if settings != (try? D.sample)?.settingsJSON {
      lines.append("settings: \(settings.compactText)")
    }
    return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n\n"
  }

  /// The time step `timed`'s line starts with, with a space after it: `@T ` for the first
  /// event (nothing at 0, unless `needsTime` says its line would read otherwise without
  /// it: `@0s`), `+STEP ` after an event at `previous`.
  package static func timeStep<Event>(
    _ timed: TimedEvent<Event>, after previous: UInt64?, needsTime: (Event) -> Bool
  ) -> String {
    guard let previous else {
      return timed.time == 0 && !needsTime(timed.event)
        ? "" : "@\(Point.formatOffset(timed.time)) "
    }
    return "+\(Point.formatOffset(timed.time - previous)) "
  }

  /// `kind name=value …`, the unlabelled payloads by position.
  static func eventLine<D: Domain>(_ event: D.Event, domain: D) -> String {
    let json = domain.json(event)
    guard case .object(let members) = json else { return json.compactText }
    var words = [domain.eventKind(event)]
    for (name, value) in members where name != "event" {
      let token = EventScript.token(value)
      words.append(EventScript.isPosition(name) ? token : "\(name)=\(token)")
    }
    return words.joined(separator: " ")
  }
}
