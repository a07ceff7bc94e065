import Foundation
import TestSupport
import Testing

@testable import RewindCore
@testable import RewindJournal

/// A journal of schema 1 of the tally domain, read by schema 2 (`TallyV2`), which counts in
/// hundredths and has a field more.
@Suite("Schema evolution: older journals upcast, newer ones refused")
struct SchemaUpcastTests {
  /// The schema-1 state in schema 2's terms.
  static func upcast(_ state: StandardTally.State) -> StandardTallyV2.State {
    StandardTallyV2.State(value: state.value * 100, steps: state.steps, flag: state.flag)
  }

  @Test("every point of a schema-1 journal reads as the upcast of its schema-1 state")
  func everyPoint() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("tally.journal")
    let (events, states) = try recordTally(at: path, count: 700, seed: 3, interval: 50)
    let timeline = try Timeline<StandardTallyV2>(path: path)
    #expect(timeline.upcast?.from == 1)
    #expect(timeline.upcast?.to == 2)
    for sequence in 0...700 {
      #expect(try timeline.state(after: UInt64(sequence)) == Self.upcast(states[sequence]))
      #expect(try timeline.replayedState(after: UInt64(sequence)) == Self.upcast(states[sequence]))
    }
    // The events are upcast too, and their recorded changes renumbered.
    var index = 0
    try timeline.events(from: 1, through: 700) { replayed, changed, _ in
      let expected: StandardTallyV2.Event
      switch events[index].event {
      case .added(let amount): expected = .added(amount * 100)
      case .reset: expected = .reset
      case .toggled: expected = .toggled
      }
      #expect(replayed.event == expected)
      #expect(replayed.recorded.changed.isSubset(of: changed))
      index += 1
      return true
    }
    #expect(index == 700)
    // A journal of the current schema is not upcast.
    #expect(try Timeline<StandardTally>(path: path).upcast == nil)
  }

  @Test("the upcast renumbers the older fields and lists the new ones")
  func fields() {
    let upcast = SchemaUpcast(from: 1, domain: StandardTallyV2())
    #expect(upcast.fieldIndices == [0, 2, 3, 4])
    #expect(upcast.addedPaths == ["tally.magnitude"])
    #expect(upcast.knownFields == FieldSet(rawValue: 0b11101))
    // Schema 1's value and steps (0, 1) are schema 2's 0 and 2.
    #expect(upcast.currentFields(FieldSet(rawValue: 0b11)) == FieldSet(rawValue: 0b101))
  }

  @Test("check compares a schema-1 journal on its own fields, and still catches divergence")
  func check() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("tally.journal")
    let (_, states) = try recordTally(at: path, count: 3_000, seed: 5, interval: 128)
    let faithful = try Timeline<StandardTallyV2>(path: path).check()
    #expect(faithful.passed, "\(String(describing: faithful.eventDivergence))")
    #expect(faithful.eventsReplayed == 3_000)
    #expect(faithful.snapshotsCompared > 20)

    // An expected state written without schema 2's tally.magnitude (expected states are
    // compared as they are written, so their values are schema 2's): compared on the rest.
    func withoutMagnitude(_ state: StandardTally.State) -> JSONValue {
      guard case .object(let fields)? = StandardTallyV2().json(Self.upcast(state))["tally"] else {
        preconditionFailure()
      }
      return .object([("tally", .object(fields.filter { $0.0 != "magnitude" }))])
    }
    let expected = withoutMagnitude(states.last!)
    #expect(expected.value(atPath: "tally.magnitude") == nil)
    #expect(try Timeline<StandardTallyV2>(path: path).check(expected: expected).passed)
    var wrong = states.last!
    wrong.steps += 1
    let mismatch = try Timeline<StandardTallyV2>(path: path).check(
      expected: withoutMagnitude(wrong))
    #expect(mismatch.expectedStateDifferences.map(\.path) == ["tally.steps"])
    // An expected state of the current schema may be partial too: only the fields it
    // gives are compared.
    let current = try recordTally(at: directory.file("current.journal"), count: 10).states.last!
    let partial = try Timeline<StandardTally>(path: directory.file("current.journal")).check(
      expected: .object([("tally", .object([("value", .int(current.value))]))]))
    #expect(partial.passed)
    #expect(partial.expectedFieldCount == 1 && partial.stateFieldCount == 4)
    #expect(
      try !Timeline<StandardTally>(path: directory.file("current.journal")).check(
        expected: .object([("tally", .object([("value", .int(current.value + 1))]))])
      ).passed)

    // A reducer that no longer counts the step of a reset diverges, named in today's paths.
    let uncounted = try Timeline<TallyV2<UncountedResetRules>>(path: path).check()
    let divergence = try #require(uncounted.eventDivergence)
    #expect(divergence.event == "reset")
    #expect(divergence.recordedPaths == ["tally.value", "tally.steps", "tally.sign"])
    #expect(divergence.replayedPaths == ["tally.value", "tally.sign"])
    // One that zeroes them changes the same fields: the upcast snapshots catch it.
    let zeroing = try Timeline<TallyV2<AlteredRules>>(path: path).check()
    #expect(zeroing.eventDivergence == nil)
    #expect(zeroing.stateDivergence?.differences.map(\.path) == ["tally.steps"])
  }

  /// A journal of the tally domain whose header says `schemaVersion`.
  static func journal(schemaVersion: UInt32, in directory: TemporaryDirectory) throws -> String {
    let path = directory.file("schema-\(schemaVersion).journal")
    let header = JournalHeader(
      domain: "tally", schemaVersion: schemaVersion, sessionID: testSession.id,
      startTime: testSession.startTime, device: "test", settings: Array("{}".utf8),
      snapshotInterval: 64)
    let writer = try JournalWriter.create(at: path, header: header)
    try writer.close()
    return path
  }

  @Test("a journal of a newer schema is refused, naming both versions")
  func newer() throws {
    let directory = TemporaryDirectory()
    let path = try Self.journal(schemaVersion: 99, in: directory)
    for open in [
      { _ = try Timeline<StandardTallyV2>(path: path) },
      { _ = try Timeline<StandardTally>(path: path) },
    ] {
      do {
        try open()
        Issue.record("a schema-99 journal opened")
      } catch let error as RewindError {
        #expect(error.code == .newerSchema)
        #expect(error.message.contains("schema version 99 of 'tally'"), "\(error)")
        #expect(error.message.contains("newer than version"), "\(error)")
      }
    }
    #expect(throws: RewindError.self) { try StandardTallyV2.checkReadable(schemaVersion: 3) }
    #expect(throws: Never.self) { try StandardTallyV2.checkReadable(schemaVersion: 1) }
  }

  @Test("a journal of an older schema than the domain reads is refused")
  func older() throws {
    let directory = TemporaryDirectory()
    let path = try Self.journal(schemaVersion: 0, in: directory)
    #expect {
      try Timeline<StandardTallyV2>(path: path)
    } throws: { error in
      guard let error = error as? RewindError else { return false }
      return error.code == .wrongDomain && error.message.contains("versions 1–2")
    }
  }
}
