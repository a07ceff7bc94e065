import Foundation
import JournalFixtures
import TestSupport
import Testing

@testable import RewindJournal

@Suite("Salvage with the deep check's repairs: frames dropped, snapshots written again")
struct ContentRepairTests {
  @Test("a frame the deep check drops: its events are marked lost, the frames around it kept")
  func dropInTheMiddle() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 2_000)
    let frames = try JournalReader(path: path).frames
    let victim = frames[3]
    let output = directory.file("b.journal")
    let report = try Journal.recover(
      path: path, output: output, salvage: true,
      repairs: [victim.offset: .drop(reason: "event 12 cannot be decoded")], system: .live)
    #expect(report.changed)
    #expect(report.keptFrames == frames.count - 1)
    #expect(report.lostRanges == [victim.sequenceRange])
    #expect(report.droppedRecords == UInt64(victim.recordCount))
    #expect(report.droppedForContent.count == 1)
    let dropped = try #require(report.droppedForContent.first)
    #expect(dropped.frame == victim.number && dropped.byteOffset == victim.offset)
    #expect(dropped.sequenceRange == victim.sequenceRange)
    #expect(dropped.message == "event 12 cannot be decoded")
    #expect(report.droppedFrames.map(\.message) == ["event 12 cannot be decoded"])
    #expect(report.replacedSnapshots.isEmpty)
    #expect(try Journal.verify(path: output).isClean)
    let reader = try JournalReader(path: output, options: .init(salvage: true))
    #expect(reader.lastSequence == 2_000)
    #expect(reader.condition.lostRanges == [victim.sequenceRange])
    #expect(
      isExpected(
        try readAll(reader, from: victim.lastSequence + 1), (victim.lastSequence + 1)...2_000))
  }

  @Test("the last frame dropped: its events are marked lost, and the session keeps its length")
  func dropTheLast() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 2_000)
    let last = try #require(try JournalReader(path: path).frames.last)
    let output = directory.file("b.journal")
    let report = try Journal.recover(
      path: path, output: output, salvage: true,
      repairs: [last.offset: .drop(reason: "a wrong snapshot")], system: .live)
    #expect(report.lostRanges == [last.sequenceRange])
    #expect(report.cutTail == nil)
    #expect(report.lastSequence == last.firstSequence - 1)
    let reader = try JournalReader(path: output)
    #expect(reader.lastSequence == 2_000)
    #expect(reader.recordCount == 2_000 - UInt64(last.recordCount))
    #expect(try Journal.verify(path: output).isClean)
  }

  @Test("snapshots written again: the frame's header holds them, everything else is as it was")
  func replaceSnapshots() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 2_000)
    let original = bytes(of: path)
    let reader = try JournalReader(path: path)
    let target = reader.frames[2]
    let stored = try #require(try reader.frameHeader(2).snapshots.first)
    let state = Array("the replayed state after \(stored.snapshot.sequence)".utf8)
    let replacement = Snapshot(
      sequence: stored.snapshot.sequence, stateHash: XXH64.hash(state), state: state)
    // In place: a journal that only needs its snapshots written again is not whole.
    let report = try Journal.recover(
      path: path, output: nil, salvage: true,
      repairs: [target.offset: .replaceSnapshots([stored.snapshot.sequence: replacement])],
      system: .live)
    #expect(report.changed)
    #expect(report.originalKeptAt == path + ".damaged")
    #expect(bytes(of: path + ".damaged") == original)
    #expect(
      report.replacedSnapshots == [ReplacedSnapshot(frame: 2, sequence: stored.snapshot.sequence)])
    #expect(report.droppedRecords == 0 && report.lostRanges.isEmpty)
    #expect(try Journal.verify(path: path).isClean)
    let repaired = try JournalReader(path: path)
    #expect(repaired.frames.count == reader.frames.count)
    for index in reader.frames.indices {
      let before = try reader.frameHeader(index).snapshots
      let after = try repaired.frameHeader(index).snapshots
      if index == 2 {
        #expect(after.map(\.snapshot) == [replacement] + before.dropFirst().map(\.snapshot))
        #expect(after.map(\.recordOffset) == before.map(\.recordOffset))
      } else {
        #expect(after == before)
      }
    }
    #expect(isExpected(try readAll(repaired), 1...2_000))
  }

  @Test("content repairs belong to salvage")
  func repairsNeedSalvage() async {
    let directory = TemporaryDirectory()
    await #expect(processExitsWith: .failure) { [path = directory.file("a.journal") as String] in
      try makeJournal(at: path, count: 10)
      let offset = try JournalReader(path: path).frames[0].offset
      _ = try Journal.recover(
        path: path, output: path + ".out", salvage: false,
        repairs: [offset: .drop(reason: "no")], system: .live)
    }
  }
}

@Suite("Journals that were not closed, and their writers")
struct NotClosedJournalTests {
  @Test("a closed journal, one left unclosed, and one being written")
  func closedOrNot() throws {
    let directory = TemporaryDirectory()
    let closed = directory.file("closed.journal")
    try makeJournal(at: closed, count: 500)
    let reader = try JournalReader(path: closed)
    #expect(reader.condition.isClosed)
    #expect(reader.currentWriter() == nil)
    let verified = try Journal.verify(path: closed)
    #expect(verified.isClosed && verified.hasIndex && verified.currentWriter == nil)
    #expect(verified.lastSequence == 500)

    // A writer dropped without closing: the lock goes with it, the index was never written.
    let left = directory.file("left.journal")
    try makeJournal(at: left, count: 500, close: false)
    let unclosed = try JournalReader(path: left)
    #expect(!unclosed.condition.isClosed)
    #expect(unclosed.currentWriter() == nil)
    // Walking on request does not make a journal closed or not.
    #expect(
      try !JournalReader(path: left, options: .init(salvage: false, useIndex: false)).condition
        .isClosed)
    #expect(
      try JournalReader(path: closed, options: .init(salvage: false, useIndex: false)).condition
        .isClosed)
    let report = try Journal.verify(path: left)
    #expect(report.isClean && !report.isClosed && !report.hasIndex)
    #expect(report.lastSequence == 500 && report.recordCount == 500)

    // A writer at work: its process holds the lock.
    let writer = try JournalWriter.open(at: left, domain: "test", schemaVersion: 1)
    try appendEvents(writer, 501...510)
    try writer.flush()
    let holder = try JournalReader(path: left).currentWriter()
    #expect(holder == LockHolder(pid: getpid()))
    #expect(try Journal.verify(path: left).currentWriter == LockHolder(pid: getpid()))
    try writer.close()
    #expect(try JournalReader(path: left).currentWriter() == nil)
    #expect(try JournalReader(path: left).condition.isClosed)
  }
}
