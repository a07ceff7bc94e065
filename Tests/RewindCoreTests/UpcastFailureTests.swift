import Foundation
import TestSupport
import Testing

@testable import RewindCore
@testable import RewindJournal

/// Schema 2 of the tally domain whose upcast of schema 1 misses a renamed case: `reset`
/// is now `cleared`, and the Codable default decodes a schema-1 journal's events as
/// today's, so that its `reset`s do not read. The journals `Tally` (schema 1) recorded
/// are intact all the same.
struct RenamedTally: Domain, Codable {
  typealias State = StandardTally.State

  enum Event: Codable, Equatable, Sendable {
    case added(Int64)
    case cleared
    case toggled
  }

  static var identifier: String { "tally" }
  static var schemaVersion: UInt32 { 2 }
  static var readableSchemaVersions: ClosedRange<UInt32> { 1...2 }

  var start: Int64 = 0

  var initialState: State { State(value: start) }

  func reduce(_ state: inout State, _ event: Event) -> Outcome<DomainRejection> {
    switch event {
    case .added(let amount):
      guard abs(amount) <= 1_000 else { return .rejected("more than 1000 away from 0") }
      guard amount != 0 else { return .unchanged }
      state.value += amount
      state.steps += 1
    case .cleared:
      guard state.value != 0 else { return .unchanged }
      state.value = 0
      state.steps += 1
    case .toggled:
      state.flag.toggle()
    }
    return .applied
  }
}

/// Schema 2 of the tally domain whose state gained a field and whose upcast of schema 1
/// does not decode schema 1's states: the Codable default reads today's `State`, which
/// schema 1's snapshots are too short for. Its events are schema 1's.
struct WiderTally: Domain, Codable {
  struct State: Codable, Equatable, Sendable {
    var value: Int64 = 0
    var steps: Int64 = 0
    var flag = false
    var resets: Int64 = 0
  }

  typealias Event = StandardTally.Event

  static var identifier: String { "tally" }
  static var schemaVersion: UInt32 { 2 }
  static var readableSchemaVersions: ClosedRange<UInt32> { 1...2 }

  var start: Int64 = 0

  var initialState: State { State(value: start) }

  func reduce(_ state: inout State, _ event: Event) -> Outcome<DomainRejection> {
    switch event {
    case .added(let amount):
      guard abs(amount) <= 1_000 else { return .rejected("more than 1000 away from 0") }
      guard amount != 0 else { return .unchanged }
      state.value += amount
      state.steps += 1
    case .reset:
      guard state.value != 0 else { return .unchanged }
      state.value = 0
      state.steps += 1
      state.resets += 1
    case .toggled:
      state.flag.toggle()
    }
    return .applied
  }
}

@Suite("An event a domain's upcast does not read is not damage")
struct UpcastFailureTests {
  static let note =
    "its bytes are intact (its frame's checksums verify), so this is not damage: the journal is schema 1, and the domain's upcast of schema 1 (its decodeEvent for a journal of schema 1) does not read it; make that upcast read schema 1's events, or read the journal with the tool of schema 1"

  @Test("replay's error names the event, the schemas and what to do")
  func replayError() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("tally.journal")
    let (events, _) = try recordTally(at: path, count: 2_000)
    let first = try #require(events.firstIndex { $0.event == .reset }) + 1
    let timeline = try Timeline<RenamedTally>(path: path)
    #expect(timeline.upcast?.from == 1)
    do {
      _ = try timeline.state(after: UInt64(first))
      Issue.record("a schema-1 reset read as schema 2")
    } catch let error as RewindError {
      #expect(error.code == .undecodable)
      #expect(
        "\(error)"
          == "\(path): event \(first) cannot be decoded as schema 2 of 'tally': 'reset' is not a known case (at byte 7); \(Self.note)"
      )
    }
  }

  @Test("the deep check says so, keeps every frame and repairs none; salvage leaves the journal")
  func deepCheckAndSalvage() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("tally.journal")
    let (events, _) = try recordTally(at: path, count: 2_000)
    let resets = Set(events.indices.filter { events[$0].event == .reset }.map { UInt64($0 + 1) })
    let report = try Timeline<RenamedTally>(path: path).deepCheck()
    #expect(!report.isClean)
    #expect(report.problems.allSatisfy { $0.kind == .event })
    for problem in report.problems {
      let sequence = try #require(problem.sequences?.lowerBound)
      #expect(resets.contains(sequence))
      #expect(
        problem.message.hasPrefix(
          "event \(sequence) cannot be decoded as schema 2 of 'tally' ('reset' is not a known case (at byte 7))"
        ), "\(problem.message)")
      #expect(problem.message.hasSuffix("; \(Self.note)"), "\(problem.message)")
    }
    // No frame is dropped: every one holding a reset is kept, with why.
    #expect(report.repairs.isEmpty)
    let reader = try JournalReader(path: path)
    let holders = Set(
      reader.frames.filter { frame in resets.contains { frame.sequenceRange.contains($0) } }
        .map(\.offset))
    #expect(Set(report.kept.map { $0.offset ?? 0 }) == holders)
    #expect(report.kept.count == holders.count)

    // Salvage with what the deep check asks: nothing to do, the journal as it was.
    let before = bytes(of: path)
    let recovered = try Journal.recover(
      path: path, output: nil, salvage: true, repairs: report.repairs, system: .live)
    #expect(!recovered.changed)
    #expect(recovered.droppedRecords == 0)
    #expect(bytes(of: path) == before)
    // Schema 1 reads it whole.
    #expect(try Timeline<StandardTally>(path: path).deepCheck().isClean)
  }

  @Test("a snapshot the upcast does not decode, its bytes hashing right, keeps its frame")
  func undecodableSnapshots() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("tally.journal")
    try recordTally(at: path, count: 2_000)
    let report = try Timeline<WiderTally>(path: path).deepCheck()
    #expect(report.eventsDecoded == 2_000)
    #expect(!report.problems.isEmpty)
    #expect(report.problems.allSatisfy { $0.kind == .snapshot })
    // Before, salvage dropped every frame holding a snapshot: this rewind cannot write
    // a state of schema 1 in its place.
    #expect(report.repairs.isEmpty)
    let reader = try JournalReader(path: path)
    var holders: [UInt64] = []
    for index in reader.frames.indices where try !reader.frameHeader(index).snapshots.isEmpty {
      holders.append(reader.frames[index].offset)
    }
    #expect(report.kept.map { $0.offset ?? 0 } == holders)
    let first = try #require(report.kept.first)
    let sequence = try #require(try reader.frameHeader(0).snapshots.first?.snapshot.sequence)
    #expect(
      first.message.hasPrefix(
        "the snapshot after event \(sequence) cannot be decoded as schema 2 of 'tally' ("),
      "\(first.message)")
    #expect(
      first.message.hasSuffix(
        "), though its bytes match its stored state hash, so this is not damage: the domain's upcast of schema 1's states (decodeState for a journal of schema 1) does not read it, and replay does not use it"
      ), "\(first.message)")
  }

  @Test(
    "a snapshot that differs from the upcast replay, its bytes hashing right, keeps its frame: salvage dropped every such frame's intact events"
  )
  func differingSnapshots() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("tally.journal")
    let (events, _) = try recordTally(at: path, count: 2_000)
    // Schema 2 with other rules for a reset: every snapshot after the first reset
    // differs from its replay, as under an upcast that maps an event or a state wrong.
    let timeline = try Timeline<TallyV2<AlteredRules>>(path: path)
    #expect(timeline.upcast?.from == 1)
    let report = timeline.deepCheck()
    #expect(!report.problems.isEmpty)
    let note =
      "differs from the state replayed up to it; its bytes match its stored state hash, so this is not damage: the journal is schema 1, and the domain's upcast of schema 1 (its decodeEvent and decodeState for a journal of schema 1) or its reducer does not replay what was recorded; make them agree, or read the journal with the tool of schema 1"
    #expect(report.problems.allSatisfy { $0.kind == .snapshot && $0.message.hasSuffix(note) })
    #expect(report.repairs.isEmpty, "\(report.repairs)")
    let reader = try JournalReader(path: path)
    let firstReset = UInt64(try #require(events.firstIndex { $0.event == .reset }) + 1)
    var differing: [UInt64] = []
    for index in reader.frames.indices
    where try reader.frameHeader(index).snapshots.contains(where: {
      $0.snapshot.sequence >= firstReset
    }) {
      differing.append(reader.frames[index].offset)
    }
    #expect(!differing.isEmpty)
    #expect(report.kept.map { $0.offset ?? 0 } == differing)
    let first = try #require(report.kept.first)
    #expect(first.message.hasSuffix(note), "\(first.message)")
    // Salvage with what the deep check asks: the journal as it was, schema 1 reading it
    // whole.
    let before = bytes(of: path)
    let recovered = try Journal.recover(
      path: path, output: nil, salvage: true, repairs: report.repairs, system: .live)
    #expect(!recovered.changed)
    #expect(bytes(of: path) == before)
    #expect(try Timeline<StandardTally>(path: path).deepCheck().isClean)
  }
}

/// Schema 2 of the tally domain without its flag: `toggled`, which only flipped it, is
/// kept to read schema 1's journals, and changes nothing today.
struct FlaglessTally: Domain, Codable {
  struct State: Codable, Equatable, Sendable {
    var value: Int64 = 0
    var steps: Int64 = 0
  }

  typealias Event = StandardTally.Event

  static var identifier: String { "tally" }
  static var schemaVersion: UInt32 { 2 }
  static var readableSchemaVersions: ClosedRange<UInt32> { 1...2 }

  var start: Int64 = 0

  var initialState: State { State(value: start) }

  /// Schema 1's reducer, but `toggled`, which changes nothing.
  func reduce(_ state: inout State, _ event: Event) -> Outcome<DomainRejection> {
    guard event != .toggled else { return .unchanged }
    var old = StandardTally.State(value: state.value, steps: state.steps)
    let outcome = StandardTally(start: start).reduce(&old, event)
    state = State(value: old.value, steps: old.steps)
    switch outcome {
    case .applied: return .applied
    case .unchanged: return .unchanged
    case .rejected(let why): return .rejected(DomainRejection("\(why)"))
    }
  }

  /// Schema 1's JSON, without the flag.
  func json(_ state: State) -> JSONValue {
    let old = StandardTally(start: start).json(
      StandardTally.State(value: state.value, steps: state.steps))
    guard case .object(let top) = old, case .object(let tally)? = top.first?.1 else { return old }
    return .object([("tally", .object(tally.filter { $0.0 != "flag" }))])
  }

  func fieldPaths(schemaVersion version: UInt32) -> [String] {
    version == 1
      ? ["tally.value", "tally.steps", "tally.flag", "tally.sign"] : fields.map(\.path)
  }

  func decodeState(from reader: inout ByteReader) throws(CodecError) -> State {
    let old = try CompactBinaryDecoder().decode(StandardTally.State.self, from: &reader)
    return State(value: old.value, steps: old.steps)
  }
}

@Suite("A field removed since a journal was recorded")
struct RemovedFieldTests {
  @Test(
    "an event that only changed a field gone today checks as unchanged, as today's reducer says (it diverged: recorded applied, changing nothing named)"
  )
  func eventOfAGoneField() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("tally.journal")
    let (events, _) = try recordTally(at: path, count: 2_000)
    #expect(events.contains { $0.event == .toggled })
    let timeline = try Timeline<FlaglessTally>(path: path)
    #expect(timeline.upcast?.from == 1)
    let report = try timeline.check()
    #expect(report.passed, "\(report.eventDivergences.prefix(2))")
    #expect(report.eventDivergenceCount == 0)
    // The effect read: unchanged, changing nothing today.
    let first = UInt64(try #require(events.firstIndex { $0.event == .toggled }) + 1)
    var recorded: RecordedEffect?
    try timeline.events(from: first, through: first) { replayed, _, _ in
      recorded = replayed.recorded
      return false
    }
    #expect(recorded == RecordedEffect(kind: .unchanged, changed: FieldSet()))
  }
}
