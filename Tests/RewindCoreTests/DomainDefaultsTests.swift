import RewindCore
import RewindJournal
import TestSupport
import Testing

@Suite("The defaults of a Codable domain")
struct DomainDefaultsTests {
  let domain: Notes

  init() throws { domain = try Notes.sample }

  /// A domain that cannot be built from `{}` has no default sample: an error that says
  /// why and what to give (the `rewind` tool says it and stops), where it trapped.
  @Test("the default sample of a domain that needs settings is an error")
  func sampleWithoutSettings() {
    #expect(
      throws: DomainError(
        #"the 'clashing' domain cannot be built from empty settings ({}): missing "level"; give it a `static var sample: ClashingDomain { … }` that builds it"#
      )
    ) { _ = try ClashingDomain.sample }
  }

  @Test("identity, versions, settings and kinds default sensibly")
  func identity() throws {
    #expect(Notes.readableSchemaVersions == 3...3)
    #expect(Notes.eventKinds.isEmpty)
    #expect(domain.settingsJSON == .object([]))
    _ = try Notes(settingsJSON: .object([]))
    let tally = StandardTally(start: -4)
    #expect(tally.settingsJSON.compactText == #"{"start":-4}"#)
    #expect(try StandardTally(settingsJSON: tally.settingsJSON).initialState.value == -4)
    #expect(throws: DomainError("expected an object, found a number")) {
      try StandardTally(settingsJSON: 7)
    }
    #expect(throws: DomainError("start: expected an integer, found a string")) {
      try StandardTally(settingsJSON: .object([("start", "x")]))
    }
  }

  @Test("an event's JSON is its case and its payload, and reads back")
  func eventJSON() throws {
    let events: [(Notes.Event, String)] = [
      (.added(text: "milk"), #"{"event":"added","text":"milk"}"#),
      (.renamed(title: nil), #"{"event":"renamed","title":null}"#),
      (.moved(2, 0), #"{"event":"moved","_0":2,"_1":0}"#),
      (.cleared, #"{"event":"cleared"}"#),
    ]
    for (event, text) in events {
      #expect(domain.json(event).compactText == text)
      #expect(try domain.event(fromJSON: JSONValue(parsing: text)) == event)
      #expect(domain.eventKind(event) == domain.json(event)["event"]?.stringValue)
    }
    // A missing optional reads as nil; keys in any order.
    #expect(
      try domain.event(fromJSON: JSONValue(parsing: #"{"event":"renamed"}"#))
        == .renamed(title: nil))
  }

  @Test(
    "a bad event object says what is wrong",
    arguments: [
      (#"{"event":"flew"}"#, #"unknown event kind "flew""#),
      (#"{"event":"added"}"#, #"added: missing "text""#),
      (#"{"event":"added","text":5}"#, "added.text: expected a string, found a number"),
      (#"{"text":"x"}"#, #"an event needs a string "event" naming its kind"#),
      (#"[1]"#, "an event must be a JSON object, found an array"),
    ])
  func badEvents(text: String, message: String) throws {
    let json = try JSONValue(parsing: text)
    #expect(throws: DomainError(message)) { try domain.event(fromJSON: json) }
  }

  @Test("fields are the leaves of the initial state's JSON; changed fields compare them")
  func fields() {
    #expect(domain.fields.map(\.path) == ["title", "items", "checked", "mode"])
    var state = domain.initialState
    let before = state
    _ = domain.reduce(&state, .added(text: "milk"))
    _ = domain.reduce(&state, .added(text: "eggs"))
    _ = domain.reduce(&state, .moved(0, 1))
    #expect(domain.fields[1].value(state) == ["eggs", "milk"])
    #expect(domain.fields[3].value(state) == .object([("running", .object([("since", 1)]))]))
    #expect(domain.changedFields(from: before, to: state) == FieldSet(rawValue: 0b1010))
    #expect(domain.diff(before, state).map(\.path) == ["items", "mode"])
    #expect(domain.changedFields(from: state, to: state).isEmpty)
  }

  /// An element of an array the default fields infer (a list or null) is blamed: it was
  /// refused as "a list or null, not an array".
  @Test("an element of an array field of the defaults is blamed")
  func elementBlame() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("notes.journal")
    let recorder = try JournalRecorder.create(at: path, domain: domain, session: testSession)
    let events: [Notes.Event] = [.added(text: "milk"), .added(text: "eggs"), .renamed(title: "T")]
    for (index, event) in events.enumerated() {
      try recorder.record(event, at: UInt64(index + 1) * 1_000)
    }
    try recorder.close()
    let timeline = try Timeline<Notes>(path: path)
    #expect(try timeline.blame("items[eggs]", at: 3).event?.sequence == 2)
    #expect(try timeline.blame("items[milk]", at: 3).event?.sequence == 1)
    // Before it was added, no event added it.
    #expect(try timeline.blame("items[eggs]", at: 1).event == nil)
  }

  @Test("the binary codecs round-trip events and states")
  func binary() throws {
    var state = domain.initialState
    var writer = ByteWriter()
    var context: Void = ()
    for event: Notes.Event in [.added(text: "a"), .renamed(title: "T"), .checked(index: 0)] {
      _ = domain.reduce(&state, event)
      domain.encode(event, into: &writer, context: &context)
    }
    let bytes = writer.bytes
    let events = try bytes.withUnsafeBytes { buffer in
      var reader = ByteReader(buffer)
      var context: Void = ()
      return try (0..<3).map { _ in try domain.decodeEvent(from: &reader, context: &context) }
    }
    #expect(events == [.added(text: "a"), .renamed(title: "T"), .checked(index: 0)])
    var stateBytes = ByteWriter()
    domain.encode(state, into: &stateBytes)
    #expect(
      try ByteReader.decodeAll(stateBytes.bytes) { reader throws(CodecError) in
        try domain.decodeState(from: &reader)
      } == state)
  }

  @Test("descriptions read like scenario lines and render shows the JSON")
  func words() throws {
    #expect(domain.describe(.added(text: "milk")) == "added text=milk")
    #expect(domain.describe(.added(text: "two words")) == #"added text="two words""#)
    #expect(domain.describe(.added(text: "5")) == #"added text="5""#)
    #expect(domain.describe(.moved(2, 0)) == "moved 2 0")
    #expect(domain.describe(.renamed(title: nil)) == "renamed title=null")
    #expect(domain.describe(.cleared) == "cleared")
    #expect(domain.render(domain.initialState) == domain.json(domain.initialState).prettyText)
    var state = domain.initialState
    #expect(domain.reduce(&state, .added(text: "")) == .rejected("an item needs words"))
    #expect(DomainRejection("x").description == "x")
    // A reason that names a value is written as any string.
    let index = 7
    let rejection: DomainRejection = "no item \(index)"
    #expect(rejection == DomainRejection("no item 7"))
  }

  @Test("a generated test builds the domain by its type's name without its module")
  func swiftDomainExpression() {
    // `Module.Notes` would not compile where the module declares a type of its name.
    #expect(
      SwiftNotes().swiftDomainExpression
        == #"try DomainDefaultsTests.SwiftNotes(settingsJSON: JSONValue(parsing: "{}"))"#)
    #expect(SwiftNotes.swiftModules == ["RewindCoreTests"])
  }

  /// Notes that can write a test, nested to show that only the module is left out.
  struct SwiftNotes: SwiftSourceDomain, Codable {
    typealias State = Notes.State
    typealias Event = Notes.Event
    static let identifier = "swift-notes"
    static let schemaVersion: UInt32 = 1
    var initialState: State { State() }
    func reduce(_ state: inout State, _ event: Event) -> Outcome<DomainRejection> {
      Notes().reduce(&state, event)
    }
    func swiftSource(of event: Event, names: inout SwiftSourceNames) -> String { "" }
    func swiftSource(of rejection: DomainRejection, names: inout SwiftSourceNames) -> String {
      ""
    }
    func swiftAssignments(
      from old: State, to new: State, on target: String, names: inout SwiftSourceNames
    ) -> [String] { [] }
  }
}
