import Navigation
import RewindCore
import RewindJournal

/// Reads arbitrary bytes as a journal, the way the commands do, from memory.
///
/// Verified (`rewind verify`); opened plain and salvaging (`info`, every reading
/// command); every frame decompressed and its records walked from the start and from
/// each snapshot; then, for a journal of the navigation domain, every event decoded,
/// reduced and described, every snapshot's state decoded, printed and drawn, the end
/// state reached from a snapshot and by a full replay, points resolved by time, and the
/// whole journal checked (`rewind check`). Errors are expected; a trap is a bug.
enum JournalHarness {
  /// The path the bytes are read at, in memory; errors name it.
  static let path = "fuzzed.journal"
  /// The events a run replays at most: enough for any input the fuzzer makes, bounded
  /// for the few kilobytes that decompress to megabytes of records.
  static let eventLimit: UInt64 = 100_000

  static func run(_ bytes: [UInt8]) throws(FuzzFailure) {
    let system = FileSystemCalls.memory(bytes, at: path)
    if let report = try? Journal.verify(path: path, system: system) {
      _ = report.problems.map(\.description)
    }
    for salvage in [false, true] {
      var options = JournalReader.Options(salvage: salvage)
      options.system = system
      guard let reader = try? JournalReader(path: path, options: options) else { continue }
      describe(reader.condition)
      readFrames(reader)
      guard reader.header.domain == NavigationDomain.identifier,
        let timeline = try? Timeline<NavigationDomain>(reader: reader)
      else { continue }
      replay(timeline, salvage: salvage)
    }
  }

  /// What `info` and the warnings print about a journal's condition.
  static func describe(_ condition: JournalCondition) {
    _ = condition.walkReason
    _ = condition.headerDamage.map { TerminalText.escaped($0.reason) }
    _ = condition.tornTail.map { TerminalText.escaped($0.reason) }
    _ = condition.damage.map { TerminalText.escaped($0.reason) }
  }

  /// Decompresses every frame and walks its records from the start and from each of its
  /// snapshots; then every record in order, as the tests read them.
  static func readFrames(_ reader: JournalReader) {
    for index in reader.frames.indices {
      _ = try? reader.frameHeader(index)
      guard let frame = try? reader.loadFrame(index) else { continue }
      var cursor = frame.records()
      while (try? cursor.next()) != nil {}
      for snapshot in frame.snapshots {
        guard var cursor = try? frame.records(after: snapshot) else { continue }
        while (try? cursor.next()) != nil {}
      }
    }
    var records = reader.records()
    var count: UInt64 = 0
    while count < eventLimit, (try? records.next()) != nil { count += 1 }
  }

  /// Replays a journal of the navigation domain as the commands do.
  static func replay(_ timeline: Timeline<NavigationDomain>, salvage: Bool) {
    let domain = timeline.domain
    let last = min(timeline.lastSequence, eventLimit)
    _ = try? timeline.events(from: 1, through: last, crossingLostEvents: salvage) {
      event, _, _ in
      _ = domain.describe(event.event)
      _ = domain.json(event.event)
      return true
    }
    for index in timeline.reader.frames.indices {
      guard let header = try? timeline.reader.frameHeader(index) else { continue }
      for stored in header.snapshots where stored.snapshot.sequence <= last {
        guard let state = try? timeline.state(after: stored.snapshot.sequence) else { continue }
        show(state, of: domain)
      }
    }
    if let end = try? timeline.state(at: .end) { show(end, of: domain) }
    _ = try? timeline.replayedState(after: last)
    let duration = timeline.duration
    for time in [0, duration / 2, duration] {
      if let sequence = try? timeline.resolve(.offset(microseconds: time)) {
        _ = try? timeline.time(of: sequence)
      }
    }
    _ = try? timeline.resolve(.wallClock(microsecondsSinceEpoch: timeline.header.startTime))
    if timeline.lastSequence <= eventLimit { _ = try? timeline.check() }
  }

  /// What `state` prints of a state: its JSON, its fields and its drawing.
  static func show(_ state: NavigationState, of domain: NavigationDomain) {
    _ = domain.json(state).prettyText
    for field in domain.fields { _ = field.value(state) }
    _ = domain.render(state)
  }
}
