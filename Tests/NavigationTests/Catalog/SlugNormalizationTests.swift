import Foundation
import TestSupport
import Testing

@testable import Navigation

/// `Catalog.slug` normalises with the standard library, not Foundation (the tool links no
/// Foundation): its slugs must be the ones Foundation's normalisation made, which is what
/// every catalog recorded so far was named with. Slugs are compared as UTF-8 bytes: `==`
/// on strings would take two normalisations of one text as equal.
@Suite("Slugs without Foundation")
struct SlugNormalizationTests {
  /// The slug as it was made with Foundation's `precomposedStringWithCanonicalMapping`.
  static func foundationSlug(_ name: String) -> String {
    var kept = String.UnicodeScalarView()
    var pendingDash = false
    var previousKept = false
    for scalar in name.precomposedStringWithCanonicalMapping.unicodeScalars {
      let keep: Bool
      switch scalar.properties.generalCategory {
      case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
        .decimalNumber:
        keep = true
      case .nonspacingMark, .spacingMark, .enclosingMark:
        keep = previousKept
      default:
        keep = false
      }
      if keep {
        if pendingDash && !kept.isEmpty { kept.append("-") }
        pendingDash = false
        kept.append(scalar)
      } else {
        pendingDash = true
      }
      previousKept = keep
    }
    return String(kept).lowercased().precomposedStringWithCanonicalMapping
  }

  /// Scalars where normalisation does something: Latin with its combining marks, Greek
  /// with tonos, the modern Hangul jamo (syllables and archaic jamo on their own, below), Devanagari and Bengali vowel signs, Hebrew
  /// points, compatibility forms (which NFC keeps), Kana with voicing marks, and others.
  static let ranges: [ClosedRange<UInt32>] = [
    0x41...0x7A, 0xC0...0x24F, 0x300...0x36F, 0x370...0x3FF, 0x400...0x4FF, 0x591...0x5F4,
    0x900...0x97F, 0x980...0x9FF, 0x1100...0x1112, 0x1161...0x1175, 0x11A8...0x11C2,
    0x1E00...0x1FFF, 0x2000...0x206F,
    0x2126...0x212B, 0x3040...0x30FF, 0xFB00...0xFB4F, 0x1D15E...0x1D164,
    0x1F600...0x1F64F,
  ]

  @Test("an ASCII name's slug, made from its bytes, is the one Unicode's categories make")
  func asciiSlugs() throws {
    var random = SplitMix64(seed: testSeed("ascii slugs"))
    let chosen = ["Linea PB X", "  KB90--", "a_b", "Café", "", "-", "Z9", "\u{7F}x\u{1}y"]
    var names = chosen
    for _ in 0..<soakCount("SLUGS", standard: 10_000) {
      let length = Int.random(in: 0...12, using: &random)
      let bytes = (0..<length).map { _ in UInt8.random(in: 0...0x7F, using: &random) }
      names.append(String(decoding: bytes, as: UTF8.self))
    }
    for name in names {
      let unicode = Catalog.unicodeSlug(name)
      if name.utf8.allSatisfy({ $0 < 0x80 }) {
        let ascii = try #require(Catalog.asciiSlug(name))
        #expect(Array(ascii.utf8) == Array(unicode.utf8), "\(name.debugDescription)")
      } else {
        #expect(Catalog.asciiSlug(name) == nil)
      }
      #expect(Array(Catalog.slug(name).utf8) == Array(unicode.utf8))
    }
  }

  @Test("random names give Foundation's slugs")
  func randomNames() {
    var random = SplitMix64(seed: testSeed("slug normalisation"))
    for _ in 0..<soakCount("SLUGS", standard: 10_000) {
      var name = String.UnicodeScalarView()
      for _ in 0..<Int.random(in: 1...8, using: &random) {
        let range = Self.ranges.randomElement(using: &random)!
        if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &random)) {
          name.append(scalar)
        }
        if Int.random(in: 0..<4, using: &random) == 0 { name.append(" ") }
      }
      let text = String(name)
      #expect(
        Array(Catalog.slug(text).utf8) == Array(Self.foundationSlug(text).utf8),
        "\(text.debugDescription)")
    }
  }

  @Test(
    "names whose composition differs between forms",
    arguments: [
      "e\u{301}", "\u{1100}\u{1161}\u{11A8}", "\u{212B}", "\u{2126}", "A\u{30A}\u{301}",
      "\u{3B1}\u{301}\u{345}", "\u{915}\u{93C}", "\u{9C7}\u{9BE}", "\u{FB2C}", "\u{1D15F}",
      "\u{304B}\u{3099}", "ﬁ", "Ⅻ", "q\u{307}\u{323}", "\u{5D1}\u{5BC}",
    ])
  func knownCases(name: String) {
    #expect(Array(Catalog.slug(name).utf8) == Array(Self.foundationSlug(name).utf8))
  }

  /// A precomposed Hangul syllable of two jamo (LV) followed by a final consonant (T)
  /// composes into one syllable (LVT), as Unicode's canonical composition of Hangul says
  /// (UAX #15). Foundation on Linux leaves them apart (its slug of `"\u{AC00}\u{11A8}"` is
  /// those two scalars); the standard library composes them, as Foundation does the same
  /// text typed as three jamo.
  @Test(
    "a syllable and a final consonant compose as Unicode says",
    arguments: [
      ("\u{AC00}\u{11A8}", "\u{AC01}"), ("\u{AC38}\u{11AC}", "\u{AC3D}"),
      ("\u{D558}\u{11AB} \u{AE00}", "\u{D55C}-\u{AE00}"), ("\u{1100}\u{1161}\u{11A8}", "\u{AC01}"),
    ])
  func hangulSyllables(name: String, slug: String) {
    #expect(Array(Catalog.slug(name).utf8) == Array(slug.utf8))
    // Three jamo, as Foundation composes them too.
    let jamo = String(String.UnicodeScalarView(Self.decomposedHangul(name)))
    #expect(Array(Self.foundationSlug(jamo).utf8) == Array(slug.utf8))
  }

  /// Archaic jamo (vowels after U+1175, final consonants after U+11C2) compose with
  /// nothing: UAX #15 composes only the modern ones. Foundation on Linux composes
  /// `"\u{1102}\u{1176}"` into U+B2E4, another syllable (its arithmetic runs past the
  /// vowels); the standard library leaves them as they are.
  @Test(
    "archaic jamo stay apart",
    arguments: [
      ("\u{1102}\u{1176}", "\u{1102}\u{1176}"), ("\u{AC00}\u{11C3}", "\u{AC00}\u{11C3}"),
      ("\u{1100}\u{1161}\u{11FF}", "\u{AC00}\u{11FF}"),
    ])
  func archaicJamo(name: String, slug: String) {
    #expect(Array(Catalog.slug(name).utf8) == Array(slug.utf8))
  }

  /// The scalars of `text` with each precomposed Hangul syllable as its jamo (UAX #15's
  /// arithmetic decomposition).
  static func decomposedHangul(_ text: String) -> [Unicode.Scalar] {
    text.unicodeScalars.flatMap { scalar -> [Unicode.Scalar] in
      let index = Int(scalar.value) - 0xAC00
      guard (0..<11_172).contains(index) else { return [scalar] }
      let lead = 0x1100 + index / 588
      let vowel = 0x1161 + (index % 588) / 28
      let tail = index % 28
      return ([lead, vowel] + (tail == 0 ? [] : [0x11A7 + tail])).map { Unicode.Scalar($0)! }
    }
  }
}
