import RewindCore
import TestSupport
import Testing

@testable import RewindPage

/// The page's lines of numbers against `JSONWriter`, which wrote them before, and against
/// `String(_:)` at every boundary of the digits' count.
@Suite("NumberLine: the bytes JSONWriter writes for an array of non-negative integers")
struct NumberLineTests {
  /// The line `NumberLine.write` writes for `values`, into a buffer of exactly its bound
  /// followed by guard bytes, which must be left as they were.
  static func line(_ values: [UInt64]) -> [UInt8] {
    values.withUnsafeBufferPointer { values in
      let bound = NumberLine.bound(of: values)
      let guardCount = 64
      let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: bound + guardCount)
      defer { buffer.deallocate() }
      buffer.initialize(repeating: 0xA5, count: bound + guardCount)
      let end = NumberLine.write(values, to: buffer)
      #expect(end - buffer <= bound, "written past the bound: \(Array(values))")
      #expect(
        (0..<guardCount).allSatisfy { buffer[bound + $0] == 0xA5 },
        "stored past the bound: \(Array(values))")
      return Array(UnsafeBufferPointer(start: buffer, count: end - buffer))
    }
  }

  /// The line as `String(_:)` writes its numbers.
  static func expected(_ values: [UInt64]) -> [UInt8] {
    Array(("[" + values.map { String($0) }.joined(separator: ",") + "]\n").utf8)
  }

  @Test("random arrays of numbers of every length of digits, empty ones, odd and even counts")
  func againstJSONWriter() {
    let seed = testSeed("NumberLineTests.againstJSONWriter")
    var random = SplitMix64(seed: seed)
    for trial in 0..<300 {
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
      var writer = JSONWriter()
      writer.beginArray()
      for value in values { writer.int(Int64(value)) }
      writer.endArray()
      writer.newline()
      #expect(Self.line(values) == writer.bytes, "seed \(seed), trial \(trial): \(values)")
    }
  }

  @Test("each side of every power of ten, 0 and UInt64.max, alone and among others")
  func digitBoundaries() {
    var values: [UInt64] = [0, 1, UInt64.max, UInt64.max - 1]
    var power: UInt64 = 10
    for _ in 1...19 {
      values += [power - 1, power, power + 1]
      power = power &* 10
    }
    #expect(Self.line([]) == Array("[]\n".utf8))
    for value in values {
      #expect(Self.line([value]) == Self.expected([value]), "\(value)")
      #expect(Self.line([value, value]) == Self.expected([value, value]), "\(value)")
      #expect(Self.line([7, value, 7]) == Self.expected([7, value, 7]), "\(value)")
      #expect(NumberLine.digitCount(value) == String(value).count, "\(value)")
    }
    #expect(Self.line(values) == Self.expected(values))
    #expect(Self.line(values.reversed()) == Self.expected(values.reversed()))
  }
}
