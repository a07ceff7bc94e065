import Foundation
import JournalFixtures
import TestSupport
import Testing

@testable import RewindJournal

@Suite("I/O errors at every call", .serialized)
struct IOErrorTests {
  /// Creates a journal in place, appends and flushes, closes; continues it, appends,
  /// flushes, closes. Stops at the first error, which it returns, noting what was
  /// acknowledged.
  func record(at path: String, _ system: FileSystemCalls, _ acknowledged: inout Acknowledged)
    -> (any Error)?
  {
    var options = JournalWriterOptions(frameSize: 1024, durability: .sealedFrames)
    options.system = system
    // The first writer is gone (its descriptor closed) before the second opens.
    func first(_ acknowledged: inout Acknowledged) throws {
      let writer = try JournalWriter.create(
        at: path, header: header(interval: 40), options: options)
      acknowledged.created = true
      for sequence in 1...250 as ClosedRange<UInt64> {
        try appendEvents(writer, sequence...sequence)
        acknowledged.sequence = max(acknowledged.sequence, writer.frames.last?.lastSequence ?? 0)
        if sequence == 120 {
          try writer.flush()
          acknowledged.sequence = 120
        }
      }
      try writer.close()
      acknowledged.sequence = 250
    }
    do {
      try first(&acknowledged)
      let continued = try JournalWriter.open(
        at: path, domain: "test", schemaVersion: 1, options: options)
      try appendEvents(continued, 251...400)
      try continued.flush()
      acknowledged.sequence = 400
      try appendEvents(continued, 401...450)
      try continued.close()
      acknowledged.sequence = 450
      return nil
    } catch {
      return error
    }
  }

  @Test(
    "recording and continuing: the error surfaces, nothing acknowledged is lost, the journal stays valid"
  )
  func recordingAndContinuing() throws {
    let counting = FaultyFileSystem()
    do {
      let directory = TemporaryDirectory()
      var acknowledged = Acknowledged()
      #expect(record(at: directory.file("a.journal"), counting.calls, &acknowledged) == nil)
    }
    let calls = counting.callCount
    var surfaced = 0
    var harmless = 0
    for call in 1...calls {
      for (number, persisting) in injectedErrors(atCall: call, standard: 2) {
        let directory = TemporaryDirectory()
        let path = directory.file("a.journal")
        let faults = FaultyFileSystem()
        faults.failCall(call, with: number, persisting: persisting)
        var acknowledged = Acknowledged()
        let failure = record(at: path, faults.calls, &acknowledged)
        faults.heal()
        let what =
          "call \(call) of \(calls) (\(counting.call(call))) failing with \(String(cString: strerror(number)))\(persisting ? " from then on" : "")"
        if let failure {
          surfaced += 1
          #expect(isClear(failure, naming: path, errno: number), "\(what): \(failure)")
        } else {
          harmless += 1
        }
        try checkJournal(path, acknowledged: acknowledged, complete: failure == nil, what)
      }
    }
    print(
      "I/O errors, journal writer: \(calls) calls, \(surfaced + harmless) failures: \(surfaced) surfaced, \(harmless) harmless (the journal complete all the same)"
    )
  }

  /// After a failure: the journal at `path`, if its creation returned, opens (after
  /// `recover` if it needs it) and holds events 1…n, n at least the acknowledged; a run
  /// that reported no error left all 450 events in a clean, closed journal.
  func checkJournal(
    _ path: String, acknowledged: Acknowledged, complete: Bool, _ what: String
  ) throws {
    guard FileManager.default.fileExists(atPath: path) else {
      #expect(!acknowledged.created, "\(what): the journal is gone")
      return
    }
    guard acknowledged.created else {
      // A creation that failed removes what it created, unless the removal failed too.
      return
    }
    var verification = try Journal.verify(path: path)
    if !verification.isClean {
      #expect(!complete, "\(what): a run without an error left \(verification.problems)")
      let report = try Journal.recover(path: path)
      #expect(report.lastSequence >= acknowledged.sequence, "\(what)")
      verification = try Journal.verify(path: path)
      #expect(verification.isClean, "\(what): \(verification.problems)")
    }
    let reader = try JournalReader(path: path)
    let records = try readAll(reader)
    #expect(records.count >= Int(acknowledged.sequence), "\(what): acknowledged events lost")
    #expect(isExpected(records, 1...UInt64(max(records.count, 1))) || records.isEmpty, "\(what)")
    if complete {
      #expect(records.count == 450 && reader.condition.isClosed, "\(what)")
    }
  }

  @Test("recovering: the error surfaces, the original stays as it was, recovery runs again")
  func recovering() throws {
    let directory = TemporaryDirectory()
    let original = directory.file("original.journal")
    try makeJournal(at: original, count: 400, interval: 40, close: false)
    let torn = bytes(of: original) + Array("torn tail".utf8)
    let counting = FaultyFileSystem()
    let path = directory.file("a.journal")
    write(torn, to: path)
    _ = try Journal.recover(path: path, output: nil, salvage: false, system: counting.calls)
    let calls = counting.callCount
    var surfaced = 0
    var trials = 0
    for call in 1...calls {
      for (number, persisting) in injectedErrors(atCall: call, standard: 2) {
        trials += 1
        try? FileManager.default.removeItem(atPath: path + ".damaged")
        write(torn, to: path)
        let faults = FaultyFileSystem()
        faults.failCall(call, with: number, persisting: persisting)
        let what =
          "call \(call) of \(calls) (\(counting.call(call))) failing with \(String(cString: strerror(number)))\(persisting ? " from then on" : "")"
        do {
          _ = try Journal.recover(path: path, output: nil, salvage: false, system: faults.calls)
        } catch {
          surfaced += 1
          #expect(isClear(error, naming: path, errno: number), "\(what): \(error)")
          // The original stays, unless the disk failed even the withdrawal of the new
          // file, which the error then says.
          #expect(
            bytes(of: path) == torn || "\(error)".contains("it is in place"),
            "\(what): the original changed: \(error)")
          faults.heal()
          // Recovery runs again, whatever the failure left behind.
          _ = try Journal.recover(path: path)
        }
        #expect(try Journal.verify(path: path).isClean, "\(what)")
        #expect(isExpected(try readAll(JournalReader(path: path)), 1...400), "\(what)")
        #expect(bytes(of: path + ".damaged") == torn, "\(what)")
        var left = contents(of: directory).filter { $0.hasSuffix(".tmp") }
        // A failed removal of the original's temporary name after the swap leaves a second
        // name of the kept original (harmless): the next recovery, finding the journal
        // whole, removes it.
        if !persisting, !left.isEmpty,
          left.allSatisfy({ sameFile(directory.file($0), path + ".damaged") })
        {
          _ = try Journal.recover(path: path)
          left = contents(of: directory).filter { $0.hasSuffix(".tmp") }
        }
        #expect(persisting || left.isEmpty, "\(what): left behind \(left)")
        for name in left { try FileManager.default.removeItem(atPath: directory.file(name)) }
      }
    }
    print(
      "I/O errors, recover: \(calls) calls, \(trials) failures: \(surfaced) surfaced")
  }
}

/// Whether two paths name one file (a device and inode).
private func sameFile(_ first: String, _ second: String) -> Bool {
  var one = stat()
  var two = stat()
  return stat(first, &one) == 0 && stat(second, &two) == 0 && one.st_dev == two.st_dev
    && one.st_ino == two.st_ino
}
