/// Distinct byte strings numbered in the order they are first met, as `DistinctTexts`
/// numbers them, for keys that are mostly short: the page builder's memory of the events
/// and change lists it has met (an event's bits, a change list's `ValueKey`), looked up
/// once an event.
///
/// A key of at most 16 bytes is two words and its length, compared as such, in an
/// open-addressing table of its own (linear probing, at most half full): no call, no byte
/// loop. A longer key goes to a `DistinctTexts`; both share one numbering.
@usableFromInline struct ShortKeys {
  /// For each number, its key's words and length; length 0xFF for a long key.
  @usableFromInline var entries: [Entry] = []
  /// For each slot, the number of the short key in it plus one; 0 for an empty slot.
  @usableFromInline var slots: [UInt32]
  /// `slots.count - 1` (a power of two less one).
  @usableFromInline var mask: Int
  /// The long keys, and the number of each.
  @usableFromInline var long = DistinctTexts(capacity: 16)
  @usableFromInline var longNumbers: [Int] = []

  /// An empty set, sized for `capacity` short keys before its table grows.
  @usableFromInline init(capacity: Int = 1_024) {
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    slots = [UInt32](repeating: 0, count: size)
    mask = size - 1
  }

  /// The number of distinct keys.
  @usableFromInline var count: Int { entries.count }

  /// A key's two words and its length (0xFF for a long key), read together in a probe.
  @usableFromInline struct Entry {
    @usableFromInline var low: UInt64
    @usableFromInline var high: UInt64
    @usableFromInline var length: Int

    @inlinable init(_ low: UInt64, _ high: UInt64, _ length: Int) {
      self.low = low
      self.high = high
      self.length = length
    }
  }

  /// The number of `key`: the one it was given when first met, or the next one when it is
  /// new.
  @inlinable @inline(__always) mutating func number(of key: UnsafeRawBufferPointer) -> Int {
    let length = key.count
    guard length <= 16 else { return number(ofLong: key) }
    let (first, second) = Self.words(key)
    return number(first, second, length: length)
  }

  /// The number of the key of `length` bytes (at most 16) whose bytes are the words
  /// `first` and `second`, zero past its end.
  @inlinable @inline(__always) mutating func number(_ first: UInt64, _ second: UInt64, length: Int)
    -> Int
  {
    let (found, slot) = probe(first, second, length: length)
    if found >= 0 { return found }
    let index = entries.count
    entries.append(Entry(first, second, length))
    slots[slot] = UInt32(index + 1)
    if entries.count * 2 > slots.count { grow() }
    return index
  }

  /// The number of `key` when it was met before and is at most 16 bytes long, else -1;
  /// nothing is added (no call: for the page's inner loop).
  @inlinable @inline(__always) func existingNumber(of key: UnsafeRawBufferPointer) -> Int {
    let length = key.count
    guard length <= 16 else { return -1 }
    let (first, second) = Self.words(key)
    return probe(first, second, length: length).found
  }

  /// The number of the key of `length` bytes (at most 16) whose bytes are the words
  /// `first` and `second` when it was met before, else -1; nothing is added.
  @inlinable @inline(__always) func existingNumber(
    _ first: UInt64, _ second: UInt64, length: Int
  ) -> Int {
    probe(first, second, length: length).found
  }

  /// The key's number (-1 when it is not in the table) and its slot, or the empty slot
  /// where it would go.
  @inlinable @inline(__always) func probe(_ first: UInt64, _ second: UInt64, length: Int)
    -> (found: Int, slot: Int)
  {
    let hashed = Self.hash(first, second, length)
    let mask = mask
    // The table's and the entries' buffers read without bounds checks: a slot is masked
    // below `slots.count`, a slot holds an entry's number plus one.
    return slots.withUnsafeBufferPointer { slots in
      entries.withUnsafeBufferPointer { entries in
        var slot = Int(truncatingIfNeeded: hashed) & mask
        while true {
          let held = slots[slot]
          if held == 0 { return (-1, slot) }
          let index = Int(held) &- 1
          let entry = entries[index]
          if entry.low == first && entry.high == second && entry.length == length {
            return (index, slot)
          }
          slot = (slot &+ 1) & mask
        }
      }
    }
  }

  /// The bytes of a key of at most 16 bytes as two words, zero past its end.
  @inlinable @inline(__always) static func words(_ key: UnsafeRawBufferPointer) -> (UInt64, UInt64)
  {
    let length = key.count
    if length >= 8 {
      let first = key.loadUnaligned(as: UInt64.self)
      if length == 16 { return (first, key.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
      if length == 8 { return (first, 0) }
      // The last eight bytes, less those the first word holds.
      let last = key.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
      return (first, last >> UInt64(8 * (16 - length)))
    }
    if length >= 4 {
      // Two four-byte loads that overlap: each byte lands at its own place in both.
      let first = UInt64(key.loadUnaligned(as: UInt32.self))
      let last = UInt64(key.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self))
      return (first | last << UInt64(8 * (length - 4)), 0)
    }
    var word: UInt64 = 0
    for index in 0..<length { word |= UInt64(key[index]) << UInt64(8 * index) }
    return (word, 0)
  }

  @inlinable @inline(__always) static func hash(_ first: UInt64, _ second: UInt64, _ length: Int)
    -> UInt64
  {
    let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
    var hashed = (first ^ UInt64(truncatingIfNeeded: length)) &* multiplier
    hashed = (hashed ^ (hashed >> 29) ^ second) &* multiplier
    return hashed ^ (hashed >> 32)
  }

  /// The number of a key longer than 16 bytes.
  @usableFromInline mutating func number(ofLong key: UnsafeRawBufferPointer) -> Int {
    let index = long.number(of: key)
    if index == longNumbers.count {
      longNumbers.append(entries.count)
      entries.append(Entry(0, 0, 0xFF))
    }
    return longNumbers[index]
  }

  /// Doubles the table and puts every short key back in it.
  @usableFromInline mutating func grow() {
    let size = slots.count * 2
    var grown = [UInt32](repeating: 0, count: size)
    let mask = size - 1
    for (index, entry) in entries.enumerated() where entry.length <= 16 {
      var slot = Int(truncatingIfNeeded: Self.hash(entry.low, entry.high, entry.length)) & mask
      while grown[slot] != 0 { slot = (slot + 1) & mask }
      grown[slot] = UInt32(index + 1)
    }
    slots = grown
    self.mask = mask
  }
}
