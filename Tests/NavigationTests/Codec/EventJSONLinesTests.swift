import Navigation
import RewindCore
import RewindJournal
import TestSupport
import Testing

/// The navigation domain's own JSON Lines paths (issue 17): events written straight into
/// bytes (`writeMembers`) and read in place (`event(fromFields:)`) must be exactly what
/// `json(_:)` and `event(fromJSON:)` write and read.
@Suite("Event JSON Lines written and read in place")
struct EventJSONLinesTests {
  /// The events of random sequences, of a simulated user and some odd ones, with times.
  func session(_ domain: NavigationDomain, seed: UInt64) -> [TimedEvent<NavigationEvent>] {
    var user = SimulatedUser(seed: seed, domain: domain)
    var events = RandomSequenceTests.events(domain, seed: seed, count: 500)
    events += (0..<1_500).map { _ in user.next().event }
    events += [
      .menuScrolled(offset: .nan), .menuScrolled(offset: .infinity),
      .menuScrolled(offset: -.infinity), .menuScrolled(offset: -0.0),
      .menuScrolled(offset: 0.1 + 0.2), .menuScrolled(offset: 1e300),
      .menuViewportResized(width: .leastNonzeroMagnitude), .categorySelected(nil),
      .itemSelected(nil),
      .menuTabTapped(index: -3), .backTapped,
    ]
    return events.enumerated().map {
      TimedEvent(time: UInt64($0.offset) * 16_667, event: $0.element)
    }
  }

  /// The text `JSONLines.Writer` writes for `events`, with a header.
  func lines(_ events: [TimedEvent<NavigationEvent>], _ domain: NavigationDomain) throws
    -> String
  {
    var text = ""
    let writer = JSONLines.Writer(domain: domain) { text += String(decoding: $0, as: UTF8.self) }
    try writer.write(JSONLines.Header(domain: "navigation", settings: domain.settingsJSON))
    for (index, timed) in events.enumerated() {
      try writer.write(sequence: UInt64(index + 1), time: timed.time, event: timed.event)
    }
    return text
  }

  @Test(
    "writeMembers writes the bytes of json(_:), for every event of random sessions",
    arguments: 0..<RandomSequenceTests.domains.count)
  func writeMembersMatchesJSON(domainIndex: Int) {
    let domain = RandomSequenceTests.domains[domainIndex].1
    var writer = JSONWriter()
    for timed in session(domain, seed: 41) {
      writer.removeAll()
      writer.beginObject()
      domain.writeMembers(of: timed.event, to: &writer)
      writer.endObject()
      #expect(String(decoding: writer.bytes, as: UTF8.self) == domain.json(timed.event).compactText)
    }
  }

  @Test(
    "lines read in place give the events event(fromJSON:) gives, and the session round-trips",
    arguments: 0..<RandomSequenceTests.domains.count)
  func readInPlaceMatchesJSON(domainIndex: Int) throws {
    let domain = RandomSequenceTests.domains[domainIndex].1
    let events = session(domain, seed: 43)
    let text = try lines(events, domain)
    let reader = try JSONLines.Reader(
      TextFileReader(bytes: Array(text.utf8), name: "events.jsonl"))
    let read = try reader.domain(NavigationDomain.self, default: domain)
    var decoded: [TimedEvent<NavigationEvent>] = []
    while let timed = try reader.next(in: read) { decoded.append(timed) }
    // The same events, as far as JSON tells them (a NaN reads back as the one NaN).
    #expect(decoded.count == events.count)
    #expect(decoded.map(\.time) == events.map(\.time))
    let mismatch = zip(decoded, events).first { read.json($0.event) != domain.json($1.event) }
    #expect(mismatch == nil, "\(String(describing: mismatch))")
    // Each line, read through its JSON value, gives the same event.
    for (line, timed) in zip(text.split(separator: "\n").dropFirst(), decoded) {
      #expect(try JSONLines.event(parsing: String(line), in: read) == timed.event)
    }
  }

  @Test(
    "import's loop records every event, with a header or without, and refuses a bad first line",
    arguments: [true, false])
  func recordsEveryEvent(withHeader: Bool) throws {
    let domain = Fixtures.three
    let events = session(domain, seed: 47)
    var text = try lines(events, domain)
    if !withHeader { text = String(text.drop { $0 != "\n" }.dropFirst()) }
    let directory = TemporaryDirectory()
    let path = directory.file("imported.journal")
    let reader = try JSONLines.Reader(
      TextFileReader(bytes: Array(text.utf8), name: "events.jsonl"))
    let read = try reader.domain(NavigationDomain.self, default: domain)
    let recorder = try JournalRecorder.create(
      at: path, domain: read, session: SessionInfo(startTime: 0, device: "test"))
    try reader.record(into: recorder, domain: read)
    try recorder.close()
    let timeline = try Timeline<NavigationDomain>(path: path)
    var recorded: [TimedEvent<NavigationEvent>] = []
    try timeline.events(from: 1, through: timeline.lastSequence) { replayed, _, _ in
      recorded.append(TimedEvent(time: replayed.time, event: replayed.event))
      return true
    }
    #expect(recorded.count == events.count)
    #expect(recorded.map(\.time) == events.map(\.time))
    // The journal's domain interns the ids the catalog lacks afresh: compare as JSON.
    let mismatch = zip(recorded, events).first {
      timeline.domain.json($0.event) != domain.json($1.event)
    }
    #expect(mismatch == nil, "\(String(describing: mismatch))")

    let bad =
      (withHeader ? String(text.prefix { $0 != "\n" }) + "\n" : "")
      + "{\"seq\":1,\"time_us\":0,\"event\":\"teleported\"}\n"
    let badReader = try JSONLines.Reader(
      TextFileReader(bytes: Array(bad.utf8), name: "events.jsonl"))
    let badRecorder = try JournalRecorder.create(
      at: directory.file("bad.journal"), domain: domain,
      session: SessionInfo(startTime: 0, device: "test"))
    #expect {
      try badReader.record(into: badRecorder, domain: domain)
    } throws: { error in
      "\(error)".contains("events.jsonl:\(withHeader ? 2 : 1): unknown event kind \"teleported\"")
    }
  }

  @Test("the odd lines are left to the full reading, which gives the same event or error")
  func oddLines() throws {
    let domain = Fixtures.three
    func read(_ line: String) -> Result<NavigationEvent, TextFileError> {
      let text = "{\"seq\":1,\"time_us\":0,\(line)\n"
      do throws(TextFileError) {
        let reader = try JSONLines.Reader(
          TextFileReader(bytes: Array(text.utf8), name: "events.jsonl"))
        guard let timed = try reader.next(in: domain) else {
          return .failure(TextFileError(.invalidLine, "no event", path: "events.jsonl"))
        }
        return .success(timed.event)
      } catch {
        return .failure(error)
      }
    }
    let grinders = domain.ref("grinders")
    #expect(
      try read(#""id":"grinders","event":"categorySelected"}"#).get() == .categorySelected(grinders)
    )
    #expect(try read(#""event":"menuScrolled","offset":40}"#).get() == .menuScrolled(offset: 40))
    #expect(try read(#""event":"menuTabTapped","index":2.0}"#).get() == .menuTabTapped(index: 2))
    #expect(
      try read(#""event":"categorySelected","id":"grin\u0064ers"}"#).get()
        == .categorySelected(grinders))
    #expect(try read(#""event":"backTapped","id":null}"#).get() == .backTapped)
    let errors = [
      (#""event":"menuScrolled"}"#, "menuScrolled needs a number \"offset\""),
      (
        #""event":"menuScrolled","offset":"x"}"#,
        "menuScrolled needs a number \"offset\", found the string \"x\""
      ),
      (#""event":"backTapped","id":"grinders"}"#, "unknown key \"id\" in the event \"backTapped\""),
      (#""event":"nope"}"#, "unknown event kind \"nope\""),
      (#""event":"categorySelected","id":"grinders","id":null}"#, "duplicate key \"id\""),
      (#""event":"menuTabTapped","index":01}"#, "not JSON: column"),
    ]
    for (line, message) in errors {
      guard case .failure(let error) = read(line) else {
        Issue.record("\(line) was read")
        continue
      }
      #expect(error.description.contains(message), "\(error)")
      #expect(error.description.contains("events.jsonl:1:"), "\(error)")
    }
  }
}
