import Foundation
import JournalFixtures
import TestSupport
import Testing

@testable import RewindJournal

@Suite("Journals created for batch work appear only when complete")
struct AtomicJournalTests {
  @Test("the journal appears at its path on close, complete", arguments: TemporaryKind.allCases)
  func appearsOnClose(kind: TemporaryKind) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("batch.journal")
    var options = JournalWriterOptions(frameSize: 1024, durability: .flushOnly)
    let faults = faultyFileSystem(kind)
    options.system = faults.calls
    let writer = try JournalWriter.create(
      FileDestination(path), header: header(interval: 50), options: options)
    #expect(writer.path == path)
    try appendEvents(writer, 1...2_000)
    try writer.flush()
    #expect(!FileManager.default.fileExists(atPath: path), "nothing at the path before close")
    try writer.close()
    #expect(contents(of: directory) == ["batch.journal"])
    let reader = try JournalReader(path: path)
    #expect(reader.condition.openedFromIndex)
    #expect(isExpected(try readAll(reader), 1...2_000))
    #expect(try Journal.verify(path: path).isClean)
  }

  @Test("a writer dropped before close, or failing, leaves the previous journal and nothing else")
  func droppedOrFailing() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("batch.journal")
    try makeJournal(at: path, count: 100)
    let previous = bytes(of: path)
    do {
      let writer = try JournalWriter.create(
        FileDestination(path, replacingExisting: true), header: header(),
        options: .init(durability: .none))
      try appendEvents(writer, 1...5_000)
    }
    #expect(bytes(of: path) == previous)
    #expect(contents(of: directory) == ["batch.journal"])

    for (step, cause) in [
      (FileStep.write, ENOSPC), (.syncFile, EIO), (.link, EIO), (.rename, EROFS),
      (.syncDirectory, EIO),
    ] {
      let faults = FaultyFileSystem()
      var options = JournalWriterOptions(frameSize: 1024, durability: .flushOnly)
      options.system = faults.calls
      let writer = try JournalWriter.create(
        FileDestination(path, replacingExisting: true), header: header(), options: options)
      try appendEvents(writer, 1...3_000)
      faults.fail(step, with: cause)
      #expect {
        try writer.close()
      } throws: { error in
        let error = error as! JournalError
        return error.path == path && !"\(error)".contains(".tmp")
          && "\(error)".contains(String(cString: strerror(cause)))
      }
      let unchanged = bytes(of: path) == previous
      #expect(unchanged, "\(step)")
      #expect(contents(of: directory) == ["batch.journal"], "\(step)")
      faults.heal()
      if step == .write {
        // A failed write is retried: the journal is then closed and moved into place.
        try writer.close()
        #expect(isExpected(try readAll(JournalReader(path: path)), 1...3_000))
        write(previous, to: path)
      } else {
        // After a failed commit the writer is done; its file is gone.
        #expect(throws: JournalError.self, "\(step)") { try writer.close() }
      }
    }
    #expect(contents(of: directory) == ["batch.journal"])
  }

  @Test("a journal being written is not replaced, and an existing file needs permission")
  func refusals() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("live.journal")
    let live = try JournalWriter.create(at: path, header: header())
    #expect {
      try JournalWriter.create(
        FileDestination(path, replacingExisting: true), header: header())
    } throws: { error in
      (error as! JournalError).code == .locked
    }
    try live.close()
    #expect {
      try JournalWriter.create(FileDestination(path), header: header())
    } throws: { error in
      (error as! JournalError).code == .alreadyExists
    }
    #expect {
      try JournalWriter.create(FileDestination(path, inputs: [path]), header: header())
    } throws: { error in
      (error as! JournalError).code == .outputIsInput
    }
  }

  @Test("a journal created in place is removed again when its header cannot be written")
  func inPlaceFailure() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("live.journal")
    for step in [FileStep.write, .syncFile, .syncDirectory, .lock] {
      let faults = FaultyFileSystem()
      faults.fail(step, with: step == .lock ? ENOLCK : ENOSPC)
      var options = JournalWriterOptions()
      options.system = faults.calls
      #expect(throws: JournalError.self, "\(step)") {
        try JournalWriter.create(at: path, header: header(), options: options)
      }
      #expect(contents(of: directory).isEmpty, "\(step)")
    }
  }

  @Test(
    "a live journal replacing a file takes its name after the header: another name of the previous file keeps its bytes"
  )
  func inPlaceReplacing() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("live.journal")
    try makeJournal(at: path, count: 100)
    let previous = bytes(of: path)
    // A second name of the file (a backup by hard link), and a symbolic link to it.
    let backup = directory.file("backup.journal")
    try FileManager.default.linkItem(atPath: path, toPath: backup)
    let link = directory.file("link.journal")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
    for target in [path, link] {
      let writer = try JournalWriter.create(at: target, header: header(), replacingExisting: true)
      try appendEvents(writer, 1...10)
      try writer.close()
      #expect(isExpected(try readAll(JournalReader(path: target)), 1...10))
    }
    #expect(bytes(of: backup) == previous)
    // The symbolic link was replaced itself, as every writer replaces one.
    #expect(
      (try FileManager.default.attributesOfItem(atPath: link)[.type] as? FileAttributeType)
        == .typeRegular)

    // The header not written, or its name not taken: the previous file stays, and nothing
    // else.
    write(previous, to: path)
    for step in [FileStep.write, .syncFile, .rename, .syncDirectory] {
      let faults = FaultyFileSystem()
      faults.fail(step, with: ENOSPC)
      var options = JournalWriterOptions()
      options.system = faults.calls
      #expect("\(step)") {
        try JournalWriter.create(
          at: path, header: header(), options: options, replacingExisting: true)
      } throws: { error in
        // The header unwritten: said so, naming no place in the new file.
        let text = "\(error)"
        return step != .write
          || text.hasSuffix("; the previous file is left as it was") && !text.contains("at byte")
      }
      #expect(bytes(of: path) == previous, "\(step)")
      #expect(contents(of: directory) == ["backup.journal", "link.journal", "live.journal"])
    }
  }

  @Test(
    "a process killed while writing a batch journal leaves nothing behind",
    .enabled(if: ProcessInfo.processInfo.environment["REWIND_NO_O_TMPFILE"] == nil))
  func killed() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("batch.journal")
    let child = Process()
    child.executableURL = URL(fileURLWithPath: productsDirectory + "/JournalCrashWriter")
    child.arguments = [path, "3", "batch"]
    let pipe = Pipe()
    child.standardOutput = pipe
    try child.run()
    _ = pipe.fileHandleForReading.availableData  // it has appended and flushed
    kill(child.processIdentifier, SIGKILL)
    child.waitUntilExit()
    #expect(child.terminationReason == .uncaughtSignal)
    #expect(contents(of: directory).isEmpty)
  }
}
