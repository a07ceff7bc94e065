import Dispatch
import Foundation
import Synchronization

/// Keeps Dispatch's global queues (default and utility) busy: twice as many blocks as
/// cores spin on each until ``stop()`` (or for at most `seconds`), so that work queued
/// there meanwhile waits for a thread, as in a process whose cores are busy with parallel
/// work (Dispatch adds threads to its pool only when its workers block, not while they
/// compute). For checking that a wait of ours never depends on that pool.
final class SpinningGlobalQueues: Sendable {
  private let stopped = Atomic(false)
  private let spinning = Atomic(0)

  /// Starts the spinning blocks and returns once the pool's threads run them (at most
  /// 2 s).
  init(seconds: Double = 10) {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let deadline = Date().addingTimeInterval(seconds)
    for qos in [DispatchQoS.QoSClass.default, .utility] {
      for _ in 0..<(2 * cores) {
        DispatchQueue.global(qos: qos).async { [self] in
          spinning.add(1, ordering: .relaxed)
          while !stopped.load(ordering: .relaxed), Date() < deadline {}
        }
      }
    }
    let started = Date().addingTimeInterval(2)
    while spinning.load(ordering: .relaxed) < cores, Date() < started { usleep(1_000) }
    usleep(100_000)
  }

  deinit { stop() }

  /// Lets the spinning blocks end (those not started yet end as they start).
  func stop() { stopped.store(true, ordering: .relaxed) }
}
