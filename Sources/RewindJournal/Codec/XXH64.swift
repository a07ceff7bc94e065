/// XXH64, the 64-bit xxHash of Yann Collet (the hash zstd uses for its content
/// checksums), with seed 0.
///
/// The journal uses it for every checksum of its own (metadata frames, compressed data
/// frames) and the replay engine uses it for state hashes. Independent readers can use
/// any xxHash library; `FORMAT.md` names the function and seed.
package enum XXH64 {
  @usableFromInline static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
  @usableFromInline static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
  @usableFromInline static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
  @usableFromInline static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
  @usableFromInline static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

  /// The hash of `bytes`.
  ///
  /// - Complexity: O(n), about one cycle a byte on long inputs.
  package static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
    let length = bytes.count
    guard let base = bytes.baseAddress else { return finish(seed &+ prime5, length: 0) }
    var position = 0
    var h: UInt64
    if length >= 32 {
      var v1 = seed &+ prime1 &+ prime2
      var v2 = seed &+ prime2
      var v3 = seed
      var v4 = seed &- prime1
      while position + 32 <= length {
        v1 = round(v1, read64(base, position))
        v2 = round(v2, read64(base, position + 8))
        v3 = round(v3, read64(base, position + 16))
        v4 = round(v4, read64(base, position + 24))
        position += 32
      }
      h = rotate(v1, 1) &+ rotate(v2, 7) &+ rotate(v3, 12) &+ rotate(v4, 18)
      h = merge(h, v1)
      h = merge(h, v2)
      h = merge(h, v3)
      h = merge(h, v4)
    } else {
      h = seed &+ prime5
    }
    h = h &+ UInt64(length)
    while position + 8 <= length {
      h ^= round(0, read64(base, position))
      h = rotate(h, 27) &* prime1 &+ prime4
      position += 8
    }
    if position + 4 <= length {
      let word = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt32.self))
      h ^= UInt64(word) &* prime1
      h = rotate(h, 23) &* prime2 &+ prime3
      position += 4
    }
    while position < length {
      h ^= UInt64(base.load(fromByteOffset: position, as: UInt8.self)) &* prime5
      h = rotate(h, 11) &* prime1
      position += 1
    }
    return avalanche(h)
  }

  /// The hash of the bytes of an array.
  package static func hash(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
    bytes.withUnsafeBytes { hash($0, seed: seed) }
  }

  /// The low 32 bits of the hash: the form used for the journal's frame checksums, as
  /// zstd does for its content checksum.
  package static func checksum32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    UInt32(truncatingIfNeeded: hash(bytes))
  }

  @inline(__always) static func read64(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
    UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }

  @inline(__always) static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
    (value << bits) | (value >> (64 - bits))
  }

  @inline(__always) static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
    rotate(accumulator &+ input &* prime2, 31) &* prime1
  }

  @inline(__always) static func merge(_ accumulator: UInt64, _ value: UInt64) -> UInt64 {
    (accumulator ^ round(0, value)) &* prime1 &+ prime4
  }

  static func finish(_ h: UInt64, length: Int) -> UInt64 {
    avalanche(h &+ UInt64(length))
  }

  @inline(__always) static func avalanche(_ h: UInt64) -> UInt64 {
    var h = h
    h ^= h >> 33
    h = h &* prime2
    h ^= h >> 29
    h = h &* prime3
    h ^= h >> 32
    return h
  }
}
