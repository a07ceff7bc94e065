import Foundation
import JournalFixtures
import TestSupport
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

  // A child that traps never releases what it made: the directories its files go in
  // belong to the parent, which removes them.

  @Test("a frame outside the journal cannot be loaded")
  func frameOutOfRange() async {
    let directory = TemporaryDirectory()
    await #expect(processExitsWith: .failure) { [path = directory.file("a.journal") as String] in
      try makeJournal(at: path, count: 10)
      let reader = try JournalReader(path: path)
      _ = try reader.loadFrame(reader.frames.count)
    }
    await #expect(processExitsWith: .failure) { [path = directory.file("b.journal") as String] in
      try makeJournal(at: path, count: 10)
      _ = try JournalReader(path: path).frameHeader(-1)
    }
  }

  @Test("a committed or discarded file takes no more writes and no second commit")
  func finishedFile() async {
    let directory = TemporaryDirectory()
    await #expect(processExitsWith: .failure) { [path = directory.file("a") as String] in
      let file = try AtomicFileWriter(FileDestination(path))
      try file.commit()
      try file.write([1])
    }
    await #expect(processExitsWith: .failure) { [path = directory.file("b") as String] in
      let file = try AtomicFileWriter(FileDestination(path))
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
