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

/// The columns of `rows`: the headers' size, every header, then every payload.
private func split(_ rows: [UInt8], count: Int) -> [UInt8] {
  var columns = [UInt8](repeating: 0xEE, count: RecordColumns.room(forRows: rows.count))
  let laidOut = rows.withUnsafeBytes { rows in
    columns.withUnsafeMutableBytes { RecordColumns.split(rows, count: count, into: $0) }
  }
  return Array(columns[laidOut])
}

/// The rows `columns` join into, or the error.
private func join(_ columns: [UInt8], count: Int) throws(CodecError) -> [UInt8] {
  // Both with the padding the copies may use, the source's not zero.
  let source = columns + [UInt8](repeating: 0xAB, count: FrameStorage.padding)
  var rows = [UInt8](repeating: 0xCD, count: columns.count + FrameStorage.padding)
  let size = try source.withBytes { source throws(CodecError) in
    try rows.withMutableBytes { rows throws(CodecError) in
      try RecordColumns.join(
        UnsafeRawBufferPointer(rebasing: source[..<columns.count]), count: count,
        into: rows.baseAddress!)
    }
  }
  return Array(rows[..<size])
}

@Suite("A frame's records as columns (format 2)")
struct RecordColumnsTests {
  @Test("records of every header and payload size split into columns and join back into rows")
  func roundTrip() throws {
    var random = SystemRandomNumberGenerator()
    for trial in 0..<200 {
      let count = trial == 0 ? 0 : Int.random(in: 1...300, using: &random)
      let records = (0..<count).map { _ -> (delta: UInt64, payload: [UInt8]) in
        // Deltas of one to ten bytes; payloads empty, short, past eight and sixteen bytes.
        let delta =
          UInt64.random(in: 0...UInt64.max, using: &random)
          >> UInt64.random(in: 0...63, using: &random)
        let length = [0, 1, 3, 7, 8, 9, 16, 17, 40, 200][Int.random(in: 0..<10, using: &random)]
        return (delta, (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) })
      }
      let laidOut = rows(records)
      let columns = split(laidOut, count: count)
      var headers: [UInt8] = []
      for record in records {
        var writer = ByteWriter(capacity: 20)
        writer.writeVarint(record.delta)
        writer.writeVarint(UInt64(record.payload.count))
        headers += writer.bytes
      }
      var prefix = ByteWriter(capacity: 4)
      prefix.writeVarint(UInt64(headers.count))
      #expect(columns == prefix.bytes + headers + records.flatMap(\.payload), "trial \(trial)")
      #expect(try join(columns, count: count) == laidOut, "trial \(trial)")
    }
  }

  @Test(
    "columns that do not hold their records exactly are refused, never read past",
    arguments: [
      // Two records: 4 bytes of headers, (delta 1, 2 bytes) and (delta 2, 1 byte), then
      // 3 bytes of payloads.
      ([4, 1, 2, 2, 1, 9, 9, 9], 2, nil),
      // One payload byte too many or too few.
      ([4, 1, 2, 2, 1, 9, 9, 9, 9], 2, "do not fill"),
      ([4, 1, 2, 2, 1, 9, 9], 2, "payload of 1 bytes, past the data's end"),
      // A length past the end, more records than the headers hold, headers past the end.
      ([2, 1, 100, 9, 9], 1, "record 1 of 1 has a payload of 100 bytes, past the data's end"),
      ([4, 1, 0, 1, 0], 3, "header of record 3 of 3 is malformed or runs past"),
      ([9, 1, 0], 1, "the records' headers' size"),
      // A varint that never ends.
      ([3, 0x81, 0x82, 0x83], 1, "header of record 1 of 1 is malformed"),
    ] as [([UInt8], Int, String?)])
  func malformed(columns: [UInt8], count: Int, message: String?) {
    do {
      let rows = try join(columns, count: count)
      #expect(message == nil, "joined \(rows)")
      #expect(rows == [1, 2, 9, 9, 2, 1, 9])
    } catch {
      #expect(message.map { error.message.contains($0) } ?? false, "\(error.message)")
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
      let asRows = Array(view.bytes)
      #expect(
        content == (format.major == 2 ? split(asRows, count: Int(view.info.recordCount)) : asRows))
      #expect(content != asRows || format.major == 1)
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

  @Test("a frame whose columns do not add up is damaged, named as such")
  func damagedColumns() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 50, close: false)
    // The first header's length (after the headers' size and its delta) one more: the
    // payloads no longer fill the data.
    try rewriteFrame(0, of: path, content: { content in content[2] &+= 1 })
    #expect {
      try readAll(JournalReader(path: path))
    } throws: { error in
      "\(error)".contains("the records' columns are malformed")
    }
    #expect(try !Journal.verify(path: path).isClean)
  }
}
