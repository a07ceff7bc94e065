import RewindCore
import RewindJournal
import Testing

@testable import Navigation

/// `NavigationDomain.decodeEvent(from:context:)` decodes a scroll difference of one or
/// two bytes inline and hands everything else to the full decoder
/// (`decodeEventInFull(from:context:)`, the decoder as it always was); these tests hold
/// the two to the same events, errors, offsets and codec memory.
@Suite("Binary event codec: the decoder's fast path")
struct EventDecoderFastPathTests {
  let domain = Fixtures.three

  /// What a decode gives: the event (a scroll offset by its bits) or the error, the
  /// offset after it and the codec's memory.
  struct Outcome: Equatable {
    var result: String
    var offset: Int
    var context: NavigationCodecContext
  }

  static func describe(_ event: NavigationEvent) -> String {
    switch event {
    case .menuScrolled(let offset): "menuScrolled \(offset.bitPattern)"
    case .menuViewportResized(let width): "menuViewportResized \(width.bitPattern)"
    default: "\(event)"
    }
  }

  /// `bytes` decoded from `start` with `context`, by the decoder and by the full one.
  func both(_ bytes: [UInt8], from start: Int, _ context: NavigationCodecContext) -> (
    fast: Outcome, full: Outcome
  ) {
    bytes.withUnsafeBytes { buffer in
      func run(_ fast: Bool) -> Outcome {
        var reader = ByteReader(buffer)
        try? reader.seek(to: start)
        var context = context
        let result: String
        do throws(CodecError) {
          let event =
            fast
            ? try domain.decodeEvent(from: &reader, context: &context)
            : try domain.decodeEventInFull(from: &reader, context: &context)
          result = Self.describe(event)
        } catch {
          result = "\(error.code) \(error.message) at \(error.offset)"
        }
        return Outcome(result: result, offset: reader.offset, context: context)
      }
      return (run(true), run(false))
    }
  }

  @Test("runs of random events decode the same, event by event")
  func randomRuns() {
    var generator = RandomEventGenerator(seed: 21, domain: domain)
    var user = SimulatedUser(seed: 22, domain: domain)
    for run in 0..<60 {
      let events = (0..<300).map { index in
        index % 4 == 0 && run % 2 == 0 ? generator.next() : user.next().event
      }
      var context = domain.makeEventCodecContext()
      var writer = ByteWriter()
      for event in events { domain.encode(event, into: &writer, context: &context) }
      let bytes = writer.bytes
      var offset = 0
      var decoding = domain.makeEventCodecContext()
      for event in events {
        let (fast, full) = both(bytes, from: offset, decoding)
        #expect(fast == full)
        #expect(fast.result == Self.describe(event))
        offset = fast.offset
        decoding = fast.context
      }
      #expect(offset == bytes.count)
    }
  }

  @Test("random bytes after a scroll difference's tag decode or fail the same")
  func randomBytes() {
    var random = SeededRandom(seed: 23)
    let limit: UInt64 = 1 << 53
    let lasts: [UInt64?] = [nil, 0, 1, 63, 64, 8_191, 8_192, limit - 1, limit - 64, limit - 8_192]
    for _ in 0..<40_000 {
      let count = Int.random(in: 0...4, using: &random)
      var bytes: [UInt8] = (0..<count).map { _ -> UInt8 in
        // Continuation bits, zeros and small bytes all often.
        switch Int.random(in: 0..<6, using: &random) {
        case 0, 1: return UInt8.random(in: 0x80...0xFF, using: &random)
        case 2: return 0
        case 3: return 1
        default: return UInt8.random(in: 0...0x7F, using: &random)
        }
      }
      // The scroll difference's tag most of the time; other tags now and then.
      if Int.random(in: 0..<5, using: &random) > 0 {
        bytes.insert(0x0D, at: 0)
      } else {
        bytes.insert(UInt8.random(in: 0...0x11, using: &random), at: 0)
      }
      var context = NavigationCodecContext()
      context.lastScrollSixths =
        Bool.random(using: &random)
        ? lasts.randomElement(using: &random)!
        : UInt64.random(in: 0..<limit, using: &random)
      let lead = Int.random(in: 0...2, using: &random)
      let data = Array(repeating: 0xFF, count: lead) + bytes
      let (fast, full) = both(data, from: lead, context)
      #expect(fast == full, "\(bytes) after \(String(describing: context.lastScrollSixths))")
    }
  }
}
