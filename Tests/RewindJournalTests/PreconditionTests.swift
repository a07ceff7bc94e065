import Foundation
import JournalFixtures
import Testing

@testable import RewindJournal

/// Programmer errors trap (STYLE.md, rule 5): each precondition of the journal, broken
/// in a child process that must die.
@Suite("Preconditions of the journal trap")
struct PreconditionTests {
  @Test("a session id is 16 bytes")
  func sessionID() async {
    await #expect(processExitsWith: .failure) {
      _ = SessionID(bytes: [1, 2, 3])
    }
  }

  @Test("a frame outside the journal cannot be loaded")
  func frameOutOfRange() async {
    await #expect(processExitsWith: .failure) {
      let directory = TemporaryDirectory()
      try makeJournal(at: directory.file("a.journal"), count: 10)
      let reader = try JournalReader(path: directory.file("a.journal"))
      _ = try reader.loadFrame(reader.frames.count)
    }
    await #expect(processExitsWith: .failure) {
      let directory = TemporaryDirectory()
      try makeJournal(at: directory.file("a.journal"), count: 10)
      _ = try JournalReader(path: directory.file("a.journal")).frameHeader(-1)
    }
  }

  @Test("a committed or discarded file takes no more writes and no second commit")
  func finishedFile() async {
    await #expect(processExitsWith: .failure) {
      let directory = TemporaryDirectory()
      let file = try AtomicFileWriter(FileDestination(directory.file("a")))
      try file.commit()
      try file.write([1])
    }
    await #expect(processExitsWith: .failure) {
      let directory = TemporaryDirectory()
      let file = try AtomicFileWriter(FileDestination(directory.file("a")))
      file.discard()
      try file.commit()
    }
  }

  @Test("the same calls without the mistake succeed in the child too")
  func control() async {
    await #expect(processExitsWith: .success) {
      let directory = TemporaryDirectory()
      try makeJournal(at: directory.file("a.journal"), count: 10)
      let reader = try JournalReader(path: directory.file("a.journal"))
      _ = try reader.loadFrame(reader.frames.count - 1)
      let file = try AtomicFileWriter(FileDestination(directory.file("b")))
      try file.write([1])
      try file.commit()
    }
  }
}
