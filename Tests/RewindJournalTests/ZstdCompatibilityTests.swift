import Foundation
import JournalFixtures
import TestSupport
import Testing

@testable import RewindJournal

@Suite(
  "Journals are zstd streams",
  .enabled(if: zstdTool != nil, "the zstd tool is not installed (Tools/test installs it)"))
struct ZstdCompatibilityTests {
  @Test("zstd -t accepts closed and flushed journals, and torn ones once recovered")
  func stockZstdAccepts() throws {
    let directory = TemporaryDirectory()
    let closed = directory.file("closed.journal")
    let flushed = directory.file("flushed.journal")
    let empty = directory.file("empty.journal")
    try makeJournal(at: closed, count: 5_000)
    try makeJournal(at: flushed, count: 5_000, close: false)
    try makeJournal(at: empty, count: 0)
    #expect(try zstdAccepts(closed))
    #expect(try zstdAccepts(flushed))
    #expect(try zstdAccepts(empty))

    // A write torn inside a frame: zstd sees the partial frame; recovery cuts it.
    let torn = directory.file("torn.journal")
    let reader = try JournalReader(path: flushed)
    let last = reader.frames.last!
    write(Array(bytes(of: flushed)[..<Int(last.dataOffset + 10)]), to: torn)
    #expect(try JournalReader(path: torn).condition.tornTail != nil)
    #expect(try !zstdAccepts(torn))
    _ = try Journal.recover(path: torn)
    #expect(try zstdAccepts(torn))
  }

  @Test("zstd -dc decodes the data frames to the records' bytes, as columns")
  func stockZstdDecodes() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 3_000)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: zstdTool!)
    process.arguments = ["-dc", path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let reader = try JournalReader(path: path)
    var expected: [UInt8] = []
    for index in reader.frames.indices {
      expected += try reader.decompressedContent(ofFrame: index)
    }
    #expect([UInt8](output) == expected)
  }

  @Test("our XXH64 equals the content checksum zstd writes")
  func checksumAgreesWithZstd() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 2_000)
    let reader = try JournalReader(path: path)
    let file = bytes(of: path)
    for (index, frame) in reader.frames.enumerated() {
      let end = Int(frame.endOffset)
      let stored = file[(end - 4)..<end].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
      let content = try reader.decompressedContent(ofFrame: index)
      #expect(UInt32(truncatingIfNeeded: XXH64.hash(content)) == stored)
    }
  }
}
