import Foundation
import RewindJournal

/// What a journal's writer (or a recording store) has promised is durable: the journal
/// exists once its creation returns, and the events up to `sequence` survive, by the
/// documented promise (`flush` and `close` returned; with `sealedFrames`, the frames a
/// returning call sealed).
package struct Acknowledged: Sendable {
  package var created = false
  package var sequence: UInt64 = 0

  package init() {}
}

/// The figures of a power-loss run, printed at its end.
package struct PowerLossFigures: Sendable, CustomStringConvertible {
  package var cuts = 0
  /// Journals that verified as they were, and those that needed `recover`.
  package var openedAsTheyWere = 0
  package var recovered = 0
  /// Journals flushed only on request that needed salvage: an unsynced frame lost before
  /// one that reached the disk.
  package var salvaged = 0
  /// Recoveries cut by a second power cut, and run again.
  package var recoveriesCut = 0
  /// Journals whose creation never returned and that the cut left absent or unreadable.
  package var creationsLost = 0
  /// Events written but not acknowledged that the cut took (allowed), and those that
  /// survived (allowed, in order).
  package var unacknowledgedLost: UInt64 = 0
  package var unacknowledgedKept: UInt64 = 0

  package init() {}

  package var description: String {
    "\(cuts) power cuts: \(openedAsTheyWere) journals verified as they were, \(recovered) after recover (\(salvaged) of them with salvage; \(recoveriesCut) recoveries cut by a second power cut and run again), \(creationsLost) creations not acknowledged and lost; unacknowledged events: \(unacknowledgedKept) kept in order, \(unacknowledgedLost) lost; acknowledged events lost: 0"
  }
}

/// A broken promise found after a power cut.
package struct PowerLossFailure: Error, CustomStringConvertible {
  package var description: String
  package init(_ description: String) { self.description = description }
}

/// Brings a journal back after a power cut, as a user would: it must verify as it is, or
/// after `recover` (which may itself be cut by another power cut, and is then run again).
///
/// - Parameters:
///   - disk: the disk after the reboot.
///   - acknowledged: what the writer promised.
///   - salvageAllowed: the journal was flushed only on request, so a frame that reached the
///     disk may follow one that did not; recovery then needs salvage, which is allowed when
///     the damage lies after every acknowledged event.
///   - cutRecovery: cut the first recovery before this step of it, drawing from `seed`.
/// - Returns: false when the journal's creation was never acknowledged and the cut left
///   no readable journal (it is then removed).
/// - Throws: ``PowerLossFailure`` when a promise is broken; `JournalError` when reading
///   fails.
package func reopenAfterPowerCut(
  _ path: String, on disk: SimulatedDisk, acknowledged: Acknowledged, salvageAllowed: Bool,
  cutRecovery: Int?, seed: UInt64, figures: inout PowerLossFigures
) throws -> Bool {
  var disk = disk
  var cutRecovery = cutRecovery
  var recovered = false
  while true {
    var options = JournalReader.Options(useIndex: true)
    options.system = disk.calls
    let verification: VerificationReport
    do {
      _ = try JournalReader(path: path, options: options)
      // Opening reads no frame: verification reads them all.
      verification = try Journal.verify(path: path, system: disk.calls)
    } catch {
      if !FileManager.default.fileExists(atPath: path) {
        guard !acknowledged.created else {
          throw PowerLossFailure("the journal is gone: \(error)")
        }
        figures.creationsLost += 1
        return false
      }
      // Only a journal whose creation never returned may lack a readable header; the
      // header of one that returned was synced, and recovery rebuilds it from its copy.
      guard acknowledged.created || recovered else {
        if (try? Journal.recover(path: path, output: nil, salvage: false, system: disk.calls))
          == nil
        {
          figures.creationsLost += 1
          try FileManager.default.removeItem(atPath: path)
          return false
        }
        recovered = true
        continue
      }
      throw PowerLossFailure(
        recovered
          ? "unreadable after recovery: \(error)"
          : "a journal whose creation returned does not open: \(error)")
    }
    if verification.isClean { break }
    if recovered {
      throw PowerLossFailure("the journal needs recovery after recovery: \(verification.problems)")
    }
    if let step = cutRecovery {
      // Recovery itself loses power: the journal must stay as good as it was.
      disk.cutPower(beforeStep: step, seed: seed)
      _ = try? Journal.recover(path: path, output: nil, salvage: false, system: disk.calls)
      disk = disk.restart()
      cutRecovery = nil
      figures.recoveriesCut += 1
      continue
    }
    do {
      let report = try Journal.recover(path: path, output: nil, salvage: false, system: disk.calls)
      if report.lastSequence < acknowledged.sequence {
        throw PowerLossFailure(
          "recovery kept events up to \(report.lastSequence) of \(acknowledged.sequence) acknowledged"
        )
      }
    } catch let error as JournalError
      where salvageAllowed && error.code == .corruptFrame
      && error.sequenceRange.map({ $0.lowerBound > acknowledged.sequence }) == true
    {
      // Unsynced frames of a journal flushed only on request: a later one reached the
      // disk and an earlier one did not. Recovery keeps the later one only when asked.
      _ = try Journal.recover(path: path, output: nil, salvage: true, system: disk.calls)
      figures.salvaged += 1
    } catch let error as JournalError {
      throw PowerLossFailure("recovery failed: \(error)")
    }
    recovered = true
  }
  if recovered { figures.recovered += 1 } else { figures.openedAsTheyWere += 1 }
  try? FileManager.default.removeItem(atPath: path + ".damaged")
  return true
}
