import Foundation
import TestSupport
import Testing

@testable import RewindCore
@testable import RewindJournal

@Suite("Power loss: a recording store", .serialized)
struct StorePowerLossTests {
  /// A store's work, drawn from a seed: a store records bursts of events, flushing after
  /// some, and closes; a second store continues the journal the same way.
  struct Plan {
    var stores: [[(count: Int, flush: Bool)]]

    init(seed: UInt64) {
      var random = SplitMix64(seed: seed)
      stores = (0..<2).map { _ in
        (0..<(1 + random.next() % 3)).map { _ in
          (count: 1 + Int(random.next() % 200), flush: random.next() % 2 == 0)
        }
      }
    }

    var eventCount: Int { stores.joined().reduce(0) { $0 + $1.count } }
  }

  /// Runs `plan` on `disk` until it is done or the disk fails, noting what the stores
  /// acknowledged. Returns the number of events sent while recording.
  func run(
    _ plan: Plan, events: [StandardTally.Event], on disk: SimulatedDisk, at path: String,
    _ acknowledged: inout Acknowledged
  ) -> Int {
    // The store's default durability: every sealed frame is synced.
    var journal = JournalWriterOptions(frameSize: 1024)
    journal.system = disk.calls
    var sent = 0
    for (index, bursts) in plan.stores.enumerated() {
      let store: Store<StandardTally>
      do {
        store =
          index == 0
          ? try Store(
            domain: StandardTally(), recordingTo: path, session: testSession,
            options: RecordingOptions(snapshotInterval: 16, journal: journal),
            clock: steppingClock())
          : try Store(continuing: path, options: journal)
      } catch {
        #expect(disk.isCut, "only the power cut fails the store: \(error)")
        return sent
      }
      acknowledged.created = true
      for burst in bursts {
        for event in events[sent..<(sent + burst.count)] { store.send(event) }
        sent += burst.count
        if burst.flush, (try? store.flushAndWait()) != nil {
          acknowledged.sequence = UInt64(sent)
        }
      }
      do {
        try store.close()
        acknowledged.sequence = UInt64(sent)
      } catch {
        #expect(disk.isCut, "only the power cut fails the store: \(error)")
        return sent
      }
    }
    return sent
  }

  @Test(
    "a store recording and a store continuing lose no acknowledged event to a power cut at any step"
  )
  func everyStep() throws {
    let seed = testSeed("storePowerLoss.everyStep")
    var random = SplitMix64(seed: seed)
    var figures = PowerLossFigures()
    let trials = soakCount("STORE_POWER_CUTS", standard: 100)
    while figures.cuts < trials {
      let planSeed = random.next()
      let plan = Plan(seed: planSeed)
      let events = TallyEvents(seed: planSeed).prefix(plan.eventCount).map(\.event)
      // A run without a cut counts the steps a cut can come before.
      let steps: Int = {
        let directory = TemporaryDirectory()
        let disk = SimulatedDisk(directory: directory.path)
        var acknowledged = Acknowledged()
        _ = run(plan, events: events, on: disk, at: directory.file("s.journal"), &acknowledged)
        return disk.steps
      }()
      for step in 1...(steps + 1) where figures.cuts < trials {
        let directory = TemporaryDirectory()
        let path = directory.file("s.journal")
        let cutSeed = random.next()
        let disk = SimulatedDisk(directory: directory.path)
        disk.cutPower(beforeStep: step, seed: cutSeed)
        var acknowledged = Acknowledged()
        let sent = run(plan, events: events, on: disk, at: path, &acknowledged)
        let trial =
          "plan \(planSeed), cut before step \(step) (\(disk.cutPowerNow())), seed \(seed)"
        figures.cuts += 1
        do {
          guard
            try reopenAfterPowerCut(
              path, on: disk.restart(), acknowledged: acknowledged, salvageAllowed: false,
              cutRecovery: cutSeed % 3 == 0 ? Int((cutSeed >> 8) % 12) + 1 : nil, seed: cutSeed,
              figures: &figures)
          else { continue }
          // The journal holds the first events sent, in order, at least those acknowledged,
          // and replays to the states its snapshots hold.
          let timeline = try Timeline<StandardTally>(path: path)
          let last = Int(timeline.lastSequence)
          #expect(last >= Int(acknowledged.sequence) && last <= sent, "\(trial): \(last) events")
          var recorded: [StandardTally.Event] = []
          try timeline.events(from: 1, through: UInt64(max(last, 1))) { event, _, _ in
            recorded.append(event.event)
            return true
          }
          #expect(recorded == Array(events.prefix(last)), "\(trial): the events differ")
          #expect(try timeline.check().passed, "\(trial)")
          figures.unacknowledgedKept += UInt64(last) - acknowledged.sequence
          figures.unacknowledgedLost += UInt64(sent - last)

          // A store continues it.
          let store = try Store<StandardTally>(continuing: path)
          #expect(store.state == (try timeline.state(at: .end)), "\(trial)")
          store.send(.toggled)
          try store.close()
          #expect(try Timeline<StandardTally>(path: path).lastSequence == UInt64(last + 1))
        } catch {
          Issue.record("\(trial): \(error)")
        }
      }
    }
    print("power loss, recording store: \(figures)")
  }
}
