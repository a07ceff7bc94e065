import Navigation
import RewindCore
import Testing

@Suite("Event JSON")
struct EventJSONTests {
  let domain = Fixtures.three

  @Test("each event kind has the documented JSON")
  func documentedJSON() throws {
    let cases: [(NavigationEvent, String)] = [
      (.menuTabTapped(index: 3), #"{"event":"menuTabTapped","index":3}"#),
      (.menuScrolled(offset: 120.5), #"{"event":"menuScrolled","offset":120.5}"#),
      (.menuScrolled(offset: 40), #"{"event":"menuScrolled","offset":40.0}"#),
      (.menuScrolled(offset: .nan), #"{"event":"menuScrolled","offset":"NaN"}"#),
      (.menuScrolled(offset: -.infinity), #"{"event":"menuScrolled","offset":"-Infinity"}"#),
      (.categorySelected(domain.ref("grinders")), #"{"event":"categorySelected","id":"grinders"}"#),
      (.categorySelected(nil), #"{"event":"categorySelected","id":null}"#),
      (
        .itemSelected(domain.ref("grinders/swift-mini")),
        #"{"event":"itemSelected","id":"grinders/swift-mini"}"#
      ),
      (.itemSelected(nil), #"{"event":"itemSelected","id":null}"#),
      (
        .itemExpanded(domain.ref("espresso-machines/leva")),
        #"{"event":"itemExpanded","id":"espresso-machines/leva"}"#
      ),
      (
        .itemCollapsed(domain.ref("espresso-machines/leva")),
        #"{"event":"itemCollapsed","id":"espresso-machines/leva"}"#
      ),
      (
        .columnVisibilityChanged(.doubleColumn),
        #"{"event":"columnVisibilityChanged","visibility":"doubleColumn"}"#
      ),
      (
        .splitStyleChanged(.prominentDetail),
        #"{"event":"splitStyleChanged","style":"prominentDetail"}"#
      ),
      (.sizeClassChanged(.compact), #"{"event":"sizeClassChanged","sizeClass":"compact"}"#),
      (.backTapped, #"{"event":"backTapped"}"#),
      (
        .orientationChanged(.portrait),
        #"{"event":"orientationChanged","orientation":"portrait"}"#
      ),
      (.menuViewportResized(width: 834), #"{"event":"menuViewportResized","width":834.0}"#),
      (.menuViewportResized(width: .nan), #"{"event":"menuViewportResized","width":"NaN"}"#),
    ]
    for (event, text) in cases {
      #expect(domain.json(event).compactText == text)
      #expect(try domain.event(fromJSON: JSONValue(parsing: text)) == event)
    }
  }

  @Test(
    "round trips are lossless over the random sequences",
    arguments: 0..<RandomSequenceTests.domains.count)
  func roundTrip(domainIndex: Int) throws {
    let domain = RandomSequenceTests.domains[domainIndex].1
    for event in RandomSequenceTests.events(domain, seed: 31) {
      let text = domain.json(event).compactText
      #expect(try domain.event(fromJSON: JSONValue(parsing: text)) == event, "\(text)")
    }
  }

  @Test("ids the catalog lacks are interned, kept, and rejected by the reducer")
  func unknownIDs() throws {
    let domain = NavigationDomain()
    let event = try domain.event(
      fromJSON: JSONValue(parsing: #"{"event":"itemSelected","id":"grinders/mazzer"}"#))
    #expect(domain.json(event).compactText == #"{"event":"itemSelected","id":"grinders/mazzer"}"#)
    #expect(domain.unknownIdentifierCount == 1)
    var state = domain.state(after: domain.category("grinders"))
    #expect(domain.reduce(&state, event) == .rejected(.unknownIdentifier))
    // The same id again is the same ref.
    #expect(try domain.event(fromJSON: domain.json(event)) == event)
    #expect(domain.unknownIdentifierCount == 1)
  }

  @Test("other keys are ignored; integral doubles are integers")
  func lenient() throws {
    let event = try domain.event(
      fromJSON: JSONValue(parsing: #"{"seq":12,"event":"menuTabTapped","index":2.0,"t":1.5}"#))
    #expect(event == .menuTabTapped(index: 2))
  }

  @Test(
    "bad JSON gives a precise message",
    arguments: [
      (#"[1]"#, "an event must be a JSON object, found an array"),
      (#"{"index":3}"#, #"an event needs a string "event" naming its kind"#),
      (
        #"{"event":"foo"}"#,
        #"unknown event kind "foo"; the kinds are menuTabTapped, menuScrolled, menuViewportResized, categorySelected, itemSelected, itemExpanded, itemCollapsed, columnVisibilityChanged, splitStyleChanged, sizeClassChanged, orientationChanged, backTapped"#
      ),
      (
        // A slip of a kind: the kind meant, then all of them.
        #"{"event":"menuScroled","offset":3}"#,
        #"unknown event kind "menuScroled" (did you mean "menuScrolled"?); the kinds are menuTabTapped, menuScrolled, menuViewportResized, categorySelected, itemSelected, itemExpanded, itemCollapsed, columnVisibilityChanged, splitStyleChanged, sizeClassChanged, orientationChanged, backTapped"#
      ),
      (#"{"event":"menuTabTapped"}"#, #"menuTabTapped needs an integer "index""#),
      (
        #"{"event":"menuTabTapped","index":1.5}"#,
        #"menuTabTapped needs an integer "index", found 1.5"#
      ),
      (
        #"{"event":"menuTabTapped","index":"1"}"#,
        #"menuTabTapped needs an integer "index", found a string"#
      ),
      (
        #"{"event":"menuScrolled","offset":"12"}"#,
        #"menuScrolled needs a number "offset", found the string "12""#
      ),
      (#"{"event":"menuScrolled"}"#, #"menuScrolled needs a number "offset""#),
      (
        #"{"event":"categorySelected"}"#,
        #"categorySelected needs an "id": a string, or null to clear"#
      ),
      (
        #"{"event":"itemSelected","id":3}"#,
        #"itemSelected needs an "id": a string, or null to clear, found a number"#
      ),
      (#"{"event":"itemExpanded","id":null}"#, #"itemExpanded needs a string "id", found null"#),
      (#"{"event":"itemCollapsed"}"#, #"itemCollapsed needs a string "id""#),
      (
        #"{"event":"columnVisibilityChanged","visibility":"some"}"#,
        #"columnVisibilityChanged needs a "visibility": one of "automatic", "all", "doubleColumn", "detailOnly", found the string "some""#
      ),
      (
        #"{"event":"splitStyleChanged"}"#,
        #"splitStyleChanged needs a "style": one of "automatic", "balanced", "prominentDetail""#
      ),
      (
        #"{"event":"sizeClassChanged","sizeClass":"wide"}"#,
        #"sizeClassChanged needs a "sizeClass": one of "regular", "compact", found the string "wide""#
      ),
      (
        #"{"event":"categorySelected","id":"a\u001b[2Jb"}"#,
        #"the id "a\u{1B}[2Jb" contains a control character (U+001B)"#
      ),
      (
        #"{"event":"itemExpanded","id":"a\u202eb"}"#,
        #"the id "a\u{202E}b" contains a control character (U+202E)"#
      ),
      (
        #"{"event":"orientationChanged","orientation":"flat"}"#,
        #"orientationChanged needs an "orientation": one of "landscape", "portrait", found the string "flat""#
      ),
      (#"{"event":"menuViewportResized"}"#, #"menuViewportResized needs a number "width""#),
      (
        #"{"event":"menuViewportResized","width":true}"#,
        #"menuViewportResized needs a number "width", found a boolean"#
      ),
      (
        #"{"event":"splitStyleChanged","style":"balancd"}"#,
        #"splitStyleChanged needs a "style": one of "automatic", "balanced", "prominentDetail", found the string "balancd" (did you mean "balanced"?)"#
      ),
    ])
  func errors(text: String, message: String) throws {
    #expect {
      try domain.event(fromJSON: JSONValue(parsing: text))
    } throws: { error in
      (error as? DomainError)?.message == message
    }
  }

  @Test(
    "an event without a key it needs names the key, and a key given in its place, misspelt, is said to be it",
    arguments: [
      (#"{"evnt":"backTapped"}"#, "event", "evnt"),
      (#"{"event":"menuTabTapped","indx":2}"#, "index", "indx"),
      (#"{"event":"menuScrolled","ofset":2}"#, "offset", "ofset"),
      (#"{"event":"menuViewportResized","widht":2}"#, "width", "widht"),
      (#"{"event":"categorySelected","idd":"grinders"}"#, "id", "idd"),
      (#"{"event":"itemExpanded","Id":"grinders"}"#, "id", "Id"),
      (#"{"event":"splitStyleChanged","styel":"balanced"}"#, "style", "styel"),
      (#"{"event":"sizeClassChanged","sizeclass":"compact"}"#, "sizeClass", "sizeclass"),
    ])
  func missingKeys(text: String, key: String, given: String) throws {
    let json = try JSONValue(parsing: text)
    let error = try #require(throws: DomainError.self) { try domain.event(fromJSON: json) }
    #expect(error.missingKey == key)
    guard case .object(let members) = json else { return }
    #expect(
      error.message(givenKeys: members.map(\.0))
        == error.message + " (\"\(given)\" is given: did you mean \"\(key)\"?)")
    // A key far from it is not said to be it.
    #expect(error.message(givenKeys: ["event", "colour"]) == error.message)
  }

  @Test("a domain reading events of schema 1 refuses the kinds schema 2 added")
  func schema1() throws {
    let old = try NavigationDomain(
      settingsJSON: Fixtures.schema1Settings,
      upcastingFrom: RecordedSchema(version: 1, device: "iPad mini"))
    for text in [
      #"{"event":"orientationChanged","orientation":"portrait"}"#,
      #"{"event":"menuViewportResized","width":834}"#,
    ] {
      #expect(throws: DomainError.self) { try old.event(fromJSON: JSONValue(parsing: text)) }
    }
    #expect(
      try old.event(fromJSON: JSONValue(parsing: #"{"event":"menuTabTapped","index":3}"#))
        == .menuTabTapped(index: 3))
  }

  @Test("an id longer than 1,024 bytes is refused")
  func longID() throws {
    let id = String(repeating: "a", count: 1_025)
    let json = JSONValue.object([("event", "categorySelected"), ("id", .string(id))])
    #expect(throws: DomainError.self) { try domain.event(fromJSON: json) }
  }

  @Test("describe gives one line per event")
  func describe() {
    #expect(
      domain.describe(.categorySelected(domain.ref("grinders"))) == "categorySelected grinders")
    #expect(domain.describe(.itemSelected(nil)) == "itemSelected none")
    #expect(domain.describe(.menuScrolled(offset: 120.5)) == "menuScrolled 120.5")
    #expect(domain.describe(.menuTabTapped(index: -1)) == "menuTabTapped -1")
    #expect(domain.describe(.sizeClassChanged(.compact)) == "sizeClassChanged compact")
    #expect(domain.describe(.backTapped) == "backTapped")
    #expect(domain.describe(.orientationChanged(.portrait)) == "orientationChanged portrait")
    #expect(domain.describe(.menuViewportResized(width: 834)) == "menuViewportResized 834.0")
    #expect(domain.eventKind(.backTapped) == "backTapped")
  }
}
