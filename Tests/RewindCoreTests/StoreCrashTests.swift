import Foundation
import Navigation
import TestSupport
import Testing

@testable import RewindCore
@testable import RewindJournal

@Suite("Crash safety: a recording store", .serialized)
struct StoreCrashTests {
  /// Runs the child recorder until it has acknowledged a flush and a random moment has
  /// passed, kills it with SIGKILL, and returns the last acknowledged sequence (nil if it
  /// acknowledged none).
  func runAndKill(_ path: String, seed: UInt64, delay: useconds_t) throws -> UInt64? {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: productsDirectory + "/StoreCrashRecorder")
    child.arguments = [path, String(seed)]
    let pipe = Pipe()
    child.standardOutput = pipe
    try child.run()
    let reading = pipe.fileHandleForReading
    var received = Data()
    while !received.contains(UInt8(ascii: "\n")) {
      let chunk = reading.availableData
      if chunk.isEmpty { break }
      received.append(chunk)
    }
    usleep(delay)
    kill(child.processIdentifier, SIGKILL)
    child.waitUntilExit()
    received.append(reading.readDataToEndOfFile())
    #expect(child.terminationReason == .uncaughtSignal, "the recorder stopped by itself")
    let lines = String(decoding: received, as: UTF8.self).split(separator: "\n")
    // A line cut by the kill is not an acknowledgement.
    let complete = received.last == UInt8(ascii: "\n") ? lines : lines.dropLast()
    return complete.compactMap { UInt64($0.split(separator: " ").last ?? "") }.max()
  }

  @Test(
    "kill -9 of a recording store, continued after each recovery, never loses an acknowledged event"
  )
  func killedStore() throws {
    let seed = testSeed("killedStore")
    var random = SplitMix64(seed: seed)
    let directory = TemporaryDirectory()
    let path = directory.file("store.journal")
    let rounds = soakCount("STORE_KILLS", standard: 12)
    var acknowledged: UInt64 = 0
    var recovered = 0
    var unacknowledgedKept: UInt64 = 0
    for round in 0..<rounds {
      let start = acknowledged
      let childSeed = random.next() | 1
      let delay = useconds_t(random.next() % 20_000)
      let flushed = try runAndKill(path, seed: childSeed, delay: delay)
      let what = "round \(round), child seed \(childSeed), seed \(seed)"
      #expect(flushed != nil, "\(what): no flush was acknowledged")
      acknowledged = max(acknowledged, flushed ?? 0)

      let report = try Journal.recover(path: path)
      if report.changed {
        recovered += 1
        try FileManager.default.removeItem(atPath: path + ".damaged")
      }
      #expect(report.lastSequence >= acknowledged, "\(what): acknowledged events lost")
      let timeline = try Timeline<NavigationDomain>(path: path)
      // The whole journal verified and replayed against its snapshots every tenth round
      // and at the end (each costs the journal's length: every round would make a long
      // soak quadratic); every round checks its own events below.
      if round % 10 == 9 || round == rounds - 1 {
        #expect(try Journal.verify(path: path).isClean, "\(what)")
        #expect(try timeline.check().passed, "\(what): replay differs from the snapshots")
      }
      // The events of this round are the child's user's, in order, from the first.
      var user = SimulatedUser(seed: childSeed, domain: timeline.domain)
      if timeline.lastSequence > start {
        var index = 0
        try timeline.events(from: start + 1, through: timeline.lastSequence) { event, _, _ in
          let expected = user.next().event
          #expect(
            timeline.domain.describe(event.event) == timeline.domain.describe(expected),
            "\(what): event \(start + UInt64(index) + 1)")
          index += 1
          return true
        }
      }
      unacknowledgedKept += timeline.lastSequence - acknowledged
      acknowledged = timeline.lastSequence
    }
    print(
      "kill -9 of a recording store: \(rounds) kills, \(recovered) journals recovered, \(acknowledged) events in the journal at the end, \(unacknowledgedKept) of them written but not yet acknowledged when killed; acknowledged events lost: 0"
    )
  }
}
