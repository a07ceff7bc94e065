import RewindFuzzing
import RewindJournal
import Testing

/// The journal tools of the fuzz targets: journals rewritten with stored frames read as
/// before, and recomputed checksums let a changed byte reach the records.
@Suite struct JournalChecksumsTests {
  static let samples = [
    "Journals/two-column.journal", "Journals/day-menu.journal",
    "Journals/format-1.0/day-menu.journal", "Journals/schema1/day-menu.journal",
  ]

  @Test(arguments: samples)
  func storedFramesReadAsTheOriginal(_ path: String) throws {
    let original = try repositoryFile(path)
    let stored = UncompressedFrames.rewrite(original)
    let before = try openJournal(original)
    let after = try openJournal(stored)
    for frame in after.frames {
      #expect(holdsStoredBlocks(stored, at: Int(frame.dataOffset)), "frame \(frame.number)")
    }
    #expect(after.condition == before.condition)
    #expect(after.frames.map(\.sequenceRange) == before.frames.map(\.sequenceRange))
    let expected = try records(before)
    let actual = try records(after)
    #expect(actual.count == expected.count)
    #expect(zip(actual, expected).allSatisfy { $0 == $1 })
    let report = try verify(stored)
    #expect(report.isClean, "\(report.problems)")
  }

  @Test(arguments: samples)
  func validJournalsKeepTheirChecksums(_ path: String) throws {
    let original = try repositoryFile(path)
    let unchanged = JournalChecksums.recomputed(original) == original
    #expect(unchanged)
    let stored = UncompressedFrames.rewrite(original)
    let storedUnchanged = JournalChecksums.recomputed(stored) == stored
    #expect(storedUnchanged)
  }

  @Test func aChangedPayloadReadsOnceTheChecksumsAreRecomputed() throws {
    let stored = UncompressedFrames.rewrite(try repositoryFile(Self.samples[0]))
    let reader = try openJournal(stored)
    let frame = reader.frames[0]
    var cursor = try reader.loadFrame(0).records()
    let first = try #require(try cursor.next())
    let payload = Array(first.payload)
    // The stored frame: magic, descriptor, content size, a block header, then the
    // records; the first record: a time delta of 0, the payload's length, the payload.
    let rawSize = try reader.decompressedContent(ofFrame: 0).count
    try #require(payload.count < 128, "the payload's length is one byte")
    let contentStart =
      Int(frame.dataOffset) + 4 + 1 + (rawSize < 256 ? 1 : rawSize < 65792 ? 2 : 4) + 3
    let lastPayloadByte = contentStart + 1 + 1 + payload.count - 1
    var changed = stored
    changed[lastPayloadByte] ^= 0x01

    let damaged = try verify(changed)
    #expect(damaged.problems.contains { $0.message.contains("checksum") })

    let fixed = JournalChecksums.recomputed(changed)
    let report = try verify(fixed)
    #expect(!report.problems.contains { $0.message.contains("checksum") }, "\(report.problems)")
    var again = try openJournal(fixed).loadFrame(0).records()
    let record = try #require(try again.next())
    var expected = payload
    expected[payload.count - 1] ^= 0x01
    #expect(Array(record.payload) == expected)
  }

  /// Whether the zstd frame at `offset` is made of raw blocks only.
  func holdsStoredBlocks(_ bytes: [UInt8], at offset: Int) -> Bool {
    let descriptor = bytes[offset + 4]
    guard descriptor & 0x20 != 0 else { return false }
    var position = offset + 5 + [1, 2, 4, 8][Int(descriptor >> 6)]
    while true {
      let header =
        Int(bytes[position]) | Int(bytes[position + 1]) << 8 | Int(bytes[position + 2]) << 16
      guard (header >> 1) & 3 == 0 else { return false }
      position += 3 + header >> 3
      if header & 1 == 1 { return true }
    }
  }

  func verify(_ bytes: [UInt8]) throws -> VerificationReport {
    try Journal.verify(path: "test.journal", system: .memory(bytes, at: "test.journal"))
  }
}
