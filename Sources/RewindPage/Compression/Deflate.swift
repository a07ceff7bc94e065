/// A raw DEFLATE compressor (RFC 1951): the data of a page is compressed with it, and the
/// page's script inflates it (`inflate.js`), so that a page of 200,000 events stays under
/// 40 bytes an event.
///
/// DEFLATE rather than zstd, the journal's codec: every browser can inflate, and a small
/// script does it synchronously, so a page draws its first screen before its `load` event.
///
/// The encoder finds repeats as zlib does: a hash of three bytes
/// chains the earlier positions with the same hash, at most ``maximumChain`` of them are
/// tried within the 32 KiB window, and a match shorter than ``lazyLimit`` is put off by one
/// byte when the next one is longer (lazy matching); when the match put off is at least
/// ``goodLength`` long, the next position tries a quarter of the chain, as zlib does. Each
/// block of up to ``symbolsPerBlock`` symbols gets its own Huffman codes, limited to 15
/// bits (7 for the code-length code), sent as a dynamic block.
///
/// The search is zlib's fourth level's (its `max_lazy` 4, `good_length` 4, `max_chain` 16)
/// with a `nice_length` of 64: on the page of 200,000 events, 45 % fewer instructions than
/// the rule before it (chains of 32, matches put off below 32 bytes) for 4 % more bytes, a
/// page of 6.1 bytes an event against the 40 of its target (BENCHMARKS.md).
///
/// The input is compressed in chunks of ``chunkSize`` bytes, each with the window before it
/// as its dictionary, on as many threads as the caller gives (as pigz does): one stream,
/// the same bytes on any number of threads (`Deflate+Chunks.swift`).
///
/// ```swift
/// let compressed = Deflate.compress(Array("hello hello hello".utf8))
/// ```
package enum Deflate {
  /// The most earlier positions tried for a match.
  static let maximumChain = 16
  /// A match at least this long is taken at once, without looking further.
  static let niceLength = 64
  /// A match shorter than this is put off when the next position has a longer one.
  static let lazyLimit = 4
  /// A match put off at least this long makes the next position's search try a quarter of
  /// the chain (zlib's `good_length`).
  static let goodLength = 4
  /// Symbols (literals and matches) in one block.
  static let symbolsPerBlock = 1 << 15

  static let windowSize = 1 << 15
  static let minimumMatch = 3
  static let maximumMatch = 258

  /// Compresses one chunk of a stream (``compress(_:chunkSize:jobs:)``): `bytes` from
  /// `start` on, the bytes before it (at most a window) being the chunk's preset
  /// dictionary, whose positions the matcher holds from the start, so that matches reach
  /// back into it. The chunk's blocks end with the stream's final one when `last`; else
  /// with an empty stored block, so that the chunk ends on a whole byte (as zlib's sync
  /// flush does) and the next chunk's bytes follow it.
  static func compressChunk(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, last: Bool)
    -> [UInt8]
  {
    var writer = BitWriter()
    var symbols: [UInt32] = []
    symbols.reserveCapacity(symbolsPerBlock + 2)
    let matcher = Matcher()
    defer { matcher.deallocate() }
    if start > 0 { matcher.insert(bytes, from: 0, to: start) }
    var position = start
    // A match found at the previous position, put off to see whether this one is longer.
    var pending: (length: Int, distance: Int)?
    while position < bytes.count {
      let chain = (pending?.length ?? 0) >= goodLength ? maximumChain / 4 : maximumChain
      // After a put-off match only a longer one is taken, so the search skips shorter
      // candidates; up to niceLength only, as a candidate that long ends the search even
      // when no longer than the put-off match (skipping it would change the bytes).
      let beating = min(pending?.length ?? minimumMatch - 1, niceLength - 1)
      let match = matcher.longestMatch(in: bytes, at: position, chain: chain, beating: beating)
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
          matcher.insert(bytes, from: position, to: end)
          position = end
          pending = nil
        }
      } else if let match {
        if match.length >= lazyLimit || position + 1 >= bytes.count {
          symbols.append(Symbols.match(length: match.length, distance: match.distance))
          let end = position + match.length
          matcher.insert(bytes, from: position, to: end)
          position = end
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
    writeBlock(symbols, final: last, to: &writer)
    guard !last else { return writer.finish() }
    // An empty stored block: its header (not final, type 0), zero bits to the byte, then
    // LEN 0 and NLEN 0xFFFF.
    writer.write(0, bits: 3)
    return writer.finish() + [0, 0, 0xFF, 0xFF]
  }

  /// Writes one dynamic-Huffman block of `symbols` and its end-of-block code.
  ///
  /// Each symbol is written from tables made for the block: a literal's code, a length's
  /// code with its extra bits, a distance code's code with the number of its extra bits;
  /// a match takes two writes.
  static func writeBlock(_ symbols: [UInt32], final: Bool, to writer: inout BitWriter) {
    var literalFrequencies = [Int](repeating: 0, count: 286)
    var distanceFrequencies = [Int](repeating: 0, count: 30)
    Symbols.lengthCodes.withUnsafeBufferPointer { lengthCodes in
      literalFrequencies.withUnsafeMutableBufferPointer { literalCounts in
        distanceFrequencies.withUnsafeMutableBufferPointer { distanceCounts in
          for symbol in symbols {
            if Symbols.isMatch(symbol) {
              let (length, distance) = Symbols.parts(of: symbol)
              literalCounts[257 + Int(lengthCodes[length])] += 1
              distanceCounts[Symbols.distanceCode(distance)] += 1
            } else {
              literalCounts[Int(symbol)] += 1
            }
          }
        }
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

    // A code and its extra bits as one value, its number of bits above bit 32.
    func entry(_ code: UInt32, _ bits: Int) -> UInt64 { UInt64(code) | UInt64(bits) << 32 }
    let literalTable = (0..<257).map { entry(literalCodes[$0], Int(literalLengths[$0])) }
    var lengthTable = [UInt64](repeating: 0, count: Deflate.maximumMatch + 1)
    for length in Deflate.minimumMatch...Deflate.maximumMatch {
      let code = Symbols.lengthCode(length)
      let codeBits = Int(literalLengths[257 + code])
      let extra = UInt32(length - Symbols.lengthBase[code]) << codeBits
      lengthTable[length] = entry(
        literalCodes[257 + code] | extra, codeBits + Symbols.lengthExtraBits[code])
    }
    // A distance code's code, its length above bit 32 and its extra bits' count above bit 40.
    let distanceTable = (0..<30).map {
      entry(distanceCodes[$0], Int(distanceLengths[$0]))
        | UInt64(Symbols.distanceExtraBits[$0]) << 40
    }
    Symbols.distanceBase.withUnsafeBufferPointer { distanceBase in
      for symbol in symbols {
        if Symbols.isMatch(symbol) {
          let (length, distance) = Symbols.parts(of: symbol)
          writer.write(lengthTable[length])
          let code = Symbols.distanceCode(distance)
          let value = distanceTable[code]
          let codeBits = Int(truncatingIfNeeded: value >> 32) & 0xFF
          let extraBits = Int(truncatingIfNeeded: value >> 40)
          let extra = UInt64(distance &- distanceBase[code]) &<< codeBits
          writer.writeWide(value & 0xFFFF_FFFF | extra, bits: codeBits &+ extraBits)
        } else {
          writer.write(literalTable[Int(symbol)])
        }
      }
    }
    writer.write(literalTable[256])
  }

  /// The order in which the code-length code's lengths are sent.
  static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

  /// Writes HLIT, HDIST, HCLEN, the code-length code and the two codes' lengths, run-length
  /// encoded with the symbols 16 (repeat the last 3–6 times), 17 (3–10 zeros) and 18
  /// (11–138 zeros).
  static func writeCodeLengths(
    literal: [UInt8], distance: [UInt8], to writer: inout BitWriter
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

/// Literals and matches packed in one word each: a literal is its byte; a match has bit
/// 31 set, its length in bits 16–24 and its distance in bits 0–15 (minus one).
enum Symbols {
  static func match(length: Int, distance: Int) -> UInt32 {
    1 << 31 | UInt32(length) << 16 | UInt32(distance - 1)
  }

  static func isMatch(_ symbol: UInt32) -> Bool { symbol & (1 << 31) != 0 }

  static func parts(of symbol: UInt32) -> (length: Int, distance: Int) {
    (Int((symbol >> 16) & 0x1FF), Int(symbol & 0xFFFF) + 1)
  }

  static let lengthBase = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
    131, 163, 195, 227, 258,
  ]
  static let lengthExtraBits = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  static let distanceBase = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
  ]
  static let distanceExtraBits = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
  ]

  /// The length code (0–28, sent as 257 + code) of a match length, 3–258.
  static let lengthCodes: [UInt8] = {
    var table = [UInt8](repeating: 0, count: 259)
    for code in 0..<29 {
      let end = code == 28 ? 259 : lengthBase[code + 1]
      for length in lengthBase[code]..<end { table[length] = UInt8(code) }
    }
    table[258] = 28
    return table
  }()

  static func lengthCode(_ length: Int) -> Int { Int(lengthCodes[length]) }

  /// The distance code (0–29) of a distance, 1–32768.
  static func distanceCode(_ distance: Int) -> Int {
    if distance <= 4 { return distance - 1 }
    // Two codes per power of two: the highest bit and the one below it.
    let value = distance - 1
    let highest = Int.bitWidth - 1 - value.leadingZeroBitCount
    return 2 * highest + ((value >> (highest - 1)) & 1)
  }
}

/// Finds earlier occurrences of the bytes at a position, through hash chains.
///
/// Its tables are buffers of its own, written in place (no copy-on-write check per
/// position), freed by ``deallocate()``; it compares candidates eight bytes at a time.
struct Matcher {
  /// For each hash of three bytes, the last position with it, plus one (0: none).
  private let head: UnsafeMutablePointer<Int32>
  /// For each position plus one, modulo the window, the previous position with its hash,
  /// plus one: a chain is followed from an entry (a position plus one) to the next without
  /// converting it back.
  private let previous: UnsafeMutablePointer<Int32>

  static let hashSize = 1 << 15

  init() {
    head = .allocate(capacity: Matcher.hashSize)
    head.initialize(repeating: 0, count: Matcher.hashSize)
    previous = .allocate(capacity: Deflate.windowSize)
    previous.initialize(repeating: 0, count: Deflate.windowSize)
  }

  /// Frees the tables; the matcher is not used after.
  func deallocate() {
    head.deallocate()
    previous.deallocate()
  }

  @inline(__always)
  private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, _ position: Int) -> Int {
    let value =
      Int(bytes[position]) << 16 | Int(bytes[position + 1]) << 8 | Int(bytes[position + 2])
    return (value &* 0x9E37_79B1) >> 17 & 0x7FFF
  }

  /// Records `position` in its hash chain.
  @inline(__always)
  func insert(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) {
    guard position + Deflate.minimumMatch <= bytes.count else { return }
    let hash = Matcher.hash(bytes, position)
    let entry = position &+ 1
    previous[entry & (Deflate.windowSize - 1)] = head[hash]
    head[hash] = Int32(truncatingIfNeeded: entry)
  }

  /// Records positions `start..<end` in their hash chains, as ``insert(_:at:)`` each: the
  /// bytes a match covers. Where four bytes follow, the three hashed are read in one load.
  @inline(__always)
  func insert(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
    let base = UnsafeRawPointer(bytes.baseAddress!)
    let wordEnd = min(end, bytes.count - 3)
    var position = start
    while position < wordEnd {
      // The bytes at position, position + 1 and position + 2 as hash(_:_:) reads them.
      let word = base.loadUnaligned(fromByteOffset: position, as: UInt32.self)
      let hash = (Int(UInt32(bigEndian: word) >> 8) &* 0x9E37_79B1) >> 17 & 0x7FFF
      let entry = position &+ 1
      previous[entry & (Deflate.windowSize - 1)] = head[hash]
      head[hash] = Int32(truncatingIfNeeded: entry)
      position += 1
    }
    while position < end {
      insert(bytes, at: position)
      position += 1
    }
  }

  /// The longest earlier occurrence (at least three bytes, at most 32,768 back) of the
  /// bytes at `position`, among the last `chain` positions with their hash; nil when none
  /// is longer than `beating`.
  ///
  /// Candidates are taken in the chain's order when longer than the best so far, so a
  /// higher `beating` gives the same match whenever the match is longer than it: the one
  /// the search would have given from the start, provided `beating` is below
  /// ``Deflate/niceLength`` (a candidate that long ends the search).
  ///
  /// Every position before `position`, and none after, is in its chain. A chain's
  /// positions fall from the head, so the walk ends at the first one out of the window:
  /// one comparison of its entry (position plus one) with the window's start, and as the
  /// window's slots of those positions have not been written again since, the links it
  /// follows are their own.
  func longestMatch(
    in bytes: UnsafeBufferPointer<UInt8>, at position: Int, chain: Int = Deflate.maximumChain,
    beating: Int = Deflate.minimumMatch - 1
  ) -> (
    length: Int, distance: Int
  )? {
    guard position + Deflate.minimumMatch <= bytes.count else { return nil }
    let limit = min(Deflate.maximumMatch, bytes.count - position)
    // Entries above this are positions within the window (0: no position).
    let windowStart = Int32(truncatingIfNeeded: max(position - Deflate.windowSize, 0))
    var entry = head[Matcher.hash(bytes, position)]
    var bestLength = beating
    guard bestLength < limit else { return nil }
    var bestDistance = 0
    var chain = chain
    let base = UnsafeRawPointer(bytes.baseAddress!)
    let here = base + position
    // The byte one further than the best: only a candidate that matches it can beat it.
    var scanEnd = here.load(fromByteOffset: bestLength, as: UInt8.self)
    while entry > windowStart {
      let candidate = Int(entry) &- 1
      let there = base + candidate
      if there.load(fromByteOffset: bestLength, as: UInt8.self) == scanEnd {
        let length = Matcher.commonLength(there, here, limit: limit)
        if length > bestLength {
          bestLength = length
          bestDistance = position &- candidate
          if length >= Deflate.niceLength || length == limit { break }
          scanEnd = here.load(fromByteOffset: bestLength, as: UInt8.self)
        }
      }
      chain &-= 1
      if chain == 0 { break }
      entry = previous[Int(entry) & (Deflate.windowSize - 1)]
    }
    return bestDistance > 0 ? (bestLength, bestDistance) : nil
  }

  /// How many bytes `a` and `b` have in common from their start, at most `limit`:
  /// eight at a time, then one at a time.
  @inline(__always)
  static func commonLength(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, limit: Int) -> Int {
    var length = 0
    while length + 8 <= limit {
      let difference =
        a.loadUnaligned(fromByteOffset: length, as: UInt64.self)
        ^ b.loadUnaligned(fromByteOffset: length, as: UInt64.self)
      if difference != 0 {
        return length + UInt64(littleEndian: difference).trailingZeroBitCount / 8
      }
      length += 8
    }
    while length < limit
      && a.load(fromByteOffset: length, as: UInt8.self)
        == b.load(fromByteOffset: length, as: UInt8.self)
    {
      length += 1
    }
    return length
  }
}

/// Huffman code lengths and canonical codes, as DEFLATE sends them.
enum Huffman {
  /// Code lengths for symbols of `frequencies` (0 for an unused symbol), none longer than
  /// `limit`, forming a complete code: at least two symbols get a length even when fewer
  /// are used, as some decoders refuse an incomplete code.
  ///
  /// - Precondition: the alphabet has at least two symbols, and at most 2^`limit`.
  static func codeLengths(_ frequencies: [Int], limit: Int) -> [UInt8] {
    precondition(frequencies.count >= 2 && frequencies.count <= 1 << limit)
    var used = frequencies.indices.filter { frequencies[$0] > 0 }
    // A complete code needs two symbols.
    var padding = 0
    while used.count < 2 {
      if !used.contains(padding) { used.append(padding) }
      padding += 1
    }
    // Depths from a Huffman tree: leaves and internal nodes in two queues.
    let weights = used.map { max(frequencies[$0], 1) }
    let order = used.indices.sorted { (weights[$0], used[$0]) < (weights[$1], used[$1]) }
    var nodeWeights = order.map { weights[$0] }
    var parent = [Int](repeating: -1, count: 2 * used.count - 1)
    var leafIndex = 0
    var internalIndex = used.count
    nodeWeights.reserveCapacity(2 * used.count - 1)
    func takeSmallest() -> Int {
      if leafIndex < used.count
        && (internalIndex >= nodeWeights.count
          || nodeWeights[leafIndex] <= nodeWeights[internalIndex])
      {
        leafIndex += 1
        return leafIndex - 1
      }
      internalIndex += 1
      return internalIndex - 1
    }
    for _ in 0..<(used.count - 1) {
      let a = takeSmallest()
      let b = takeSmallest()
      parent[a] = nodeWeights.count
      parent[b] = nodeWeights.count
      nodeWeights.append(nodeWeights[a] + nodeWeights[b])
    }
    var depth = [Int](repeating: 0, count: nodeWeights.count)
    for node in stride(from: nodeWeights.count - 2, through: 0, by: -1) {
      depth[node] = depth[parent[node]] + 1
    }
    // How many leaves at each depth, then pushed down to the limit keeping the code
    // complete (the method of JPEG's Annex K.3).
    var counts = [Int](repeating: 0, count: max(limit, depth.max() ?? 0) + 1)
    for leaf in 0..<used.count { counts[depth[leaf]] += 1 }
    if counts.count - 1 > limit {
      for length in stride(from: counts.count - 1, to: limit, by: -1) {
        while counts[length] > 0 {
          var shorter = length - 2
          while counts[shorter] == 0 { shorter -= 1 }
          counts[length] -= 2
          counts[length - 1] += 1
          counts[shorter + 1] += 2
          counts[shorter] -= 1
        }
      }
    }
    // The shortest lengths to the most frequent symbols.
    let byFrequency = used.indices.sorted {
      (weights[$0], used[$1]) > (weights[$1], used[$0])
    }
    var lengths = [UInt8](repeating: 0, count: frequencies.count)
    var next = 0
    for length in 1...limit {
      for _ in 0..<counts[length] {
        lengths[used[byFrequency[next]]] = UInt8(length)
        next += 1
      }
    }
    return lengths
  }

  /// The canonical codes of `lengths`, bit-reversed for DEFLATE's least-significant-bit
  /// first order.
  static func codes(_ lengths: [UInt8]) -> [UInt32] {
    var counts = [Int](repeating: 0, count: 16)
    for length in lengths where length > 0 { counts[Int(length)] += 1 }
    var next = [UInt32](repeating: 0, count: 16)
    var code: UInt32 = 0
    for bits in 1..<16 {
      code = (code + UInt32(counts[bits - 1])) << 1
      next[bits] = code
    }
    var codes = [UInt32](repeating: 0, count: lengths.count)
    for (symbol, length) in lengths.enumerated() where length > 0 {
      let value = next[Int(length)]
      next[Int(length)] += 1
      var reversed: UInt32 = 0
      for bit in 0..<Int(length) where value & (1 << UInt32(bit)) != 0 {
        reversed |= 1 << UInt32(Int(length) - 1 - bit)
      }
      codes[symbol] = reversed
    }
    return codes
  }
}

/// Bits written least-significant first, as DEFLATE packs them; whole 32-bit words are
/// moved out at a time.
struct BitWriter {
  /// The words written, each little-endian.
  private var words: [UInt32] = []
  /// Bits not yet in `words`: `count` of them, fewer than 32 between writes.
  private var buffer: UInt64 = 0
  private var count = 0

  /// Writes the low `bits` bits of `value` (nothing above them), 32 at most.
  @inline(__always)
  mutating func writeWide(_ value: UInt64, bits: Int) {
    buffer |= value &<< UInt64(count)
    count &+= bits
    if count >= 32 {
      words.append(UInt32(truncatingIfNeeded: buffer).littleEndian)
      buffer >>= 32
      count &-= 32
    }
  }

  /// Writes the low `bits` bits of `value` (nothing above them), 32 at most.
  @inline(__always)
  mutating func write(_ value: UInt32, bits: Int) {
    writeWide(UInt64(value), bits: bits)
  }

  /// Writes a table's entry: a value in its low 32 bits, its number of bits in the next 8.
  @inline(__always)
  mutating func write(_ entry: UInt64) {
    writeWide(entry & 0xFFFF_FFFF, bits: Int(truncatingIfNeeded: entry >> 32) & 0xFF)
  }

  /// The bytes, the last one padded with zero bits.
  mutating func finish() -> [UInt8] {
    var bytes = words.withUnsafeBytes { Array($0) }
    while count > 0 {
      bytes.append(UInt8(truncatingIfNeeded: buffer))
      buffer >>= 8
      count -= 8
    }
    words = []
    buffer = 0
    count = 0
    return bytes
  }
}
