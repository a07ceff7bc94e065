import TestSupport
import Testing

@testable import RewindPage

/// The page's numbers kept raw and written as a line at the end, against the numbers as
/// `String(_:)` writes them.
@Suite("RawNumbers: the line written at the end is the line written as the numbers came")
struct RawNumbersTests {
  /// Random numbers of every length of digits, mostly short, as the page's are.
  private func numbers(_ count: Int, _ random: inout SplitMix64) -> [UInt64] {
    (0..<count).map { _ in
      switch random.next() % 4 {
      case 0: return random.next() % 1_000
      case 1:
        return [
          0, 9, 10, 99, 100, 999, 1_000, 1_001, 999_999, 1_000_000, 999_999_999,
          1_000_000_000, UInt64.max,
        ][Int(random.next() % 13)]
      case 2: return random.next() >> (random.next() % 64)
      default: return random.next() % 100_000
      }
    }
  }

  /// The line of `values` as `String(_:)` writes its numbers.
  private func line(_ values: [UInt64]) -> [UInt8] {
    NumberLineTests.expected(values)
  }

  /// The line `raw` writes, into a buffer of its bound.
  private func written(_ raw: borrowing RawNumbers) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: raw.lineBound) { buffer, count in
      count = raw.writeLine(to: buffer.baseAddress!) - buffer.baseAddress!
    }
  }

  @Test("random numbers, appended from a small buffer that grows, then written once")
  func writtenAtTheEnd() {
    let seed = testSeed("RawNumbersTests.writtenAtTheEnd")
    var random = SplitMix64(seed: seed)
    for trial in 0..<200 {
      let values = numbers(trial == 0 ? 0 : Int(random.next() % 10_000), &random)
      var raw = RawNumbers(capacity: Int(random.next() % 40))
      for value in values {
        if raw.hasRoom, random.next() % 2 == 0 {
          raw.append(withinRoom: value)
        } else {
          raw.append(value)
        }
      }
      #expect(Array(raw.numbers) == values, "seed \(seed), trial \(trial)")
      #expect(written(raw) == line(values), "seed \(seed), trial \(trial): \(values)")
    }
  }

  @Test("a part's numbers appended, as they are and renumbered, as the merge of parts does")
  func appendedAndRenumbered() {
    let seed = testSeed("RawNumbersTests.appendedAndRenumbered")
    var random = SplitMix64(seed: seed)
    for trial in 0..<50 {
      let first = numbers(Int(random.next() % 500), &random)
      let second = numbers(Int(random.next() % 500), &random)
      var raw = RawNumbers(capacity: Int(random.next() % 40))
      var part = RawNumbers(capacity: Int(random.next() % 40))
      for value in first { raw.append(value) }
      for value in second { part.append(value) }
      raw.append(part) { $0 }
      raw.append(part) { $0 / 3 &+ 1 }
      let expected = first + second + second.map { $0 / 3 &+ 1 }
      #expect(written(raw) == line(expected), "seed \(seed), trial \(trial)")
    }
  }
}
