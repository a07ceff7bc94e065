import TestSupport
import Testing

@testable import RewindPage

/// The page's rows of four numbers an event, written as varints as they are appended,
/// against the rows' numbers written one LEB128 varint after the other by a plain loop.
@Suite("EventNumbers: the rows written are the rows' numbers as varints")
struct EventNumbersTests {
  /// Random rows of numbers of every length, mostly short, as the page's are: a time's
  /// delta of any 64-bit value (those of 2^32 − 1 and more only through
  /// `append(time:code:body:changes:)`), the code and numbers below 2^32.
  private func rows(_ count: Int, _ random: inout SplitMix64) -> [[UInt64]] {
    (0..<count).map { _ in
      (0..<4).map { column in
        let wide = column == 0
        switch random.next() % 4 {
        case 0: return random.next() % 1_000
        case 1:
          // Every length's edges: 1 to 5 bytes (and 10 for a time's delta).
          let edges: [UInt64] = [
            0, 1, 0x7F, 0x80, 0x3FFF, 0x4000, 0x1F_FFFF, 0x20_0000, 0xFFF_FFFF, 0x1000_0000,
            0xFFFF_FFFE, 0xFFFF_FFFF,
          ]
          let long: [UInt64] = [0x1_0000_0000, 9_999_999_999, 1 << 63, UInt64.max]
          let choices = wide ? edges + long : edges
          return choices[Int(random.next() % UInt64(choices.count))]
        case 2:
          let value = random.next() >> (random.next() % 64)
          return wide ? value : value & 0xFFFF_FFFF
        default: return random.next() % 100_000
        }
      }
    }
  }

  /// The numbers of `rows`, row after row, each as an unsigned LEB128 varint.
  private func varints(_ rows: [[UInt64]]) -> [UInt8] {
    var bytes: [UInt8] = []
    for number in rows.joined() {
      var rest = number
      repeat {
        bytes.append(UInt8(rest & 0x7F) | (rest >= 0x80 ? 0x80 : 0))
        rest >>= 7
      } while rest > 0
    }
    return bytes
  }

  /// The rows' bytes `numbers` holds.
  private func written(_ numbers: borrowing EventNumbers) -> [UInt8] {
    numbers.withBytes { [UInt8]($0) }
  }

  /// Expects `numbers` to hold `rows`' varints, and to read them back (the rows are not
  /// printed when they differ: they are thousands).
  private func expect(
    _ numbers: borrowing EventNumbers, holds rows: [[UInt64]], _ comment: String = ""
  ) {
    let bytes = written(numbers) == varints(rows)
    let read = numbers.rows == rows
    #expect(bytes, "\(comment) \(rows.count) rows: their varints")
    #expect(read, "\(comment) \(rows.count) rows: read back")
  }

  @Test("random rows, appended within room or growing a small buffer, are their varints")
  func writtenAsAppended() {
    let seed = testSeed("EventNumbersTests.writtenAsAppended")
    var random = SplitMix64(seed: seed)
    for trial in 0..<200 {
      let values = rows(trial == 0 ? 0 : Int(random.next() % 3_000), &random)
      var numbers = EventNumbers(capacity: Int(random.next() % 40))
      for row in values {
        // Within room: room left, and a time's delta the common step takes.
        if numbers.hasRoom, row[0] < EventNumbers.longTime, random.next() % 2 == 0 {
          numbers.append(withinRoom: row[0], code: row[1], body: row[2], changes: row[3])
        } else {
          numbers.append(time: row[0], code: row[1], body: row[2], changes: row[3])
        }
      }
      expect(numbers, holds: values, "seed \(seed), trial \(trial):")
    }
  }

  @Test("each number of one to four bytes is its varint, whatever the bytes after it held")
  func everyLength() {
    // Every number of one and two bytes, then every 9,973rd up to four bytes, and every one
    // around 2^21 (where the word written gives way to the loop) and 2^28.
    let values =
      Array(0..<UInt64(0x4100)) + Array(stride(from: UInt64(0x4100), to: 0x1000_0000, by: 9_973))
      + Array(0x1F_FF00..<UInt64(0x20_0100)) + Array(0xFFF_FF00..<UInt64(0x1000_0100))
    let rows = values.map { [$0, 0x7F, 0x80, $0 & 0x1F_FFFF] }
    // Room for every row without growing, and junk there, which the bytes written past
    // each number overwrite.
    var numbers = EventNumbers(capacity: rows.count * 2)
    numbers.start.initialize(repeating: 0xA5, count: numbers.capacity)
    for row in rows {
      if numbers.hasRoom {
        numbers.append(withinRoom: row[0], code: row[1], body: row[2], changes: row[3])
      } else {
        numbers.append(time: row[0], code: row[1], body: row[2], changes: row[3])
      }
    }
    expect(numbers, holds: rows)
  }

  @Test(
    "a row's code, body and change list written ahead as one word (when they fit in 8 bytes) and appended after its time are the row's varints"
  )
  func rests() {
    let seed = testSeed("EventNumbersTests.rests")
    var random = SplitMix64(seed: seed)
    let values = rows(3_000, &random)
    var numbers = EventNumbers(capacity: 0)
    var fits = 0
    for row in values {
      let rest = EventNumbers.rest(code: row[1], body: row[2], changes: row[3])
      let length = varints([Array(row[1...])]).count
      #expect(
        (rest != nil) == ((row[1] | row[2] | row[3]) < 0x20_0000 && length <= 8),
        "seed \(seed): \(row)")
      if let rest, numbers.hasRoom, row[0] < EventNumbers.longTime {
        #expect(rest.length == length, "seed \(seed): \(row)")
        numbers.append(withinRoom: row[0], rest: rest.word, length: rest.length)
        fits += 1
      } else {
        numbers.append(time: row[0], code: row[1], body: row[2], changes: row[3])
      }
    }
    #expect(fits > 300, "seed \(seed): \(fits) rows of short numbers")
    expect(numbers, holds: values)
  }

  @Test("a part's rows appended, each column renumbered by its own map, as the merge of parts does")
  func appendedAndRenumbered() {
    let seed = testSeed("EventNumbersTests.appendedAndRenumbered")
    var random = SplitMix64(seed: seed)
    for trial in 0..<50 {
      let first = rows(Int(random.next() % 500), &random)
      let second = rows(Int(random.next() % 500), &random)
      var numbers = EventNumbers(capacity: Int(random.next() % 40))
      var part = EventNumbers(capacity: Int(random.next() % 40))
      for row in first { numbers.append(time: row[0], code: row[1], body: row[2], changes: row[3]) }
      for row in second { part.append(time: row[0], code: row[1], body: row[2], changes: row[3]) }
      numbers.append(part, code: { $0 / 3 }, body: { $0 / 2 + 1 }, changes: { $0 >> 1 ^ 5 })
      let expected = first + second.map { [$0[0], $0[1] / 3, $0[2] / 2 + 1, $0[3] >> 1 ^ 5] }
      expect(numbers, holds: expected, "seed \(seed), trial \(trial):")
    }
  }

  @Test(
    "a time's delta of 2^32 − 1 µs or more (a pause of 72 minutes) is written whole, in its place, also once parts join"
  )
  func longTimes() {
    let times: [UInt64] = [5, 0xFFFF_FFFE, 0xFFFF_FFFF, 0x1_0000_0000, 7, 1 << 40, UInt64.max]
    var numbers = EventNumbers(capacity: 2)
    var part = EventNumbers(capacity: 2)
    for (index, time) in times.enumerated() {
      numbers.append(time: time, code: UInt64(index), body: 1, changes: 2)
      part.append(time: time, code: UInt64(index), body: 1, changes: 2)
    }
    #expect(numbers.rows.map { $0[0] } == times)
    numbers.append(part, code: { $0 }, body: { $0 }, changes: { $0 })
    let rows = (times + times).enumerated().map { [$1, UInt64($0 % times.count), 1, 2] }
    expect(numbers, holds: rows)
  }

  @Test(
    "the page's data is the lines then the rows, whether the lines fit in the room before the rows or not"
  )
  func data() {
    let seed = testSeed("EventNumbersTests.data")
    var random = SplitMix64(seed: seed)
    for trial in 0..<100 {
      let values = rows(Int(random.next() % 600), &random)
      let headRoom = Int(random.next() % 300)
      let headCount = Int(random.next() % 400)
      let head = (0..<headCount).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      var numbers = EventNumbers(capacity: Int(random.next() % 40), headRoom: headRoom)
      for row in values {
        numbers.append(time: row[0], code: row[1], body: row[2], changes: row[3])
      }
      let data = numbers.data(head: head.count) { buffer in
        _ = buffer.initialize(from: head)
        return head.count
      }
      #expect(data.count == head.count + varints(values).count, "seed \(seed), trial \(trial)")
      #expect(data.bytes == head + varints(values), "seed \(seed), trial \(trial)")
    }
  }
}
