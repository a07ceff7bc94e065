import Dispatch
import Foundation
import Observation
import Synchronization
import TestSupport
import Testing

@testable import RewindCore
@testable import RewindJournal

/// A clock that advances 250 µs each time it is read.
func steppingClock() -> @Sendable () -> UInt64 {
  let ticks = Atomic<UInt64>(0)
  return { ticks.add(250, ordering: .relaxed).newValue }
}

/// System calls whose `pwrite` fails with a chosen errno while `failure` is non-zero.
final class FailingWrites: Sendable {
  let failure = Atomic<Int32>(0)

  var options: RecordingOptions {
    var journal = JournalWriterOptions(frameSize: 1024, durability: .flushOnly)
    var calls = FileSystemCalls.live
    let live = FileSystemCalls.live
    calls.pwrite = { [self] fd, buffer, count, offset in
      let errorNumber = failure.load(ordering: .relaxed)
      guard errorNumber == 0 else {
        errno = errorNumber
        return -1
      }
      return live.pwrite(fd, buffer, count, offset)
    }
    journal.system = calls
    return RecordingOptions(snapshotInterval: 32, journal: journal, durableWithin: nil)
  }
}

/// System calls that count the `fsync`s of one file, recognised by its device and inode
/// (a descriptor of another file does not count), and, while `holding`, keep each of them
/// waiting until the test releases it; and that count the `fsync`s of its directory, which
/// make its name durable.
final class HeldSyncs: Sendable {
  let path: String
  let holding = Atomic<Bool>(false)
  /// The file's fsyncs begun and finished.
  let begun = Atomic<Int>(0)
  let finished = Atomic<Int>(0)
  /// The fsyncs of the file's directory (finished).
  let directorySyncs = Atomic<Int>(0)
  private let released = DispatchSemaphore(value: 0)

  init(path: String) { self.path = path }

  var calls: FileSystemCalls {
    var calls = FileSystemCalls.live
    let live = calls
    calls.fsync = { [self] descriptor in
      if isDirectory(descriptor) {
        let result = live.fsync(descriptor)
        directorySyncs.add(1, ordering: .relaxed)
        return result
      }
      guard isFile(descriptor) else { return live.fsync(descriptor) }
      begun.add(1, ordering: .relaxed)
      if holding.load(ordering: .relaxed) {
        // Held until the test lets it go. The bound only keeps a broken test from hanging
        // CI; it is long, because a busy machine can keep the test's task from running
        // for many seconds, and a fsync let go early would fail the test wrongly.
        _ = released.wait(timeout: .now() + .seconds(600))
      }
      let result = live.fsync(descriptor)
      finished.add(1, ordering: .relaxed)
      return result
    }
    return calls
  }

  /// Lets one held fsync go on.
  func releaseOne() { released.signal() }

  private func isFile(_ descriptor: Int32) -> Bool { refers(descriptor, to: path) }

  private func isDirectory(_ descriptor: Int32) -> Bool {
    refers(descriptor, to: (path as NSString).deletingLastPathComponent)
  }

  private func refers(_ descriptor: Int32, to path: String) -> Bool {
    var open = stat()
    var named = stat()
    guard fstat(descriptor, &open) == 0, stat(path, &named) == 0 else { return false }
    return open.st_dev == named.st_dev && open.st_ino == named.st_ino
  }
}

/// Whether some work on another thread or task has finished, and how.
final class Flag: Sendable {
  private let outcome = Mutex<Result<Void, any Error>?>(nil)

  func finish(with result: Result<Void, any Error>) { outcome.withLock { $0 = result } }

  var isDone: Bool { outcome.withLock { $0 != nil } }

  /// The error it finished with, if any.
  var failure: String? {
    outcome.withLock { result in
      if case .failure(let error) = result { return "\(error)" }
      return nil
    }
  }
}

/// Whether `condition` becomes true within `seconds`, checking every millisecond.
func eventually(within seconds: Int = 30, _ condition: () -> Bool) async -> Bool {
  let deadline = ContinuousClock.now + .seconds(seconds)
  while !condition() {
    if ContinuousClock.now > deadline { return false }
    try? await Task.sleep(for: .milliseconds(1))
  }
  return true
}

/// Whether `condition` stays true for 100 ms, long enough for work that does not wait
/// to have finished.
func staysTrue(_ condition: () -> Bool) async -> Bool {
  let end = ContinuousClock.now + .milliseconds(100)
  while ContinuousClock.now < end {
    if !condition() { return false }
    try? await Task.sleep(for: .milliseconds(1))
  }
  return condition()
}

@Suite("Store: recording a live session")
struct StoreTests {
  @Test(
    "a recorded session replays to the store's state at every point",
    arguments: [3, 17, 2024] as [UInt64])
  func recordAndReplay(seed: UInt64) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("live.journal")
    let store = try Store(
      domain: StandardTally(), recordingTo: path, session: testSession,
      options: RecordingOptions(snapshotInterval: 50, journal: .init(frameSize: 1024)),
      clock: steppingClock())
    var states = [store.state]
    for item in TallyEvents(seed: seed).prefix(3_000) {
      store.send(item.event)
      states.append(store.state)
    }
    try store.close()
    let timeline = try Timeline<StandardTally>(path: path)
    #expect(timeline.lastSequence == 3_000)
    for sequence in 0...3_000 {
      #expect(try timeline.state(after: UInt64(sequence)) == states[sequence])
    }
    #expect(try timeline.check().passed)
    #expect(try timeline.resolve(.offset(microseconds: 250 * 1_000)) == 1_000)
  }

  /// A recording store the app releases without `close()` is freed, and its writer
  /// records what was queued and closes the journal: the writer's thread held it for its
  /// whole life (the store was never freed, the journal never closed, and a new store of
  /// the same path in the process was refused as a second writer).
  @Test("a store released without close() is freed, and the journal closed")
  func releasedStoreClosesItsJournal() async throws {
    let directory = TemporaryDirectory()
    let path = directory.file("released.journal")
    weak var released: Store<StandardTally>?
    do {
      let store = try Store(
        domain: StandardTally(), recordingTo: path, session: testSession,
        clock: steppingClock())
      released = store
      #expect(store.isRecording)
      #expect(!Store(domain: StandardTally()).isRecording)
      for item in TallyEvents(seed: 5).prefix(500) { store.send(item.event) }
      // The writer's thread is running (it held the store from its start).
      try store.flushAndWait()
      for item in TallyEvents(seed: 6).prefix(100) { store.send(item.event) }
    }
    #expect(released == nil)
    let deadline = Date().addingTimeInterval(20)
    while !(try JournalReader(path: path).condition.isClosed), Date() < deadline {
      try await Task.sleep(for: .milliseconds(20))
    }
    let timeline = try Timeline<StandardTally>(path: path)
    #expect(timeline.reader.condition.isClosed)
    #expect(timeline.lastSequence == 600)
    // The lock is released (a moment after the journal reads closed): the session can
    // be continued in this process.
    var continuing: Store<StandardTally>?
    while continuing == nil {
      do {
        continuing = try Store<StandardTally>(continuing: path)
      } catch let error as JournalError where error.code == .locked && Date() < deadline {
        try await Task.sleep(for: .milliseconds(20))
      }
    }
    let continued = try #require(continuing)
    try continued.close()
    #expect(!continued.isRecording, "closed")
  }

  /// Frames sealed and synced as they fill make their events durable without a flush:
  /// `pendingCount` counted them until a flush (a user saw 579,331 pending with 452
  /// frames synced and on the server).
  @Test("pendingCount falls as frames are sealed and synced, without a flush")
  func pendingFallsAsFramesAreSealed() async throws {
    let directory = TemporaryDirectory()
    let store = try Store(
      domain: StandardTally(), recordingTo: directory.file("sealed.journal"),
      session: testSession,
      options: RecordingOptions(
        snapshotInterval: 64, journal: .init(frameSize: 1024), durableWithin: nil),
      clock: steppingClock())
    for item in TallyEvents(seed: 8).prefix(5_000) { store.send(item.event) }
    let deadline = Date().addingTimeInterval(20)
    while store.pendingCount > 1_000, Date() < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(store.pendingCount <= 1_000, "\(store.pendingCount) of 5,000 pending")
    try store.close()
    #expect(store.pendingCount == 0)
  }

  @Test("concurrent sends are serialised in one order, the journal's")
  func concurrentSends() async throws {
    let directory = TemporaryDirectory()
    let path = directory.file("concurrent.journal")
    let store = try Store(
      domain: StandardTally(), recordingTo: path, session: testSession, clock: steppingClock())
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<4 {
        group.addTask {
          for index in 0..<2_000 {
            store.send(.added(Int64(task * 200 + index % 200 + 1)))
          }
        }
      }
    }
    try await store.flush()
    let finalState = store.state
    try store.close()
    let timeline = try Timeline<StandardTally>(path: path)
    #expect(timeline.lastSequence == 8_000)
    #expect(try timeline.state(at: .end) == finalState)
    var perTask = [[Int64]](repeating: [], count: 4)
    try timeline.events(from: 1, through: 8_000) { event, _, _ in
      guard case .added(let amount) = event.event else { return false }
      perTask[Int((amount - 1) / 200)].append((amount - 1) % 200)
      return true
    }
    for task in 0..<4 {
      #expect(perTask[task] == (0..<2_000).map { Int64($0 % 200) }, "task \(task)'s order")
    }
  }

  @Test("flush returns only after the fsyncs of the journal and its directory")
  func flushIsDurable() async throws {
    let directory = TemporaryDirectory()
    let path = directory.file("flush.journal")
    let syncs = HeldSyncs(path: path)
    // fsync on flush and close only, so that each flush makes exactly one.
    var journal = JournalWriterOptions(durability: .flushOnly)
    journal.system = syncs.calls
    let store = try Store(
      domain: StandardTally(), recordingTo: path, session: testSession,
      options: RecordingOptions(journal: journal, durableWithin: nil), clock: steppingClock())
    // Creating the journal synced it once, and its directory, so that its name survives
    // too: the first flush is as durable as the others.
    let created = syncs.finished.load(ordering: .relaxed)
    #expect(syncs.directorySyncs.load(ordering: .relaxed) >= 1, "the directory was not synced")
    syncs.holding.store(true, ordering: .relaxed)
    var sent = 0
    for round in 1...4 {
      for _ in 0..<(round * 37) { store.send(.toggled) }
      sent += round * 37
      let flush = Flag()
      if round.isMultiple(of: 2) {
        Task.detached {
          do {
            try await store.flush()
            flush.finish(with: .success(()))
          } catch {
            flush.finish(with: .failure(error))
          }
        }
      } else {
        Thread { flush.finish(with: Result { try store.flushAndWait() }) }.start()
      }
      // The writer reaches the fsync of the journal file and waits there...
      #expect(await eventually { syncs.begun.load(ordering: .relaxed) == created + round })
      // ...and the flush does not return meanwhile.
      #expect(await staysTrue { !flush.isDone }, "round \(round): flush returned before fsync")
      syncs.releaseOne()
      #expect(await eventually { flush.isDone })
      #expect(flush.failure == nil)
      #expect(syncs.finished.load(ordering: .relaxed) == created + round)
      let reader = try JournalReader(path: path)
      #expect(reader.lastSequence == UInt64(sent))
    }
    syncs.holding.store(false, ordering: .relaxed)
    try store.close()
    #expect(syncs.finished.load(ordering: .relaxed) == created + 5, "four flushes, the close")
  }

  @Test(
    "events sent are made durable within durableWithin without a flush, and pendingCount counts those not yet"
  )
  func durableWithoutFlush() async throws {
    let directory = TemporaryDirectory()
    for within in [Duration.milliseconds(50), nil] {
      let path = directory.file("unflushed-\(within == nil).journal")
      let store = try Store(
        domain: StandardTally(), recordingTo: path, session: testSession,
        options: RecordingOptions(durableWithin: within), clock: steppingClock())
      for item in TallyEvents(seed: 9).prefix(200) { store.send(item.event) }
      if within != nil {
        // Sealed and synced by the writer: on disk for a reader, none pending.
        #expect(await eventually { store.pendingCount == 0 })
        #expect(try JournalReader(path: path).lastSequence == 200)
      } else {
        // Written into the frame being filled, not durable: all of them pending, and
        // none in the file for a reader (a kill -9 would lose them).
        #expect(await staysTrue { store.pendingCount == 200 })
        #expect(try JournalReader(path: path).lastSequence == 0)
        try store.flushAndWait()
        #expect(store.pendingCount == 0)
      }
      try store.close()
    }
  }

  @Test("sends go on while the writer is stuck in a system call, and nothing is lost")
  func writerStuck() async throws {
    let directory = TemporaryDirectory()
    let path = directory.file("stuck.journal")
    let syncs = HeldSyncs(path: path)
    var journal = JournalWriterOptions(durability: .flushOnly)
    journal.system = syncs.calls
    let store = try Store(
      domain: StandardTally(), recordingTo: path, session: testSession,
      options: RecordingOptions(journal: journal, durableWithin: nil), clock: steppingClock())
    let created = syncs.finished.load(ordering: .relaxed)
    syncs.holding.store(true, ordering: .relaxed)
    store.send(.added(1))
    let flush = Flag()
    Thread { flush.finish(with: Result { try store.flushAndWait() }) }.start()
    #expect(await eventually { syncs.begun.load(ordering: .relaxed) == created + 1 })
    let sends = Flag()
    Thread {
      for _ in 0..<100_000 { store.send(.added(1)) }
      sends.finish(with: .success(()))
    }.start()
    #expect(await eventually { sends.isDone }, "sends waited for the stuck writer")
    // Every event sent is pending, the first too: the flush that makes it durable is stuck.
    #expect(store.pendingCount == 100_001)
    #expect(!flush.isDone)
    syncs.holding.store(false, ordering: .relaxed)
    syncs.releaseOne()
    #expect(await eventually { flush.isDone })
    try await store.flush()
    #expect(store.pendingCount == 0)
    try store.close()
    let timeline = try Timeline<StandardTally>(path: path)
    #expect(timeline.lastSequence == 100_001)
    #expect(try timeline.state(at: .end).value == 100_001)
  }

  @Test("a full disk is surfaced, nothing is dropped, and recording resumes when it clears")
  func fullDisk() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("full.journal")
    let failures = FailingWrites()
    let reported = Mutex<[String]>([])
    let store = try Store(
      domain: StandardTally(), recordingTo: path, session: testSession,
      options: failures.options, clock: steppingClock(),
      onError: { error in reported.withLock { $0.append("\(error)") } })
    for _ in 0..<100 { store.send(.added(1)) }
    try store.flushAndWait()
    failures.failure.store(ENOSPC, ordering: .relaxed)
    for _ in 0..<500 { store.send(.added(2)) }
    #expect {
      try store.flushAndWait()
    } throws: { error in
      let text = "\(error)"
      return text.contains("are not recorded yet") && text.contains("No space left on device")
    }
    #expect(store.lastError != nil)
    #expect(store.pendingCount > 0)
    // onError runs on a global queue, soon; a starved pool (a loaded machine running the
    // suites in parallel, or ThreadSanitizer) can make that seconds, so the wait is long
    // and ends at once when the report is there.
    let deadline = ContinuousClock.now + .seconds(120)
    while reported.withLock({ $0.isEmpty }) && ContinuousClock.now < deadline { usleep(5_000) }
    #expect(reported.withLock { !$0.isEmpty })
    #expect(store.state.value == 1_100, "the state keeps going whatever the disk does")

    failures.failure.store(0, ordering: .relaxed)
    try store.flushAndWait()
    #expect(store.lastError == nil)
    #expect(store.pendingCount == 0)
    try store.close()
    let timeline = try Timeline<StandardTally>(path: path)
    #expect(timeline.lastSequence == 600)
    #expect(try timeline.state(at: .end).value == 1_100)
    #expect(try Journal.verify(path: path).isClean)
  }

  @Test("a read-only location is surfaced with the events not recorded")
  func readOnly() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("readonly.journal")
    let failures = FailingWrites()
    let store = try Store(
      domain: StandardTally(), recordingTo: path, session: testSession,
      options: failures.options, clock: steppingClock())
    failures.failure.store(EROFS, ordering: .relaxed)
    for _ in 0..<50 { store.send(.toggled) }
    #expect {
      try store.close()
    } throws: { error in
      "\(error)".contains("Read-only file system")
    }
    #expect {
      try Store(domain: StandardTally(), recordingTo: directory.file("no/such/dir.journal"))
    } throws: { error in
      "\(error)".contains(
        "cannot create the file: there is no directory \(directory.file("no/such"))")
    }
  }

  @Test("a journal that fails for good stops recording: flushes and close say so, send goes on")
  func failedForGood() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("stopped.journal")
    let syncFailure = Atomic<Int32>(0)
    var journal = JournalWriterOptions(frameSize: 1024, durability: .flushOnly)
    journal.system.fsync = { fd in
      let failure = syncFailure.load(ordering: .relaxed)
      guard failure == 0 else {
        errno = failure
        return -1
      }
      return FileSystemCalls.live.fsync(fd)
    }
    let store = try Store(
      domain: StandardTally(), recordingTo: path, session: testSession,
      options: RecordingOptions(snapshotInterval: 32, journal: journal, durableWithin: nil),
      clock: steppingClock())
    for _ in 0..<100 { store.send(.added(1)) }
    try store.flushAndWait()
    syncFailure.store(EIO, ordering: .relaxed)
    for _ in 0..<100 { store.send(.added(1)) }
    #expect(throws: RewindError.self) { try store.flushAndWait() }
    syncFailure.store(0, ordering: .relaxed)
    for _ in 0..<100 { store.send(.added(1)) }
    #expect {
      try store.flushAndWait()
    } throws: { error in
      "\(error)".contains("recording stopped: the journal can take no more events")
    }
    #expect(store.state.value == 300)
    #expect(throws: RewindError.self) { try store.close() }
    // What the first flush acknowledged is in the journal.
    #expect(try Timeline<StandardTally>(path: path).lastSequence >= 100)
  }

  /// An event the journal refuses stops the recording: the events after it, recorded
  /// without it, replayed from another state than the app's, and `flush` and `close`
  /// returned as if all was well.
  @Test("an event the journal refuses stops the recording, and flush and close say so")
  func refusedEvent() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("refused.journal")
    let broken = Atomic<Bool>(false)
    let store = try Store(
      domain: StandardTally(), recordingTo: path, session: testSession,
      clock: { broken.load(ordering: .relaxed) ? .max : 1_000 })
    for _ in 0..<10 { store.send(.added(1)) }
    broken.store(true, ordering: .relaxed)
    store.send(.added(2))
    let flushed = #expect(throws: RewindError.self) { try store.flushAndWait() }
    #expect(
      flushed?.description.hasPrefix(
        "\(path): recording stopped at event 11, which the journal cannot take (added 2: record time 18446744073709551615"
      ) == true, "\(String(describing: flushed))")
    #expect(
      flushed?.description.hasSuffix(
        "; it holds the session up to event 10; events from 11 on (1 so far) are not recorded")
        == true, "\(String(describing: flushed))")
    #expect(store.lastError?.description == flushed?.description)
    #expect(!store.isRecording)
    // The events not recorded are not pending: an app waiting for none is not stuck.
    #expect(store.pendingCount == 0)
    #expect(store.state.value == 12)
    #expect(throws: RewindError.self) { try store.close() }
    let timeline = try Timeline<StandardTally>(path: path)
    #expect(timeline.lastSequence == 10)
    #expect(timeline.reader.condition.isClosed)
    #expect(try timeline.check().passed)
  }

  /// An event larger than the journal takes (1 MiB) stops the recording, said by its
  /// start: it was dropped, said whole (2 MiB of text), and the events after it recorded,
  /// while `flush` and `close` succeeded.
  @Test("an event larger than the journal takes stops the recording, said short")
  func oversizedEvent() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("large.journal")
    let store = try Store(
      domain: Notes(), recordingTo: path, session: testSession, clock: steppingClock())
    store.send(.added(text: "small"))
    store.send(.added(text: String(repeating: "x", count: 2 << 20)))
    store.send(.added(text: "after"))
    let error = #expect(throws: RewindError.self) { try store.flushAndWait() }
    let text = error?.description ?? ""
    #expect(
      text.hasPrefix(
        "\(path): recording stopped at event 2, which the journal cannot take (added text="),
      "\(text.prefix(500))")
    #expect(text.contains("… (2,097,"), "\(text.prefix(500))")
    #expect(text.count < 1_000, "\(text.count) characters")
    #expect(throws: RewindError.self) { try store.close() }
    #expect(try Timeline<Notes>(path: path).lastSequence == 1)
  }

  /// A state whose snapshot is larger than the journal takes (4 MiB) stops the recording
  /// at the event that needs one: every event after it was dropped (2,201 of 2,206 in a
  /// user's run), while `flush` and `close` succeeded and `check` passed.
  @Test("a state larger than a snapshot takes stops the recording there")
  func oversizedState() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("state.journal")
    let store = try Store(
      domain: Notes(), recordingTo: path, session: testSession,
      options: RecordingOptions(snapshotInterval: 4), clock: steppingClock())
    for index in 0..<6 {
      store.send(.added(text: "\(index)" + String(repeating: "y", count: 900_000)))
    }
    for index in 0..<100 { store.send(.checked(index: index % 6)) }
    let error = #expect(throws: RewindError.self) { try store.flushAndWait() }
    let text = error?.description ?? ""
    // Said of the state, not of the event after it (which may be small).
    #expect(text.hasPrefix("\(path): recording stopped after event "), "\(text.prefix(500))")
    #expect(
      text.contains(": the state after it is larger than a snapshot holds (snapshot of "),
      "\(text.prefix(500))")
    #expect(!text.contains("\(path): \(path)") && text.components(separatedBy: path).count == 2)
    #expect(throws: RewindError.self) { try store.close() }
    let timeline = try Timeline<Notes>(path: path)
    #expect(timeline.lastSequence >= 4 && timeline.lastSequence < 8)
    #expect(try timeline.check().passed)
  }

  @Test("close from several threads at once returns to each of them")
  func concurrentClose() async throws {
    let directory = TemporaryDirectory()
    let store = try Store(
      domain: StandardTally(), recordingTo: directory.file("close.journal"), session: testSession,
      clock: steppingClock())
    for _ in 0..<1_000 { store.send(.toggled) }
    await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<4 {
        group.addTask {
          do {
            try store.close()
            return true
          } catch {
            return false
          }
        }
      }
      var results: [Bool] = []
      for await result in group { results.append(result) }
      #expect(results == [true, true, true, true])
    }
    #expect(
      try Timeline<StandardTally>(path: directory.file("close.journal")).lastSequence == 1_000)
  }

  @Test("a store that records nothing still reduces")
  func inMemory() async throws {
    let store = Store(domain: StandardTally())
    #expect(store.send(.added(3)) == .applied)
    #expect(store.send(.added(0)) == .unchanged)
    #expect(store.send(.added(5_000)) == .rejected(.tooLarge(5_000)))
    try await store.flush()
    try store.close()
    #expect(store.state.value == 3)
  }

  @Test("a store continues a journal from its last state")
  func continuing() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("continue.journal")
    let (_, states) = try recordTally(at: path, count: 200)
    let store = try Store<StandardTally>(continuing: path)
    #expect(store.state == states.last)
    store.send(.added(7))
    try store.close()
    #expect(try Timeline<StandardTally>(path: path).state(at: .end).value == states.last!.value + 7)
  }
}

@Suite("Store: observation")
struct StoreObservationTests {
  @Test("reading state registers an observation that a send triggers")
  func observed() {
    let store = Store(domain: StandardTally())
    let changed = Atomic<Int>(0)
    withObservationTracking {
      _ = store.state
    } onChange: {
      changed.add(1, ordering: .relaxed)
    }
    #expect(changed.load(ordering: .relaxed) == 0)
    store.send(.added(1))
    #expect(changed.load(ordering: .relaxed) == 1)
  }

  @Test("a forwarder is told of durable frames, flushes and the close, and flush waits for it")
  func forwarderIsTold() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("forwarded.journal")
    let forwarder = RecordingForwarder()
    let store = try Store(
      domain: StandardTally(), recordingTo: path, session: testSession,
      options: RecordingOptions(
        snapshotInterval: 50, journal: .init(frameSize: 1024), forwarder: forwarder,
        durableWithin: nil),
      clock: steppingClock())
    for item in TallyEvents(seed: 5).prefix(3_000) { store.send(item.event) }
    // Told once as recording starts, then as frames are sealed (each durable as it is),
    // with no flush.
    let sealing = ContinuousClock.now + .seconds(10)
    while forwarder.calls.count < 2, ContinuousClock.now < sealing { usleep(1_000) }
    #expect(forwarder.calls.count >= 2)
    try store.flushAndWait()
    let afterFrames = forwarder.calls
    #expect(afterFrames.allSatisfy { $0 == (path, false) })

    // A few events seal no frame: the flush is what makes them durable, and the
    // forwarder hears of it before the flush returns.
    store.send(.added(1))
    try store.flushAndWait(waitingForServerWithin: 1000)
    #expect(forwarder.calls.count == afterFrames.count + 1)
    #expect(forwarder.waits.load(ordering: .relaxed) == 1)

    forwarder.failing.store(true, ordering: .relaxed)
    store.send(.added(2))
    #expect {
      try store.flushAndWait(waitingForServerWithin: 1000)
    } throws: { error in
      (error as? RewindError)?.code == .recording && "\(error)".contains("server away")
    }
    #expect(store.lastError == nil)

    try store.close()
    #expect(forwarder.calls.last.map { $0 == (path, true) } == true)
    #expect(forwarder.calls.filter(\.closed).count == 1)
    #expect(try Timeline<StandardTally>(path: path).lastSequence == 3_002)
  }

  @Test("the async flush waits for the forwarder too, and says when the server is away")
  func asyncFlushWaitsForTheForwarder() async throws {
    let directory = TemporaryDirectory()
    let path = directory.file("forwarded.journal")
    let forwarder = RecordingForwarder()
    let store = try Store(
      domain: StandardTally(), recordingTo: path, session: testSession,
      options: RecordingOptions(forwarder: forwarder, durableWithin: nil), clock: steppingClock())
    store.send(.added(1))
    try await store.flush(waitingForServerWithin: 1000)
    #expect(forwarder.waits.load(ordering: .relaxed) == 1)
    #expect(forwarder.calls.last.map { $0 == (path, false) } == true)
    forwarder.failing.store(true, ordering: .relaxed)
    store.send(.added(2))
    await #expect {
      try await store.flush(waitingForServerWithin: 1000)
    } throws: { error in
      (error as? RewindError)?.code == .recording
        && "\(error)".contains("not acknowledged it within 1000 ms")
        && "\(error)".contains("server away")
    }
    #expect(forwarder.waits.load(ordering: .relaxed) == 2)
    try store.close()
    #expect(try Timeline<StandardTally>(path: path).lastSequence == 2)
  }
}

@Suite("Store: forwarding when frames are durable only on flush")
struct StoreForwardingTests {
  @Test("with durability flushOnly, a sealed frame is not told of, a flush is")
  func flushOnlyForwarding() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("flush-only.journal")
    let forwarder = RecordingForwarder()
    let store = try Store(
      domain: StandardTally(), recordingTo: path, session: testSession,
      options: RecordingOptions(
        snapshotInterval: 50, journal: .init(frameSize: 1024, durability: .flushOnly),
        forwarder: forwarder, durableWithin: nil),
      clock: steppingClock())
    for item in TallyEvents(seed: 6).prefix(3_000) { store.send(item.event) }
    try store.flushAndWait()
    // Once as recording starts, once for the flush: the frames sealed before it were
    // not durable yet.
    #expect(forwarder.calls.count == 2)
    #expect(try JournalReader(path: path).frames.count > 5)
    try store.close()
    #expect(forwarder.calls.count == 3, "\(forwarder.calls)")
    #expect(forwarder.calls.last.map { $0 == (path, true) } == true)
  }
}

/// A forwarder that records what it is told, and whose waits fail while `failing`.
final class RecordingForwarder: JournalForwarder {
  private let told = Mutex<[(path: String, closed: Bool)]>([])
  let waits = Atomic<Int>(0)
  let failing = Atomic<Bool>(false)

  var calls: [(path: String, closed: Bool)] { told.withLock { $0 } }

  func journalAdvanced(at path: String, closed: Bool) {
    told.withLock { $0.append((path, closed)) }
  }

  func waitUntilForwarded(timeoutMilliseconds: Int) throws {
    waits.add(1, ordering: .relaxed)
    if failing.load(ordering: .relaxed) {
      throw RewindError(.invalidInput, "server away")
    }
  }
}

/// A settings screen's switches: 70 leaves in its state's JSON.
private struct Switches: RecordableDomain, Codable {
  struct State: Codable, Equatable, Sendable {
    var flags = Dictionary(uniqueKeysWithValues: (0..<70).map { ("flag\($0)", false) })
  }
  enum Event: Codable, Equatable, Sendable { case toggled(String) }
  static let identifier = "switches"
  static let schemaVersion: UInt32 = 1
  var initialState: State { State() }
  func reduce(_ state: inout State, _ event: Event) -> Outcome<DomainRejection> {
    guard case .toggled(let name) = event, let flag = state.flags[name] else {
      return .rejected("no such switch")
    }
    state.flags[name] = !flag
    return .applied
  }
}

@Suite("A domain of more fields than a journal records")
struct TooManyFieldsTests {
  /// It trapped as the store was made: an app whose settings screen had 70 switches
  /// crashed.
  @Test("a store of it throws, naming the limit, and writes nothing")
  func storeThrows() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("switches.journal")
    #expect(Switches().fields.count == 70)
    #expect {
      try Store(domain: Switches(), recordingTo: path)
    } throws: { error in
      let error = error as? RewindError
      return error?.code == .invalidInput
        && error?.message.hasPrefix(
          "the 'switches' domain has 70 fields; a domain may have at most 62") == true
    }
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  /// It trapped (a `PreconditionTests` case); 63 fields, one more than an effect names.
  @Test("a journal recorder of 63 fields throws, in place and in batch")
  func recorderThrows() throws {
    let directory = TemporaryDirectory()
    let session = SessionInfo(startTime: 0, device: "")
    for create in [
      {
        try JournalRecorder.create(
          at: directory.file("a.journal"), domain: WideDomain(), session: session)
      },
      {
        try JournalRecorder.create(
          FileDestination(directory.file("b.journal")), domain: WideDomain(), session: session)
      },
    ] as [() throws -> JournalRecorder<WideDomain>] {
      #expect {
        try create()
      } throws: { error in
        (error as? RewindError)?.message.hasPrefix("the 'wide' domain has 63 fields") == true
      }
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
  }
}
