import Foundation
import JournalFixtures
import TestSupport
import Testing

@testable import RewindJournal

@Suite("Writing and reading journals")
struct RoundTripTests {
  @Test("records round-trip across frame boundaries", arguments: [1, 2, 57, 1_000, 5_000])
  func roundTrip(count: Int) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: UInt64(count))
    let reader = try JournalReader(path: path)
    #expect(reader.condition.openedFromIndex)
    #expect(reader.condition.isIntact)
    #expect(reader.recordCount == UInt64(count))
    #expect(reader.lastSequence == UInt64(count))
    #expect(reader.header == header())
    if count > 500 { #expect(reader.frames.count > 3) }
    #expect(isExpected(try readAll(reader), 1...UInt64(count)))
  }

  @Test("an empty journal opens, reads nothing, and reopens for writing")
  func empty() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("empty.journal")
    try makeJournal(at: path, count: 0)
    let reader = try JournalReader(path: path)
    #expect(reader.recordCount == 0)
    #expect(reader.frames.isEmpty)
    #expect(reader.condition.openedFromIndex)
    #expect(try readAll(reader).isEmpty)
    let writer = try JournalWriter.open(at: path, domain: "test", schemaVersion: 1)
    #expect(writer.lastSequence == 0)
    try appendEvents(writer, 1...10)
    try writer.close()
    #expect(isExpected(try readAll(JournalReader(path: path)), 1...10))
  }

  @Test("iteration can start at any sequence number")
  func iterateFrom() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 700)
    let reader = try JournalReader(path: path)
    for start in [1, 2, 99, 100, 101, 350, 699, 700] as [UInt64] {
      #expect(isExpected(try readAll(reader, from: start), start...700))
    }
    #expect(try readAll(reader, from: 701).isEmpty)
  }

  @Test("a journal that was flushed but not closed is read by walking its frame headers")
  func unclosed() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("open.journal")
    try makeJournal(at: path, count: 900, close: false)
    let reader = try JournalReader(path: path)
    #expect(!reader.condition.openedFromIndex)
    #expect(reader.condition.walkReason == "no index (the journal was not closed)")
    #expect(reader.condition.isIntact)
    #expect(isExpected(try readAll(reader), 1...900))
  }

  @Test("walking and the index find the same frames")
  func walkEqualsIndex() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 2_000)
    let indexed = try JournalReader(path: path)
    let walked = try JournalReader(path: path, options: .init(useIndex: false))
    #expect(!walked.condition.openedFromIndex)
    #expect(indexed.frames == walked.frames)
  }

  @Test("reopening continues after the last record, and the index is rewritten")
  func reopen() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 450)
    for (first, last) in [(451, 900), (901, 901), (902, 1_500)] as [(UInt64, UInt64)] {
      let writer = try JournalWriter.open(
        at: path, domain: "test", schemaVersion: 1,
        options: JournalWriterOptions(frameSize: 1024, durability: .none))
      #expect(writer.lastSequence == first - 1)
      #expect(writer.lastTime == time(for: first - 1))
      #expect(writer.needsSnapshot, "a new frame starts with a snapshot")
      try appendEvents(writer, first...last)
      try writer.close()
      let reader = try JournalReader(path: path)
      #expect(reader.condition.openedFromIndex)
      #expect(isExpected(try readAll(reader), 1...last))
    }
  }

  @Test("a journal reopened and closed without appending keeps its index")
  func reopenWithoutAppending() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 300)
    let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
    let writer = try JournalWriter.open(at: path, domain: "test", schemaVersion: 1)
    try writer.close()
    #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int == size)
    #expect(try JournalReader(path: path).condition.openedFromIndex)
  }

  @Test("the writer refuses another domain, another schema, and times going backwards")
  func refusals() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 10)
    #expect {
      try JournalWriter.open(at: path, domain: "other", schemaVersion: 1)
    } throws: { error in
      let error = error as! JournalError
      return error.code == .wrongDomain
        && error.description.contains(
          "journal records the 'test' domain; this writer writes 'other'")
    }
    #expect {
      try JournalWriter.open(at: path, domain: "test", schemaVersion: 2)
    } throws: { error in
      (error as! JournalError).code == .wrongDomain
        && "\(error)".contains("schema version 1")
    }
    let writer = try JournalWriter.open(at: path, domain: "test", schemaVersion: 1)
    #expect {
      try writer.append(time: 0, payload: [1])
    } throws: { error in
      "\(error)".contains("record time 0 µs is before the previous record's 3000 µs")
    }
    #expect {
      try writer.append(time: 10_000, payload: [UInt8](repeating: 0, count: (1 << 20) + 1))
    } throws: { error in
      "\(error)".contains("payload of 1048577 bytes exceeds 1048576")
    }
    #expect {
      try writer.addSnapshot(snapshot(after: 3))
    } throws: { error in
      "\(error)".contains("a snapshot must follow the last record (10), not event 3")
    }
    try writer.close()
    #expect(throws: JournalError.self) { try writer.append(time: 10_000, payload: [1]) }
  }

  @Test("creating never overwrites silently")
  func noOverwrite() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 10)
    #expect {
      try JournalWriter.create(at: path, header: header())
    } throws: { error in
      (error as! JournalError).code == .alreadyExists
        && "\(error)".contains("a.journal: the file already exists")
    }
    let writer = try JournalWriter.create(at: path, header: header(), replacingExisting: true)
    try writer.close()
    #expect(try JournalReader(path: path).recordCount == 0)
  }

  @Test("batched appends write the same journal as single appends")
  func batch() throws {
    let directory = TemporaryDirectory()
    let single = directory.file("single.journal")
    let batched = directory.file("batched.journal")
    let options = JournalWriterOptions(frameSize: 1024, durability: .none)
    let one = try JournalWriter.create(at: single, header: header(), options: options)
    for sequence in 1...3_000 as ClosedRange<UInt64> {
      try one.append(time: time(for: sequence), payload: payload(for: sequence))
    }
    try one.close()
    let many = try JournalWriter.create(at: batched, header: header(), options: options)
    var batch = RecordBatch()
    for sequence in 1...3_000 as ClosedRange<UInt64> {
      batch.append(time: time(for: sequence), payload: payload(for: sequence))
      if batch.count == 256 {
        try many.append(batch)
        batch.removeAll()
      }
    }
    try many.append(batch)
    try many.close()
    #expect(
      FileManager.default.contents(atPath: single) == FileManager.default.contents(atPath: batched))
  }

  @Test("time lookups find the last event at or before a time")
  func timeLookup() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 1_000)
    let reader = try JournalReader(path: path)
    for probe in stride(from: UInt64(0), through: 340_000, by: 997) {
      let expected = (1...1_000 as ClosedRange<UInt64>).last { time(for: $0) <= probe } ?? 0
      #expect(try reader.lastSequence(atOrBefore: probe) == expected, "time \(probe)")
    }
  }
}
