import RewindCore
import RewindJournal
import TestSupport
import Testing

/// A board of six fields whose last, a text, one event writes: an event that changes it
/// has an effect of two bytes (field 5's bit is 1 << 7 of the effect's varint), one that
/// changes nothing an effect of one.
struct Board: RecordableDomain, Codable {
  struct State: Codable, Equatable, Sendable {
    var a = 0
    var b = 0
    var c = 0
    var d = 0
    var e = 0
    var text = ""
  }

  enum Event: Codable, Equatable, Sendable {
    case wrote(String)
    case kept(String)
    case bumped
  }

  static let identifier = "board"
  static let schemaVersion: UInt32 = 1

  var initialState: State { State() }

  func reduce(_ state: inout State, _ event: Event) -> Outcome<DomainRejection> {
    switch event {
    case .wrote(let text):
      guard state.text != text else { return .unchanged }
      state.text = text
    case .kept: return .unchanged
    case .bumped: state.a += 1
    }
    return .applied
  }
}

/// The recorder reduces an event only once the journal will take it: an event the journal
/// refuses (a time going backwards, a payload too large, an effect that no longer fits)
/// leaves the state and the codec as they were, and the events after it record and replay.
@Suite struct RecordingRefusalTests {
  /// The bytes `event`'s encoding takes in a record, after the effect.
  func encodedSize(_ event: Board.Event) -> Int {
    var writer = ByteWriter()
    var context: Board.EventCodecContext = Board().makeEventCodecContext()
    Board().encode(event, into: &writer, context: &context)
    return writer.count
  }

  /// A text whose `make(text)` encodes in exactly `size` bytes, if one is found.
  func text(encodingIn size: Int, _ make: (String) -> Board.Event) -> String? {
    var length = size - 16
    for _ in 0..<4 {
      let found = encodedSize(make(String(repeating: "x", count: length)))
      if found == size { return String(repeating: "x", count: length) }
      length += size - found
    }
    return nil
  }

  func recorder(_ directory: TemporaryDirectory) throws -> JournalRecorder<Board> {
    try JournalRecorder.create(
      at: directory.file("board.journal"), domain: Board(), session: testSession,
      options: RecordingOptions(
        snapshotInterval: 4, journal: JournalWriterOptions(frameSize: 1024, durability: .none)))
  }

  /// Replays the closed journal and checks it ends in `state`, with every stored effect
  /// agreeing with the reducer.
  func expectReplay(_ path: String, endsIn state: Board.State, events: UInt64) throws {
    let timeline = try Timeline<Board>(path: path)
    #expect(timeline.lastSequence == events)
    // Compared apart, so that a failure does not print texts of up to a megabyte.
    let replayed = try timeline.replayedState(after: events) == state
    #expect(replayed, "the replayed state differs from the recorder's")
    #expect(try timeline.check().passed)
  }

  @Test("an event whose time goes backwards is refused before the reducer runs")
  func timeGoingBackwards() throws {
    let directory = TemporaryDirectory()
    let recorder = try recorder(directory)
    for step in 1...10 { try recorder.record(.bumped, at: UInt64(step) * 10) }
    #expect(throws: JournalError.self) { try recorder.record(.bumped, at: 5) }
    #expect(throws: JournalError.self) {
      try recorder.record(contentsOf: [
        TimedEvent<Board.Event>(time: 200, event: .bumped), TimedEvent(time: 7, event: .bumped),
      ])
    }
    #expect(recorder.state.a == 11)
    #expect(recorder.lastSequence == 11)
    try recorder.record(.bumped, at: 300)
    try recorder.close()
    try expectReplay(recorder.path, endsIn: Board.State(a: 12), events: 12)
  }

  @Test("a payload over the limit is refused before the reducer runs, the codec as it was")
  func payloadTooLarge() throws {
    let directory = TemporaryDirectory()
    let recorder = try recorder(directory)
    try recorder.record(.wrote("first"), at: 1)
    let huge = String(repeating: "y", count: JournalLimits.maximumPayloadSize)
    #expect(throws: JournalError.self) { try recorder.record(.wrote(huge), at: 2) }
    #expect(throws: JournalError.self) {
      try recorder.record(contentsOf: [TimedEvent(time: 3, event: .wrote(huge))])
    }
    #expect(recorder.state == Board.State(text: "first"))
    for step in 4...12 { try recorder.record(.bumped, at: UInt64(step)) }
    try recorder.record(.wrote("last"), at: 13)
    try recorder.close()
    try expectReplay(recorder.path, endsIn: Board.State(a: 9, text: "last"), events: 11)
  }

  @Test("an effect longer than the room left after the encoding refuses the event, unreduced")
  func effectThatDoesNotFit() throws {
    let limit = JournalLimits.maximumPayloadSize
    // The effects of the three events: a changed text takes two bytes, unchanged one.
    #expect(RecordedEffect(kind: .applied, changed: FieldSet(field: 5)).encoded >= 0x80)
    #expect(RecordedEffect(kind: .unchanged, changed: FieldSet()).encoded < 0x80)
    let directory = TemporaryDirectory()
    let recorder = try recorder(directory)
    try recorder.record(.bumped, at: 1)

    // One byte left for the effect: a write, whose effect takes two, is refused.
    let tight = try #require(text(encodingIn: limit - 1) { .wrote($0) })
    #expect(throws: JournalError.self) { try recorder.record(.wrote(tight), at: 2) }
    #expect(recorder.state.a == 1 && recorder.state.text.isEmpty)
    #expect(recorder.lastSequence == 1)
    // The same room for an event that changes nothing: its effect fits in one byte.
    let kept = try #require(text(encodingIn: limit - 1) { .kept($0) })
    try recorder.record(.kept(kept), at: 3)
    // Two bytes left: the write fits, and is reduced.
    let fitting = try #require(text(encodingIn: limit - 2) { .wrote($0) })
    try recorder.record(.wrote(fitting), at: 4)
    #expect(recorder.state.a == 1 && recorder.state.text.count == fitting.count)
    #expect(recorder.lastSequence == 3)
    // The batch path alike: refused, then recorded after it.
    #expect(throws: JournalError.self) {
      try recorder.record(contentsOf: [TimedEvent(time: 5, event: .wrote(tight))])
    }
    #expect(recorder.state.a == 1 && recorder.state.text.count == fitting.count)
    try recorder.record(contentsOf: (6...12).map { TimedEvent(time: UInt64($0), event: .bumped) })
    try recorder.close()
    try expectReplay(recorder.path, endsIn: Board.State(a: 8, text: fitting), events: 10)
  }

  @Test("records go straight in between snapshots and frames: the journal is the checked path's")
  func straightPathKeepsSnapshotsAndFrames() throws {
    // Snapshots every 4 events, frames of 1 KiB, a flush part way: every snapshot and
    // frame start where the writer asks for one, whichever path each record took.
    let directory = TemporaryDirectory()
    let recorder = try recorder(directory)
    var state = Board().initialState
    var time: UInt64 = 0
    for index in 0..<600 {
      time += UInt64(index % 7)
      let event: Board.Event =
        index % 5 == 0 ? .wrote(String(repeating: "z", count: index % 90)) : .bumped
      if index == 301 { try recorder.flush() }
      if index % 2 == 0 {
        try recorder.record(event, at: time)
      } else {
        try recorder.record(contentsOf: [TimedEvent(time: time, event: event)])
      }
      _ = Board().reduce(&state, event)
    }
    try recorder.close()
    let timeline = try Timeline<Board>(path: recorder.path)
    for point in stride(from: UInt64(0), through: 600, by: 4) {
      #expect(try timeline.state(after: point) == timeline.replayedState(after: point))
    }
    try expectReplay(recorder.path, endsIn: state, events: 600)
    // Every frame but the first starts with the snapshot of the state before it, and
    // the snapshots are every 4 events.
    let reader = try JournalReader(path: recorder.path)
    #expect(reader.frames.count > 3)
    var snapshots: [UInt64] = []
    for index in reader.frames.indices {
      let frame = try reader.loadFrame(index)
      let sequences = frame.snapshots.map { $0.snapshot.sequence }
      if index > 0 { #expect(sequences.first == frame.info.firstSequence - 1) }
      snapshots += sequences
    }
    let expected = Set(stride(from: UInt64(4), to: 600, by: 4)).union(
      reader.frames.dropFirst().map { $0.firstSequence - 1 })
    #expect(Set(snapshots) == expected)
  }
}
