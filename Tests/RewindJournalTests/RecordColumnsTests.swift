import Foundation
import JournalFixtures
import TestSupport
import Testing

@testable import RewindJournal

/// Records as rows: each header (a time delta and a payload length, two varints) followed
/// by its payload.
private func rows(_ records: [(delta: UInt64, payload: [UInt8])]) -> [UInt8] {
  var writer = ByteWriter(capacity: 64)
  for record in records {
    writer.writeVarint(record.delta)
    writer.writeVarint(UInt64(record.payload.count))
    writer.write(contentsOf: record.payload)
  }
  return writer.bytes
}

/// The columns of `rows`: the headers' size, every header, then every payload; and where
/// the headers are in them.
private func split(_ rows: [UInt8], count: Int) throws(CodecError) -> (
  columns: [UInt8], headers: Range<Int>
) {
  var columns = [UInt8](repeating: 0xEE, count: RecordColumns.room(forRows: rows.count))
  let layout = try rows.withBytes { rows throws(CodecError) in
    try columns.withMutableBytes { columns throws(CodecError) in
      try RecordColumns.split(rows, count: count, into: columns)
    }
  }
  let start = layout.columns.lowerBound
  return (
    Array(columns[layout.columns]),
    (layout.headers.lowerBound - start)..<(layout.headers.upperBound - start)
  )
}

/// A frame of `columns` holding `count` records from event 1 at time 0.
private func frame(_ columns: [UInt8], count: Int, lastTime: UInt64) throws -> FrameView {
  let storage = FrameStorage(capacity: max(columns.count, 1))
  columns.withUnsafeBytes { storage.bytes.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
  storage.count = columns.count
  let headers = try RecordColumns.headers(
    ofColumns: UnsafeRawBufferPointer(start: storage.bytes, count: columns.count))
  let info = FrameInfo(
    number: 0, offset: 0, headerSize: 64, compressedSize: 100, firstSequence: 1,
    recordCount: UInt32(count), firstTime: 0, lastTime: lastTime, snapshotCount: 0)
  return FrameView(info: info, snapshots: [], storage: storage, headers: headers)
}

/// The records of `view` read by its cursor, as (delta, payload).
private func records(of view: FrameView) throws -> [(delta: UInt64, payload: [UInt8])] {
  var cursor = view.records()
  var time = view.info.firstTime
  var records: [(delta: UInt64, payload: [UInt8])] = []
  while let record = try cursor.next() {
    records.append((record.time - time, Array(record.payload)))
    time = record.time
  }
  return records
}

@Suite("A frame's records as columns (format 2)")
struct RecordColumnsTests {
  @Test("records of every header and payload size split into columns that the cursor reads back")
  func roundTrip() throws {
    var random = SystemRandomNumberGenerator()
    for trial in 0..<200 {
      let count = trial == 0 ? 0 : Int.random(in: 1...300, using: &random)
      let records = (0..<count).map { _ -> (delta: UInt64, payload: [UInt8]) in
        // Deltas of one to eight bytes (their sum fits a time); payloads empty, short,
        // past eight and sixteen bytes.
        let delta =
          UInt64.random(in: 0...(UInt64.max >> 9), using: &random)
          >> UInt64.random(in: 0...55, using: &random)
        let length = [0, 1, 3, 7, 8, 9, 16, 17, 40, 200][Int.random(in: 0..<10, using: &random)]
        return (delta, (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) })
      }
      let (columns, headers) = try split(rows(records), count: count)
      var expected = ByteWriter(capacity: 20)
      for record in records {
        expected.writeVarint(record.delta)
        expected.writeVarint(UInt64(record.payload.count))
      }
      var prefix = ByteWriter(capacity: 4)
      prefix.writeVarint(UInt64(expected.count))
      #expect(
        columns == prefix.bytes + expected.bytes + records.flatMap(\.payload), "trial \(trial)")
      #expect(headers == prefix.count..<(prefix.count + expected.count))
      let view = try frame(
        columns, count: count, lastTime: records.reduce(0) { $0 + $1.delta })
      let read = try RewindJournalTests.records(of: view)
      #expect(read.map(\.delta) == records.map(\.delta), "trial \(trial)")
      #expect(read.map(\.payload) == records.map(\.payload), "trial \(trial)")
    }
  }

  @Test(
    "rows that do not hold their records exactly are refused when split, never read past",
    arguments: [
      // Two records: (delta 1, 2 bytes), (delta 2, 1 byte).
      ([1, 2, 9, 9, 2, 1, 9], 2, nil),
      // A byte too many or too few.
      ([1, 2, 9, 9, 2, 1, 9, 9], 2, "the records go on past the 2 the frame's header counts"),
      ([1, 2, 9, 9, 2, 1], 2, "record 2 of 2 has a payload of 1 bytes, past the records' end"),
      // A length past the end, more records than the rows hold.
      ([1, 100, 9, 9], 1, "record 1 of 1 has a payload of 100 bytes, past the records' end"),
      ([1, 0, 1, 0], 3, "the header of record 3 of 3 is malformed or runs past the records' end"),
      // A varint that never ends.
      ([0x81, 0x82, 0x83], 1, "the header of record 1 of 1 is malformed"),
    ] as [([UInt8], Int, String?)])
  func malformedRows(rows: [UInt8], count: Int, message: String?) {
    do {
      let (columns, _) = try split(rows, count: count)
      #expect(message == nil, "split into \(columns)")
      #expect(columns == [4, 1, 2, 2, 1, 9, 9, 9])
    } catch {
      #expect(message.map { error.message.contains($0) } ?? false, "\(error.message)")
    }
  }

  @Test("columns whose headers' size is malformed or past their end are refused")
  func malformedSize() {
    for columns in [[9, 1, 0], [0x80], []] as [[UInt8]] {
      #expect(throws: CodecError.self) {
        try columns.withUnsafeBytes { try RecordColumns.headers(ofColumns: $0) }
      }
    }
  }

  @Test("a journal of format 2 holds columns; one of 1.2 rows; both read, verify and continue")
  func bothLayouts() throws {
    let directory = TemporaryDirectory()
    for format in [FormatVersion(major: 2, minor: 0), FormatVersion(major: 1, minor: 2)] {
      let path = directory.file("\(format).journal")
      try makeJournal(at: path, count: 700, interval: 50, close: false, format: format)
      let reader = try JournalReader(path: path)
      #expect(reader.header.formatVersion == format)
      let view = try reader.loadFrame(0)
      let content = try reader.decompressedContent(ofFrame: 0)
      let asRows = rows(try records(of: view))
      let count = Int(view.info.recordCount)
      #expect(content == (format.major == 2 ? try split(asRows, count: count).columns : asRows))
      #expect(content != asRows || format.major == 1)
      // From every snapshot, the records the cursor from the frame's start reads there.
      var snapshots = 0
      for index in reader.frames.indices {
        let frame = try reader.loadFrame(index)
        let all = try records(of: frame)
        for snapshot in frame.snapshots {
          var cursor = try frame.records(after: snapshot)
          let skipped = Int(snapshot.snapshot.sequence + 1 - frame.info.firstSequence)
          #expect(cursor.offset == Int(snapshot.recordOffset))
          var rest: [[UInt8]] = []
          while let record = try cursor.next() { rest.append(Array(record.payload)) }
          #expect(rest == all.dropFirst(skipped).map(\.payload), "\(format) frame \(index)")
          snapshots += 1
        }
      }
      #expect(snapshots >= 10)
      // Continued by this version in its own layout.
      let writer = try JournalWriter.open(at: path, domain: "test", schemaVersion: 1)
      try appendEvents(writer, 701...900)
      try writer.close()
      let continued = try JournalReader(path: path)
      #expect(continued.header.formatVersion == format)
      #expect(isExpected(try readAll(continued), 1...900))
      #expect(try Journal.verify(path: path).isClean)
      #expect(try zstdAccepts(path))
    }
  }

  @Test("a frame whose columns do not add up is damaged, named as such", arguments: [2, 1])
  func damagedColumns(major: Int) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    let format = FormatVersion(major: UInt16(major), minor: major == 2 ? 0 : 2)
    try makeJournal(at: path, count: 50, close: false, format: format)
    // The first record's length (after the headers' size, if any, and its one-byte
    // delta) one more: the last payload runs past the frame, or the rows no longer read
    // as the records the header counts.
    try rewriteFrame(0, of: path, content: { content in content[major == 2 ? 2 : 1] &+= 1 })
    #expect {
      try readAll(JournalReader(path: path))
    } throws: { error in
      guard let error = error as? JournalError, error.code == .corruptFrame, error.frame == 0
      else { return false }
      return major == 1 || error.message.contains("runs past the frame")
    }
    #expect(try !Journal.verify(path: path).isClean)
  }
}
