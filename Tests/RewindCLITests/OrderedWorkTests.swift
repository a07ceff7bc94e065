import Foundation
import Synchronization
import TestSupport
import Testing

@testable import RewindCLI

/// `Context.inOrder`: work on several threads, results and standard error in order.
@Suite("Work on several threads, in order")
struct OrderedWorkTests {
  @Test("results and stderr come in the items' order whatever the threads and their speeds")
  func order() {
    let seed = testSeed("orderedWork")
    var random = SplitMix64(seed: seed)
    // Each item spins for a random while, so that items end out of order.
    let spins = (0..<40).map { _ in Int.random(in: 0..<20_000, using: &random) }
    for workers in [1, 2, 3, 8] {
      let context = Context.capture()
      let running = Atomic<Int>(0)
      let most = Atomic<Int>(0)
      let results = context.inOrder(spins.count, workers: workers, label: "Working") {
        index, item, progress in
        let now = running.add(1, ordering: .relaxed).newValue
        _ = most.max(now, ordering: .relaxed)
        progress.size(UInt64(spins[index]))
        var total = 0
        for step in 0..<spins[index] {
          total &+= step
          if step & 0x3FF == 0 { progress.update(UInt64(step)) }
        }
        item.stderr.print("item \(index)")
        item.stdout.print("not written")
        _ = running.subtract(1, ordering: .relaxed)
        return (index, total)
      }
      #expect(results.map(\.0) == Array(spins.indices), "seed \(seed), \(workers) workers")
      #expect(results.map(\.1) == spins.map { (0..<$0).reduce(0, &+) })
      #expect(
        context.stderr.text == spins.indices.map { "item \($0)\n" }.joined(),
        "seed \(seed), \(workers) workers")
      // What items print on stdout is theirs to return; the caller prints results.
      #expect(context.stdout.text.isEmpty)
      #expect(most.load(ordering: .relaxed) <= workers)
    }
  }

  @Test("one bar over all the items on a terminal, erased before the items' stderr")
  func bar() {
    var ticks: UInt64 = 0
    let context = Context.capture(stderrIsTerminal: true) {
      ticks += 1_000_000_000
      return ticks
    }
    let results = context.inOrder(3, workers: 2, label: "Checking 3 journals") {
      index, item, progress in
      progress.size(1_000)
      // A hundred milliseconds or more: the bar is drawn (every 20 ms) while they run.
      for done in stride(from: 0, through: 1_000, by: 10) {
        progress.update(UInt64(done))
        Thread.sleep(forTimeInterval: 0.001)
      }
      item.stderr.print("warning \(index)")
      return index
    }
    #expect(results == [0, 1, 2])
    let text = context.stderr.text
    #expect(text.contains("\rChecking 3 journals "))
    #expect(text.hasSuffix("warning 2\n"))
    // Each item's line starts a line of its own: a bar before it was erased first.
    let lines = text.split(separator: "\n").filter { $0.contains("warning") }
    #expect(lines.count == 3)
    for (index, line) in lines.enumerated() {
      #expect(line == "warning \(index)" || line.hasSuffix("\r\u{1B}[Kwarning \(index)"))
    }
  }

  @Test("no items: nothing run, no bar")
  func empty() {
    let context = Context.capture(stderrIsTerminal: true)
    let results: [Int] = context.inOrder(0, workers: 4, label: "Nothing") { index, _, _ in index }
    #expect(results.isEmpty)
    #expect(context.stderr.text.isEmpty)
  }
}
