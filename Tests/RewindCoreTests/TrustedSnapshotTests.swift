import Foundation
import TestSupport
import Testing

@testable import RewindCore
@testable import RewindJournal

/// A tally journal of `count` events (many small frames) copied with `changes`, with the
/// states after each event, folded from the start.
func craftedTally(
  in directory: TemporaryDirectory, count: Int = 2_000, interval: UInt32 = 64,
  _ change: (inout JournalChanges) -> Void
) throws -> (path: String, states: [StandardTally.State]) {
  let source = directory.file("source.journal")
  let (_, states) = try recordTally(at: source, count: count, interval: interval)
  var changes = JournalChanges()
  change(&changes)
  let path = directory.file("crafted.journal")
  try copyJournal(source, to: path, changes: changes)
  return (path, states)
}

/// The frames whose headers hold a snapshot after each of `sequences`.
func frames(holdingSnapshotsAfter sequences: Set<UInt64>, in path: String) throws -> [UInt64:
  FrameInfo]
{
  let reader = try JournalReader(path: path)
  var found: [UInt64: FrameInfo] = [:]
  for index in reader.frames.indices {
    for stored in try reader.frameHeader(index).snapshots
    where sequences.contains(stored.snapshot.sequence) {
      found[stored.snapshot.sequence] = reader.frames[index]
    }
  }
  return found
}

@Suite("Trusted snapshots: replay never starts from a snapshot its hash does not vouch for")
struct TrustedSnapshotUnitTests {
  @Test("snapshots whose bytes do not match their hash are skipped: every point equals the fold")
  func hashMismatch() throws {
    let directory = TemporaryDirectory()
    let bad: Set<UInt64> = [640, 1_280, 1_344]
    // Another state's bytes under the right state's hash.
    var writer = ByteWriter()
    StandardTally().encode(StandardTally.State(value: 77_777), into: &writer)
    let otherState = writer.bytes
    let (path, states) = try craftedTally(in: directory) { changes in
      changes.snapshot = { snapshot in
        if bad.contains(snapshot.sequence) { snapshot.state = otherState }
      }
    }
    let timeline = try Timeline<StandardTally>(path: path)
    var reported: [VerificationProblem] = []
    timeline.onUntrustedSnapshot = { reported.append($0) }
    for sequence in 0...2_000 {
      #expect(try timeline.state(after: UInt64(sequence)) == states[sequence], "after \(sequence)")
    }
    // Each reported once, with its frame, events and the frame header's offset.
    let holders = try frames(holdingSnapshotsAfter: bad, in: path)
    #expect(reported.count == 3)
    for problem in reported {
      let sequence = try #require(
        bad.first { problem.message.hasPrefix("the snapshot after event \($0) ") })
      let frame = try #require(holders[sequence])
      #expect(problem.kind == .snapshot)
      #expect(problem.frame == frame.number)
      #expect(problem.offset == frame.offset)
      #expect(problem.sequences == frame.sequenceRange)
      #expect(
        problem.message
          == "the snapshot after event \(sequence) does not match its stored state hash; it is not used, and the state is replayed from an earlier snapshot"
      )
    }
  }

  @Test("no snapshot can be trusted: replay starts from the first event, and still agrees")
  func everySnapshotBad() throws {
    let directory = TemporaryDirectory()
    let (path, states) = try craftedTally(in: directory, count: 600) { changes in
      changes.snapshot = { $0.stateHash ^= 1 }
    }
    let timeline = try Timeline<StandardTally>(path: path)
    var reported = 0
    timeline.onUntrustedSnapshot = { _ in reported += 1 }
    #expect(try timeline.state(after: 600) == states[600])
    let snapshots = try (0..<timeline.reader.frames.count).reduce(0) {
      $0 + (try timeline.reader.frameHeader($1).snapshots.count)
    }
    #expect(reported == snapshots)
    for sequence in stride(from: 0, through: 600, by: 7) {
      #expect(try timeline.state(after: UInt64(sequence)) == states[sequence])
    }
    #expect(reported == snapshots, "reported again")
  }

  @Test("a snapshot whose hash is right but whose bytes do not decode is not used either")
  func undecodable() throws {
    let directory = TemporaryDirectory()
    let (path, states) = try craftedTally(in: directory) { changes in
      changes.snapshot = { snapshot in
        guard snapshot.sequence == 1_024 else { return }
        snapshot = Snapshot(sequence: 1_024, stateHash: XXH64.hash([0xFF]), state: [0xFF])
      }
    }
    let timeline = try Timeline<StandardTally>(path: path)
    var reported: [VerificationProblem] = []
    timeline.onUntrustedSnapshot = { reported.append($0) }
    #expect(try timeline.state(after: 1_030) == states[1_030])
    #expect(reported.count == 1)
    #expect(
      reported.first?.message.hasPrefix("the snapshot after event 1024 cannot be decoded (") == true
    )
    // The events after it are read from a fresh run, as they were written.
    var sequence: UInt64 = 1_000
    try timeline.events(from: 1_001, through: 1_100) { event, _, state in
      sequence += 1
      #expect(event.sequence == sequence)
      #expect(state == states[Int(sequence)])
      return true
    }
    #expect(sequence == 1_100)
  }

  @Test("events lost before an untrusted snapshot: its point cannot be reached, an error")
  func lostBeforeUntrusted() throws {
    let directory = TemporaryDirectory()
    let source = directory.file("source.journal")
    try recordTally(at: source, count: 2_000)
    let reader = try JournalReader(path: source)
    let lost = reader.frames[5]
    let after = reader.frames[6]
    var changes = JournalChanges()
    changes.snapshot = { snapshot in
      if snapshot.sequence == after.firstSequence - 1 { snapshot.stateHash ^= 1 }
    }
    let crafted = directory.file("crafted.journal")
    try copyJournal(source, to: crafted, changes: changes)
    // Salvage drops frame 5 as if its events did not decode: its events are marked lost.
    let salvaged = directory.file("salvaged.journal")
    let report = try Journal.recover(
      path: crafted, output: salvaged, salvage: true,
      repairs: [lost.offset: .drop(reason: "a test drops it")], system: .live)
    #expect(report.lostRanges == [lost.sequenceRange])
    let timeline = try Timeline<StandardTally>(path: salvaged, salvage: true)
    #expect {
      try timeline.state(after: after.firstSequence + 3)
    } throws: { error in
      (error as? RewindError)?.code == .eventsLost
        && "\(error)".contains(
          "cannot be reached: the snapshot after event \(after.firstSequence - 1) cannot be trusted"
        )
    }
    // Crossing the lost events needs that snapshot too.
    #expect {
      try timeline.events(
        from: lost.firstSequence - 2, through: after.lastSequence, crossingLostEvents: true
      ) { _, _, _ in true }
    } throws: { error in
      (error as? RewindError)?.code == .eventsLost
        && "\(error)".contains("and the snapshot after them cannot be trusted")
    }
    // So does a search that goes on past them, and a history that goes back past them.
    #expect {
      try timeline.find(.changed(path: "tally.value"), all: true)
    } throws: { error in
      (error as? RewindError)?.code == .eventsLost
        && "\(error)".contains("and the snapshot after them cannot be trusted")
    }
    #expect {
      try timeline.blameHistory("tally.value", at: timeline.lastSequence)
    } throws: { error in (error as? RewindError)?.code == .eventsLost }
  }

  @Test("check reports a snapshot whose bytes do not match its hash, with the fields that differ")
  func checkSeesIt() throws {
    let directory = TemporaryDirectory()
    let domain = StandardTally()
    let (path, states) = try craftedTally(in: directory) { changes in
      changes.snapshot = { snapshot in
        guard snapshot.sequence == 768 else { return }
        var writer = ByteWriter()
        var state = StandardTally.State()
        state.value = 123_456
        domain.encode(state, into: &writer)
        snapshot.state = writer.bytes  // the stored hash stays the right state's
      }
    }
    let report = try Timeline<StandardTally>(path: path).check()
    #expect(!report.passed)
    let divergence = try #require(report.stateDivergence)
    #expect(divergence.sequence == 768)
    #expect(divergence.problem == .hashMismatch)
    #expect(
      divergence.differences.contains {
        $0.path == "tally.value" && $0.old == .int(123_456)
          && $0.new == .int(states[768].value)
      })
  }
}
