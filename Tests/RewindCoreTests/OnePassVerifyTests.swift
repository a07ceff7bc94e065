import Navigation
import TestSupport
import Testing

@testable import RewindCore
@testable import RewindJournal

/// `verify --deep` in one pass (`DeepCheck.verify`: each frame decompressed once, the
/// storage check and the content's on the same bytes) and in parts on several threads:
/// the reports of the storage check (`Journal.verify`) and the deep check
/// (`DeepCheck.check`) run one after the other, on intact and damaged journals.
@Suite("verify --deep in one pass and in parts: the two checks' reports")
struct OnePassVerifyTests {
  let domain = NavigationDomain()

  /// Everything the two reports say, as text.
  func summary(_ storage: VerificationReport, _ content: Result<DeepCheckReport, JournalError>)
    -> String
  {
    func text(_ problems: [VerificationProblem]) -> String {
      problems.map { "\($0.kind) \($0.frame ?? -1) \($0.offset ?? 0) \($0): \($0.message)" }
        .joined(separator: "\n")
    }
    func text(_ repair: ContentRepair) -> String {
      switch repair {
      case .drop(let reason): "drop \(reason)"
      case .replaceSnapshots(let snapshots):
        snapshots.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(
          separator: " ")
      }
    }
    var lines = [
      "\(storage.header == nil) \(storage.frameCount) \(storage.damagedFrameCount) \(storage.recordCount) \(storage.damagedRecordCount) \(storage.snapshotCount) \(storage.hasIndex) \(storage.isClosed) \(storage.lastSequence)",
      text(storage.problems),
    ]
    switch content {
    case .success(let report):
      lines.append(
        "\(report.contentChecked) \(report.eventsDecoded) \(report.snapshotsChecked) \(report.snapshotsCompared) \(report.snapshotsRestartingReplay)"
      )
      lines.append(text(report.problems))
      lines.append(
        report.repairs.sorted { $0.key < $1.key }.map { "\($0.key): \(text($0.value))" }
          .joined(separator: ", "))
    case .failure(let error):
      lines.append("not read: \(error.message)")
    }
    return lines.joined(separator: "\n")
  }

  /// The two checks one after the other, as `verify --deep` ran them before.
  func twoPasses(_ path: String, domains: [any Domain.Type]) -> String {
    do throws(JournalError) {
      let storage = try Journal.verify(path: path)
      let content: Result<DeepCheckReport, JournalError>
      do throws(JournalError) {
        let reader = try JournalReader(path: path, options: .init(salvage: true))
        content = .success(DeepCheck.check(reader, domains: domains))
      } catch {
        content = .failure(error)
      }
      return summary(storage, content)
    } catch {
      return "throws: \(error)"
    }
  }

  /// `DeepCheck.verify` on `jobs` threads.
  func onePass(_ path: String, domains: [any Domain.Type], jobs: Int) -> String {
    do throws(JournalError) {
      let (storage, content) = try DeepCheck.verify(
        path: path, domains: domains, jobs: jobs, progress: { _, _ in })
      return summary(storage, content)
    } catch {
      return "throws: \(error)"
    }
  }

  /// `Timeline.verifyDeep` of the journal at `path` (opened with salvage) with parts of at
  /// least 50 events, on `jobs` threads; nil when the journal cannot be opened so.
  func inParts<D: Domain>(_ type: D.Type, _ path: String, jobs: Int) -> String? {
    guard let reader = try? JournalReader(path: path, options: .init(salvage: true)),
      let timeline = try? Timeline<D>(reader: reader)
    else { return nil }
    timeline.minimumEventsPerPart = 50
    do throws(JournalError) {
      let (storage, content) = try timeline.verifyDeep(jobs: jobs, progress: { _, _ in })
      return summary(storage, .success(content))
    } catch {
      return "throws: \(error)"
    }
  }

  /// A random Navigation journal of `count` events in small frames (1 KiB), a snapshot
  /// every 29 events.
  func randomJournal(_ path: String, seed: UInt64, count: Int) throws {
    var generator = RandomEventGenerator(seed: seed, domain: domain)
    let recorder = try JournalRecorder.create(
      at: path, domain: domain, session: testSession,
      options: RecordingOptions(snapshotInterval: 29, journal: .init(frameSize: 1024)))
    for index in 0..<count {
      try recorder.record(generator.next(), at: UInt64(index) * 1_000)
    }
    try recorder.close()
  }

  /// `source` damaged at random: bits flipped, the file cut short, two frames swapped, or
  /// bytes of one frame written over another's.
  func damaged(_ source: [UInt8], frames: [FrameInfo], using random: inout SplitMix64)
    -> [UInt8]
  {
    var bytes = source
    switch Int.random(in: 0..<4, using: &random) {
    case 0:
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let bit = Int.random(in: 0..<(bytes.count * 8), using: &random)
        bytes[bit / 8] ^= UInt8(1 << (bit % 8))
      }
    case 1:
      bytes.removeLast(Int.random(in: 1..<bytes.count, using: &random))
    case 2:
      let first = Int.random(in: 0..<(frames.count - 1), using: &random)
      let second = Int.random(in: (first + 1)..<frames.count, using: &random)
      let a = Int(frames[first].offset)..<Int(frames[first].endOffset)
      let b = Int(frames[second].offset)..<Int(frames[second].endOffset)
      bytes =
        Array(source[..<a.lowerBound]) + source[b] + source[a.upperBound..<b.lowerBound]
        + source[a] + source[b.upperBound...]
    default:
      let from = frames[Int.random(in: 0..<frames.count, using: &random)]
      let to = frames[Int.random(in: 0..<frames.count, using: &random)]
      let length = min(Int(from.endOffset - from.offset), Int(to.endOffset - to.offset))
      let start = Int(from.offset)
      bytes.replaceSubrange(
        Int(to.offset)..<(Int(to.offset) + length), with: source[start..<(start + length)])
    }
    return bytes
  }

  @Test("one pass gives the two passes' reports on random journals and damaged copies of them")
  func onePassMatchesTwoPasses() throws {
    let seed = testSeed("onePassMatchesTwoPasses")
    var random = SplitMix64(seed: seed)
    let directory = TemporaryDirectory()
    let source = directory.file("random.journal")
    try randomJournal(source, seed: seed, count: 3_000)
    let frames = try JournalReader(path: source).frames
    #expect(frames.count > 4)
    let original = bytes(of: source)
    let domains: [any Domain.Type] = [NavigationDomain.self]
    let intact = twoPasses(source, domains: domains)
    #expect(onePass(source, domains: domains, jobs: 1) == intact)
    #expect(intact.contains("\ntrue 3000 "), "\(intact)")
    let path = directory.file("damaged.journal")
    var differing = 0
    for round in 0..<soakCount("onePassMatchesTwoPasses", standard: 60) {
      write(damaged(original, frames: frames, using: &random), to: path)
      let expected = twoPasses(path, domains: domains)
      if expected != intact { differing += 1 }
      for jobs in [1, 2] {
        #expect(
          onePass(path, domains: domains, jobs: jobs) == expected,
          "seed \(seed) round \(round) --jobs \(jobs)")
      }
    }
    // Most damage is found.
    #expect(differing > 30)
  }

  @Test("one pass gives the two passes' reports where the content is wrong and the bytes right")
  func onePassMatchesTwoPassesOnContent() throws {
    let directory = TemporaryDirectory()
    let source = directory.file("tally.journal")
    try recordTally(at: source, count: 3_000, seed: 3, interval: 64)
    let journals = [
      source,
      // A snapshot's state changed, its hash made to match: it differs from replay.
      try crafted(source, directory, "snapshot.journal") { changes in
        changes.snapshot = { snapshot in
          guard snapshot.sequence == 1_024 else { return }
          var state = snapshot.state
          state[state.count - 1] ^= 1
          snapshot = Snapshot(
            sequence: snapshot.sequence, stateHash: XXH64.hash(state), state: state)
        }
      },
      // An event that does not decode.
      try crafted(source, directory, "event.journal") { changes in
        changes.payload = { sequence, payload in
          if sequence == 700 { payload = [0xFF, 0xFF, 0xFF] }
        }
      },
    ]
    for path in journals {
      for domains in [[StandardTally.self], [Tally<AlteredRules>.self], [Notes.self]]
        as [[any Domain.Type]]
      {
        let expected = twoPasses(path, domains: domains)
        for jobs in [1, 2, 3] {
          #expect(onePass(path, domains: domains, jobs: jobs) == expected, "\(path) \(domains)")
        }
      }
    }
  }

  /// `source` copied to `name` through `copyJournal` with `change`.
  func crafted(
    _ source: String, _ directory: TemporaryDirectory, _ name: String,
    _ change: (inout JournalChanges) -> Void
  ) throws -> String {
    var changes = JournalChanges()
    change(&changes)
    let path = directory.file(name)
    try copyJournal(source, to: path, changes: changes)
    return path
  }

  @Test("verify --deep on 2, 3 and 4 threads reports what one thread reports, damaged or not")
  func partsMatchOnePass() throws {
    let seed = testSeed("partsMatchOnePass")
    var random = SplitMix64(seed: seed)
    let directory = TemporaryDirectory()
    let source = directory.file("random.journal")
    try randomJournal(source, seed: seed, count: 4_000)
    let frames = try JournalReader(path: source).frames
    let original = bytes(of: source)

    // Intact: the journal splits into more parts than jobs, checked on the threads, and
    // the content's report is the one pass's.
    let timeline = try Timeline<NavigationDomain>(
      reader: JournalReader(path: source, options: .init(salvage: true)))
    timeline.minimumEventsPerPart = 50
    let whole = timeline.deepCheck()
    for jobs in [2, 3, 4] {
      #expect((timeline.deepCheckParts(jobs: jobs)?.count ?? 0) > jobs)
      let parts = try #require(timeline.deepVerifyInParts(jobs: jobs, progress: { _, _ in }))
      #expect(parts.checks.count == frames.count && parts.checks.allSatisfy(\.isGood))
      #expect(parts.report.eventsDecoded == 4_000)
      #expect(
        summary(try Journal.verify(path: source), .success(parts.report))
          == summary(try Journal.verify(path: source), .success(whole)))
    }
    // The storage check walks the frames of the closed journal the reader read from its
    // index: the same frames, so that `verifyDeep` takes the parts' checks.
    var walked: [FrameInfo] = []
    _ = try Journal.verify(
      path: source, system: .live, progress: { _, _ in },
      checkAll: { frames in
        walked = frames
        return nil
      }, each: { _, _ in nil })
    #expect(walked == timeline.reader.frames)
    #expect(timeline.reader.condition.openedFromIndex)
    let one = try #require(inParts(NavigationDomain.self, source, jobs: 1))
    #expect(one == twoPasses(source, domains: [NavigationDomain.self]))
    for jobs in [2, 3, 4] { #expect(inParts(NavigationDomain.self, source, jobs: jobs) == one) }

    let path = directory.file("damaged.journal")
    for round in 0..<soakCount("partsMatchOnePass", standard: 40) {
      write(damaged(original, frames: frames, using: &random), to: path)
      guard let one = inParts(NavigationDomain.self, path, jobs: 1) else { continue }
      #expect(one == twoPasses(path, domains: [NavigationDomain.self]), "seed \(seed) \(round)")
      for jobs in [2, 3, 4] {
        #expect(
          inParts(NavigationDomain.self, path, jobs: jobs) == one, "seed \(seed) \(round) \(jobs)")
      }
    }
  }

  @Test("a reducer that departs from the recorded snapshots: parts give the one pass's report")
  func alteredReducerInParts() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("tally.journal")
    try recordTally(at: path, count: 5_000, seed: 5, interval: 128)
    let one = try #require(inParts(Tally<AlteredRules>.self, path, jobs: 1))
    #expect(one == twoPasses(path, domains: [Tally<AlteredRules>.self]))
    #expect(one.contains("differs from the state replayed up to it"))
    for jobs in [2, 3, 4] { #expect(inParts(Tally<AlteredRules>.self, path, jobs: jobs) == one) }
    let faithful = try #require(inParts(StandardTally.self, path, jobs: 1))
    #expect(faithful == twoPasses(path, domains: [StandardTally.self]))
    for jobs in [2, 3, 4] { #expect(inParts(StandardTally.self, path, jobs: jobs) == faithful) }
  }
}
