import Foundation
import JournalFixtures
import TestSupport
import Testing

@testable import RewindJournal

/// After a power cut: the journal at `path` opens, after `recover` where it needs it (see
/// `reopenAfterPowerCut`), and holds exactly events 1…n, as the tests write them, for
/// some n at least the acknowledged sequence (events in the middle may be marked lost
/// only where salvage was allowed, and none of them acknowledged). Then a writer
/// continues it and closes it.
///
/// - Parameter written: the last event the writer appended (acknowledged or not).
/// - Returns: the journal's last event, nil if the journal's creation was lost.
func checkAfterPowerCut(
  _ path: String, on disk: SimulatedDisk, acknowledged: Acknowledged, written: UInt64,
  salvageAllowed: Bool, cutRecovery: Int?, seed: UInt64, trial: String,
  figures: inout PowerLossFigures
) throws -> UInt64? {
  guard
    try reopenAfterPowerCut(
      path, on: disk, acknowledged: acknowledged, salvageAllowed: salvageAllowed,
      cutRecovery: cutRecovery, seed: seed, figures: &figures)
  else { return nil }
  let reader = try JournalReader(path: path)
  let records = try readAll(reader)
  let last = reader.lastSequence
  #expect(last >= acknowledged.sequence, "\(trial): acknowledged events lost")
  // Every event is the one written with its number, in order; events missing in the
  // middle (salvage) are marked lost, and none of them was acknowledged.
  let lost = reader.condition.lostRanges
  var expected = Array(1...max(last, 1)).filter { sequence in
    !lost.contains { $0.contains(sequence) }
  }
  if last == 0 { expected = [] }
  #expect(
    isExpected(records, expected), "\(trial): records \(records.map(\.0)) lost \(lost)")
  #expect(lost.allSatisfy { $0.lowerBound > acknowledged.sequence }, "\(trial)")
  #expect(try Journal.verify(path: path).isClean, "\(trial)")
  figures.unacknowledgedKept += last - min(last, acknowledged.sequence)
  figures.unacknowledgedLost += written - min(written, last)

  // The journal takes new events again.
  let writer = try JournalWriter.open(at: path, domain: "test", schemaVersion: 1)
  try appendEvents(writer, (last + 1)...(last + 5))
  try writer.close()
  #expect(
    isExpected(try readAll(JournalReader(path: path)), expected + Array((last + 1)...(last + 5))),
    "\(trial)")
  return last + 5
}

@Suite("Power loss: the journal's writer", .serialized)
struct PowerLossTests {
  /// A writer's work, drawn from a seed: a journal created in place, bursts of events with
  /// and without flushes, closed or abandoned, then continued by a second writer.
  struct Plan {
    var durability: JournalWriterOptions.Durability
    /// For each writer, its bursts (events, then a flush or not) and whether it closes.
    var writers: [(bursts: [(count: UInt64, flush: Bool)], close: Bool)]

    init(seed: UInt64) {
      var random = SplitMix64(seed: seed)
      durability = random.next() % 2 == 0 ? .sealedFrames : .flushOnly
      writers = (0..<2).map { _ in
        let bursts = (0..<(1 + random.next() % 3)).map { _ in
          (count: 1 + random.next() % 150, flush: random.next() % 2 == 0)
        }
        return (bursts, random.next() % 2 == 0)
      }
    }
  }

  /// Runs `plan` on `disk` until it is done or the disk fails, noting what the writers
  /// acknowledged. Returns the last event appended.
  func run(
    _ plan: Plan, on disk: SimulatedDisk, at path: String, _ acknowledged: inout Acknowledged
  )
    -> UInt64
  {
    var options = JournalWriterOptions(frameSize: 1024, durability: plan.durability)
    options.system = disk.calls
    var written: UInt64 = 0
    for (index, part) in plan.writers.enumerated() {
      do {
        let writer =
          index == 0
          ? try JournalWriter.create(at: path, header: header(interval: 40), options: options)
          : try JournalWriter.open(at: path, domain: "test", schemaVersion: 1, options: options)
        acknowledged.created = true
        for burst in part.bursts {
          let first = writer.lastSequence + 1
          for sequence in first...(first + burst.count - 1) {
            try appendEvents(writer, sequence...sequence)
            written = sequence
            if plan.durability == .sealedFrames, let frame = writer.frames.last {
              acknowledged.sequence = max(acknowledged.sequence, frame.lastSequence)
            }
          }
          if burst.flush {
            try writer.flush()
            acknowledged.sequence = writer.lastSequence
          }
        }
        if part.close {
          try writer.close()
          acknowledged.sequence = writer.lastSequence
        }
      } catch {
        #expect(disk.isCut, "only the power cut fails the writer: \(error)")
        return written
      }
    }
    return written
  }

  @Test(
    "a writer creating and continuing a journal loses no acknowledged event to a power cut at any step"
  )
  func everyStep() throws {
    let seed = testSeed("powerLoss.everyStep")
    var random = SplitMix64(seed: seed)
    var figures = PowerLossFigures()
    let trials = soakCount("POWER_CUTS", standard: 400)
    while figures.cuts < trials {
      let planSeed = random.next()
      let plan = Plan(seed: planSeed)
      // A run without a cut counts the steps a cut can come before.
      let steps: Int = {
        let directory = TemporaryDirectory()
        let disk = SimulatedDisk(directory: directory.path)
        var acknowledged = Acknowledged()
        _ = run(plan, on: disk, at: directory.file("a.journal"), &acknowledged)
        return disk.steps
      }()
      for step in 1...(steps + 1) where figures.cuts < trials {
        let directory = TemporaryDirectory()
        let path = directory.file("a.journal")
        let cutSeed = random.next()
        let disk = SimulatedDisk(directory: directory.path, unnamedFiles: cutSeed % 4 != 0)
        disk.cutPower(beforeStep: step, seed: cutSeed)
        var acknowledged = Acknowledged()
        let written = run(plan, on: disk, at: path, &acknowledged)
        let cut = disk.cutPowerNow()
        let trial = "plan \(planSeed), cut before step \(step) (\(cut)), seed \(seed)"
        do {
          _ = try checkAfterPowerCut(
            path, on: disk.restart(), acknowledged: acknowledged, written: written,
            salvageAllowed: plan.durability == .flushOnly,
            cutRecovery: cutSeed % 3 == 0 ? Int((cutSeed >> 8) % 12) + 1 : nil, seed: cutSeed,
            trial: trial, figures: &figures)
        } catch {
          Issue.record("\(trial): \(error)")
        }
        figures.cuts += 1
      }
    }
    print("power loss, journal writer: \(figures)")
  }
}

/// Checks that `records` are exactly events `sequences`, in that order, as the tests
/// write them.
func isExpected(_ records: [(UInt64, UInt64, [UInt8])], _ sequences: [UInt64]) -> Bool {
  records.count == sequences.count
    && zip(records, sequences).allSatisfy { record, sequence in
      record.0 == sequence && record.1 == time(for: sequence) && record.2 == payload(for: sequence)
    }
}
