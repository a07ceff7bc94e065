import Foundation
import JournalFixtures
import Synchronization
import TestSupport
import Testing

@testable import RewindJournal

@Suite("Crash safety", .serialized)
struct CrashTests {
  /// Runs the child writer until it has acknowledged some flushes and a random moment
  /// has passed, kills it with SIGKILL, and returns the last acknowledged sequence.
  func runAndKill(_ path: String, seed: UInt64, delay: useconds_t) throws -> UInt64 {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: productsDirectory + "/JournalCrashWriter")
    child.arguments = [path, String(seed)]
    let pipe = Pipe()
    child.standardOutput = pipe
    try child.run()
    let reading = pipe.fileHandleForReading
    var received = Data()
    // Wait for the first acknowledgement, then let it run a little longer.
    while !received.contains(UInt8(ascii: "\n")) {
      let chunk = reading.availableData
      if chunk.isEmpty { break }
      received.append(chunk)
    }
    usleep(delay)
    kill(child.processIdentifier, SIGKILL)
    child.waitUntilExit()
    received.append(reading.readDataToEndOfFile())
    #expect(child.terminationReason == .uncaughtSignal)
    let lines = String(decoding: received, as: UTF8.self).split(separator: "\n")
    // A line cut by the kill is not an acknowledgement.
    let complete = received.last == UInt8(ascii: "\n") ? lines : lines.dropLast()
    return complete.compactMap { UInt64($0.split(separator: " ").last ?? "") }.max() ?? 0
  }

  @Test("kill -9 at random moments never loses a flushed record or keeps a partial one")
  func killedWriter() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("crash.journal")
    let seed = testSeed("killedWriter")
    var generator = SplitMix64(seed: seed)
    var acknowledged: UInt64 = 0
    var passedZstdBeforeRecovery = 0
    for round in 0..<60 {
      let delay = useconds_t.random(in: 0...15_000, using: &generator)
      let flushed = try runAndKill(path, seed: generator.next() | 1, delay: delay)
      acknowledged = max(acknowledged, flushed)

      // Before recovery: the walk sees every acknowledged record.
      let before = try JournalReader(path: path)
      #expect(before.lastSequence >= acknowledged)
      if zstdTool != nil, try zstdAccepts(path) {
        passedZstdBeforeRecovery += 1
      } else {
        #expect(before.condition.tornTail != nil, "zstd rejects only a torn tail")
      }

      let report = try Journal.recover(path: path)
      #expect(
        report.lastSequence >= acknowledged, "round \(round): lost flushed records, seed \(seed)")
      if report.changed {
        #expect(report.originalKeptAt == path + ".damaged")
        try FileManager.default.removeItem(atPath: path + ".damaged")
      }
      let reader = try JournalReader(path: path)
      #expect(reader.condition.openedFromIndex)
      let records = try readAll(reader)
      #expect(isExpected(records, 1...report.lastSequence), "round \(round), seed \(seed)")
      let verification = try Journal.verify(path: path)
      #expect(verification.isClean, "\(verification.problems)")
      if zstdTool != nil { #expect(try zstdAccepts(path), "round \(round)") }
      acknowledged = report.lastSequence
    }
    #expect(acknowledged > 0)
    print(
      "crash test: \(passedZstdBeforeRecovery) of 60 killed journals passed zstd -t before recovery"
    )
  }

  @Test("a second writer in another process gets the lock error with the holder's pid")
  func lockAcrossProcesses() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("locked.journal")
    let child = Process()
    child.executableURL = URL(fileURLWithPath: productsDirectory + "/JournalCrashWriter")
    child.arguments = [path, "7"]
    let pipe = Pipe()
    child.standardOutput = pipe
    try child.run()
    defer {
      kill(child.processIdentifier, SIGKILL)
      child.waitUntilExit()
    }
    _ = pipe.fileHandleForReading.availableData  // the child has written and holds the lock
    #expect {
      try JournalWriter.open(at: path, domain: "test", schemaVersion: 1)
    } throws: { error in
      let error = error as! JournalError
      return error.code == .locked
        && error.description.hasSuffix(
          "journal is being written by another process (pid \(child.processIdentifier))")
    }
    #expect {
      try Journal.recover(path: path)
    } throws: { error in
      (error as! JournalError).code == .locked
    }
    // Readers never wait for the writer.
    #expect(try JournalReader(path: path).lastSequence > 0)
  }

  @Test("a second writer in this process fails while the first keeps writing correctly")
  func lockInProcess() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    let first = try JournalWriter.create(
      at: path, header: header(), options: .init(frameSize: 1024, durability: .none))
    try appendEvents(first, 1...500)
    #expect {
      try JournalWriter.open(at: path, domain: "test", schemaVersion: 1)
    } throws: { error in
      "\(error)".hasSuffix(
        "journal is being written by another writer in this process (pid \(getpid())); close that one first"
      )
    }
    #expect(throws: JournalError.self) {
      try JournalWriter.create(at: path, header: header(), replacingExisting: true)
    }
    try appendEvents(first, 501...1_000)
    try first.close()
    #expect(isExpected(try readAll(JournalReader(path: path)), 1...1_000))
    // Closing releases the lock.
    let again = try JournalWriter.open(at: path, domain: "test", schemaVersion: 1)
    try again.close()
  }

  @Test("a writer kept out by the read lock of a file's replacement is told so")
  func writerKeptOutByAReadLock() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 300, close: false)
    // As `rewind export -o a.journal --force` would, while it writes the new file.
    let replacing = try AtomicFileWriter(FileDestination(path, replacingExisting: true))
    #expect {
      try JournalWriter.open(at: path, domain: "test", schemaVersion: 1)
    } throws: { error in
      (error as? JournalError)?.code == .locked
        && "\(error)".hasSuffix(
          "journal is being read by a recovery or a replacement of the file, which keeps writers out until it ends"
        )
    }
    replacing.discard()
    let writer = try JournalWriter.open(at: path, domain: "test", schemaVersion: 1)
    try writer.close()
  }

  /// A child process that another thread is starting holds a copy of every descriptor
  /// until it execs (`O_CLOEXEC` closes them only then). A journal file closed meanwhile
  /// must not stay locked by that copy: its lock is released before it closes. The copy
  /// is a `dup` here, taken as each journal file opens and kept to the end.
  @Test(
    "a journal file's lock goes when the file does, while a copy of its descriptor lives on")
  func lockReleasedWhileACopyOfTheDescriptorLives() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 300, close: false)
    write(bytes(of: path) + Array("torn tail".utf8), to: path)
    let copies = Mutex<[Int32]>([])
    defer { for copy in copies.withLock({ $0 }) { close(copy) } }
    var copying = FileSystemCalls.live
    copying.open = { path, flags, mode in
      let descriptor = FileSystemCalls.live.open(path, flags, mode)
      if descriptor >= 0 { copies.withLock { $0.append(dup(descriptor)) } }
      return descriptor
    }
    var options = JournalWriterOptions()
    options.system = copying
    /// A writer opening the journal is refused for its torn tail (it found that under the
    /// lock), not for a lock.
    func refusedAsTorn(
      _ options: JournalWriterOptions = .init(), sourceLocation: SourceLocation = #_sourceLocation
    ) {
      #expect(sourceLocation: sourceLocation) {
        try JournalWriter.open(at: path, domain: "test", schemaVersion: 1, options: options)
      } throws: {
        ($0 as? JournalError)?.code == .tornTail
      }
    }
    refusedAsTorn(options)
    refusedAsTorn()
    // Replacing a file read-locks it until the writer is discarded.
    let replacing = try AtomicFileWriter(
      FileDestination(path, replacingExisting: true), system: copying)
    replacing.discard()
    refusedAsTorn()
    _ = try Journal.recover(path: path)
    // A writer that is dropped without closing (its events flushed).
    do {
      let dropped = try JournalWriter.open(
        at: path, domain: "test", schemaVersion: 1, options: options)
      try appendEvents(dropped, 301...310)
      try dropped.flush()
    }
    let reopened = try JournalWriter.open(at: path, domain: "test", schemaVersion: 1)
    try reopened.close()
    // An unlock that fails as the writer closes is tried again as its file goes.
    let unlocks = Atomic(0)
    copying.fcntlLock = { descriptor, command, lock in
      if lock.pointee.l_type == Int16(F_UNLCK), lock.pointee.l_start == 0,
        unlocks.add(1, ordering: .relaxed).newValue == 1
      {
        errno = EIO
        return -1
      }
      return FileSystemCalls.live.fcntlLock(descriptor, command, lock)
    }
    options.system = copying
    do {
      let failingToUnlock = try JournalWriter.open(
        at: path, domain: "test", schemaVersion: 1, options: options)
      try appendEvents(failingToUnlock, 311...320)
      try failingToUnlock.close()
    }
    #expect(unlocks.load(ordering: .relaxed) == 2)
    let last = try JournalWriter.open(at: path, domain: "test", schemaVersion: 1)
    try last.close()
    #expect(isExpected(try readAll(JournalReader(path: path)), 1...320))
    #expect(copies.withLock { $0.count } >= 4)
  }
}
