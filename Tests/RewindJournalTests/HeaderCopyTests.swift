import Foundation
import JournalFixtures
import TestSupport
import Testing

@testable import RewindJournal

/// The sizes of the header frame and of the copy after it, read from their prefixes.
func headerAndCopySizes(_ bytes: [UInt8]) -> (header: Int, copy: Int) {
  func frameSize(at offset: Int) -> Int {
    8 + Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16
      | Int(bytes[offset + 7]) << 24
  }
  let header = frameSize(at: 0)
  return (header, frameSize(at: header))
}

/// A journal as format 1.0 wrote it, made from a journal of format 1.2 (records as rows)
/// that was not closed: its header says 1.0 and no copy follows it.
func formatOneZero(_ bytes: [UInt8]) -> [UInt8] {
  let (header, copy) = headerAndCopySizes(bytes)
  var body = Array(bytes[12..<(header - 4)])
  body[2] = 0  // minor version 0
  return MetadataFrame.encode(.header, body: body) + Array(bytes[(header + copy)...])
}

@Suite("The header and its copies")
struct HeaderCopyTests {
  @Test("a new journal starts with its header and a copy of it, and its index holds another")
  func layout() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 300)
    let file = bytes(of: path)
    let (headerSize, copySize) = headerAndCopySizes(file)
    let body = header().encodedBody()
    #expect(Array(file[..<headerSize]) == MetadataFrame.encode(.header, body: body))
    #expect(
      Array(file[headerSize..<(headerSize + copySize)])
        == MetadataFrame.encode(.headerCopy, body: body))
    #expect(body[0...3] == [2, 0, 0, 0], "format 2.0")
    let reader = try JournalReader(path: path)
    #expect(reader.frames.first?.offset == UInt64(headerSize + copySize))
    let index = try JournalLayout.readIndex(
      reader.file, fileSize: UInt64(file.count), after: UInt64(headerSize))
    guard case .success(let (found, _)) = index else {
      Issue.record("no index")
      return
    }
    #expect(found.headerCopy == body)
  }

  @Test(
    "one damaged byte anywhere in the header: readers warn and read, verify names the byte, recover rebuilds it",
    arguments: [true, false])
  func everyHeaderByte(closed: Bool) throws {
    let directory = TemporaryDirectory()
    let original = directory.file("original.journal")
    try makeJournal(at: original, count: 300, interval: 25, close: closed)
    let pristine = bytes(of: original)
    let (headerSize, copySize) = headerAndCopySizes(pristine)
    let path = directory.file("a.journal")
    for offset in 0..<headerSize {
      var damaged = pristine
      damaged[offset] ^= 0x10
      write(damaged, to: path)
      let reader = try JournalReader(path: path)
      #expect(reader.header == header(interval: 25), "byte \(offset)")
      #expect(reader.condition.headerDamage?.offset == UInt64(offset), "byte \(offset)")
      #expect(
        reader.condition.headerDamage?.reason
          == "the journal header is damaged (byte \(offset) differs from the copy after the header, which starts at byte \(headerSize)); it was read from the copy",
        "byte \(offset)")
      #expect(isExpected(try readAll(reader), 1...300), "byte \(offset)")
      #expect(throws: JournalError.self, "a writer waits for recover") {
        try JournalWriter.open(at: path, domain: "test", schemaVersion: 1)
      }

      let report = try Journal.verify(path: path)
      #expect(report.problems.count == 1, "byte \(offset): \(report.problems)")
      #expect(report.problems.first?.kind == .header)
      #expect(report.problems.first?.offset == UInt64(offset))
      #expect(report.recordCount == 300)

      if offset % 7 == 0 || offset < 12 {
        let recovery = try Journal.recover(path: path)
        #expect(recovery.repairedHeader?.offset == UInt64(offset))
        #expect(recovery.keptRecords == 300 && recovery.droppedRecords == 0)
        let repaired = bytes(of: path)
        #expect(
          Array(repaired[..<(headerSize + copySize)]) == Array(pristine[..<(headerSize + copySize)])
        )
        #expect(try Journal.verify(path: path).isClean, "byte \(offset)")
        #expect(bytes(of: path + ".damaged") == damaged)
        try FileManager.default.removeItem(atPath: path + ".damaged")
      }
    }
  }

  @Test("a damaged copy is reported as the header's and repaired without salvage")
  func damagedCopy() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 300, interval: 25)
    var damaged = bytes(of: path)
    let (headerSize, _) = headerAndCopySizes(damaged)
    damaged[headerSize + 20] ^= 0x01
    write(damaged, to: path)
    let reader = try JournalReader(path: path)
    #expect(reader.condition.headerDamage == nil)
    #expect(isExpected(try readAll(reader), 1...300))
    let report = try Journal.verify(path: path)
    #expect(report.problems.map(\.kind) == [.header], "\(report.problems)")
    #expect(report.problems.first?.offset == UInt64(headerSize))
    #expect(
      report.problems.first?.message.hasPrefix(
        "the copy of the journal header is damaged: checksum mismatch") == true)
    let recovery = try Journal.recover(path: path)
    #expect(recovery.changed && recovery.droppedRecords == 0)
    // What it dropped is said: the copy's bytes, whose loss loses no event.
    #expect(recovery.droppedDamage.map(\.byteRange.lowerBound) == [UInt64(headerSize)])
    #expect(
      recovery.droppedDamage.first?.reason.hasPrefix(
        "the copy of the journal header is damaged") == true)
    #expect(try Journal.verify(path: path).isClean)
  }

  @Test("with the header and the copy after it damaged, a closed journal is read from its index")
  func indexCopy() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 300, interval: 25)
    var damaged = bytes(of: path)
    let (headerSize, _) = headerAndCopySizes(damaged)
    damaged[20] ^= 0x01
    damaged[headerSize + 20] ^= 0x01
    write(damaged, to: path)
    let reader = try JournalReader(path: path)
    #expect(reader.header == header(interval: 25))
    #expect(reader.condition.headerDamage?.offset == 20)
    #expect(isExpected(try readAll(reader), 1...300))
    let walked = try JournalReader(path: path, options: .init(useIndex: false))
    #expect(isExpected(try readAll(walked), 1...300))
    let recovery = try Journal.recover(path: path)
    #expect(recovery.keptRecords == 300)
    #expect(try Journal.verify(path: path).isClean)
  }

  @Test("with no intact copy the journal cannot be read, but verify still checks its frames")
  func noCopy() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 300, interval: 25, close: false)
    var damaged = bytes(of: path)
    let (headerSize, _) = headerAndCopySizes(damaged)
    damaged[30] ^= 0x01
    damaged[headerSize + 30] ^= 0x01
    write(damaged, to: path)
    #expect {
      try JournalReader(path: path)
    } throws: { error in
      let error = error as! JournalError
      let text = error.description
      // One place and one message: no repeated cause with another offset.
      return error.code == .corruptHeader && error.byteOffset == 0
        && text.hasPrefix(
          "\(path): at byte 0: the journal header is damaged: checksum mismatch (stored 0x")
        && text.hasSuffix("); no intact copy of it was found")
        && text.components(separatedBy: "at byte").count == 2
        && text.components(separatedBy: "checksum mismatch").count == 2
    }
    let report = try Journal.verify(path: path)
    #expect(report.header == nil)
    #expect(report.recordCount == 300)
    #expect(report.problems.first?.kind == .header)
    #expect(report.problems.first?.offset == 0)
    #expect {
      try Journal.recover(path: path)
    } throws: { error in
      "\(error)".contains("recovery needs the header")
    }
    #expect(bytes(of: path) == damaged)
    #expect(contents(of: directory) == ["a.journal"])
  }

  @Test("a journal of format 1.0 (no copies) reads, verifies, continues and recovers")
  func formatOneZeroJournals() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(
      at: path, count: 500, interval: 25, close: false, format: FormatVersion(major: 1, minor: 2))
    write(formatOneZero(bytes(of: path)), to: path)
    let reader = try JournalReader(path: path)
    #expect(reader.header.formatVersion == FormatVersion(major: 1, minor: 0))
    #expect(reader.condition.isIntact)
    #expect(isExpected(try readAll(reader), 1...500))
    #expect(try Journal.verify(path: path).isClean)
    // Continued and closed by this version: the index holds a copy, readable by 1.0
    // readers since it follows the lost ranges.
    let writer = try JournalWriter.open(at: path, domain: "test", schemaVersion: 1)
    try appendEvents(writer, 501...600)
    try writer.close()
    #expect(try Journal.verify(path: path).isClean)
    #expect(isExpected(try readAll(JournalReader(path: path)), 1...600))
    // Its header damaged, it is read from the index's copy.
    var damaged = bytes(of: path)
    damaged[25] ^= 0x04
    write(damaged, to: path)
    #expect(try JournalReader(path: path).condition.headerDamage?.offset == 25)
    let recovery = try Journal.recover(path: path)
    #expect(recovery.keptRecords == 600)
    let repaired = try JournalReader(path: path)
    #expect(repaired.header.formatVersion == FormatVersion(major: 1, minor: 1))
    #expect(try Journal.verify(path: path).isClean)
  }
}
