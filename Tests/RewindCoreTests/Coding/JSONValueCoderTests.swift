import RewindCore
import Testing

@Suite("The JSONValue encoder and decoder")
struct JSONValueCoderTests {
  let encoder = JSONValueEncoder()
  let decoder = JSONValueDecoder()

  @Test("the output is stable: declaration order, nil as null, sorted maps, cases by name")
  func stableOutput() throws {
    let json = try encoder.encode(Sample())
    #expect(
      json.compactText
        == #"{"flag":true,"small":-3,"count":300,"big":-9223372036854775808,"ratio":0.5,"offset":-0.0,"title":"Café ☕️","note":null,"nested":null,"mode":{"paused":{"_0":7,"_1":"x"}},"modes":["idle",{"running":{"since":5}}],"suit":"spades","counts":{"a":1,"b":2,"c":3},"byNumber":{"2":"two","10":"ten"},"tags":["x","y","z"],"grid":[[1,null],[],[3]],"inner":{"label":"in","weight":null},"empty":[]}"#
    )
    #expect(try encoder.encode(Double.nan) == "NaN")
    #expect(try encoder.encode([-Double.infinity]) == ["-Infinity"])
    #expect(
      try encoder.encode(["k": Inner(label: "", weight: 1)]).compactText
        == #"{"k":{"label":"","weight":1.0}}"#)
    let emptyMap: [String: [String: Int]] = ["only": [:]]
    #expect(try encoder.encode(emptyMap).compactText == #"{"only":{}}"#)
  }

  @Test("everything encoded decodes back")
  func roundTrip() throws {
    var sample = Sample()
    // JSON has one null: `.some(nil)` of a double optional reads back as nil.
    sample.nested = nil
    #expect(try decoder.decode(Sample.self, from: encoder.encode(sample)) == sample)
    sample.note = "n"
    sample.mode = .idle
    sample.ratio = .infinity
    #expect(try decoder.decode(Sample.self, from: encoder.encode(sample)) == sample)
    let tree = Tree.node(.node(.leaf))
    #expect(try decoder.decode(Tree.self, from: encoder.encode(tree)) == tree)
  }

  @Test("hand-written JSON: cases by name or as objects, missing optionals, whole doubles")
  func handWritten() throws {
    let inner = try decoder.decode(Inner.self, from: JSONValue(parsing: #"{"label":"x"}"#))
    #expect(inner == Inner(label: "x", weight: nil))
    #expect(try decoder.decode(Mode.self, from: "idle") == .idle)
    #expect(try decoder.decode(Mode.self, from: JSONValue(parsing: #"{"idle":{}}"#)) == .idle)
    #expect(
      try decoder.decode(Mode.self, from: JSONValue(parsing: #"{"running":{"since":2.0}}"#))
        == .running(since: 2))
    #expect(try decoder.decode(Float.self, from: "NaN").isNaN)
  }

  @Test(
    "errors name the path and what was expected",
    arguments: [
      (#"{"label":3}"#, "label: expected a string, found a number"),
      (#"{"weight":1}"#, #"missing "label""#),
      (#"[1]"#, "expected an object, found an array"),
      (#"{"label":"a","weight":"heavy"}"#, "weight: expected a number, found a string"),
    ])
  func errors(text: String, message: String) throws {
    let json = try JSONValue(parsing: text)
    #expect(throws: DomainError(message)) { try decoder.decode(Inner.self, from: json) }
  }

  @Test("errors inside arrays and enums, and numbers that do not fit")
  func deeperErrors() throws {
    #expect(throws: DomainError("[1].running.since: expected an integer, found 2.5")) {
      try decoder.decode(
        [Mode].self, from: JSONValue(parsing: #"["idle",{"running":{"since":2.5}}]"#))
    }
    #expect(throws: DomainError(#""walking" is not a known case"#)) {
      try decoder.decode(Mode.self, from: "walking")
    }
    #expect(throws: DomainError("300 does not fit in Int8")) {
      try decoder.decode(Int8.self, from: 300)
    }
  }

  enum Filter: String, Codable, CaseIterable { case all, open, done }
  enum Plain: String, Codable { case on, off }
  struct Filtered: Codable { var filter: Filter }

  /// A raw value that names no case was Swift's "Cannot initialize Filter from invalid
  /// String value opn": said as written, with the cases and the one most likely meant.
  @Test("a raw value that names no case is said with the cases")
  func unknownRawValue() throws {
    #expect(
      throws: DomainError(
        #"filter: "opn" is not a Filter: one of "all", "open", "done" (did you mean "open"?)"#)
    ) {
      try decoder.decode(Filtered.self, from: JSONValue(parsing: #"{"filter":"opn"}"#))
    }
    #expect(throws: DomainError(#""of" is not a Plain"#)) {
      try decoder.decode(Plain.self, from: "of")
    }
    #expect(
      try decoder.decode(Filtered.self, from: JSONValue(parsing: #"{"filter":"done"}"#))
        .filter == .done)
  }
}
