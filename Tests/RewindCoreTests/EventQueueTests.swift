import Dispatch
import Foundation
import Synchronization
import Testing

@testable import RewindCore

/// An element that counts how many of its kind are alive.
final class Tracked: Sendable {
  static let alive = Atomic<Int>(0)
  let value: Int
  init(_ value: Int) {
    self.value = value
    Tracked.alive.add(1, ordering: .relaxed)
  }
  deinit { Tracked.alive.subtract(1, ordering: .relaxed) }
}

/// A clock the test moves by hand, in nanoseconds.
final class ManualClock: Sendable {
  let nanoseconds = Atomic<UInt64>(1_000_000_000)
  var read: @Sendable () -> UInt64 { { [self] in nanoseconds.load(ordering: .relaxed) } }
  func advance(milliseconds: UInt64) {
    nanoseconds.add(milliseconds * 1_000_000, ordering: .relaxed)
  }
}

/// Reads everything up to a refresh, removing it.
func drain<Element>(_ queue: EventQueue<Element>) -> [Element] {
  queue.refresh()
  var taken: [Element] = []
  while let first = queue.first {
    taken.append(first)
    queue.removeFirst()
  }
  return taken
}

@Suite("Store: the queue between senders and the writer")
struct EventQueueTests {
  @Test("elements come out in the order pushed, across many chunks")
  func order() {
    let queue = EventQueue<Int>(chunkCapacity: 4, spares: 1, maximumSpares: 3)
    var next = 0
    var taken: [Int] = []
    for batch in [1, 3, 4, 5, 0, 17, 8, 2, 31] {
      for _ in 0..<batch {
        queue.push(next)
        next += 1
      }
      taken += drain(queue)
    }
    #expect(taken == Array(0..<next))
    #expect(queue.count == 0)
    #expect(queue.removedTotal == UInt64(next))
  }

  @Test("the consumer reads only what was pushed before its refresh")
  func batches() {
    let queue = EventQueue<Int>(chunkCapacity: 2)
    for value in 0..<3 { queue.push(value) }
    #expect(queue.refresh() == 3)
    for value in 3..<5 { queue.push(value) }
    var taken: [Int] = []
    while let first = queue.first {
      taken.append(first)
      queue.removeFirst()
    }
    #expect(taken == [0, 1, 2])
    #expect(queue.isEmpty)
    #expect(queue.count == 2, "pushed and not removed, whatever the consumer has seen")
    #expect(drain(queue) == [3, 4])
  }

  @Test("emptied chunks come back as spares: a steady producer allocates nothing")
  func reuse() {
    let queue = EventQueue<Int>(chunkCapacity: 8, spares: 2, maximumSpares: 4)
    var expected = 0
    for round in 0..<500 {
      // Up to two chunks' worth between reads: the two spares and the emptied chunks
      // always cover it.
      for value in 0..<(round % 17) { queue.push(value) }
      let taken = drain(queue)
      #expect(taken == Array(0..<(round % 17)))
      expected += taken.count
    }
    #expect(queue.chunksAllocatedByProducer == 0)
    #expect(queue.removedTotal == UInt64(expected))
    #expect(queue.spareCount <= 4)
  }

  @Test("with no spare left, the producer allocates a chunk instead of waiting")
  func growth() {
    let queue = EventQueue<Int>(chunkCapacity: 4, spares: 0, maximumSpares: 2)
    for value in 0..<100 { queue.push(value) }
    // The first chunk holds 4; 24 more chunks hold the rest.
    #expect(queue.chunksAllocatedByProducer == 24)
    #expect(drain(queue) == Array(0..<100))
    #expect(queue.spareCount == 2, "chunks emptied beyond the most spares kept are freed")
  }

  @Test("the spares stocked last the coverage time at the rate the producer takes them")
  func stocking() {
    let clock = ManualClock()
    let queue = EventQueue<Int>(
      chunkCapacity: 4, spares: 1, maximumSpares: 40, clock: clock.read)
    #expect(queue.spareCount == 1)
    // Three chunks in 2 ms: 1 spare taken, 2 chunks allocated by the producer.
    for value in 0..<13 { queue.push(value) }
    #expect(queue.chunksAllocatedByProducer == 2)
    clock.advance(milliseconds: 2)
    queue.stockSpares()
    // 1 spare taken in 2 ms: 10 in the 20 ms of coverage, plus the minimum of 1.
    #expect(queue.spareCount == 11)

    // Within a millisecond the rate is not measured again: the target stays, and the
    // two spares taken meanwhile are replaced.
    for value in 0..<8 { queue.push(value) }
    #expect(queue.spareCount == 9)
    queue.stockSpares()
    #expect(queue.spareCount == 11)

    // Idle for a second: the target falls to 2, and the spares already stocked stay
    // (they are freed only when chunks come back beyond the maximum).
    clock.advance(milliseconds: 1_000)
    queue.stockSpares()
    #expect(queue.spareCount == 11)

    // Nine chunks in a millisecond: the target is capped at the maximum.
    for value in 0..<(4 * 9) { queue.push(value) }
    #expect(queue.spareCount == 2)
    clock.advance(milliseconds: 1)
    queue.stockSpares()
    #expect(queue.spareCount == 40)
    #expect(queue.chunksAllocatedByProducer == 2)
  }

  @Test("the consumer stocks spares as it moves on from each chunk")
  func stockingWhileReading() {
    let clock = ManualClock()
    let queue = EventQueue<Int>(
      chunkCapacity: 2, spares: 0, maximumSpares: 8, clock: clock.read)
    for value in 0..<10 { queue.push(value) }
    clock.advance(milliseconds: 1)
    // The producer took no spare (there were none): the target is the minimum, 0.
    #expect(drain(queue) == Array(0..<10))
    #expect(queue.spareCount == 4, "the emptied chunks, the one being read kept")
  }

  @Test("what is still queued is destroyed with the queue, exactly once")
  func lifetimes() {
    let before = Tracked.alive.load(ordering: .relaxed)
    do {
      let queue = EventQueue<Tracked>(chunkCapacity: 3, spares: 1, maximumSpares: 2)
      for value in 0..<20 { queue.push(Tracked(value)) }
      queue.refresh()
      for _ in 0..<7 { queue.removeFirst() }
      #expect(queue.first?.value == 7)
      #expect(Tracked.alive.load(ordering: .relaxed) - before == 13)
    }
    #expect(Tracked.alive.load(ordering: .relaxed) == before)
  }

  @Test("one producer thread and one consumer thread: every element, in order")
  func twoThreads() {
    let count = 300_000
    let queue = EventQueue<(time: UInt64, event: Int)>(chunkCapacity: 64, spares: 1)
    let done = DispatchSemaphore(value: 0)
    let mismatches = Atomic<Int>(0)
    let consumed = Atomic<Int>(0)
    let consumer = Thread {
      var expected = 0
      let deadline = ContinuousClock.now + .seconds(60)
      while expected < count && ContinuousClock.now < deadline {
        queue.refresh()
        while let first = queue.first {
          if first.time != UInt64(expected) || first.event != expected * 3 {
            mismatches.add(1, ordering: .relaxed)
          }
          queue.removeFirst()
          expected += 1
        }
        queue.stockSpares()
      }
      consumed.store(expected, ordering: .relaxed)
      done.signal()
    }
    consumer.start()
    let producer = queue.producerHandle
    for value in 0..<count { producer.push((UInt64(value), value * 3)) }
    #expect(done.wait(timeout: .now() + .seconds(90)) == .success)
    #expect(consumed.load(ordering: .relaxed) == count)
    #expect(mismatches.load(ordering: .relaxed) == 0)
  }

  @Test("removing from an empty queue is a programmer error")
  func removeFromEmpty() async {
    await #expect(processExitsWith: .failure) {
      let queue = EventQueue<Int>(chunkCapacity: 4)
      queue.push(1)
      queue.removeFirst()
    }
  }

  @Test("a chunk holds at least one element")
  func emptyChunks() async {
    await #expect(processExitsWith: .failure) {
      _ = EventQueue<Int>(chunkCapacity: 0)
    }
  }
}
