import RewindCore
import RewindJournal
import TestSupport
import Testing

@testable import RewindPage

/// The page's common step (`Builder.addCommon`, in the replay's inner loop) and what it
/// remembers: the change an event made last (`EventTable`), which the same event may not
/// make again, and the change lists of several fields by their words (`WordLists`).
@Suite("SessionPage: the common step's memories number the page as writing every list does")
struct CommonStepTests {
  private let options = SessionPage.Options(
    title: "walks", fileName: "walk.journal", generator: "rewind test")

  /// A random `Walk` event from small pools, so that each event repeats from other states.
  private func walkEvent(_ random: inout SplitMix64) -> Walk.Event {
    let step = [1, -1, 2, 0][Int(random.next() % 4)]
    switch random.next() % 16 {
    case 0: return .reset
    case 1, 2: return .climbed(step)
    case 3: return .marked(step)
    case 4: return .wandered
    case 5: return .rested
    default: return .moved(step)
    }
  }

  @Test(
    "the same event changing the same field to other values, and lists of several fields: the specialised page is the written one's bytes"
  )
  func walks() throws {
    let seed = testSeed("CommonStepTests.walks")
    var random = SplitMix64(seed: seed)
    #expect(_isPOD(Walk.Event.self))
    for trial in 0..<soakCount("PAGE_ORACLE", standard: 4) {
      let directory = TemporaryDirectory()
      // Past a keyframe interval (256 at least) and a progress report (4,096) at times.
      let count = Int(random.next() % 5_000) + 1
      let session = try timeline(
        Walk(), (0..<count).map { _ in walkEvent(&random) }, in: directory,
        snapshotInterval: UInt32(random.next() % 2_000 + 1))
      var parts: [(UInt64, UInt64)] = [(0, UInt64(count))]
      for _ in 0..<2 {
        let from = random.next() % UInt64(count + 1)
        parts.append((from, from + random.next() % (UInt64(count) - from + 1)))
      }
      for (from, to) in parts {
        let written = try SessionPage.Payload.build(
          session, from: from, to: to, options: options, rendererData: .null, memoize: false,
          progress: { _ in }
        ).bytes
        for jobs in [1, 2] {
          let specialised = try SessionPage.Payload.buildSpecialised(
            session, from: from, to: to, options: options, rendererData: .null, jobs: jobs,
            progress: { _ in }
          ).bytes
          #expect(
            specialised == written,
            "seed \(seed), trial \(trial): \(count) events, part \(from)...\(to), \(jobs) jobs"
          )
        }
      }
    }
  }

  @Test("a list of words is found with the number it was given, and no other list is")
  func wordLists() {
    let seed = testSeed("CommonStepTests.wordLists")
    var random = SplitMix64(seed: seed)
    var lists = WordLists(capacity: 4)
    var known: [[UInt64]: Int] = [:]
    for number in 0..<3_000 {
      // Fields and words from small pools: lists that differ in one word, or in the fields.
      let fields = [0b11, 0b101, 0b111, 0b1111, 0b110][Int(random.next() % 5)] as UInt64
      var words: [UInt64] = (0..<4).map { place in
        place < fields.nonzeroBitCount ? random.next() % 3 : 0
      }
      words.insert(fields, at: 0)
      let tuple = (words[1], words[2], words[3], words[4])
      let found = lists.number(fields, tuple)
      #expect(found == known[words, default: -1], "seed \(seed): \(words)")
      if found < 0 {
        lists.insert(fields, tuple, number: number)
        known[words] = number
      }
    }
    #expect(known.count > 100)
  }
}

/// A domain of plain events whose change lists hold only words: a move changes the
/// position alone, by a step, so the same event changes the same field to a new value each
/// time; a climb changes two fields, a mark three, a reset up to four; a rest changes
/// nothing, applied or unchanged.
struct Walk: RecordableDomain, Codable {
  struct State: Codable, Equatable, Sendable {
    var position = 0
    var height = 0
    var marks = 0
    var mark = 0
  }

  enum Event: Codable, Equatable, Sendable {
    case moved(Int)
    case climbed(Int)
    case marked(Int)
    case wandered
    case reset
    case rested
  }

  static let identifier = "walk"
  static let schemaVersion: UInt32 = 1

  var initialState: State { State() }

  func fieldValueWord(_ index: Int, of state: State) -> UInt64? {
    switch index {
    case 0: UInt64(bitPattern: Int64(state.position))
    case 1: UInt64(bitPattern: Int64(state.height))
    case 2: UInt64(bitPattern: Int64(state.marks))
    case 3: UInt64(bitPattern: Int64(state.mark))
    default: nil
    }
  }

  /// Two bytes an event, its case and its step (plus 8), which the replay's shortcut reads
  /// from a word too: every event reaches the page's common step.
  func encode(_ event: Event, into writer: inout ByteWriter, context: inout Void) {
    let (code, value): (UInt8, Int) =
      switch event {
      case .moved(let step): (0, step)
      case .climbed(let step): (1, step)
      case .marked(let mark): (2, mark)
      case .wandered: (3, 0)
      case .reset: (4, 0)
      case .rested: (5, 0)
      }
    writer.write(code)
    writer.write(UInt8(value + 8))
  }

  func decodeEvent(from reader: inout ByteReader, context: inout Void) throws(CodecError) -> Event {
    let offset = reader.offset
    let code = try reader.readByte()
    let value = Int(try reader.readByte()) - 8
    guard let event = Self.event(code, value) else {
      throw CodecError(.invalidValue, "no walk event \(code)", at: offset)
    }
    return event
  }

  func decodeEvent(fromWord word: UInt64, count: Int, context: inout Void) -> Event? {
    guard count == 2 else { return nil }
    return Self.event(
      UInt8(truncatingIfNeeded: word), Int(UInt8(truncatingIfNeeded: word >> 8)) - 8)
  }

  static func event(_ code: UInt8, _ value: Int) -> Event? {
    switch code {
    case 0: .moved(value)
    case 1: .climbed(value)
    case 2: .marked(value)
    case 3: .wandered
    case 4: .reset
    case 5: .rested
    default: nil
    }
  }

  func reduce(_ state: inout State, _ event: Event) -> Outcome<DomainRejection> {
    switch event {
    case .moved(let step):
      guard step != 0 else { return .unchanged }
      state.position += step
    case .climbed(let step):
      guard step != 0 else { return .rejected("a climb of nothing") }
      state.position += step
      state.height += step
    case .marked(let mark):
      state.position = mark
      state.marks += 1
      state.mark = mark * 2
    case .wandered:
      // Back to where the walk was some moves ago: a move's change made by another event.
      state.position = state.position % 3
    case .reset:
      guard state != State() else { return .unchanged }
      state = State()
    case .rested:
      // Applied at an odd position and unchanged at an even one, changing nothing either
      // way: the same event and change list, with either outcome.
      guard state.position % 2 != 0 else { return .unchanged }
    }
    return .applied
  }
}

extension Walk: PageRenderingDomain {
  func pageRenderer(device: String) -> PageRenderer { PageRenderer(script: "", style: "") }
}
