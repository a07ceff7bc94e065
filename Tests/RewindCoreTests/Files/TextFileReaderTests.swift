import Foundation
import RewindCore
import RewindJournal
import TestSupport
import Testing

@Suite("The text reader: lines, line ends, byte-order marks, refused bytes")
struct TextFileReaderTests {
  /// The lines of `bytes` read in memory.
  func lines(_ bytes: [UInt8]) throws(TextFileError) -> [String] {
    try TextFileReader(bytes: bytes, name: "text").remainingLines()
  }

  func lines(_ text: String) throws(TextFileError) -> [String] {
    try lines(Array(text.utf8))
  }

  @Test("CRLF line ends and a byte-order mark read as plain lines")
  func crlfAndByteOrderMark() throws {
    #expect(try lines("\u{FEFF}# c\r\ntap 1\r\n") == ["# c", "tap 1"])
    #expect(try lines("a\r\nb\nc\r\n") == ["a", "b", "c"])
    // Only a \r right before the \n is a line end; a lone one is text.
    #expect(try lines("a\rb\r\n\r") == ["a\rb", ""])
    // The mark is skipped at the start of the file only.
    #expect(try lines("a\n\u{FEFF}b") == ["a", "\u{FEFF}b"])
  }

  @Test("lines split on \\n, the last needs none, blank lines are kept")
  func splitting() throws {
    #expect(try lines("") == [])
    #expect(try lines("\n") == [""])
    #expect(try lines("a") == ["a"])
    #expect(try lines("a\n") == ["a"])
    #expect(try lines("a\n\nb") == ["a", "", "b"])
    #expect(try lines("Café ☕\n月曜日") == ["Café ☕", "月曜日"])
    let reader = TextFileReader(bytes: Array("x\r\ny\r\nz".utf8), name: "text")
    #expect(try reader.remainingText() == "x\ny\nz")
    #expect(reader.lineNumber == 3)
  }

  @Test("a NUL byte is refused with its line and column")
  func nul() {
    #expect(
      throws: TextFileError(
        .notText, "a NUL byte at column 3; this is not a text file", path: "text", line: 2)
    ) {
      try lines([0x61, 0x0A, 0x62, 0x63, 0x00, 0x64, 0x0A])
    }
  }

  @Test(
    "invalid UTF-8 is refused with its line, column and byte",
    arguments: [
      ([0x6F, 0x6B, 0x0A, 0xC3, 0x28, 0x0A] as [UInt8], 2, 1, "C3"),
      ([0x61, 0x62, 0xFF] as [UInt8], 1, 3, "FF"),
      // A sequence cut short at the end of the file.
      ([0x0A, 0x0A, 0x78, 0xE2, 0x82] as [UInt8], 3, 2, "E2"),
      // A byte-order mark further on is no excuse for a broken one at the start.
      ([0xEF, 0xBB, 0x0A] as [UInt8], 1, 1, "EF"),
    ])
  func invalidUTF8(bytes: [UInt8], line: Int, column: Int, byte: String) {
    #expect(
      throws: TextFileError(
        .notText,
        "invalid UTF-8 at column \(column) (byte 0x\(byte)); the file must be UTF-8 text",
        path: "text", line: line)
    ) {
      try lines(bytes)
    }
  }

  @Test("a file streams in chunks: lines across chunk boundaries and longer than a chunk")
  func file() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("long.txt")
    var expected: [String] = []
    var random = SplitMix64(seed: testSeed("TextFileReaderTests.file"))
    for index in 0..<3_000 {
      let length = Int(random.next() % 200)
      expected.append(String(repeating: "abcdéf", count: length / 6) + "\(index)")
    }
    expected.insert(String(repeating: "x", count: 200_000), at: 1_000)
    write(Array(expected.joined(separator: "\r\n").utf8), to: path)
    let reader = try TextFileReader(path: path)
    var read: [String] = []
    while let line = try reader.nextLine() {
      read.append(line)
      #expect(reader.lineNumber == read.count)
    }
    #expect(read == expected)
    #expect(try reader.nextLine() == nil)
  }

  @Test("a line longer than the limit is refused before it is read whole")
  func longLine() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("long.txt")
    write(Array(("short\n" + String(repeating: "y", count: 300_000) + "\nafter\n").utf8), to: path)
    let reader = try TextFileReader(path: path)
    reader.lineLimit = 100_000
    #expect(try reader.nextLine() == "short")
    #expect(
      throws: TextFileError(
        .notText, "the line is longer than 100,000 bytes; this is not a text file of lines",
        path: path, line: 2)
    ) {
      try reader.nextLine()
    }
    // In memory, the same limit applies.
    let memory = TextFileReader(bytes: Array("12345\n123456\n".utf8), name: "text")
    memory.lineLimit = 5
    #expect(try memory.nextLine() == "12345")
    #expect(throws: TextFileError.self) { try memory.nextLine() }
  }

  @Test("a file that cannot be read says why, naming it")
  func unreadable() throws {
    let directory = TemporaryDirectory()
    let missing = directory.file("missing.txt")
    #expect(throws: TextFileError(.notFound, "no such file", path: missing)) {
      try TextFileReader(path: missing)
    }
    #expect(throws: TextFileError(.unreadable, "is a directory, not a file", path: directory.path))
    {
      try TextFileReader(path: directory.path)
    }
    let path = directory.file("text.txt")
    write(Array("one\ntwo\n".utf8), to: path)
    let faulty = FaultyFileSystem()
    faulty.fail(.read, with: EIO)
    let error = try #require(throws: TextFileError.self) {
      try TextFileReader(path: path, system: faulty.calls).nextLine()
    }
    #expect(error.code == .unreadable)
    #expect(error.line == 1)
    #expect(error.description.hasPrefix("\(path):1: cannot read the file ("))
    #expect(error.description.hasSuffix("(errno \(EIO)))"))
  }

  @Test("the whole text of a file, for parsers that number lines themselves")
  func text() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("state.json")
    write(Array("\u{FEFF}{\r\n  \"a\": 1\r\n}\r\n".utf8), to: path)
    let text = try TextFileReader.text(ofFile: path, atMost: 100, describedAs: "a state file")
    #expect(text == "{\n  \"a\": 1\n}")
  }

  @Test("the whole text of a file is refused beyond its limit, or when no regular file")
  func textWithinLimit() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("state.json")
    write(Array("{\n  \"a\": 1\n}\n".utf8), to: path)
    #expect(
      throws: TextFileError(
        .notText, "is 13 bytes long; a state file holds at most 12 bytes", path: path)
    ) {
      try TextFileReader.text(ofFile: path, atMost: 12, describedAs: "a state file")
    }
    #expect(
      throws: TextFileError(
        .unreadable, "is not a regular file (a device, pipe or socket), which a state file must be",
        path: "/dev/null")
    ) {
      try TextFileReader.text(ofFile: "/dev/null", atMost: 12, describedAs: "a state file")
    }
  }
}
