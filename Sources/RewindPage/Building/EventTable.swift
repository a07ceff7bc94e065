/// What the page builder remembers of each event it has met whose bits are at most 16
/// bytes, by those bits: the kind's index and the body's number; the last change list of
/// one field with a word that the common step met after it (the field, the word, and the
/// list's key and number), so that the same event's next change of the same value is found
/// by two comparisons, not a hash of the change's key; and the varints of its last row's
/// code, body and change list, with the change list and outcome they were written for, so
/// that a row that repeats them is one stored word. A remembered change or row is a hint,
/// checked each time: a change list's key and number are fixed once met.
///
/// Each event's memory is one cache line holding its key too, found through an
/// open-addressing table of entry numbers (linear probing, at most a quarter full): two
/// loads after the hash, the first from a small table, where a table of numbers, the keys
/// by number and the memories by number took three, each waiting for the one before. (A
/// table of the lines themselves, at most half full, took one load, as long, and four
/// times the memory: BENCHMARKS.md, session 56.)
///
/// Its buffers are written in place (no array's check that it is not shared, in the
/// replay's inner loop); it cannot be copied.
@usableFromInline struct EventTable: ~Copyable {
  /// One event's memory, with its key: 64 bytes, a cache line (the entries are aligned to
  /// them). The numbers are those of a page's tables, which hold at most
  /// `SessionPage.maximumEvents` entries.
  @usableFromInline struct Entry {
    /// The key's bytes as two words, zero past its end (`ShortKeys.words`).
    @usableFromInline var low: UInt64
    @usableFromInline var high: UInt64
    /// The word of the change list remembered.
    @usableFromInline var word: UInt64
    /// The varints of the event's last row's code, body and change list
    /// (`EventNumbers.rest`).
    @usableFromInline var row: UInt64
    /// The kind's index and the body's number.
    @usableFromInline var index: Int32
    @usableFromInline var body: Int32
    /// The change list's key number (in the builder's `changeKeys`) and number.
    @usableFromInline var key: Int32
    @usableFromInline var list: Int32
    /// The change list the remembered row was written for (-1: none).
    @usableFromInline var rowList: Int32
    /// The field of the change list remembered, or -1.
    @usableFromInline var field: Int16
    /// The key's length.
    @usableFromInline var length: UInt8
    /// The length of `row`'s varints.
    @usableFromInline var rowLength: UInt8
    /// The outcome the remembered row was written for (-1: none).
    @usableFromInline var rowOutcome: Int8
  }

  /// The events' memories, in the order they were met (``count`` of ``capacity``).
  @usableFromInline var entries: UnsafeMutablePointer<Entry>
  @usableFromInline var capacity: Int
  /// For each slot of the hash table, the number of the entry in it plus one; 0 for an
  /// empty slot. Four bytes a slot, at most a quarter full: 16 to 32 bytes an event (32 KiB for
  /// the 1,112 events of a generated session of 200,000), where the entries take 64.
  @usableFromInline var slots: UnsafeMutablePointer<UInt32>
  /// The slots' count less one (a power of two less one).
  @usableFromInline var mask: Int
  /// 64 less the slots' count's bits: a key's slot is its hash's top bits.
  @usableFromInline var shift: UInt64
  /// The events remembered.
  @usableFromInline var count = 0

  /// An empty table, sized for `capacity` events before it grows.
  @usableFromInline init(capacity: Int = 1_024) {
    self.capacity = Swift.max(capacity, 16)
    entries = Self.allocateEntries(self.capacity)
    var size = 64
    while size < self.capacity * 4 { size <<= 1 }
    slots = .allocate(capacity: size)
    slots.initialize(repeating: 0, count: size)
    mask = size - 1
    shift = UInt64(64 - size.trailingZeroBitCount)
  }

  @inlinable deinit {
    slots.deallocate()
    entries.deallocate()
  }

  /// Room for `count` entries, aligned to a cache line.
  @usableFromInline static func allocateEntries(_ count: Int) -> UnsafeMutablePointer<Entry> {
    UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<Entry>.stride, alignment: 64)
      .bindMemory(to: Entry.self, capacity: count)
  }

  /// The memory of the event whose bits are `key`, nil when it was not met or its bits
  /// are longer than 16 bytes (no call: for the page's inner loop).
  @inlinable @inline(__always) func find(_ key: UnsafeRawBufferPointer) -> UnsafeMutablePointer<
    Entry
  >? {
    let length = key.count
    guard length <= 16 else { return nil }
    let (low, high) = ShortKeys.words(key)
    var slot = Self.slot(low, high, length, shift)
    while true {
      let number = slots[slot]
      if number == 0 { return nil }
      let held = entries + Int(number &- 1)
      if held.pointee.low == low, held.pointee.high == high,
        held.pointee.length == UInt8(truncatingIfNeeded: length)
      {
        return held
      }
      slot = (slot &+ 1) & mask
    }
  }

  /// Remembers the event whose bits are `key` (at most 16 bytes, not met before) with its
  /// kind's index and body's number.
  @usableFromInline mutating func insert(_ key: UnsafeRawBufferPointer, index: Int, body: Int) {
    precondition(key.count <= 16, "a long key in the events' table")
    if count == capacity { grow() }
    let (low, high) = ShortKeys.words(key)
    (entries + count).initialize(
      to: Entry(
        low: low, high: high, word: 0, row: 0, index: Int32(index), body: Int32(body), key: -1,
        list: -1, rowList: -1, field: -1, length: UInt8(key.count), rowLength: 0,
        rowOutcome: -1))
    count += 1
    place(count, low, high, key.count)
  }

  /// Puts entry `number − 1` into the first empty slot from its key's.
  @usableFromInline func place(_ number: Int, _ low: UInt64, _ high: UInt64, _ length: Int) {
    var slot = Self.slot(low, high, length, shift)
    while slots[slot] != 0 { slot = (slot + 1) & mask }
    slots[slot] = UInt32(number)
  }

  /// Doubles the entries' room and the table, and puts every entry back in it.
  @usableFromInline mutating func grow() {
    let grown = Self.allocateEntries(capacity * 2)
    grown.moveInitialize(from: entries, count: count)
    entries.deallocate()
    entries = grown
    capacity *= 2
    let size = (mask + 1) * 2
    slots.deallocate()
    slots = .allocate(capacity: size)
    slots.initialize(repeating: 0, count: size)
    mask = size - 1
    shift = UInt64(64 - size.trailingZeroBitCount)
    for index in 0..<count {
      let entry = entries[index]
      place(index + 1, entry.low, entry.high, Int(entry.length))
    }
  }

  /// The first slot of the key whose words are `low` and `high` and length `length`, in a
  /// table of `2^(64 − shift)` slots: the top bits of a sum of two products, which every
  /// bit of the key reaches (the low bits of a product see only the low bits of what was
  /// multiplied: a number's bits differ in the high ones). The two products do not wait
  /// for each other: the slot's load, which waits for the hash, starts sooner than after
  /// `ShortKeys.hash`'s two products in turn.
  @inlinable @inline(__always) static func slot(
    _ low: UInt64, _ high: UInt64, _ length: Int, _ shift: UInt64
  ) -> Int {
    let hashed =
      low &* 0x9E37_79B9_7F4A_7C15 &+ (high ^ UInt64(truncatingIfNeeded: length))
      &* 0xC2B2_AE3D_27D4_EB4F
    return Int(truncatingIfNeeded: hashed &>> shift)
  }
}
