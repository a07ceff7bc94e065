import Navigation
import RewindCore
import RewindJournal
import Testing

/// Encodes one event.
func bytes(_ domain: NavigationDomain, _ event: NavigationEvent) -> [UInt8] {
  var writer = ByteWriter()
  domain.encode(event, into: &writer)
  return writer.bytes
}

/// Decodes exactly one event filling `bytes`.
func decodeEvent(_ domain: NavigationDomain, _ bytes: [UInt8]) throws(CodecError) -> NavigationEvent
{
  try ByteReader.decodeAll(bytes) { reader throws(CodecError) in
    try domain.decodeEvent(from: &reader)
  }
}

@Suite("Binary event codec")
struct EventBinaryCodecTests {
  let domain = Fixtures.three

  @Test("each event kind has the documented bytes")
  func documentedBytes() throws {
    let cases: [(NavigationEvent, [UInt8])] = [
      (.menuTabTapped(index: 3), [0x00, 0x06]),
      (.menuTabTapped(index: -1), [0x00, 0x01]),
      (.menuTabTapped(index: 100), [0x00, 0xC8, 0x01]),
      (.menuScrolled(offset: 120.5), [0x01, 0xD3, 0x05]),  // 723 sixths
      (.menuScrolled(offset: Double(1) / 6), [0x01, 0x01]),
      (.menuScrolled(offset: 0), [0x01, 0x00]),
      (.menuScrolled(offset: -0.0), [0x02, 0, 0, 0, 0, 0, 0, 0, 0x80]),
      (.menuScrolled(offset: 0.1), [0x02, 0x9A, 0x99, 0x99, 0x99, 0x99, 0x99, 0xB9, 0x3F]),
      (.menuScrolled(offset: -1), [0x02, 0, 0, 0, 0, 0, 0, 0xF0, 0xBF]),
      (.categorySelected(nil), [0x03]),
      (.categorySelected(domain.ref("espresso-machines")), [0x04, 0x01]),
      (.categorySelected(domain.ref("grinders")), [0x04, 0x13]),  // node 18
      (.itemSelected(nil), [0x05]),
      (.itemSelected(domain.ref("espresso-machines/leva/leva-x")), [0x06, 0x03]),
      (.itemExpanded(domain.ref("espresso-machines/leva")), [0x07, 0x02]),
      (.itemCollapsed(domain.ref("other-equipments/steam")), [0x08, 0x1C]),  // node 27
      (.columnVisibilityChanged(.automatic), [0x09, 0x00]),
      (.columnVisibilityChanged(.all), [0x09, 0x01]),
      (.columnVisibilityChanged(.doubleColumn), [0x09, 0x02]),
      (.columnVisibilityChanged(.detailOnly), [0x09, 0x03]),
      (.splitStyleChanged(.automatic), [0x0A, 0x00]),
      (.splitStyleChanged(.balanced), [0x0A, 0x01]),
      (.splitStyleChanged(.prominentDetail), [0x0A, 0x02]),
      (.sizeClassChanged(.regular), [0x0B, 0x00]),
      (.sizeClassChanged(.compact), [0x0B, 0x01]),
      (.backTapped, [0x0C]),
      (.categorySelected(domain.ref("teapots")), [0x04, 0x00, 0x07] + Array("teapots".utf8)),
      (.orientationChanged(.landscape), [0x0E, 0x00]),
      (.orientationChanged(.portrait), [0x0E, 0x01]),
      (.menuViewportResized(width: 834), [0x0F, 0x8C, 0x27]),  // 5,004 sixths
      (.menuViewportResized(width: 0.1), [0x10, 0x9A, 0x99, 0x99, 0x99, 0x99, 0x99, 0xB9, 0x3F]),
    ]
    for (event, expected) in cases {
      #expect(bytes(domain, event) == expected, "\(domain.describe(event))")
      #expect(try decodeEvent(domain, expected) == event)
    }
  }

  @Test("catalog node order is depth-first pre-order, categories in catalog order")
  func nodeOrder() {
    let ids = domain.catalog.allNodes.map(domain.catalog.id(of:))
    #expect(ids.count == 28)
    #expect(
      ids.prefix(4) == [
        "espresso-machines", "espresso-machines/leva", "espresso-machines/leva/leva-x",
        "espresso-machines/leva/leva-s",
      ])
    #expect(ids[18] == "grinders")
    #expect(ids[23] == "other-equipments")
  }

  @Test(
    "round trips are lossless over the random sequences",
    arguments: 0..<RandomSequenceTests.domains.count)
  func roundTrip(domainIndex: Int) throws {
    let domain = RandomSequenceTests.domains[domainIndex].1
    let events = RandomSequenceTests.events(domain, seed: 21)
    var writer = ByteWriter()
    for event in events { domain.encode(event, into: &writer) }
    // A stream of events decodes back one by one.
    let decoded = try writer.bytes.withUnsafeBytes { buffer throws(CodecError) in
      var reader = ByteReader(buffer)
      var result: [NavigationEvent] = []
      while !reader.isAtEnd { result.append(try domain.decodeEvent(from: &reader)) }
      return result
    }
    #expect(decoded == events)
    // A fresh domain from the settings decodes the same (unknown ids re-interned).
    let reloaded = try NavigationDomain(settingsJSON: domain.settingsJSON)
    for event in events.prefix(500) {
      let copy = try decodeEvent(reloaded, bytes(domain, event))
      #expect(reloaded.json(copy) == domain.json(event))
    }
  }

  @Test("every bit pattern of a scroll offset round-trips")
  func offsetBitPatterns() throws {
    var random = SeededRandom(seed: 99)
    var patterns: [UInt64] = [
      0, 1 << 63, 0x7FF0_0000_0000_0000, 0xFFF0_0000_0000_0000, 0x7FF8_0000_0000_0000,
      0x7FF0_0000_0000_0001, 0xFFFF_FFFF_FFFF_FFFF, 0x7FF4_0000_0000_0000, 1,
      (Double(9_007_199_254_740_991) / 6).bitPattern,
      (Double(9_007_199_254_740_992) / 6).bitPattern,
    ]
    for _ in 0..<5_000 { patterns.append(random.next()) }
    for n in 0..<3_000 { patterns.append((Double(n) / 6).bitPattern) }
    for pattern in patterns {
      let event = NavigationEvent.menuScrolled(offset: Double(bitPattern: pattern))
      let encoded = bytes(domain, event)
      guard case .menuScrolled(let offset) = try decodeEvent(domain, encoded) else {
        Issue.record("0x\(String(pattern, radix: 16)) decoded to another kind")
        continue
      }
      #expect(offset.bitPattern == pattern)
    }
    // Pixel-aligned offsets use the short form.
    for n in [0, 1, 2, 3, 723, 6_000, 1 << 20] as [UInt64] {
      #expect(bytes(domain, .menuScrolled(offset: Double(n) / 6)).first == 0x01)
    }
  }

  @Test("every truncation of every encoded event is an error")
  func truncations() {
    let events =
      RandomSequenceTests.events(domain, seed: 4, count: 2_000) + [
        .categorySelected(domain.ref("teapots")), .menuScrolled(offset: 0.1),
        .menuTabTapped(index: .min),
      ]
    for event in events {
      let encoded = bytes(domain, event)
      for length in 0..<encoded.count {
        #expect(throws: CodecError.self, "\(domain.describe(event)) cut to \(length)") {
          try decodeEvent(domain, Array(encoded.prefix(length)))
        }
      }
    }
  }

  @Test("malformed input is an error with the reason")
  func malformed() {
    let cases: [([UInt8], CodecError.Code)] = [
      ([0x11], .invalidValue),
      ([0x0E, 0x02], .invalidValue),
      ([0x0F, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10], .invalidValue),  // 2^53 sixths
      ([0x0D, 0x02], .invalidValue),  // a scroll difference at the start of a run
      ([0xFF], .invalidValue),
      ([0x09, 0x04], .invalidValue),
      ([0x0A, 0x03], .invalidValue),
      ([0x0B, 0x02], .invalidValue),
      ([0x04, 0x1D], .invalidValue),  // node 28 of 28
      ([0x07, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F], .invalidValue),
      ([0x06, 0x00, 0x81, 0x08] + [UInt8](repeating: 0x61, count: 1_025), .tooLarge),
      ([0x04, 0x00, 0x02, 0xC3, 0x28], .invalidText),
      ([0x01, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10], .invalidValue),  // 2^53 sixths
      ([0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], .malformedVarint),
      ([0x01, 0x80, 0x00], .malformedVarint),
    ]
    for (input, code) in cases {
      do {
        let event = try decodeEvent(domain, input)
        Issue.record("\(input) decoded to \(domain.describe(event))")
      } catch {
        #expect(error.code == code, "\(input): \(error)")
      }
    }
  }

  @Test("a domain reading a journal of schema 1 refuses the events schema 2 added")
  func schema1() throws {
    let old = try NavigationDomain(
      settingsJSON: Fixtures.schema1Settings,
      upcastingFrom: RecordedSchema(version: 1, device: "iPad mini"))
    #expect(old.readsSchemaVersion == 1)
    for input: [UInt8] in [[0x0E, 0x01], [0x0F, 0x8C, 0x27], [0x10, 0, 0, 0, 0, 0, 0, 0, 0]] {
      #expect(throws: CodecError.self) { try decodeEvent(old, input) }
      #expect(try decodeEvent(domain, input).kind != .menuTabTapped)
    }
    // Schema 1's events read as they were written.
    #expect(try decodeEvent(old, [0x04, 0x13]) == .categorySelected(old.ref("grinders")))
    #expect(try decodeEvent(old, [0x01, 0xD3, 0x05]) == .menuScrolled(offset: 120.5))
  }

  @Test("random garbage decodes or throws, never traps")
  func garbage() throws {
    var random = SeededRandom(seed: 2_024)
    var decoded = 0
    for _ in 0..<20_000 {
      let length = random.below(12)
      var input = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      // Bias the first byte toward valid tags so that payload decoding is exercised too.
      if !input.isEmpty && random.chance(3, in: 4) { input[0] = UInt8(random.below(17)) }
      input.withUnsafeBytes { buffer in
        var reader = ByteReader(buffer)
        while !reader.isAtEnd {
          do {
            let event = try domain.decodeEvent(from: &reader)
            decoded += 1
            // Whatever decodes re-encodes to something that decodes to the same event.
            #expect(try decodeEvent(domain, bytes(domain, event)) == event)
          } catch {
            break
          }
        }
      }
    }
    #expect(decoded > 1_000)
  }
}
