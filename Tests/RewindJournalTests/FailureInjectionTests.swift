import Foundation
import JournalFixtures
import TestSupport
import Testing

@testable import RewindJournal

@Suite("I/O failures")
struct FailureInjectionTests {
  @Test("a full disk fails the append, leaves the file whole, and a retry loses nothing")
  func diskFull() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    let faults = FaultyFileSystem()
    var options = JournalWriterOptions(frameSize: 1024, durability: .sealedFrames)
    options.system = faults.calls
    let writer = try JournalWriter.create(at: path, header: header(), options: options)
    try appendEvents(writer, 1...300)
    try writer.flush()
    let sizeBefore = bytes(of: path).count

    faults.fail(.write, with: ENOSPC, partialWrite: 100)
    var appended: UInt64 = 300
    var failure: JournalError?
    for sequence in 301...1_000 as ClosedRange<UInt64> {
      do {
        if writer.needsSnapshot { try writer.addSnapshot(snapshot(after: writer.lastSequence)) }
        try writer.append(time: time(for: sequence), payload: payload(for: sequence))
        appended = sequence
      } catch {
        failure = error
        break
      }
    }
    let error = try #require(failure)
    #expect(error.code == .io)
    #expect(error.description.contains("No space left on device (errno 28)"))
    #expect(error.description.contains("are not written yet and stay buffered"))
    #expect(bytes(of: path).count == sizeBefore, "the partial write was cut away")
    #expect(try Journal.verify(path: path).problems.allSatisfy { $0.kind != .frame })

    faults.heal()
    try appendEvents(writer, (appended + 1)...1_000)
    try writer.close()
    #expect(isExpected(try readAll(JournalReader(path: path)), 1...1_000))
    #expect(try Journal.verify(path: path).isClean)
  }

  @Test("a failed fsync makes the writer refuse further work with the cause")
  func fsyncFailure() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    let faults = FaultyFileSystem()
    var options = JournalWriterOptions(frameSize: 1024)
    options.system = faults.calls
    let writer = try JournalWriter.create(at: path, header: header(), options: options)
    try appendEvents(writer, 1...100)
    try writer.flush()
    try appendEvents(writer, 101...150)
    faults.fail(.syncFile, with: EIO)
    #expect {
      try writer.flush()
    } throws: { error in
      let error = error as! JournalError
      return error.code == .io && "\(error)".contains("cannot sync the file to disk")
        && "\(error)".contains("may not be durable")
    }
    faults.heal()
    #expect {
      try writer.append(time: time(for: 151), payload: payload(for: 151))
    } throws: { error in
      let error = error as! JournalError
      return error.code == .closed
        && "\(error)".contains("the writer stopped after an earlier failure")
    }
    #expect(isExpected(try readAll(JournalReader(path: path)), 1...150))
  }

  @Test("a journal cannot be created where the directory does not exist")
  func missingDirectory() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("missing/a.journal")
    #expect {
      try JournalWriter.create(at: path, header: header())
    } throws: { error in
      let error = error as! JournalError
      return error.code == .notFound
        && "\(error)".hasPrefix(
          "\(path): cannot create the file: there is no directory \(directory.file("missing"))")
    }
  }
}

@Suite("Writer limits")
struct WriterLimitTests {
  @Test("times beyond 2^63 − 1 µs are refused")
  func timeLimit() throws {
    let directory = TemporaryDirectory()
    let writer = try JournalWriter.create(
      at: directory.file("a.journal"), header: header(), options: .init(durability: .none))
    #expect {
      try writer.append(time: UInt64(Int64.max) + 1, payload: [1])
    } throws: { error in
      "\(error)".contains("is beyond the largest time a journal holds")
    }
    try writer.append(time: UInt64(Int64.max), payload: [1])
    try writer.close()
    #expect(try Journal.verify(path: directory.file("a.journal")).isClean)
  }

  @Test("large snapshots seal frames early, so every frame header stays readable")
  func largeSnapshots() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    let writer = try JournalWriter.create(
      at: path, header: header(interval: 1), options: .init(frameSize: 1 << 20, durability: .none))
    let state = [UInt8](repeating: 7, count: 1 << 20)
    for sequence in 1...40 as ClosedRange<UInt64> {
      if writer.needsSnapshot {
        try writer.addSnapshot(Snapshot(sequence: writer.lastSequence, stateHash: 1, state: state))
      }
      try writer.append(time: sequence, payload: [1])
    }
    try writer.close()
    let reader = try JournalReader(path: path)
    #expect(reader.frames.count > 2)
    for index in reader.frames.indices { _ = try reader.loadFrame(index) }
    #expect(try Journal.verify(path: path).isClean)
  }
}
