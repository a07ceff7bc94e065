import Navigation
import TestSupport
import Testing

@testable import RewindCore
@testable import RewindJournal

/// The replay's two loops (`Replayer.forEachEvent(through:_:trackChanges:progress:passing:_:)`,
/// an inner one for the common record that passes what `body` does not need) and the
/// recorded effect read from a word (`Replayer.effect(fromWord:count:)`): the same events,
/// fields, states and effects as the paths they stand for.
@Suite("Replay: the inner loop and the effect from a word, the same answers")
struct InnerLoopTests {
  let scans = ParallelScanTests()
  var domain: NavigationDomain { scans.domain }

  /// What `body` is called with: the event's parts, its changed fields and the state
  /// after it.
  struct Visit: Equatable {
    var sequence: UInt64
    var time: UInt64
    var event: String
    var outcome: String
    var recorded: RecordedEffect
    var changed: FieldSet
    var state: NavigationState
  }

  /// A journal of a simulated user's session (mostly scroll differences, as recordings
  /// have) or of random events (every kind), with snapshots and frames every few events.
  func timeline(seed: UInt64, simulated: Bool, in directory: TemporaryDirectory) throws
    -> Timeline<NavigationDomain>
  {
    guard simulated else {
      return try scans.randomTimeline(seed: seed, count: 1_500, in: directory).0
    }
    let path = directory.file("simulated.journal")
    var user = SimulatedUser(seed: seed, domain: domain)
    let recorder = try JournalRecorder.create(
      at: path, domain: domain, session: testSession,
      options: RecordingOptions(snapshotInterval: 97, journal: .init(frameSize: 2048)))
    for _ in 0..<3_000 {
      let (time, event) = user.next()
      try recorder.record(event, at: time)
    }
    try recorder.close()
    return try Timeline<NavigationDomain>(path: path)
  }

  func visit(
    _ event: ReplayedEvent<NavigationDomain>, _ changed: FieldSet, _ state: NavigationState
  )
    -> Visit
  {
    Visit(
      sequence: event.sequence, time: event.time, event: domain.describe(event.event),
      outcome: "\(String(describing: event.outcome))", recorded: event.recorded,
      changed: changed, state: state)
  }

  @Test("body sees every event passing does not pass, as the one loop gives it")
  func passingSkipsOnlyWhatItPasses() throws {
    var random = SplitMix64(seed: testSeed("innerLoopPassing"))
    var (passed, offered) = (0, 0)
    for trial in 0..<8 {
      let directory = TemporaryDirectory()
      let timeline = try timeline(seed: random.next(), simulated: trial % 2 == 0, in: directory)
      let last = timeline.lastSequence
      let from = random.next() % (last / 2)
      let to = from + 1 + random.next() % (last - from)
      let trackChanges = trial % 4 < 2
      // Every event through the one loop.
      var all: [Visit] = []
      var (replayer, state) = try timeline.replayer(toReach: from)
      try replayer.apply(through: from, to: &state)
      let start = state
      var reference = replayer
      try reference.forEachEvent(through: to, &state, trackChanges: trackChanges) {
        event, changed, state in
        all.append(visit(event, changed, state))
        return true
      }
      let end = state
      // Through the two loops, passing events by their sequence and changed fields.
      let mask = random.next()
      let fields = FieldSet(rawValue: random.next() & random.next())
      var visits: [Visit] = []
      var passedHere: [Visit] = []
      state = start
      try replayer.forEachEvent(
        through: to, &state, trackChanges: trackChanges,
        passing: { event, changed in
          guard mask &>> (event.sequence % 64) & 1 == 1, changed.intersection(fields).isEmpty
          else { return false }
          passedHere.append(visit(event, changed, end))
          return true
        },
        { event, changed, state in
          visits.append(visit(event, changed, state))
          return true
        })
      #expect(state == end)
      #expect(replayer.sequence == reference.sequence)
      // Each event once, by one of the two, with what the one loop gives.
      let passedSequences = Set(passedHere.map(\.sequence))
      #expect(visits == all.filter { !passedSequences.contains($0.sequence) })
      for event in passedHere {
        let expected = all.first { $0.sequence == event.sequence }
        #expect(expected?.time == event.time)
        #expect(expected?.event == event.event)
        #expect(expected?.outcome == event.outcome)
        #expect(expected?.recorded == event.recorded)
        #expect(expected?.changed == event.changed)
      }
      #expect(visits.count + passedHere.count == all.count)
      if trial % 2 == 0 {
        // What `passing` would pass, were every event offered to it.
        let passable = all.filter {
          mask &>> ($0.sequence % 64) & 1 == 1 && $0.changed.intersection(fields).isEmpty
        }
        passed += passedHere.count
        offered += passable.count
      }
    }
    // The inner loop took most of what it could in the simulated sessions, whose records
    // are mostly scroll differences (the share does not hang on the random mask and fields).
    #expect(offered == 0 || passed > offered / 2, "passed \(passed) of \(offered) passable")
  }

  @Test("body stopping ends the two loops where it stops, as the one loop")
  func stoppingEarly() throws {
    var random = SplitMix64(seed: testSeed("innerLoopStopping"))
    for trial in 0..<6 {
      let directory = TemporaryDirectory()
      let timeline = try timeline(seed: random.next(), simulated: trial % 2 == 0, in: directory)
      let stop = 1 + random.next() % timeline.lastSequence
      var (replayer, state) = try timeline.replayer(toReach: 0)
      var sequences: [UInt64] = []
      let finished = try replayer.forEachEvent(
        through: .max, &state, trackChanges: true,
        passing: { event, _ in event.sequence % 3 != 0 && event.sequence != stop },
        { event, _, _ in
          sequences.append(event.sequence)
          return event.sequence != stop
        })
      #expect(!finished)
      #expect(replayer.sequence == stop)
      #expect(sequences.last == stop)
      var (alone, expected) = try timeline.replayer(toReach: 0)
      try alone.apply(through: stop, to: &expected)
      #expect(state == expected)
    }
  }

  @Test("the effect read from a word is the effect decoded, or nil and left to the decoder")
  func effectFromWord() {
    var random = SplitMix64(seed: testSeed("innerLoopEffectWord"))
    var taken = 0
    for _ in 0..<60_000 {
      // Payloads of 0 to 8 bytes whose first bytes are mostly varints of one to four
      // bytes, some with a redundant zero, and random bytes after them in the word.
      var bytes = (0..<8).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      let continuing = Int(random.next() % 4)
      for index in 0..<continuing { bytes[index] |= 0x80 }
      if continuing < 3 { bytes[continuing] &= 0x7F }
      if random.next() % 8 == 0 { bytes[continuing] = 0 }
      let count = Int(random.next() % 9)
      let word = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
      let fast = Replayer<NavigationDomain>.effect(fromWord: word, count: count)
      let decoded = Array(bytes[..<count]).withUnsafeBytes {
        buffer -> (effect: RecordedEffect, length: Int)? in
        var reader = ByteReader(buffer)
        guard let effect = try? RecordedEffect.decode(from: &reader) else { return nil }
        return (effect, reader.offset)
      }
      if let fast {
        taken += 1
        #expect(decoded?.effect == fast.effect, "\(bytes) \(count)")
        #expect(decoded?.length == fast.length, "\(bytes) \(count)")
      } else if let decoded {
        // Only effects of four bytes or more, or filling the payload, are left.
        #expect(decoded.length > 3 || decoded.length == count, "\(bytes) \(count)")
      }
    }
    #expect(taken > 10_000)
  }
}
