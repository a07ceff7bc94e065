@testable import RewindPage

// The DEFLATE encoder as it was before issue 17 made its match finder and bit writer
// fast (main at 690f9e9): the oracle the fast one must match byte for byte. Its symbols
// and Huffman codes are the module's, which did not change; its rule (how far it searches,
// which matches it puts off) is given: `Rule.module`, the module's constants, for the
// bytes the fast encoder must write, or `Rule.before`, the rule the module had until the
// eleventh session of issue 17 (chains of 32, matches put off below 32 bytes), to compare
// sizes.
// Given a `goodLength` it tries a quarter of the chain after a match put off that long
// (zlib's `good_length`, which the module's encoder took later: the lines marked
// `goodLength` below).

enum ReferenceDeflate {
  /// How the encoder searches: `Deflate`'s constants of the same names.
  struct Rule {
    /// The most earlier positions tried for a match.
    var maximumChain: Int
    /// A match at least this long is taken at once, without looking further.
    var niceLength: Int
    /// A match shorter than this is put off when the next position has a longer one.
    var lazyLimit: Int
    /// A match put off at least this long makes the next search try a quarter of the
    /// chain; nil: never.
    var goodLength: Int?

    /// The module's rule.
    static let module = Rule(
      maximumChain: Deflate.maximumChain, niceLength: Deflate.niceLength,
      lazyLimit: Deflate.lazyLimit, goodLength: Deflate.goodLength)
    /// The rule until the eleventh session of issue 17, without its good length (as the
    /// encoder was first written).
    static let before = Rule(maximumChain: 32, niceLength: 128, lazyLimit: 32, goodLength: nil)
  }

  /// Symbols (literals and matches) in one block.
  static let symbolsPerBlock = 1 << 15

  static let windowSize = 1 << 15
  static let minimumMatch = 3
  static let maximumMatch = 258

  /// Compresses `input` as one raw DEFLATE stream (no zlib or gzip wrapper).
  ///
  /// - Complexity: O(n · the rule's `maximumChain`) at worst, about O(n) for text.
  package static func compress(_ input: [UInt8], rule: Rule) -> [UInt8] {
    var writer = ReferenceBitWriter()
    var symbols: [UInt32] = []
    symbols.reserveCapacity(symbolsPerBlock + 2)
    input.withUnsafeBufferPointer { bytes in
      var matcher = ReferenceMatcher()
      var position = 0
      // A match found at the previous position, put off to see whether this one is longer.
      var pending: (length: Int, distance: Int)?
      while position < bytes.count {
        // goodLength: a quarter of the chain after a good match put off.
        let good = rule.goodLength.map { (pending?.length ?? 0) >= $0 } ?? false
        let match = matcher.longestMatch(
          in: bytes, at: position, chain: good ? rule.maximumChain / 4 : rule.maximumChain,
          niceLength: rule.niceLength)
        if let previous = pending {
          if let match, match.length > previous.length {
            // The later match is longer: the previous position is a literal.
            symbols.append(UInt32(bytes[position - 1]))
            pending = match
            matcher.insert(bytes, at: position)
            position += 1
          } else {
            symbols.append(Symbols.match(length: previous.length, distance: previous.distance))
            // Positions position-1 (inserted) … position-1+length-1 are covered.
            let end = position - 1 + previous.length
            while position < end {
              matcher.insert(bytes, at: position)
              position += 1
            }
            pending = nil
          }
        } else if let match {
          if match.length >= rule.lazyLimit || position + 1 >= bytes.count {
            symbols.append(Symbols.match(length: match.length, distance: match.distance))
            let end = position + match.length
            while position < end {
              matcher.insert(bytes, at: position)
              position += 1
            }
          } else {
            pending = match
            matcher.insert(bytes, at: position)
            position += 1
          }
        } else {
          symbols.append(UInt32(bytes[position]))
          matcher.insert(bytes, at: position)
          position += 1
        }
        if pending == nil, symbols.count >= symbolsPerBlock {
          writeBlock(symbols, final: false, to: &writer)
          symbols.removeAll(keepingCapacity: true)
        }
      }
      if let previous = pending {
        symbols.append(Symbols.match(length: previous.length, distance: previous.distance))
      }
    }
    writeBlock(symbols, final: true, to: &writer)
    return writer.finish()
  }

  /// Writes one dynamic-Huffman block of `symbols` and its end-of-block code.
  static func writeBlock(_ symbols: [UInt32], final: Bool, to writer: inout ReferenceBitWriter) {
    var literalFrequencies = [Int](repeating: 0, count: 286)
    var distanceFrequencies = [Int](repeating: 0, count: 30)
    for symbol in symbols {
      if Symbols.isMatch(symbol) {
        let (length, distance) = Symbols.parts(of: symbol)
        literalFrequencies[257 + Symbols.lengthCode(length)] += 1
        distanceFrequencies[Symbols.distanceCode(distance)] += 1
      } else {
        literalFrequencies[Int(symbol)] += 1
      }
    }
    literalFrequencies[256] = 1
    let literalLengths = Huffman.codeLengths(literalFrequencies, limit: 15)
    let distanceLengths = Huffman.codeLengths(distanceFrequencies, limit: 15)
    let literalCodes = Huffman.codes(literalLengths)
    let distanceCodes = Huffman.codes(distanceLengths)

    writer.write(final ? 1 : 0, bits: 1)
    writer.write(2, bits: 2)  // dynamic Huffman codes
    writeCodeLengths(literal: literalLengths, distance: distanceLengths, to: &writer)
    for symbol in symbols {
      if Symbols.isMatch(symbol) {
        let (length, distance) = Symbols.parts(of: symbol)
        let lengthCode = Symbols.lengthCode(length)
        let literal = 257 + lengthCode
        writer.write(literalCodes[literal], bits: Int(literalLengths[literal]))
        let lengthExtra = Symbols.lengthExtraBits[lengthCode]
        if lengthExtra > 0 {
          writer.write(
            UInt32(length - Symbols.lengthBase[lengthCode]), bits: lengthExtra)
        }
        let distanceCode = Symbols.distanceCode(distance)
        writer.write(distanceCodes[distanceCode], bits: Int(distanceLengths[distanceCode]))
        let distanceExtra = Symbols.distanceExtraBits[distanceCode]
        if distanceExtra > 0 {
          writer.write(
            UInt32(distance - Symbols.distanceBase[distanceCode]), bits: distanceExtra)
        }
      } else {
        writer.write(literalCodes[Int(symbol)], bits: Int(literalLengths[Int(symbol)]))
      }
    }
    writer.write(literalCodes[256], bits: Int(literalLengths[256]))
  }

  /// The order in which the code-length code's lengths are sent.
  static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

  /// Writes HLIT, HDIST, HCLEN, the code-length code and the two codes' lengths, run-length
  /// encoded with the symbols 16 (repeat the last 3–6 times), 17 (3–10 zeros) and 18
  /// (11–138 zeros).
  static func writeCodeLengths(
    literal: [UInt8], distance: [UInt8], to writer: inout ReferenceBitWriter
  ) {
    var literalCount = 286
    while literalCount > 257 && literal[literalCount - 1] == 0 { literalCount -= 1 }
    var distanceCount = 30
    while distanceCount > 1 && distance[distanceCount - 1] == 0 { distanceCount -= 1 }
    let lengths = Array(literal[..<literalCount]) + Array(distance[..<distanceCount])

    // (symbol, extra value) pairs.
    var runs: [(UInt8, UInt8)] = []
    var index = 0
    while index < lengths.count {
      let length = lengths[index]
      var run = 1
      while index + run < lengths.count && lengths[index + run] == length { run += 1 }
      index += run
      if length == 0 {
        while run >= 11 {
          let take = min(run, 138)
          runs.append((18, UInt8(take - 11)))
          run -= take
        }
        if run >= 3 {
          runs.append((17, UInt8(run - 3)))
          run = 0
        }
        for _ in 0..<run { runs.append((0, 0)) }
      } else {
        runs.append((length, 0))
        run -= 1
        while run >= 3 {
          let take = min(run, 6)
          runs.append((16, UInt8(take - 3)))
          run -= take
        }
        for _ in 0..<run { runs.append((length, 0)) }
      }
    }
    var frequencies = [Int](repeating: 0, count: 19)
    for (symbol, _) in runs { frequencies[Int(symbol)] += 1 }
    let codeLengths = Huffman.codeLengths(frequencies, limit: 7)
    let codes = Huffman.codes(codeLengths)
    var codeLengthCount = 19
    while codeLengthCount > 4 && codeLengths[codeLengthOrder[codeLengthCount - 1]] == 0 {
      codeLengthCount -= 1
    }
    writer.write(UInt32(literalCount - 257), bits: 5)
    writer.write(UInt32(distanceCount - 1), bits: 5)
    writer.write(UInt32(codeLengthCount - 4), bits: 4)
    for position in 0..<codeLengthCount {
      writer.write(UInt32(codeLengths[codeLengthOrder[position]]), bits: 3)
    }
    for (symbol, extra) in runs {
      writer.write(codes[Int(symbol)], bits: Int(codeLengths[Int(symbol)]))
      switch symbol {
      case 16: writer.write(UInt32(extra), bits: 2)
      case 17: writer.write(UInt32(extra), bits: 3)
      case 18: writer.write(UInt32(extra), bits: 7)
      default: break
      }
    }
  }
}

/// Finds earlier occurrences of the bytes at a position, through hash chains.
struct ReferenceMatcher {
  /// For each hash of three bytes, the last position with it, plus one (0: none).
  private var head = [Int32](repeating: 0, count: 1 << 15)
  /// For each position in the window, the previous position with its hash, plus one.
  private var previous = [Int32](repeating: 0, count: Deflate.windowSize)

  @inline(__always)
  private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, _ position: Int) -> Int {
    let value =
      Int(bytes[position]) << 16 | Int(bytes[position + 1]) << 8 | Int(bytes[position + 2])
    return (value &* 0x9E37_79B1) >> 17 & 0x7FFF
  }

  /// Records `position` in its hash chain.
  @inline(__always)
  mutating func insert(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) {
    guard position + Deflate.minimumMatch <= bytes.count else { return }
    let hash = ReferenceMatcher.hash(bytes, position)
    previous[position & (Deflate.windowSize - 1)] = head[hash]
    head[hash] = Int32(position + 1)
  }

  /// The longest earlier occurrence (at least three bytes, at most 32,768 back) of the
  /// bytes at `position`.
  func longestMatch(
    in bytes: UnsafeBufferPointer<UInt8>, at position: Int, chain: Int, niceLength: Int
  ) -> (length: Int, distance: Int)? {
    guard position + Deflate.minimumMatch <= bytes.count else { return nil }
    let limit = min(Deflate.maximumMatch, bytes.count - position)
    var candidate = Int(head[ReferenceMatcher.hash(bytes, position)]) - 1
    var bestLength = Deflate.minimumMatch - 1
    var bestDistance = 0
    var chain = chain
    return previous.withUnsafeBufferPointer { previous in
      while candidate >= 0, chain > 0 {
        let distance = position - candidate
        guard distance <= Deflate.windowSize, distance > 0 else { break }
        // Only a candidate that matches one byte further than the best can beat it.
        if bytes[candidate + bestLength] == bytes[position + bestLength] {
          var length = 0
          while length < limit && bytes[candidate + length] == bytes[position + length] {
            length += 1
          }
          if length > bestLength {
            bestLength = length
            bestDistance = distance
            if length >= niceLength || length == limit { break }
          }
        }
        candidate = Int(previous[candidate & (Deflate.windowSize - 1)]) - 1
        chain -= 1
      }
      return bestDistance > 0 ? (bestLength, bestDistance) : nil
    }
  }
}

/// Bits written least-significant first, as DEFLATE packs them.
struct ReferenceBitWriter {
  private(set) var bytes: [UInt8] = []
  private var buffer: UInt64 = 0
  private var count = 0

  @inline(__always)
  mutating func write(_ value: UInt32, bits: Int) {
    buffer |= UInt64(value) << UInt64(count)
    count += bits
    while count >= 8 {
      bytes.append(UInt8(truncatingIfNeeded: buffer))
      buffer >>= 8
      count -= 8
    }
  }

  /// The bytes, the last one padded with zero bits.
  mutating func finish() -> [UInt8] {
    if count > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
    buffer = 0
    count = 0
    return bytes
  }
}
