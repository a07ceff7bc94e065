extension JSONLines {
  /// The start of an event's line, `{"seq":12,"time_us":3400`, written for one event
  /// after another: the bytes `JSONWriter` writes with `beginObject`, `plainKey` and
  /// `int`, from text kept between lines. The line up to the time is kept with the
  /// sequence's digits in it, which are counted up in place when the next event's
  /// sequence follows; the time's digits above its last eight are kept while they do not
  /// change (a hundred seconds of a session), and the last eight written each time.
  @usableFromInline struct LineStart {
    /// `{"seq":` and the last sequence's digits, `,"time_us":`: ``prefixCount`` bytes.
    var prefix: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
    var prefixCount = 0
    /// The last sequence written; `prefix` is empty before the first.
    var sequence: UInt64 = 0
    /// The time's digits above its last eight (`time / 10⁸`, when that is not 0), and
    /// their number; `timeHigh` is `UInt64.max` before a time of 10⁸ or more.
    var timeHigh = UInt64.max
    var timeHighDigits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    var timeHighCount = 0

    static let sequenceKey: StaticString = "{\"seq\":"
    static let timeKey: StaticString = ",\"time_us\":"

    @usableFromInline init() {}

    /// Writes `{"seq":sequence,"time_us":time` into `json`, which must be between lines
    /// (nothing open), leaving it in the event's object after a member.
    @usableFromInline mutating func write(
      sequence: UInt64, time: UInt64, to json: inout JSONWriter
    ) {
      if sequence != self.sequence &+ 1 || prefixCount == 0 || !countUp() {
        setPrefix(sequence)
      }
      self.sequence = sequence
      // 40 bytes of the prefix, 8 of the time's digits beyond the 20 of the largest.
      json.reserve(40 + 12 + 24 + 8)
      let out = UnsafeMutableRawPointer(json.start + json.length)
      out.storeBytes(of: prefix, as: (UInt64, UInt64, UInt64, UInt64, UInt64).self)
      var count = prefixCount
      if time < 100_000_000 {
        count += DoubleText.writeDigits(time, to: json.start + json.length + count)
      } else {
        let high = time / 100_000_000
        if high != timeHigh { setTimeHigh(high) }
        (out + count).storeBytes(of: timeHighDigits, as: (UInt64, UInt64, UInt64).self)
        count += timeHighCount
        DoubleText.writeEightDigits(
          UInt32(truncatingIfNeeded: time &- high &* 100_000_000),
          to: json.start + json.length + count)
        count += 8
      }
      json.length += count
      json.needsComma = true
    }

    /// How many bytes `line` starts with that are `{"seq":sequence,"time_us":`, as
    /// ``write(sequence:time:to:)`` writes them; nil when it does not start so. What
    /// `import` expects of the next line: the prefix is counted up, not written, when
    /// `sequence` follows the last.
    mutating func prefixCount(ofLine line: UnsafeBufferPointer<UInt8>, sequence: UInt64) -> Int? {
      if sequence != self.sequence &+ 1 || prefixCount == 0 || !countUp() {
        setPrefix(sequence)
      }
      self.sequence = sequence
      // Compared a word at a time; the last word's bytes beyond the prefix masked out.
      let count = prefixCount
      let words = (count &+ 7) &>> 3
      guard let base = line.baseAddress, line.count >= words &* 8 else { return nil }
      return withUnsafeBytes(of: &prefix) { expected -> Int? in
        let text = UnsafeRawPointer(base)
        var differ: UInt64 = 0
        for index in 0..<(words &- 1) {
          differ |=
            text.loadUnaligned(fromByteOffset: index &* 8, as: UInt64.self)
            ^ expected.loadUnaligned(fromByteOffset: index &* 8, as: UInt64.self)
        }
        let last = (words &- 1) &* 8
        let kept = count &- last
        let mask: UInt64 = kept == 8 ? ~0 : (1 &<< UInt64(kept &* 8)) &- 1
        differ |=
          (text.loadUnaligned(fromByteOffset: last, as: UInt64.self)
            ^ expected.loadUnaligned(fromByteOffset: last, as: UInt64.self)) & mask
        return differ == 0 ? count : nil
      }
    }

    /// Adds one to the sequence's digits in `prefix`; false when they all were nines
    /// (one more digit: the prefix is written again).
    private mutating func countUp() -> Bool {
      withUnsafeMutableBytes(of: &prefix) { bytes in
        let keyCount = Self.sequenceKey.utf8CodeUnitCount
        var index = prefixCount - Self.timeKey.utf8CodeUnitCount - 1
        while index >= keyCount {
          if bytes[index] != UInt8(ascii: "9") {
            bytes[index] += 1
            return true
          }
          bytes[index] = UInt8(ascii: "0")
          index -= 1
        }
        return false
      }
    }

    private mutating func setPrefix(_ sequence: UInt64) {
      prefix = (0, 0, 0, 0, 0)
      prefixCount = withUnsafeMutableBytes(of: &prefix) { bytes in
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var count = 0
        for text in [Self.sequenceKey, Self.timeKey] {
          if count > 0 { count += DoubleText.writeDigits(sequence, to: base + count) }
          text.withUTF8Buffer { key in
            (base + count).update(from: key.baseAddress!, count: key.count)
            count += key.count
          }
        }
        return count
      }
    }

    private mutating func setTimeHigh(_ high: UInt64) {
      timeHigh = high
      timeHighDigits = (0, 0, 0)
      timeHighCount = withUnsafeMutableBytes(of: &timeHighDigits) { bytes in
        DoubleText.writeDigits(high, to: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self))
      }
    }
  }
}
