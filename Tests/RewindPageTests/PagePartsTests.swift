import Navigation
import RewindCore
import RewindJournal
import TestSupport
import Testing

@testable import RewindPage

/// The page's data built in parts on several threads (`rewind html --jobs N`) against one
/// pass: the same bytes, the same refusals.
@Suite("SessionPage: the page's data built in parts is one pass's")
struct PagePartsTests {
  private let options = SessionPage.Options(
    title: "parts", fileName: "random.journal", generator: "rewind test")

  /// The data built in the parts the scans would make with `jobs` threads, through
  /// `part` (nil: the generic builder), with no fallback to one pass; nil when the range
  /// does not split.
  private func inParts<D: Domain>(
    _ timeline: Timeline<D>, from: UInt64, to: UInt64, jobs: Int, rendererData: JSONValue,
    memoize: Bool = true, part: SessionPage.Payload.PartBuild<D>? = nil
  ) throws -> [UInt8]? {
    guard to > from,
      let ranges = SessionPage.Payload.partRanges(timeline, from: from, to: to, jobs: jobs)
    else {
      return nil
    }
    let generic: SessionPage.Payload.PartBuild<D> = { timeline, from, to, start, isLast, progress in
      try SessionPage.Payload.buildPart(
        timeline, from: from, to: to, start: start, isLast: isLast, memoize: memoize,
        inline: false, progress: progress)
    }
    return try SessionPage.Payload.inParts(
      timeline, ranges, options: options, rendererData: rendererData, jobs: jobs,
      progress: { _ in }, part: part ?? generic
    ).bytes
  }

  /// The whole session, its end, and random parts of it (most long enough to split).
  private func ranges(_ count: UInt64, _ random: inout SplitMix64) -> [(UInt64, UInt64)] {
    var ranges: [(UInt64, UInt64)] = [(0, count), (count, count)]
    for _ in 0..<3 {
      let from = random.next() % (count / 4 + 1)
      ranges.append((from, count - random.next() % (count / 4 + 1)))
    }
    return ranges
  }

  @Test("random navigation sessions, valid and invalid events mixed: 2–4 jobs, byte for byte")
  func navigationSessions() throws {
    let seed = testSeed("PagePartsTests.navigationSessions")
    var random = SplitMix64(seed: seed)
    let domain = NavigationDomain()
    let renderer = domain.pageRenderer(device: "iPad Pro 13-inch").data
    for (trial, count) in [2_000, 4_000, 9_000, 2_500].enumerated() {
      let directory = TemporaryDirectory()
      let path = directory.file("random.journal")
      var generator = RandomEventGenerator(seed: random.next(), domain: domain)
      let recorder = try JournalRecorder.create(
        at: path, domain: domain,
        session: SessionInfo(startTime: 1_767_225_600_000_000, device: "iPad Pro 13-inch"),
        options: RecordingOptions(
          snapshotInterval: UInt32(random.next() % 300 + 20),
          journal: .init(frameSize: [2_048, 4_096, 16_384][trial % 3])))
      for index in 0..<count {
        try recorder.record(generator.next(), at: UInt64(index) * 16_667 + random.next() % 9)
      }
      try recorder.close()
      let session = try Timeline<NavigationDomain>(path: path)
      session.minimumEventsPerPart = [20, 50, 100, 30][trial]
      #expect(
        (SessionPage.Payload.partRanges(session, from: 0, to: UInt64(count), jobs: 2)?.count ?? 0)
          > 2,
        "the session splits into parts")
      let specialised = try #require(
        SessionPage.Payload.precomputation(NavigationDomain.self, of: NavigationDomain.self))
      for (from, to) in ranges(UInt64(count), &random) {
        let sequential = try SessionPage.Payload.buildSpecialised(
          session, from: from, to: to, options: options, rendererData: renderer, jobs: 1,
          progress: { _ in }
        ).bytes
        if from == 0 && to == UInt64(count) {
          let meta = try JSONValue(
            parsing: String(decoding: sequential.prefix { $0 != 10 }, as: UTF8.self))
          #expect(
            meta["page"]?["counts"]?["rejected"] != 0 && meta["page"]?["keyframes"] != 1,
            "rejected events and keyframes in part")
        }
        for jobs in 2...4 {
          let context =
            "seed \(seed), trial \(trial): \(count) events, \(from)...\(to), \(jobs) jobs"
          let built = try SessionPage.Payload.buildSpecialised(
            session, from: from, to: to, options: options, rendererData: renderer, jobs: jobs,
            progress: { _ in }
          ).bytes
          #expect(built == sequential, "\(context): \(firstDifference(built, sequential))")
          // Parts merged, not one pass again: the specialised loop and the generic one.
          if let parts = try inParts(
            session, from: from, to: to, jobs: jobs, rendererData: renderer, part: specialised)
          {
            #expect(parts == sequential, "\(context): \(firstDifference(parts, sequential))")
          } else {
            #expect(to - from < 8 * session.minimumEventsPerPart, "\(context): not split")
          }
          if let generic = try inParts(
            session, from: from, to: to, jobs: jobs, rendererData: renderer)
          {
            #expect(
              generic == sequential, "\(context), generic: \(firstDifference(generic, sequential))")
          }
        }
        // Every body and change list written (the tests' reference builder), in parts.
        let written = try SessionPage.Payload.build(
          session, from: from, to: to, options: options, rendererData: renderer,
          memoize: false, progress: { _ in }
        ).bytes
        if let parts = try inParts(
          session, from: from, to: to, jobs: 3, rendererData: renderer, memoize: false)
        {
          #expect(parts == written, "seed \(seed), trial \(trial), written in parts")
        }
      }
    }
  }

  /// A random `Steps` event from a small pool, so that events repeat from different states.
  private func stepsEvent(_ random: inout SplitMix64) -> Steps.Event {
    switch random.next() % 8 {
    case 0: return .jumped(to: Int(random.next() % 5))
    case 1: return .scaled([0.5, 2, 1e300, 0.1 + 0.2][Int(random.next() % 4)])
    case 2: return .reset
    default: return .stepped([1, -1, 2, 0, 101][Int(random.next() % 5)])
    }
  }

  /// A random counter event; `kinds` of the five (the session's first events use fewer,
  /// so that later parts meet kinds the first did not).
  private func counterEvent(_ random: inout SplitMix64, kinds: UInt64) -> Counter.Event {
    let texts = ["x", "a \"quoted\" \\ text", "é ü 日本", "", "<b>&"]
    switch random.next() % kinds {
    case 0: return .added(amount: [0, 1, 7, -3, 1_001][Int(random.next() % 5)])
    case 1: return .scaled([0.5, 2, 1.0 / 3, 1e300][Int(random.next() % 4)])
    case 2: return .labelled(texts[Int(random.next() % UInt64(texts.count))])
    case 3: return .noted(random.next() % 3 == 0 ? nil : texts[Int(random.next() % 5)])
    default: return .tagged(texts[Int(random.next() % UInt64(texts.count))])
    }
  }

  @Test(
    "Steps (its own loop) and Counter (kinds met in the events, new ones in later parts): 2–4 jobs, byte for byte"
  )
  func testDomains() throws {
    let seed = testSeed("PagePartsTests.testDomains")
    var random = SplitMix64(seed: seed)
    for (trial, count) in [300, 700, 1_500].enumerated() {
      let directory = TemporaryDirectory()
      let steps = try timeline(
        Steps(), (0..<count).map { _ in stepsEvent(&random) }, in: directory,
        snapshotInterval: UInt32(random.next() % 200 + 10))
      // Kinds 1, then 2, 3, 5: the later parts meet kinds the earlier ones did not.
      let counterEvents = (0..<count).map { index in
        counterEvent(&random, kinds: [1, 2, 3, 5][min(index * 4 / count, 3)])
      }
      let counter = try timeline(
        Counter(), counterEvents, in: directory,
        snapshotInterval: UInt32(random.next() % 200 + 10))
      steps.minimumEventsPerPart = 10 + random.next() % 30
      counter.minimumEventsPerPart = 10 + random.next() % 30
      let specialised = try #require(SessionPage.Payload.precomputation(Steps.self, of: Steps.self))
      #expect(SessionPage.Payload.precomputation(Steps.self, of: Counter.self) == nil)
      for (from, to) in ranges(UInt64(count), &random) {
        let stepsSequential = try SessionPage.Payload.buildSpecialised(
          steps, from: from, to: to, options: options, rendererData: .null, progress: { _ in }
        ).bytes
        let counterSequential = try SessionPage.Payload.buildSpecialised(
          counter, from: from, to: to, options: options, rendererData: .null, progress: { _ in }
        ).bytes
        for jobs in 2...4 {
          let context =
            "seed \(seed), trial \(trial): \(count) events, \(from)...\(to), \(jobs) jobs"
          let stepsBuilt = try SessionPage.Payload.buildSpecialised(
            steps, from: from, to: to, options: options, rendererData: .null, jobs: jobs,
            progress: { _ in }
          ).bytes
          #expect(
            stepsBuilt == stepsSequential,
            "\(context): \(firstDifference(stepsBuilt, stepsSequential))")
          let counterBuilt = try SessionPage.Payload.buildSpecialised(
            counter, from: from, to: to, options: options, rendererData: .null, jobs: jobs,
            progress: { _ in }
          ).bytes
          #expect(
            counterBuilt == counterSequential,
            "\(context), counter: \(firstDifference(counterBuilt, counterSequential))")
          if let parts = try inParts(
            steps, from: from, to: to, jobs: jobs, rendererData: .null, part: specialised)
          {
            #expect(
              parts == stepsSequential, "\(context): \(firstDifference(parts, stepsSequential))")
          }
          if let parts = try inParts(counter, from: from, to: to, jobs: jobs, rendererData: .null) {
            #expect(
              parts == counterSequential,
              "\(context), counter: \(firstDifference(parts, counterSequential))")
          }
        }
      }
    }
  }

  @Test("a domain whose fields do not rebuild its state: refused in parts as in one pass")
  func uncoveredState() throws {
    // Keyframes each 256 events; an account the fields do not cover credited at `uncovered`.
    for uncovered in [30, 300, 500, 640, 699] {
      let directory = TemporaryDirectory()
      let long = try timeline(
        Ledger(),
        (1...700).map { .credited(account: $0 == uncovered ? "bank" : "cash", amount: $0 % 7) },
        in: directory)
      long.minimumEventsPerPart = 40
      for to in [UInt64(uncovered) - 1, 600, 700] where to >= 320 {
        let sequential = Result {
          try SessionPage.Payload.buildSpecialised(
            long, from: 0, to: to, options: options, rendererData: .null, progress: { _ in }
          ).bytes
        }
        for jobs in 2...4 {
          let built = Result {
            try SessionPage.Payload.buildSpecialised(
              long, from: 0, to: to, options: options, rendererData: .null, jobs: jobs,
              progress: { _ in }
            ).bytes
          }
          #expect(
            (try? built.get()) == (try? sequential.get())
              && (built.error as? PageError) == (sequential.error as? PageError),
            "event \(uncovered), to \(to), \(jobs) jobs: \(String(describing: built.error)) against \(String(describing: sequential.error))"
          )
          // The parts alone never give a page one pass refuses.
          if sequential.error != nil {
            #expect(throws: (any Error).self) {
              try inParts(long, from: 0, to: to, jobs: jobs, rendererData: .null)
            }
          }
        }
      }
    }
  }

  @Test("progress counts every event once, however many parts")
  func progress() throws {
    let directory = TemporaryDirectory()
    var random = SplitMix64(seed: testSeed("PagePartsTests.progress"))
    let count = 4_000
    let steps = try timeline(
      Steps(), (0..<count).map { _ in stepsEvent(&random) }, in: directory, snapshotInterval: 64)
    steps.minimumEventsPerPart = 100
    var reported: [UInt64] = []
    _ = try SessionPage.Payload.buildSpecialised(
      steps, from: 0, to: UInt64(count), options: options, rendererData: .null, jobs: 2,
      progress: { reported.append($0) }
    ).bytes
    #expect(reported.allSatisfy { $0 <= UInt64(count) })
    #expect(zip(reported, reported.dropFirst()).allSatisfy { $0 <= $1 })
  }
}

/// The first line where two payloads differ, for a failure's message.
private func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> String {
  let a = String(decoding: a, as: UTF8.self).split(
    separator: "\n", omittingEmptySubsequences: false)
  let b = String(decoding: b, as: UTF8.self).split(
    separator: "\n", omittingEmptySubsequences: false)
  for (index, (x, y)) in zip(a, b).enumerated() where x != y {
    return "line \(index + 1):\n\(x.prefix(300))\nexpected\n\(y.prefix(300))"
  }
  return "\(a.count) lines, expected \(b.count)"
}

extension Result where Failure == any Error {
  fileprivate var error: (any Error)? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
