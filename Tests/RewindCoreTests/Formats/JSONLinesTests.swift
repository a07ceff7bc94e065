import RewindCore
import RewindJournal
import Testing

@Suite("JSON Lines: the writer, the reader and the rules of each line")
struct JSONLinesTests {
  /// A reader of `text` in memory, named `events.jsonl`.
  func reader(_ text: String) throws(TextFileError) -> JSONLines.Reader {
    try JSONLines.Reader(TextFileReader(bytes: Array(text.utf8), name: "events.jsonl"))
  }

  /// Every event of `text`, read with `domain`.
  func events<D: Domain>(_ text: String, _ domain: D) throws(TextFileError)
    -> [TimedEvent<D.Event>]
  {
    let reader = try reader(text)
    var events: [TimedEvent<D.Event>] = []
    while let event = try reader.next(in: domain) { events.append(event) }
    return events
  }

  @Test("an event's members: seq, time_us, then the event's own JSON")
  func eventMembers() {
    let members = JSONLines.eventMembers(
      sequence: 7, time: 250_000, event: .added(text: "milk"), in: Notes())
    #expect(
      JSONValue.object(members).compactText
        == #"{"seq":7,"time_us":250000,"event":"added","text":"milk"}"#)
  }

  @Test("what the writer writes, the reader reads back: header, events, times")
  func roundTrip() throws {
    let domain = StandardTally(start: 40)
    let header = JSONLines.Header(
      domain: "tally", schemaVersion: 1, session: testSession.id,
      startTime: testSession.startTime, device: "iPad \"mini\"", snapshotInterval: 16,
      settings: domain.settingsJSON)
    let written = Array(TallyEvents(seed: 5).prefix(200))
    var text = ""
    let writer = JSONLines.Writer(domain: domain) { text += String(decoding: $0, as: UTF8.self) }
    try writer.write(header)
    for (index, item) in written.enumerated() {
      try writer.write(sequence: UInt64(index + 1), time: item.time, event: item.event)
    }
    #expect(text.split(separator: "\n").count == 201)
    #expect(text.hasSuffix("\n"))

    let reader = try reader(text)
    #expect(reader.headerLine == 1)
    #expect(reader.header?.json.compactText == header.json.compactText)
    let read = try reader.domain(StandardTally.self, default: StandardTally())
    #expect(read.start == 40)
    let session = reader.session(default: SessionInfo(startTime: 0, device: "none"))
    #expect(session.id == testSession.id)
    #expect(session.startTime == testSession.startTime)
    #expect(session.device == "iPad \"mini\"")
    var events: [TimedEvent<StandardTally.Event>] = []
    while let event = try reader.next(in: read) { events.append(event) }
    #expect(events.map(\.event) == written.map(\.event))
    #expect(events.map(\.time) == written.map(\.time))
    #expect(reader.eventCount == 200)
    #expect(reader.lastTime == written.last?.time)
  }

  @Test("the header of a journal: every member, in order")
  func journalHeader() {
    let journal = JournalHeader(
      domain: "notes", schemaVersion: 3, sessionID: testSession.id, startTime: 1_500_000,
      device: "phone", settings: [], snapshotInterval: 64)
    #expect(
      JSONLines.Header(journal, domain: Notes()).json.compactText
        == #"{"header":{"domain":"notes","schemaVersion":3,"session":"\#(testSession.id)","start":"1970-01-01T00:00:01.500Z","device":"phone","snapshotInterval":64,"settings":{}}}"#
    )
  }

  @Test("blank lines, CRLF, a byte-order mark and a header after blank lines are accepted")
  func lenient() throws {
    let text =
      "\u{FEFF}\r\n  \r\n{\"header\":{\"domain\":\"notes\"}}\r\n\t\r\n"
      + "{\"seq\":1,\"time_us\":5,\"event\":\"added\",\"text\":\"tea\"}\r\n\r\n"
      + "{\"seq\":2,\"time_us\":5,\"event\":\"renamed\",\"title\":null}\r\n"
    let reader = try reader(text)
    #expect(reader.headerLine == 3)
    #expect(reader.header?.domain == "notes")
    var events: [Notes.Event] = []
    while let event = try reader.next(in: Notes()) { events.append(event.event) }
    // A key whose value is null is absent: Codable leaves out a nil payload.
    #expect(events == [.added(text: "tea"), .renamed(title: nil)])
  }

  @Test(
    "a line that breaks a rule is refused with its number and what is wrong",
    arguments: [
      (
        #"{"seq":1,"time_us":-5,"event":"cleared"}"#, 1,
        #""time_us" is -5; a time is microseconds since the session's start, never negative"#
      ),
      (
        #"{"seq":1,"time_us":18446744073709551616,"event":"cleared"}"#, 1,
        #""time_us" is 1.8446744073709552e+19, beyond the largest time a journal holds (2^63 − 1 µs)"#
      ),
      (
        #"{"seq":1,"time_us":-1e30,"event":"cleared"}"#, 1,
        #""time_us" is -1e+30; a time is microseconds since the session's start, never negative"#
      ),
      (
        #"{"seq":1,"time_us":"0","event":"cleared"}"#, 1,
        #""time_us" must be a whole number of microseconds since the session's start, found "0""#
      ),
      (
        #"{"seq":1,"event":"cleared"}"#, 1,
        #"missing "time_us" (microseconds since the session's start, a whole number ≥ 0)"#
      ),
      (#"{"time_us":0,"event":"cleared"}"#, 1, #"missing "seq" (an integer)"#),
      (
        #"{"seq":1e16,"time_us":0,"event":"cleared"}"#, 1,
        #""seq" is 1e+16, written with a decimal point or an exponent, which a double may have rounded from 2^53 on: write it as digits"#
      ),
      (
        #"{"seq":1,"time_us":9.2e18,"event":"cleared"}"#, 1,
        #""time_us" is 9.2e+18, written with a decimal point or an exponent, which a double may have rounded from 2^53 on: write it as digits"#
      ),
      (
        #"{"seq":"1","time_us":0,"event":"cleared"}"#, 1,
        #""seq" must be an integer, found "1" (seq counts from 1 without gaps)"#
      ),
      (
        #"{"seq":6,"time_us":0,"event":"cleared"}"#, 1,
        #""seq" is 6, expected 1: a session starts at event 1; this looks like the events after 5 that `rewind export --from 5` writes, which cannot be imported on their own (export the whole session)"#
      ),
      (
        "{\"seq\":1,\"time_us\":9,\"event\":\"cleared\"}\n\n{\"seq\":3,\"time_us\":9,\"event\":\"cleared\"}",
        3,
        #""seq" is 3, expected 2 (seq counts from 1 without gaps): event 2 is missing, as the export of a salvaged journal leaves out the events lost to damage; no session goes on across them (`rewind export --to 1` writes those before them)"#
      ),
      (
        "{\"seq\":1,\"time_us\":9,\"event\":\"cleared\"}\n{\"seq\":2,\"time_us\":8,\"event\":\"cleared\"}",
        2, #""time_us" 8 is before the previous event's 9"#
      ),
      (
        "{\"seq\":1,\"time_us\":9,\"event\":\"cleared\"}\n{\"header\":{\"domain\":\"notes\"}}",
        2, #"a header line after events; the header ({"header": …}) may only be the first line"#
      ),
      (
        "{\"header\":{}}\n{\"header\":{}}", 2,
        "a second header line; a session has one header, on its first line"
      ),
      (
        #"{"seq":1,"time_us":0,"event":"cleared","colour":"red"}"#, 1,
        #"unknown key "colour" in the event "cleared"; its keys are seq, time_us, event"#
      ),
      (
        #"{"seq":1,"time_us":0,"event":"added","text":"x","note":0}"#, 1,
        #"unknown key "note" in the event "added"; its keys are seq, time_us, event, text"#
      ),
      (
        // An unknown key on a later event of a kind already read is refused the same way.
        "{\"seq\":1,\"time_us\":0,\"event\":\"added\",\"text\":\"x\"}\n{\"seq\":2,\"time_us\":0,\"event\":\"added\",\"text\":\"y\",\"note\":0}",
        2, #"unknown key "note" in the event "added"; its keys are seq, time_us, event, text"#
      ),
      (#"{"seq":1,"time_us":0,"event":"teleported"}"#, 1, #"unknown event kind "teleported""#),
      (
        // A slip of a key the event needs: named, with the one meant.
        #"{"seq":1,"time_us":0,"event":"added","txet":"x"}"#, 1,
        #"added: missing "text" ("txet" is given: did you mean "text"?)"#
      ),
      (
        // A key near one given too is no slip of it: nothing is suggested.
        #"{"seq":1,"time_us":0,"event":"added","text":"x","txt":1}"#, 1,
        #"unknown key "txt" in the event "added"; its keys are seq, time_us, event, text"#
      ),
      (
        // Slips of the line's own keys.
        #"{"sq":1,"time_us":0,"event":"cleared"}"#, 1,
        #"missing "seq" (an integer) ("sq" is given: did you mean "seq"?); the line's members are"#
      ),
      (
        #"{"seq":1,"tim_us":0,"event":"cleared"}"#, 1,
        #"missing "time_us" (microseconds since the session's start, a whole number ≥ 0) ("tim_us" is given: did you mean "time_us"?); the line's members are"#
      ),
      ("[1]", 1, "expected a JSON object"),
      (
        #"{"seq":1,"time_us":0"#, 1,
        "not JSON: column 21: expected ',' or '}' in an object, found the end of the text"
      ),
    ])
  func refusedLine(text: String, line: Int, message: String) throws {
    let error = try #require(throws: TextFileError.self) { try events(text, Notes()) }
    #expect(error.code == .invalidLine)
    #expect(error.line == line)
    #expect(error.message.hasPrefix(message), "\(error.message)")
  }

  @Test(
    "a header member of the wrong type or out of range is refused, naming it",
    arguments: [
      (
        #""snapshotInterval":0"#,
        #""snapshotInterval" must be a whole number of events from 1 to 1073741824, found 0"#
      ),
      (#""snapshotInterval":-1"#, "found -1"),
      (#""snapshotInterval":"x""#, #"found "x""#),
      (#""snapshotInterval":1.5"#, "found 1.5"),
      (#""snapshotInterval":2e9"#, "found 2000000000.0"),
      (#""snapshotInterval":1073741825"#, "found 1073741825"),
      (#""schemaVersion":-1"#, #""schemaVersion" must be a whole number from 0 to 4294967295"#),
      (#""session":"x""#, #"the header's "session" must be a UUID"#),
      (#""start":"yesterday""#, #"the header's "start" must be an ISO-8601 time"#),
      (#""device":5"#, #"the header's "device" must be a string"#),
      (
        #""device":""# + String(repeating: "é", count: 2_049) + #"""#,
        #"the header's "device" must be a string of at most 4096 bytes, found a string of 4098 bytes"#
      ),
      (#""domain":"""#, #"the header's "domain" must be a domain's name"#),
      (#""colour":"red""#, #"unknown key "colour" in the header; its keys are domain, "#),
      (#""devise":"x""#, #"unknown key "devise" (did you mean "device"?) in the header"#),
    ])
  func refusedHeader(member: String, message: String) throws {
    let text = "\n{\"header\":{\(member)}}\n{\"seq\":1,\"time_us\":0,\"event\":\"cleared\"}\n"
    let error = try #require(throws: TextFileError.self) { try reader(text) }
    #expect(error.line == 2)
    #expect(error.message.contains(message), "\(error.message)")
  }

  @Test("header intervals from 1 to 2^30 are taken; null members are absent")
  func headerValues() throws {
    for interval in [1, 1024, 1 << 30] {
      let reader = try reader("{\"header\":{\"snapshotInterval\":\(interval)}}")
      #expect(reader.header?.snapshotInterval == UInt32(interval))
    }
    // A key the header lacks too, as in an event's line (walk of import/export, IO-10).
    let reader = try reader(
      #"{"header":{"device":null,"snapshotInterval":null,"note":null,"parent":null}}"#)
    #expect(reader.header?.device == nil)
    #expect(reader.header?.snapshotInterval == nil)
    #expect(reader.header?.parent == nil)
    #expect(throws: TextFileError.self) { try self.reader(#"{"header":{"note":1}}"#) }
    #expect(throws: TextFileError.self) { try self.reader(#"{"header":{},"extra":1}"#) }
  }

  @Test("the header's domain, schema version and settings are checked against the domain")
  func headerAgainstDomain() throws {
    func error(_ header: String) throws -> TextFileError {
      let reader = try reader("\n" + header)
      return try #require(throws: TextFileError.self) {
        try reader.domain(StandardTally.self, default: StandardTally())
      }
    }
    #expect(
      try error(#"{"header":{"domain":"notes"}}"#).description
        == "events.jsonl:2: the session's domain is 'notes', not 'tally'")
    #expect(
      try error(#"{"header":{"schemaVersion":2}}"#).description
        == "events.jsonl:2: schema version 2 of 'tally' is newer than version 1, the newest this rewind reads; read it with a newer rewind"
    )
    #expect(
      try error(#"{"header":{"settings":{"start":"high"}}}"#).description.hasPrefix(
        "events.jsonl:2: the header's settings are invalid: "))
    // Without a header, or without settings, the default.
    #expect(try reader("").domain(StandardTally.self, default: StandardTally(start: 3)).start == 3)
    #expect(
      try reader(#"{"header":{"domain":"tally"}}"#)
        .domain(StandardTally.self, default: StandardTally(start: 4)).start == 4)
  }
}
