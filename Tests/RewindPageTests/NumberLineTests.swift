import RewindCore
import TestSupport
import Testing

@testable import RewindPage

/// The page's lines of numbers against `JSONWriter`, which wrote them before.
@Suite("NumberLine: the bytes JSONWriter writes for an array of non-negative integers")
struct NumberLineTests {
  @Test("random arrays of numbers of every length of digits, empty ones, past the buffer")
  func againstJSONWriter() {
    let seed = testSeed("NumberLineTests.againstJSONWriter")
    var random = SplitMix64(seed: seed)
    for trial in 0..<200 {
      let count = trial == 0 ? 0 : Int(random.next() % 300)
      let values: [UInt64] = (0..<count).map { _ in
        switch random.next() % 4 {
        case 0: return random.next() % 10
        case 1:
          return [
            0, 9, 10, 99, 100, 999, 1_000, 1_001, 999_999, 1_000_000, 1_000_999, 999_999_999,
            1_000_000_000, UInt64(Int64.max),
          ][Int(random.next() % 14)]
        case 2: return random.next() >> (random.next() % 64) & UInt64(Int64.max)
        default: return random.next() % 100_000
        }
      }
      var line = NumberLine(capacity: Int(random.next() % 100))
      var writer = JSONWriter()
      writer.beginArray()
      for value in values {
        line.append(value)
        writer.int(Int64(value))
      }
      writer.endArray()
      writer.newline()
      var written: [UInt8] = [7]
      line.write(to: &written)
      #expect(written == [7] + writer.bytes, "seed \(seed), trial \(trial): \(values)")
      #expect(line.count == writer.count, "seed \(seed), trial \(trial)")
    }
  }
}
