/// Distinct byte strings numbered in the order they are first met, as `DistinctTexts`
/// numbers them, for keys that are mostly short: the page builder's memory of the events
/// and change lists it has met (an event's bits, a change list's `ValueKey`), looked up
/// once an event.
///
/// A key of at most 16 bytes is two words and its length, compared as such, in an
/// open-addressing table of its own (linear probing, at most a quarter full): no call, no
/// byte loop. A longer key goes to a `DistinctTexts`; both share one numbering.
///
/// A quarter full, not half: a key met before is found at its first slot more often (1.1
/// probes on average, not 1.3), and a second probe is a branch the processor did not
/// foresee. The page's events are looked up once each, nine times in ten as the first
/// thing the replay's inner loop does with them (BENCHMARKS.md, session 45).
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
    while size < capacity * Self.slotsPerKey { size <<= 1 }
    slots = [UInt32](repeating: 0, count: size)
    mask = size - 1
  }

  /// The slots for each key, at least: the table doubles past that.
  @inlinable static var slotsPerKey: Int { 4 }

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
    if entries.count * Self.slotsPerKey > slots.count { grow() }
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
  ///
  /// Each byte is read once, by loads that do not overlap (8, 4, 2 and 1 bytes, as the
  /// length has them): a key is most often a value just stored (`withUnsafeBytes(of:)` of
  /// an event), and a load that spans two stores is not forwarded from them, but waits for
  /// them to reach the cache (the store of a 9-byte event's 8 bytes and of its tag, and a
  /// load of its last 8 bytes: 15 % of the page's replay loop, BENCHMARKS.md). Where the
  /// key's length is a constant, the tests of its length fold away.
  @inlinable @inline(__always) static func words(_ key: UnsafeRawBufferPointer) -> (UInt64, UInt64)
  {
    let length = key.count
    guard length >= 8 else { return (tail(key, from: 0, count: length), 0) }
    let first = key.loadUnaligned(as: UInt64.self)
    return (first, tail(key, from: 8, count: length - 8))
  }

  /// The `count` bytes (0 to 8) of `key` from `offset` as a word, zero past them: one load
  /// of each size their count has.
  @inlinable @inline(__always) static func tail(
    _ key: UnsafeRawBufferPointer, from offset: Int, count: Int
  ) -> UInt64 {
    if count == 8 { return key.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
    var word: UInt64 = 0
    var at = offset
    var shift: UInt64 = 0
    if count & 4 != 0 {
      word = UInt64(key.loadUnaligned(fromByteOffset: at, as: UInt32.self))
      at += 4
      shift = 32
    }
    if count & 2 != 0 {
      word |= UInt64(key.loadUnaligned(fromByteOffset: at, as: UInt16.self)) << shift
      at += 2
      shift += 16
    }
    if count & 1 != 0 { word |= UInt64(key[at]) << shift }
    return word
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

/// Change lists of two to four fields whose values are words, by their fields (a
/// `FieldSet`'s bits) and words in the fields' order: the key number each was given in the
/// page builder's `changeKeys`, so that a list met before is found by one hash of five
/// words, not by writing and hashing its `ValueKey`. The key is injective: the fields say
/// how many words follow, and a word stands for one value of its field.
@usableFromInline struct WordLists {
  @usableFromInline struct Entry {
    @usableFromInline var fields: UInt64
    @usableFromInline var words: (UInt64, UInt64, UInt64, UInt64)
    @usableFromInline var number: Int

    @inlinable init(_ fields: UInt64, _ words: (UInt64, UInt64, UInt64, UInt64), _ number: Int) {
      self.fields = fields
      self.words = words
      self.number = number
    }
  }

  @usableFromInline var entries: [Entry] = []
  /// For each slot, the index of the entry in it plus one; 0 for an empty slot.
  @usableFromInline var slots: [UInt32]
  @usableFromInline var mask: Int

  @usableFromInline init(capacity: Int = 256) {
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    slots = [UInt32](repeating: 0, count: size)
    mask = size - 1
  }

  /// The number of the list of `fields` and `words` (zero past the fields' count), or -1
  /// when it was not met.
  @usableFromInline func number(_ fields: UInt64, _ words: (UInt64, UInt64, UInt64, UInt64))
    -> Int
  {
    let found = probe(fields, words)
    return found.index >= 0 ? entries[found.index].number : -1
  }

  /// Remembers `number` for the list of `fields` and `words`, not met before.
  @usableFromInline mutating func insert(
    _ fields: UInt64, _ words: (UInt64, UInt64, UInt64, UInt64), number: Int
  ) {
    let slot = probe(fields, words).slot
    entries.append(Entry(fields, words, number))
    slots[slot] = UInt32(entries.count)
    if entries.count * 2 > slots.count { grow() }
  }

  /// The entry's index (-1 when it is not in the table) and its slot, or the empty slot
  /// where it would go.
  @usableFromInline func probe(_ fields: UInt64, _ words: (UInt64, UInt64, UInt64, UInt64))
    -> (index: Int, slot: Int)
  {
    var slot = Int(truncatingIfNeeded: Self.hash(fields, words)) & mask
    while true {
      let held = slots[slot]
      if held == 0 { return (-1, slot) }
      let entry = entries[Int(held) - 1]
      if entry.fields == fields, entry.words.0 == words.0, entry.words.1 == words.1,
        entry.words.2 == words.2, entry.words.3 == words.3
      {
        return (Int(held) - 1, slot)
      }
      slot = (slot + 1) & mask
    }
  }

  @usableFromInline static func hash(_ fields: UInt64, _ words: (UInt64, UInt64, UInt64, UInt64))
    -> UInt64
  {
    let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
    var hashed = fields &* multiplier
    hashed = (hashed ^ (hashed >> 29) ^ words.0) &* multiplier
    hashed = (hashed ^ (hashed >> 29) ^ words.1) &* multiplier
    hashed = (hashed ^ (hashed >> 29) ^ words.2) &* multiplier
    hashed = (hashed ^ (hashed >> 29) ^ words.3) &* multiplier
    return hashed ^ (hashed >> 32)
  }

  /// Doubles the table and puts every entry back in it.
  @usableFromInline mutating func grow() {
    let size = slots.count * 2
    var grown = [UInt32](repeating: 0, count: size)
    let mask = size - 1
    for (index, entry) in entries.enumerated() {
      var slot = Int(truncatingIfNeeded: Self.hash(entry.fields, entry.words)) & mask
      while grown[slot] != 0 { slot = (slot + 1) & mask }
      grown[slot] = UInt32(index + 1)
    }
    slots = grown
    self.mask = mask
  }
}
