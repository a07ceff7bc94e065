import Navigation
import RewindCore
import RewindJournal
import Testing

func bytes(_ domain: NavigationDomain, _ state: NavigationState) -> [UInt8] {
  var writer = ByteWriter()
  domain.encode(state, into: &writer)
  return writer.bytes
}

/// Decodes exactly one state filling `bytes`.
func decodeState(_ domain: NavigationDomain, _ bytes: [UInt8]) throws(CodecError) -> NavigationState
{
  try ByteReader.decodeAll(bytes) { reader throws(CodecError) in
    try domain.decodeState(from: &reader)
  }
}

@Suite("Binary state codec")
struct StateBinaryCodecTests {
  let three = Fixtures.three

  /// The sample's viewport, 375 points: 2,250 sixths.
  static let viewport: [UInt8] = [0x00, 0xCA, 0x11]

  @Test("the documented example")
  func documentedBytes() throws {
    #expect(
      bytes(three, three.initialState) == [0x00, 0x00, 0x00, 0x00, 0x00, 0x00] + Self.viewport)
    let state = three.state(
      after: .columnVisibilityChanged(.all), .splitStyleChanged(.balanced),
      .menuTabTapped(index: 2),
      .menuScrolled(offset: 120.5), .itemExpanded(three.ref("espresso-machines/leva")),
      .itemExpanded(three.ref("espresso-machines/linea")), three.category("grinders"),
      three.item("grinders/swift"), .sizeClassChanged(.compact))
    let expected: [UInt8] = [0x55, 0x02, 0xD3, 0x05, 0x13, 0x14, 0x02, 0x01, 0x08] + Self.viewport
    #expect(bytes(three, state) == expected)
    #expect(try decodeState(three, expected) == state)
    let raw = three.state(after: .menuScrolled(offset: 0.1))
    #expect(
      bytes(three, raw)
        == [0x80, 0x00, 0x9A, 0x99, 0x99, 0x99, 0x99, 0x99, 0xB9, 0x3F, 0, 0, 0] + Self.viewport)
    // Portrait, the viewport resized to 834 points (5,004 sixths), then to 0.1 (raw).
    let portrait = three.state(
      after: .orientationChanged(.portrait), .menuViewportResized(width: 834))
    #expect(bytes(three, portrait) == [0, 0, 0, 0, 0, 0, 0x01, 0x8C, 0x27])
    #expect(try decodeState(three, [0, 0, 0, 0, 0, 0, 0x01, 0x8C, 0x27]) == portrait)
    let narrow = three.state(after: .menuViewportResized(width: 0.1))
    #expect(
      bytes(three, narrow) == [
        0, 0, 0, 0, 0, 0, 0x02, 0x9A, 0x99, 0x99, 0x99, 0x99, 0x99, 0xB9, 0x3F,
      ])
  }

  @Test("a state of schema 1 is upcast: the orientation and viewport from the settings")
  func schema1() throws {
    let old = try NavigationDomain(
      settingsJSON: Fixtures.schema1Settings,
      upcastingFrom: RecordedSchema(version: 1, device: "iPhone 15, iOS 18.1"))
    let state = try decodeState(old, [0x55, 0x02, 0xD3, 0x05, 0x13, 0x14, 0x02, 0x01, 0x08])
    #expect(state.split.orientation == .portrait)
    #expect(state.menu.viewportWidth == 393)
    #expect(state.menu.scrollOffset == 120.5)
    #expect(state.split.selectedItem == old.ref("grinders/swift"))
    // Schema 1 stored any offset; schema 2's strip stops at its end: 830 - 393 = 437.
    let far = try decodeState(old, [0x00, 0x00, 0xD0, 0x8C, 0x01, 0x00, 0x00, 0x00])  // 3,000 pt
    #expect(far.menu.scrollOffset == 437)
    // Schema 2's bytes after the state are not schema 1's.
    #expect(throws: CodecError.self) {
      try decodeState(old, [0, 0, 0, 0, 0, 0] + Self.viewport)
    }
  }

  @Test(
    "round trips are lossless at every step of the random sequences",
    arguments: 0..<RandomSequenceTests.domains.count)
  func roundTrip(domainIndex: Int) throws {
    let domain = RandomSequenceTests.domains[domainIndex].1
    var state = domain.initialState
    var rawOffsets = 0
    for event in RandomSequenceTests.events(domain, seed: 8) {
      _ = domain.reduce(&state, event)
      let encoded = bytes(domain, state)
      let decoded = try decodeState(domain, encoded)
      #expect(decoded == state)
      #expect(decoded.menu.scrollOffset.bitPattern == state.menu.scrollOffset.bitPattern)
      #expect(bytes(domain, decoded) == encoded)
      if encoded[0] & 0x80 != 0 { rawOffsets += 1 }
    }
    #expect(rawOffsets > 0)
  }

  @Test("every truncation of every encoded state is an error")
  func truncations() {
    let domain = Fixtures.large
    var state = domain.initialState
    for event in RandomSequenceTests.events(domain, seed: 9, count: 1_500) {
      _ = domain.reduce(&state, event)
      let encoded = bytes(domain, state)
      for length in 0..<encoded.count {
        #expect(throws: CodecError.self) { try decodeState(domain, Array(encoded.prefix(length))) }
      }
    }
  }

  @Test("inconsistent or malformed states are errors")
  func malformed() {
    let minusOne = Array(withUnsafeBytes(of: (-1.0).bitPattern.littleEndian) { Array($0) })
    let nan = Array(withUnsafeBytes(of: Double.nan.bitPattern.littleEndian) { Array($0) })
    let minusZero = Array(withUnsafeBytes(of: (-0.0).bitPattern.littleEndian) { Array($0) })
    let cases: [(String, NavigationDomain, [UInt8], CodecError.Code)] = [
      ("style 3", three, [0x0C, 0, 0, 0, 0, 0], .invalidValue),
      ("compact column 3", three, [0x60, 0, 0, 0, 0, 0], .invalidValue),
      ("content in two columns", Fixtures.two, [0x20, 0, 0, 0, 0, 0], .invalidValue),
      ("tab 7 of 7", three, [0, 7, 0, 0, 0, 0], .invalidValue),
      ("negative offset", three, [0x80, 0] + minusOne + [0, 0, 0], .invalidValue),
      ("NaN offset", three, [0x80, 0] + nan + [0, 0, 0], .invalidValue),
      ("-0.0 offset", three, [0x80, 0] + minusZero + [0, 0, 0], .invalidValue),
      (
        "2^53 sixths", three, [0, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10, 0, 0, 0],
        .invalidValue
      ),
      (
        "offset beyond the strip", three, [0, 0, 0xB0, 0x15, 0, 0, 0] + Self.viewport, .invalidValue
      ),
      ("unknown flag bits", three, [0, 0, 0, 0, 0, 0, 0x04, 0xCA, 0x11], .invalidValue),
      ("viewport 0", three, [0, 0, 0, 0, 0, 0, 0x00, 0x00], .invalidValue),
      ("viewport -1", three, [0, 0, 0, 0, 0, 0, 0x02] + minusOne, .invalidValue),
      ("viewport NaN", three, [0, 0, 0, 0, 0, 0, 0x02] + nan, .invalidValue),
      ("category not top-level", three, [0, 0, 0, 0x02, 0, 0], .invalidValue),
      ("category beyond the catalog", three, [0, 0, 0, 0x1D, 0, 0], .invalidValue),
      ("item without category", three, [0, 0, 0, 0, 0x02, 0], .invalidValue),
      ("item of another category", three, [0, 0, 0, 0x13, 0x02, 0], .invalidValue),
      ("item is the category", three, [0, 0, 0, 0x13, 0x13, 0], .invalidValue),
      ("expanded leaf", three, [0, 0, 0, 0, 0, 0x01, 0x02], .invalidValue),
      ("expanded beyond the catalog", three, [0, 0, 0, 0, 0, 0x01, 0x1C], .invalidValue),
      ("expanded twice", three, [0, 0, 0, 0, 0, 0x02, 0x01, 0x1B], .invalidValue),
      ("too many expanded", three, [0, 0, 0, 0, 0, 0x1D], .tooLarge),
      ("huge gap", three, [0, 0, 0, 0, 0, 0x01, 0xFF, 0x7F], .tooLarge),
    ]
    for (name, domain, input, code) in cases {
      do {
        _ = try decodeState(domain, input)
        Issue.record("\(name): decoded")
      } catch {
        #expect(error.code == code, "\(name): \(error)")
      }
    }
  }

  @Test("random garbage and mutated states decode or throw, never trap; what decodes is sound")
  func garbage() {
    var random = SeededRandom(seed: 77)
    for _ in 0..<10_000 {
      let input = (0..<random.below(14)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      if let state = try? decodeState(three, input) {
        #expect(invariantViolations(of: state).filter { !$0.hasPrefix("compact") }.isEmpty)
      }
    }
    // Valid encodings with one or two bytes changed.
    var state = three.initialState
    var decoded = 0
    for event in RandomSequenceTests.events(three, seed: 78, count: 10_000) {
      _ = three.reduce(&state, event)
      var input = bytes(three, state)
      for _ in 0...random.below(2) {
        input[random.below(input.count)] = UInt8(truncatingIfNeeded: random.next() % 40)
      }
      if let mutated = try? decodeState(three, input) {
        decoded += 1
        #expect(invariantViolations(of: mutated).filter { !$0.hasPrefix("compact") }.isEmpty)
      }
    }
    #expect(decoded > 1_000)
  }
}
