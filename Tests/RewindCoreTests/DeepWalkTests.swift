import Navigation
import TestSupport
import Testing

@testable import RewindCore
@testable import RewindJournal

/// `verify --deep` walks each frame's records once: the deep check's walk
/// (`Timeline.deepCheckFrame`) says how many records the frame holds when it found them
/// as the storage check requires, and the storage check then does not walk them again
/// (`Journal.intactRecords(of:)`). These tests hold the deep walk's answer to the storage
/// check's on frames whose snapshots were moved, retimed, renumbered or reordered and
/// whose records were cut short: never intact where the storage check is not, and the same
/// number of records.
@Suite("verify --deep: the deep check's walk vouches for the records as the storage check would")
struct DeepWalkTests {
  let domain = NavigationDomain()

  @Test("misplaced snapshots and cut records: the deep walk's count is the storage check's")
  func walks() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("walk.journal")
    var generator = RandomEventGenerator(seed: 41, domain: domain)
    let recorder = try JournalRecorder.create(
      at: path, domain: domain, session: testSession,
      options: RecordingOptions(snapshotInterval: 13, journal: .init(frameSize: 1024)))
    for index in 0..<1_500 {
      try recorder.record(generator.next(), at: UInt64(index) * 1_000)
    }
    try recorder.close()
    let reader = try JournalReader(path: path)
    let timeline = try Timeline<NavigationDomain>(reader: reader)
    var random = SplitMix64(seed: testSeed("deepWalks"))
    var run = DeepCheckRun(timeline)
    var (vouched, refused) = (0, 0)
    for index in reader.frames.indices {
      let frame = try reader.loadFrame(index)
      var variants: [FrameView] = []
      for _ in 0..<16 {
        var snapshots = frame.snapshots
        var storage = frame.storage
        let which = snapshots.isEmpty ? 0 : Int(random.next() % UInt64(snapshots.count))
        switch random.next() % 8 {
        case 0 where !snapshots.isEmpty: snapshots[which].recordOffset &+= 1
        case 1 where !snapshots.isEmpty: snapshots[which].recordOffset = 0
        case 2 where !snapshots.isEmpty: snapshots[which].time &+= 1
        case 3 where !snapshots.isEmpty: snapshots[which].snapshot.sequence &+= 1
        case 4 where !snapshots.isEmpty:
          snapshots[which].snapshot.sequence = frame.info.lastSequence &+ 2
        case 5 where !snapshots.isEmpty: snapshots.swapAt(which, snapshots.count - 1)
        case 6 where !snapshots.isEmpty: snapshots.append(snapshots[which])
        default:
          // The records cut short: the frame's last payload bytes missing.
          let copy = FrameStorage(capacity: frame.storage.count)
          let cut = 1 + Int(random.next() % 3)
          copy.bytes.copyMemory(from: frame.storage.bytes, byteCount: frame.storage.count)
          copy.count = max(frame.storage.count - cut, 0)
          storage = copy
        }
        variants.append(
          FrameView(
            info: frame.info, snapshots: snapshots, storage: storage,
            headers: frame.headers.clamped(to: 0..<storage.count)))
      }
      for variant in variants {
        // From the same point of the run as the frame itself.
        var trial = run
        let deep = timeline.deepCheckFrame(variant.info, variant, &trial)
        let storage = Journal.intactRecords(of: variant)
        let context = "frame \(index), \(variant.snapshots.map(\.recordOffset))"
        if let deep {
          #expect(deep == storage, "\(context)")
          vouched += 1
        } else {
          refused += 1
        }
      }
      // The frame itself: vouched for, with the storage check's count.
      let deep = timeline.deepCheckFrame(frame.info, frame, &run)
      #expect(deep != nil && deep == Journal.intactRecords(of: frame), "frame \(index)")
    }
    #expect(run.report.problems.isEmpty)
    #expect(vouched > 0)
    #expect(refused > 0)
  }
}
