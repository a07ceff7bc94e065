import Foundation
import JournalFixtures
import TestSupport
import Testing

@testable import RewindJournal

/// The header's parent session (format 1.2): written, read back, and absent from the
/// headers of older versions.
@Suite("The parent session in the header")
struct ParentHeaderTests {
  let parent = ParentSession(
    path: "/tmp/recordings/first.journal", sessionID: SessionID(bytes: Array(20..<36)),
    sequence: 1_500)

  @Test("a journal that continues another names it, and a reader reads it back")
  func roundTrip() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("child.journal")
    var written = header()
    written.parent = parent
    let writer = try JournalWriter.create(
      at: path, header: written, options: JournalWriterOptions(durability: .none))
    try appendEvents(writer, 1...10)
    try writer.close()
    let reader = try JournalReader(path: path)
    #expect(reader.header.parent == parent)
    #expect(reader.header.formatVersion == FormatVersion(major: 2, minor: 0))
    #expect(reader.header == written)
    // The body ends with the flag, the session, the event and the path.
    let body = reader.layout.headerBody
    let tail =
      [1] + parent.sessionID.bytes + withUnsafeBytes(of: parent.sequence.littleEndian, Array.init)
      + [UInt8(parent.path.utf8.count)] + Array(parent.path.utf8)
    #expect(Array(body.suffix(tail.count)) == tail)
  }

  @Test("a header of 1.2 without a parent ends with a zero flag; one of 1.1 has none")
  func absent() throws {
    var current = header()
    #expect(current.encodedBody().last == 0)
    #expect(try decode(current.encodedBody()).parent == nil)
    current.formatVersion = FormatVersion(major: 1, minor: 1)
    current.parent = parent
    let older = current.encodedBody()
    #expect(older.count == header().encodedBody().count - 1, "no flag in 1.1")
    let decoded = try decode(older)
    #expect(decoded.parent == nil)
    #expect(decoded.formatVersion == FormatVersion(major: 1, minor: 1))
    // A field of a later minor version after the parent is skipped.
    var later = header()
    later.parent = parent
    var body = later.encodedBody()
    body[2] = 3
    body += [9, 9, 9]
    #expect(try decode(body).parent == parent)
  }

  @Test("a flag other than 0 or 1, an empty path or a sequence out of range is a corrupt header")
  func malformed() throws {
    var flagged = header().encodedBody()
    flagged[flagged.count - 1] = 2
    #expect(throws: JournalError.self) { try decode(flagged) }
    var withParent = header()
    withParent.parent = parent
    let body = withParent.encodedBody()
    let pathLength = body.count - parent.path.utf8.count - 1
    var empty = Array(body[..<pathLength])
    empty.append(0)
    do {
      _ = try decode(empty)
      Issue.record("an empty parent path was read")
    } catch {
      #expect(error.code == .corruptHeader)
      #expect(error.message.contains("the parent journal's path is empty"))
    }
    var huge = body
    let sequenceStart = pathLength - 8
    huge.replaceSubrange(sequenceStart..<pathLength, with: [UInt8](repeating: 0xFF, count: 8))
    #expect(throws: JournalError.self) { try decode(huge) }
  }

  @Test("a writer refuses a parent with an empty or overlong path")
  func validation() throws {
    let directory = TemporaryDirectory()
    for path in ["", String(repeating: "p", count: JournalLimits.maximumParentPathLength + 1)] {
      var written = header()
      written.parent = ParentSession(path: path, sessionID: parent.sessionID, sequence: 1)
      #expect(throws: JournalError.self) {
        try JournalWriter.create(at: directory.file("a.journal"), header: written)
      }
      #expect(!FileManager.default.fileExists(atPath: directory.file("a.journal")))
    }
  }

  func decode(_ body: [UInt8]) throws(JournalError) -> JournalHeader {
    try JournalLayout.decodeHeader(body, path: "test.journal")
  }
}
