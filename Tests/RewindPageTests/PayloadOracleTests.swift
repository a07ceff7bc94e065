import Navigation
import RewindCore
import RewindJournal
import TestSupport
import Testing

@testable import RewindPage

/// The fast page builder (issue 17) against the one it replaced (`ReferencePayload`): its
/// data of format 2, written back as format 1 (`FormatOne`), is the same bytes for random
/// sessions and parts of them.
@Suite("SessionPage: the fast builder's data, written back as format 1, is the JSONValue builder's")
struct PayloadOracleTests {
  private let options = SessionPage.Options(
    title: "A \"page\" <of> \u{1B}[31m", fileName: "random.journal", generator: "rewind test")

  /// A random counter event: amounts 0 (unchanged) and over 1,000 (rejected), texts with
  /// quotes, controls and non-ASCII, notes cleared, ratios of every size.
  private func counterEvent(_ random: inout SplitMix64) -> Counter.Event {
    let texts = [
      "x", "a \"quoted\" \\ text", "tab\there\u{7}", "é ü 日本", "", "<b>&", "\u{202E}bidi",
    ]
    switch random.next() % 5 {
    case 0:
      return .added(amount: [0, 1, 7, -3, 999, 1_000, 1_001, 5_000][Int(random.next() % 8)])
    case 1: return .labelled(texts[Int(random.next() % UInt64(texts.count))])
    case 2: return .tagged(texts[Int(random.next() % UInt64(texts.count))])
    case 3:
      return .noted(random.next() % 3 == 0 ? nil : texts[Int(random.next() % UInt64(texts.count))])
    default:
      let ratios = [
        0.5, 2, 1.0 / 3, -0.0, 1e300, .leastNonzeroMagnitude, 123_456_789.125, 0.1 + 0.2,
      ]
      return .scaled(ratios[Int(random.next() % UInt64(ratios.count))])
    }
  }

  /// Parts of a session: the whole, the empty one at its end, and random ones.
  private func parts(_ count: UInt64, _ random: inout SplitMix64) -> [(UInt64, UInt64)] {
    var parts: [(UInt64, UInt64)] = [(0, count), (count, count)]
    for _ in 0..<4 {
      let from = random.next() % (count + 1)
      parts.append((from, from + random.next() % (count - from + 1)))
    }
    return parts
  }

  @Test("random counter sessions: every part, byte for byte")
  func counterSessions() throws {
    let seed = testSeed("PayloadOracleTests.counterSessions")
    var random = SplitMix64(seed: seed)
    for trial in 0..<soakCount("PAGE_ORACLE", standard: 4) {
      let directory = TemporaryDirectory()
      let count = Int(random.next() % 400) + 1
      let events = (0..<count).map { _ in counterEvent(&random) }
      let session = try timeline(
        Counter(), events, in: directory, snapshotInterval: UInt32(random.next() % 300 + 1))
      for (from, to) in parts(UInt64(count), &random) {
        let fast = try SessionPage.Payload.build(
          session, from: from, to: to, options: options, rendererData: .null,
          progress: { _ in }
        ).bytes
        let reference = try ReferencePayload.build(
          session, from: from, to: to, options: options, rendererData: .null,
          progress: { _ in })
        let expanded = try FormatOne.expand(fast)
        #expect(
          expanded == reference,
          "seed \(seed), trial \(trial): \(count) events, part \(from)...\(to): \(firstDifference(expanded, reference))"
        )
      }
    }
  }

  @Test(
    "random navigation sessions, valid and invalid events mixed, with pauses of over an hour: every part, byte for byte"
  )
  func navigationSessions() throws {
    let seed = testSeed("PayloadOracleTests.navigationSessions")
    var random = SplitMix64(seed: seed)
    let domain = NavigationDomain()
    for trial in 0..<soakCount("PAGE_ORACLE", standard: 4) {
      let directory = TemporaryDirectory()
      let path = directory.file("random.journal")
      var generator = RandomEventGenerator(seed: random.next(), domain: domain)
      let count = Int(random.next() % 3_000) + 1
      // Frames of 16.7 ms, and now and then a pause of 72 minutes or more: a time's delta
      // of 2^32 − 1 µs or more, a varint of five bytes or more, which the common step
      // leaves to the others' step (`EventNumbers.longTime`).
      var time: UInt64 = 0
      let timed = (0..<count).map { _ in
        time +=
          random.next() % 150 == 0
          ? 0xFFFF_FFFF + random.next() % 3 * 0x8000_0000 : 16_667 + random.next() % 9
        return (generator.next(), time)
      }
      try recordNavigation(
        timed, in: domain, to: path,
        snapshotInterval: UInt32(random.next() % 500 + 1), frameSize: 4096)
      let session = try Timeline<NavigationDomain>(path: path)
      let renderer = domain.pageRenderer(device: "iPad Pro 13-inch").data
      for (from, to) in parts(UInt64(count), &random) {
        let fast = try SessionPage.Payload.build(
          session, from: from, to: to, options: options, rendererData: renderer,
          progress: { _ in }
        ).bytes
        let reference = try ReferencePayload.build(
          session, from: from, to: to, options: options, rendererData: renderer,
          progress: { _ in })
        let expanded = try FormatOne.expand(fast)
        #expect(
          expanded == reference,
          "seed \(seed), trial \(trial): \(count) events, part \(from)...\(to): \(firstDifference(expanded, reference))"
        )
        // The loop compiled for the navigation domain (its `pagePrecomputation`, which
        // `rewind html` runs) against the generic one, writing every body and change list.
        let specialised = try SessionPage.Payload.buildSpecialised(
          session, from: from, to: to, options: options, rendererData: renderer,
          progress: { _ in }
        ).bytes
        let written = try SessionPage.Payload.build(
          session, from: from, to: to, options: options, rendererData: renderer,
          memoize: false, progress: { _ in }
        ).bytes
        #expect(
          specialised == written,
          "seed \(seed), trial \(trial): specialised, part \(from)...\(to): \(firstDifference(specialised, written))"
        )
      }
    }
  }

  @Test(
    "simulated users' sessions (mostly scrolls: the common step of the replay's inner loop): every part, byte for byte"
  )
  func simulatedSessions() throws {
    let seed = testSeed("PayloadOracleTests.simulatedSessions")
    var random = SplitMix64(seed: seed)
    let domain = NavigationDomain.sample
    for trial in 0..<soakCount("PAGE_ORACLE", standard: 3) {
      let directory = TemporaryDirectory()
      let path = directory.file("simulated.journal")
      var user = domain.simulatedUser(seed: random.next())
      // Past a keyframe interval (256 to 16,384 events) and a progress report (4,096).
      let count = Int(random.next() % 6_000) + 1
      try recordNavigation(
        (0..<count).map { _ in
          let timed = user.next()!
          return (timed.event, timed.time)
        }, in: domain, to: path,
        snapshotInterval: UInt32(random.next() % 2_000 + 1), frameSize: 65_536)
      let session = try Timeline<NavigationDomain>(path: path)
      for (from, to) in parts(UInt64(count), &random) {
        // The loop compiled for the navigation domain, whose inner loop takes most of these
        // events (`Builder.addCommon`), against the generic one, writing every body and
        // change list.
        let specialised = try SessionPage.Payload.buildSpecialised(
          session, from: from, to: to, options: options, rendererData: .null,
          progress: { _ in }
        ).bytes
        let written = try SessionPage.Payload.build(
          session, from: from, to: to, options: options, rendererData: .null,
          memoize: false, progress: { _ in }
        ).bytes
        #expect(
          specialised == written,
          "seed \(seed), trial \(trial): \(count) events, part \(from)...\(to): \(firstDifference(specialised, written))"
        )
      }
    }
  }

  /// A random `Steps` event from a small pool, so that events repeat from different states.
  private func stepsEvent(_ random: inout SplitMix64) -> Steps.Event {
    switch random.next() % 8 {
    case 0: return .jumped(to: Int(random.next() % 5))
    // Not 0.0 and -0.0 both: a change between them is no change of the fields' JSON
    // values (`JSONValue`'s `==`), so the default `changedFields` misses it, and the page
    // of such a session is refused, memoised or not.
    case 1: return .scaled([0.5, 2, -0.0, 1e300, 0.1 + 0.2][Int(random.next() % 5)])
    case 2: return .reset
    default: return .stepped([1, -1, 2, 0, 101][Int(random.next() % 5)])
    }
  }

  @Test(
    "remembered bodies and change lists give the bytes of writing every one: events that repeat from other states"
  )
  func memoizedBuild() throws {
    let seed = testSeed("PayloadOracleTests.memoizedBuild")
    var random = SplitMix64(seed: seed)
    #expect(_isPOD(Steps.Event.self) && !_isPOD(Counter.Event.self))
    for trial in 0..<soakCount("PAGE_ORACLE", standard: 4) {
      let directory = TemporaryDirectory()
      let count = Int(random.next() % 800) + 1
      let steps = try timeline(
        Steps(), (0..<count).map { _ in stepsEvent(&random) }, in: directory,
        snapshotInterval: UInt32(random.next() % 300 + 1))
      let counter = try timeline(
        Counter(), (0..<count).map { _ in counterEvent(&random) }, in: directory,
        snapshotInterval: UInt32(random.next() % 300 + 1))
      for (from, to) in parts(UInt64(count), &random) {
        let remembered = try SessionPage.Payload.build(
          steps, from: from, to: to, options: options, rendererData: .null, progress: { _ in }
        ).bytes
        let written = try SessionPage.Payload.build(
          steps, from: from, to: to, options: options, rendererData: .null, memoize: false,
          progress: { _ in }
        ).bytes
        #expect(
          remembered == written,
          "seed \(seed), trial \(trial): steps, \(count) events, part \(from)...\(to): \(firstDifference(remembered, written))"
        )
        let reference = try ReferencePayload.build(
          steps, from: from, to: to, options: options, rendererData: .null, progress: { _ in })
        #expect(try FormatOne.expand(remembered) == reference, "seed \(seed), trial \(trial)")
        // `Steps` draws pages here (below): its own loop, through `pagePrecomputation`.
        let specialised = try SessionPage.Payload.buildSpecialised(
          steps, from: from, to: to, options: options, rendererData: .null, progress: { _ in }
        ).bytes
        #expect(
          specialised == written,
          "seed \(seed), trial \(trial): steps specialised, part \(from)...\(to): \(firstDifference(specialised, written))"
        )
        // `Counter` does not: the generic loop.
        let counterRemembered = try SessionPage.Payload.buildSpecialised(
          counter, from: from, to: to, options: options, rendererData: .null, progress: { _ in }
        ).bytes
        let counterWritten = try SessionPage.Payload.build(
          counter, from: from, to: to, options: options, rendererData: .null, memoize: false,
          progress: { _ in }
        ).bytes
        #expect(
          counterRemembered == counterWritten,
          "seed \(seed), trial \(trial): counter, part \(from)...\(to): \(firstDifference(counterRemembered, counterWritten))"
        )
      }
    }
  }

  @Test("the same step from other positions: each change list its own, each body once")
  func sameEventOtherStates() throws {
    let directory = TemporaryDirectory()
    let events: [Steps.Event] = [
      .stepped(1), .stepped(1), .jumped(to: 1), .stepped(1), .reset, .stepped(1), .stepped(1),
    ]
    let session = try timeline(Steps(), events, in: directory)
    let payload = try SessionPage.Payload.build(
      session, from: 0, to: UInt64(events.count), options: options, rendererData: .null,
      progress: { _ in }
    ).bytes
    let (lines, rows) = try pageParts(payload)
    // Fields: position 0, moves 1, last 2, scale 3. Bodies: stepped(1), jumped, reset.
    #expect(rows.map { $0[2] } == [0, 0, 1, 0, 2, 0, 0])
    #expect(rows.map { $0[3] } == [0, 1, 2, 3, 4, 0, 1])
    #expect(
      Array(lines[6..<11]) == [
        "[0,1,1,1,2,1]", "[0,2,1,2]", "[0,1,2,0]", "[0,2,1,3,2,1]", "[0,0,1,0,2,0]",
      ])
  }

  @Test("a domain whose fields do not rebuild its state is refused at the same event")
  func uncoveredState() throws {
    let directory = TemporaryDirectory()
    let events: [Ledger.Event] = [
      .credited(account: "cash", amount: 5), .credited(account: "bank", amount: 5),
    ]
    let session = try timeline(Ledger(), events, in: directory)
    // A longer one, refused at a keyframe (each 256 events) after its event 300.
    let longDirectory = TemporaryDirectory()
    let long = try timeline(
      Ledger(),
      (1...700).map { .credited(account: $0 == 300 ? "bank" : "cash", amount: $0 % 7) },
      in: longDirectory)
    for (session, to) in [
      (session, UInt64(1)), (session, 2), (long, 299), (long, 600), (long, 700),
    ] {
      let fast = Result {
        try SessionPage.Payload.build(
          session, from: 0, to: to, options: options, rendererData: .null, progress: { _ in }
        ).bytes
      }
      let reference = Result {
        try ReferencePayload.build(
          session, from: 0, to: to, options: options, rendererData: .null, progress: { _ in })
      }
      #expect(
        (try? fast.get()).flatMap { try? FormatOne.expand($0) } == (try? reference.get())
          && (fast.error as? PageError) == (reference.error as? PageError))
      // `Ledger` draws pages here: its own loop refuses it the same way.
      let specialised = Result {
        try SessionPage.Payload.buildSpecialised(
          session, from: 0, to: to, options: options, rendererData: .null, progress: { _ in }
        ).bytes
      }
      #expect(
        (try? specialised.get()) == (try? fast.get())
          && (specialised.error as? PageError) == (fast.error as? PageError))
    }
  }

  @Test(
    "a rebuilt state sets values as setting each as it comes does, prefix paths too; its text is the value's"
  )
  func rebuiltState() {
    let seed = testSeed("PayloadOracleTests.rebuiltState")
    var random = SplitMix64(seed: seed)
    let pools = [
      ["menu.a", "menu.b", "split.c", "split.d.e", "f"],
      ["a", "a.x", "b.c", "a.x", "d"],  // a prefix and a path twice: set as they come
      ["x.y", "x.z", "x.y", "w"],  // a path twice
      ["u.é", "x", "menu.a"],  // a key that is `==` to another key of its object
      ["x", "split.d.e", "menu.b", "g"],  // every path in the second start
    ]
    // The first start lacks paths (members are added); the second holds every path of the
    // first pool (the text is rebuilt from the start's, each value in its place).
    let starts: [JSONValue] = [
      .object([("menu", .object([("a", 1)])), ("a", "text")]),
      .object([
        ("menu", .object([("a", 1), ("b", [2, "two"])])), ("g", [1]),
        ("split", .object([("c", "\"c\""), ("d", .object([("e", 4.5)]))])), ("f", .null),
        ("u", .object([("é", 1), ("e\u{301}", 2)])), ("x", .object([])),
      ]),
    ]
    for paths in pools {
      for trial in 0..<20 {
        let start = starts[trial % 2]
        var rebuilt = RebuiltState(start, paths: paths)
        var expected = start
        for step in 0..<Int(random.next() % 40) {
          let field = Int(random.next() % UInt64(paths.count))
          let value: JSONValue
          if random.next() % 2 == 0 {
            // A key (as a change list's number), with the value that key and field always
            // have: its text is written once.
            let key = Int(random.next() % 6)
            let number = Int64(key * 100 + field)
            value = key % 2 == 0 ? .array([.int(number), "k"]) : .int(number)
            rebuilt.set(value, field: field, key: key)
          } else {
            value = random.next() % 4 == 0 ? .array([.int(Int64(step))]) : .int(Int64(step))
            rebuilt.set(value, field: field)
          }
          expected = expected.setting(value, atPath: Substring(paths[field]))
          if random.next() % 5 == 0 {
            #expect(rebuilt.value.compactText == expected.compactText, "seed \(seed), \(paths)")
          }
          if random.next() % 5 == 0 {
            let text = rebuilt.withText { String(decoding: $0, as: UTF8.self) }
            #expect(text == expected.compactText, "seed \(seed), \(paths)")
          }
          if random.next() % 5 == 0 { expectMatches(&rebuilt, expected, "seed \(seed), \(paths)") }
        }
        #expect(rebuilt.value.compactText == expected.compactText, "seed \(seed), \(paths)")
        let text = rebuilt.withText { String(decoding: $0, as: UTF8.self) }
        #expect(text == expected.compactText, "seed \(seed), \(paths)")
        expectMatches(&rebuilt, expected, "seed \(seed), \(paths)")
      }
    }
  }

  @Test("two texts are the same bytes, at every length to 40, a byte apart at each place")
  func sameBytes() {
    for count in 0...40 {
      let text = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
      let other = text
      text.withUnsafeBytes { a in
        other.withUnsafeBytes { b in #expect(RebuiltState.same(a, b), "\(count)") }
        (text + [0]).withUnsafeBytes { b in #expect(!RebuiltState.same(a, b), "\(count)") }
      }
      for place in 0..<count {
        var changed = text
        changed[place] ^= 0x40
        text.withUnsafeBytes { a in
          changed.withUnsafeBytes { b in
            #expect(!RebuiltState.same(a, b), "\(count), byte \(place)")
          }
        }
      }
    }
  }

  /// Expects `rebuilt` to match `expected`'s compact text and no text a byte different:
  /// one changed, one left out, one added, at the start, in the middle and at the end.
  private func expectMatches(
    _ rebuilt: inout RebuiltState, _ expected: JSONValue, _ comment: Comment
  ) {
    let text = Array(expected.compactText.utf8)
    #expect(text.withUnsafeBytes { rebuilt.matches($0) }, comment)
    for place in [0, text.count / 2, text.count - 1] {
      var changed = text
      changed[place] ^= 1
      var shorter = text
      shorter.remove(at: place)
      var longer = text
      longer.insert(UInt8(ascii: " "), at: place)
      for other in [changed, shorter, longer, text + [UInt8(ascii: " ")]] {
        #expect(!other.withUnsafeBytes { rebuilt.matches($0) }, comment)
      }
    }
  }
}

/// The first line where two payloads differ, for a failure's message.
private func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> String {
  let a = String(decoding: a, as: UTF8.self).split(
    separator: "\n", omittingEmptySubsequences: false)
  let b = String(decoding: b, as: UTF8.self).split(
    separator: "\n", omittingEmptySubsequences: false)
  for (index, (x, y)) in zip(a, b).enumerated() where x != y {
    return "line \(index + 1):\n\(x)\nexpected\n\(y)"
  }
  return "\(a.count) lines, expected \(b.count)"
}

extension Result where Failure == any Error {
  fileprivate var error: (any Error)? {
    if case .failure(let error) = self { return error }
    return nil
  }
}

/// `Steps` draws its states in a page (as JSON): its page's data is built by the loop
/// compiled for it (`PagePrecomputation`), which the tests compare with the generic one.
extension Steps: PageRenderingDomain {
  func pageRenderer(device: String) -> PageRenderer { PageRenderer(script: "", style: "") }
}

extension Ledger: PageRenderingDomain {
  func pageRenderer(device: String) -> PageRenderer { PageRenderer(script: "", style: "") }
}
