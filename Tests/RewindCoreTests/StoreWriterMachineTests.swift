import Testing

@testable import RewindCore
@testable import RewindJournal

/// A journal whose failures the test chooses: it keeps what it records, and counts
/// flushes and closes.
final class ScriptedJournal: StoreJournal {
  var recorded: [(event: Int, time: UInt64)] = []
  var flushes = 0
  var closes = 0
  /// Thrown for every event while set (an I/O failure).
  var writeFailure: (any Error)?
  /// Events refused (`invalidArgument`) every time.
  var refused: Set<Int> = []
  /// Thrown by every flush while set.
  var flushFailure: (any Error)?
  /// Thrown by close.
  var closeFailure: (any Error)?
  /// The journal can take nothing more: recording and flushing throw `closed`.
  var broken = false

  var path: String { "scripted.journal" }
  var lastSequence: UInt64 { UInt64(recorded.count) }

  func record(queued queue: EventQueue<(time: UInt64, event: Int)>) throws {
    while let (time, event) = queue.first {
      if broken { throw JournalError(.closed, "the writer stopped after an earlier failure") }
      if let writeFailure { throw writeFailure }
      if refused.contains(event) {
        throw JournalError(.invalidArgument, "time \(time) is beyond the journal's range")
      }
      recorded.append((event, time))
      queue.removeFirst()
    }
  }

  func flush() throws {
    if broken { throw JournalError(.closed, "the writer stopped after an earlier failure") }
    if let flushFailure { throw flushFailure }
    flushes += 1
  }

  func close() throws {
    closes += 1
    if let closeFailure { throw closeFailure }
  }

  func describe(_ event: Int) -> String { "event \(event)" }
}

let diskFull = JournalError(
  .io, "cannot write", cause: .errno(28, name: "No space left on device"))

/// A machine over a scripted journal, with waiters named by strings.
struct MachineHarness {
  typealias Machine = StoreWriterMachine<ScriptedJournal, String>
  let journal = ScriptedJournal()
  let queue = EventQueue<(time: UInt64, event: Int)>(chunkCapacity: 4)
  var machine: Machine
  var pushed: UInt64 = 0

  init() {
    machine = Machine(journal: journal, queue: queue)
  }

  /// A machine that makes events durable by itself `durableWithin` milliseconds after
  /// writing them, on the clock `now` reads (milliseconds).
  init(durableWithin: UInt64, now: @escaping () -> UInt64) {
    machine = Machine(journal: journal, queue: queue, durableWithin: durableWithin, now: now)
  }

  /// Queues events as a store's sends do, timed 10 µs apart.
  mutating func send(_ events: [Int]) {
    for event in events {
      pushed += 1
      queue.push((pushed * 10, event))
    }
  }

  /// A flush of everything sent so far, named `name`.
  func flush(_ name: String) -> Machine.Requests {
    Machine.Requests(flushes: [(pushed, name)])
  }

  mutating func round(_ requests: Machine.Requests = .init()) -> Machine.Round {
    machine.round(requests)
  }
}

/// The waiters answered, with success or the error's message.
func answers(_ round: StoreWriterMachine<ScriptedJournal, String>.Round) -> [String] {
  round.answers.map { answer in
    switch answer.result {
    case .success: "\(answer.waiter): done"
    case .failure(let error): "\(answer.waiter): \(error)"
    }
  }
}

func raised(_ round: StoreWriterMachine<ScriptedJournal, String>.Round) -> String? {
  if case .raised(let error) = round.error { return "\(error)" }
  return nil
}

func cleared(_ round: StoreWriterMachine<ScriptedJournal, String>.Round) -> Bool {
  if case .cleared = round.error { return true }
  return false
}

extension StoreWriterMachine.State {
  var name: String {
    switch self {
    case .recording: "recording"
    case .retrying: "retrying"
    case .stopped: "stopped"
    case .closed(.success): "closed"
    case .closed(.failure): "closed with an error"
    }
  }
}

@Suite("Store: the writer's rules, round by round")
struct StoreWriterMachineTests {
  @Test("recording: a round records the queued events in order and keeps the busy pace")
  func recording() {
    var harness = MachineHarness()
    harness.send([1, 2, 3, 4, 5, 6])
    let round = harness.round()
    #expect(harness.journal.recorded.map(\.event) == [1, 2, 3, 4, 5, 6])
    #expect(harness.journal.recorded.map(\.time) == [10, 20, 30, 40, 50, 60])
    #expect(harness.journal.flushes == 0, "nobody asked for a flush")
    #expect(round.answers.isEmpty && round.error == nil && !round.stopQueuing)
    #expect(round.finished == nil)
    #expect(harness.machine.state.name == "recording")
    #expect(harness.machine.pause == 4)
    #expect(harness.queue.count == 0)
  }

  @Test("recording: idle rounds back off to the idle pace, and events bring the busy one back")
  func pacing() {
    var harness = MachineHarness()
    var pauses: [UInt64] = []
    for _ in 0..<8 {
      _ = harness.round()
      pauses.append(harness.machine.pause)
    }
    #expect(pauses == [8, 16, 32, 64, 128, 250, 250, 250])
    harness.send([1])
    _ = harness.round()
    #expect(harness.machine.pause == 4)
  }

  @Test("recording: a flush makes the journal durable and is answered")
  func flush() {
    var harness = MachineHarness()
    harness.send([1, 2, 3])
    let round = harness.round(harness.flush("a"))
    #expect(answers(round) == ["a: done"])
    #expect(harness.journal.flushes == 1)
    #expect(harness.machine.durable == 3)
    #expect(harness.machine.waitingFlushes == 0)
  }

  @Test("recording: events written are made durable by the machine once they waited durableWithin")
  func durableWithin() {
    let clock = ManualClock()
    var harness = MachineHarness(durableWithin: 100, now: { clock.read() / 1_000_000 })
    harness.send([1, 2, 3])
    _ = harness.round()
    #expect(harness.journal.flushes == 0)
    #expect(harness.machine.durable == 0)
    // Woken in time: the busy pace, then no later than the flush is due.
    clock.advance(milliseconds: 60)
    harness.send([4])
    _ = harness.round()
    #expect(harness.journal.flushes == 0, "the first events have waited 60 ms of 100")
    _ = harness.round()
    #expect(harness.machine.pause == 8)
    clock.advance(milliseconds: 35)
    _ = harness.round()
    #expect(harness.machine.pause == 5)
    clock.advance(milliseconds: 5)
    _ = harness.round()
    #expect(harness.journal.flushes == 1)
    #expect(harness.machine.durable == 4)
    // Nothing new: no flush, and the pace backs off again.
    clock.advance(milliseconds: 500)
    _ = harness.round()
    #expect(harness.journal.flushes == 1)
    #expect(harness.machine.pause == 20)
    // The next event's wait starts when it is written.
    harness.send([5])
    _ = harness.round()
    clock.advance(milliseconds: 99)
    _ = harness.round()
    #expect(harness.journal.flushes == 1)
    clock.advance(milliseconds: 1)
    _ = harness.round()
    #expect(harness.journal.flushes == 2)
    #expect(harness.machine.durable == 5)
  }

  @Test("stopped or closed, nothing is due to be made durable: the idle pace, none pending")
  func durableWithinAfterStopAndClose() {
    let clock = ManualClock()
    var stopped = MachineHarness(durableWithin: 100, now: { clock.read() / 1_000_000 })
    stopped.send([1, 2])
    _ = stopped.round()
    stopped.journal.broken = true
    stopped.send([3])
    _ = stopped.round()
    #expect(stopped.machine.state.name == "stopped")
    for _ in 0..<8 { _ = stopped.round() }
    #expect(stopped.machine.pause == 250, "a stopped writer polled for a flush that never comes")
    var closed = MachineHarness(durableWithin: 100, now: { clock.read() / 1_000_000 })
    closed.send([1, 2, 3])
    _ = closed.round()
    #expect(closed.machine.durable == 0)
    _ = closed.round(.init(close: true))
    #expect(closed.machine.durable == 3, "a closed journal's events are durable")
  }

  @Test("recording: without durableWithin, events wait for a flush")
  func noDurableWithin() {
    var harness = MachineHarness()
    harness.send([1, 2, 3])
    for _ in 0..<20 { _ = harness.round() }
    #expect(harness.journal.flushes == 0)
    #expect(harness.machine.durable == 0)
  }

  @Test("recording: a flush whose target is not durable yet waits for a later round")
  func flushWaits() {
    var harness = MachineHarness()
    harness.send([1, 2])
    // Asked for four events when two are queued (the other two come later).
    var first = harness.round(.init(flushes: [(4, "a")]))
    #expect(first.answers.isEmpty)
    #expect(harness.machine.waitingFlushes == 1)
    harness.send([3, 4])
    first = harness.round()
    #expect(answers(first) == ["a: done"])
    #expect(harness.journal.flushes == 2)
  }

  /// Recording on without the event refused wrote a journal whose later events replay
  /// from another state than the app's, and which passed `check`: it stops there.
  @Test("recording → stopped: an event the journal refuses stops the recording there")
  func refused() {
    var harness = MachineHarness()
    harness.journal.refused = [2]
    harness.send([1, 2, 3])
    let round = harness.round(harness.flush("a"))
    #expect(harness.journal.recorded.map(\.event) == [1])
    let message =
      "scripted.journal: recording stopped at event 2, which the journal cannot take (event 2: time 20 is beyond the journal's range); it holds the session up to event 1; events from 2 on (2 so far) are not recorded"
    #expect(raised(round) == message)
    #expect(answers(round) == ["a: \(message)"], "the flush fails")
    #expect(round.stopQueuing)
    #expect(harness.machine.state.name == "stopped")
    #expect(harness.journal.flushes == 1, "what was written before it is made durable")
    // Nothing is pending: the events dropped will never be.
    #expect(harness.machine.durable == 3)
    harness.send([4])
    let next = harness.round(harness.flush("b"))
    #expect(next.error == nil, "the error stays as it is until something else happens")
    #expect(answers(next) == ["b: \(message)"])
    #expect(harness.journal.recorded.map(\.event) == [1])
    let closing = harness.round(MachineHarness.Machine.Requests(closers: ["c"], close: true))
    #expect(answers(closing) == ["c: \(message)"])
    #expect(harness.journal.closes == 1)
  }

  @Test("recording → retrying: a failed write keeps the events, reports, fails the flushes")
  func writeFails() {
    var harness = MachineHarness()
    harness.send([1, 2])
    _ = harness.round()
    harness.journal.writeFailure = diskFull
    harness.send([3, 4, 5])
    let round = harness.round(harness.flush("a"))
    let message =
      "scripted.journal: events from 3 on are not recorded yet (3 waiting; they are kept and retried): cannot write (No space left on device (errno 28))"
    #expect(raised(round) == message)
    #expect(answers(round) == ["a: \(message)"])
    #expect(harness.machine.state.name == "retrying")
    #expect(harness.machine.pause == 500)
    #expect(harness.queue.count == 3, "the events stay queued")
    #expect(harness.journal.flushes == 0)

    // Still failing: reported again, still retrying.
    let again = harness.round()
    #expect(raised(again) != nil)
    #expect(harness.machine.state.name == "retrying")
  }

  @Test("retrying → recording: once everything is written and flushed, the error is cleared")
  func recovers() {
    var harness = MachineHarness()
    harness.journal.writeFailure = diskFull
    harness.send([1, 2, 3])
    _ = harness.round()
    harness.journal.writeFailure = nil
    harness.send([4])
    let round = harness.round(harness.flush("b"))
    #expect(harness.journal.recorded.map(\.event) == [1, 2, 3, 4])
    #expect(harness.journal.flushes == 1, "recovering flushes, whether asked or not")
    #expect(cleared(round))
    #expect(answers(round) == ["b: done"])
    #expect(harness.machine.state.name == "recording")
    #expect(harness.machine.pause == 4)
  }

  @Test("retrying: the recovering flush fails too, so the writer goes on retrying")
  func recoveryFlushFails() {
    var harness = MachineHarness()
    harness.journal.writeFailure = diskFull
    harness.send([1])
    _ = harness.round()
    harness.journal.writeFailure = nil
    harness.journal.flushFailure = diskFull
    let round = harness.round()
    #expect(raised(round)?.hasPrefix("scripted.journal: flushing the journal failed") == true)
    #expect(harness.machine.state.name == "retrying")
    harness.journal.flushFailure = nil
    #expect(cleared(harness.round()))
    #expect(harness.machine.state.name == "recording")
  }

  @Test(
    "recording → retrying: a failed flush fails the flushes waiting; the next round flushes again")
  func flushFails() {
    var harness = MachineHarness()
    harness.send([1, 2])
    harness.journal.flushFailure = diskFull
    let round = harness.round(harness.flush("a"))
    let message =
      "scripted.journal: flushing the journal failed: cannot write (No space left on device (errno 28))"
    #expect(raised(round) == message)
    #expect(answers(round) == ["a: \(message)"])
    #expect(harness.machine.state.name == "retrying")
    #expect(harness.machine.durable == 0)
    harness.journal.flushFailure = nil
    let next = harness.round()
    #expect(cleared(next))
    #expect(harness.journal.flushes == 1)
    #expect(harness.machine.durable == 2)
  }

  @Test("recording → stopped: a journal that takes no more drops the queue and stops queuing")
  func stops() {
    var harness = MachineHarness()
    harness.send([1, 2])
    _ = harness.round()
    harness.journal.broken = true
    harness.send([3, 4, 5])
    let round = harness.round(harness.flush("a"))
    let message =
      "scripted.journal: recording stopped: the journal can take no more events; events from 3 on (3 so far) are not recorded: the writer stopped after an earlier failure"
    #expect(raised(round) == message)
    #expect(round.stopQueuing)
    #expect(answers(round) == ["a: \(message)"])
    #expect(harness.machine.state.name == "stopped")
    #expect(harness.queue.count == 0)

    // Later: events that were still queued are dropped without a word, flushes fail
    // with the same error, and nothing is reported again.
    harness.journal.broken = false
    harness.send([6])
    let later = harness.round(harness.flush("b"))
    #expect(answers(later) == ["b: \(message)"])
    #expect(later.error == nil && !later.stopQueuing)
    #expect(harness.queue.count == 0)
    #expect(harness.journal.recorded.map(\.event) == [1, 2])
  }

  @Test("retrying → stopped: a flush that finds the journal unusable stops recording")
  func stopsOnFlush() {
    var harness = MachineHarness()
    harness.send([1])
    harness.journal.flushFailure = diskFull
    _ = harness.round(harness.flush("a"))
    harness.journal.flushFailure = nil
    harness.journal.broken = true
    let round = harness.round()
    #expect(round.stopQueuing)
    #expect(harness.machine.state.name == "stopped")
  }

  @Test("close: records what is queued, closes the journal, answers every waiter")
  func close() {
    var harness = MachineHarness()
    harness.send([1, 2, 3])
    var requests = harness.flush("a")
    requests.closers = ["c1", "c2"]
    requests.close = true
    let round = harness.round(requests)
    #expect(harness.journal.recorded.count == 3)
    #expect(harness.journal.closes == 1)
    #expect(answers(round) == ["a: done", "c1: done", "c2: done"])
    if case .success = round.finished {} else { Issue.record("the close failed") }
    #expect(harness.machine.state.name == "closed")
  }

  @Test(
    "close while retrying: the journal is closed with what it has, and the close says how many were lost"
  )
  func closeWhileRetrying() {
    var harness = MachineHarness()
    harness.send([1, 2])
    _ = harness.round()
    harness.journal.writeFailure = diskFull
    harness.send([3, 4, 5])
    let round = harness.round(.init(closers: ["c"], close: true))
    #expect(
      answers(round) == [
        "c: scripted.journal: the journal was closed with 3 events not recorded, from event 3 on: cannot write (No space left on device (errno 28))"
      ])
    #expect(harness.journal.closes == 1)
    #expect(harness.machine.state.name == "closed with an error")
  }

  @Test("close while stopped fails with the reason recording stopped")
  func closeWhileStopped() {
    var harness = MachineHarness()
    harness.journal.broken = true
    harness.send([1])
    _ = harness.round()
    let round = harness.round(.init(closers: ["c"], close: true))
    #expect(answers(round).first?.contains("recording stopped") == true)
    #expect(harness.journal.closes == 1)
  }

  @Test("a close that fails says so")
  func closeFails() {
    var harness = MachineHarness()
    harness.journal.closeFailure = diskFull
    let round = harness.round(.init(closers: ["c"], close: true))
    #expect(
      answers(round) == [
        "c: scripted.journal: closing the journal failed: cannot write (No space left on device (errno 28))"
      ])
  }

  @Test("a closed machine runs no more rounds")
  func roundAfterClose() async {
    await #expect(processExitsWith: .failure) {
      var harness = MachineHarness()
      _ = harness.round(.init(close: true))
      _ = harness.round()
    }
  }
}
