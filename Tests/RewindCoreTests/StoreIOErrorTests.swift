import Foundation
import Synchronization
import TestSupport
import Testing

@testable import RewindCore
@testable import RewindJournal

@Suite("I/O errors at every call: a recording store", .serialized)
struct StoreIOErrorTests {
  let events = TallyEvents(seed: 11).prefix(450).map(\.event)

  /// A store records 300 events (a flush after 150) and closes; a second continues with
  /// 150 more (a flush after 75) and closes. Returns the errors that surfaced: thrown, or
  /// reported to `onError`.
  func record(at path: String, _ system: FileSystemCalls, _ acknowledged: inout Acknowledged)
    -> [any Error]
  {
    var journal = JournalWriterOptions(frameSize: 1024)
    journal.system = system
    let reported = Mutex<[any Error]>([])
    let onError: @Sendable (RewindError) -> Void = { error in reported.withLock { $0.append(error) }
    }
    var thrown: [any Error] = []
    for part in 0..<2 {
      let store: Store<StandardTally>
      do {
        store =
          part == 0
          ? try Store(
            domain: StandardTally(), recordingTo: path, session: testSession,
            options: RecordingOptions(snapshotInterval: 16, journal: journal),
            clock: steppingClock(), onError: onError)
          : try Store(continuing: path, options: journal, onError: onError)
      } catch {
        thrown.append(error)
        break
      }
      acknowledged.created = true
      let range = part == 0 ? 0..<300 : 300..<450
      let half = range.lowerBound + range.count / 2
      for (index, event) in zip(range, events[range]) {
        store.send(event)
        if index + 1 == half {
          do {
            try store.flushAndWait()
            acknowledged.sequence = UInt64(half)
          } catch {
            thrown.append(error)
          }
        }
      }
      do {
        try store.close()
        acknowledged.sequence = UInt64(range.upperBound)
      } catch {
        thrown.append(error)
        break
      }
    }
    return thrown + reported.withLock { $0 }
  }

  @Test(
    "recording and continuing: the error surfaces, nothing acknowledged is lost, the journal stays valid"
  )
  func recordingAndContinuing() throws {
    let counting = FaultyFileSystem()
    do {
      let directory = TemporaryDirectory()
      var acknowledged = Acknowledged()
      #expect(record(at: directory.file("s.journal"), counting.calls, &acknowledged).isEmpty)
    }
    let calls = counting.callCount
    var trials = 0
    var surfaced = 0
    for call in 1...calls {
      for (number, persisting) in injectedErrors(atCall: call, standard: 1) {
        trials += 1
        let directory = TemporaryDirectory()
        let path = directory.file("s.journal")
        let faults = FaultyFileSystem()
        faults.failCall(call, with: number, persisting: persisting)
        var acknowledged = Acknowledged()
        let errors = record(at: path, faults.calls, &acknowledged)
        faults.heal()
        let what =
          "call \(call) of \(calls) (\(counting.call(call))) failing with \(String(cString: strerror(number)))\(persisting ? " from then on" : "")"
        if !errors.isEmpty { surfaced += 1 }
        // A lock that could not be released (its fcntl failed) holds until the first
        // writer's descriptor closes, which its thread does a moment after close returns:
        // the second store may find the journal locked.
        let lockStays = counting.call(call).hasPrefix("fcntl")
        for error in errors {
          #expect(
            isClear(error, naming: path, errno: number)
              || (lockStays && "\(error)".contains("is being written by another")),
            "\(what): \(error)")
        }
        do {
          try check(path, acknowledged: acknowledged, complete: errors.isEmpty, what)
        } catch {
          Issue.record("\(what): \(error)")
        }
      }
    }
    print("I/O errors, recording store: \(calls) calls, \(trials) failures: \(surfaced) surfaced")
  }

  /// After a failure: the journal, if its creation returned, opens (after `recover` if
  /// it needs it), holds the first n events sent, n at least the acknowledged, and
  /// replays to its snapshots; a run that reported no error left all 450 events.
  func check(_ path: String, acknowledged: Acknowledged, complete: Bool, _ what: String) throws {
    guard FileManager.default.fileExists(atPath: path) else {
      #expect(!acknowledged.created, "\(what): the journal is gone")
      return
    }
    guard acknowledged.created else { return }
    if !(try Journal.verify(path: path).isClean) {
      #expect(!complete, "\(what): a run without an error left a damaged journal")
      _ = try Journal.recover(path: path)
      try? FileManager.default.removeItem(atPath: path + ".damaged")
    }
    #expect(try Journal.verify(path: path).isClean, "\(what)")
    let timeline = try Timeline<StandardTally>(path: path)
    let last = Int(timeline.lastSequence)
    #expect(last >= Int(acknowledged.sequence), "\(what): acknowledged events lost")
    #expect(!complete || last == 450, "\(what): \(last) events without an error")
    var recorded: [StandardTally.Event] = []
    if last > 0 {
      try timeline.events(from: 1, through: UInt64(last)) { event, _, _ in
        recorded.append(event.event)
        return true
      }
    }
    #expect(recorded == Array(events.prefix(last)), "\(what): the events differ")
    #expect(try timeline.check().passed, "\(what)")
  }
}
