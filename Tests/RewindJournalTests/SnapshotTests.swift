import Foundation
import JournalFixtures
import TestSupport
import Testing

@testable import RewindJournal

@Suite("Snapshots and seeking")
struct SnapshotTests {
  /// Reaches event `target` the way the replay engine does and returns the records
  /// decoded from the starting point, checking they are the right ones.
  func reach(_ target: UInt64, in reader: JournalReader) throws -> (
    start: StartingPoint, decoded: Int
  ) {
    let start = try reader.startingPoint(for: target)
    guard target > 0 else { return (start, 0) }
    let frame = try reader.loadFrame(start.frameIndex)
    var cursor = try start.snapshot.map { try frame.records(after: $0) } ?? frame.records()
    var decoded = 0
    var last: UInt64 = start.snapshot?.snapshot.sequence ?? 0
    while last < target, let record = try cursor.next() {
      #expect(record.sequence == last + 1)
      #expect(Array(record.payload) == payload(for: record.sequence))
      #expect(record.time == time(for: record.sequence))
      last = record.sequence
      decoded += 1
    }
    #expect(last == target, "reached \(last) instead of \(target) within one frame")
    return (start, decoded)
  }

  @Test("every event of a small journal is reached from a snapshot in its own frame")
  func everyEvent() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    let interval: UInt32 = 40
    try makeJournal(at: path, count: 1_200, interval: interval)
    let reader = try JournalReader(path: path)
    #expect(reader.frames.count > 5)
    for target in 0...1_200 as ClosedRange<UInt64> {
      let (start, decoded) = try reach(target, in: reader)
      if let snapshot = start.snapshot {
        #expect(snapshot.snapshot == JournalFixtures.snapshot(after: snapshot.snapshot.sequence))
        #expect(snapshot.snapshot.sequence <= target)
      }
      #expect(decoded <= Int(interval), "event \(target) needed \(decoded) steps")
      if target > 0 {
        #expect(start.frameIndex == reader.frameIndex(containing: target))
      }
    }
  }

  @Test("random events of a large journal cost at most one interval of records")
  func randomEvents() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("large.journal")
    try makeJournal(at: path, count: 200_000, interval: 512, frameSize: 64 << 10)
    let reader = try JournalReader(path: path)
    let seed = testSeed("randomEvents")
    var generator = SplitMix64(seed: seed)
    for _ in 0..<300 {
      let target = UInt64.random(in: 1...200_000, using: &generator)
      let (_, decoded) = try reach(target, in: reader)
      #expect(decoded <= 512, "event \(target), seed \(seed)")
    }
  }

  @Test("snapshots carry over to the next frame when a flush seals the frame after them")
  func carriedSnapshot() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    let writer = try JournalWriter.create(
      at: path, header: header(interval: 10), options: .init(durability: .none))
    try appendEvents(writer, 1...10)
    #expect(writer.needsSnapshot)
    try writer.addSnapshot(snapshot(after: 10))
    #expect(!writer.needsSnapshot)
    try writer.flush()
    #expect(!writer.needsSnapshot, "the snapshot after 10 starts the next frame")
    try appendEvents(writer, 11...15)
    try writer.flush()
    #expect(writer.needsSnapshot, "a frame start needs a snapshot")
    try writer.close()
    let reader = try JournalReader(path: path)
    #expect(reader.frames.count == 2)
    let second = try reader.frameHeader(1)
    #expect(second.snapshots.map(\.snapshot.sequence) == [10])
    #expect(second.snapshots.first?.recordOffset == 0)
    #expect(try reader.startingPoint(for: 12).snapshot?.snapshot == snapshot(after: 10))
    #expect(try Journal.verify(path: path).isClean)
  }
}
