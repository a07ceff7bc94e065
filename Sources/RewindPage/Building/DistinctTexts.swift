#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Distinct byte strings, each kept once and numbered in the order they are first met: how
/// the page's data holds each event body and each change list once (see <doc:PageFormat>).
///
/// The texts lie end to end in one arena; an open-addressing table (linear probing, at most
/// half full) holds their numbers, found by a hash of the bytes and confirmed by comparing
/// them. Looking a text up allocates nothing; only a new text grows the arena, and the
/// table doubles when it is half full.
@usableFromInline struct DistinctTexts {
  /// A hash of a text's bytes.
  @usableFromInline typealias Hash = (UnsafeRawBufferPointer) -> UInt64

  /// The texts, end to end, in the order of their numbers.
  private var arena: [UInt8] = []
  /// Where each text starts in `arena`, and the arena's end: `count + 1` offsets.
  private var starts: [Int] = [0]
  /// The hash of each text.
  private var hashes: [UInt64] = []
  /// For each slot, the number of the text in it plus one; 0 for an empty slot.
  private var slots: [UInt32]
  /// `slots.count - 1` (a power of two less one).
  private var mask: Int
  /// The hash a test gives (to force collisions with a poor one); nil for ``hash(_:)``,
  /// called directly rather than through a closure.
  private let customHash: Hash?

  /// An empty set, sized for `capacity` texts before its table grows.
  /// - Parameter hash: the hash of a text (a test forces collisions with a poor one); nil
  ///   for ``hash(_:)``.
  @usableFromInline init(capacity: Int = 1_024, hash: Hash? = nil) {
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    slots = [UInt32](repeating: 0, count: size)
    mask = size - 1
    customHash = hash
    // Room for texts of 64 bytes, reserved: the arena grows (copying itself into new
    // pages) less often, and the room not used is not touched.
    arena.reserveCapacity(capacity * 64)
  }

  /// The number of distinct texts.
  @usableFromInline var count: Int { hashes.count }

  /// The total length of the texts, in bytes.
  @usableFromInline var byteCount: Int { arena.count }

  /// The number of `text`: the one it was given when first met, or the next one, keeping a
  /// copy of it, when it is new.
  @usableFromInline mutating func number(of text: UnsafeRawBufferPointer) -> Int {
    let hashed = customHash?(text) ?? Self.hash(text)
    var slot = Int(truncatingIfNeeded: hashed) & mask
    while true {
      let held = slots[slot]
      if held == 0 { break }
      let index = Int(held) - 1
      if hashes[index] == hashed && equals(index, text) { return index }
      slot = (slot + 1) & mask
    }
    let index = hashes.count
    hashes.append(hashed)
    arena.append(contentsOf: text)
    starts.append(arena.count)
    slots[slot] = UInt32(index + 1)
    if hashes.count * 2 > slots.count { grow() }
    return index
  }

  /// Calls `body` with text `index`, valid only during the call.
  @usableFromInline func withText<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> R)
    rethrows -> R
  {
    try arena.withUnsafeBytes { arena in
      try body(UnsafeRawBufferPointer(rebasing: arena[starts[index]..<starts[index + 1]]))
    }
  }

  /// Whether text `index` is `text`.
  private func equals(_ index: Int, _ text: UnsafeRawBufferPointer) -> Bool {
    let start = starts[index]
    let length = starts[index + 1] - start
    guard length == text.count else { return false }
    guard length > 0 else { return true }
    return arena.withUnsafeBytes { arena in
      memcmp(arena.baseAddress! + start, text.baseAddress!, length) == 0
    }
  }

  /// Doubles the table and puts every text back in it.
  private mutating func grow() {
    let size = slots.count * 2
    var grown = [UInt32](repeating: 0, count: size)
    let mask = size - 1
    for (index, hashed) in hashes.enumerated() {
      var slot = Int(truncatingIfNeeded: hashed) & mask
      while grown[slot] != 0 { slot = (slot + 1) & mask }
      grown[slot] = UInt32(index + 1)
    }
    slots = grown
    self.mask = mask
  }

  /// A fast 64-bit hash of bytes, eight at a time (multiply and fold, as in wyhash and
  /// MurmurHash's finaliser): not for adversaries, whose collisions only cost comparisons.
  static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
    var hashed = UInt64(truncatingIfNeeded: bytes.count) &* multiplier
    var offset = 0
    let count = bytes.count
    while offset + 8 <= count {
      let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      hashed = (hashed ^ word) &* multiplier
      hashed ^= hashed >> 29
      offset += 8
    }
    if offset < count {
      var tail: UInt64 = 0
      if count >= 8 {
        // The last eight bytes, overlapping the words read: one load, not a byte at a time.
        tail = bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
      } else {
        var shift: UInt64 = 0
        while offset < count {
          tail |= UInt64(bytes[offset]) << shift
          shift += 8
          offset += 1
        }
      }
      hashed = (hashed ^ tail) &* multiplier
    }
    hashed ^= hashed >> 32
    hashed &*= 0xFF51_AFD7_ED55_8CCD
    hashed ^= hashed >> 33
    return hashed
  }
}
