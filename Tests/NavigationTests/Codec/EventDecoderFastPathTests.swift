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

  /// `bytes` (an event's encoding, the whole of it) read by the word decoder
  /// (`decodeEvent(fromWord:count:context:)`, the scan loops' shortcut) with `garbage`
  /// in the word's bytes past the encoding: its event and codec memory, or nil and the
  /// memory it was given; and the full decoder's event, whether it read every byte, and
  /// its memory.
  func word(_ bytes: [UInt8], garbage: UInt64, _ context: NavigationCodecContext) -> (
    word: String?, wordContext: NavigationCodecContext, full: String?,
    fullContext: NavigationCodecContext
  ) {
    var word = garbage
    for (index, byte) in bytes.prefix(8).enumerated() {
      word = word & ~(0xFF << (8 * UInt64(index))) | UInt64(byte) << (8 * UInt64(index))
    }
    var wordContext = context
    let decoded = domain.decodeEvent(fromWord: word, count: bytes.count, context: &wordContext)
    var fullContext = context
    let full: String? = bytes.withUnsafeBytes { buffer in
      var reader = ByteReader(buffer)
      do throws(CodecError) {
        let event = try domain.decodeEventInFull(from: &reader, context: &fullContext)
        return reader.isAtEnd ? Self.describe(event) : nil
      } catch {
        return nil
      }
    }
    return (decoded.map(Self.describe), wordContext, full, fullContext)
  }

  @Test("the word decoder reads what the full decoder reads, or leaves the event to it")
  func wordDecoder() {
    var random = SeededRandom(seed: 24)
    let limit: UInt64 = 1 << 53
    let lasts: [UInt64?] = [nil, 0, 1, 63, 64, 8_191, 8_192, limit - 1, limit - 64, limit - 8_192]
    var taken = 0
    for _ in 0..<60_000 {
      let count = Int.random(in: 0...4, using: &random)
      var bytes: [UInt8] = (0..<count).map { _ -> UInt8 in
        switch Int.random(in: 0..<6, using: &random) {
        case 0, 1: return UInt8.random(in: 0x80...0xFF, using: &random)
        case 2: return 0
        case 3: return 1
        default: return UInt8.random(in: 0...0x7F, using: &random)
        }
      }
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
      let garbage = UInt64.random(in: 0...UInt64.max, using: &random)
      let result = word(bytes, garbage: garbage, context)
      let about = "\(bytes) after \(String(describing: context.lastScrollSixths))"
      if let event = result.word {
        taken += 1
        #expect(event == result.full, "\(about)")
        #expect(result.wordContext == result.fullContext, "\(about)")
      } else {
        #expect(result.wordContext == context, "\(about)")
      }
      // Every scroll difference of one or two bytes that decodes is taken.
      if bytes.count <= 3, bytes.first == 0x0D, result.full != nil {
        #expect(result.word != nil, "\(about)")
      }
    }
    #expect(taken > 3_000)
  }

  @Test("the word decoder takes the scroll differences of simulated sessions")
  func wordDecoderSessions() {
    var user = SimulatedUser(seed: 25, domain: domain)
    var encoding = domain.makeEventCodecContext()
    var decoding = domain.makeEventCodecContext()
    var taken = 0
    for _ in 0..<20_000 {
      let event = user.next().event
      var writer = ByteWriter()
      let before = encoding.lastScrollSixths
      domain.encode(event, into: &writer, context: &encoding)
      let bytes = writer.bytes
      let result = word(bytes, garbage: 0xA5A5_A5A5_A5A5_A5A5, decoding)
      #expect(result.full == Self.describe(event))
      if bytes.first == 0x0D, bytes.count <= 3, before != nil {
        #expect(result.word == Self.describe(event))
        taken += 1
      } else if result.word != nil {
        #expect(result.word == result.full)
      }
      decoding = result.fullContext
    }
    #expect(taken > 5_000)
  }
}
