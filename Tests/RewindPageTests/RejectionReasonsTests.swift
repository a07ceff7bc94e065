import Navigation
import RewindCore
import TestSupport
import Testing

@testable import RewindPage

/// A rejected event's reason remembered by its rejection's bits (the domain's specialised
/// page builder, `Builder.addReason(of:)`): rejections of one case with other payloads have
/// other reasons, and the page is the bytes of writing every reason.
@Suite("SessionPage: rejections' reasons remembered by their bits")
struct RejectionReasonsTests {
  private let options = SessionPage.Options(
    title: "reasons", fileName: "rejected.journal", generator: "rewind test")

  @Test(
    "taps on tabs out of range, of many indices and repeated: the reasons of writing each one"
  )
  func tabsOutOfRange() throws {
    // The navigation domain's rejections are plain bits: its page remembers them.
    #expect(_isPOD(NavigationRejection.self))
    let seed = testSeed("RejectionReasonsTests.tabsOutOfRange")
    var random = SplitMix64(seed: seed)
    let domain = NavigationDomain.sample
    for trial in 0..<soakCount("PAGE_ORACLE", standard: 3) {
      let directory = TemporaryDirectory()
      let path = directory.file("rejected.journal")
      let count = Int(random.next() % 3_000) + 1
      // Indices 0...39: some tabs, the rest out of range, each a reason of its own
      // (`tab index 17 is out of range: …`), most of them met many times; and scrolls, some
      // to negative offsets (a rejection with no payload).
      var indices = Set<Int>()
      let events: [(NavigationEvent, UInt64)] = (0..<count).map { number in
        let time = UInt64(number) * 16_667
        switch random.next() % 3 {
        case 0:
          return (.menuScrolled(offset: Double(random.next() % 200) - 50), time)
        default:
          let index = Int(random.next() % 40)
          indices.insert(index)
          return (.menuTabTapped(index: index), time)
        }
      }
      try recordNavigation(
        events, in: domain, to: path, snapshotInterval: 500, frameSize: 65_536)
      let session = try Timeline<NavigationDomain>(path: path)
      let remembered = try SessionPage.Payload.buildSpecialised(
        session, from: 0, to: UInt64(count), options: options, rendererData: .null,
        progress: { _ in }
      ).bytes
      let written = try SessionPage.Payload.build(
        session, from: 0, to: UInt64(count), options: options, rendererData: .null,
        memoize: false, progress: { _ in }
      ).bytes
      let same = remembered == written
      #expect(same, "seed \(seed), trial \(trial): \(count) events")
      // Each index out of range has a reason of its own in the table.
      let labels = domain.initialState.menuLabels.count
      let outOfRange = indices.filter { $0 >= labels }.count
      let reasons = try reasonCount(remembered)
      #expect(
        reasons >= outOfRange,
        "seed \(seed), trial \(trial): \(reasons) reasons, \(outOfRange) indices out of range")
    }
  }

  /// The number of reasons the page's data says its table has.
  private func reasonCount(_ data: [UInt8]) throws -> Int {
    let line = data.prefix { $0 != UInt8(ascii: "\n") }
    let meta = try JSONValue(parsing: String(decoding: line, as: UTF8.self))
    guard case .int(let count)? = meta.value(atPath: "page.tables.reasons") else {
      Issue.record("no reasons' count in \(String(decoding: line, as: UTF8.self))")
      return 0
    }
    return Int(count)
  }
}
