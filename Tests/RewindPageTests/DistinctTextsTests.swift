import TestSupport
import Testing

@testable import RewindPage

/// The table that keeps each distinct event body and change list of a page once.
@Suite("DistinctTexts: each distinct text once, numbered in the order first met")
struct DistinctTextsTests {
  /// Random byte strings of a few bytes from a small alphabet, so that many repeat, some
  /// are prefixes of others, and the empty one comes up.
  private func texts(_ count: Int, _ random: inout SplitMix64) -> [[UInt8]] {
    (0..<count).map { _ in
      (0..<Int(random.next() % 19)).map { _ in [0, 1, 0x22, 0x7B, 0xFF][Int(random.next() % 5)] }
    }
  }

  @Test(
    "the numbers a dictionary gives, and the texts back, with good hashes and ones that always collide"
  )
  func againstDictionary() {
    let seed = testSeed("DistinctTextsTests.againstDictionary")
    var random = SplitMix64(seed: seed)
    let hashes: [(String, DistinctTexts.Hash)] = [
      ("ours", DistinctTexts.hash), ("constant", { _ in 7 }),
      ("the length", { UInt64($0.count) }), ("the first byte", { UInt64($0.first ?? 0) }),
    ]
    for (name, hash) in hashes {
      for trial in 0..<6 {
        var table = DistinctTexts(capacity: Int(random.next() % 40), hash: hash)
        var expected: [[UInt8]: Int] = [:]
        var order: [[UInt8]] = []
        for text in texts(Int(random.next() % 3_000), &random) {
          let number = text.withUnsafeBytes { table.number(of: $0) }
          let known = expected[text] ?? order.count
          if known == order.count {
            expected[text] = known
            order.append(text)
          }
          #expect(number == known, "seed \(seed), \(name) hash, trial \(trial): \(text)")
        }
        #expect(table.count == order.count, "seed \(seed), \(name) hash, trial \(trial)")
        #expect(table.byteCount == order.reduce(0) { $0 + $1.count })
        for (index, text) in order.enumerated() {
          #expect(table.withText(index) { Array($0) } == text, "seed \(seed), \(name) hash")
        }
      }
    }
  }

  @Test("the hash reads every byte: texts that differ in one byte, anywhere, hash apart")
  func hashReadsEveryByte() {
    let seed = testSeed("DistinctTextsTests.hashReadsEveryByte")
    var random = SplitMix64(seed: seed)
    for length in 1..<40 {
      let text = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      let hashed = text.withUnsafeBytes { DistinctTexts.hash($0) }
      for position in 0..<length {
        var other = text
        other[position] ^= UInt8(1 << (random.next() % 8))
        #expect(
          other.withUnsafeBytes { DistinctTexts.hash($0) } != hashed,
          "seed \(seed): byte \(position) of \(length)")
      }
      // A text and the same with a zero byte more: the length is part of the hash.
      #expect((text + [0]).withUnsafeBytes { DistinctTexts.hash($0) } != hashed)
    }
  }

  @Test(
    "ShortKeys: the numbers a dictionary gives, for keys of 0 to 40 bytes, short and long; looked up without adding"
  )
  func shortKeysAgainstDictionary() {
    let seed = testSeed("DistinctTextsTests.shortKeysAgainstDictionary")
    var random = SplitMix64(seed: seed)
    for trial in 0..<20 {
      var table = ShortKeys(capacity: Int(random.next() % 40))
      var expected: [[UInt8]: Int] = [:]
      // Keys of every length, from a small alphabet, and keys that differ only in a zero
      // byte at their end; drawn from a pool, so that keys of every length repeat.
      let pool: [[UInt8]] = (0..<Int(random.next() % 300 + 1)).map { _ in
        (0..<Int(random.next() % 41)).map { _ in [0, 1, 0x80, 0xFF][Int(random.next() % 4)] }
      }
      for _ in 0..<Int(random.next() % 4_000) {
        let key = pool[Int(random.next() % UInt64(pool.count))]
        let length = key.count
        // Looked up without adding first: the number when met before and short, else -1.
        let count = table.count
        let existing = key.withUnsafeBytes { table.existingNumber(of: $0) }
        #expect(
          existing == (length <= 16 ? expected[key] ?? -1 : -1) && table.count == count,
          "seed \(seed), trial \(trial): \(key)")
        let number = key.withUnsafeBytes { table.number(of: $0) }
        let known = expected[key] ?? expected.count
        if known == expected.count { expected[key] = known }
        #expect(number == known, "seed \(seed), trial \(trial): \(key)")
      }
      #expect(table.count == expected.count, "seed \(seed), trial \(trial)")
    }
  }

  @Test(
    "EventTable: what a dictionary remembers, for keys of 0 to 16 bytes through its growth; longer keys are not found; an entry is a cache line"
  )
  func eventTableAgainstDictionary() {
    #expect(MemoryLayout<EventTable.Entry>.stride == 64)
    let seed = testSeed("DistinctTextsTests.eventTableAgainstDictionary")
    var random = SplitMix64(seed: seed)
    for trial in 0..<20 {
      var table = EventTable(capacity: Int(random.next() % 40))
      var expected: [[UInt8]: (index: Int, body: Int)] = [:]
      // Keys that differ only in a zero byte at their end, or in their high bytes only (a
      // number's bits), drawn from a pool so that they repeat.
      let pool: [[UInt8]] = (0..<Int(random.next() % 3_000 + 1)).map { _ in
        (0..<Int(random.next() % 19)).map { _ in [0, 1, 0x80, 0xFF][Int(random.next() % 4)] }
      }
      for _ in 0..<Int(random.next() % 8_000) {
        let key = pool[Int(random.next() % UInt64(pool.count))]
        let found = key.withUnsafeBytes { table.find($0) }
        guard key.count <= 16 else {
          #expect(found == nil, "seed \(seed), trial \(trial): \(key)")
          continue
        }
        if let known = expected[key] {
          #expect(
            found.map { (Int($0.pointee.index), Int($0.pointee.body)) } ?? (-1, -1) == known,
            "seed \(seed), trial \(trial): \(key)")
          // What the common step writes into its memory stays there.
          found?.pointee.word = UInt64(known.body)
          continue
        }
        #expect(found == nil, "seed \(seed), trial \(trial): \(key)")
        let remembered = (index: expected.count % 7, body: expected.count)
        key.withUnsafeBytes { table.insert($0, index: remembered.index, body: remembered.body) }
        expected[key] = remembered
      }
      #expect(table.count == expected.count, "seed \(seed), trial \(trial)")
      for (key, known) in expected {
        let entry = key.withUnsafeBytes { table.find($0) }
        #expect(
          entry.map { Int($0.pointee.body) } == known.body
            && entry.map { $0.pointee.word == 0 || $0.pointee.word == UInt64(known.body) } == true,
          "seed \(seed), trial \(trial): \(key)")
      }
    }
  }
}
