import TestSupport
import Testing

@testable import RewindPage

/// The page's rows of four numbers an event, kept raw and written as four lines at the
/// end, against the lines of each column's numbers as `String(_:)` writes them.
@Suite("EventNumbers: the four lines written at the end are the columns' lines")
struct EventNumbersTests {
  /// Random rows of numbers of every length of digits, mostly short, as the page's are.
  private func rows(_ count: Int, _ random: inout SplitMix64) -> [[UInt64]] {
    (0..<count).map { _ in
      (0..<4).map { _ in
        switch random.next() % 4 {
        case 0: return random.next() % 1_000
        case 1:
          return [0, 9, 10, 999, 1_000, 999_999, 1_000_000, 1_000_000_000, UInt64.max][
            Int(random.next() % 9)]
        case 2: return random.next() >> (random.next() % 64)
        default: return random.next() % 100_000
        }
      }
    }
  }

  /// The four lines of `rows`' columns, as `String(_:)` writes their numbers.
  private func lines(_ rows: [[UInt64]]) -> [UInt8] {
    (0..<4).flatMap { column in NumberLineTests.expected(rows.map { $0[column] }) }
  }

  /// The lines `numbers` writes, into a buffer of its bound.
  private func written(_ numbers: borrowing EventNumbers) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: numbers.linesBound) { buffer, count in
      count = numbers.writeLines(to: buffer.baseAddress!) - buffer.baseAddress!
    }
  }

  @Test("random rows, appended from a small buffer that grows, then written once")
  func writtenAtTheEnd() {
    let seed = testSeed("EventNumbersTests.writtenAtTheEnd")
    var random = SplitMix64(seed: seed)
    for trial in 0..<200 {
      let values = rows(trial == 0 ? 0 : Int(random.next() % 3_000), &random)
      var numbers = EventNumbers(capacity: Int(random.next() % 40))
      for row in values {
        if numbers.hasRoom, random.next() % 2 == 0 {
          numbers.append(withinRoom: row[0], code: row[1], body: row[2], changes: row[3])
        } else {
          numbers.append(time: row[0], code: row[1], body: row[2], changes: row[3])
        }
      }
      #expect(numbers.count == values.count, "seed \(seed), trial \(trial)")
      for (index, row) in values.enumerated() {
        let read = EventNumbers.Column.allCases.map { numbers.number($0, of: index) }
        #expect(read == row, "seed \(seed), trial \(trial), row \(index)")
      }
      let same = written(numbers) == lines(values)
      #expect(same, "seed \(seed), trial \(trial): \(values.count) rows")
    }
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
      numbers.append(part, code: { $0 / 3 }, body: { $0 &+ 1 }, changes: { $0 ^ 5 })
      let expected = first + second.map { [$0[0], $0[1] / 3, $0[2] &+ 1, $0[3] ^ 5] }
      let same = written(numbers) == lines(expected)
      #expect(same, "seed \(seed), trial \(trial): \(expected.count) rows")
    }
  }
}
